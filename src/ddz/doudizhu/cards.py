"""Cards: an immutable multiset of Dou Dizhu cards, and the card notation.

One character a card, low to high: ``3456789TJQKA2``, small joker ``X``, big joker ``D``,
and Uno the Landlord's action cards Skip ``S`` and Reverse ``V``. Suits never matter.

>>> from ddz import Cards
>>> hand = Cards.parse("3 4 4 10 j Q k a 2 B R")
>>> str(hand)
'344TJQKA2XD'
>>> len(hand), hand.count("4"), "XD" in hand
(11, 2, True)
>>> str(hand - Cards("XD") + Cards("44"))
'34444TJQKA2'
>>> Cards.parse("3h 3d 10s")          # suit letters after a rank, in a token of their own
Cards('33T')
>>> Cards.parse("33KD"), Cards.parse("33 Kd")   # "33kd" is refused: which is the d?
(Cards('33KD'), Cards('33K'))
>>> Cards.parse("333334")
Traceback (most recent call last):
...
ValueError: five 3s at position 4 in '333334': a deck holds at most four
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator
from typing import TypeAlias

from ddz._core import moves as _core
from ddz.base.errors import check_text, shorten

__all__ = ["RANKS", "SYMBOLS", "Cards", "CardsLike"]

RANKS = "3456789TJQKA2XD"
"""The 15 ranks that form combinations, low to high (rank index 0 is the 3)."""

SYMBOLS = RANKS + "SV"
"""Every card symbol in canonical order: the ranks, then Skip and Reverse."""

_NAMES = (
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "J",
    "Q",
    "K",
    "A",
    "2",
    "small joker",
    "big joker",
    "Skip",
    "Reverse",
)
_LIMITS = (4,) * 13 + (1, 1, 2, 2)
_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")
_SEPARATORS = frozenset(" \t\r\n,;+-/|")
_SUIT_SYMBOLS = frozenset("♠♥♦♣♤♡♢♧")
_SUIT_LETTERS = frozenset("shdc")
# Every accepted single character, upper-cased, to its digit.
_ALIASES = {symbol: index for index, symbol in enumerate(SYMBOLS)}
_ALIASES.update({"B": 13, "R": 14})

CardsLike: TypeAlias = "Cards | str"


class Cards:
    """An immutable, hashable multiset of cards.

    Build one with :meth:`parse` (or ``Cards(text)``), :meth:`from_counts` or
    :meth:`from_mask`. ``+`` and ``-`` combine multisets, ``<=`` tests for a subset and
    ``in`` asks whether cards are held; iteration yields one symbol a card, low to high.
    """

    __slots__ = ("_mask",)
    _mask: int

    def __init__(self, cards: CardsLike = "") -> None:
        self._mask = cards._mask if isinstance(cards, Cards) else Cards.parse(cards)._mask

    @classmethod
    def parse(cls, text: str) -> Cards:
        """Read cards in the notation (``10``, lower case, ``B``/``R`` jokers, the jokers'
        names ``BJ``/``RJ``, ``LJ``, ``small joker``, ``小王``... as tokens of their own,
        separators and suit-qualified cards such as ``10h`` or ``3♠`` are accepted;
        docs/notation.md). Text
        longer than ``ddz.errors.MAX_TEXT`` characters is refused before it is read."""
        if not isinstance(text, str):
            raise TypeError(f"cards are parsed from a string, not {type(text).__name__}")
        check_text(text, "cards")
        counts = [0] * len(SYMBOLS)
        for index, position in _read_cards(text):
            counts[index] += 1
            if counts[index] > _LIMITS[index]:
                raise ValueError(
                    f"{_NUMBER_WORDS[counts[index]]} {_NAMES[index]}s at position {position} "
                    f"in {shorten(text)}: a deck holds at most {_NUMBER_WORDS[_LIMITS[index]]}"
                )
        return cls._of(_core.pack_counts(counts))

    @classmethod
    def from_counts(cls, counts: Iterable[int]) -> Cards:
        """Cards from 15 counts (rank 3 first, big joker last) or 17 (then Skip, Reverse);
        each an integer (numpy integers too) no larger than the deck holds."""
        if isinstance(counts, (str, bytes)) or not hasattr(counts, "__iter__"):
            raise TypeError(f"counts are a sequence of 15 or 17 integers, not {shorten(counts)}")
        values = []
        for count in counts:
            if isinstance(count, bool) or not hasattr(type(count), "__index__"):
                raise TypeError(f"a count is an integer, not {shorten(count)}")
            values.append(operator.index(count))
            if len(values) > len(SYMBOLS):
                raise ValueError(f"counts are 15 or 17 entries, not more than {len(SYMBOLS)}")
        return cls._of(_core.pack_counts(values))

    @classmethod
    def from_mask(cls, mask: int) -> Cards:
        """Cards from the core's card integer (see ``docs/layout.md``; numpy integers too)."""
        if isinstance(mask, bool) or not hasattr(type(mask), "__index__"):
            raise ValueError(f"{shorten(mask)} is not a card mask")
        mask = operator.index(mask)
        if mask < 0 or mask >= 1 << 64 or not _core.is_valid_cards(mask):
            raise ValueError(f"{shorten(mask)} is not a card mask")
        return cls._of(mask)

    @classmethod
    def _of(cls, mask: int) -> Cards:
        cards = object.__new__(cls)
        cards._mask = mask
        return cards

    @property
    def mask(self) -> int:
        """The core's card integer: one octal digit a rank (``docs/layout.md``)."""
        return self._mask

    def counts(self, *, actions: bool = False) -> tuple[int, ...]:
        """Count of each rank, 3 first, big joker last (15 entries; 17 with ``actions``,
        Skip and Reverse last)."""
        counts: tuple[int, ...] = _core.unpack_counts(self._mask)
        return counts if actions else counts[:15]

    def count(self, card: str) -> int:
        """How many of one card (any notation for one card: ``"10"``, ``"B"``, ``"S"``)."""
        cards = _read_one(card)
        return int(_core.unpack_counts(self._mask)[cards])

    def issubset(self, other: CardsLike) -> bool:
        """Does ``other`` hold every card of this multiset?"""
        return bool(_core.is_subset_cards(self._mask, coerce_cards(other)._mask))

    def __len__(self) -> int:
        return int(_core.count_cards(self._mask))

    def __bool__(self) -> bool:
        return self._mask != 0

    def __iter__(self) -> Iterator[str]:
        for symbol, count in zip(SYMBOLS, _core.unpack_counts(self._mask), strict=True):
            for _ in range(count):
                yield symbol

    def __contains__(self, cards: object) -> bool:
        if not isinstance(cards, (Cards, str)):
            return False
        part = coerce_cards(cards)
        return bool(part) and part.issubset(self)

    def __add__(self, other: CardsLike) -> Cards:
        total = _core.add_cards(self._mask, coerce_cards(other)._mask)
        if total < 0:
            raise ValueError(f"{self} + {other}: more of a card than one deck holds")
        return Cards._of(total)

    def __sub__(self, other: CardsLike) -> Cards:
        part = coerce_cards(other)
        if not part.issubset(self):
            raise ValueError(f"{self} - {part}: {part} is not part of {self}")
        return Cards._of(self._mask - part._mask)

    def __le__(self, other: Cards) -> bool:
        return self.issubset(other) if isinstance(other, Cards) else NotImplemented

    def __lt__(self, other: Cards) -> bool:
        return self != other and self <= other if isinstance(other, Cards) else NotImplemented

    def __ge__(self, other: Cards) -> bool:
        return other.issubset(self) if isinstance(other, Cards) else NotImplemented

    def __gt__(self, other: Cards) -> bool:
        return self != other and self >= other if isinstance(other, Cards) else NotImplemented

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Cards) and self._mask == other._mask

    def __hash__(self) -> int:
        return hash(self._mask)

    def __str__(self) -> str:
        return "".join(self)

    def __repr__(self) -> str:
        return f"Cards({str(self)!r})"

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Cards.from_mask, (self._mask,))

    def _repr_svg_(self) -> str:
        """The cards drawn face up (notebooks call this; ``ddz.doudizhu.svg.hand``)."""
        from ddz.doudizhu.svg import hand  # ddz.doudizhu.svg imports this module

        return hand(self)


def coerce_cards(cards: CardsLike) -> Cards:
    """Cards as given, or parsed from a card string (TypeError for anything else)."""
    if isinstance(cards, Cards):
        return cards
    if isinstance(cards, str):
        return Cards.parse(cards)
    raise TypeError(f"expected Cards or a card string, not {type(cards).__name__}")


def _read_one(card: str) -> int:
    if not isinstance(card, str):
        raise TypeError(f"a card is a string, not {type(card).__name__}")
    cards = list(_read_cards(check_text(card, "a card")))
    if len(cards) != 1:
        raise ValueError(f"{shorten(card)} is not one card")
    return cards[0][0]


def _read_cards(text: str) -> Iterator[tuple[int, int]]:
    """(digit, position) for every card in text; raises ValueError at the first bad one."""
    spans = []
    position = 0
    length = len(text)
    while position < length:
        if text[position] in _SEPARATORS:
            position += 1
            continue
        end = position
        while end < length and text[end] not in _SEPARATORS:
            end += 1
        spans.append((position, end))
        position = end
    words = [text[start:end].lower() for start, end in spans]
    if any(word in _BLACK_JOKER_WORDS for word in words) and any(
        word in _SIZE_JOKER_WORDS for word in words
    ):
        start = next(s for (s, _), w in zip(spans, words, strict=True) if w in _BLACK_JOKER_WORDS)
        raise ValueError(
            f"{text[start : start + 2]!r} at position {start} in {shorten(text)} could be "
            "RLCard's black (small) joker or, beside LJ, the big joker: write RJ or LJ "
            "for the big joker, BJ or X for the small one, not both namings"
        )
    index = 0
    while index < len(spans):
        start, end = spans[index]
        word = words[index]
        if word in _JOKER_WORDS:
            yield _JOKER_WORDS[word], start
        elif word in _JOKER_SIZES and index + 1 < len(spans) and words[index + 1] == "joker":
            yield _JOKER_SIZES[word], start
            index += 1
        elif word == "sj":
            raise ValueError(
                f"{text[start:end]!r} at position {start} in {shorten(text)} could be the small "
                "joker or Skip and J: write X (or BJ, small joker) for the small joker, "
                "'S J' for Skip and J"
            )
        elif word in ("joker", "jokers"):
            raise ValueError(
                f"{text[start:end]!r} at position {start} in {shorten(text)} does not say "
                "which joker: write X (or BJ, small joker) for the small one, "
                "D (or RJ, LJ, big joker) for the big one"
            )
        else:
            yield from _read_token(text, start, end)
        index += 1


def _read_token(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    token = text[start:end]
    # A rank followed by a lower-case suit letter, alone in its token: "10h", "Qs", "3d".
    rank_text = token[:-1]
    if len(token) >= 2 and token[-1] in _SUIT_LETTERS and rank_text.upper() in _RANK_TOKENS:
        yield _RANK_TOKENS[rank_text.upper()], start
        return
    position = start
    previous_was_rank = False
    while position < end:
        char = text[position]
        if char in _SUIT_SYMBOLS:
            if not previous_was_rank:
                raise ValueError(
                    f"suit {char!r} at position {position} in {shorten(text)} follows no rank"
                )
            previous_was_rank = False
            position += 1
            continue
        pair = text[position : position + 2]
        if pair in _HANZI_JOKERS:
            yield _HANZI_JOKERS[pair], position
            position += 2
            previous_was_rank = False
            continue
        if pair.lower() in _JOKER_WORDS:
            raise ValueError(
                f"{pair!r} at position {position} in {shorten(text)} could be one joker or "
                f"two cards: write the joker {pair.upper()} as a token of its own, or the "
                f"cards apart ({' '.join(pair)!r})"
            )
        if char == "1" and text[position + 1 : position + 2] == "0":
            yield 7, position
            position += 2
            previous_was_rank = True
            continue
        if char in _AMBIGUOUS and previous_was_rank:
            rank = text[start:position]
            raise ValueError(
                f"{char!r} at position {position} in {shorten(text)} could be a suit or the "
                f"{_AMBIGUOUS[char]}: write {char.upper()} for the {_AMBIGUOUS[char]}, or the "
                f"suited card apart ({_suited_example(rank, char)!r})"
            )
        index = _ALIASES.get(char.upper())
        if index is None:
            raise ValueError(f"unknown card {char!r} at position {position} in {shorten(text)}")
        yield index, position
        previous_was_rank = index < 13
        position += 1


# Lower-case letters that are both a suit and a card: after a rank inside a run of cards
# ("33kd") neither reading is safe to guess, so the parser refuses them (docs/notation.md).
_AMBIGUOUS = {"d": "big joker", "s": "Skip"}


def _suited_example(run: str, suit: str) -> str:
    """The last rank of ``run`` written as a suited card on its own (``Kd``)."""
    last = "10" if run.endswith("10") else run[-1:].upper()
    return f"{last}{suit}"


_RANK_TOKENS = {symbol: index for index, symbol in enumerate(RANKS[:13])}
_RANK_TOKENS["10"] = 7

# Joker spellings read as one card when they are a whole token (docs/notation.md): RLCard's
# BJ/RJ (black and red), LJ (large), the words, and the Chinese names. Glued
# to other cards ("33BJ") the two letters could be two cards, so they are refused there.
_JOKER_WORDS = {
    "bj": 13,
    "rj": 14,
    "lj": 14,
    "smalljoker": 13,
    "littlejoker": 13,
    "blackjoker": 13,
    "bigjoker": 14,
    "largejoker": 14,
    "redjoker": 14,
    "小王": 13,
    "大王": 14,
}
_HANZI_JOKERS = {"小王": 13, "大王": 14}
# Words that name a joker when "joker" follows them as the next token ("small joker").
_JOKER_SIZES = {"small": 13, "little": 13, "black": 13, "big": 14, "large": 14, "red": 14}
# "BJ" is RLCard's black joker (the small one); beside the small/large naming it would read
# as "big joker", so the two namings together are refused.
_BLACK_JOKER_WORDS = frozenset({"bj"})
_SIZE_JOKER_WORDS = frozenset({"lj"})
