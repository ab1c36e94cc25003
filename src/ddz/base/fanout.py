"""Many games of a core at once, the same way for every game: results held as numpy arrays,
the outer methods of a vector of games, and a run split across threads.

The cores release the GIL while they loop, so threads run games in parallel; each thread
writes its own rows of the result arrays, so no lock is needed.
"""

from __future__ import annotations

import dataclasses
import itertools
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

__all__ = ["ArrayResult", "CoreVector", "Stoppable", "run_interruptible", "run_split"]


def run_split(n: int, threads: int, run: Callable[[int, int], None]) -> None:
    """``run(start, stop)`` over ``0..n`` in ``threads`` near-equal consecutive parts, each in
    its own thread (in this one when ``threads`` is 1), every part finished on return and
    its exception raised here."""
    if threads == 1:
        run(0, n)
        return
    bounds = np.linspace(0, n, threads + 1).astype(int)
    with ThreadPoolExecutor(threads) as pool:
        for future in [pool.submit(run, a, b) for a, b in itertools.pairwise(bounds)]:
            future.result()


class ArrayResult:
    """Results held as numpy arrays in dataclass fields: equal when every array is equal
    (numpy's ``==`` compares element by element, so dataclasses' own equality cannot)."""

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(
            np.array_equal(getattr(self, f.name), getattr(other, f.name))
            for f in dataclasses.fields(self)  # type: ignore[arg-type]
        )


class CoreVector:
    """What every vector of games in the core answers the same way (``ddz.VectorGame`` and
    ``ddz.uno.VectorGame``): random legal actions, observations, players to act, deal seeds.
    Subclasses set ``_core``, ``n`` and ``_observation_size``."""

    _core: Any
    n: int
    _observation_size: int

    def sample_legal(self) -> npt.NDArray[np.int64]:
        """One uniformly random legal action index a game, drawn in the core (seeded by the
        vector's seed): for random play and baselines without building masks."""
        out = np.zeros(self.n, dtype=np.int64)
        self._core.sample_legal(out)
        return out

    def observations(self) -> npt.NDArray[np.int8]:
        """Each game's observation of its player to act, one row a game."""
        out = np.zeros((self.n, self._observation_size), dtype=np.int8)
        self._core.observations(out)
        return out

    @property
    def current_players(self) -> npt.NDArray[np.int8]:
        """The player to act in each game."""
        out = np.zeros(self.n, dtype=np.int8)
        self._core.current_players(out)
        return out

    @property
    def keys(self) -> npt.NDArray[np.uint64]:
        """Each game's 64-bit state key (``Game.key`` of the same state), one a game."""
        out = np.zeros(self.n, dtype=np.uint64)
        self._core.keys(out)
        return out

    def deal_seed(self, game: int) -> int:
        """The seed of game ``game``'s current deal (the seed its single game starts from)."""
        return int(self._core.deal_seed(game))


_T = TypeVar("_T")


class Stoppable(Protocol):
    """What holds the stop flag a long core call polls (``ddz._core.solver.SolverCore``,
    ``ddz._core.playouts.Stop``)."""

    def request_stop(self) -> None: ...


def run_interruptible(stopper: Stoppable, work: Callable[[], _T]) -> _T:
    """``work()`` (a long core call without the GIL, which signals cannot reach) on a helper
    thread, this thread waiting where signals reach it: Ctrl-C raises KeyboardInterrupt here,
    which first stops the call (``stopper.request_stop()``, asked until the helper is done)
    and waits for it, so the core's objects are whole and free again when the exception
    arrives. The solver's long searches and the PIMC agent's long playouts go through here."""
    box: list[tuple[bool, Any]] = []
    began, done = threading.Event(), threading.Event()

    def target() -> None:
        began.set()
        try:
            box.append((True, work()))
        except BaseException as error:  # handed to the caller below
            box.append((False, error))
        finally:
            done.set()

    thread = threading.Thread(target=target, name="ddz-core-call", daemon=True)
    try:
        thread.start()
        while not done.wait(0.2):
            pass
    except BaseException:
        # The signal may come before the helper runs, or while start() waits for it: once
        # it has begun it ends soon after the stop flag, so wait for that, asking again
        # each turn (a call starting clears the flag).
        if began.wait(5.0):
            while not done.wait(0.05):
                stopper.request_stop()
        raise
    thread.join()
    ok, result = box[0]
    if not ok:
        raise result
    return result  # type: ignore[no-any-return]
