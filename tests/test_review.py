"""ddz.review and ``python -m ddz review``: every row's verdicts against the plain minimax of
tests/solver_reference.py, blunders, unknown verdicts, the boundary, the command line and the
examples of docs/solver.md's "Reviewing a game" section."""

from __future__ import annotations

import dataclasses
import json
import random
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import ddz
import ddz.uno
from ddz.cli.main import main
from ddz.play.agents import AnyAgent, GreedyAgent, RandomAgent, choose
from tests import solver_reference as reference
from tests.test_docs_commands import matches

DOCS = Path(__file__).resolve().parent.parent / "docs" / "solver.md"


def landlord_value(
    game: ddz.Game, score: bool, memo: dict[tuple[object, ...], int] | None = None
) -> int:
    """The landlord's result under best play by the plain minimax: +1/-1, or (score) the
    landlord side's score (the landlord's payoff over the number of farmers). ``memo`` may
    be shared by the positions of one game: its keys hold all the rest depends on."""
    memo = {} if memo is None else memo
    outcome = reference.landlord_outcome(game.copy(), memo, score=score)
    return outcome // (game.rules.players - 1) if score else outcome


def for_side(game: ddz.Game, seat: int, value: int) -> int:
    return value if seat == game.landlord else -value


def played_endgame(seed: int) -> ddz.Game:
    """A two-seat endgame of a few cards a hand, played out by random agents."""
    rng = random.Random(seed)
    deck = list(ddz.Cards("33445566778899TTJJQQKKAA22XD"))
    rng.shuffle(deck)
    sizes = rng.randint(2, 6), rng.randint(2, 6)
    hands = ["".join(deck[: sizes[0]]), "".join(deck[sizes[0] : sum(sizes)])]
    game = ddz.Game.from_position(ddz.ENDGAME, hands, landlord=rng.randint(0, 1), to_act=0)
    agent = RandomAgent(seed=seed)
    while not game.is_over:
        game.step(choose(agent, game))
    return game


def played_deal(seed: int, players: int, base: ddz.Rules | None = None) -> ddz.Game:
    """A small dealt game (a few cards a hand, a kitty) played from the bidding to the end
    by a random and a greedy agent (a void deal is dealt again from another seed)."""
    rng = random.Random(seed)
    if base is None:
        base = ddz.CLASSIC if players == 3 else ddz.TWO_PLAYER
    most = 5 if base in (ddz.CLASSIC, ddz.TWO_PLAYER) else 4
    rules = base.replace(hand_size=rng.randint(3, most), kitty_size=rng.randint(0, 2))
    agents: list[AnyAgent] = [RandomAgent(seed=seed), GreedyAgent()]
    while True:
        game = ddz.Game(rules, seed=seed)
        while not game.is_over:
            game.step(choose(agents[(game.current_player or 0) % 2], game))
        if not game.is_void:
            return game
        seed += 1000


def check_against_reference(game: ddz.Game, score: bool) -> ddz.Review:
    """Every row's verdicts (and scores) equal the plain minimax's at the same positions."""
    result = ddz.review(game, node_limit=None, score=score)
    walk = game.copy()
    while walk.history and walk.history[-1].phase == "play":
        walk.undo()
    first = len(walk.history)
    memos: tuple[dict[tuple[object, ...], int], ...] = ({}, {})
    assert [row.ply for row in result.rows] == list(range(first, len(game.history)))
    for row in result.rows:
        record = game.history[row.ply]
        assert (row.seat, row.move) == (record.player, record.action)
        assert row.role == ("landlord" if row.seat == game.landlord else "farmer")
        before = for_side(walk, row.seat, landlord_value(walk, False, memos[0]))
        walk.step(row.move)
        after = for_side(walk, row.seat, landlord_value(walk, False, memos[0]))
        assert (row.before, row.after) == (before, after), (game.position(), row)
        assert row.blunder == (before == 1 and after == -1)
        assert row.best is not None
        if score:
            assert row.score_before is not None and row.score_after is not None
            walk.undo()
            assert row.score_before == for_side(
                walk, row.seat, landlord_value(walk, True, memos[1])
            )
            walk.step(row.move)
            assert row.score_after == for_side(walk, row.seat, landlord_value(walk, True, memos[1]))
        else:
            assert row.score_before is None and row.score_after is None
    assert walk.history == game.history
    return result


@pytest.mark.parametrize("seed", range(12))
def test_endgame_rows_agree_with_the_minimax(seed: int) -> None:
    game = played_endgame(seed)
    result = check_against_reference(game, score=seed % 2 == 1)
    assert len(result.rows) == len(game.history)


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("seed", range(6))
def test_dealt_game_rows_agree_with_the_minimax(seed: int, players: int) -> None:
    game = played_deal(seed, players)
    result = check_against_reference(game, score=seed % 3 == 0)
    bids = sum(1 for record in game.history if record.phase == "bidding")
    assert bids > 0 and len(result.rows) == len(game.history) - bids  # the bids are not rows


@pytest.mark.parametrize("rules", [ddz.UNO_LANDLORD, ddz.DOUZERO], ids=["uno-landlord", "douzero"])
@pytest.mark.parametrize("seed", range(3))
def test_other_rules_rows_agree_with_the_minimax(seed: int, rules: ddz.Rules) -> None:
    # Uno the Landlord's Skip and Reverse change who acts next; DouZero's kickers differ
    game = played_deal(seed, rules.players, rules)
    check_against_reference(game, score=seed == 1)


def test_the_random_agents_blunder_and_the_reviews_mark_them() -> None:
    """The comparison above reaches blunders, not only quiet moves: some of these games hold
    one, and each best move named there wins by the minimax."""
    marked = 0
    for seed in range(12):
        game = played_endgame(seed)
        result = ddz.review(game, node_limit=None)
        memo: dict[tuple[object, ...], int] = {}
        for row in result.blunders:
            marked += 1
            walk = game.copy()
            while len(walk.history) > row.ply:
                walk.undo()
            assert row.best is not None
            walk.step(row.best)
            assert for_side(walk, row.seat, landlord_value(walk, False, memo)) == 1
    assert marked > 0


def test_a_known_blunder_is_marked_with_the_best_move() -> None:
    # 3KK against 44A, the landlord to lead: KK first wins; K lets the farmer win
    game = ddz.Game.from_position(ddz.ENDGAME, ["3KK", "44A"], landlord=0, to_act=0)
    for move in ["K", "A", "pass", "44"]:
        game.step(move)
    result = ddz.review(game)
    first = result.rows[0]
    assert (str(first.move), first.before, first.after, first.blunder) == ("K", 1, -1, True)
    assert str(first.best) == "KK"
    assert result.blunders == (first,)
    assert [row.blunder for row in result.rows] == [True, False, False, False]
    assert "blunder" in str(result).splitlines()[1]


def test_progress_counts_every_position_in_order() -> None:
    game = ddz.Game.from_position(ddz.ENDGAME, ["3KK", "44A"], landlord=0, to_act=0)
    for move in ["K", "A", "pass", "44"]:
        game.step(move)
    calls: list[tuple[int, int]] = []
    ddz.review(game, progress=lambda done, total: calls.append((done, total)))
    # four plies: the positions before each and the one after the last (the game is over)
    assert calls == [(1, 5), (2, 5), (3, 5), (4, 5), (5, 5)]


def test_the_command_counts_positions_on_a_terminal_only() -> None:
    import io

    from ddz.cli.review import progress_line

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert progress_line(io.StringIO()) is None  # a pipe or a file: the table alone
    terminal = Terminal()
    show = progress_line(terminal)
    assert show is not None
    show(1, 3)
    show(3, 3)
    assert terminal.getvalue() == (
        "\rreviewing: 1/3 positions searched\rreviewing: 3/3 positions searched\r\033[K"
    )


def test_a_three_seat_blunder() -> None:
    # the landlord (seat 0: 5 77 A) against 6 T X and K Q D: only the pair 77 led first wins
    # (no farmer holds a pair); leading the A loses, and the review names 77
    game = ddz.Game.from_position(ddz.CLASSIC, ["577A", "6TX", "QKD"], landlord=0, to_act=0)
    memo: dict[tuple[object, ...], int] = {}
    assert landlord_value(game, False, memo) == 1
    game.step("A")
    assert landlord_value(game, False, memo) == -1
    result = ddz.review(game)
    (row,) = result.rows
    assert (row.seat, row.role, row.before, row.after, row.blunder) == (0, "landlord", 1, -1, True)
    assert str(row.best) == "77"


def test_a_tiny_budget_gives_unknowns_and_never_a_blunder_from_them() -> None:
    game = ddz.Game(ddz.CLASSIC, seed=5)
    agent = GreedyAgent()
    while not game.is_over:
        game.step(choose(agent, game))
    result = ddz.review(game, node_limit=1)
    assert any(row.before is None for row in result.rows)
    assert any(row.after is None for row in result.rows)
    for row in result.rows:
        if row.before is None or row.after is None:
            assert not row.blunder
        if row.before is None:
            assert row.best is None and row.score_before is None
    # the last move ends the game: its after-verdict is known without a search
    assert result.rows[-1].after == 1
    assert result.known < len(result.rows)


def test_known_verdicts_under_a_small_budget_are_the_exact_ones() -> None:
    game = played_deal(3, 3)
    exact = ddz.review(game, node_limit=None)
    small = ddz.review(game, node_limit=3)
    for cut, full in zip(small.rows, exact.rows, strict=True):
        assert cut.before in (None, full.before)
        assert cut.after in (None, full.after)


def test_records_are_read_as_games() -> None:
    game = played_endgame(2)
    expected = ddz.review(game).to_dict()["rows"]
    text = game.to_json()
    for record in (text, text.encode(), json.loads(text)):
        assert ddz.review(record).to_dict()["rows"] == expected
    assert game.history  # the game reviewed is left as it was
    assert ddz.Game.from_json(game.to_json()).history == game.history


def test_the_result_is_a_frozen_value_with_json() -> None:
    game = played_endgame(4)
    result = ddz.review(game, score=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.rows = ()  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.rows[0].blunder = True  # type: ignore[misc]
    data = json.loads(result.to_json())
    assert data["plies"] == len(result.rows) and data["known"] == result.known
    assert data["node_limit"] == ddz.doudizhu.review.DEFAULT_NODE_LIMIT
    first = data["rows"][0]
    row = result.rows[0]
    assert first == {
        "ply": row.ply,
        "seat": row.seat,
        "role": row.role,
        "move": str(row.move),
        "before": row.before,
        "after": row.after,
        "best": str(row.best),
        "blunder": row.blunder,
        "nodes": row.nodes,
        "score_before": row.score_before,
        "score_after": row.score_after,
    }
    lines = str(result).splitlines()
    assert lines[0].split() == ["ply", "seat", "role", "move", "before", "score", "after",
                                "score", "best", "nodes"]  # fmt: skip
    assert len(lines) == 1 + len(result.rows) + 3


def test_a_void_deal_has_no_rows() -> None:
    game = ddz.Game(ddz.CLASSIC, seed=0)
    while game.phase == "bidding":
        game.step("pass")  # everyone passes: the deal is void, no play phase
    assert game.is_void
    result = ddz.review(game)
    assert result.rows == () and result.known == 0 and result.blunders == ()


def test_an_unfinished_game_is_reviewed_to_where_it_stands() -> None:
    game = ddz.Game.from_position(ddz.ENDGAME, ["3KK", "44A"], landlord=0, to_act=0)
    game.step("KK")
    result = ddz.review(game)
    (row,) = result.rows
    assert (row.before, row.after, row.blunder) == (1, 1, False)


@pytest.mark.parametrize(
    ("value", "error", "message"),
    [
        (42, TypeError, "review takes a ddz.Game or its JSON record"),
        (None, TypeError, "review takes a ddz.Game or its JSON record"),
        (ddz.uno.Game(seed=1), TypeError, "not a game of UNO"),
        (ddz.uno.Game(seed=1).to_json(), ValueError, "a game of UNO"),
        ({"format": "ddz-uno-game/1"}, ValueError, "a game of UNO"),
        ("{not json", ddz.RecordError, "not JSON"),
        (b"\xff", ValueError, "undecodable"),
        (ddz.Game(seed=1), ValueError, "not reached its play phase"),
    ],
)
def test_what_is_not_a_game_to_review(value: object, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        ddz.review(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("keywords", "error", "message"),
    [
        ({"node_limit": 0}, ValueError, "node_limit"),
        ({"node_limit": "100"}, TypeError, "node_limit"),
        ({"node_limit": 1.5}, TypeError, "node_limit"),
        ({"time_limit": -1}, ValueError, "time_limit"),
        ({"time_limit": float("nan")}, ValueError, "time_limit"),
        ({"time_limit": "1"}, TypeError, "time_limit"),
        ({"score": "yes"}, TypeError, "score"),
        ({"memory_mb": 0}, ValueError, "memory_mb"),
        ({"progress": "yes"}, TypeError, "progress"),
    ],
)
def test_a_bad_budget(keywords: dict[str, object], error: type, message: str) -> None:
    game = played_endgame(1)
    with pytest.raises(error, match=message):
        ddz.review(game, **keywords)  # type: ignore[arg-type]


# --- the command line ----------------------------------------------------------------------


def test_the_command_prints_the_table_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    game = played_endgame(0)
    path = tmp_path / "game.json"
    path.write_text(game.to_json(), encoding="utf-8")
    expected = ddz.review(game, node_limit=5000)
    assert main(["review", str(path), "--node-limit", "5000"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[:-1] == str(expected).splitlines()[:-1]  # the time differs
    assert main(["review", str(path), "--node-limit", "5000", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows == [row.to_dict() for row in expected.rows]
    monkeypatch.setattr(sys, "stdin", open(path, encoding="utf-8"))  # noqa: SIM115
    assert main(["review", "-", "--score", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows == [row.to_dict() for row in ddz.review(game, score=True).rows]
    text = tmp_path / "game.txt"
    text.write_text(game.record(), encoding="utf-8")
    assert main(["review", str(text), "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows == [row.to_dict() for row in ddz.review(game).rows]


@pytest.mark.parametrize(
    ("arguments", "file", "message"),
    [
        (["missing.json"], None, "error: cannot read 'missing.json': No such file or directory"),
        (["game.json"], "{", "error: a ddz game record is not JSON"),
        (["game.json"], "", "error: 'game.json' is empty"),
        (["game.json"], ddz.uno.Game(seed=2).to_json(), "error: the record is a game of UNO"),
        (["game.json", "--node-limit", "0"], "{}", "--node-limit: must be 1..2**64-1, not 0"),
        (["game.json", "--time-limit", "-2"], "{}", "--time-limit: must be a positive number"),
    ],
)
def test_errors_are_one_line_and_status_2(
    arguments: list[str],
    file: str | None,
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    if file is not None:
        (tmp_path / "game.json").write_text(file, encoding="utf-8")
    try:
        status = main(["review", *arguments])
    except SystemExit as exit_:  # argparse's errors
        status = int(exit_.code or 0)
    captured = capsys.readouterr()
    assert status == 2 and captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1 and message in captured.err, captured.err


def test_ctrl_c_stops_a_review(tmp_path: Path) -> None:
    game = ddz.Game(ddz.CLASSIC, seed=11)
    agent = GreedyAgent()
    while not game.is_over:
        game.step(choose(agent, game))
    path = tmp_path / "game.json"
    path.write_text(game.to_json(), encoding="utf-8")
    # the command as python -m ddz runs it, once imported (a signal during the imports
    # would not be the command's to handle)
    script = (
        "import sys; from ddz.cli.main import main; print('ready', flush=True); "
        f"sys.exit(main(['review', {str(path)!r}, '--node-limit', '{10**12}']))"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stdout.readline() == "ready\n"
    time.sleep(1.5)  # deep in the search of the first position, the whole deal
    assert process.poll() is None
    start = time.monotonic()
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130 and "interrupted" in err and "Traceback" not in err
    assert time.monotonic() - start < 10


# --- docs/solver.md --------------------------------------------------------------------------


def examples() -> list[list[str]]:
    """The shell examples of docs/solver.md's "Reviewing a game" section, a list a block."""
    section = DOCS.read_text(encoding="utf-8").split("## Reviewing a game", 1)[1]
    section = section.split("\n## ", 1)[0]
    return [
        [example for example in re.split(r"(?m)^(?=\$ )", block) if example.strip()]
        for block in re.findall(r"```text\n(.*?)```", section, re.S)
    ]


def test_the_docs_show_the_command() -> None:
    commands = [example.splitlines()[0] for block in examples() for example in block]
    assert sum(command.startswith("$ python -m ddz review") for command in commands) >= 3


def test_the_docs_examples_print_what_they_show(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)  # where a '$ cat FILE' example's file is written (for all)
    for example in [example for block in examples() for example in block]:
        command, expected = example.split("\n", 1)
        argv = shlex.split(command)[1:]
        if argv[0] == "cat":
            (tmp_path / argv[1]).write_text(expected, encoding="utf-8")
            continue
        assert argv[:4] == ["python", "-m", "ddz", "review"], command
        assert main(argv[3:]) == 0
        out = capsys.readouterr().out
        assert matches(expected, out), f"{command}\nprinted:\n{out}"
