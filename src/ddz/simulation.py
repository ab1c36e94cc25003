"""The public path of simulation at scale: ``ddz.simulation`` as documented.

The code lives in :mod:`ddz.play.simulation` (``docs/architecture.md``); this module
re-exports its public names, so that imports of ``ddz.simulation`` keep working.
"""

from ddz.base.fanout import ArrayResult, CoreVector
from ddz.play.simulation import (
    MAX_GAMES,
    MAX_THREADS,
    MAX_VECTOR_GAMES,
    SimulationResult,
    VectorGame,
    game_seed,
    simulate,
)

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
