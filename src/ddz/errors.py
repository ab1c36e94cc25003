"""Exceptions ddz raises beyond plain ``ValueError``, and how messages quote inputs.

Every error ddz raises about a caller's input is a ``ValueError`` (or ``TypeError`` for a value
of the wrong type): ``IllegalMoveError`` for an action that is not legal or cannot be read,
``RecordError`` for a record (JSON or text) that does not replay. Messages quote the
offending input at most ``MAX_ECHO`` characters long (see :func:`shorten`).
"""

from __future__ import annotations

__all__ = ["MAX_ECHO", "IllegalMoveError", "RecordError", "check_integer", "shorten"]

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


class IllegalMoveError(ValueError):
    """An action that is not legal here, or that cannot be read; the message says why."""


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


def check_integer(value: object, name: str, low: int, high: int) -> int:
    """``value`` as an ``int`` if it is an integer (numpy's too, never a bool) in
    ``low .. high``; else ``TypeError`` (not an integer) or ``ValueError`` (out of range),
    naming ``name``. Every count, size, seat and seed at the boundary goes through here.

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
    number = value.__index__()
    if not low <= number <= high:
        raise ValueError(f"{name} must lie in {low} .. {high}, not {shorten(number)}")
    return int(number)
