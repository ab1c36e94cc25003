"""``python -m ddz solve``: verdicts, analysis, scores, files, limits, the puzzle mode, one-line
errors, and the examples of docs/solver.md's command-line section as written."""

from __future__ import annotations

import argparse
import json
import random
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import ddz
import ddz.render  # the test reads ddz.render.text (a public path, not imported by ddz)
from ddz.cli.main import build_parser, main
from ddz.cli.solve import play_puzzle

DOCS = Path(__file__).resolve().parent.parent / "docs" / "solver.md"
PUZZLE = "35567QQQ/34699QXD landlord=0"  # one lead of thirteen wins (docs/solver.md)


def solve_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["solve", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def field(out: str, name: str) -> str:
    """The value of the first ``name`` line (``verdict``, ``best``, ``line``...) after the
    table (which has a ``score`` line of its own)."""
    lines = out.split("\n\n", 1)[1].splitlines()
    for index, line in enumerate(lines):
        if line.startswith(name + " "):
            text = line[len(name) :].strip()
            for more in lines[index + 1 :]:  # a long line wraps, indented
                if not more.startswith("         "):
                    break
                text += " " + more.strip()
            return text
    raise AssertionError(f"no {name} line in:\n{out}")


def random_positions(count: int, seed: int) -> Iterator[ddz.Position]:
    """Small positions under three rule sets: two and three seats, some with a move to beat."""
    rng = random.Random(seed)
    for index in range(count):
        rules = (ddz.ENDGAME, ddz.CLASSIC, ddz.TWO_PLAYER)[index % 3]
        deck = list(str(rules.deck))
        rng.shuffle(deck)
        sizes = [rng.randint(1, 6) for _ in range(rules.players)]
        hands, start = [], 0
        for size in sizes:
            hands.append("".join(deck[start : start + size]))
            start += size
        landlord = rng.randrange(rules.players)
        game = ddz.Game.from_position(rules, hands, landlord=landlord, to_act=landlord)
        for _ in range(rng.randrange(0, 3)):  # a few plies in: a move to beat, a later turn
            moves = game.legal_actions()
            game.push(rng.choice(moves))
            if game.is_over:
                break
        if not game.is_over:
            yield game.position()


def test_the_verdict_best_move_and_line_agree_with_the_solver(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for position in random_positions(30, seed=3):
        game = position.game()
        expected = ddz.solve(game)
        status, out, err = solve_cli(capsys, str(position))
        assert status == 0 and err == "", err
        assert out.splitlines()[0] == f"position {position}"
        assert ddz.render.text(game) in out  # the table, every hand open
        verdict = {1: "win", -1: "loss"}[expected.value]  # type: ignore[index]
        assert field(out, "verdict").startswith(f"{verdict} for the side to act, the ")
        assert field(out, "best") == str(expected.move)
        # the printed line replays to the end with the checked step, seat by seat
        walk = game.copy()
        for word in field(out, "line").split():
            seat, move = word.split(":")
            assert int(seat) == walk.current_player
            walk.step(move)
        assert walk.is_over
        side_won = (walk.winner == game.landlord) == (game.current_player == game.landlord)
        assert side_won == (expected.value == 1)
        assert re.fullmatch(r"[\d,]+ nodes? in \d+\.\d{3} s", field(out, "searched"))


def test_who_the_verdict_names(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = solve_cli(capsys, "3KK/44A", "landlord=0")
    assert field(out, "verdict") == "win for the side to act, the landlord (seat 0)"
    assert field(out, "best") == "KK" and field(out, "line") == "0:KK 1:pass 0:3"
    _, out, _ = solve_cli(capsys, "34/K landlord=0")  # either single, and the K goes out
    assert field(out, "verdict") == "loss for the side to act, the landlord (seat 0)"
    _, out, _ = solve_cli(capsys, "KK/AA/22", "landlord=2", "turn=0", "table=QQ@1")
    assert field(out, "verdict") == "win for the side to act, the farmers (seats 0, 1)"
    _, out, _ = solve_cli(capsys, "3/4/55", "landlord=0", "turn=1", "table=K@0")
    assert field(out, "verdict") == "loss for the side to act, the farmers (seats 1, 2)"


def test_analyse_lists_every_move_best_first(capsys: pytest.CaptureFixture[str]) -> None:
    for position in random_positions(15, seed=4):
        game = position.game()
        values = {str(entry.move): entry.value for entry in ddz.analyse(game)}
        status, out, _ = solve_cli(capsys, str(position), "--analyse")
        assert status == 0
        lines = out.splitlines()
        start = next(i for i, line in enumerate(lines) if " legal move" in line)
        rows = [line.split() for line in lines[start + 1 : start + 1 + len(values)]]
        named = {"win": 1, "loss": -1}
        assert {row[0]: named[row[1]] for row in rows} == values
        assert [named[row[1]] for row in rows] == sorted(values.values(), reverse=True)
        wins = sum(value == 1 for value in values.values())
        assert lines[start].endswith(f"best first; {wins} win{'s' if wins != 1 else ''}")
        assert lines[start + 1 + len(values)].startswith("searched in ")


def test_score_mode(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = solve_cli(capsys, "33334/5", "landlord=0", "--score")
    assert status == 0
    assert field(out, "score") == "+4 for the landlord (seat 0): payoffs seat 0 +4, seat 1 -4"
    assert field(out, "best") == "3333"
    for position in random_positions(12, seed=5):
        expected = ddz.solve(position.game(), score=True)
        _, out, _ = solve_cli(capsys, str(position), "--score")
        assert field(out, "score").split()[0] == f"{expected.score:+d}"
        _, out, _ = solve_cli(capsys, str(position), "--score", "--analyse")
        for entry in ddz.analyse(position.game(), score=True):
            row = rf"^  {re.escape(str(entry.move))} +\w+ +score {re.escape(f'{entry.score:+d}')}$"
            assert re.search(row, out, re.M), out


def test_positions_from_a_file_and_standard_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # a relative name: the error messages shorten a long path (pytest-xdist's are long)
    monkeypatch.chdir(tmp_path)
    path = Path("puzzles.txt")
    path.write_text(
        "# two puzzles\n\n3KK/44A landlord=0\n  KK/AA/22 landlord=2 turn=0 table=QQ@1\n"
    )
    status, out, _ = solve_cli(capsys, "--file", str(path))
    assert status == 0
    assert [line for line in out.splitlines() if line.startswith("position ")] == [
        "position 3KK/44A landlord=0 turn=0 rules=endgame",
        "position KK/AA/22 landlord=2 turn=0 table=QQ@1 rules=classic",
    ]
    assert out.count("verdict  win for the side to act") == 2
    done = subprocess.run(
        [sys.executable, "-m", "ddz", "solve", "--file", "-", "--rules", "two-player"],
        input="5KK/66A landlord=0\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("position 5KK/66A landlord=0 turn=0 rules=two-player\n")
    path.write_text("3KK/44A landlord=0\n3KK/44A landlord=9\n")
    status, _, err = solve_cli(capsys, "--file", str(path))
    assert status == 2
    assert err.startswith(f"error: '{path}', line 2: ") and err.count("\n") == 1


# a whole deal still unknown after 40,000,000 nodes (benchmarks/positions/deal-three.txt)
HARD_DEAL = (
    "445567789TJQQKAAAA2X/346678899TJJQQKK2/3334556789TTJK22D landlord=0 turn=0 kitty=47A"
    " rules=classic"
)


def test_limits_give_an_unknown_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    deal = ddz.Position.parse(HARD_DEAL).game()
    status, out, _ = solve_cli(capsys, str(deal.position()), "--node-limit", "1000")
    assert status == 0
    assert field(out, "verdict") == "unknown: --node-limit 1000 stopped the search"
    assert field(out, "searched").startswith("1,000 nodes in ")
    assert "best " not in out and "line " not in out
    _, out, _ = solve_cli(capsys, str(deal.position()), "--time-limit", "0.05", "--analyse")
    assert "unknown" in out
    _, out, _ = solve_cli(capsys, PUZZLE, "--threads", "2", "--memory-mb", "4")
    assert field(out, "best") == "6"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "no position"),
        (["3KK/44A"], "landlord= is missing"),
        (["3KK/44A", "landlord=0", "turn=5"], "error: "),
        (["3KK/44A", "landlord=0", "oops"], "fields are key=value"),
        (["3KK/44A", "landlord=0", "rules=classic"], "hands has 2 entries"),
        (["3KK/44Z", "landlord=0"], "unknown card"),
        (["33333/4", "landlord=0"], "a deck holds at most four"),
        (["3333/3", "landlord=0"], "the deck of these rules has 4"),
        (["3KK/44A", "landlord=0", "--rules", "classic"], "hands has 2 entries"),
        (["3KK/44A", "landlord=0", "rules=endgame", "--rules", "classic"], "other rules"),
        (["3KK/44A", "landlord=0", "--time-limit", "0"], "--time-limit: must be a positive"),
        (["3KK/44A", "landlord=0", "--time-limit", "-1"], "--time-limit: must be a positive"),
        (["3KK/44A", "landlord=0", "--time-limit", "nan"], "--time-limit: must be a positive"),
        (["3KK/44A", "landlord=0", "--time-limit", "inf"], "--time-limit: must be a positive"),
        (["3KK/44A", "landlord=0", "--time-limit", "soon"], "is not a number of seconds"),
        (["3KK/44A", "landlord=0", "--node-limit", "0"], "--node-limit: must be 1..2**64-1"),
        (["3KK/44A", "landlord=0", "--node-limit", str(2**64)], "--node-limit: must be"),
        (["3KK/44A", "landlord=0", "--memory-mb", "0"], "--memory-mb: must be 1..65536"),
        (["3KK/44A", "landlord=0", "--memory-mb", "1e3"], "is not an integer"),
        (["3KK/44A", "landlord=0", "--threads", "65"], "--threads: must be 1..64"),
        (["3KK/44A", "landlord=0", "--side", "dealer"], "must be landlord, farmers or a seat"),
        (["3KK/44A", "landlord=0", "--side", "landlord"], "--side is for --play"),
        (["3KK/44A", "landlord=0", "--play", "--side", "2"], "the seats are 0..1"),
        (["3KK/44A", "landlord=0", "--file", "x"], "not both"),
        (["--file", "/no/such/file"], "cannot read '/no/such/file'"),
        (["--file", "/"], "cannot read '/'"),
        (["3KK/44A landlord=0" + " x" * 6000], "12018 characters, more than the 1000 read"),
        (["3KK/44A", "landlord=0", "--play", "--json"], "--json is not for --play"),
    ],
)
def test_bad_arguments_get_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        status = main(["solve", *argv])
    except SystemExit as exited:  # argparse
        status = exited.code  # type: ignore[assignment]
    captured = capsys.readouterr()
    assert status == 2
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err, captured.err
    assert message in captured.err and len(captured.err) < 300, captured.err
    assert captured.out == ""


def test_an_empty_file_and_play_with_several_positions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # a relative name: the error messages shorten a long path (pytest-xdist's are long)
    monkeypatch.chdir(tmp_path)
    path = Path("empty.txt")
    path.write_text("# nothing\n\n")
    assert solve_cli(capsys, "--file", str(path))[2] == f"error: '{path}' holds no position\n"
    path.write_text("3KK/44A landlord=0\n3/4 landlord=0\n")
    status, _, err = solve_cli(capsys, "--file", str(path), "--play")
    assert status == 2 and err == "error: --play takes one position, not 2\n"


def test_stored_values_are_checked_and_summed_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # a relative name: the error messages shorten a long path (pytest-xdist's are long)
    monkeypatch.chdir(tmp_path)
    path = Path("set.txt")
    path.write_text(
        "# VALUE POSITION, as benchmarks/solver.py writes them\n"
        "+1 3KK/44A landlord=0  # KK first\n"
        "-1 34/K landlord=0\n"
        "KK/AA/22 landlord=2 turn=0 table=QQ@1  # no stored value\n"
        "? 5/K landlord=0  # not settled by the set's maker: nothing to check\n"
    )
    status, out, _ = solve_cli(capsys, "--file", str(path))
    assert status == 0
    assert out.count("stored   win (agrees)") == 1 and out.count("stored   loss (agrees)") == 1
    assert out.count("stored   ") == 2
    assert out.splitlines()[-3:-1] == [
        "summary  4 positions: 3 won, 1 lost, 0 unknown (for the side to act)",
        "         stored values: 2 agree, none disagrees",
    ]
    assert re.fullmatch(r"         [\d,]+ nodes in \d+\.\d{3} s", out.splitlines()[-1])
    status, out, _ = solve_cli(capsys, "--file", str(path), "--analyse")
    assert status == 0 and out.count("(agrees)") == 2
    path.write_text("-1 3KK/44A landlord=0\n+1 34/K landlord=0\n")
    status, out, _ = solve_cli(capsys, "--file", str(path))
    assert status == 1  # a verdict that disagrees with the file
    assert out.count("(DISAGREES with the search)") == 2
    assert "         stored values: 0 agree, 2 DISAGREE" in out
    deal = ddz.Game(seed=1)
    deal.step("bid 3")
    path.write_text(f"-1 {deal.position()}\n")
    status, out, _ = solve_cli(capsys, "--file", str(path), "--node-limit", "50")
    assert status == 0 and "stored   loss (not checked: the search stopped)" in out
    path.write_text("+2 3KK/44A landlord=0\n")
    status, _, err = solve_cli(capsys, "--file", str(path))
    assert (
        status == 2 and "line 1: a stored value is +1 or -1 (a score with --score), not '+2'" in err
    )
    path.write_text("3KK/44A landlord=0\n" + "3" * 20_000 + "\n")
    status, _, err = solve_cli(capsys, "--file", str(path))
    assert status == 2 and err == f"error: '{path}', line 2: longer than 10,000 characters\n"


def test_score_unknown_after_the_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    # deal 1 of benchmarks/positions/deal-three-score.txt: the verdict within 1,000,000
    # nodes, the score not (about 9,500,000)
    position = (
        "3456777899TTJJQQK222/3344466889TJJQKKA/35556789TQKAAA2XD landlord=0 turn=0 kitty=392"
    )
    status, out, _ = solve_cli(capsys, position, "--score", "--node-limit", "1000000")
    assert status == 0
    assert field(out, "verdict") == "loss for the side to act, the landlord (seat 0)"
    assert field(out, "score") == "unknown: --node-limit 1000000 stopped the search"
    assert field(out, "best") != "None" and "\nline " not in out
    limits = ("--score", "--node-limit", "1000000", "--json")
    status, out, _ = solve_cli(capsys, position, *limits)
    record = json.loads(out)
    assert status == 0 and (record["value"], record["score"], record["line"]) == (-1, None, [])


def test_stored_scores_are_checked_with_score(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With --score a stored value is the exact score (a ``*-score.txt`` set's lines): the
    bomb and the spring double 33334/5 twice, to +4, which the verdict file's +1 would not
    match."""
    monkeypatch.chdir(tmp_path)
    bomb, plain = "33334/5 landlord=0", "3KK/44A landlord=0"
    assert (
        ddz.solve(ddz.Position.parse(bomb).game(), score=True).score,
        ddz.solve(ddz.Position.parse(plain).game(), score=True).score,
    ) == (4, 2)
    path = Path("deal-score.txt")
    path.write_text(f"+4 {bomb}\n+2 {plain}\n")
    status, out, _ = solve_cli(capsys, "--file", str(path), "--score")
    assert status == 0 and out.count("stored   score +4 (agrees)") == 1
    assert out.count("stored   score +2 (agrees)") == 1
    status, out, _ = solve_cli(capsys, "--file", str(path), "--score", "--analyse")
    assert status == 0 and out.count("(agrees)") == 2
    path.write_text(f"+1 {bomb}\n")  # the verdict, not the score
    status, out, _ = solve_cli(capsys, "--file", str(path), "--score")
    assert status == 1 and "stored   score +1 (DISAGREES with the search)" in out
    status, out, _ = solve_cli(capsys, "--file", str(path))  # a verdict file: it agrees
    assert status == 0 and "stored   win (agrees)" in out
    path.write_text(f"+0 {bomb}\n")
    status, _, err = solve_cli(capsys, "--file", str(path), "--score")
    assert status == 2 and "line 1: a stored value is a score such as -2, not '+0'" in err


def test_json_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    position = ddz.Position.parse(PUZZLE)
    expected = ddz.solve(position.game(), score=True)
    status, out, _ = solve_cli(capsys, PUZZLE, "--json", "--score")
    assert status == 0
    record = json.loads(out)
    assert set(record) == {"position", "value", "move", "line", "nodes", "seconds", "score"}
    assert record["position"] == str(position)
    assert (record["value"], record["move"], record["score"]) == (1, "6", expected.score)
    assert record["line"] == [str(move) for move in expected.line]
    assert record["nodes"] > 0 and record["seconds"] >= 0
    status, out, _ = solve_cli(capsys, PUZZLE, "--json", "--analyse")
    record = json.loads(out)
    assert set(record) == {"position", "value", "moves", "seconds"} and record["value"] == 1
    assert record["moves"] == [
        {"move": str(entry.move), "value": entry.value} for entry in ddz.analyse(position.game())
    ]
    path = tmp_path / "set.txt"
    path.write_text("+1 3KK/44A landlord=0\n# skipped\n34/K landlord=0\n")
    status, out, _ = solve_cli(capsys, "--file", str(path), "--json")
    records = [json.loads(line) for line in out.splitlines()]
    assert [(r["value"], r.get("stored")) for r in records] == [(1, 1), (-1, None)]
    deal = ddz.Game(seed=1)
    deal.step("bid 3")
    _, out, _ = solve_cli(capsys, str(deal.position()), "--json", "--node-limit", "10")
    record = json.loads(out)
    assert (record["value"], record["move"], record["line"], record["nodes"]) == (
        None,
        None,
        [],
        10,
    )


@pytest.mark.parametrize("threads", [1, 2])
def test_solver_stop_ends_a_running_search(threads: int) -> None:
    """What Ctrl-C uses: stop() from another thread makes a long search return unknown."""
    import threading
    import time

    deal = ddz.Position.parse(HARD_DEAL).game()
    solver = ddz.Solver(ddz.CLASSIC, memory_mb=16, threads=threads)
    results: list[ddz.SolveResult] = []
    helper = threading.Thread(target=lambda: results.append(solver.solve(deal)))
    helper.start()
    time.sleep(0.3)
    start = time.perf_counter()
    while helper.is_alive() and time.perf_counter() - start < 30:
        solver.stop()
        helper.join(0.05)
    assert not helper.is_alive()
    assert results[0].value is None and results[0].line == ()
    # a later solve is not stopped by the earlier request
    again = ddz.Solver(ddz.ENDGAME, memory_mb=4)
    again.stop()
    assert again.solve(ddz.Position.parse(PUZZLE).game()).value == 1


# --- the puzzle ------------------------------------------------------------------------------


def puzzle_args(*extra: str) -> argparse.Namespace:
    return build_parser().parse_args(["solve", "--play", *extra])


class Person:
    """A scripted person: types ``script`` first; then, if ``follow_hints``, asks for a hint
    and plays the move it names at every turn (else the end of input)."""

    def __init__(self, script: list[str], *, follow_hints: bool = False) -> None:
        self.script = list(script)
        self.follow_hints = follow_hints
        self.transcript: list[str] = []
        self.prompts: list[str] = []

    def write(self, text: str) -> None:
        self.transcript.extend(text.split("\n"))

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.script:
            answer = self.script.pop(0)
        elif not self.follow_hints:
            raise EOFError
        elif self.transcript[-1].startswith(("hint: ", "your move")):
            answer = self.transcript[-1].split()[1]
            if answer == "unknown":
                answer = "pass"
        else:
            answer = "hint"
        self.transcript.append(prompt + answer)
        return answer


def test_the_puzzle_played_well_is_won() -> None:
    position = ddz.Position.parse(PUZZLE)
    person = Person(["zz", "?", "analyse", "44"], follow_hints=True)
    assert play_puzzle(position, puzzle_args(), read=person.read, write=person.write) == 0
    text = "\n".join(person.transcript)
    assert person.transcript[0] == f"puzzle   {position}"
    assert "You play the landlord (seat 0); the solver plays the farmer (seat 1)." in text
    assert "Not legal: unknown card 'z' at position 0 in 'zz'." in text
    assert "legal (13): 3  5  6  7  Q  55  QQ  QQQ  QQQ+3  QQQ+5  QQQ+6  QQQ+7  QQQ+55" in text
    assert "Not legal: 44 plays cards the hand does not hold." in text
    start = person.transcript.index("your move (seat 0)> analyse") + 1
    rows = person.transcript[start : start + 14]
    assert rows[0] == "13 legal moves for the landlord (seat 0), best first; 1 win"
    assert [row.split() for row in rows[1:3]] == [["6", "win"], ["3", "loss"]]
    assert person.transcript[start + 14] == "your move (seat 0)> 44"
    assert "hint: 6 wins for the landlord (seat 0)" in text
    # the losing solver's holding-out move may be its rocket or not (x1 or x2): the win counts
    assert person.transcript[-2].startswith("Seat 0 went out: the landlord wins, score x")
    assert person.transcript[-1] == "You win!"


@pytest.mark.parametrize("seed", range(6))
def test_the_solver_side_never_loses_a_won_position(seed: int) -> None:
    """Whatever the person plays, the solver wins the positions its side wins."""
    rng = random.Random(seed)
    for position in random_positions(4, seed=100 + seed):
        game = position.game()
        verdict = ddz.solve(game).value
        person_side = rng.choice(["landlord", "farmers"])
        to_act_is_landlord = game.current_player == game.landlord
        solver_wins = (verdict == 1) == (to_act_is_landlord == (person_side == "farmers"))
        shadow = game.copy()  # follows the moves printed, to type a random legal one
        lines: list[str] = []

        def read(prompt: str) -> str:
            return str(rng.choice(shadow.legal_actions()))  # noqa: B023 - called in this loop

        def write(text: str) -> None:
            for line in text.split("\n"):
                lines.append(line)  # noqa: B023
                if line.startswith(("you (seat", "solver (seat")):
                    shadow.step(line.rsplit(": ", 1)[1])  # noqa: B023

        args = puzzle_args("--side", person_side)
        assert play_puzzle(position, args, read=read, write=write) == 0
        assert shadow.is_over and lines[-1] in ("You win!", "You lose.")
        if solver_wins:
            assert lines[-1] == "You lose.", "\n".join(lines)


def test_three_seats_the_person_plays_both_farmers() -> None:
    position = ddz.Position.parse("KK/AA/22 landlord=2 turn=0 table=QQ@1")
    person = Person(["pass"], follow_hints=True)  # the farmers still win: AA is out
    args = puzzle_args("--side", "farmers")
    assert play_puzzle(position, args, read=person.read, write=person.write) == 0
    assert person.transcript[1].startswith(
        "You play the farmers (seats 0, 1); the solver plays the landlord (seat 2)."
    )
    assert {prompt for prompt in person.prompts} >= {"your move (seat 0)> "}
    assert person.transcript[-1] == "You win!"


def test_undo_and_the_end_of_input() -> None:
    position = ddz.Position.parse(PUZZLE)
    person = Person(["undo", "QQQ+55", "undo", "6", "undo"])
    assert play_puzzle(position, puzzle_args(), read=person.read, write=person.write) == 0
    text = "\n".join(person.transcript)
    assert "Nothing to take back: this is the puzzle's start." in text
    assert "solver (seat 1, farmer): XD" in text and "solver (seat 1, farmer): Q" in text
    tables = [line for line in person.transcript if line.startswith("Dou Dizhu")]
    assert tables == [
        "Dou Dizhu, endgame rules: play, ply 0, seat 0 to act",
        "Dou Dizhu, endgame rules: play, ply 2, seat 0 to act",
        "Dou Dizhu, endgame rules: play, ply 0, seat 0 to act",  # undone
        "Dou Dizhu, endgame rules: play, ply 2, seat 0 to act",
        "Dou Dizhu, endgame rules: play, ply 0, seat 0 to act",  # undone
    ]
    assert person.transcript[-2:] == ["", "Bye."]  # the end of input


def test_the_puzzle_from_the_shell() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ddz", "solve", PUZZLE, "--play", "--side", "farmer"],
        input="9\n?\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "solver (seat 0, landlord): 6\n" in done.stdout
    assert "you (seat 1, farmer): 9\n" in done.stdout
    assert done.stdout.rstrip().endswith("Bye.")


def test_the_solver_falls_back_to_a_greedy_move_past_its_limits() -> None:
    deal = ddz.Game(seed=1)
    deal.step("bid 3")
    person = Person(["quit"])
    args = puzzle_args("--side", "farmers", "--node-limit", "100")
    assert play_puzzle(deal.position(), args, read=person.read, write=person.write) == 0
    assert "(the solver found no verdict within --node-limit 100: a greedy move)" in (
        person.transcript
    )
    assert person.transcript[-1] == "Bye."


# --- the docs' examples ----------------------------------------------------------------------


def normalised(text: str) -> str:
    """Timings vary by machine; the rest must not. Node counts are checked too: they depend
    only on the solver's search, so a change to it that changes them must change the page."""
    text = re.sub(r'"seconds": [\d.e-]+', '"seconds": S', text)
    return re.sub(r"in \d+\.\d+ s$", "in S s", text, flags=re.M)


def matches(expected: str, actual: str) -> bool:
    """``actual`` as ``expected`` says, a ``...`` line standing for any lines."""
    pattern = "".join(
        r"(?:.*\n)*?" if line == "..." else re.escape(line) + r"\n"
        for line in normalised(expected).rstrip("\n").split("\n")
    )
    return re.fullmatch(pattern, normalised(actual)) is not None


def examples() -> list[list[str]]:
    """The shell examples of docs/solver.md's command-line section, a list a block: each a
    ``$ python -m ddz solve ...`` line and its output, or ``$ cat FILE`` and the file."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## Command line", 1)[1].split("\n## ", 1)[0]
    return [
        [example for example in re.split(r"(?m)^(?=\$ )", block) if example.strip()]
        for block in re.findall(r"```text\n(.*?)```", section, re.S)
    ]


def test_the_docs_show_the_command_line() -> None:
    commands = [example.splitlines()[0] for block in examples() for example in block]
    assert len(commands) >= 7
    assert any("--play" in command for command in commands)
    assert any("--json" in command for command in commands)


@pytest.mark.parametrize("block", examples(), ids=lambda b: b[-1].splitlines()[0][20:60])
def test_the_docs_examples_print_what_they_show(
    block: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)  # where a '$ cat FILE' example's file is written
    for example in block:
        command, expected = example.split("\n", 1)
        argv = shlex.split(command)[1:]
        if argv[0] == "cat":
            (tmp_path / argv[1]).write_text(expected, encoding="utf-8")
            continue
        assert argv[:4] == ["python", "-m", "ddz", "solve"], command
        argv = argv[3:]
        if "--play" not in argv:
            assert main(argv) == 0
            out = capsys.readouterr().out
            assert matches(expected, out), f"{command}\nprinted:\n{out}"
            continue
        # the transcript: what the person typed follows each prompt up to the last '...',
        # then hints to the end
        typed = re.findall(r"^your move \(seat \d\)> (.*)$", expected.rsplit("\n...\n", 1)[0], re.M)
        person = Person(typed, follow_hints=True)
        parsed = build_parser().parse_args(argv)
        position = ddz.Position.parse(" ".join(parsed.position))
        assert play_puzzle(position, parsed, read=person.read, write=person.write) == 0
        out = "\n".join(person.transcript) + "\n"
        assert matches(expected, out), f"{command}\nprinted:\n{out}"


def test_help_in_a_puzzle_shows_the_instructions_not_a_card_error() -> None:
    position = ddz.Position.parse(PUZZLE)
    person = Person(["help"])
    assert play_puzzle(position, puzzle_args(), read=person.read, write=person.write) == 0
    text = "\n".join(person.transcript)
    assert "Not legal" not in text
    start = person.transcript.index("your move (seat 0)> help") + 1
    assert person.transcript[start : start + 4] == person.transcript[2:6]
    assert person.transcript[2].startswith("Every hand is open.")
    assert "'help' shows this" in person.transcript[4]
