"""UNO actions: who does what, as small immutable values with a text form both ways.

Every action names its player, because in UNO players act out of turn (jump-ins, UNO calls,
catches). Text (docs/uno.md), with an optional ``N:`` prefix naming the player::

    play R7          play a card (its own colour)
    play W blue      play a Wild, choosing blue (colours: red yellow green blue, or r y g b)
    play W+4 red     play a Wild Draw Four, choosing red (``+4`` is read too)
    draw             draw one card (or, facing a stacked penalty, the whole penalty)
    keep             keep the playable card just drawn and end the turn
    uno              call UNO with one card left
    catch 2          catch player 2, who is on one card and has not called
    colour green     choose the starting colour when the first card is a Wild

>>> from ddz.uno import Action
>>> action = Action.play(2, "W", "blue")
>>> str(action), action == Action.parse("2: play w b", default_player=0)
('2: play W blue', True)
>>> Action.parse("catch 1", default_player=0)
Action.parse('0: catch 1')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from ddz._core import uno as _core
from ddz.uno.cards import CARDS, COLOURS, Card, colour_index

__all__ = ["ACTION_KINDS", "Action", "ActionKind", "ActionSpace"]

ActionKind: TypeAlias = Literal["play", "draw", "keep", "uno", "catch", "colour"]
ACTION_KINDS: tuple[ActionKind, ...] = ("play", "draw", "keep", "uno", "catch", "colour")
_KIND_CODES = {
    "play": _core.PLAY_,
    "draw": _core.DRAW_,
    "keep": _core.KEEP_,
    "uno": _core.UNO_,
    "catch": _core.CATCH_,
    "colour": _core.COLOUR_,
}
_MAX_PLAYERS = _core.MAX_PLAYERS_


@dataclasses.dataclass(frozen=True)
class Action:
    """One action by ``player``. ``card`` is set for a play; ``colour`` for a play (the
    colour the card sets: its own, or a wild's chosen colour) and for choosing the starting
    colour; ``target`` for a catch. Build them with :meth:`play`, :meth:`parse`, or take them
    from ``Game.legal_actions()``.
    """

    player: int
    kind: ActionKind
    card: Card | None = None
    colour: str | None = None
    target: int | None = None
    code: int = dataclasses.field(init=False, repr=False, compare=False)
    """The core's action code (layout in ``ddz/_core/uno.pyx``), computed once: the fast
    paths pass it to the core on every step."""

    def __post_init__(self) -> None:
        if not isinstance(self.player, int) or not 0 <= self.player < _MAX_PLAYERS:
            raise ValueError(f"a player is a seat 0..{_MAX_PLAYERS - 1}, not {self.player!r}")
        if self.kind not in _KIND_CODES:
            raise ValueError(f"{self.kind!r} is no action (one of {', '.join(ACTION_KINDS)})")
        if (self.kind == "play") != (self.card is not None):
            raise ValueError("a play, and only a play, names a card")
        if self.kind == "play" and self.card is not None and not self.card.is_wild:
            if self.colour is None:
                object.__setattr__(self, "colour", self.card.colour)
            elif self.colour != self.card.colour:
                raise ValueError(f"{self.card} is {self.card.colour}, not {self.colour}")
        needs_colour = self.kind == "colour" or (self.kind == "play" and self.card is not None)
        if needs_colour != (self.colour is not None):
            raise ValueError(
                "a wild is played with a colour (play W red), and only plays and the starting "
                "colour choice name a colour"
            )
        if self.colour is not None and self.colour not in COLOURS:
            raise ValueError(f"{self.colour!r} is no colour ({', '.join(COLOURS)})")
        if (self.kind == "catch") != (self.target is not None):
            raise ValueError("a catch, and only a catch, names the player caught")
        if self.target is not None and not 0 <= self.target < _MAX_PLAYERS:
            raise ValueError(f"no player {self.target}")
        field = self.card.kind if self.card is not None else self.target or 0
        colour = 0 if self.colour is None else COLOURS.index(self.colour)
        code = _KIND_CODES[self.kind] | (self.player << 3) | (field << 7) | (colour << 13)
        object.__setattr__(self, "code", code)

    # --- building ------------------------------------------------------------------------

    @classmethod
    def play(cls, player: int, card: Card | str, colour: str | None = None) -> Action:
        """``player`` plays ``card`` (a wild with the colour it chooses)."""
        if isinstance(card, str):
            card = Card.parse(card)
        if colour is not None:
            colour = COLOURS[colour_index(colour)]
        return cls(player, "play", card, colour)

    @classmethod
    def parse(cls, text: str, *, default_player: int | None = None) -> Action:
        """The action written ``text`` (see the module docstring). Without an ``N:`` prefix
        the player is ``default_player`` (required then). ValueError says what cannot be
        read."""
        body = text.strip()
        head, colon, rest = body.partition(":")
        if colon:
            if not head.strip().isdigit():
                raise ValueError(f"{text!r}: the player before ':' is a seat number")
            player = int(head)
            body = rest.strip()
        elif default_player is None:
            raise ValueError(f"{text!r}: name the player ('2: {body}')")
        else:
            player = default_player
        words = body.split()
        if not words:
            raise ValueError(f"{text!r} is no action (play R7, draw, keep, uno, catch 2, ...)")
        verb, args = words[0].lower(), words[1:]
        if verb == "play" and len(args) in (1, 2):
            card = Card.parse(args[0])
            return cls.play(player, card, args[1] if len(args) == 2 else None)
        if verb in ("draw", "keep", "uno") and not args:
            return cls(player, verb)  # type: ignore[arg-type]
        if verb == "catch" and len(args) == 1 and args[0].isdigit():
            return cls(player, "catch", target=int(args[0]))
        if verb in ("colour", "color") and len(args) == 1:
            return cls(player, "colour", colour=COLOURS[colour_index(args[0])])
        raise ValueError(
            f"{text!r} is no action (play R7, play W blue, draw, keep, uno, catch 2, colour red)"
        )

    @classmethod
    def from_code(cls, code: int) -> Action:
        """The action of a core action code."""
        cached = BY_CODE.get(code)
        if cached is not None:
            return cached
        return _decode(code)

    # --- reading -------------------------------------------------------------------------

    @property
    def text(self) -> str:
        """The action without its player: ``play W blue``, ``catch 2``."""
        if self.kind == "play":
            assert self.card is not None
            return f"play {self.card} {self.colour}" if self.card.is_wild else f"play {self.card}"
        if self.kind == "catch":
            return f"catch {self.target}"
        if self.kind == "colour":
            return f"colour {self.colour}"
        return self.kind

    def __str__(self) -> str:
        return f"{self.player}: {self.text}"

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"


_TYPE_NAMES: dict[int, ActionKind] = {code: kind for kind, code in _KIND_CODES.items()}  # type: ignore[misc]


def _decode(code: int) -> Action:
    kind = _TYPE_NAMES.get(code & 7)
    if kind is None or not 0 <= code < 1 << 15:
        raise ValueError(f"{code} is no action code")
    player, field, colour = (code >> 3) & 15, (code >> 7) & 63, (code >> 13) & 3
    if kind == "play":
        return Action(player, kind, CARDS[field], COLOURS[colour])
    if kind == "catch":
        return Action(player, kind, target=field)
    if kind == "colour":
        return Action(player, kind, colour=COLOURS[colour])
    return Action(player, kind)


def _all_actions() -> dict[int, Action]:
    """Every action of up to ten players, by code: the legal lists reuse these objects."""
    actions: list[Action] = []
    for player in range(_MAX_PLAYERS):
        for card in CARDS:
            if card.is_wild:
                actions += [Action(player, "play", card, colour) for colour in COLOURS]
            else:
                actions.append(Action(player, "play", card))
        actions += [Action(player, kind) for kind in ("draw", "keep", "uno")]
        actions += [Action(player, "catch", target=t) for t in range(_MAX_PLAYERS)]
        actions += [Action(player, "colour", colour=colour) for colour in COLOURS]
    return {action.code: action for action in actions}


BY_CODE: dict[int, Action] = _all_actions()
"""Every action of up to ten players by its code (legal lists share these objects)."""


class ActionSpace:
    """UNO's actions, numbered the same for every player and every number of players
    (the catches are relative: the player ``k`` seats after me in seat order, as in the
    observation).

    ======================  ==========  ==============================================
    index                   base        action
    ======================  ==========  ==============================================
    0                       ``PASS``    do nothing (only out of turn)
    1 .. 52                 ``PLAY``    play the coloured card of kind ``index - 1``
    53 .. 56                ``WILD``    play a Wild choosing red, yellow, green, blue
    57 .. 60                ``WILD4``   play a Wild Draw Four choosing a colour
    61                      ``DRAW``    draw (or take the stacked penalty)
    62                      ``KEEP``    keep the playable card just drawn
    63                      ``UNO``     call UNO
    64 .. 67                ``COLOUR``  choose the starting colour
    68 .. 76                ``CATCH``   catch the player 1 .. 9 seats after me
    ======================  ==========  ==============================================

    >>> from ddz import uno
    >>> space = uno.ActionSpace(players=4)
    >>> space.size, space.index(Action.parse("2: play W+4 green"))
    (77, 59)
    >>> space.index(Action.parse("3: catch 1")), str(space.action(69, player=3))
    (69, '3: catch 1')
    """

    PASS = 0
    PLAY = 1
    WILD = 53
    WILD4 = 57
    DRAW = 61
    KEEP = 62
    UNO = 63
    COLOUR = 64
    CATCH = 67  # + k for the player k seats after me, k = 1 .. 9
    SIZE = CATCH + _MAX_PLAYERS

    def __init__(self, players: int) -> None:
        if not 2 <= players <= _MAX_PLAYERS:
            raise ValueError(f"UNO is for 2..{_MAX_PLAYERS} players, not {players!r}")
        self.players = players

    @property
    def size(self) -> int:
        return self.SIZE

    def __len__(self) -> int:
        return self.SIZE

    def index(self, action: Action) -> int:
        """The index of an action (relative to its player, for a catch)."""
        kind = action.kind
        if kind == "play":
            assert action.card is not None and action.colour is not None
            if action.card.kind < 52:
                return self.PLAY + action.card.kind
            base = self.WILD if action.card.kind == 52 else self.WILD4
            return base + COLOURS.index(action.colour)
        if kind == "catch":
            assert action.target is not None
            offset = (action.target - action.player) % self.players
            if offset == 0 or action.target >= self.players:
                raise ValueError(f"{action} catches no other player of {self.players}")
            return self.CATCH + offset
        if kind == "colour":
            assert action.colour is not None
            return self.COLOUR + COLOURS.index(action.colour)
        return {"draw": self.DRAW, "keep": self.KEEP, "uno": self.UNO}[kind]

    def action(self, index: int, player: int) -> Action | None:
        """The action ``player`` takes with ``index``; None for the pass."""
        if not 0 <= index < self.SIZE:
            raise IndexError(f"action index {index} is outside 0..{self.SIZE - 1}")
        if index == self.PASS:
            return None
        if index < self.WILD:
            return Action.play(player, CARDS[index - self.PLAY])
        if index < self.DRAW:
            card = "W" if index < self.WILD4 else "W+4"
            return Action.play(player, card, COLOURS[(index - self.WILD) % 4])
        if index < self.COLOUR:
            kind = ("draw", "keep", "uno")[index - self.DRAW]
            return Action(player, kind)  # type: ignore[arg-type]
        if index < self.CATCH + 1:
            return Action(player, "colour", colour=COLOURS[index - self.COLOUR])
        offset = index - self.CATCH
        if offset >= self.players:
            raise ValueError(f"no player {offset} seats after another in a {self.players}-game")
        return Action(player, "catch", target=(player + offset) % self.players)

    def mask(self, actions: Iterable[Action], *, passing: bool = False) -> npt.NDArray[np.int8]:
        """An int8 vector over the space, 1 at each given action (and at the pass if
        ``passing``)."""
        mask = np.zeros(self.SIZE, dtype=np.int8)
        for action in actions:
            mask[self.index(action)] = 1
        if passing:
            mask[self.PASS] = 1
        return mask

    def __repr__(self) -> str:
        return f"<uno.ActionSpace {self.SIZE} actions, {self.players} players>"
