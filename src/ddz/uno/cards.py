"""UNO cards: the 54 kinds of the 108-card deck, their notation and their golf values.

A card is written with its colour letter first, then its face (docs/uno.md):

=============  ================================================
``R7``         red 7 (colours ``R`` ``Y`` ``G`` ``B``, faces ``0``-``9``)
``RS``         red Skip
``RR``         red Reverse
``R+2``        red Draw Two
``W``          Wild
``W+4``        Wild Draw Four (``+4`` is read too)
=============  ================================================

Reading is case-insensitive; ``D2``/``D4``-style spellings are not accepted.

>>> from ddz.uno import Card, parse_cards
>>> card = Card.parse("g+2")
>>> card, card.colour, card.face, card.points
(Card('G+2'), 'green', '+2', 20)
>>> [str(c) for c in parse_cards("R7, RR W +4")]
['R7', 'RR', 'W', 'W+4']
>>> len(DECK), sum(c.points for c in DECK)
(108, 1240)
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable

from ddz._core import uno as _core
from ddz.errors import check_integer, check_text, shorten

__all__ = [
    "CARDS",
    "COLOURS",
    "DECK",
    "FACES",
    "WILD",
    "WILD_DRAW_FOUR",
    "Card",
    "colour_index",
    "parse_cards",
    "points",
]

COLOURS = ("red", "yellow", "green", "blue")
"""The four colours, in the order of their indices (and of the card kinds)."""

COLOUR_LETTERS = "RYGB"
FACES = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2", "W", "W+4")
"""Every face, by face index: numbers, Skip, Reverse, Draw Two, Wild, Wild Draw Four."""

_FACE_NAMES = (*(f"{n}" for n in range(10)), "Skip", "Reverse", "Draw Two")
_CARD_PATTERN = re.compile(r"(W\+4|\+4|W|[RYGB](?:[0-9]|S|R|\+2))", re.IGNORECASE)


@dataclasses.dataclass(frozen=True, order=True)
class Card:
    """One card kind, ``0..53``: ``13 * colour + face`` for coloured cards, 52 the Wild, 53
    the Wild Draw Four. Use :data:`CARDS` (``CARDS[kind]``) or :meth:`parse` rather than
    building new ones; equal kinds are equal cards."""

    kind: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", check_integer(self.kind, "a card kind", 0, 53))

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card written ``text`` (see the module docstring); ValueError if it is none."""
        cards = parse_cards(check_text(text, "a card"))
        if len(cards) != 1:
            raise ValueError(f"{shorten(text)} is not one card (R7, RS, RR, R+2, W, W+4)")
        return cards[0]

    @property
    def is_wild(self) -> bool:
        return self.kind >= 52

    @property
    def colour_index(self) -> int | None:
        """0..3 (red, yellow, green, blue); None for a wild."""
        return None if self.kind >= 52 else self.kind // 13

    @property
    def colour(self) -> str | None:
        """The colour's name; None for a wild."""
        index = self.colour_index
        return None if index is None else COLOURS[index]

    @property
    def face_index(self) -> int:
        """0..9 the numbers, 10 Skip, 11 Reverse, 12 Draw Two, 13 Wild, 14 Wild Draw Four."""
        return self.kind % 13 if self.kind < 52 else self.kind - 39

    @property
    def face(self) -> str:
        return FACES[self.face_index]

    @property
    def points(self) -> int:
        """The golf value: a number its face, Skip/Reverse/Draw Two 20, a wild 50."""
        face = self.face_index
        return face if face < 10 else 20 if face < 13 else 50

    @property
    def name(self) -> str:
        """In words: ``red 7``, ``green Draw Two``, ``Wild Draw Four``."""
        if self.kind == 52:
            return "Wild"
        if self.kind == 53:
            return "Wild Draw Four"
        return f"{self.colour} {_FACE_NAMES[self.face_index]}"

    def __str__(self) -> str:
        if self.kind >= 52:
            return FACES[self.face_index]
        return COLOUR_LETTERS[self.kind // 13] + FACES[self.face_index]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def _repr_svg_(self) -> str:
        """The card drawn face up (notebooks call this; ``ddz.uno.svg.card_document``)."""
        from ddz.uno.svg import card_document  # ddz.uno.svg imports this module

        return card_document(self)


CARDS: tuple[Card, ...] = tuple(Card(kind) for kind in range(54))
"""Every card kind, indexed by kind."""

WILD = CARDS[52]
WILD_DRAW_FOUR = CARDS[53]

DECK: tuple[Card, ...] = tuple(
    CARDS[kind]
    for kind in range(54)
    for _ in range(1 if kind < 52 and kind % 13 == 0 else 2 if kind < 52 else 4)
)
"""The 108 cards, in canonical order: per colour the 0, two each of 1-9, Skip, Reverse and
Draw Two; then four Wilds and four Wild Draw Fours."""


def parse_cards(text: str | Iterable[Card | str]) -> list[Card]:
    """Cards from text (``"R7 RS W+4"``; spaces, commas or nothing between cards) or from a
    sequence of cards and card texts. ValueError names the first thing that is no card; text
    longer than ``ddz.errors.MAX_TEXT`` (or more than 108 items) is refused unread."""
    if not isinstance(text, str):
        if isinstance(text, (bytes, bytearray)) or not hasattr(text, "__iter__"):
            raise TypeError(f"cards are text or a sequence of cards, not {shorten(text)}")
        items = []
        for item in text:
            items.append(item if isinstance(item, Card) else Card.parse(item))
            if len(items) > len(DECK):
                raise ValueError(f"more than the deck's {len(DECK)} cards")
        return items
    check_text(text, "UNO cards")
    cards: list[Card] = []
    position = 0
    while position < len(text):
        if text[position] in " ,\t\n":
            position += 1
            continue
        found = _CARD_PATTERN.match(text, position)
        if found is None:
            raise ValueError(
                f"no card at position {position} of {shorten(text)} (R7, RS, RR, R+2, W, W+4)"
            )
        cards.append(_card_from_text(found.group(0).upper()))
        position = found.end()
    return cards


def _card_from_text(word: str) -> Card:
    if word in ("W+4", "+4"):
        return WILD_DRAW_FOUR
    if word == "W":
        return WILD
    return CARDS[13 * COLOUR_LETTERS.index(word[0]) + FACES.index(word[1:])]


def colour_index(text: str) -> int:
    """0..3 for a colour's name or letter (``red``/``r``, ``yellow``/``y``, ...)."""
    word = check_text(text, "a colour").strip().lower()
    for index, name in enumerate(COLOURS):
        if word in (name, name[0]):
            return index
    raise ValueError(f"{shorten(text)} is no colour (red, yellow, green, blue, or R Y G B)")


def points(cards: Iterable[Card]) -> int:
    """The golf value of some cards."""
    return sum(_core.card_points(card.kind) for card in cards)
