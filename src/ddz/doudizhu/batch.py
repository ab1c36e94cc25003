"""Moves as integers, for callers who want no Python objects: one hand or many per call.

A hand is its card integer (``Cards.mask``) and a move its code (``Move.code``); the layout
of both is in ``docs/layout.md``. The loops run in C; the batch form releases the GIL.

>>> import numpy as np, ddz
>>> from ddz import batch
>>> codes = batch.move_codes("3344", rules=ddz.CLASSIC)
>>> codes.dtype, [str(ddz.Move.from_code(int(c))) for c in codes]
(dtype('uint64'), ['3', '4', '33', '44'])
>>> hands = batch.hand_masks(["3344", "XD"])
>>> codes, offsets = batch.legal_moves_batch(hands, rules=ddz.CLASSIC)
>>> offsets.tolist()
[0, 4, 7]
>>> out = np.empty(64, dtype=np.uint64)
>>> batch.moves_into(hands[1], 0, ddz.CLASSIC, out)
3
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from ddz._core import moves as _core
from ddz.base.errors import check_integer
from ddz.doudizhu.cards import Cards, CardsLike
from ddz.doudizhu.moves import Move, MoveLike
from ddz.doudizhu.rules import CLASSIC, Rules

__all__ = [
    "code_fields",
    "hand_masks",
    "legal_moves_batch",
    "move_codes",
    "moves_into",
    "to_moves",
]

Codes = npt.NDArray[np.uint64]


def hand_masks(hands: Iterable[CardsLike]) -> Codes:
    """Card integers of many hands (``Cards`` or card strings) as a uint64 array."""
    masks = [h.mask if isinstance(h, Cards) else Cards.parse(h).mask for h in hands]
    return np.array(masks, dtype=np.uint64)


def _table_code(last: MoveLike | int | None) -> int:
    if last is None:
        return 0
    if isinstance(last, Move):
        return last.code
    if isinstance(last, str):
        return Move.parse(last).code
    return check_integer(last, "last", 0, (1 << 64) - 1)


def move_codes(
    hand: CardsLike | int, last: MoveLike | int | None = None, *, rules: Rules = CLASSIC
) -> Codes:
    """The legal move codes of one hand as a new uint64 array (leads when ``last`` is None)."""
    if isinstance(hand, (Cards, str)):
        mask = Cards(hand).mask
    else:  # a card integer (numpy's too), one a deck can hold
        mask = Cards.from_mask(check_integer(hand, "hand", 0, (1 << 64) - 1)).mask
    table = _table_code(last)
    out = np.empty(256, dtype=np.uint64)
    count = _core.moves_into(mask, table, rules, out)
    if count > len(out):
        out = np.empty(count, dtype=np.uint64)
        count = _core.moves_into(mask, table, rules, out)
    return out[:count].copy()


moves_into = _core.moves_into
"""``moves_into(hand_mask, table_code, rules, out) -> int``: the raw entry point.

Writes the legal move codes of one hand into ``out`` (a writable, contiguous uint64 array)
and returns how many there are; ``table_code`` 0 means leading, ``rules`` is a ``Rules``
(or its ``core_flags``). Nothing is allocated and no object is built: this is the core's
own function, with no Python layer in between. A result larger than ``len(out)`` means
``out`` was too small: call again with that much room.
"""


def legal_moves_batch(
    hands: npt.ArrayLike, tables: npt.ArrayLike | None = None, *, rules: Rules = CLASSIC
) -> tuple[Codes, npt.NDArray[np.int64]]:
    """Legal moves of many hands in one call: ``(codes, offsets)``.

    ``hands`` are card integers, ``tables`` the move codes to answer (0 or omitted: lead).
    The moves of hand ``i`` are ``codes[offsets[i]:offsets[i + 1]]``.
    """
    hand_array = _uint64_array(hands, "hands")
    if tables is None:
        table_array = np.zeros(len(hand_array), dtype=np.uint64)
    else:
        table_array = _uint64_array(tables, "tables")
    offsets = np.empty(len(hand_array) + 1, dtype=np.int64)
    # Room for a typical set: ~55 moves for a lead, ~4 for an answer
    # (docs/rules.md#engines-differ); a batch that needs more is run again with exactly enough.
    leads = len(hand_array) - int(np.count_nonzero(table_array))
    out = np.empty(max(64 * leads + 8 * (len(hand_array) - leads), 64), dtype=np.uint64)
    total = _core.moves_batch(hand_array, table_array, rules, out, offsets)
    if total > len(out):
        out = np.empty(total, dtype=np.uint64)
        total = _core.moves_batch(hand_array, table_array, rules, out, offsets)
    return out[:total], offsets


def _uint64_array(values: npt.ArrayLike, name: str) -> Codes:
    """Card integers or move codes as a flat uint64 array: integers (numpy's too) in
    0 .. 2**64 - 1, never cast from bools, floats or text (TypeError), nor wrapped from
    negative numbers (ValueError)."""
    array = np.asarray(values)
    if array.dtype.kind in "iu":
        if array.dtype.kind == "i" and array.size and int(array.min()) < 0:
            raise ValueError(f"{name} are integers in 0 .. 2**64 - 1, not {int(array.min())}")
        return np.ascontiguousarray(array, dtype=np.uint64).reshape(-1)
    if not isinstance(values, np.ndarray) and array.dtype.kind in "fO":
        # a sequence numpy could not type as integers (Python ints beyond int64, numpy's
        # uint64 beside ints, or floats): each item checked
        items = np.asarray(values, dtype=object).reshape(-1)
        bound = (1 << 64) - 1
        checked = [check_integer(v, f"{name}[{i}]", 0, bound) for i, v in enumerate(items)]
        return np.array(checked, dtype=np.uint64)
    raise TypeError(f"{name} are integers, not an array of {array.dtype}")


def to_moves(codes: Iterable[int]) -> list[Move]:
    """``Move`` objects of move codes (each checked to be a well-formed move)."""
    return [Move.from_code(code) for code in codes]


def code_fields(code: int) -> tuple[int, int, int, int]:
    """A move code's fields (``docs/layout.md``): the cards' integer, the ``MoveType``, the
    rank that compares (``Move.rank``: the highest of a chain; 0 is the 3) and the length.

    >>> import ddz
    >>> cards, kind, rank, length = code_fields(ddz.Move.parse("34567").code)
    >>> ddz.Cards.from_mask(cards), ddz.MoveType(kind).name, ddz.RANKS[rank], length
    (Cards('34567'), 'STRAIGHT', '7', 5)
    """
    if isinstance(code, bool) or not isinstance(code, (int, np.integer)):
        raise TypeError(f"a move code is an integer, not {type(code).__name__}")
    if not 0 <= int(code) < 1 << 64:
        raise ValueError(f"a move code is an integer in 0 .. 2**64 - 1, not {int(code)}")
    return _core.code_fields(int(code))
