"""The command line on random and malformed arguments: no traceback, whatever is typed.

A seeded generator writes argument lists for every command and subcommand: the command's
own options with good, bad and missing values, options of other commands, unknown options,
stray words, odd text (unicode digits, signs, exponents, whitespace, huge numbers), and for
``play``, ``uno play``, ``solve`` (``--play``, ``--file -``) and ``review -`` random lines on
standard input (``review -`` also a record). Good values stay small so that every run that
is allowed to run ends in a moment: the positions ``solve`` gets are solved in milliseconds;
``arena`` plays one or two deals of cheap agents (random, greedy, RLCard's rule agent, which
is refused in one line where rlcard is not installed); ``review`` gets short games' records
(JSON and text) under a small node budget, and files that are no record (malformed,
truncated, binary, nested deep, past the length bound, empty), a directory, a missing path;
``douzero:PATH`` agents name a missing file, a directory and a file that is no checkpoint.
``serve`` always gets a bad port last, so it never starts serving; ``train`` a value its
parser refuses, but for the first few train cases of a batch (TRAIN_RUNS): one tiny run that
trains (one actor, one frame, its checkpoint under the test's directory) and runs that must
be refused before training (a savedir that is a file, a model.tar that is junk or a
directory, buffers past any memory). Without PyTorch those are refused in one line too.

Most cases run through ``ddz.cli.main`` in one fresh interpreter (a driver, isolated from the
test runner); a sample runs as ``python -m ddz ...`` in subprocesses of its own, the way a
shell runs it. A case fails when an exception other than ``SystemExit`` leaves ``main``, a
traceback is printed, the exit status is not 0, 1 or 2, or an argument error (status 2)
takes more than one line. ``DDZ_FUZZ_SEED`` and ``DDZ_FUZZ_CASES`` run other or more cases;
REGRESSIONS, what the fuzzer found once, run first in every batch.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import run_isolated

SEED = int(os.environ.get("DDZ_FUZZ_SEED", "20261201"))
CASES = int(os.environ.get("DDZ_FUZZ_CASES", "160"))
SHELL_CASES = max(CASES // 25, 1)  # a fresh interpreter each: about 0.4 s a case

DOUZERO_AGENTS = [  # checkpoints that are not: each is refused in one line
    "douzero:{nockpt}", "douzero:{directory}", "douzero:/no/such/ckpt", "douzero:",
    "greedy,douzero:{directory}",
]  # fmt: skip
GOOD_INT = {
    "--games": ["1", "2", "5", "7"],
    "--seed": ["0", "1", "3", "18446744073709551615", "0007"],
    "--agents": [
        "random",
        "greedy",
        "random,greedy",
        "greedy,random,random",
        " greedy ",
        *DOUZERO_AGENTS,
    ],
    "--rules": ["classic", "two-player", "uno-landlord", "douzero", "endgame", "rlcard"],
    "--seat": ["0", "1", "2"],
    "--threads": ["1", "2"],
    "--engine": ["auto", "core", "python"],
    "--positions": ["1", "10", "40"],
    "--repeats": ["1", "2"],
    "--depth": ["1", "2", "3"],
    "--first-player": ["0", "1", "2"],
    "--actions": ["", "pass", "bid 1,pass", "bid 3", "call,grab", "pass,pass,pass"],
    "--last": ["3", "55", "333+4", "34567", "XD", "pass", "4444+XD"],
    "--players": ["2", "3", "4", "10"],
    "--port": ["-1", "65536", "http", "99999999999999999999"],
    "--host": ["", "::", "nosuch.invalid", "127.0.0.1"],
    "--time-limit": ["0.5", "2", "1e-3", "10"],
    "--node-limit": ["1", "100", "100000"],
    "--memory-mb": ["1", "8"],
    "--side": ["landlord", "farmers", "farmer", "0", "1", "2"],
}
BAD = [
    "-1", "0", "-0", "+3", "1e3", "0x10", "3.0", "nan", "inf", "", " ", "٣", "三", "10" * 30,
    str(2**64), str(-(2**63)), str(10**15), "--", "-", "None", "true", "classic,", ",", ",,",
    "a" * 200, "üñí", "$HOME", "'", '"', "\\", "\t", "1,2,3", "bid", "bid 9", "3333333", "XXDD",
    "ZZ", "33kd", "55s",
]  # fmt: skip
UNO_GOOD = {"--rules": ["lombardy", "standard"], "--games": ["1", "2"], "--seat": ["0", "1"]}
ARENA_GOOD = {
    "--deals": ["1", "2"],
    "--against": ["random", "greedy", "rlcard-rule", "rlcard-rule", "douzero:{nockpt}", "nosuch"],
    "--rules": ["rlcard", "rlcard", "douzero", "classic"],
}
REVIEW_GOOD = {  # a budget a position that keeps a review of a whole game to a moment
    "--node-limit": ["1", "100", "5000"],
    "--time-limit": ["0.5", "1e-3", "10"],
}
TRAIN_GOOD = {  # tiny, where a value could make a run long or large
    "--xpid": ["x", "", "a/b", "ü", "junk", "tardir"],
    "--savedir": ["{savedir}", "{junk}", "{directory}"],
    "--objective": ["adp", "wp", "logadp"],
    "--num-actors": ["1"],
    "--tables-per-actor": ["1", "2"],
    "--total-frames": ["1", "2"],
    "--save-interval": ["30", "1"],
    "--device": ["cpu", "cuda:0", "cuda", "gpu"],
    "--batch-size": ["1", "2"],
    "--unroll-length": ["1", "2"],
    "--num-buffers": ["1", "2"],
    "--num-threads": ["1"],
    "--exp-epsilon": ["0", "0.01", "1"],
    "--max-grad-norm": ["40", "1e-9"],
    "--learning-rate": ["0.0001", "1e3"],
    "--alpha": ["0", "0.99", "1"],
    "--momentum": ["0", "0.5"],
    "--epsilon": ["1e-5"],
    "--log-interval": ["0.01", "5"],
    "--seed": ["0", "1", str(2**63 - 1025), str(2**63 - 1024)],
    "--ray": ["auto", "local", "ray://nosuch.invalid:10001"],
}
GOOD = {
    "uno simulate": UNO_GOOD, "uno play": UNO_GOOD, "arena": ARENA_GOOD, "review": REVIEW_GOOD,
    "train": TRAIN_GOOD,
}  # fmt: skip
OPTIONS = {
    "moves": ["--last", "--rules"],
    "classify": ["--rules"],
    "bench": ["--positions", "--repeats", "--seed", "--games", "--rules"],
    "simulate": ["--games", "--agents", "--seed", "--engine", "--threads", "--quiet", "--rules"],
    "play": ["--seat", "--agents", "--seed", "--rules"],
    "perft": ["--seed", "--first-player", "--actions", "--record", "--depth", "--divide",
              "--rules"],
    "serve": ["--port", "--host", "--verbose"],
    "solve": ["--file", "--rules", "--analyse", "--score", "--play", "--side", "--time-limit",
              "--node-limit", "--memory-mb", "--threads", "--json"],
    "uno simulate": ["--games", "--seed", "--agents", "--json", "--players", "--rules"],
    "uno play": ["--seed", "--seat", "--agents", "--players", "--rules"],
    "arena": ["--against", "--deals", "--seed", "--rules", "--no-mixed", "--quiet"],
    "review": ["--score", "--json", "--node-limit", "--time-limit", "--memory-mb"],
    "train": [*TRAIN_GOOD, "--load-model", "--disable-checkpoint"],
}  # fmt: skip
FLAGS = {
    "--quiet", "--divide", "--verbose", "--json", "--analyse", "--score", "--play", "--no-mixed",
    "--load-model", "--disable-checkpoint",
}  # fmt: skip
POSITIONAL = {
    "moves": ["33344456789TJQKA2XD", "3", "", "33", "XD"],
    "classify": ["33334455"],
    "solve": [  # small positions, so that a search without limits ends in a moment
        "3KK/44A landlord=0",
        "35567QQQ/34699QXD landlord=0",
        "KK/AA/22 landlord=2 turn=0 table=QQ@1 played=-/QQ/-",
        "33334/5 landlord=0 bombs=2",
        "5KK/66A landlord=1 rules=two-player",
        "3KK/44A",
        "3KK/44A landlord=0 table=55@1",
        "KK/AA/22 landlord=9",
    ],
    "review": [  # records of short games (the first five), and files that are no record
        "{review_json}",
        "{review_text}",
        "{review_json}",
        "{review_text}",
        "{record}",
        "{junk}",
        "{binary}",
        "{huge}",
        "{empty}",
        "{nested}",
        "{directory}",
        "/no/such/file",
        "-",
        "-",
        "{positions}",
    ],
    "arena": ["random", "greedy", "rlcard-rule"],  # cheap agents (AGENT...)
}
REFUSED_AGENTS = ["nosuch", "pimc,greedy", *DOUZERO_AGENTS]
"""Agents arena refuses (it plays the agents of its registry only)."""
STDIN_RECORDS = ["{review_json}", "{review_text}"]
"""What ``review -`` may read instead of random lines: a record, as a pipe gives it."""
INPUT_LINES = [
    "?", "hint", "pass", "bid 1", "bid 3", "call", "grab", "33", "3", "XD", "34567", "1", "2",
    "9", "0", "", "  ", "quit", "zz", "draw", "R5", "W r", "+4", "uno", "三", "-1", "1e9",
]  # fmt: skip
QUICK = {  # first and last, so that they win over any value drawn: argparse still converts
    # (and refuses) each value drawn, but a good one, such as 3333333 games, is never played
    "bench": ["--games", "0", "--positions", "5", "--repeats", "1"],
    "uno simulate": ["--games", "2"],  # its default, 100 matches, takes seconds a case
    "arena": ["--deals", "1"],
    "review": ["--node-limit", "2000", "--memory-mb", "1"],
}
TRAIN_TINY = [
    "--total-frames", "1", "--num-actors", "1", "--tables-per-actor", "1", "--unroll-length",
    "1", "--batch-size", "1", "--num-buffers", "1", "--num-threads", "1",
]  # fmt: skip
TRAIN_RUNS = [  # how the few train cases allowed to run end (only the first trains)
    ["--savedir", "{savedir}", "--xpid", "run"],
    ["--savedir", "{junk}", "--xpid", "x"],  # the savedir is a file
    ["--savedir", "{savedir}", "--xpid", "junk", "--load-model"],  # model.tar is not one
    ["--savedir", "{savedir}", "--xpid", "tardir"],  # model.tar is a directory
    ["--disable-checkpoint", "--unroll-length", str(10**21)],  # buffers past any memory
]
"""The first train cases of a batch are allowed to run, with TRAIN_TINY, good values of
other options (none that sizes the run) and one of these last; every other train case
ends with a value the parser refuses, so that no case trains for long (a run that trains
starts an actor process: seconds)."""
TRAIN_FIXED = {*TRAIN_TINY[::2], "--savedir", "--xpid", "--load-model", "--disable-checkpoint",
               "--ray"}  # fmt: skip
TRAIN_REFUSED = [["--total-frames", "0"], ["--num-actors", "0"], ["--device", "tpu"],
                 ["--objective", "nope"], ["--alpha", "2"]]  # fmt: skip


def option_value(option: str, command: str, rng: random.Random) -> list[str]:
    if option in FLAGS:
        return [option]
    if option == "--record":
        return [option, rng.choice(["{record}", "{junk}", "/no/such/file", "{directory}"])]
    if option == "--file":
        choices = ["{positions}", "{junk}", "/no/such/file", "{directory}", "-"]
        return [option, rng.choice(choices)]
    roll = rng.random()
    if roll < 0.08:
        return [option]  # the value is missing (or the next word is taken as it)
    if roll < 0.7:
        good = GOOD.get(command, {}).get(option) or GOOD_INT.get(option, ["1"])
        return [option, rng.choice(good)]
    return [option, rng.choice(BAD)]


def argv_for(command: str, rng: random.Random, train_run: list[str] | None = None) -> list[str]:
    """A random argument list for ``command``; for ``train``, ``train_run`` is the ending of a
    case allowed to run (TRAIN_RUNS), None for a case the parser refuses."""
    words = command.split()
    if command == "arena":  # one to three agents, one of them perhaps bad
        agents = [rng.choice(POSITIONAL["arena"]) for _ in range(rng.randint(1, 3))]
        if rng.random() < 0.3:
            agents[rng.randrange(len(agents))] = rng.choice([*BAD, *REFUSED_AGENTS])
        words += agents
    for word in POSITIONAL.get(command, []) and [rng.choice(POSITIONAL[command])]:
        if rng.random() < 0.85 and command != "arena":
            words.append(word if rng.random() < 0.7 else rng.choice(BAD))
    if train_run is not None:  # a run that is allowed to run: see TRAIN_RUNS
        return ["train", *TRAIN_TINY, *train_options(rng, train_run), *train_run]
    options = OPTIONS[command]
    for _ in range(rng.randrange(0, 5)):
        roll = rng.random()
        if roll < 0.75:
            words += option_value(rng.choice(options), command, rng)
        elif roll < 0.85:
            other = rng.choice(sorted({o for opts in OPTIONS.values() for o in opts}))
            words += option_value(other, command, rng)
        elif roll < 0.93:
            words.append(rng.choice(["--nope", "-x", "--help=3", "---", "--games=", "-h5"]))
        else:
            words.append(rng.choice(BAD))
    at = len(command.split())
    words[at:at] = QUICK.get(command, [])  # where a stray word makes argparse stop early
    words += QUICK.get(command, [])
    if command == "serve":
        words += ["--port", rng.choice(GOOD_INT["--port"])]  # never a port it could serve on
    if command == "train":
        words += rng.choice(TRAIN_REFUSED)  # never trains
    return words


def train_options(rng: random.Random, train_run: list[str]) -> list[str]:
    """Good values of train's options that do not size the run (the first of TRAIN_RUNS,
    the one that trains, gets none: it trains whatever the seed)."""
    if train_run is TRAIN_RUNS[0]:
        return []
    free = [option for option in TRAIN_GOOD if option not in TRAIN_FIXED]
    words = []
    for option in rng.sample(free, rng.randrange(0, 4)):
        words += [option, rng.choice(TRAIN_GOOD[option])]
    return words


REGRESSIONS = [
    # douzero:PATH of a missing file or of a directory without checkpoints (FileNotFoundError;
    # ImportError without PyTorch) left the command line as a traceback
    ["simulate", "--games", "1", "--agents", "douzero:/no/such/ckpt"],
    ["simulate", "--games", "1", "--agents", "greedy,douzero:{directory}"],
    ["play", "--agents", "douzero:{directory}"],
]
"""Argument lists the fuzzer found a traceback with, run first in every batch (and train's,
TRAIN_RUNS[1:]: each of those was a traceback too, the first after training)."""


def cases(count: int, seed: int) -> list[tuple[list[str], str]]:
    """``count`` (argv, standard input) pairs over every command, from ``seed``."""
    rng = random.Random(seed)
    commands = [*OPTIONS, "uno", ""]
    found: list[tuple[list[str], str]] = []
    trains = 0
    for index in range(count):
        command = commands[index % len(commands)]
        if command in ("uno", ""):
            argv = [*command.split(), *(rng.choice([*BAD, "--help", "-h", "nothing"]),)]
        elif command == "train":
            argv = argv_for(command, rng, TRAIN_RUNS[trains] if trains < len(TRAIN_RUNS) else None)
            trains += 1
        else:
            argv = argv_for(command, rng)
        lines = [rng.choice(INPUT_LINES) for _ in range(rng.randrange(0, 12))]
        stdin = "\n".join(lines) + ("\n" if lines else "")
        if command == "review" and rng.random() < 0.5:
            stdin = rng.choice(STDIN_RECORDS)  # the file's text, filled in by fill_input
        found.append((argv, stdin))
    return found


PLACEHOLDERS = [
    "positions", "record", "junk", "directory", "review_json", "review_text", "binary", "huge",
    "empty", "nested", "nockpt", "savedir",
]  # fmt: skip
"""The names ``fill`` replaces by the test's files (the ``files`` fixture)."""


def fill(argv: list[str], files: dict[str, str]) -> list[str]:
    """The argument list with the test's files for its ``{name}`` placeholders."""
    return [re.sub(r"\{(\w+)\}", lambda name: files[name[1]], word) for word in argv]


def fill_input(stdin: str, files: dict[str, str]) -> str:
    if stdin in STDIN_RECORDS:
        return Path(files[stdin[1:-1]]).read_text(encoding="utf-8")
    return stdin


def random_game(rules: object, seed: int) -> object:
    """A game played to its end by random moves: a short record to review."""
    import ddz

    game = ddz.Game(rules, seed=seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.step(rng.choice(game.legal_actions()))
    return game


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    import ddz
    from ddz.base.errors import MAX_RECORD

    game = ddz.Game(seed=5)
    game.step("bid 3")
    (tmp_path / "record.json").write_text(game.to_json(), encoding="utf-8")
    (tmp_path / "junk.json").write_text('{"seed": "x", "history": [[', encoding="utf-8")
    (tmp_path / "positions.txt").write_text(
        "# positions\n+1 3KK/44A landlord=0  # stored\n\nKK/AA/22 landlord=2 turn=0 table=QQ@1\n"
        "-1 34/K landlord=0\n",
        encoding="utf-8",
    )
    (tmp_path / "review.json").write_text(random_game(ddz.ENDGAME, 3).to_json(), encoding="utf-8")
    (tmp_path / "review.txt").write_text(random_game(ddz.DOUZERO, 4).record(), encoding="utf-8")
    (tmp_path / "binary.dat").write_bytes(b"\x00\xff\xfe\x80 not text" * 10)
    (tmp_path / "huge.json").write_text("{" + " " * MAX_RECORD + "}", encoding="utf-8")
    (tmp_path / "empty.json").write_text("", encoding="utf-8")
    (tmp_path / "nested.json").write_text("[" * 100_000, encoding="utf-8")
    (tmp_path / "weights.ckpt").write_text("not a checkpoint", encoding="utf-8")
    saves = tmp_path / "saves"
    (saves / "junk").mkdir(parents=True)
    (saves / "junk" / "model.tar").write_bytes(b"PK\x03\x04 not a checkpoint")
    (saves / "tardir" / "model.tar").mkdir(parents=True)
    paths = {
        "positions": str(tmp_path / "positions.txt"),
        "record": str(tmp_path / "record.json"),
        "junk": str(tmp_path / "junk.json"),
        "directory": str(tmp_path),
        "review_json": str(tmp_path / "review.json"),
        "review_text": str(tmp_path / "review.txt"),
        "binary": str(tmp_path / "binary.dat"),
        "huge": str(tmp_path / "huge.json"),
        "empty": str(tmp_path / "empty.json"),
        "nested": str(tmp_path / "nested.json"),
        "nockpt": str(tmp_path / "weights.ckpt"),
        "savedir": str(saves),
    }
    assert sorted(paths) == sorted(PLACEHOLDERS)
    return paths


DRIVER = """
import contextlib, io, json, sys, traceback
from ddz.cli.main import main

with open(__CASES__, encoding="utf-8") as file:
    batch = json.load(file)
failures = []
for argv, stdin in batch:
    out, err = io.StringIO(), io.StringIO()
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(argv)
    except SystemExit as exited:
        status = exited.code if isinstance(exited.code, int) else 2
    except BaseException:
        failures.append([argv, stdin, traceback.format_exc()])
        continue
    failures += [[argv, stdin, why] for why in __CHECK__(status, err.getvalue())]
print(json.dumps(failures))
"""


def check(status: int, err: str) -> list[str]:
    """What is wrong with a run that ended with ``status`` and printed ``err``."""
    problems = []
    if "Traceback" in err:
        problems.append(f"a traceback:\n{err}")
    if status not in (0, 1, 2):
        problems.append(f"exit status {status}:\n{err}")
    if status == 2 and len(err.strip().splitlines()) != 1:
        problems.append(f"an argument error that is not one line:\n{err}")
    return problems


def test_the_command_line_survives_random_arguments(files: dict[str, str], tmp_path: Path) -> None:
    import inspect

    generated = [(argv, "") for argv in REGRESSIONS] + cases(CASES, SEED)
    batch = [(fill(argv, files), fill_input(stdin, files)) for argv, stdin in generated]
    (tmp_path / "cases.json").write_text(json.dumps(batch), encoding="utf-8")
    driver = DRIVER.replace("__CHECK__", "check")
    code = inspect.getsource(check) + driver.replace(
        "__CASES__", repr(str(tmp_path / "cases.json"))
    )
    failures = json.loads(run_isolated(code, timeout=300).strip().splitlines()[-1])
    assert not failures, "\n\n".join(
        f"python -m ddz {' '.join(map(repr, argv))} (input {stdin!r}):\n{why}"
        for argv, stdin, why in failures[:5]
    )


def test_the_command_line_survives_random_arguments_from_the_shell(
    files: dict[str, str],
) -> None:
    for argv, stdin in cases(SHELL_CASES, SEED + 1):
        argv = fill(argv, files)
        done = subprocess.run(
            [sys.executable, "-m", "ddz", *argv],
            input=fill_input(stdin, files),
            capture_output=True,
            text=True,
            timeout=60,
        )
        problems = check(done.returncode, done.stderr)
        assert not problems, f"python -m ddz {' '.join(map(repr, argv))}: {problems[0]}"


def test_the_generator_reaches_every_command_and_both_outcomes() -> None:
    """The cases are not all rejected by the parser: some run, some fail."""
    generated = cases(CASES, SEED)
    first_words = {argv[0] for argv, _ in generated if argv}
    assert {command.split()[0] for command in OPTIONS} <= first_words
    parsed = 0
    from ddz.cli.main import build_parser

    for argv, _ in generated:
        if argv[:1] == ["uno"]:
            continue
        try:
            build_parser().parse_args([word.replace("{", "") for word in argv])
            parsed += 1
        except SystemExit:
            pass
    assert 0.15 * CASES < parsed < 0.85 * CASES, parsed


def test_the_cases_allowed_to_run_stay_small() -> None:
    """No case the parser accepts trains, plays or reviews for long: train's are the few
    TRAIN_RUNS, one frame of one actor's one table; arena plays two deals at most; review's
    budget is 5000 nodes a position at most; bench times five hands once, and no game."""
    from ddz.cli.main import build_parser

    trains = 0
    for argv, _ in cases(CASES, SEED):
        if argv[:1] not in (["train"], ["arena"], ["review"], ["bench"]):
            continue
        try:
            args = build_parser().parse_args(fill(argv, dict.fromkeys(PLACEHOLDERS, "x")))
        except SystemExit:
            continue
        if args.command == "train":
            trains += 1
            assert (args.total_frames, args.num_actors, args.tables_per_actor) == (1, 1, 1)
            assert (args.batch_size, args.num_buffers, args.num_threads) == (1, 1, 1)
        elif args.command == "arena":
            assert args.deals <= 2
        elif args.command == "bench":
            assert (args.games, args.positions, args.repeats) == (0, 5, 1)
        else:
            assert args.node_limit <= 5000
    assert trains <= len(TRAIN_RUNS)
