"""The public path of move codes in batches: ``ddz.batch`` as documented.

The code lives in :mod:`ddz.doudizhu.batch` (``docs/architecture.md``); this module
re-exports its public names, so that imports of ``ddz.batch`` keep working.
"""

from ddz.doudizhu.batch import (
    Codes,
    code_fields,
    hand_masks,
    legal_moves_batch,
    move_codes,
    moves_into,
    to_moves,
)

__all__ = [
    "Codes",
    "code_fields",
    "hand_masks",
    "legal_moves_batch",
    "move_codes",
    "moves_into",
    "to_moves",
]
