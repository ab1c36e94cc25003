"""Seat numbers as every game of ddz reads them: an ``int`` (numpy integers too) in
``0..players-1``; a ``bool`` is no seat.

>>> seat_of(3, 2)
2
>>> seat_of(3, 3)
Traceback (most recent call last):
...
ValueError: there is no seat 3 (seats 0..2)
"""

from __future__ import annotations

import operator

from ddz.base.errors import shorten

__all__ = ["seat_of"]


def seat_of(players: int, seat: object) -> int:
    """``seat`` as an ``int`` in ``0..players-1`` (numpy integers too); TypeError for
    another type (a ``bool`` too), ValueError outside the seats."""
    if isinstance(seat, bool):
        raise TypeError(f"a seat is an integer 0..{players - 1}, not {seat!r}")
    try:
        number = operator.index(seat)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"a seat is an integer 0..{players - 1}, not {shorten(seat)}") from None
    if not 0 <= number < players:
        raise ValueError(f"there is no seat {number} (seats 0..{players - 1})")
    return number
