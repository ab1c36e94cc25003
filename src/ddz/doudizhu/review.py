"""Game review: every move of a played game judged with all hands open.

:func:`review` replays a finished (or unfinished) Dou Dizhu game and asks the exact solver,
at every ply of the play phase, who wins with every hand known: the side to act before the
move, and the same side after it (the position the move leads to). A move that turns a won
position into a lost one is a *blunder*, shown with the solver's best move there. The
searches share one :class:`~ddz.doudizhu.solver.Solver`, whose table carries over from one
position to the next; each position gets the same budget (``node_limit`` nodes and/or
``time_limit`` seconds), and a verdict the budget does not reach is ``None``, never a guess.

>>> import ddz
>>> game = ddz.Game.from_position(ddz.ENDGAME, ["3KK", "44A"], landlord=0, to_act=0)
>>> for move in ["K", "A", "pass", "44"]:
...     _ = game.step(move)
>>> result = ddz.review(game)
>>> [(str(row.move), row.before, row.after, row.blunder) for row in result.rows]
[('K', 1, -1, True), ('A', 1, 1, False), ('pass', -1, -1, False), ('44', 1, 1, False)]
>>> str(result.blunders[0].best)
'KK'
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable
from typing import Any

from ddz.base.errors import RecordError, check_integer, shorten
from ddz.base.protocol import GameBase
from ddz.doudizhu.game import Game
from ddz.doudizhu.moves import Move
from ddz.doudizhu.solver import Solver, SolveResult, _limits, _switch

__all__ = ["DEFAULT_NODE_LIMIT", "Review", "ReviewRow", "review"]

DEFAULT_NODE_LIMIT = 4_000_000
"""The default budget of :func:`review`: nodes searched a position (about a second on the
build machine; a whole classic game reviews in 4-11 s there, docs/solver.md). Node limits,
unlike time limits, give the same verdicts on every machine."""

UNO_FORMAT = "ddz-uno-game/1"
"""The format of a UNO record (``ddz.uno.records``; a game never imports another game)."""

_VERDICT = {1: "win", -1: "loss", None: "unknown"}


@dataclasses.dataclass(frozen=True)
class ReviewRow:
    """One ply of the play phase, judged with every hand open.

    ``ply``: the action's index in ``game.history`` (bids count: the first move of a dealt
    game follows its bids). ``seat`` made ``move``. ``before``: the verdict for the mover's
    side (the landlord, or the farmers as a team) in the position before the move, +1 win,
    -1 loss, ``None`` unknown within the budget; ``after``: the verdict for the same side in
    the position the move leads to (exact when the move ends the game). ``best``: the
    solver's move before this one (a winning move in a won position, else the move holding
    out longest; ``None`` when unknown). ``blunder``: the move turned a known win into a
    known loss. ``nodes``: the search of the position before the move. With ``score=True``,
    ``score_before`` and ``score_after`` are the exact final scores under best play, signed
    for the mover's side (``None`` when unknown or not asked for).
    """

    ply: int
    seat: int
    role: str
    move: Move
    before: int | None
    after: int | None
    best: Move | None
    blunder: bool
    nodes: int
    score_before: int | None = None
    score_after: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The row as JSON-ready values: moves as their text, verdicts as +1/-1/None."""
        data: dict[str, Any] = {
            "ply": self.ply,
            "seat": self.seat,
            "role": self.role,
            "move": str(self.move),
            "before": self.before,
            "after": self.after,
            "best": None if self.best is None else str(self.best),
            "blunder": self.blunder,
            "nodes": self.nodes,
        }
        if self.score_before is not None or self.score_after is not None:
            data["score_before"] = self.score_before
            data["score_after"] = self.score_after
        return data


@dataclasses.dataclass(frozen=True)
class Review:
    """What :func:`review` found: one :class:`ReviewRow` a ply of the play phase, in order,
    and the budget each position had. ``str()`` prints the table."""

    rows: tuple[ReviewRow, ...]
    node_limit: int | None
    time_limit: float | None
    score: bool
    seconds: float

    @property
    def blunders(self) -> tuple[ReviewRow, ...]:
        """The rows whose move turned a known win into a known loss."""
        return tuple(row for row in self.rows if row.blunder)

    @property
    def known(self) -> int:
        """How many rows have both verdicts (before and after) known."""
        return sum(1 for row in self.rows if row.before is not None and row.after is not None)

    @property
    def nodes(self) -> int:
        return sum(row.nodes for row in self.rows)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the budget, the totals and every row (:meth:`ReviewRow.to_dict`)."""
        return {
            "node_limit": self.node_limit,
            "time_limit": self.time_limit,
            "score": self.score,
            "plies": len(self.rows),
            "known": self.known,
            "blunders": len(self.blunders),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "rows": [row.to_dict() for row in self.rows],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    def __str__(self) -> str:
        heads = ["ply", "seat", "role", "move", "before", "after", "best", "nodes"]
        if self.score:
            heads[4:6] = ["before", "score", "after", "score"]
        table = [heads]
        for row in self.rows:
            cells = [
                str(row.ply),
                str(row.seat),
                row.role,
                str(row.move),
                _VERDICT[row.before],
                _VERDICT[row.after],
                "?" if row.best is None else str(row.best),
                f"{row.nodes:,}",
            ]
            if self.score:
                cells[4:6] = [
                    _VERDICT[row.before],
                    _signed(row.score_before),
                    _VERDICT[row.after],
                    _signed(row.score_after),
                ]
            table.append(cells + (["blunder"] if row.blunder else []))
        widths = [max(len(cells[i]) for cells in table) for i in range(len(heads))]
        right = {0, len(heads) - 1}  # ply and nodes are numbers
        lines = []
        for cells in table:
            parts = [
                cell.rjust(widths[i]) if i in right else cell.ljust(widths[i])
                for i, cell in enumerate(cells[: len(heads)])
            ]
            lines.append(("  ".join(parts) + "  " + " ".join(cells[len(heads) :])).rstrip())
        unknown = len(self.rows) - self.known
        count = len(self.blunders)
        lines.append(
            f"{len(self.rows)} plies: {self.known} known, {unknown} unknown; "
            f"{count} blunder{'' if count == 1 else 's'}"
        )
        lines.append(f"budget   {self._budget_text()} a position")
        lines.append(f"searched {self.nodes:,} nodes in {self.seconds:.3f} s")
        return "\n".join(lines)

    def _budget_text(self) -> str:
        parts = []
        if self.node_limit is not None:
            parts.append(f"{self.node_limit:,} nodes")
        if self.time_limit is not None:
            parts.append(f"{self.time_limit:g} s")
        return " or ".join(parts) if parts else "no limit"


def _signed(value: int | None) -> str:
    return "?" if value is None else f"{value:+d}"


def review(
    game_or_record: Game | str | bytes | dict[str, Any],
    *,
    node_limit: int | None = DEFAULT_NODE_LIMIT,
    time_limit: float | None = None,
    score: bool = False,
    memory_mb: int = 256,
    progress: Callable[[int, int], object] | None = None,
) -> Review:
    """Judge every move of the play phase of a Dou Dizhu game with every hand open.

    ``game_or_record``: a :class:`ddz.Game`, or its JSON record (text, bytes or the decoded
    ``dict``, as :meth:`ddz.Game.from_json` reads it). The budget applies to each position
    searched: ``node_limit`` nodes (default :data:`DEFAULT_NODE_LIMIT`, the same verdicts on
    every machine) and/or ``time_limit`` seconds; ``node_limit=None`` and ``time_limit=None``
    search without a limit (an endgame; a whole deal may then take very long). Bidding
    plies are not rows (the solver is for the play phase); a row's ``ply`` is still its
    index in the game's history. ``score=True`` asks for the exact scores (slower).
    ``memory_mb`` bounds the solver's table. ``progress``, if given, is called as
    ``progress(done, total)`` after each position is searched (``total`` counts the positions
    before each play ply and the one after the last), e.g. to show how far a long review
    has come. Ctrl-C stops a review (``KeyboardInterrupt``).
    """
    game = _game(game_or_record)
    limits = _limits(time_limit, node_limit)  # TypeError / ValueError for a bad budget
    score = _switch(score, "score")
    memory_mb = check_integer(memory_mb, "memory_mb", 1, 1 << 16)
    start = time.perf_counter()
    solver = Solver(game.rules, memory_mb=memory_mb)
    walk = game.copy()
    while walk.history and walk.history[-1].phase == "play":
        walk.undo()
    plies = game.history[len(walk.history) :]
    # the positions before each play ply, and the one after the last
    positions = [walk.copy()]
    for record in plies:
        walk.push(record.action)
        positions.append(walk.copy())
    # Solved in the order of play: what the table learns in the searches of the large early
    # positions, even those the budget stops, answers much of the later ones (measured:
    # more verdicts known in less time than solving from the end back).
    found: list[SolveResult | None] = [None] * len(positions)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable or None, not {shorten(progress)}")
    for index in range(len(positions)):
        if not positions[index].is_over:
            found[index] = solver.solve(
                positions[index],
                time_limit=limits[0] or None,
                node_limit=limits[1] or None,
                score=score,
                line=False,
            )
        if progress is not None:
            progress(index + 1, len(positions))
    rows = []
    for index, record in enumerate(plies):
        before, after = positions[index], positions[index + 1]
        seat = record.player
        mover = _side(before, seat)
        result = found[index]
        assert result is not None  # a position with a move to make is not over
        value_after, score_after = _after(after, found[index + 1], mover, score)
        move = record.action
        assert isinstance(move, Move)
        rows.append(
            ReviewRow(
                ply=record.ply,
                seat=seat,
                role="landlord" if mover == 0 else "farmer",
                move=move,
                before=result.value,
                after=value_after,
                best=result.move,
                blunder=result.value == 1 and value_after == -1,
                nodes=result.nodes,
                score_before=result.score,
                score_after=score_after,
            )
        )
    return Review(
        rows=tuple(rows),
        node_limit=limits[1] or None,
        time_limit=limits[0] or None,
        score=score,
        seconds=time.perf_counter() - start,
    )


def _after(
    game: Game, result: SolveResult | None, mover: int, score: bool
) -> tuple[int | None, int | None]:
    """The verdict (and score) of ``game``, reached by a move of side ``mover``, for it."""
    if game.is_over:
        sign = 1 if _side(game, game.winner) == mover else -1
        return sign, sign * game.multiplier if score else None
    assert result is not None
    if result.value is None:
        return None, None
    sign = 1 if _side(game, game.current_player) == mover else -1
    return sign * result.value, None if result.score is None else sign * result.score


def _side(game: Game, seat: int | None) -> int:
    return 0 if seat == game.landlord else 1


def _game(value: object) -> Game:
    """The game to review, from a game or its JSON record; one clear error otherwise."""
    if isinstance(value, Game):
        if value.phase == "bidding":
            raise ValueError("the game has not reached its play phase: nothing to review")
        return value
    if isinstance(value, GameBase):  # another game of the family
        name = "UNO" if type(value).__module__.startswith("ddz.uno") else type(value).__name__
        raise TypeError(f"review takes a Dou Dizhu game (ddz.Game), not a game of {name}")
    if isinstance(value, dict):
        if value.get("format") == UNO_FORMAT:
            raise ValueError("the record is a game of UNO; review is for Dou Dizhu games")
        try:
            value = json.dumps(value)
        except (TypeError, ValueError) as error:
            raise ValueError(f"the record does not encode as JSON: {error}") from None
    if isinstance(value, (bytes, bytearray)):
        try:
            value = value.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError("the record is UTF-8 JSON text, not undecodable bytes") from None
    if not isinstance(value, str):
        raise TypeError(
            f"review takes a ddz.Game or its JSON record (text or dict), not {shorten(value)}"
        )
    try:
        game = Game.from_json(value)  # RecordError (a ValueError) names the field at fault
    except RecordError as error:
        if error.field == "format" and _format(value) == UNO_FORMAT:
            raise ValueError("the record is a game of UNO; review is for Dou Dizhu games") from None
        raise
    if game.phase == "bidding":
        raise ValueError("the game has not reached its play phase: nothing to review")
    return game


def _format(text: str) -> object:
    """The ``format`` field of a JSON object's text, if it has one."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return data.get("format") if isinstance(data, dict) else None
