"""The exact solver: who wins a play-phase position when every hand is known.

The two sides are the landlord and the farmers as a team; two and three seats, any
:class:`ddz.Rules`. The search runs in the native core (``ddz._core.solver``) without the GIL:
alpha-beta over the two sides with a bounded transposition table, a static win test for a
leader whose hand splits into unanswerable moves plus one, move ordering that knows the game
(a move that ends the game first, then the moves that leave the hand the fewest plays from
empty), node and time limits, lazy-SMP threads. docs/solver.md has the details and the
measured speed.

>>> import ddz
>>> game = ddz.Game.from_position(ddz.ENDGAME, ["3KK", "44A"], landlord=0, to_act=0)
>>> result = ddz.solve(game)
>>> result.value, str(result.move), [str(move) for move in result.line]
(1, 'KK', ['KK', 'pass', '3'])
>>> [(str(m.move), m.value) for m in ddz.analyse(game)]
[('3', -1), ('K', -1), ('KK', 1)]
"""

from __future__ import annotations

import dataclasses
import numbers
import threading
import time
from collections.abc import Sequence

import numpy as np

from ddz._core import solver as _core
from ddz.base.errors import check_integer, shorten
from ddz.base.fanout import run_interruptible
from ddz.doudizhu.game import Game
from ddz.doudizhu.moves import Move
from ddz.doudizhu.rules import Rules

__all__ = ["MoveValue", "SolveResult", "Solver", "analyse", "solve"]

_LINE_LIMIT = 400  # plies: more than any game has (every ply but passes plays a card)

# what the core reads from a game state (see _core.solver.state_position)
_Fields = tuple[tuple[int, ...], int, int, int, int, int, int, int, int, int, bool]


@dataclasses.dataclass(frozen=True)
class SolveResult:
    """What :func:`solve` found.

    ``value``: +1 the side to act wins, -1 it loses, ``None`` unknown within the limits.
    ``move``: a winning move (when the side wins), else the move that holds out longest.
    ``line``: the principal variation from here to the end (both sides playing ``move``).
    ``score`` (score mode only): the score the game ends with under best play, signed for the
    side to act (the winning side maximises it, the losing side minimises it): the base x
    2 per bomb and rocket played before and after x 2 for a spring; a three-seat landlord's
    payoff is twice it. Score mode settles the verdict first: where the limits stop it after
    that, ``value`` and ``move`` are the verdict's, ``score`` is ``None`` and ``line`` empty.
    """

    value: int | None
    move: Move | None
    line: tuple[Move, ...]
    nodes: int
    seconds: float
    score: int | None = None

    def __str__(self) -> str:
        verdict = {1: "win", -1: "loss", None: "unknown"}[self.value]
        text = f"{verdict} for the side to act"
        if self.score is not None:
            text += f", score {self.score:+d}"
        if self.line:
            text += ": " + " ".join(str(move) for move in self.line)
        return text


@dataclasses.dataclass(frozen=True)
class MoveValue:
    """One legal move and its value for the side that plays it (+1, -1 or ``None``)."""

    move: Move
    value: int | None
    score: int | None = None


def table_memory_message(memory_mb: int, option: str = "memory_mb") -> str:
    """What the solver and ``python -m ddz solve`` say when the system refuses the table's
    memory (``option``: how the caller names the setting)."""
    return f"not enough memory for a {memory_mb} MB table; ask for less with {option}"


class Solver:
    """A solver for one rule set; its transposition table persists between solves, so
    solving positions of one game one after another is cheap.

    ``memory_mb`` bounds the table (default 256 MB, allocated lazily by the system; a
    ``MemoryError`` naming the size when the system refuses it);
    ``threads`` > 1 searches the root on that many threads sharing the table (lazy SMP).
    Calls from several threads on one solver are serialised (its searchers and their move
    stacks are its own scratch); give each thread its own solver to search in parallel.
    """

    def __init__(self, rules: Rules, *, memory_mb: int = 256, threads: int = 1) -> None:
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a ddz.Rules, not {type(rules).__name__}")
        memory_mb = check_integer(memory_mb, "memory_mb", 1, 1 << 16)
        threads = check_integer(threads, "threads", 1, 64)
        self.rules = rules
        try:
            self._core = _core.SolverCore(rules, memory_mb, threads)
        except MemoryError:
            raise MemoryError(table_memory_message(memory_mb)) from None
        self._lock = threading.RLock()
        self._stopping = False  # stop() was called during the running solve or analyse

    @property
    def threads(self) -> int:
        return int(self._core.threads)

    @property
    def table_bytes(self) -> int:
        """The transposition table's size in bytes."""
        return int(self._core.table_bytes)

    def clear(self) -> None:
        """Forget every stored value."""
        with self._lock:
            self._core.clear()

    def stop(self) -> None:
        """Ask the ``solve`` or ``analyse`` running on another thread to give up: it returns
        soon with unknown values (``value=None``), as if a limit had stopped it. Without the
        lock, so that it reaches a search in progress; a call while nothing runs does nothing
        to the next one. A search that is just starting may miss it: call again until the
        solving thread returns (the command line does, on Ctrl-C)."""
        self._stopping = True
        self._core.request_stop()

    def solve(
        self,
        game: Game,
        *,
        time_limit: float | None = None,
        node_limit: int | None = None,
        score: bool = False,
        line: bool = True,
    ) -> SolveResult:
        """Solve the position of ``game`` (play phase, not over) for the side to act; see
        :func:`solve`."""
        score, line = _switch(score, "score"), _switch(line, "line")
        with self._lock:
            self._stopping = False
            return self._solve(game, time_limit, node_limit, score, line)

    def _solve(
        self,
        game: Game,
        time_limit: float | None,
        node_limit: int | None,
        score: bool,
        line: bool,
    ) -> SolveResult:
        position, base = self._position(game)
        limits = _limits(time_limit, node_limit)
        start = time.perf_counter()
        value, code, nodes, scored = self._settle(position, score, limits)
        seconds = time.perf_counter() - start
        if value is None:
            return SolveResult(None, None, (), nodes, seconds)
        moves: tuple[Move, ...] = ()
        if line and (scored or not score):
            moves = self._line(game, score, limits)
        return SolveResult(
            1 if value > 0 else -1,
            None if code is None else Move.from_code(code),
            moves,
            nodes,
            seconds,
            _score(value, base) if scored else None,
        )

    def analyse(
        self,
        game: Game,
        *,
        time_limit: float | None = None,
        node_limit: int | None = None,
        score: bool = False,
    ) -> list[MoveValue]:
        """Every legal move of the side to act with its value for that side (each move
        searched within the limits); in the order ``game.legal_actions()`` gives."""
        score = _switch(score, "score")
        with self._lock:
            self._stopping = False
            return self._analyse(game, time_limit, node_limit, score)

    def _analyse(
        self, game: Game, time_limit: float | None, node_limit: int | None, score: bool
    ) -> list[MoveValue]:
        self._position(game)
        limits = _limits(time_limit, node_limit)
        seat = game.current_player
        result = []
        for move in game.legal_actions():
            assert isinstance(move, Move)
            child = game.copy()
            child.push(move)
            if child.is_over:
                won = child.winner is not None and _side(child, child.winner) == _side(game, seat)
                sign = 1 if won else -1
                result.append(MoveValue(move, sign, sign * child.multiplier if score else None))
                continue
            position, child_base = self._position(child)
            value, _, _, scored = self._settle(position, score, limits)
            if value is not None and _side(child, child.current_player) != _side(game, seat):
                value = -value
            final = _score(value, child_base) if scored and value is not None else None
            result.append(
                MoveValue(move, None if value is None else (1 if value > 0 else -1), final)
            )
        return result

    # --- inside ----------------------------------------------------------------------------

    def _position(self, game: Game) -> tuple[_Fields, int]:
        if not isinstance(game, Game):
            raise TypeError(f"solve takes a ddz.Game, not {type(game).__name__}")
        if game.rules != self.rules:
            raise ValueError("the game's rules are not this solver's rules")
        if game.phase != "play":
            raise ValueError(f"the game must be in its play phase to solve it, not {game.phase}")
        fields = _core.state_position(game.state_bytes())
        return fields, game.multiplier

    def _core_solve(
        self,
        fields: _Fields,
        *,
        hands: Sequence[int] | None = None,
        score: bool = False,
        time_limit: float = 0.0,
        node_limit: int = 0,
        thread: int = 0,
    ) -> tuple[int | None, int | None, int, bool]:
        """One search of the raw core at a position as ``state_position`` read it (its
        ``hands`` replaced by ``hands``, where given: a sampled world), on the calling
        thread, unlocked: ``(value, move code, nodes, stopped)``. 0 limits are none."""
        own, table, table_player, current, landlord, direction, let, lplays, fplays = fields[:9]
        return self._core.solve(
            own if hands is None else hands,
            table,
            table_player,
            current,
            landlord,
            direction=direction,
            let=let,
            landlord_plays=lplays,
            farmer_plays=fplays,
            score_mode=score,
            time_limit=time_limit,
            node_limit=node_limit,
            thread=thread,
        )

    def _search(
        self, fields: _Fields, score: bool, time_limit: float, node_limit: int
    ) -> tuple[int | None, int | None, int]:
        core = self._core
        if self._stopping:  # stop() asked: every search left in this call is unknown
            return None, None, 0

        def run(
            thread: int, seconds: float, nodes: int
        ) -> tuple[int | None, int | None, int, bool]:
            return self._core_solve(
                fields, score=score, time_limit=seconds, node_limit=nodes, thread=thread
            )

        if core.threads == 1:
            # The search runs in C without the GIL, where Ctrl-C cannot reach it. A short one
            # (a slice of nodes: most solves) runs right here; a longer one goes on to a helper
            # thread while this one waits where signals reach it (fanout.run_interruptible).
            start = time.monotonic()
            first = node_limit if 0 < node_limit <= _SLICE_NODES else _SLICE_NODES
            value, code, nodes, _ = run(0, time_limit, first)
            if value is not None or first == node_limit or self._stopping:
                return value, code, nodes
            seconds = 0.0
            if time_limit:
                seconds = time_limit - (time.monotonic() - start)
                if seconds <= 0:
                    return None, None, nodes
            more_nodes = 0
            if node_limit:
                more_nodes = node_limit - nodes
                if more_nodes <= 0:
                    return None, None, nodes
            value, code, more, _ = run_interruptible(core, lambda: run(0, seconds, more_nodes))
            return value, code, nodes + more
        results: list[tuple[int | None, int | None, int, bool]] = [(None, None, 0, False)]
        results *= core.threads

        def helper(thread: int) -> None:
            results[thread] = run(thread, time_limit, node_limit)

        core.reset_stop()
        helpers = [threading.Thread(target=helper, args=(i,)) for i in range(1, core.threads)]
        for thread in helpers:
            thread.start()
        try:
            results[0] = run_interruptible(core, lambda: run(0, time_limit, node_limit))
        finally:
            core.request_stop()
            for thread in helpers:
                thread.join()
        nodes = sum(result[2] for result in results)
        for value, code, _, _ in results:
            if value is not None:
                return value, code, nodes
        return None, None, nodes

    def _settle(
        self, fields: _Fields, score: bool, limits: tuple[float, int]
    ) -> tuple[int | None, int | None, int, bool]:
        """``_search``, and in score mode, where the limits stopped the score's search after
        the verdict, that verdict: ``(value, move code, nodes, scored)``, ``scored`` whether
        ``value`` is a score (else a verdict, or unknown)."""
        value, code, nodes = self._search(fields, score, *limits)
        if value is None and score:
            value, code = self._verdict()
            return value, code, nodes, False
        return value, code, nodes, score

    def _verdict(self) -> tuple[int | None, int | None]:
        """After a score-mode search that its limits stopped: the win/loss verdict (value,
        move code) which that search settled first, on any of its threads; unknown where
        none did, or where ``stop()`` ended the call (its searches may not have run, and a
        stopped call answers unknown)."""
        if self._stopping:
            return None, None
        for thread in range(self._core.threads):
            value, code = self._core.verdict(thread)
            if value is not None:
                return value, code
        return None, None

    def _line(self, game: Game, score: bool, limits: tuple[float, int]) -> tuple[Move, ...]:
        walk = game.copy()
        moves: list[Move] = []
        while not walk.is_over and len(moves) < _LINE_LIMIT:
            fields, _ = self._position(walk)
            value, code, _ = self._search(fields, score, *limits)
            if value is None or code is None:
                break
            move = Move.from_code(code)
            moves.append(move)
            walk.push(move)
        return tuple(moves)


_SLICE_NODES = 1 << 18
"""Nodes a search runs on the calling thread (a few tens of milliseconds) before it moves to
a helper thread that Ctrl-C can stop: nearly every solve fits, and pays for no thread."""


def _side(game: Game, seat: int | None) -> int:
    return 0 if seat == game.landlord else 1


def _score(value: int, base: int) -> int:
    """The score of a score-mode value: the core's value is the sign times one more than
    the doublings still to come (bombs, rockets, a spring), base the stake so far."""
    return (1 if value > 0 else -1) * base << (abs(value) - 1)


def _limits(time_limit: float | None, node_limit: int | None) -> tuple[float, int]:
    if time_limit is not None:
        # a real number (numpy's too), never a bool (True is no number of seconds) or text
        if isinstance(time_limit, (bool, np.bool_)) or not isinstance(time_limit, numbers.Real):
            raise TypeError(f"time_limit is a number of seconds, not {shorten(time_limit)}")
        if not time_limit > 0:  # NaN too
            raise ValueError(
                f"time_limit must be a positive number of seconds, not {shorten(time_limit)}"
            )
    if node_limit is not None:
        node_limit = check_integer(node_limit, "node_limit", 1, (1 << 64) - 1)
    return float(time_limit or 0.0), int(node_limit or 0)


def _switch(value: object, name: str) -> bool:
    """A yes/no argument: ``bool`` (numpy's taken); anything else is a TypeError, since a
    truthy ``"no"`` or ``1`` would otherwise switch the mode on without a word."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} is True or False, not {shorten(value)}")
    return bool(value)


def solve(
    game: Game,
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    memory_mb: int = 256,
    threads: int = 1,
    score: bool = False,
    line: bool = True,
) -> SolveResult:
    """Solve the position of ``game`` (in its play phase) with every hand known: does the
    side to act (the landlord, or the farmers as a team) win against best play?

    ``time_limit`` (seconds) and ``node_limit`` stop the search with ``value=None``;
    ``memory_mb`` bounds the transposition table; ``threads`` searches on that many threads;
    ``score=True`` solves for the exact score as well (bombs, rocket and spring doublings):
    the verdict first, so that limits that stop the score's search leave the verdict known
    (``score=None``). ``line=False`` skips the principal variation. To solve many positions
    of one rule set, keep a :class:`Solver`: its table carries over.
    """
    if not isinstance(game, Game):
        raise TypeError(f"solve takes a ddz.Game, not {type(game).__name__}")
    solver = Solver(game.rules, memory_mb=memory_mb, threads=threads)
    return solver.solve(game, time_limit=time_limit, node_limit=node_limit, score=score, line=line)


def analyse(
    game: Game,
    *,
    time_limit: float | None = None,
    node_limit: int | None = None,
    memory_mb: int = 256,
    score: bool = False,
) -> list[MoveValue]:
    """Every legal move of the side to act with its exact value for that side (+1 wins, -1
    loses, ``None`` unknown within the limits, which apply to each move)."""
    if not isinstance(game, Game):
        raise TypeError(f"analyse takes a ddz.Game, not {type(game).__name__}")
    solver = Solver(game.rules, memory_mb=memory_mb)
    return solver.analyse(game, time_limit=time_limit, node_limit=node_limit, score=score)
