"""The public path of Dou Dizhu's records and seat views: ``ddz.records`` as documented.

The code lives in :mod:`ddz.doudizhu.records` (``docs/architecture.md``); this module
re-exports its public names, so that imports of ``ddz.records`` keep working.
"""

from ddz.base.seats import seat_of
from ddz.doudizhu.observation import (
    OBSERVATION_FORMAT,
    observation_from_dict,
    observation_from_json,
    observation_to_dict,
    observation_to_json,
)
from ddz.doudizhu.rebuild import game_from_view
from ddz.doudizhu.records import VIEW_FORMAT, rules_dict, view

__all__ = [
    "OBSERVATION_FORMAT",
    "VIEW_FORMAT",
    "game_from_view",
    "observation_from_dict",
    "observation_from_json",
    "observation_to_dict",
    "observation_to_json",
    "rules_dict",
    "seat_of",
    "view",
]
