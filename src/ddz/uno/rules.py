"""The UNO house rules as switches, the two presets, and how many may play.

>>> from ddz.uno import LOMBARDY, STANDARD
>>> LOMBARDY.stacking, LOMBARDY.jump_in, LOMBARDY.target_score
(True, True, 300)
>>> STANDARD.stacking, STANDARD.call_out, STANDARD.reshuffle
(False, False, True)
>>> LOMBARDY.replace(jump_in=False).jump_in
False
>>> LOMBARDY.replace(jump_in=False)
ddz.uno.LOMBARDY.replace(jump_in=False)

Switches are ``bool`` (a numpy bool is taken as its ``bool``; ``0``, ``1`` and text such as
``"false"`` are refused with TypeError); ``target_score`` is an integer (numpy integers
too) in ``1..MAX_TARGET_SCORE``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ddz._core import uno as _core
from ddz.base.errors import check_integer, shorten

__all__ = ["LOMBARDY", "MAX_PLAYERS", "MAX_TARGET_SCORE", "STANDARD", "Rules", "check_players"]

MAX_PLAYERS: int = _core.MAX_PLAYERS_
"""The most players a round seats (10); the fewest is 2."""

MAX_TARGET_SCORE = 1_000_000
"""The highest target score a match plays to."""


def check_players(players: object) -> int:
    """A number of UNO players, checked: an integer 2..10 (numpy integers too)."""
    if isinstance(players, bool) or not hasattr(type(players), "__index__"):
        raise TypeError(f"UNO is for 2..{MAX_PLAYERS} players, not {shorten(players)}")
    number = check_integer(players, "players")
    if not 2 <= number <= MAX_PLAYERS:
        raise ValueError(f"UNO is for 2..{MAX_PLAYERS} players, not {number}")
    return number


@dataclasses.dataclass(frozen=True)
class Rules:
    """Which house rules a game plays (each one in docs/uno.md#house-rules).

    The defaults are the Lombardy house rules, every switch on.
    """

    stacking: bool = True
    """+2 on +2 and +4 on +4 (never mixed); the first player who cannot stack draws the total
    and loses their turn. Off: the next player draws at once and loses their turn."""

    jump_in: bool = True
    """A player holding the exact twin of the card just played may play it out of turn; an
    out-of-turn play that is not one costs two cards. Off: out-of-turn plays are illegal."""

    call_out: bool = True
    """A player left with one card must call UNO; another player who catches them first makes
    them draw two. Off: no calls and no catches."""

    no_finish_on_wild_draw_four: bool = True
    """A player may not play a Wild Draw Four as their last card. Off: they may."""

    reshuffle: bool = True
    """An empty draw pile is refilled from the discard pile (its top card stays). Off: a
    player who must draw from an empty pile ends the round, blocked: nobody goes out."""

    target_score: int = 300
    """A match ends after the round in which someone's total reaches this."""

    def __post_init__(self) -> None:
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if field.name == "target_score":
                if isinstance(value, (bool, np.bool_)) or not hasattr(type(value), "__index__"):
                    raise TypeError(f"target_score is a positive integer, not {shorten(value)}")
                number = check_integer(value, "target_score")
                if not 1 <= number <= MAX_TARGET_SCORE:
                    raise ValueError(
                        f"target_score is a positive integer up to {MAX_TARGET_SCORE}, not {number}"
                    )
                object.__setattr__(self, "target_score", number)
            elif isinstance(value, (bool, np.bool_)):
                object.__setattr__(self, field.name, bool(value))
            else:
                raise TypeError(f"{field.name} is True or False, not {shorten(value)}")

    def __repr__(self) -> str:
        """The nearest preset and what differs from it: ``ddz.uno.LOMBARDY``,
        ``ddz.uno.STANDARD.replace(call_out=True)``."""
        best, best_key = "", (len(dataclasses.fields(self)), 0)
        for name, preset in (("LOMBARDY", LOMBARDY), ("STANDARD", STANDARD)):
            changed = [
                f"{field.name}={getattr(self, field.name)!r}"
                for field in dataclasses.fields(self)
                if getattr(self, field.name) != getattr(preset, field.name)
            ]
            text = f"ddz.uno.{name}" + (f".replace({', '.join(changed)})" if changed else "")
            key = (len(changed), len(text))  # fewest changes, then the shortest text
            if not best or key < best_key:
                best, best_key = text, key
        return best

    @property
    def core_flags(self) -> int:
        """The switches as the core's bit flags."""
        return (
            (_core.FLAG_STACKING if self.stacking else 0)
            | (_core.FLAG_JUMP_IN if self.jump_in else 0)
            | (_core.FLAG_CALL_OUT if self.call_out else 0)
            | (_core.FLAG_NO_FINISH_WD4 if self.no_finish_on_wild_draw_four else 0)
            | (_core.FLAG_RESHUFFLE if self.reshuffle else 0)
        )

    def replace(self, **changes: Any) -> Rules:
        """A copy with some switches changed."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from :meth:`to_dict`'s form; unknown fields, wrong types (``"false"`` is not
        False) and values out of range are refused."""
        if not isinstance(data, dict):
            raise TypeError(f"UNO rules are a dict of switches, not {shorten(data)}")
        known = {field.name for field in dataclasses.fields(cls)}
        unknown = set(data) - known
        if unknown:
            names = sorted(map(str, unknown))
            raise ValueError(f"unknown UNO rule fields: {shorten(names)}")
        return cls(**data)


LOMBARDY = Rules()
"""The Lombardy house rules (seed 002): every switch on, play to 300."""

STANDARD = Rules(
    stacking=False,
    jump_in=False,
    call_out=False,
    no_finish_on_wild_draw_four=False,
    reshuffle=True,
)
"""The house rules off, as close to RLCard's UNO as docs/uno.md allows. The reshuffle stays on:
RLCard (and the official rules) refill an empty draw pile, and turning it off would end
rounds that RLCard plays on. docs/uno.md lists the remaining differences."""

PRESETS = {"lombardy": LOMBARDY, "standard": STANDARD}
"""The presets by the names the command line uses."""
