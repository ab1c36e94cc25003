"""What one UNO player may know: :class:`Observation`, its fixed-size encoding's layout
(``OBSERVATION_LAYOUT``) and its JSON form (``ddz-uno-observation/1``), cards in the UNO
notation (``R7``, ``B+2``, ``W+4``).

The layout is defined here once; the core's encoder (``UnoCore.observation_into``, behind
``Game.observation_vector``) writes the same fields, and tests check the two agree.
Nothing here imports the ``Game`` class at run time: :func:`observe` reads a game it is given.

>>> from ddz import uno
>>> seen = uno.Game(players=3, seed=14).observation(1)
>>> seen.player, len(seen.hand), seen.hand_sizes, str(seen.top)
(1, 7, (7, 7, 7), 'R6')
>>> uno.Observation.from_json(seen.to_json()) == seen
True
"""

from __future__ import annotations

import collections
import dataclasses
import json
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ddz.base import fields as _records
from ddz.base.errors import RecordError, shorten
from ddz.base.protocol import ObservationBase
from ddz.uno.cards import CARDS, COLOURS, DECK, Card, cards_text, parse_cards
from ddz.uno.rules import MAX_PLAYERS

if TYPE_CHECKING:  # observe reads a game; the game module imports this one
    from ddz.uno.game import Game

__all__ = [
    "OBSERVATION_FORMAT",
    "OBSERVATION_LAYOUT",
    "OBSERVATION_SIZE",
    "Observation",
    "observation_from_dict",
    "observation_from_json",
    "observation_to_dict",
    "observation_to_json",
    "observe",
]

OBSERVATION_FORMAT = "ddz-uno-observation/1"

OBSERVATION_LAYOUT: tuple[tuple[str, int], ...] = (
    ("hand", 54),  # my cards: a count per card kind (13 * colour + face; 52 W, 53 W+4)
    ("top", 54),  # the top card's kind, one-hot
    ("colour", 4),  # the colour to match, one-hot (zero while a starting colour is chosen)
    ("discard", 54),  # the discard pile: a count per kind
    ("hand_sizes", 10),  # cards per player: me, the next seat, ... (zero beyond the players)
    ("seats", 10),  # 1 for each seat in the game, in the same relative order
    ("current", 10),  # whose turn, one-hot, relative
    ("direction", 1),  # +1 seat order, -1 reversed
    ("pending", 1),  # stacking: the cards the player to act owes
    ("pending_kind", 2),  # one-hot: Draw Two stack, Wild Draw Four stack
    ("drawn", 54),  # the playable card I just drew and may play (zero for everyone else)
    ("deciding", 1),  # the player to act is deciding whether to play a drawn card
    ("uno", 10),  # one-hot, relative: the player on one card who has not called UNO
    ("jump_in", 1),  # the top card may be jumped on
    ("draw_pile", 1),  # cards left in the draw pile
)
"""The fields of ``Observation.encode()``, in order, with their widths. Seats are relative
to the observing player: index 0 is that player, 1 the next seat in seat order, and so on."""

OBSERVATION_SIZE = sum(width for _, width in OBSERVATION_LAYOUT)


@dataclasses.dataclass(frozen=True)
class Observation(ObservationBase):
    """What one player may know: never another player's cards or the draw pile's order.

    :meth:`encode` turns it into a fixed-size int8 vector (``OBSERVATION_LAYOUT``).
    """

    player: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    top: Card
    colour: str | None
    direction: int
    current_player: int | None
    pending: int
    pending_card: Card | None
    drawn: Card | None
    deciding: bool
    uno_player: int | None
    jump_in_open: bool
    discard_pile: tuple[Card, ...]
    draw_pile_size: int
    winner: int | None
    is_over: bool

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    def encode(self) -> npt.NDArray[np.int8]:
        """A fixed-size int8 vector laid out as ``OBSERVATION_LAYOUT`` (``OBSERVATION_SIZE``
        entries).

        >>> from ddz import uno
        >>> vector = uno.Game(players=4, seed=3).observation(0).encode()
        >>> vector.shape, vector.dtype, int(vector[:54].sum())
        ((267,), dtype('int8'), 7)
        """
        seats = self.players
        vector = np.zeros(OBSERVATION_SIZE, dtype=np.int8)
        offset = 0

        def put(width: int, values: dict[int, int]) -> None:
            nonlocal offset
            for index, value in values.items():
                vector[offset + index] = value
            offset += width

        def relative(seat: int | None) -> dict[int, int]:
            return {} if seat is None else {(seat - self.player) % seats: 1}

        put(54, collections.Counter(card.kind for card in self.hand))
        put(54, {self.top.kind: 1})
        put(4, {} if self.colour is None else {COLOURS.index(self.colour): 1})
        put(54, collections.Counter(card.kind for card in self.discard_pile))
        put(10, {i: self.hand_sizes[(self.player + i) % seats] for i in range(seats)})
        put(10, dict.fromkeys(range(seats), 1))
        put(10, relative(self.current_player))
        put(1, {0: self.direction})
        put(1, {0: self.pending})
        pending_kind = {} if self.pending_card is None else {int(self.pending_card.is_wild): 1}
        put(2, pending_kind)
        put(54, {} if self.drawn is None else {self.drawn.kind: 1})
        put(1, {0: int(self.deciding)})
        put(10, relative(self.uno_player))
        put(1, {0: int(self.jump_in_open)})
        put(1, {0: self.draw_pile_size})
        return vector

    _json_name = "a ddz UNO observation"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (cards in notation) that :meth:`from_dict` reads back."""
        return observation_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Observation:
        """The observation :meth:`to_dict` wrote; ``ddz.errors.RecordError`` names a bad field."""
        return observation_from_dict(data)

    def __str__(self) -> str:
        """The table as this player sees it (``ddz.uno.render.text``)."""
        from ddz.uno.render import text  # ddz.uno.render imports this module

        return text(self)

    def _repr_svg_(self) -> str:
        from ddz.uno.svg import table

        return table(self)


_CARD_FIELDS = ("top", "pending_card", "drawn")
_PILE_FIELDS = ("hand", "discard_pile")
_SEAT_FIELDS = ("current_player", "uno_player", "winner")
_INT_FIELDS = ("direction", "pending", "draw_pile_size")
_BOOL_FIELDS = ("deciding", "jump_in_open", "is_over")


def observation_to_dict(observation: Observation) -> dict[str, Any]:
    """An observation as JSON-ready data: one card as its text, several as texts separated
    by spaces, ``None`` as ``null``."""
    data: dict[str, Any] = {"format": OBSERVATION_FORMAT}
    for field in dataclasses.fields(observation):
        value = getattr(observation, field.name)
        if isinstance(value, Card):
            value = str(value)
        elif field.name in _PILE_FIELDS:
            value = cards_text(value)
        elif isinstance(value, tuple):
            value = list(value)
        data[field.name] = value
    return data


def observation_from_dict(data: object) -> Observation:
    """The observation :func:`observation_to_dict` wrote; :class:`ddz.errors.RecordError`
    (naming the field) for data that is not one."""
    if not isinstance(data, dict) or data.get("format") != OBSERVATION_FORMAT:
        raise RecordError(
            f"not a ddz UNO observation (format {OBSERVATION_FORMAT})", field="format"
        )
    fields = {field.name for field in dataclasses.fields(Observation)}
    unknown = sorted(set(data) - fields - {"format"})
    if unknown:
        raise RecordError(f"unknown field {shorten(unknown[0])}", field=str(unknown[0]))
    missing = sorted(fields - set(data))
    if missing:
        raise RecordError("missing", field=missing[0])
    sizes = data["hand_sizes"]
    if not isinstance(sizes, list) or not all(
        isinstance(size, int) and not isinstance(size, bool) and 0 <= size <= len(DECK)
        for size in sizes
    ):
        raise RecordError(
            f"a list of card counts 0..{len(DECK)}, not {shorten(sizes)}", field="hand_sizes"
        )
    if not 2 <= len(sizes) <= MAX_PLAYERS:
        raise RecordError(
            f"one count per player, 2..{MAX_PLAYERS} of them, not {len(sizes)}",
            field="hand_sizes",
        )
    values: dict[str, Any] = {"hand_sizes": tuple(sizes)}
    seats = len(sizes)
    for name in ("player", *_SEAT_FIELDS):
        value = data[name]
        if value is None and name != "player":
            values[name] = None
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
            raise RecordError(f"a seat 0..{seats - 1}, not {shorten(value)}", field=name)
        values[name] = value
    for name in _INT_FIELDS:
        value = data[name]
        if isinstance(value, bool) or not isinstance(value, int):
            raise RecordError(f"an integer, not {shorten(value)}", field=name)
        if name == "direction" and value not in (1, -1):
            raise RecordError(f"1 or -1, not {shorten(value)}", field=name)
        if name != "direction" and not 0 <= value <= len(DECK):
            raise RecordError(f"a number of cards 0..{len(DECK)}, not {shorten(value)}", field=name)
        values[name] = value
    for name in _BOOL_FIELDS:
        if not isinstance(data[name], bool):
            raise RecordError(f"true or false, not {shorten(data[name])}", field=name)
        values[name] = data[name]
    colour = data["colour"]
    if colour is not None and colour not in COLOURS:
        raise RecordError(
            f"one of {', '.join(COLOURS)} or null, not {shorten(colour)}", field="colour"
        )
    values["colour"] = colour
    for name in _CARD_FIELDS:
        text = data[name]
        if text is None and name != "top":
            values[name] = None
            continue
        if not isinstance(text, str):
            raise RecordError(f"a card in notation, not {shorten(text)}", field=name)
        try:
            values[name] = Card.parse(text)
        except ValueError as error:
            raise RecordError(str(error), field=name) from None
    for name in _PILE_FIELDS:
        text = data[name]
        if not isinstance(text, str):
            raise RecordError(f"cards in notation, not {shorten(text)}", field=name)
        try:
            values[name] = tuple(parse_cards(text))
        except ValueError as error:
            raise RecordError(str(error), field=name) from None
    _check_cards(values)
    return Observation(**values)


_DECK_COUNTS = collections.Counter(DECK)


def _check_cards(values: dict[str, Any]) -> None:
    """The cards of an observation as one deal can show them, else RecordError naming the
    field: the hand its count, the cards seen no more of a kind than the deck holds, every
    card somewhere, the top card the discard pile's last, a drawn card in the hand, a
    pending draw with the card that set it."""
    hand, pile = values["hand"], values["discard_pile"]
    if len(hand) != values["hand_sizes"][values["player"]]:
        raise RecordError(
            f"{len(hand)} cards, but hand_sizes gives player {values['player']} "
            f"{values['hand_sizes'][values['player']]}",
            field="hand",
        )
    seen = collections.Counter(hand)
    for name, cards in (("hand", ()), ("discard_pile", pile)):
        seen.update(cards)
        for card, count in seen.items():
            if count > _DECK_COUNTS[card]:
                raise RecordError(
                    f"{count} {card} seen (hand and discard pile), the deck holds "
                    f"{_DECK_COUNTS[card]}",
                    field=name,
                )
    total = sum(values["hand_sizes"]) + len(pile) + values["draw_pile_size"]
    if total != len(DECK):
        raise RecordError(
            f"the hands, the discard pile and the draw pile hold {total} cards, the deck "
            f"{len(DECK)}",
            field="draw_pile_size",
        )
    if not pile or pile[-1] != values["top"]:
        raise RecordError("the top card is the discard pile's last", field="top")
    if values["drawn"] is not None and values["drawn"] not in hand:
        raise RecordError(f"{values['drawn']} drawn is not in the hand", field="drawn")
    if (values["pending"] > 0) != (values["pending_card"] is not None):
        raise RecordError(
            "a pending draw (pending > 0) comes with the card that set it, and only then",
            field="pending_card",
        )


def observation_to_json(observation: Observation) -> str:
    return json.dumps(observation_to_dict(observation))


def observation_from_json(text: str | bytes) -> Observation:
    """The observation ``observation_to_json`` wrote; RecordError for anything else (not
    text, not JSON, too long, nested too deeply, a field at fault)."""
    return observation_from_dict(_records.load_object(text, "a ddz UNO observation"))


def observe(game: Game, player: int) -> Observation:
    """What ``player`` (a checked seat) may know of ``game`` now (``Game.observation``)."""
    core = game._core
    drawn = game.drawn
    return Observation(
        player=player,
        hand=game.hand(player),
        hand_sizes=tuple(core.sizes),
        top=CARDS[core.top],
        colour=game.colour,
        direction=int(core.direction),
        current_player=game.current_player,
        pending=int(core.pending),
        pending_card=game.pending_card,
        drawn=drawn if player == game.current_player else None,
        deciding=drawn is not None,
        uno_player=game.uno_player,
        jump_in_open=core.jump_seat >= 0,
        discard_pile=game.discard_pile,
        draw_pile_size=int(core.draw_size),
        winner=game.winner,
        is_over=game.is_over,
    )
