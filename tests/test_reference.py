"""The reference move generator against hand-written expectations (docs/rules.md#combinations)."""

from __future__ import annotations

import pytest

from tests.reference import (
    DOUZERO_OPTIONS,
    PASS,
    RLCARD_OPTIONS,
    Reading,
    beats,
    classify,
    fmt,
    make_rules,
    moves,
    parse,
)


def kinds(cards: str, **options: object) -> list[tuple[str, str, int]]:
    """The readings of ``cards`` as (type, main rank as a card, length)."""
    return [
        (r.type, "3456789TJQKA2XDSV"[r.rank], r.length)
        for r in classify(parse(cards), make_rules(**options))
    ]


def move(cards: str, **options: object) -> Reading:
    """The first reading of ``cards``."""
    return classify(parse(cards), make_rules(**options))[0]


def leads(hand: str, **options: object) -> list[str]:
    return sorted(fmt(m.cards) for m in moves(parse(hand), None, make_rules(**options)))


def answers(hand: str, last: Reading, **options: object) -> list[str]:
    return sorted(fmt(m.cards) for m in moves(parse(hand), last, make_rules(**options)))


# --- cards ---------------------------------------------------------------------------------


def test_parse_counts_rank_indices_and_fmt_is_low_to_high() -> None:
    assert parse("2A3") == {12: 1, 11: 1, 0: 1}
    assert fmt(parse("DX2A3SV")) == "3A2XDSV"
    with pytest.raises(ValueError, match="position 1"):
        parse("31")


def test_cards_the_deck_does_not_hold_have_no_reading() -> None:
    assert kinds("33333") == []
    assert kinds("55", excluded_ranks="34") == [("PAIR", "5", 1)]
    assert kinds("33", excluded_ranks="34") == []
    assert kinds("S") == []  # no action cards in the classic deck


# --- the plain types ---------------------------------------------------------------------


def test_single_pair_trio_bomb_rocket() -> None:
    assert kinds("2") == [("SINGLE", "2", 1)]
    assert kinds("D") == [("SINGLE", "D", 1)]
    assert kinds("AA") == [("PAIR", "A", 1)]
    assert kinds("222") == [("TRIO", "2", 1)]
    assert kinds("7777") == [("BOMB", "7", 1)]
    assert kinds("XD") == [("ROCKET", "D", 1)]  # jokers are never a pair
    assert kinds("34") == []


def test_straight_is_5_to_12_singles_from_3_to_ace() -> None:
    assert kinds("34567") == [("STRAIGHT", "7", 5)]
    assert kinds("3456789TJQKA") == [("STRAIGHT", "A", 12)]
    assert kinds("3456") == []
    assert kinds("TJQKA2") == []  # never a 2
    assert kinds("34568") == []
    assert kinds("34567", min_straight=6) == []
    assert kinds("345678", max_straight=5) == []


def test_pair_straight_is_3_or_more_pairs() -> None:
    assert kinds("334455") == [("PAIR_STRAIGHT", "5", 3)]
    assert kinds("3344") == []
    assert kinds("QQKKAA22") == []
    assert kinds("334455", min_pair_straight=4) == []


def test_airplane_is_2_or_more_trios() -> None:
    assert kinds("333444") == [("AIRPLANE", "4", 2)]
    assert kinds("KKKAAA222") == []
    assert kinds("333555") == []
    assert kinds("333444555", max_airplane=2) == []


def test_a_move_is_a_complete_combination() -> None:
    assert kinds("4445556") == []
    assert kinds("33345") == []


# --- kicker types ------------------------------------------------------------------------


def test_trio_with_a_single_or_a_pair_of_another_rank() -> None:
    assert kinds("3335") == [("TRIO_SINGLE", "3", 1)]
    assert kinds("333D") == [("TRIO_SINGLE", "3", 1)]
    assert kinds("33355") == [("TRIO_PAIR", "3", 1)]
    assert kinds("333XD") == []
    assert kinds("3333") == [("BOMB", "3", 1)]  # not 333 + 3


def test_airplane_with_singles_or_pairs() -> None:
    assert kinds("33344456") == [("AIRPLANE_SINGLES", "4", 2)]
    assert kinds("3334445566") == [("AIRPLANE_PAIRS", "4", 2)]
    assert kinds("3334445") == []
    assert kinds("33344455566") == []


def test_four_with_two_singles_or_two_pairs() -> None:
    assert kinds("333345") == [("FOUR_TWO_SINGLES", "3", 1)]
    assert kinds("33334455") == [("FOUR_TWO_PAIRS", "3", 1)]
    assert kinds("333345", four_with_two=False) == []
    assert kinds("33334455", four_with_two=False) == []


def test_single_kickers_distinct() -> None:
    assert kinds("33344455") == []
    assert kinds("333344") == []
    assert kinds("33344455", single_kickers_distinct=False) == [("AIRPLANE_SINGLES", "4", 2)]
    assert kinds("333344", single_kickers_distinct=False) == [("FOUR_TWO_SINGLES", "3", 1)]


def test_pair_kickers_distinct() -> None:
    assert kinds("3334445555") == []
    assert kinds("33334444") == []
    assert kinds("3334445555", pair_kickers_distinct=False) == [("AIRPLANE_PAIRS", "4", 2)]
    assert kinds("33334444", pair_kickers_distinct=False) == [
        ("FOUR_TWO_PAIRS", "4", 1),
        ("FOUR_TWO_PAIRS", "3", 1),
    ]


def test_kicker_matches_main() -> None:
    assert kinds("33334445") == []  # 333444 + 3 + 5
    assert kinds("33334445", kicker_matches_main=True) == [("AIRPLANE_SINGLES", "4", 2)]
    assert kinds("3333", kicker_matches_main=True) == [
        ("BOMB", "3", 1),
        ("TRIO_SINGLE", "3", 1),
    ]


def test_rocket_as_kickers() -> None:
    assert kinds("3333XD") == []
    assert kinds("333444XD") == []
    assert kinds("3333XD", rocket_as_kickers=True) == [("FOUR_TWO_SINGLES", "3", 1)]
    assert kinds("333444XD", rocket_as_kickers=True) == [("AIRPLANE_SINGLES", "4", 2)]
    assert kinds("3333XA") == [("FOUR_TWO_SINGLES", "3", 1)]  # one joker is fine


def test_quad_as_wings() -> None:
    loose = {"single_kickers_distinct": False}
    assert kinds("3334445556667777", **loose) == []
    assert kinds("3334445556667777", **loose, quad_as_wings=True) == [("AIRPLANE_SINGLES", "6", 4)]
    assert kinds("3334445556667777", quad_as_wings=True) == []  # singles must differ


def test_trio_as_wings_and_trio_wings_adjacent() -> None:
    loose = {"single_kickers_distinct": False}
    assert kinds("333444555999", **loose) == []
    assert kinds("333444555999", **loose, trio_as_wings=True) == [("AIRPLANE_SINGLES", "5", 3)]
    # 7 sits next to the chain 3456 (and 3 next to 4567): two readings, or none
    assert kinds("3334445556667778", **loose, trio_as_wings=True) == [
        ("AIRPLANE_SINGLES", "7", 4),
        ("AIRPLANE_SINGLES", "6", 4),
    ]
    no_adjacent = {**loose, "trio_as_wings": True, "trio_wings_adjacent": False}
    assert kinds("3334445556667778", **no_adjacent) == []
    assert kinds("333444555999", **no_adjacent) == [("AIRPLANE_SINGLES", "5", 3)]
    assert kinds("QQQKKKAAA222", **no_adjacent) == [("AIRPLANE_SINGLES", "A", 3)]  # 2: no chain


def test_multiple_readings() -> None:
    loose = {"single_kickers_distinct": False, "trio_as_wings": True}
    assert kinds("333444555666", **loose) == [
        ("AIRPLANE", "6", 4),
        ("AIRPLANE_SINGLES", "6", 3),
        ("AIRPLANE_SINGLES", "5", 3),
    ]
    assert kinds("333444555666", **loose, multiple_readings=False) == [("AIRPLANE", "6", 4)]
    assert kinds("3334445556667778", **loose, multiple_readings=False) == [
        ("AIRPLANE_SINGLES", "7", 4)
    ]


def test_airplane_rank_includes_wing_trios() -> None:
    loose = {"single_kickers_distinct": False, "trio_as_wings": True}
    low = move("333444555999", **loose)  # chain 3..5 with a wing trio of 9s
    high = move("666777888345", **loose)  # chain 6..8
    assert kinds("333444555999", **loose) == [("AIRPLANE_SINGLES", "5", 3)]
    assert beats(high, low, make_rules(**loose))
    assert not beats(low, high, make_rules(**loose))
    douzero_like = make_rules(**loose, airplane_rank_includes_wing_trios=True)
    assert beats(low, high, douzero_like)
    assert not beats(high, low, douzero_like)


def test_bombs_only_on_heavy_wings() -> None:
    loose = {"single_kickers_distinct": False, "trio_as_wings": True, "quad_as_wings": True}
    last = move("3334445556667779", **loose)  # a 4-trio airplane with a wing trio
    hand = "444555666777888J2222"
    assert "444555666777888J" in answers(hand, last, **loose)
    assert answers(hand, last, **loose, bombs_only_on_heavy_wings=True) == ["", "2222"]
    small = move("333444555999", **loose)  # three trios in the chain: not heavy
    assert "444555666888" in answers(hand, small, **loose, bombs_only_on_heavy_wings=True)


# --- comparing and answering -------------------------------------------------------------


def test_beats() -> None:
    assert beats(move("4"), move("3"))
    assert not beats(move("3"), move("3"))
    assert not beats(move("44"), move("3"))
    assert beats(move("45678"), move("34567"))
    assert not beats(move("456789"), move("34567"))  # another length
    assert beats(move("4445"), move("333A"))  # kickers never count
    assert beats(move("3333"), move("22"))
    assert beats(move("4444"), move("3333"))
    assert beats(move("XD"), move("2222"))
    assert not beats(move("2222"), move("XD"))
    assert not beats(move("XD"), move("XD"))
    assert not beats(move("3"), PASS)
    assert not beats(PASS, move("3"))


def test_moves_leads_and_answers() -> None:
    assert leads("3334") == ["3", "33", "333", "3334", "4"]
    assert answers("44455XD", move("3335")) == ["", "4445", "444D", "444X", "XD"]
    assert answers("5", move("XD")) == [""]


def test_action_cards_are_moves_of_their_own() -> None:
    uno = {"action_cards": 2}
    assert kinds("S", **uno) == [("SKIP", "3", 1)]
    assert kinds("V", **uno) == [("REVERSE", "3", 1)]
    assert kinds("SS", **uno) == []
    assert kinds("333S", **uno) == []
    assert leads("3S", **uno) == ["3", "S"]
    assert answers("3SV", move("2"), **uno) == ["", "S", "V"]


def test_every_move_classifies_back_to_itself() -> None:
    for options in ({}, DOUZERO_OPTIONS, RLCARD_OPTIONS, {"kicker_matches_main": True}):
        rules = make_rules(**options)
        for hand in ("33344455566677788XD2", "3344556677889TJQKA22", "3333444455556666XD"):
            for found in moves(parse(hand), None, rules):
                assert found in classify(found.cards, rules)


# --- the presets of the other engines (docs/rules.md#engines-differ) -------------


@pytest.mark.parametrize(
    ("cards", "douzero", "rlcard"),
    [
        ("333345", True, True),
        ("33334455", True, True),
        ("333344", True, True),
        ("3333XD", True, False),
        ("33334444", False, False),
        ("333444XD", True, False),
        ("3334445556667777", True, False),
        ("3334445556667779", True, False),
        ("3334445555", False, False),
        ("33344455", True, True),
        ("33334445", False, False),
        ("333444555999", True, True),
    ],
)
def test_engine_presets(cards: str, douzero: bool, rlcard: bool) -> None:
    assert bool(kinds(cards, **DOUZERO_OPTIONS)) is douzero
    assert bool(kinds(cards, **RLCARD_OPTIONS)) is rlcard
