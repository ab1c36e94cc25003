"""The public path of the exceptions and input limits: ``ddz.errors`` as documented.

The code lives in :mod:`ddz.base.errors` (``docs/architecture.md``); this module
re-exports its public names, so that imports of ``ddz.errors`` keep working.
"""

from ddz.base.errors import (
    MAX_ECHO,
    MAX_RECORD,
    MAX_TEXT,
    SEED_LIMIT,
    ActionTypeError,
    IllegalMoveError,
    RecordError,
    check_integer,
    check_number,
    check_seed,
    check_text,
    shorten,
)

__all__ = [
    "MAX_ECHO",
    "MAX_RECORD",
    "MAX_TEXT",
    "SEED_LIMIT",
    "ActionTypeError",
    "IllegalMoveError",
    "RecordError",
    "check_integer",
    "check_number",
    "check_seed",
    "check_text",
    "shorten",
]
