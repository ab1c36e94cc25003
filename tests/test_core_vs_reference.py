"""The native core against the slow reference (tests/reference.py), under every preset and
under rule sets hypothesis makes up."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import ddz
from ddz._core import moves as core
from ddz.rules import CORE_FIELDS
from tests import reference as ref

PRESETS = [ddz.CLASSIC, ddz.DOUZERO, ddz.RLCARD, ddz.TWO_PLAYER, ddz.UNO_LANDLORD]
# every switch the core reads, from the one table of them: a new option is drawn here too
BOOLEAN_OPTIONS = [name for name, field in CORE_FIELDS.items() if field.width == 1]


@st.composite
def made_up_rules(draw: st.DrawFn) -> ddz.Rules:
    options = {name: draw(st.booleans()) for name in BOOLEAN_OPTIONS}
    for name, low, high in (("straight", 5, 12), ("pair_straight", 3, 12), ("airplane", 2, 12)):
        shortest = draw(st.integers(low, high))
        options[f"min_{name}"] = shortest
        options[f"max_{name}"] = draw(st.integers(shortest, high))
    options["action_cards"] = draw(st.sampled_from([0, 2]))
    return ddz.Rules(**options)


rule_sets = st.one_of(st.sampled_from(PRESETS), made_up_rules())


@st.composite
def hands(draw: st.DrawFn, deck: str, *, largest: int = 20) -> str:
    """A random hand, or a rich one: heavy in trios and quads, where the rules differ."""
    if draw(st.booleans()):
        shuffled = draw(st.permutations(deck))
        return "".join(shuffled[: draw(st.integers(0, largest))])
    heavy_ranks = sorted({card for card in deck if deck.count(card) >= 3})
    chosen = draw(st.lists(st.sampled_from(heavy_ranks), max_size=5, unique=True))
    cards = "".join(rank * draw(st.integers(2, deck.count(rank))) for rank in chosen)[:largest]
    rest = [card for card in deck if card not in chosen]
    shuffled = draw(st.permutations(rest))
    extra = draw(st.integers(0, largest - len(cards)))
    return cards + "".join(shuffled[:extra])


def as_reading(move: ddz.Move) -> ref.Reading:
    return ref.Reading(move.type.name, move.rank, move.length, move.cards.counts(actions=True))


def as_move(reading: ref.Reading) -> ddz.Move:
    cards = ddz.Cards.from_counts(reading.cards).mask
    kind = ddz.MoveType[reading.type].value
    return ddz.Move.from_code(core.make_move_code(cards, kind, reading.rank, reading.length))


def check_position(hand: str, last: ddz.Move | None, rules: ddz.Rules) -> None:
    moves = list(ddz.legal_moves(hand, last, rules=rules))
    assert len(moves) == len(set(moves)), "a move listed twice"
    expected = ref.moves(ref.parse(hand), None if last is None else as_reading(last), rules)
    assert {as_reading(m) for m in moves} == expected
    assert ddz.legal_moves(hand, last, rules=rules).count() == len(moves)
    for move in moves:
        assert ddz.is_legal(hand, move, last, rules=rules)
        if not move.is_pass:
            assert move in ddz.classify(move.cards, rules=rules), "does not classify back"
        if last is not None and move.type not in (
            ddz.MoveType.PASS,
            ddz.MoveType.SKIP,
            ddz.MoveType.REVERSE,
        ):
            assert ddz.beats(move, last, rules=rules)


@given(st.data(), rule_sets)
def test_leads_match_the_reference(data: st.DataObject, rules: ddz.Rules) -> None:
    hand = data.draw(hands(str(rules.deck)))
    check_position(hand, None, rules)


@given(st.data(), rule_sets)
def test_answers_match_the_reference(data: st.DataObject, rules: ddz.Rules) -> None:
    deck = str(rules.deck)
    other = data.draw(hands(deck), label="other hand")
    tables = list(ddz.legal_moves(other, rules=rules))
    table_moves = [m for m in tables if m.type not in (ddz.MoveType.SKIP, ddz.MoveType.REVERSE)]
    if not table_moves:
        return
    last = data.draw(st.sampled_from(table_moves), label="table")
    remaining = "".join(sorted(str(rules.deck - last.cards)))
    hand = data.draw(hands(remaining), label="hand")
    check_position(hand, last, rules)


@given(st.data(), rule_sets)
def test_classify_matches_the_reference(data: st.DataObject, rules: ddz.Rules) -> None:
    cards = data.draw(hands(str(rules.deck), largest=20))
    found = [as_reading(m) for m in ddz.classify(cards, rules=rules)]
    expected = [r for r in ref.classify(ref.parse(cards), rules) if r.type != "PASS"]
    assert sorted(found) == sorted(expected)


@given(st.data(), rule_sets)
def test_beats_matches_the_reference(data: st.DataObject, rules: ddz.Rules) -> None:
    deck = str(rules.deck)
    pool = [
        m
        for m in ddz.legal_moves(data.draw(hands(deck)), rules=rules)
        if m.type not in (ddz.MoveType.SKIP, ddz.MoveType.REVERSE)
    ]
    if not pool:
        return
    a, b = data.draw(st.sampled_from(pool)), data.draw(st.sampled_from(pool))
    assert ddz.beats(a, b, rules=rules) == ref.beats(as_reading(a), as_reading(b), rules)
    assert ddz.beats(a, b) == ref.beats(as_reading(a), as_reading(b))


@given(st.data(), rule_sets)
def test_reading_check_equals_membership_in_classify(data: st.DataObject, rules: ddz.Rules) -> None:
    """is_reading (the core's shortcut for tables and is_legal) says exactly what classify
    says, for codes made of any cards with any type, rank and length."""
    cards = ddz.Cards(data.draw(hands(str(rules.deck), largest=20)))
    readings = {m.code for m in ddz.classify(cards, rules=rules)}
    for code in readings:
        assert core.is_reading_code(code, rules)
        _, kind, rank, length = core.code_fields(code)
        for other_kind, other_rank, other_length in (
            (kind, rank + 1, length),
            (kind, rank - 1, length),
            (kind, rank, length + 1),
            (kind ^ 1, rank, length),
            (kind + 1, rank, length),
            (kind - 1, rank, length),
        ):
            if 0 <= other_kind <= 16 and 0 <= other_rank <= 15 and 0 <= other_length <= 15:
                variant = core.make_move_code(cards.mask, other_kind, other_rank, other_length)
                assert core.is_reading_code(variant, rules) == (variant in readings)
    kind = data.draw(st.integers(0, 16))
    rank = data.draw(st.integers(0, 15))
    length = data.draw(st.integers(0, 15))
    code = core.make_move_code(cards.mask, kind, rank, length)
    assert core.is_reading_code(code, rules) == (code in readings or code == 0)


def test_reading_conversion_round_trips() -> None:
    move: Any = ddz.Move.parse("333444+57")
    assert as_move(as_reading(move)) == move
