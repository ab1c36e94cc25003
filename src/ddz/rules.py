"""The public path of Dou Dizhu's rule options and presets: ``ddz.rules`` as documented.

The code lives in :mod:`ddz.doudizhu.rules` (``docs/architecture.md``); this module
re-exports its public names, so that imports of ``ddz.rules`` keep working.
"""

from ddz.doudizhu.rules import (
    CLASSIC,
    CORE_FIELDS,
    DOUZERO,
    ENDGAME,
    PRESETS,
    RLCARD,
    TWO_PLAYER,
    UNO_LANDLORD,
    VARIANTS,
    Bidding,
    CoreField,
    Rules,
    Variant,
    action_codes,
    check_deal,
)

__all__ = [
    "CLASSIC",
    "CORE_FIELDS",
    "DOUZERO",
    "ENDGAME",
    "PRESETS",
    "RLCARD",
    "TWO_PLAYER",
    "UNO_LANDLORD",
    "VARIANTS",
    "Bidding",
    "CoreField",
    "Rules",
    "Variant",
    "action_codes",
    "check_deal",
]
