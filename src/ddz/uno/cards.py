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

A :class:`Deal` fixes the cards of a round (``Game(deal=...)``) instead of a shuffle.
"""

from __future__ import annotations

import collections
import dataclasses
import re
from collections.abc import Iterable, Sequence
from typing import Literal

from ddz._core import uno as _core
from ddz.base.errors import check_integer, check_text, shorten

__all__ = [
    "CARDS",
    "COLOURS",
    "DECK",
    "FACES",
    "WILD",
    "WILD_DRAW_FOUR",
    "Arrangement",
    "Card",
    "CardsLike",
    "Deal",
    "cards_text",
    "colour_index",
    "parse_cards",
    "points",
]

COLOURS = ("red", "yellow", "green", "blue")
"""The four colours, in the order of their indices (and of the card kinds)."""

COLOUR_LETTERS = "RYGB"
FACES = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2", "W", "W+4")
"""Every face, by face index: numbers, Skip, Reverse, Draw Two, Wild, Wild Draw Four."""

_MAX_HANDS = _core.MAX_PLAYERS_  # ddz.uno.rules.MAX_PLAYERS
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


def cards_text(cards: Iterable[Card]) -> str:
    """Cards in notation, separated by spaces (what :func:`parse_cards` reads back)."""
    return " ".join(str(card) for card in cards)


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


CardsLike = str | Iterable[Card | str]
Arrangement = tuple[list[list[int]], list[int], list[int]]
"""A round's cards as card kinds: the hands, the draw pile (next first), the discard pile
(bottom first)."""


@dataclasses.dataclass(frozen=True)
class Deal:
    """A fixed deal, for tests and puzzles: ``Game(deal=Deal(...))``.

    ``hands``: each player's cards. ``draw_pile``: the cards to draw, the next one first; the
    first of them is flipped as the starting card (first-card rules apply, a Wild Draw Four is
    shuffled back). ``discard_pile``: cards under the starting card, bottom first. The cards
    named nowhere go, shuffled with the game's seed, under the draw pile (``rest="draw"``) or
    at the bottom of the discard pile (``rest="discard"``, to test a reshuffle soon).

    >>> deal = Deal(hands=["R7 R7", "G2"], draw_pile="B5", rest="discard")
    >>> [str(c) for c in deal.hands[0]], deal.draw_pile
    (['R7', 'R7'], (Card('B5'),))
    """

    hands: tuple[tuple[Card, ...], ...]
    draw_pile: tuple[Card, ...] = ()
    discard_pile: tuple[Card, ...] = ()
    rest: Literal["draw", "discard"] = "draw"

    def __init__(
        self,
        hands: Sequence[CardsLike],
        draw_pile: CardsLike = (),
        discard_pile: CardsLike = (),
        rest: Literal["draw", "discard"] = "draw",
    ) -> None:
        if isinstance(hands, (str, bytes)) or not hasattr(hands, "__iter__"):
            raise TypeError(f"a deal's hands are a sequence of hands, not {shorten(hands)}")
        hands = list(hands)
        if not 2 <= len(hands) <= _MAX_HANDS:
            raise ValueError(f"a deal has 2..{_MAX_HANDS} hands, not {len(hands)}")
        object.__setattr__(self, "hands", tuple(tuple(parse_cards(h)) for h in hands))
        object.__setattr__(self, "draw_pile", tuple(parse_cards(draw_pile)))
        object.__setattr__(self, "discard_pile", tuple(parse_cards(discard_pile)))
        object.__setattr__(self, "rest", rest)
        if not isinstance(rest, str) or rest not in ("draw", "discard"):
            raise ValueError(f"rest is 'draw' or 'discard', not {shorten(rest)}")
        if not 2 <= len(self.hands) <= _MAX_HANDS:
            raise ValueError(f"a deal has 2..{_MAX_HANDS} hands, not {len(self.hands)}")
        if any(not hand for hand in self.hands):
            raise ValueError("every hand of a deal holds a card")
        named = collections.Counter(
            card for part in (*self.hands, self.draw_pile, self.discard_pile) for card in part
        )
        in_deck = collections.Counter(DECK)
        for card, count in named.items():
            if count > in_deck[card]:
                raise ValueError(f"the deal holds {count} {card}, the deck {in_deck[card]}")

    def arrange(self, seed: int) -> Arrangement:
        """The complete arrangement as card kinds: hands, draw pile (next first), discard
        pile (bottom first), the unnamed cards placed as ``rest`` says."""
        remaining = collections.Counter(DECK)
        for part in (*self.hands, self.draw_pile, self.discard_pile):
            remaining.subtract(part)
        unnamed = [card.kind for card, count in sorted(remaining.items()) for _ in range(count)]
        rest = _core.shuffled_kinds(unnamed, seed)
        hands = [[card.kind for card in hand] for hand in self.hands]
        draw = [card.kind for card in self.draw_pile]
        discard = [card.kind for card in self.discard_pile]
        if self.rest == "draw":
            draw += rest
        else:
            discard = rest + discard
        return hands, draw, discard
