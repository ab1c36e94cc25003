"""Cards and the notation (docs/rules.md#cards)."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ddz import RANKS, SYMBOLS, Cards

LIMITS = (4,) * 13 + (1, 1, 2, 2)

count_vectors = st.tuples(*[st.integers(0, limit) for limit in LIMITS])


@given(count_vectors)
def test_canonical_text_round_trips(counts: tuple[int, ...]) -> None:
    cards = Cards.from_counts(counts)
    assert cards.counts(actions=True) == counts
    assert Cards.parse(str(cards)) == cards
    assert str(cards) == "".join(symbol * n for symbol, n in zip(SYMBOLS, counts, strict=True))
    assert len(cards) == sum(counts)
    assert list(cards) == list(str(cards))
    assert eval(repr(cards), {"Cards": Cards}) == cards
    assert pickle.loads(pickle.dumps(cards)) == cards
    assert Cards.from_mask(cards.mask) == cards


@given(count_vectors, count_vectors)
def test_arithmetic_and_subsets(a_counts: tuple[int, ...], b_counts: tuple[int, ...]) -> None:
    a, b = Cards.from_counts(a_counts), Cards.from_counts(b_counts)
    fits = all(x + y <= limit for x, y, limit in zip(a_counts, b_counts, LIMITS, strict=True))
    if fits:
        total = a + b
        assert total.counts(actions=True) == tuple(
            x + y for x, y in zip(a_counts, b_counts, strict=True)
        )
        assert total - b == a and a <= total and b <= total
    else:
        with pytest.raises(ValueError, match="more of a card than one deck holds"):
            a + b
    subset = all(x <= y for x, y in zip(a_counts, b_counts, strict=True))
    assert (a <= b) is subset
    assert a.issubset(b) is subset
    assert (a < b) is (subset and a != b)
    assert (b >= a) is subset
    if subset:
        assert (b - a).counts(actions=True) == tuple(
            y - x for x, y in zip(a_counts, b_counts, strict=True)
        )
    else:
        with pytest.raises(ValueError, match="is not part of"):
            b - a


def test_counts_has_fifteen_entries_by_default() -> None:
    cards = Cards("33XDSV")
    assert cards.counts() == (2,) + (0,) * 12 + (1, 1)
    assert cards.counts(actions=True)[-2:] == (1, 1)
    assert len(RANKS) == 15


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("33344456", "33344456"),
        ("65444333", "33344456"),
        ("10 J Q K A", "TJQKA"),
        ("tjqka2", "TJQKA2"),
        ("B R", "XD"),
        ("x d", "XD"),
        ("3,4-5 6;7/8|9", "3456789"),
        ("3h 3d 10s Kc", "33TK"),
        ("3♠ 3♥ 10♦", "33T"),
        ("SV", "SV"),
        ("333444+57", "33344457"),
        ("", ""),
    ],
)
def test_parser_accepts_common_notations(text: str, canonical: str) -> None:
    assert str(Cards.parse(text)) == canonical


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3456Z", r"unknown card 'Z' at position 4 in '3456Z'"),
        ("333334", r"five 3s at position 4"),
        ("XX", r"two small jokers at position 1 .*at most one"),
        ("DD", r"two big jokers"),
        ("SSS", r"three Skips"),
        ("1", r"unknown card '1' at position 0"),
        ("♠3", r"suit '♠' at position 0 .* follows no rank"),
        ("3h4", r"unknown card 'h' at position 1"),
    ],
)
def test_parser_rejects_bad_input_naming_the_problem(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Cards.parse(text)


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ((0,) * 14, r"15 or 17 entries, not 14"),
        ((5,) + (0,) * 14, r"count 5 at index 0 is not in 0\.\.4"),
        ((0,) * 13 + (2, 0), r"count 2 at index 13 is not in 0\.\.1"),
        ((0,) * 16 + (3,), r"count 3 at index 16 is not in 0\.\.2"),
        ((-1,) + (0,) * 14, r"count -1 at index 0"),
    ],
)
def test_from_counts_rejects_wrong_vectors(counts: tuple[int, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Cards.from_counts(counts)


def test_from_mask_rejects_what_no_deck_holds() -> None:
    with pytest.raises(ValueError, match="is not a card mask"):
        Cards.from_mask(5)  # five 3s
    with pytest.raises(ValueError, match="is not a card mask"):
        Cards.from_mask(1 << 60)


def test_membership_count_and_hash() -> None:
    hand = Cards("3345XD")
    assert "3" in hand and "33" in hand and "XD" in hand and Cards("45") in hand
    assert "333" not in hand and "" not in hand and 3 not in hand
    assert hand.count("3") == 2 and hand.count("10") == 0 and hand.count("B") == 1
    with pytest.raises(ValueError, match="is not one card"):
        hand.count("33")
    assert {Cards("34"): 1}[Cards("43")] == 1
    assert Cards("34") != "34"
    assert not Cards() and Cards("3")


def test_parse_rejects_non_strings() -> None:
    with pytest.raises(TypeError):
        Cards.parse(33)  # type: ignore[arg-type]
