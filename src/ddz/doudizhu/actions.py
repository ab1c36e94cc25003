"""The actions of a Dou Dizhu game: bids (:class:`Bid`), moves (``ddz.Move``) and the history
entry of either (:class:`ActionRecord`), and the core's action tables by rule set.

>>> from ddz.doudizhu.actions import Bid
>>> Bid.parse("bid 2"), str(Bid("grab")), Bid.from_code(Bid("call").code)
(Bid('bid', 2), 'grab', Bid('call'))
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

from ddz._core import actions as _actions
from ddz._core import game as _core
from ddz.base.errors import (
    ActionTypeError,
    IllegalMoveError,
    RecordError,
    check_integer,
    check_text,
    shorten,
)
from ddz.base.protocol import ActionList
from ddz.doudizhu.moves import PASS, Move
from ddz.doudizhu.rules import Rules, action_codes

__all__ = [
    "Action",
    "ActionRecord",
    "Bid",
    "LegalActions",
    "action_index",
    "action_tables",
    "parse_action",
    "read_action",
]

_BID_KINDS = {0: "pass", _core.BID_: "bid", _core.CALL_: "call", _core.GRAB_: "grab"}
_TYPE_SHIFT, _RANK_SHIFT, _LENGTH_SHIFT = 51, 56, 60  # layout.pxd: the move-code fields


@dataclasses.dataclass(frozen=True)
class Bid:
    """A bidding action: ``Bid("pass")``, ``Bid("bid", 2)``, ``Bid("call")``, ``Bid("grab")``.

    Text: ``"pass"``, ``"bid 2"``, ``"call"``, ``"grab"``.
    """

    kind: str
    value: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or self.kind not in ("pass", "bid", "call", "grab"):
            raise ValueError(f"{shorten(self.kind)} is no bidding action (pass, bid N, call, grab)")
        object.__setattr__(self, "value", check_integer(self.value, "a bid's value"))
        if (self.kind == "bid") != (1 <= self.value <= 3):
            raise ValueError(f"a bid is 1, 2 or 3, and only a bid has a value: {self!r}")

    @classmethod
    def parse(cls, text: str) -> Bid:
        words = check_text(text, "a bid").split()
        if len(words) == 2 and words[0].lower() == "bid" and words[1] in ("1", "2", "3"):
            return cls("bid", int(words[1]))
        if len(words) == 1 and words[0].lower() in ("pass", "call", "grab"):
            return cls(words[0].lower())
        raise ValueError(
            f"{shorten(text)} is no bidding action (pass, bid 1, bid 2, bid 3, call, grab)"
        )

    @classmethod
    def from_code(cls, code: int) -> Bid:
        """The bidding action of a core action code (an ``int`` or numpy integer, never a
        ``bool``: TypeError); ValueError if it is none."""
        code = check_integer(code, "a bidding action's code")
        kind = _BID_KINDS.get((code >> _TYPE_SHIFT) & 31)
        value = (code >> _RANK_SHIFT) & 15 if kind == "bid" else 0
        if kind is None or (kind == "bid" and not 1 <= value <= 3):
            raise ValueError(f"code {code:#x} is no bidding action")
        bid = cls(kind, value)
        if bid.code != code:
            raise ValueError(f"code {code:#x} is no bidding action")
        return bid

    @property
    def code(self) -> int:
        """The core's action code (0 for the pass, as in play)."""
        kind: int = {"pass": 0, "bid": _core.BID_, "call": _core.CALL_, "grab": _core.GRAB_}[
            self.kind
        ]
        if kind == 0:
            return 0
        return (kind << _TYPE_SHIFT) | (self.value << _RANK_SHIFT) | (1 << _LENGTH_SHIFT)

    def __str__(self) -> str:
        return f"bid {self.value}" if self.kind == "bid" else self.kind

    def __repr__(self) -> str:
        return f"Bid({self.kind!r}, {self.value})" if self.kind == "bid" else f"Bid({self.kind!r})"

    def _repr_svg_(self) -> str:
        """The bid as a label (notebooks call this; ``ddz.doudizhu.svg.bid``)."""
        from ddz.doudizhu.svg import bid  # the picture lives in the API layer, above this module

        return bid(self)


Action: TypeAlias = "Move | Bid"


@dataclasses.dataclass(frozen=True)
class ActionRecord:
    """One action of a game's history: who did what, at which ply and in which phase."""

    ply: int
    player: int
    phase: str
    action: Action

    def __str__(self) -> str:
        return f"{self.player} {self.action}"


@functools.lru_cache(maxsize=32)
def action_index(rules: Rules) -> _actions.ActionIndex:
    """The core's code -> index table of ``rules``' action space, built once (read-only)."""
    return _actions.ActionIndex(np.ascontiguousarray(action_codes(rules)))


# The last rule set's action tables, found by identity: a lookup in action_index's and
# action_codes' caches hashes every field of the Rules (about 2 us), which a learner's loop
# (legal_indices, step(index)) would pay on every step.
_LAST_TABLES: tuple[Rules, _actions.ActionIndex, npt.NDArray[np.uint64]] | None = None


def action_tables(rules: Rules) -> tuple[Rules, _actions.ActionIndex, npt.NDArray[np.uint64]]:
    """``(rules, action_index(rules), action_codes(rules))``."""
    global _LAST_TABLES
    last = _LAST_TABLES
    if last is None or last[0] is not rules:
        last = (rules, action_index(rules), action_codes(rules))
        _LAST_TABLES = last  # one assignment: a thread reads the old tuple or the new
    return last


def read_action(text: object, phase: object, field: str) -> Action:
    """The action a record writes as ``text`` in ``phase``; RecordError naming ``field``."""
    if not isinstance(text, str):
        raise RecordError(f"an action is text, not {shorten(text)}", field=field)
    try:
        if phase == "bidding":
            return Bid.parse(text)
        return PASS if text.strip().lower() == "pass" else Move.parse(text)
    except ValueError as error:
        raise RecordError(str(error), field=field) from None


def parse_action(action: Action | str, phase: str) -> Action:
    """The action ``action`` names in ``phase``: a ``Move`` or ``Bid`` as it is (the pass as
    the phase's own pass, so records read the same however it was passed in), or text:
    ``"pass"`` in either phase, ``"bid 2"``, ``"call"``, ``"grab"``, or a move in the
    notation. :class:`ddz.errors.ActionTypeError` for a value of another type,
    :class:`ddz.IllegalMoveError` for text that names no action."""
    if isinstance(action, (Move, Bid)):
        if action.code == 0:
            return Bid("pass") if phase == "bidding" else PASS
        return action
    if not isinstance(action, str):
        raise ActionTypeError(
            f"an action is a Move, a Bid, text or an action index, not {shorten(action)}"
        )
    try:
        check_text(action, "an action")
    except ValueError as error:
        raise IllegalMoveError(str(error)) from None
    if action.strip().lower() == "pass":
        return Bid("pass") if phase == "bidding" else PASS
    first_word = action.split()[0].lower() if action.split() else ""
    try:
        if first_word in ("bid", "call", "grab"):
            return Bid.parse(action)  # its own message for a mistyped bid
        return Move.parse(action)
    except ValueError as error:
        raise IllegalMoveError(str(error)) from None


class LegalActions(ActionList[Action]):
    """``Game.legal_actions()``: a list of the legal actions whose ``in`` also reads text as
    :meth:`ddz.Game.step` does in the game's phase (``"3" in game.legal_actions()``,
    ``"pass"``, ``"bid 2"``); a pass given as a ``Move`` or a ``Bid`` counts as the phase's
    own pass. Otherwise a ``list``: it equals the list of the same actions."""

    __slots__ = ("phase",)
    phase: str
    """The phase the text is read in (``"bidding"``, ``"play"``, ``"over"``)."""

    @staticmethod
    def of(actions: Iterable[Action], phase: str) -> LegalActions:
        """The actions as a ``LegalActions`` reading text in ``phase``."""
        listed = LegalActions(actions)  # list's own __init__: no Python frame, it is hot
        listed.phase = phase
        return listed

    def _named(self, action: object) -> Iterable[object]:
        if not isinstance(action, (str, Move, Bid)):
            return ()
        try:
            return (parse_action(action, getattr(self, "phase", "play")),)
        except ValueError:
            return ()

    def __reduce__(self) -> tuple[object, tuple[list[Action], str]]:
        return (LegalActions.of, (list(self), getattr(self, "phase", "play")))
