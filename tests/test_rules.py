"""One test (or a few) per rule of docs/rules.md#combinations, and per option of ``ddz.Rules``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import ddz
from ddz import CLASSIC, MoveType, Rules
from ddz._core import moves as core
from ddz.rules import CORE_FIELDS, PRESETS, VARIANTS

T = MoveType


def readings(cards: str, rules: Rules = CLASSIC) -> list[tuple[MoveType, str, int]]:
    return [(m.type, m.rank_name, m.length) for m in ddz.classify(cards, rules=rules)]


def texts(cards: str, rules: Rules = CLASSIC) -> list[str]:
    return [str(m) for m in ddz.classify(cards, rules=rules)]


# --- the combination table ------------------------------------------------------------


def test_single_pair_trio() -> None:
    assert readings("7") == [(T.SINGLE, "7", 1)]
    assert readings("D") == [(T.SINGLE, "D", 1)]
    assert readings("22") == [(T.PAIR, "2", 1)]
    assert readings("QQQ") == [(T.TRIO, "Q", 1)]
    assert readings("34") == []


def test_jokers_are_not_a_pair_but_the_rocket() -> None:
    assert readings("XD") == [(T.ROCKET, "D", 1)]


def test_trio_with_single_and_pair_kickers_of_another_rank() -> None:
    assert readings("3334") == [(T.TRIO_SINGLE, "3", 1)]
    assert readings("333D") == [(T.TRIO_SINGLE, "3", 1)]
    assert readings("33344") == [(T.TRIO_PAIR, "3", 1)]
    assert readings("333XD") == []  # the jokers are no pair
    assert readings("3333") == [(T.BOMB, "3", 1)]  # not 333 + 3


def test_straight_is_five_to_twelve_consecutive_ranks_from_3_to_ace() -> None:
    assert readings("34567") == [(T.STRAIGHT, "7", 5)]
    assert readings("3456789TJQKA") == [(T.STRAIGHT, "A", 12)]
    assert readings("TJQKA") == [(T.STRAIGHT, "A", 5)]
    assert readings("3456") == []
    assert readings("JQKA2") == []
    assert readings("34568") == []
    assert readings("TJQKAX") == []


def test_pair_straight_is_three_or_more_consecutive_pairs() -> None:
    assert readings("334455") == [(T.PAIR_STRAIGHT, "5", 3)]
    assert readings("QQKKAA") == [(T.PAIR_STRAIGHT, "A", 3)]
    assert readings("3344") == []
    assert readings("KKAA22") == []
    assert readings("33445566778899TTJJQQ") == [(T.PAIR_STRAIGHT, "Q", 10)]


def test_airplane_is_two_or_more_consecutive_trios() -> None:
    assert readings("333444") == [(T.AIRPLANE, "4", 2)]
    assert readings("KKKAAA") == [(T.AIRPLANE, "A", 2)]
    assert readings("AAA222") == []
    assert readings("333555") == []


def test_airplane_with_single_and_pair_wings() -> None:
    assert texts("33344457") == ["333444+57"]
    assert texts("333444XD") == []  # both jokers as wings
    assert texts("333444X2") == ["333444+2X"]
    assert texts("3334445566") == ["333444+5566"]
    assert texts("333444555789") == ["333444555+789"]
    assert texts("33344456", ddz.CLASSIC.replace(min_airplane=3)) == []


def test_four_with_two_singles_or_two_pairs_is_not_a_bomb() -> None:
    assert readings("333345") == [(T.FOUR_TWO_SINGLES, "3", 1)]
    assert readings("33334455") == [(T.FOUR_TWO_PAIRS, "3", 1)]
    assert not ddz.beats("2222+34", "3333")
    assert ddz.beats("3333", "2222+34")


def test_bomb_and_rocket() -> None:
    assert readings("7777") == [(T.BOMB, "7", 1)]
    assert ddz.Move.parse("XD").is_bomb and ddz.Move.parse("3333").is_bomb


# --- kicker rules -----------------------------------------------------------------------


def test_a_kicker_never_has_a_main_rank() -> None:
    # the fourth 3 of an airplane rank cannot be a wing
    assert texts("33334445") == []
    assert texts("33334445", CLASSIC.replace(kicker_matches_main=True)) == ["333444+35"]
    assert texts("3333", CLASSIC.replace(kicker_matches_main=True)) == ["333+3", "3333"]


def test_single_kickers_are_pairwise_distinct() -> None:
    assert texts("33344455") == []
    assert texts("333355") == []
    relaxed = CLASSIC.replace(single_kickers_distinct=False)
    assert texts("33344455", relaxed) == ["333444+55"]
    assert texts("333355", relaxed) == ["3333+55"]


def test_pair_kickers_are_pairwise_distinct() -> None:
    assert texts("3334445555") == []
    assert texts("33334444") == []
    relaxed = CLASSIC.replace(pair_kickers_distinct=False)
    assert texts("3334445555", relaxed) == ["333444+5555"]
    assert texts("33334444", relaxed) == ["3333+4444", "4444+3333"]


def test_both_jokers_are_never_kickers_of_one_move() -> None:
    assert texts("3333XD") == []
    assert texts("333444XD") == []
    relaxed = CLASSIC.replace(rocket_as_kickers=True)
    assert texts("3333XD", relaxed) == ["3333+XD"]
    assert texts("333444XD", relaxed) == ["333444+XD"]


def test_quads_and_trios_as_wings_are_options() -> None:
    repeats = CLASSIC.replace(single_kickers_distinct=False)
    assert texts("3334445556667777", repeats) == []
    quads = repeats.replace(quad_as_wings=True)
    assert texts("3334445556667777", quads) == ["333444555666+7777"]
    assert texts("333444555777", repeats) == []
    trios = repeats.replace(trio_as_wings=True)
    assert texts("333444555777", trios) == ["333444555+777"]


def test_a_move_is_always_a_complete_combination() -> None:
    assert texts("4445556") == []
    moves = {str(m) for m in ddz.legal_moves("4445556")}
    assert "444555" in moves and not any(len(m) == 7 for m in moves)


# --- options ----------------------------------------------------------------------------


def test_four_with_two_can_be_switched_off() -> None:
    rules = CLASSIC.replace(four_with_two=False)
    assert texts("333345", rules) == []
    assert texts("33334455", rules) == []
    assert "3333" in ddz.legal_moves("333345", rules=rules)


@pytest.mark.parametrize(
    ("field", "value", "cards", "allowed"),
    [
        ("max_straight", 8, "3456789T", True),
        ("max_straight", 8, "3456789TJ", False),
        ("min_straight", 6, "34567", False),
        ("min_pair_straight", 4, "334455", False),
        ("max_pair_straight", 3, "33445566", False),
        ("min_airplane", 3, "333444", False),
        ("max_airplane", 2, "333444555", False),
    ],
)
def test_chain_limits(field: str, value: int, cards: str, allowed: bool) -> None:
    assert bool(ddz.classify(cards, rules=CLASSIC.replace(**{field: value}))) is allowed


def test_each_reading_is_a_move_of_its_own() -> None:
    rules = CLASSIC.replace(single_kickers_distinct=False, trio_as_wings=True)
    assert texts("333444555666", rules) == ["333444555666", "333444555+666", "444555666+333"]
    moves = ddz.legal_moves("333444555666", rules=rules)
    assert {"333444555666", "333444555+666", "444555666+333"} <= {str(m) for m in moves}
    single = rules.replace(multiple_readings=False)
    assert texts("333444555666", single) == ["333444555666"]
    assert "333444555+666" not in ddz.legal_moves("333444555666", rules=single)


# --- comparison -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "other", "expected"),
    [
        ("44", "33", True),
        ("33", "44", False),
        ("33", "33", False),
        ("45678", "34567", True),
        ("34567", "345678", False),
        ("456789", "34567", False),
        ("444+3", "333+2", True),  # kickers never count
        ("333+2", "444+3", False),
        ("444555+67", "333444+2X", True),
        ("444555+67", "333+4", False),
        ("3333", "2", True),
        ("4444", "3333", True),
        ("3333", "4444", False),
        ("XD", "2222", True),
        ("2222", "XD", False),
        ("3333", "AAAA+KQ", True),
        ("AAAA+KQ", "3333+45", True),
        ("AAAA+KQ", "33", False),
    ],
)
def test_beats(move: str, other: str, expected: bool) -> None:
    assert ddz.beats(move, other) is expected


def test_beats_needs_a_combination_on_the_table() -> None:
    with pytest.raises(ValueError, match="no combination to beat"):
        ddz.beats("3", "pass")
    assert not ddz.beats("pass", "3")


# --- decks of the variants --------------------------------------------------------------


def test_two_player_deck_has_no_3s_and_4s() -> None:
    assert ddz.TWO_PLAYER.deck.counts()[:2] == (0, 0) and len(ddz.TWO_PLAYER.deck) == 46
    with pytest.raises(ValueError, match="deck does not have"):
        ddz.legal_moves("3", rules=ddz.TWO_PLAYER)
    assert readings("34567", ddz.TWO_PLAYER) == []
    assert readings("56789", ddz.TWO_PLAYER) == [(T.STRAIGHT, "9", 5)]


def test_uno_landlord_action_cards_are_moves_of_their_own() -> None:
    rules = ddz.UNO_LANDLORD
    assert len(rules.deck) == 58
    assert readings("S", rules) == [(T.SKIP, "", 1)]
    assert readings("V", rules) == [(T.REVERSE, "", 1)]
    assert readings("333S", rules) == []  # never a kicker
    assert readings("SS", rules) == []
    leads = [str(m) for m in ddz.legal_moves("3SV", rules=rules)]
    assert leads == ["3", "S", "V"]
    answers = [str(m) for m in ddz.legal_moves("3SV", last="2", rules=rules)]
    assert answers == ["pass", "S", "V"]
    assert not ddz.beats("S", "3")
    with pytest.raises(ValueError, match="never the table's move"):
        ddz.legal_moves("3", last="S", rules=rules)
    with pytest.raises(ValueError, match="deck does not have"):
        ddz.legal_moves("3S", rules=CLASSIC)


def test_rules_validate_their_fields() -> None:
    with pytest.raises(ValueError, match="players must be 2 or 3"):
        Rules(players=4)
    with pytest.raises(ValueError, match="min_straight"):
        Rules(min_straight=4)
    with pytest.raises(ValueError, match="need 3 <= min_pair_straight"):
        Rules(min_pair_straight=5, max_pair_straight=4)
    with pytest.raises(ValueError, match="excluded_ranks"):
        Rules(excluded_ranks="Z")
    with pytest.raises(ValueError, match="need 60 cards"):
        Rules(hand_size=19)
    assert CLASSIC.replace(four_with_two=False) != CLASSIC
    assert hash(CLASSIC) == hash(Rules())


# --- the packed integer the core reads ------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]


def test_the_core_fields_are_where_the_core_reads_them() -> None:
    assert {name: (f.shift, f.width) for name, f in CORE_FIELDS.items()} == core.RULE_LAYOUT
    used = 0
    for name, field in CORE_FIELDS.items():
        bits = ((1 << field.width) - 1) << field.shift
        assert not used & bits, f"{name} overlaps another field"
        assert bits < 1 << 64
        used |= bits
        if isinstance(getattr(CLASSIC, name), bool):
            assert field.width == 1 and field.shift < core.OPTION_BITS_, name


def test_the_packed_presets_keep_their_values() -> None:
    # the values before the layout was written as one table (records and caches hold them)
    flags = {name: rules.core_flags for name, rules in PRESETS.items()}
    assert flags == {
        "classic": 0xC2C3C5187,
        "douzero": 0xC2C3C57F5,
        "endgame": 0xC2C3C5187,
        "rlcard": 0x62A3C5045,
        "two-player": 0x3C2C3C5187,
        "uno-landlord": 0x10000C2C3C5187,
    }


def core_packing(rules: Rules) -> int:
    """What the core's own pack_rules makes of a rule set."""
    options = sum(
        1 << shift
        for name, (shift, width) in core.RULE_LAYOUT.items()
        if width == 1 and getattr(rules, name)
    )
    excluded = sum(1 << ddz.RANKS.index(rank) for rank in rules.excluded_ranks)
    return int(
        core.pack_rules(
            options,
            rules.min_straight,
            rules.max_straight,
            rules.min_pair_straight,
            rules.max_pair_straight,
            rules.min_airplane,
            rules.max_airplane,
            excluded,
            rules.action_cards,
        )
    )


def test_rules_pack_as_the_core_packs() -> None:
    changed = [
        CLASSIC.replace(**{name: not getattr(CLASSIC, name)})
        for name in CORE_FIELDS
        if isinstance(getattr(CLASSIC, name), bool)
    ]
    changed += [
        CLASSIC.replace(min_straight=7, max_straight=9),
        CLASSIC.replace(min_pair_straight=4, max_pair_straight=5),
        CLASSIC.replace(min_airplane=3, max_airplane=4),
        CLASSIC.replace(excluded_ranks="3D", hand_size=15, action_cards=1),
    ]
    for rules in [*PRESETS.values(), *changed]:
        assert rules.core_flags == core_packing(rules), rules
    assert len({rules.core_flags for rules in changed}) == len(changed)


def test_every_core_field_has_its_line_in_the_rules_doc() -> None:
    doc = ROOT / "docs" / "rules.md"
    if not doc.exists():
        pytest.skip("source tree not available")
    section = doc.read_text().split("## Every option", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, tuple[str, str]] = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if line.startswith("| `") and len(cells) == 3:
            names = re.findall(r"`(\w+)`", cells[0])
            defaults = cells[1].replace("`", "").split(", ")
            for name, default in zip(names, defaults, strict=True):
                rows[name] = (default, cells[2])
    for name, field in CORE_FIELDS.items():
        if name in rows:
            assert rows[name] == (repr(getattr(CLASSIC, name)), field.doc), name
        else:  # the deck's fields are described in a sentence (wrapped anywhere)
            assert f"`{name}` ({field.doc}" in " ".join(section.split()), name


def test_every_preset_is_registered_once_by_name() -> None:
    assert PRESETS == {
        "classic": ddz.CLASSIC,
        "douzero": ddz.DOUZERO,
        "endgame": ddz.ENDGAME,
        "rlcard": ddz.RLCARD,
        "two-player": ddz.TWO_PLAYER,
        "uno-landlord": ddz.UNO_LANDLORD,
    }
    for variant in VARIANTS:
        # the repr names a preset as ddz.<NAME>: ddz must export it under that name
        name = variant.name.upper().replace("-", "_")
        assert repr(variant.rules) == f"ddz.{name}" and getattr(ddz, name) is variant.rules
