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
from collections.abc import Iterable, Sequence
from typing import Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from ddz._core import uno as _core
from ddz.base.errors import check_integer, check_text, shorten
from ddz.base.protocol import ActionList
from ddz.uno.cards import CARDS, COLOURS, Card, colour_index

__all__ = [
    "ACTION_KINDS",
    "NUM_INDICES",
    "Action",
    "ActionKind",
    "ActionSpace",
    "LegalActions",
    "action_at",
    "index_of",
    "refusal",
    "resolution_order",
]

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
    """The core's action code (layout in ``ddz/_core/uno_layout.pxd``), computed once: the fast
    paths pass it to the core on every step."""

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "player", check_integer(self.player, "player", 0, _MAX_PLAYERS - 1)
        )
        if self.target is not None:
            object.__setattr__(self, "target", check_integer(self.target, "target"))
        if not isinstance(self.kind, str) or self.kind not in _KIND_CODES:
            raise ValueError(
                f"{shorten(self.kind)} is no action (one of {', '.join(ACTION_KINDS)})"
            )
        if self.card is not None and not isinstance(self.card, Card):
            raise TypeError(f"card is a ddz.uno.Card, not {shorten(self.card)}")
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
        if self.colour is not None and (
            not isinstance(self.colour, str) or self.colour not in COLOURS
        ):
            raise ValueError(f"{shorten(self.colour)} is no colour ({', '.join(COLOURS)})")
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
        read. Text longer than ``ddz.errors.MAX_TEXT`` is refused unread."""
        check_text(text, "an UNO action")
        body = text.strip()
        head, colon, rest = body.partition(":")
        if colon:
            head = head.strip()
            if not (head.isascii() and head.isdigit()):
                raise ValueError(f"{shorten(text)}: the player before ':' is a seat number")
            player = int(head)
            body = rest.strip()
        elif default_player is None:
            raise ValueError(f"{shorten(text)}: name the player ('2: {shorten(body, 40)}')")
        else:
            player = default_player
        words = body.split()
        if not words:
            raise ValueError(
                f"{shorten(text)} is no action (play R7, draw, keep, uno, catch 2, ...)"
            )
        verb, args = words[0].lower(), words[1:]
        if verb == "play" and len(args) in (1, 2):
            card = Card.parse(args[0])
            return cls.play(player, card, args[1] if len(args) == 2 else None)
        if verb in ("draw", "keep", "uno") and not args:
            return cls(player, verb)  # type: ignore[arg-type]
        if verb == "catch" and len(args) == 1 and args[0].isascii() and args[0].isdigit():
            return cls(player, "catch", target=int(args[0]))
        if verb in ("colour", "color") and len(args) == 1:
            return cls(player, "colour", colour=COLOURS[colour_index(args[0])])
        raise ValueError(
            f"{shorten(text)} is no action "
            "(play R7, play W blue, draw, keep, uno, catch 2, colour red)"
        )

    @classmethod
    def from_code(cls, code: int) -> Action:
        """The action of a core action code: ValueError for every integer that is not
        exactly some action's code (an unknown kind, a card or seat out of range, or bits set
        in a field the kind does not use)."""
        code = check_integer(code, "an action code")
        action = BY_CODE.get(code)
        if action is None:
            raise ValueError(f"{shorten(code)} is no action code")
        return action

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

    def _repr_svg_(self) -> str:
        """The action drawn: a play's card (a wild with its colour), else a label
        (notebooks call this; ``ddz.uno.svg.action``)."""
        from ddz.uno.svg import action  # ddz.uno.svg imports this module

        return action(self)


NUM_INDICES = 77
"""The size of the UNO action-index space (:class:`ActionSpace` numbers it):
0 the pass, 1..52 the coloured cards by kind, 53..56 a Wild choosing red, yellow, green,
blue, 57..60 a Wild Draw Four likewise, 61 draw, 62 keep, 63 UNO, 64..67 the starting colour,
68..76 catch the player 1..9 seats after the actor."""

_I_PLAY, _I_WILD, _I_WILD4, _I_DRAW, _I_KEEP, _I_UNO, _I_COLOUR, _I_CATCH = (
    1,
    53,
    57,
    61,
    62,
    63,
    64,
    67,
)


def index_of(action: Action, players: int) -> int:
    """The action index of ``action`` in a game of ``players`` (see :data:`NUM_INDICES`).
    TypeError unless ``action`` is an :class:`Action`; ValueError for an action of a seat
    beyond the game, or a catch of one.

    >>> index_of(Action.parse("2: play W+4 green"), 4), index_of(Action.parse("3: catch 1"), 4)
    (59, 69)
    """
    if not isinstance(action, Action):
        raise TypeError(f"an UNO action is a ddz.uno.Action, not {shorten(action)}")
    if type(players) is not int or not 2 <= players <= _MAX_PLAYERS:  # the common case first
        players = _check_players(players)
    if action.player >= players:
        raise ValueError(f"{action} is an action of a seat beyond the {players} players")
    kind = action.kind
    if kind == "play":
        assert action.card is not None and action.colour is not None
        if action.card.kind < 52:
            return _I_PLAY + action.card.kind
        base = _I_WILD if action.card.kind == 52 else _I_WILD4
        return base + COLOURS.index(action.colour)
    if kind == "catch":
        assert action.target is not None
        offset = (action.target - action.player) % players
        if offset == 0 or action.target >= players or action.player >= players:
            raise ValueError(f"{action} catches no other player of {players}")
        return _I_CATCH + offset
    if kind == "colour":
        assert action.colour is not None
        return _I_COLOUR + COLOURS.index(action.colour)
    return {"draw": _I_DRAW, "keep": _I_KEEP, "uno": _I_UNO}[kind]


def action_at(index: int, player: int, players: int) -> Action | None:
    """The action ``player`` takes with action index ``index`` in a game of ``players``;
    None for the pass (index 0). ValueError for an index outside ``0..76`` or a catch of a
    seat beyond the game.

    >>> str(action_at(69, 3, 4)), action_at(0, 1, 4)
    ('3: catch 1', None)
    """
    index = check_integer(index, "an action index")
    if type(players) is not int or not 2 <= players <= _MAX_PLAYERS:  # the common case first
        players = _check_players(players)
    if type(player) is not int or not 0 <= player < players:
        player = check_integer(player, "player", 0, players - 1)
    if not 0 <= index < NUM_INDICES:
        raise ValueError(f"action index {shorten(index)} is outside 0..{NUM_INDICES - 1}")
    if index == 0:
        return None
    if index < _I_WILD:
        return Action(player, "play", CARDS[index - _I_PLAY])
    if index < _I_DRAW:
        card = CARDS[52 if index < _I_WILD4 else 53]
        return Action(player, "play", card, COLOURS[(index - _I_WILD) % 4])
    if index == _I_DRAW:
        return Action(player, "draw")
    if index == _I_KEEP:
        return Action(player, "keep")
    if index == _I_UNO:
        return Action(player, "uno")
    if index < _I_CATCH + 1:
        return Action(player, "colour", colour=COLOURS[index - _I_COLOUR])
    offset = index - _I_CATCH
    if offset >= players:
        raise ValueError(f"action index {index} catches a seat beyond the {players} players")
    return Action(player, "catch", target=(player + offset) % players)


def _check_players(players: object) -> int:
    """A number of players, checked: an integer (numpy's too, never a bool) 2..10."""
    number = check_integer(players, "players")
    if not 2 <= number <= _MAX_PLAYERS:
        raise ValueError(f"UNO is for 2..{_MAX_PLAYERS} players, not {number}")
    return number


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
        self.players = _check_players(players)

    @property
    def size(self) -> int:
        return self.SIZE

    def __len__(self) -> int:
        return self.SIZE

    def index(self, action: Action | str | int) -> int:
        """The index of an action (relative to its player, for a catch): :func:`index_of`.
        ``action`` is an :class:`Action`, its text with the player (``"2: play R7"``), or an
        ``int`` (or numpy integer, never a ``bool``), which is an action *code*
        (``Action.code``); TypeError for another type."""
        if isinstance(action, str):
            action = Action.parse(action)
        elif isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
            action = Action.from_code(action)
        elif not isinstance(action, Action):
            raise TypeError(
                f"an UNO action is an Action, its text or its code, not {shorten(action)}"
            )
        return index_of(action, self.players)

    def action(self, index: int, player: int) -> Action | None:
        """The action ``player`` (a seat of the game) takes with ``index``; None for the
        pass: :func:`action_at`."""
        return action_at(index, player, self.players)

    def mask(self, actions: Iterable[Action], *, passing: bool = False) -> npt.NDArray[np.int8]:
        """An int8 vector over the space, 1 at each given :class:`Action` (and at the pass
        if ``passing``, a ``bool``)."""
        if isinstance(actions, (str, bytes)) or not hasattr(actions, "__iter__"):
            raise TypeError(f"mask takes an iterable of Actions, not {shorten(actions)}")
        if not isinstance(passing, (bool, np.bool_)):
            raise TypeError(f"passing is a bool, not {shorten(passing)}")
        mask = np.zeros(self.SIZE, dtype=np.int8)
        for action in actions:
            mask[index_of(action, self.players)] = 1
        if passing:
            mask[self.PASS] = 1
        return mask

    def __repr__(self) -> str:
        return f"<uno.ActionSpace {self.SIZE} actions, {self.players} players>"


# --- why an action is refused; simultaneous actions -----------------------------------------

_REFUSALS = {  # the core's reasons (UnoCore.check), in words
    2: "the round is over",
    3: "{action} is not a well-formed action",
    4: "there is no player {player} in a {players}-player game",
    5: "player {player} does not hold {card}",
    6: "it is player {current}'s turn, not player {player}'s",
    7: "the first card is a Wild: player {current} chooses the colour first (colour red, ...)",
    8: "player {player} just drew {drawn}: play it or keep it",
    9: "player {player} faces +{pending}: stack a {pending_card} or draw",
    10: "no going out on a Wild Draw Four: it cannot be the last card",
    11: "{card} matches neither the colour ({colour}) nor the face of {top}",
    12: "player {player} already drew: play the drawn card or keep it",
    13: "nothing is left to draw: player {player} must play a card",
    14: "keep follows the draw of a playable card",
    15: "UNO calls and catches are off in these rules",
    16: "player {player} has no UNO to call (a player left with one card calls it)",
    17: "player {target} cannot be caught: only a player on one card who has not called UNO",
    18: "the colour is chosen only when the first card is a Wild",
}


def refusal(action: Action, reason: int, **table: object) -> str:
    """Why the core refused ``action`` (its reason code), in words. ``table`` holds the facts
    the words name: ``players``, ``current``, ``drawn``, ``pending``, ``pending_card`` (the
    name of the stacking card), ``colour`` and ``top``."""
    message = _REFUSALS.get(reason, "{action} is not legal now")
    return message.format(
        action=action, player=action.player, card=action.card, target=action.target, **table
    )


def resolution_order(
    intents: Sequence[Action], current: int, direction: int, players: int
) -> tuple[list[Action], list[Action], list[Action]]:
    """The order ``Game.resolve`` tries actions taken at the same moment in: the claims (UNO
    calls first, then catches, nearest to the ``current`` player in turn order first), the
    out-of-turn plays (nearest first), then the current player's own turn actions."""

    def distance(action: Action) -> int:
        return ((action.player - current) * direction) % players

    calls = [a for a in intents if a.kind == "uno"]
    catches = sorted((a for a in intents if a.kind == "catch"), key=distance)
    jumps = sorted((a for a in intents if a.kind == "play" and a.player != current), key=distance)
    turn = [a for a in intents if a.player == current and a.kind not in ("uno", "catch")]
    return [*calls, *catches], jumps, turn


class LegalActions(ActionList[Action]):
    """``ddz.uno.Game.legal_actions()``: a list of the legal actions whose ``in`` also reads
    text (``"play R7" in game.legal_actions()``, ``"1: uno"``): text without an ``N:``
    prefix names the action of any player listed. Otherwise a ``list``: it equals the list
    of the same actions."""

    __slots__ = ()

    def _named(self, action: object) -> Iterable[object]:
        if not isinstance(action, str):
            return []
        named = []
        for player in sorted({listed.player for listed in self}):
            try:
                named.append(Action.parse(action, default_player=player))
            except ValueError:
                return named  # the text does not read; the prefix or its words are wrong
        return named
