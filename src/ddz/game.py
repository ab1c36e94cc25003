"""The public path of the Dou Dizhu game: ``ddz.game`` as documented.

The code lives in :mod:`ddz.doudizhu.game` (``docs/architecture.md``); this module
re-exports its public names, so that imports of ``ddz.game`` keep working.
"""

from ddz.doudizhu.actions import Action, ActionRecord, Bid, action_index
from ddz.doudizhu.game import Game
from ddz.doudizhu.observation import (
    HISTORY,
    HISTORY_ENTRY_LAYOUT,
    OBSERVATION_LAYOUT,
    OBSERVATION_SIZE,
    Observation,
    observation_layout,
    observation_size,
)

__all__ = [
    "HISTORY",
    "HISTORY_ENTRY_LAYOUT",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "Action",
    "ActionRecord",
    "Bid",
    "Game",
    "Observation",
    "action_index",
    "observation_layout",
    "observation_size",
]
