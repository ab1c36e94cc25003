"""The command line as a person meets it: --help everywhere, one-line errors for bad
arguments, Ctrl-C without a traceback, a replay hint that deals the same game, perft."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import ddz
from ddz.agents import GreedyAgent, choose
from ddz.cli.main import build_parser, main, play
from ddz.cli.uno import build_parser as build_uno_parser
from ddz.doudizhu.render import grouped
from ddz.doudizhu.rules import PRESETS
from tests.terminal import AS_IN_A_TERMINAL

PERFT = json.loads((Path(__file__).resolve().parent / "data" / "perft.json").read_text())


def run_ddz(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ddz", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def commands() -> list[list[str]]:
    """Every command and subcommand, read from the parsers (new commands are covered)."""
    found: list[list[str]] = [[], ["uno"]]
    for parser, prefix in ((build_parser(), []), (build_uno_parser(), ["uno"])):
        for action in parser._subparsers._group_actions:  # type: ignore[union-attr]
            for name in action.choices:  # type: ignore[union-attr]
                if [*prefix, name] not in found:
                    found.append([*prefix, name])
    return found


@pytest.mark.parametrize("command", commands(), ids=lambda c: " ".join(c) or "ddz")
def test_every_command_has_help(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main([*command, "--help"])
    assert exited.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: python -m ddz {' '.join(command)}".rstrip())
    assert "--help" in out


def test_uno_help_from_the_shell() -> None:
    result = run_ddz("uno", "--help")
    assert result.returncode == 0, result.stderr
    assert "simulate" in result.stdout and "play" in result.stdout


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--seed", "-1"],
        ["simulate", "--games", "-5"],
        ["simulate", "--games", "0"],
        ["simulate", "--games", "ten"],
        ["simulate", "--threads", "0"],
        ["simulate", "--seed", str(2**64)],
        ["simulate", "--games", str(10**15)],  # was a MemoryError traceback
        ["bench", "--positions", str(10**9)],
        ["bench", "--repeats", str(10**11)],  # ran for ever
        ["moves", "33kd"],  # 'd' a suit or the big joker
        ["moves", "3", "--last", "4444XD"],
        ["simulate", "--agents", "nobody"],
        ["bench", "--positions", "-1"],
        ["bench", "--repeats", "0"],
        ["bench", "--games", "-3"],
        ["play", "--seat", "3"],
        ["play", "--seat", "2", "--rules", "two-player"],
        ["play", "--seed", "-4"],
        ["play", "--agents", "nobody"],
        ["perft", "--depth", "0"],
        ["perft", "--depth", "1000"],
        ["perft", "--first-player", "2", "--rules", "two-player"],
        ["perft", "--actions", "bid 9"],
        ["perft", "--record", "/no/such/file.json"],
        ["moves", "33Z"],
        ["uno", "simulate", "--games", "-5"],
        ["uno", "simulate", "--seed", "-1"],
        ["uno", "simulate", "--players", "11"],
        ["uno", "simulate", "--agents", ","],
        ["uno", "play", "--seat", "4", "--players", "3"],
        ["uno", "play", "--players", "1"],
        ["solve", "3KK/44A"],
        ["solve", "3KK/44A", "landlord=0", "--time-limit", "nan"],
        ["solve", "3KK/44A", "landlord=0", "--play", "--side", "7"],
        ["uno", "nothing"],
        ["nothing"],
    ],
)
def test_bad_arguments_get_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        status = main(argv)
    except SystemExit as exited:  # argparse
        status = exited.code  # type: ignore[assignment]
    captured = capsys.readouterr()
    assert status == 2
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "error" in lines[0], captured.err
    assert len(lines[0]) < 300, lines[0]
    assert "Traceback" not in captured.err + captured.out


def test_an_unreadable_last_move_is_named_in_card_notation(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["moves", "3", "--last", "4444XD"]) == 2
    assert capsys.readouterr().err == "error: 4444XD is not a move under these rules\n"


def test_bad_arguments_from_the_shell() -> None:
    for args in (["simulate", "--seed", "-1"], ["uno", "simulate", "--games", "-5"]):
        result = run_ddz(*args)
        assert result.returncode == 2
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert result.stdout == ""


# --- the replay hint -------------------------------------------------------------------------


def hint_and_hand(lines: list[str]) -> tuple[str, str]:
    hint = next(line for line in lines if "deals this game again" in line)
    hand = next(line for line in lines if line.startswith("Your hand:"))
    return hint.split("'")[1], hand


def test_the_replay_hint_deals_the_same_game() -> None:
    lines: list[str] = []
    answers = iter(["quit"])
    status = play(
        seat=1,
        agents=["random"],
        seed=3,
        rules=ddz.UNO_LANDLORD,
        read=lambda prompt: next(answers),
        write=lines.append,
    )
    assert status == 0
    command, hand = hint_and_hand(lines)
    assert command == "python -m ddz play --seed 3 --rules uno-landlord --seat 1 --agents random"
    words = command.split()[3:]
    again = run_ddz(*words, stdin="quit\n")
    assert again.returncode == 0, again.stderr
    assert hint_and_hand(again.stdout.splitlines()) == (command, hand)


def test_the_uno_replay_hint() -> None:
    args = ["uno", "play", "--seed", "9", "--players", "3", "--rules", "standard", "--seat", "2"]
    result = run_ddz(*args, stdin="quit\n")
    assert result.returncode == 0, result.stderr
    assert "'python -m ddz uno play --seed 9 --players 3 --rules standard --seat 2'" in (
        result.stdout
    )


# --- Ctrl-C ----------------------------------------------------------------------------------


def interrupt(args: list[str], ready: str, *, answer: str | None = None) -> tuple[int, str]:
    """Run ``python -m ddz ARGS`` on a terminal (a pty), wait for ``ready`` in its output,
    press Ctrl-C (SIGINT to the process, as the terminal sends it) and return the exit status
    and everything it printed.

    CPython's ``input()`` misses a SIGINT that lands between printing the prompt and starting
    to read (it waits for the next key); the test waits a moment after the prompt and, as a
    person would, presses Ctrl-C again if the first did nothing."""
    import pty

    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "ddz", *args],
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        close_fds=True,
        **AS_IN_A_TERMINAL,
    )
    os.close(terminal)
    output = b""
    deadline = time.monotonic() + 60
    try:
        while ready.encode() not in output:
            assert time.monotonic() < deadline, output.decode(errors="replace")
            assert process.poll() is None, "it ended early:\n" + output.decode(errors="replace")
            output += _read(controller)
        if answer is not None:
            os.write(controller, answer.encode() + b"\n")
            time.sleep(0.3)
            output += _read(controller, wait=0.2)
        time.sleep(0.3)  # into the read: a signal just before it waits for the next key
        for _ in range(10):  # a person presses Ctrl-C again if nothing happens
            process.send_signal(signal.SIGINT)
            try:
                status = process.wait(timeout=3)
                break
            except subprocess.TimeoutExpired:
                output += _read(controller, wait=0.1)
        else:
            raise AssertionError(f"Ctrl-C did not end it:\n{output.decode(errors='replace')}")
        while chunk := _read(controller, wait=0.2):
            output += chunk
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(controller)
    return status, output.decode(errors="replace")


def _read(fd: int, wait: float = 1.0) -> bytes:
    import select

    readable, _, _ = select.select([fd], [], [], wait)
    if not readable:
        return b""
    try:
        return os.read(fd, 65536)
    except OSError:  # the child closed the terminal
        return b""


CTRL_C_CASES: list[tuple[list[str], str, Any]] = [
    (["play", "--seed", "3"], "your move>", None),
    (["play", "--seed", "3"], "your move>", "?"),
    (["uno", "play", "--seed", "5", "--players", "3"], "your move:", None),
    (["simulate", "--games", "100000000", "--threads", "1"], "deals/s", None),
    (["simulate", "--games", "6000000", "--engine", "python"], "deals/s", None),
    (["bench", "--positions", "30000"], "random hands", None),
    (["perft", "--depth", "12"], "perft:", None),
    # a whole three-seat deal still unknown after 40,000,000 nodes
    # (benchmarks/positions/deal-three.txt): the search runs for minutes, in C without the GIL
    (["solve", "445567789TJQQKAAAA2X/346678899TJJQQKK2/3334556789TTJK22D landlord=0 bid=3"],
     "score   x3", None),
    (["solve", "35567QQQ/34699QXD landlord=0", "--play"], "your move (seat 0)>", None),
    (["solve", "35567QQQ/34699QXD landlord=0", "--play"], "your move (seat 0)>", "hint"),
]  # fmt: skip


@pytest.mark.skipif(sys.platform == "win32", reason="a pty is POSIX")
@pytest.mark.parametrize(
    ("args", "ready", "answer"), CTRL_C_CASES, ids=[" ".join(c[0][:2]) for c in CTRL_C_CASES]
)
def test_ctrl_c_ends_cleanly(args: list[str], ready: str, answer: str | None) -> None:
    status, output = interrupt(args, ready, answer=answer)
    assert "Traceback" not in output, output
    assert status == 130, output
    assert output.rstrip().endswith("interrupted"), output


# --- perft -----------------------------------------------------------------------------------


def stored(name: str) -> dict[str, Any]:
    entry: dict[str, Any] = next(entry for entry in PERFT if entry["name"] == name)
    return entry


def counts_printed(out: str) -> list[int]:
    rows = [line.split() for line in out.splitlines()[2:]]
    return [int(row[1]) for row in rows]


def test_perft_prints_the_stored_counts(capsys: pytest.CaptureFixture[str]) -> None:
    entry = stored("points-start-1")  # seed 1, seat 0 bids first
    assert [str(hand) for hand in ddz.Game(seed=1).deal[0]] == entry["hands"]
    assert main(["perft", "--seed", "1", "--first-player", "0", "--depth", "5"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == (
        "perft: classic rules, seed 1, first player 0, after 0 actions (bidding, seat 0 to act)"
    )
    assert counts_printed(out) == entry["counts"][:5]
    entry = stored("points-played-1")
    argv = ["perft", "--seed", "1", "--first-player", "0", "--actions", "bid 1, pass, bid 2"]
    assert main([*argv, "--depth", "4"]) == 0
    assert counts_printed(capsys.readouterr().out) == entry["counts"][:4]


def test_perft_divide_and_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    entry = stored("uno-start")  # seed 7, seat 1 first, Uno the Landlord
    argv = ["perft", "--rules", "uno-landlord", "--seed", "7", "--first-player", "1"]
    assert main([*argv, "--depth", "3", "--divide"]) == 0
    lines = capsys.readouterr().out.splitlines()
    parts = dict(line.strip().rsplit(maxsplit=1) for line in lines[1:-1])
    assert list(parts) == ["pass", "bid 1", "bid 2", "bid 3"]
    assert sum(map(int, parts.values())) == entry["counts"][2]
    assert lines[-1].split() == ["total", str(entry["counts"][2]), "at", "depth", "3"]
    game = ddz.Game(ddz.UNO_LANDLORD, seed=7, first_player=1)
    for path, text in ((tmp_path / "g.json", game.to_json()), (tmp_path / "g.txt", game.record())):
        path.write_text(text)
        assert main(["perft", "--record", str(path), "--depth", "3"]) == 0
        assert counts_printed(capsys.readouterr().out) == entry["counts"][:3]


# --- the terminal game: help, hint, the end, rule sets without bidding ----------------------


class Follower:
    """A scripted person: types ``script`` first, then asks for a hint at every turn and
    plays the move it names."""

    def __init__(self, script: list[str]) -> None:
        self.script = list(script)
        self.lines: list[str] = []

    def write(self, text: str) -> None:
        self.lines.extend(text.splitlines() or [""])

    def read(self, prompt: str) -> str:
        assert len(self.lines) < 20_000, "the game does not end"
        if self.script:
            answer = self.script.pop(0)
        elif self.lines[-1].startswith("hint: "):
            answer = self.lines[-1].split(" would choose ")[1]
        else:
            answer = "hint"
        self.lines.append(prompt + answer)
        return answer


def test_help_is_answered_not_read_as_cards() -> None:
    person = Follower(["help", "quit"])
    assert play(seed=4, read=person.read, write=person.write) == 0
    text = "\n".join(person.lines)
    assert "Not legal" not in text
    start = person.lines.index("your move> help") + 1
    shown = "\n".join(person.lines[start : start + 3])
    assert shown == "\n".join(person.lines[2:5])  # the instructions, as at the start
    assert shown.startswith("Type a move in the notation") and "'help' shows this" in shown


def test_hint_suggests_the_greedy_agents_move_and_lists_the_legal_ones() -> None:
    person = Follower(["hint", "quit"])
    assert play(seed=4, read=person.read, write=person.write) == 0
    # the same deal, the greedy agents in seats 1 and 2, up to seat 0's first turn
    game = ddz.Game(seed=4)
    while game.current_player != 0:
        game.step(choose(GreedyAgent(), game))
    expected = choose(GreedyAgent(), game)
    start = person.lines.index("your move> hint") + 1
    legal = [str(action) for action in game.legal_actions()]
    assert person.lines[start] == f"legal ({len(legal)}): {'  '.join(legal)}"
    assert person.lines[start + 1] == f"hint: the greedy agent would choose {expected}"
    assert str(expected) in legal


@pytest.mark.parametrize("rules", ["classic", "two-player", "endgame"])
def test_the_end_shows_every_hand(rules: str) -> None:
    person = Follower([])
    assert play(seed=11, rules=PRESETS[rules], read=person.read, write=person.write) == 0
    start = person.lines.index("Every hand at the end:")
    table = person.lines[start + 1 :]
    assert table[0].endswith(f"rules: over after {table[0].split()[-2]} plies")
    rows = [line.split() for line in table[2 : 2 + PRESETS[rules].players]]
    assert [int(row[0]) for row in rows] == list(range(PRESETS[rules].players))
    assert "hidden" not in "\n".join(table)
    counts = [int(row[2]) for row in rows]
    assert 0 in counts or rules == "two-player"  # someone went out (or the let count)
    for row, count in zip(rows, counts, strict=True):
        shown = "".join(row[3:]) if count else ""
        assert len(shown) == count, row  # every card of every hand is shown
    assert person.lines[-1] in ("You win!", "You lose.")


def test_rules_without_bidding_say_so() -> None:
    person = Follower(["quit"])
    assert play(seed=4, rules=ddz.ENDGAME, read=person.read, write=person.write) == 0
    text = "\n".join(person.lines)
    assert "bids first" not in text and "kitty" not in text.replace("no kitty", "")
    assert "bid" not in person.lines[2]  # the instructions offer no bids
    assert "You are the landlord (drawn at random: no bidding) and lead; there is no kitty." in (
        text
    )
    person = Follower(["quit"])
    assert play(seed=4, rules=ddz.DOUZERO, read=person.read, write=person.write) == 0
    text = "\n".join(person.lines)
    assert "bids first" not in text
    game = ddz.Game(ddz.DOUZERO, seed=4)
    who = "You are" if game.landlord == 0 else f"Seat {game.landlord} is"
    takes = "take" if game.landlord == 0 else "takes"
    assert (
        f"{who} the landlord (drawn at random: no bidding) and {takes} the kitty: "
        f"{grouped(game.kitty)}." in person.lines
    )
    person = Follower(["quit"])
    assert play(seed=4, read=person.read, write=person.write) == 0
    text = "\n".join(person.lines)
    assert "Seat 1 bids first." in text and "or a bid (bid 1, bid 2," in text
    assert "Seat 1 is the landlord and takes the kitty: 3 6 K." in text
