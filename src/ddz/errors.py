"""Exceptions ddz raises beyond plain ``ValueError``."""

from __future__ import annotations

__all__ = ["IllegalMoveError"]


class IllegalMoveError(ValueError):
    """An action that is not legal here, or that cannot be read; the message says why."""
