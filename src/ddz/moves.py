"""Moves: a combination of cards plus the reading the player chose, and the legal moves.

>>> import ddz
>>> move = ddz.Move.parse("333444+57")
>>> move.type, move.rank_name, move.length, str(move.cards)
(<MoveType.AIRPLANE_SINGLES: 9>, '4', 2, '33344457')
>>> str(move), repr(move)
('333444+57', "Move.parse('333444+57')")
>>> [str(m) for m in ddz.classify("333444555666", rules=ddz.CLASSIC)]
['333444555666']
>>> [str(m) for m in ddz.classify("333444555666", rules=ddz.DOUZERO.replace(multiple_readings=True))]
['333444555+666', '444555666+333', '333444555666']
>>> moves = ddz.legal_moves("3455567", last="444")
>>> [str(m) for m in moves]
['pass', '555']
>>> "555" in moves, ddz.beats("2222", "XD")
(True, False)
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Sequence
from typing import TypeAlias, overload

from ddz._core import moves as _core
from ddz.cards import RANKS, Cards, CardsLike
from ddz.errors import IllegalMoveError
from ddz.rules import CLASSIC, Rules

__all__ = [
    "MoveType",
    "Move",
    "MoveLike",
    "LegalMoves",
    "classify",
    "beats",
    "legal_moves",
    "is_legal",
    "why_illegal",
]


class MoveType(enum.IntEnum):
    """The type of a move's reading (RULES.md section 2). The values are the core's."""

    PASS = 0
    SINGLE = 1
    PAIR = 2
    TRIO = 3
    TRIO_SINGLE = 4
    TRIO_PAIR = 5
    STRAIGHT = 6
    PAIR_STRAIGHT = 7
    AIRPLANE = 8
    AIRPLANE_SINGLES = 9
    AIRPLANE_PAIRS = 10
    FOUR_TWO_SINGLES = 11
    FOUR_TWO_PAIRS = 12
    BOMB = 13
    ROCKET = 14
    SKIP = 15
    REVERSE = 16


_TYPES = tuple(MoveType)
_CHAINS = frozenset(
    {MoveType.STRAIGHT, MoveType.PAIR_STRAIGHT, MoveType.AIRPLANE,
     MoveType.AIRPLANE_SINGLES, MoveType.AIRPLANE_PAIRS}
)
_MAIN_WIDTH = {
    MoveType.TRIO_SINGLE: 3, MoveType.TRIO_PAIR: 3,
    MoveType.AIRPLANE_SINGLES: 3, MoveType.AIRPLANE_PAIRS: 3,
    MoveType.FOUR_TWO_SINGLES: 4, MoveType.FOUR_TWO_PAIRS: 4,
}
"""Kicker types and how many cards a rank their main part holds."""


_ANY_RULES = Rules(
    action_cards=2,
    single_kickers_distinct=False,
    pair_kickers_distinct=False,
    kicker_matches_main=True,
    rocket_as_kickers=True,
    quad_as_wings=True,
    trio_as_wings=True,
)
"""Every option on: a code is a structurally possible move iff it is a reading here."""


class Move(_core.MoveBase):
    """One move: its cards and its reading (``type``, main ``rank``, chain ``length``).

    Moves are immutable values, equal when cards and reading are equal. ``str`` writes the
    reading (kickers after a ``+``: ``333444+57``); :meth:`parse` reads it back, and ``repr``
    evaluates back. The pass is ``Move.PASS`` (``"pass"``).
    """

    __slots__ = ()
    PASS: Move

    @classmethod
    def from_code(cls, code: int) -> Move:
        """The move of a core move code (``docs/layout.md``); ValueError if it is none."""
        if not isinstance(code, int) or not 0 <= code < 1 << 64 or not _core.is_reading_code(
            code, _ANY_RULES.core_flags
        ):
            raise ValueError(f"{code!r} is not a move code")
        return cls._of(code)

    @classmethod
    def _of(cls, code: int) -> Move:
        return _core.new_move(cls, code)  # type: ignore[no-any-return]

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move: ``"pass"``, ``"33"``, ``"34567"``, ``"333+4"``, ``"333444+5566"``.

        Kickers follow a ``+``. Without one, the reading without kickers is taken when the
        cards have one, else the only reading; ambiguous text raises ``ValueError``.
        The result is a well-formed move; whether given rules allow it is
        :func:`is_legal`'s question.
        """
        if not isinstance(text, str):
            raise TypeError(f"a move is parsed from a string, not {type(text).__name__}")
        stripped = text.strip()
        if stripped.lower() == "pass":
            return cls.PASS
        main_text, plus, kicker_text = stripped.partition("+")
        main = Cards.parse(main_text)
        kickers = Cards.parse(kicker_text) if plus else Cards()
        if plus and not kickers:
            raise ValueError(f"no kickers after '+' in {text!r}")
        cards = main + kickers
        readings = [m for m in classify(cards, rules=_ANY_RULES) if m.type != MoveType.PASS]
        if plus:
            chosen = [m for m in readings if m.main == main and m.type in _MAIN_WIDTH]
        else:
            chosen = [m for m in readings if m.type not in _MAIN_WIDTH] or readings
        if len(chosen) == 1:
            return chosen[0]
        if not chosen:
            raise ValueError(f"{text!r} is no move: {cards} has no reading with that shape")
        options = ", ".join(repr(str(m)) for m in chosen)
        raise ValueError(f"{text!r} has several readings; write one of {options}")

    @property
    def type(self) -> MoveType:
        """The reading's type."""
        return _TYPES[(self.code >> _core.TYPE_SHIFT_) & 31]

    @property
    def rank(self) -> int:
        """The main rank as an index into ``ddz.RANKS`` (0 is the 3): the rank of a single,
        pair, trio or bomb, the trio/quad of a kicker type, the highest rank of a chain.
        0 for the pass and the action cards."""
        return int((self.code >> _core.RANK_SHIFT_) & 15)

    @property
    def rank_name(self) -> str:
        """The main rank as a symbol (``"4"`` for ``333444+57``); ``""`` when there is none."""
        if self.type in (MoveType.PASS, MoveType.SKIP, MoveType.REVERSE):
            return ""
        return RANKS[self.rank]

    @property
    def length(self) -> int:
        """Ranks in the chain for chain types, 1 for other moves, 0 for the pass."""
        return int(self.code >> _core.LENGTH_SHIFT_)

    @property
    def cards(self) -> Cards:
        """All the cards the move plays."""
        return Cards._of(self.code & _core.CARDS_MASK)

    @property
    def main(self) -> Cards:
        """The cards that rank the move: all of them, less the kickers."""
        width = _MAIN_WIDTH.get(self.type)
        if width is None:
            return self.cards
        low = self.rank - self.length + 1
        counts = [width if low <= rank <= self.rank else 0 for rank in range(15)]
        return Cards.from_counts(counts)

    @property
    def kickers(self) -> Cards:
        """The kickers (wings): the cards that ride along and never count."""
        return self.cards - self.main

    @property
    def is_pass(self) -> bool:
        return self.code == 0

    @property
    def is_bomb(self) -> bool:
        """A bomb or the rocket: the moves that double the score."""
        return self.type in (MoveType.BOMB, MoveType.ROCKET)

    def __str__(self) -> str:
        if self.code == 0:
            return "pass"
        if self.type in _MAIN_WIDTH:
            return f"{self.main}+{self.kickers}"
        return str(self.cards)

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Move.from_code, (self.code,))


MoveLike: TypeAlias = "Move | str"

Move.PASS = Move._of(0)


def _hand(hand: CardsLike) -> int:
    if isinstance(hand, Cards):
        return hand._mask
    if isinstance(hand, str):
        return Cards.parse(hand)._mask
    raise TypeError(f"expected Cards or a card string, not {type(hand).__name__}")


def _move(move: MoveLike) -> Move:
    if isinstance(move, Move):
        return move
    if isinstance(move, str):
        return Move.parse(move)
    raise TypeError(f"expected a Move or move text, not {type(move).__name__}")


def _table(last: MoveLike | None) -> int:
    return 0 if last is None else _move(last).code


def classify(cards: CardsLike, *, rules: Rules = CLASSIC) -> list[Move]:
    """Every reading of ``cards`` under ``rules`` (``[]`` when the cards are no move).

    >>> [str(m) for m in classify("33334444", rules=CLASSIC)]
    []
    >>> [str(m) for m in classify("33334455", rules=CLASSIC)]
    ['3333+4455']
    """
    return _core.classify_cards(_hand(cards), rules.core_flags, Move)  # type: ignore[no-any-return]


def beats(move: MoveLike, other: MoveLike) -> bool:
    """Does ``move`` beat ``other`` on the table? Same type and length with a higher main
    rank; a bomb beats any non-bomb and lower bombs; the rocket beats everything.

    >>> beats("44", "33"), beats("3333", "XD"), beats("34567", "345678")
    (True, False, False)
    """
    table = _move(other)
    if table.code == 0 or table.type in (MoveType.SKIP, MoveType.REVERSE):
        raise ValueError(f"{table} is no combination to beat")
    return bool(_core.move_beats(_move(move).code, table.code))


def legal_moves(
    hand: CardsLike, last: MoveLike | None = None, *, rules: Rules = CLASSIC
) -> LegalMoves:
    """Every distinct legal move from ``hand``: leads when ``last`` is ``None`` (or the
    pass), else the answers to ``last``, the pass first. Each reading is a move of its own.

    The result is a lazy sequence: ``move in legal_moves(...)`` checks legality without
    generating the moves, ``len()`` counts them, iteration builds them.
    """
    return LegalMoves(hand, last, rules=rules)


def why_illegal(
    hand: CardsLike, move: MoveLike, last: MoveLike | None = None, *, rules: Rules = CLASSIC
) -> str | None:
    """``None`` if ``move`` is legal from ``hand`` on ``last`` under ``rules``, else why not."""
    played = _move(move)
    reason = _core.legality_code(_hand(hand), played.code, _table(last), rules.core_flags)
    if reason == 0:
        return None
    if reason == 1:
        return f"{played} is not a move under these rules"
    if reason == 2:
        return f"{played} plays cards the hand does not hold"
    if reason == 3:
        return "the leader of a trick cannot pass"
    return f"{played} does not beat {_move(last) if last is not None else 'nothing'}"


def is_legal(
    hand: CardsLike, move: MoveLike, last: MoveLike | None = None, *, rules: Rules = CLASSIC
) -> bool:
    """Is ``move`` legal from ``hand`` on ``last`` (``None``: leading)? Answers without
    generating the legal moves. Raises ``ValueError`` for a hand or table that cannot be."""
    return why_illegal(hand, move, last, rules=rules) is None


class LegalMoves(Sequence[Move]):
    """The legal moves of one position, generated on first use (see :func:`legal_moves`)."""

    __slots__ = ("_hand", "_table", "_rules", "_moves")

    def __init__(self, hand: CardsLike, last: MoveLike | None = None, *,
                 rules: Rules = CLASSIC) -> None:
        self._hand = _hand(hand)
        self._table = _table(last)
        self._rules = rules
        self._moves: list[Move] | None = None
        if last is not None:
            _core.legality_code(self._hand, 0, self._table, rules.core_flags)  # validates

    @property
    def hand(self) -> Cards:
        return Cards._of(self._hand)

    @property
    def last(self) -> Move | None:
        return Move._of(self._table) if self._table else None

    def _list(self) -> list[Move]:
        if self._moves is None:
            self._moves = _core.legal_moves(self._hand, self._table, self._rules.core_flags, Move)
        return self._moves

    def __iter__(self) -> Iterator[Move]:
        return iter(self._list())

    def __len__(self) -> int:
        if self._moves is not None:
            return len(self._moves)
        return int(_core.count_moves(self._hand, self._table, self._rules.core_flags))

    def count(self, value: object = None) -> int:  # type: ignore[override]
        """With no argument, how many legal moves (python-chess's ``count()``)."""
        if value is None:
            return len(self)
        return self._list().count(value)

    def __bool__(self) -> bool:
        return len(self) > 0

    @overload
    def __getitem__(self, index: int) -> Move: ...

    @overload
    def __getitem__(self, index: slice) -> list[Move]: ...

    def __getitem__(self, index: int | slice) -> Move | list[Move]:
        return self._list()[index]

    def __contains__(self, move: object) -> bool:
        if isinstance(move, str):
            try:
                move = Move.parse(move)
            except ValueError:
                return False
        if not isinstance(move, Move):
            return False
        return _core.legality_code(self._hand, move.code, self._table,
                                   self._rules.core_flags) == 0

    def __repr__(self) -> str:
        shown = ", ".join(str(m) for m in self._list()[:8])
        more = ", ..." if len(self) > 8 else ""
        return f"<LegalMoves {len(self)}: {shown}{more}>"
