"""Exceptions ddz raises beyond plain ``ValueError``, and how messages quote inputs.

Every error ddz raises about a caller's input is a ``ValueError`` (or ``TypeError`` for a value
of the wrong type): ``IllegalMoveError`` for an action that is not legal or cannot be read
(``ActionTypeError``, both an ``IllegalMoveError`` and a ``TypeError``, when the action is of
a type no action has), ``RecordError`` for a record (JSON or text) that does not replay.
Messages quote the offending input at most ``MAX_ECHO`` characters long (see
:func:`shorten`).
"""

from __future__ import annotations

import math
import numbers
import operator

__all__ = [
    "MAX_ECHO",
    "MAX_RECORD",
    "MAX_TEXT",
    "ActionTypeError",
    "IllegalMoveError",
    "RecordError",
    "check_integer",
    "check_number",
    "check_seed",
    "check_text",
    "shorten",
]

MAX_ECHO = 80
"""The most characters of a caller's input an error message quotes."""


def shorten(value: object, limit: int = MAX_ECHO) -> str:
    """``repr(value)`` cut to at most ``limit`` characters, for error messages.

    Long text is cut before ``repr`` runs, so a 10-million-character input costs nothing.

    >>> shorten("33344")
    "'33344'"
    >>> shorten("3" * 1000)
    "'333333333333333333333333333333333333333333333333333333333333...' (1000 chars)"
    """
    if isinstance(value, (str, bytes)) and len(value) > limit:
        head = value[: max(limit - 20, 8)]
        text = repr(head)
        return f"{text[:-1]}...{text[-1]} ({len(value)} chars)"
    text = repr(value)
    if len(text) > limit:
        return text[: limit - 3] + "..."
    return text


MAX_TEXT = 1_000
"""The longest text read as cards, a move, a bid or an UNO action (a whole deck with suits
and separators is under 300 characters): longer text is refused before any work."""

MAX_RECORD = 1_000_000
"""The longest game or match record (JSON or text) read, in characters."""

SEED_LIMIT = 1 << 64


def check_seed(seed: object, name: str = "seed") -> int:
    """A seed, checked the same way at every entry point: an integer ``0 <= seed < 2**64``
    (``int`` or numpy integer; ``bool``, floats and text are refused with TypeError).

    >>> check_seed(2**64 - 1) == 2**64 - 1
    True
    >>> check_seed(-1)
    Traceback (most recent call last):
    ...
    ValueError: seed must lie in 0 .. 18446744073709551615, not -1
    """
    return check_integer(seed, name, 0, SEED_LIMIT - 1)


def check_text(text: object, what: str, limit: int = MAX_TEXT) -> str:
    """``text`` if it is a ``str`` of at most ``limit`` characters; TypeError or ValueError
    otherwise, decided from the length alone (nothing is read).

    >>> check_text("33", "cards")
    '33'
    >>> check_text("3" * 5000, "cards")
    Traceback (most recent call last):
    ...
    ValueError: cards: 5000 characters, more than the 1000 read
    """
    if not isinstance(text, str):
        raise TypeError(f"{what}: expected a string, not {type(text).__name__}")
    if len(text) > limit:
        raise ValueError(f"{what}: {len(text)} characters, more than the {limit} read")
    return text


class IllegalMoveError(ValueError):
    """An action that is not legal here, or that cannot be read; the message says why."""


class ActionTypeError(IllegalMoveError, TypeError):
    """An action, action index, action code or seat of a type none of them has (a float, a
    ``bool``, ``None``, a list, ...). It is a ``TypeError``, as for any value of the wrong
    type, and an :class:`IllegalMoveError` like every other refused action, so code that
    catches either catches it; the game is left as it was."""


class RecordError(ValueError):
    """A game record (JSON or text) that cannot be read or does not replay.

    ``ply`` is the number of the action at fault (``None`` when the fault is not in an
    action), ``field`` the name of the record's field at fault (``None`` when not known).
    """

    def __init__(self, message: str, *, ply: int | None = None, field: str | None = None):
        where = []
        if ply is not None:
            where.append(f"action {ply}")
        if field is not None:
            where.append(f"field {field!r}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)
        self.ply = ply
        self.field = field


# The exceptions' documented home is ``ddz.errors`` (tracebacks and doc examples name them so);
# the code lives here, in the base every game stands on.
for _error in (IllegalMoveError, ActionTypeError, RecordError):
    _error.__module__ = "ddz.errors"


def check_integer(value: object, name: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an ``int`` if it is an integer (numpy's too, never a bool) in
    ``low .. high`` (either bound may be None: unbounded); else ``TypeError`` (not an
    integer) or ``ValueError`` (out of range), naming ``name``. Every count, size, seat and
    seed at the boundary goes through here.

    >>> import numpy as np
    >>> check_integer(np.int64(3), "threads", 1, 256)
    3
    >>> check_integer(2**61, "n", 1, 2**24)
    Traceback (most recent call last):
    ...
    ValueError: n must lie in 1 .. 16777216, not 2305843009213693952
    """
    if (
        isinstance(value, bool)
        or type(value).__name__ == "bool_"
        or not hasattr(value, "__index__")
    ):
        raise TypeError(f"{name} must be an integer, not {shorten(value)}")
    number = operator.index(value)
    if (low is not None and number < low) or (high is not None and number > high):
        if high is None:
            span = f"be at least {low}"
        elif low is None:
            span = f"be at most {high}"
        else:
            span = f"lie in {low} .. {high}"
        raise ValueError(f"{name} must {span}, not {shorten(number)}")
    return int(number)


def check_number(
    value: object,
    name: str,
    low: float | None = None,
    high: float | None = None,
    *,
    positive: bool = False,
) -> float:
    """``value`` as a ``float`` if it is a finite real number (``int``, ``float``, numpy's
    too; never a ``bool`` or text) in ``low .. high`` (either bound None: unbounded; with
    ``positive``, above 0); else ``TypeError`` (not a number) or ``ValueError`` (NaN,
    infinite, out of range), naming ``name``. Every weight, fraction and number of seconds
    at the boundary goes through here.

    >>> check_number(0.5, "win_weight")
    0.5
    >>> check_number("2", "win_weight")
    Traceback (most recent call last):
    ...
    TypeError: win_weight must be a number, not '2'
    >>> check_number(float("nan"), "time_limit", positive=True)
    Traceback (most recent call last):
    ...
    ValueError: time_limit must be a finite number above 0, not nan
    """
    if (
        isinstance(value, bool)
        or type(value).__name__ == "bool_"
        or not isinstance(value, numbers.Real)
    ):
        raise TypeError(f"{name} must be a number, not {shorten(value)}")
    number = float(value)
    if (
        not math.isfinite(number)
        or (positive and not number > 0)
        or (low is not None and number < low)
        or (high is not None and number > high)
    ):
        parts = [f"above {0}"] if positive else []
        if low is not None:
            parts.append(f"at least {low}")
        if high is not None:
            parts.append(f"at most {high}")
        span = f" {' and '.join(parts)}" if parts else ""
        raise ValueError(f"{name} must be a finite number{span}, not {shorten(number)}")
    return number
