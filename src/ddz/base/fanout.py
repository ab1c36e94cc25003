"""Many games of a core at once, the same way for every game: results held as numpy arrays,
the outer methods of a vector of games, and a run split across threads.

The cores release the GIL while they loop, so threads run games in parallel; each thread
writes its own rows of the result arrays, so no lock is needed.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["ArrayResult", "CoreVector", "run_split"]


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
