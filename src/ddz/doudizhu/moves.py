"""Moves: a combination of cards plus the reading the player chose, and the legal moves.

>>> import ddz
>>> move = ddz.Move.parse("333444+57")
>>> move.type, move.rank_name, move.length, str(move.cards)
(<MoveType.AIRPLANE_SINGLES: 9>, '4', 2, '33344457')
>>> str(move), repr(move)
('333444+57', "Move.parse('333444+57')")
>>> [str(m) for m in ddz.classify("333444555666", rules=ddz.CLASSIC)]
['333444555666']
>>> loose = ddz.CLASSIC.replace(single_kickers_distinct=False, trio_as_wings=True)
>>> [str(m) for m in ddz.classify("333444555666", rules=loose)]
['333444555666', '333444555+666', '444555666+333']
>>> moves = ddz.legal_moves("3455567", last="444")
>>> [str(m) for m in moves]
['pass', '555']
>>> "555" in moves, ddz.beats("2222", "XD")
(True, False)
"""

from __future__ import annotations

from typing import TypeAlias

from ddz._core import moves as _core
from ddz.base.errors import check_text, shorten
from ddz.doudizhu.cards import Cards, CardsLike, coerce_cards
from ddz.doudizhu.rules import CLASSIC, Rules

__all__ = [
    "PASS",
    "LegalMoves",
    "Move",
    "MoveLike",
    "MoveType",
    "beats",
    "classify",
    "is_legal",
    "legal_moves",
    "parse_move",
    "why_illegal",
]


MoveType = _core.MoveType
Move = _core.Move
LegalMoves = _core.LegalMoves
MoveLike: TypeAlias = "Move | str"

PASS: Move = Move.from_code(0)
"""The pass: what a player who does not play plays."""

_KICKER_TYPES = frozenset(
    {
        MoveType.TRIO_SINGLE,
        MoveType.TRIO_PAIR,
        MoveType.AIRPLANE_SINGLES,
        MoveType.AIRPLANE_PAIRS,
        MoveType.FOUR_TWO_SINGLES,
        MoveType.FOUR_TWO_PAIRS,
    }
)


def parse_move(text: str) -> Move:
    """Read a move in the notation (what ``Move.parse`` does; see its docstring)."""
    if not isinstance(text, str):
        raise TypeError(f"a move is parsed from a string, not {type(text).__name__}")
    check_text(text, "a move")
    stripped = text.strip()
    if stripped.lower() == "pass":
        return PASS
    main_text, plus, kicker_text = stripped.partition("+")
    main = Cards.parse(main_text)
    kickers = Cards.parse(kicker_text) if plus else Cards()
    if plus and not kickers:
        raise ValueError(f"no kickers after '+' in {shorten(text)}")
    try:
        cards = main + kickers
    except ValueError as error:
        raise ValueError(f"{shorten(text)} is no move: {error}") from None
    readings = _core.classify_cards(cards.mask, _core.PERMISSIVE_RULES)
    if plus:
        chosen = [m for m in readings if m.type in _KICKER_TYPES and m.main == main]
    else:
        chosen = [m for m in readings if m.type not in _KICKER_TYPES] or readings
    if len(chosen) == 1:
        return chosen[0]
    if not chosen:
        raise ValueError(f"{shorten(text)} is no move: no combination has that shape")
    options = ", ".join(repr(str(m)) for m in chosen)
    raise ValueError(f"{shorten(text)} has several readings; write one of {options}")


def _hand(hand: CardsLike) -> int:
    return coerce_cards(hand).mask


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
    return _core.classify_cards(_hand(cards), rules.core_flags)


def beats(move: MoveLike, other: MoveLike, *, rules: Rules | None = None) -> bool:
    """Does ``move`` beat ``other`` on the table? Same type and length with a higher main
    rank; a bomb beats any non-bomb and lower bombs; the rocket beats everything. With
    ``rules``, their comparison options apply too (``DOUZERO`` compares some airplanes
    differently).

    >>> beats("44", "33"), beats("3333", "XD"), beats("34567", "345678")
    (True, False, False)
    """
    table = _move(other)
    if table.code == 0 or table.type in (MoveType.SKIP, MoveType.REVERSE):
        raise ValueError(f"{table} is no combination to beat")
    return bool(_core.move_beats(_move(move).code, table.code, rules))


def legal_moves(
    hand: CardsLike, last: MoveLike | None = None, *, rules: Rules = CLASSIC
) -> LegalMoves:
    """Every distinct legal move from ``hand``: leads when ``last`` is ``None`` (or the
    pass), else the answers to ``last``, the pass first. Each reading is a move of its own.

    The result is a lazy sequence: ``move in legal_moves(...)`` checks legality without
    generating the moves, ``count()`` counts them without building them, and iteration,
    indexing and ``len()`` build them once.
    """
    # The common types are tested inline: this wrapper sits on the hot path of every caller.
    mask = hand._mask if hand.__class__ is Cards else _hand(hand)
    if last is None:
        return LegalMoves(mask, 0, rules)
    return LegalMoves(mask, last.code if last.__class__ is Move else _table(last), rules)


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
