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


# Every spelling the parser accepts for each card (docs/notation.md), by card index.
_SPELLINGS: tuple[tuple[str, ...], ...] = (
    *(
        (symbol, symbol.lower(), f"{symbol}h", f"{symbol}♠")
        for symbol in ("3", "4", "5", "6", "7", "8", "9")
    ),
    ("T", "t", "10", "10d", "10♦"),
    *((symbol, symbol.lower(), f"{symbol}c", f"{symbol}♥") for symbol in "JQKA2"),
    ("X", "x", "B", "b", "BJ", "bj", "small joker", "black joker", "小王"),
    ("D", "d", "R", "r", "RJ", "rj", "LJ", "big joker", "red joker", "bigjoker", "大王"),
    ("S", "s"),
    ("V", "v"),
)
_WORDS = ("bj", "rj", "lj", "smalljoker", "blackjoker", "bigjoker", "redjoker")


@st.composite
def spelled_hands(draw: st.DrawFn, glued: bool) -> tuple[Cards, list[str]]:
    counts = draw(count_vectors)
    tokens = []
    for index, count in enumerate(counts):
        spellings = _SPELLINGS[index]
        if glued:  # a phrase holds a space; a lone lower-case d or s after a rank is a suit
            spellings = tuple(s for s in spellings if " " not in s and s not in ("d", "s"))
        tokens += [draw(st.sampled_from(spellings)) for _ in range(count)]
    return Cards.from_counts(counts), draw(st.permutations(tokens))


@given(spelled_hands(glued=False), st.data())
def test_separated_spellings_read_as_their_tokens_say(
    spelled: tuple[Cards, list[str]], data: st.DataObject
) -> None:
    cards, tokens = spelled
    text = ""
    for token in tokens:
        text += token + data.draw(st.sampled_from([" ", ", ", ";", "|", "/", "\t", "  "]))
    lowered = {token.lower() for token in tokens}
    if "bj" in lowered and "lj" in lowered:  # BJ beside LJ could be the big joker
        with pytest.raises(ValueError, match=r"(?i)'BJ' at position .* not both namings"):
            Cards.parse(text)
    else:
        assert Cards.parse(text) == cards


@given(spelled_hands(glued=True))
def test_glued_spellings_are_refused_or_read_as_their_tokens_say(
    spelled: tuple[Cards, list[str]],
) -> None:
    cards, tokens = spelled
    text = "".join(tokens)
    try:
        parsed = Cards.parse(text)
    except ValueError:
        return
    # Read, it is the cards the tokens spell, or the whole text is itself one joker's name
    # (B then J glued is "BJ", which is RLCard's black joker: docs/notation.md). Glued text
    # of the canonical symbols always reads symbol by symbol ("DSSJK" is Skip, Skip, J...).
    assert parsed == cards or (text.lower() in _WORDS and len(parsed) == 1), (text, parsed)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("3 3 4 5 6 7 8 10 J Q K A 2 BJ RJ", "3345678TJQKA2XD"),
        ("bj rj", "XD"),
        ("X LJ", "XD"),
        ("small joker, big joker", "XD"),
        ("little joker large joker", "XD"),
        ("black joker red joker", "XD"),
        ("smalljoker bigjoker", "XD"),
        ("33 小王大王", "33XD"),
        ("B J", "JX"),
    ],
)
def test_joker_spellings_read_as_one_joker(text: str, canonical: str) -> None:
    assert str(Cards.parse(text)) == canonical


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("LJ BJ", r"'BJ' at position 3 in 'LJ BJ' could be RLCard's black \(small\) joker"),
        ("SJ BJ", r"'SJ' at position 0 in 'SJ BJ' could be the small joker or Skip and J"),
        ("sj", r"'sj' at position 0 in 'sj' could be the small joker or Skip and J"),
        ("33BJ", r"'BJ' at position 2 in '33BJ' could be one joker or two cards.*'B J'"),
        ("3RJ4", r"'RJ' at position 1 .* could be one joker or two cards"),
        ("joker", r"'joker' at position 0 in 'joker' does not say which joker"),
        ("3 jokers", r"'jokers' at position 2 .* does not say which joker"),
    ],
)
def test_ambiguous_joker_spellings_are_refused(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Cards.parse(text)


def test_move_parse_shares_the_joker_spellings() -> None:
    from ddz import Move

    assert str(Move.parse("BJ RJ")) == "XD"
    assert str(Move.parse("333 + BJ")) == "333+X"
    with pytest.raises(ValueError, match="could be one joker or two cards"):
        Move.parse("333+BJ4")


def test_canonical_symbols_in_any_order_read_symbol_by_symbol() -> None:
    # SJ inside a run of canonical symbols is Skip then J (the solver's tests write hands so)
    assert Cards.parse("DSSJK48Q") == Cards("48JQKDSS")
    assert Cards.parse("JS 3") == Cards("3JS")
