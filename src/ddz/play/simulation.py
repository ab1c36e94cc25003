"""Simulation at scale: whole games in C across threads, and a vector of games stepped together.

``simulate`` plays complete games (deal, bidding, play) with built-in agents (random,
greedy) entirely in the native core, across threads; ``VectorGame`` holds many games in C
arrays and steps them all with one call (numpy in, numpy out), resetting each game to a new
deal when it ends.

>>> import ddz
>>> result = ddz.simulate(1000, rules=ddz.CLASSIC, seed=1, threads=2)
>>> result.payoffs.shape, int(result.payoffs.sum()), result == ddz.simulate(1000, seed=1)
((1000, 3), 0, True)
>>> games = ddz.VectorGame(4, rules=ddz.CLASSIC, seed=2)
>>> mask = games.legal_action_mask()
>>> mask.shape == (4, ddz.CLASSIC.num_actions), games.observations().shape
(True, (4, 441))
"""

from __future__ import annotations

import dataclasses
import threading
from typing import Any

import numpy as np
import numpy.typing as npt

from ddz._core import vector as _core
from ddz.base.errors import check_integer
from ddz.base.fanout import ArrayResult, CoreVector, run_split
from ddz.doudizhu.action_space import ActionSpace, action_space
from ddz.doudizhu.actions import action_index
from ddz.doudizhu.observation import HISTORY, observation_size
from ddz.doudizhu.rules import CLASSIC, Rules

__all__ = [
    "MAX_GAMES",
    "MAX_THREADS",
    "MAX_VECTOR_GAMES",
    "ArrayResult",
    "CoreVector",
    "SimulationResult",
    "VectorGame",
    "game_seed",
    "simulate",
]

_AGENT_IDS = {"random": 0, "greedy": 1}
"""The agents the core plays, by name: their ids in the C loop (vector.pyx's AGENT_*)."""

MAX_THREADS = 256
"""The most threads ``simulate`` takes (more is refused: a thread a game beyond the cores
buys nothing, and each costs a stack)."""

MAX_GAMES = 1 << 40
"""The most games one ``simulate`` call plays (its result arrays take 34 bytes a game)."""

MAX_VECTOR_GAMES = int(_core.MAX_GAMES)
"""The most games a ``VectorGame`` holds (2**24)."""


def game_seed(seed: int, index: int) -> int:
    """The deal seed of game ``index`` of a run seeded with ``seed``:
    ``ddz.Game(rules, seed=game_seed(seed, index))`` starts with that game's deal."""
    seed = check_integer(seed, "seed", 0, (1 << 64) - 1)
    index = check_integer(index, "index", 0, (1 << 64) - 1)
    return int(_core.game_seed(seed, index))


@dataclasses.dataclass(frozen=True, eq=False)
class SimulationResult(ArrayResult):
    """What ``simulate`` returns: one row per game.

    ``payoffs`` (n x players, zero-sum; all zero for a void deal), ``winners`` (the seat that
    went out, -1 for a void deal), ``landlords`` (-1 for a void deal) and ``lengths`` (the
    actions taken, bidding included).
    """

    payoffs: npt.NDArray[np.int64]
    winners: npt.NDArray[np.int8]
    landlords: npt.NDArray[np.int8]
    lengths: npt.NDArray[np.int64]

    @property
    def void(self) -> npt.NDArray[np.bool_]:
        """The games that were void deals (everyone passed in bidding)."""
        return self.landlords < 0


def simulate(
    n: int,
    *,
    rules: Rules = CLASSIC,
    agents: str | tuple[str, ...] = "random",
    seed: int = 0,
    threads: int = 1,
    first_game: int = 0,
) -> SimulationResult:
    """Play ``n`` complete games entirely in C, on ``threads`` threads, and return the results
    as numpy arrays. Game i starts as ``ddz.Game(rules, seed=game_seed(seed, i))``; the same
    seed gives the same results whatever the number of threads. ``first_game`` plays games
    ``first_game .. first_game + n - 1`` of the run instead, so that slices of one run played
    apart (other processes, other machines) concatenate to the whole run.

    ``agents`` names the built-in agents that play, in C: one name for every seat or one a
    seat, each ``"random"`` (every legal action equally likely, drawn from the game's seeded
    generator) or ``"greedy"`` (``ddz.play.agents.GreedyAgent``'s choice in every state, ported
    to C). The random seats draw in turn from one seeded generator a game, so all-random runs
    give the results they always did. Other agents play through ``ddz.play.arena`` in Python.

    ``n`` is at most ``MAX_GAMES`` (2**40) and ``threads`` at most ``MAX_THREADS`` (256;
    more threads than games are not started); numpy integers are taken wherever an ``int``
    is. Every value is checked before anything is allocated.

    >>> import ddz
    >>> result = ddz.simulate(2000, agents=("greedy", "random", "random"), seed=3)
    >>> int(result.payoffs.sum()), bool(result.payoffs[:, 0].mean() > 0)   # greedy gains
    (0, True)
    """
    names = (agents,) * rules.players if isinstance(agents, str) else tuple(agents)
    if len(names) != rules.players or not set(names) <= _AGENT_IDS.keys():
        raise ValueError(
            "the core plays greedy and random agents, one name for all or one a seat "
            f"({rules.players}); got {agents!r} (other agents play through ddz.play.arena)"
        )
    seats = np.array([_AGENT_IDS[name] for name in names], dtype=np.int8)
    n = check_integer(n, "n", 0, MAX_GAMES)
    threads = check_integer(threads, "threads", 1, MAX_THREADS)
    seed = check_integer(seed, "seed", 0, (1 << 64) - 1)
    first_game = check_integer(first_game, "first_game", 0, int(_core.MAX_FIRST_GAME) - n)
    threads = min(threads, max(n, 1))
    payoffs = np.zeros((n, 3), dtype=np.int64)
    winners = np.zeros(n, dtype=np.int8)
    landlords = np.zeros(n, dtype=np.int8)
    lengths = np.zeros(n, dtype=np.int64)

    def run(start: int, stop: int) -> None:
        _core.simulate_games(
            rules, seats, seed, first_game, start, stop, payoffs, winners, landlords, lengths
        )

    run_split(n, threads, run)
    return SimulationResult(payoffs[:, : rules.players], winners, landlords, lengths)


class VectorGame(CoreVector):
    """``n`` games in C arrays, stepped together.

    * ``step(actions)``: one action index a game. Returns ``(rewards, done)``: rewards an
      (n x players) int64 array (a game's payoffs on the step it ends, zeros otherwise), done
      an n bool array. A game that ends starts its next deal at once (auto-reset), so every
      game always has a player to act; ``deal_seed(i)`` tells the new deal's seed.
    * Illegal actions are defined once: if any action is not legal in its game, ``step``
      raises ``ValueError`` naming the game, and no game changes.
    * Legal actions, over ``ddz.ActionSpace(rules)``, in three forms:
      ``legal_indices()`` (flat indices and offsets: the cheapest), ``packed_action_mask()``
      (one bit an action) and ``legal_action_mask()`` (one bool an action).
    * ``observations()``: an (n x ``observation_size(history)``) int8 array, each game seen
      by its player to act (``ddz.observation_layout``); each game remembers its last
      ``history`` moves of play for it.
    * ``n`` lies in 1 .. 2**24 (``MAX_VECTOR_GAMES``). Calls from several threads on one
      ``VectorGame`` are serialised by a lock it holds; ``copy``/``pickle`` round-trip it.

    Methods that return arrays take ``out=`` to fill an array of the caller's instead of a
    new one (the fast path for a training loop).
    """

    def __init__(
        self, n: int, *, rules: Rules = CLASSIC, seed: int = 0, history: int = HISTORY
    ) -> None:
        n = check_integer(n, "n", 1, MAX_VECTOR_GAMES)
        seed = check_integer(seed, "seed", 0, (1 << 64) - 1)
        observation_size(history)  # checks history
        self.rules = rules
        self.n = n
        self.history = history
        self.space: ActionSpace = action_space(rules)
        self._core: Any = _core.VectorGame(rules, n, seed, action_index(rules), history)
        self._observation_size = observation_size(history)
        # scratch of this object's (legal_indices' buffer, the own mask and what it marked):
        # one user at a time, or a thread's offsets could meet another's indices, or a clear
        # miss what the last call set and leave the own mask wrong for good
        self._scratch = threading.Lock()
        self._indices = np.empty(64 * n, dtype=np.int64)
        self._mask: npt.NDArray[np.bool_] | None = None
        self._marked: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64] | None]

    @property
    def num_actions(self) -> int:
        return self.space.size

    def legal_action_mask(
        self, *, out: npt.NDArray[np.bool_] | None = None, copy: bool = True
    ) -> npt.NDArray[np.bool_]:
        """Each game's legal actions, one bool row a game (n x ``num_actions``): a new array,
        or ``out`` when given.

        ``copy=False`` returns the vector's own mask instead, read-only and updated in place
        by the next call (copy it to keep it): only the entries that change are written, so
        it costs in proportion to the legal actions, not to the width of the space."""
        shape = (self.n, self.space.size)
        if not copy:
            with self._scratch:
                return self._own_mask()
        if out is None:
            out = np.empty(shape, dtype=np.bool_)
        self._core.legal_action_mask(_writable(out, np.bool_, shape).view(np.uint8))
        return out

    def _own_mask(self) -> npt.NDArray[np.bool_]:
        if self._mask is None:
            self._mask = np.zeros((self.n, self.space.size), dtype=np.bool_)
            self._marked = (np.empty(64 * self.n, dtype=np.int64), None)
        mask = self._mask.view(np.uint8)
        buffer, offsets = self._marked
        if offsets is not None:
            self._core.mark(mask, buffer, offsets, 0)  # clear what the last call set
        buffer, offsets, _ = self._fill_indices(buffer)
        self._core.mark(mask, buffer, offsets, 1)
        self._marked = (buffer, offsets)
        view = self._mask.view()
        view.flags.writeable = False
        return view

    def _fill_indices(
        self, buffer: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], int]:
        """Every game's legal indices into ``buffer`` (a bigger one if it is too small):
        ``(buffer, offsets, total)``."""
        offsets = np.empty(self.n + 1, dtype=np.int64)
        total: int = self._core.legal_indices(buffer, offsets)
        while total > len(buffer):  # (another thread may step between the two calls)
            buffer = np.empty(2 * total, dtype=np.int64)
            total = self._core.legal_indices(buffer, offsets)
        return buffer, offsets, total

    def packed_action_mask(
        self, *, out: npt.NDArray[np.uint8] | None = None
    ) -> npt.NDArray[np.uint8]:
        """Each game's legal actions, one bit an action (n x ``ceil(num_actions / 8)``
        uint8): action ``i`` is bit ``i % 8`` of byte ``i // 8``, so
        ``np.unpackbits(bits, axis=1, count=num_actions, bitorder="little")`` is the dense
        mask. Into ``out`` when given."""
        shape = (self.n, (self.space.size + 7) // 8)
        if out is None:
            out = np.empty(shape, dtype=np.uint8)
        self._core.packed_mask(_writable(out, np.uint8, shape))
        return out

    def legal_indices(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Every game's legal action indices: ``(indices, offsets)``, game ``i``'s being
        ``indices[offsets[i]:offsets[i + 1]]`` (in the order of ``Game.legal_actions``)."""
        with self._scratch:
            self._indices, offsets, total = self._fill_indices(self._indices)
            return self._indices[:total].copy(), offsets

    def observations(
        self, *, history: int | None = None, out: npt.NDArray[np.int8] | None = None
    ) -> npt.NDArray[np.int8]:
        """Each game's observation of its player to act, one row a game, with its last
        ``history`` moves of play (default: all the vector remembers), into ``out`` when
        given."""
        moves = self.history if history is None else history
        shape = (self.n, observation_size(moves))
        if out is None:
            out = np.empty(shape, dtype=np.int8)
        self._core.observations(_writable(out, np.int8, shape), moves)
        return out

    def step(self, actions: npt.ArrayLike) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
        """Apply one action index a game: ``(rewards, done)`` (see the class docstring).
        ``actions`` is a one-dimensional integer array of ``n`` entries (any numpy integer
        type, or a list of ints); another type is a ``TypeError``, another shape a
        ``ValueError``."""
        chosen = actions if actions.__class__ is np.ndarray else np.asarray(actions)
        if chosen.dtype.kind not in "iu":  # (an object array's kind is "O")
            raise TypeError(f"step takes integer action indices, not {chosen.dtype}")
        if chosen.shape != (self.n,):
            raise ValueError(f"step takes one action a game, shape ({self.n},), not {chosen.shape}")
        # the core writes every row of rewards and every flag of done (or raises)
        rewards = np.empty((self.n, 3), dtype=np.int64)
        done = np.empty(self.n, dtype=np.bool_)
        self._core.step(chosen, rewards, done.view(np.uint8))
        return (rewards if self.rules.players == 3 else rewards[:, : self.rules.players]), done

    def copy(self) -> VectorGame:
        """An independent copy: every game's state, its deal counter and the sampler's
        generator (``copy.copy``, ``copy.deepcopy`` and ``pickle`` give the same)."""
        other = object.__new__(VectorGame)
        other.__dict__.update(self.__dict__)
        other._core = self._core.copy()
        other._scratch = threading.Lock()
        other._indices = np.empty_like(self._indices)  # scratch of its own
        other._mask = None
        return other

    def __copy__(self) -> VectorGame:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> VectorGame:
        return self.copy()

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        del state["_scratch"]  # a lock does not pickle; the restored vector gets its own
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._scratch = threading.Lock()

    def state_bytes(self) -> bytes:
        """Every game's core state as bytes: equal bytes, equal games."""
        return bytes(self._core.state_bytes())


def _writable(array: Any, dtype: Any, shape: tuple[int, ...]) -> Any:
    """``array`` if it is a writable, C-contiguous numpy array of this dtype and shape."""
    if not (
        isinstance(array, np.ndarray)
        and array.dtype == dtype
        and array.shape == shape
        and array.flags.c_contiguous
        and array.flags.writeable
    ):
        raise ValueError(
            f"out is a writable, C-contiguous {np.dtype(dtype).name} array of shape {shape}"
        )
    return array
