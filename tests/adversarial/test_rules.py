"""Rule sets attacked: every option of ``ddz.Rules`` and ``ddz.uno.Rules`` with wrong types,
values out of range and equivalent spellings. Wrong types are ``TypeError``, values out of
range ``ValueError``; equivalent values make equal rule sets; a rule set that is accepted
plays (no hang: a deal where a player holds nothing is refused).
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ddz
from ddz import uno
from ddz.rules import PRESETS, Bidding, Rules
from tests.adversarial.conftest import IsolatedRunner

_FIELDS = [field for field in dataclasses.fields(Rules) if field.init]
_BOOLS = [field.name for field in _FIELDS if field.type in ("bool", bool)]
_INTS = [field.name for field in _FIELDS if field.type in ("int", int)]

WRONG_TYPES: list[Any] = ["false", "0", 0, 1, 1.0, 2.5, None, [], b"1", np.float64(1.0)]


@pytest.mark.parametrize("name", _BOOLS)
@pytest.mark.parametrize("value", [v for v in WRONG_TYPES if not isinstance(v, bool)])
def test_switches_are_bools(name: str, value: object) -> None:
    with pytest.raises(TypeError, match=name):
        Rules(**{name: value})


@pytest.mark.parametrize("name", _INTS)
@pytest.mark.parametrize("value", [True, False, "3", 3.0, 6.5, None, np.float32(3)])
def test_counts_are_integers(name: str, value: object) -> None:
    with pytest.raises(TypeError, match=name):
        Rules(**{name: value})


def test_numpy_values_are_taken_as_python_values() -> None:
    rules = Rules(
        players=np.int8(2),
        hand_size=np.uint16(17),
        four_with_two=np.bool_(False),
        min_straight=np.int64(6),
    )
    assert rules == CLASSIC_2.replace(four_with_two=False, min_straight=6)
    assert type(rules.players) is int and type(rules.four_with_two) is bool
    assert hash(rules) == hash(CLASSIC_2.replace(four_with_two=False, min_straight=6))


CLASSIC_2 = ddz.CLASSIC.replace(players=2)


@pytest.mark.parametrize(
    "changes",
    [
        {"players": 2.5},
        {"players": 4},
        {"players": 1},
        {"hand_size": 0, "kitty_size": 0},
        {"hand_size": 0},
        {"hand_size": -1},
        {"kitty_size": -3},
        {"min_straight": 6.5},
        {"min_straight": 4},
        {"max_straight": 13},
        {"max_grabs": 9},
        {"max_grabs": -1},
        {"action_cards": 3},
        {"excluded_ranks": "Z"},
        {"excluded_ranks": 34},
        {"excluded_ranks": "3" * 10_000},
        {"bidding": "auction"},
        {"bidding": 1},
        {"hand_size": 2**70},
        {"players": 2**70},
    ],
)
def test_bad_options_are_refused(changes: dict[str, Any]) -> None:
    with pytest.raises((TypeError, ValueError)):
        Rules(**changes)


def test_equivalent_values_make_equal_rules() -> None:
    assert Rules(players=2, excluded_ranks="43", bidding="call-grab") == ddz.TWO_PLAYER
    assert Rules(players=2, excluded_ranks="3434", bidding=Bidding.CALL_GRAB) == ddz.TWO_PLAYER
    assert Rules(players=2, excluded_ranks="x").excluded_ranks == "X"
    assert hash(Rules(players=2, excluded_ranks="43")) == hash(
        Rules(players=2, excluded_ranks="34")
    )


def test_no_bidding_and_two_seats_stay_expressible() -> None:
    # The endgame preset's shape: two seats, the whole deck, no kitty, no bidding.
    rules = Rules(players=2, kitty_size=0, bidding=Bidding.RANDOM)
    assert rules.bidding is Bidding.RANDOM and rules.kitty_size == 0
    assert Rules(players=2, hand_size=27, kitty_size=0).hand_size == 27


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_presets_have_short_reprs_that_evaluate_back(preset: str) -> None:
    rules = PRESETS[preset]
    text = repr(rules)
    assert text.startswith("ddz.") and len(text) < 60
    assert eval(text, {"ddz": ddz}) == rules
    changed = rules.replace(four_with_two=not rules.four_with_two, bidding=Bidding.RANDOM)
    assert eval(repr(changed), {"ddz": ddz}) == changed


def test_help_shows_a_short_default() -> None:
    import inspect

    signature = str(inspect.signature(ddz.legal_moves))
    assert "rules: 'Rules' = ddz.CLASSIC" in signature


@pytest.mark.parametrize("how", [copy.copy, copy.deepcopy, lambda r: pickle.loads(pickle.dumps(r))])
def test_rules_copy_and_pickle(how: Any) -> None:
    for rules in [*PRESETS.values(), ddz.CLASSIC.replace(min_straight=6), uno.STANDARD]:
        assert how(rules) == rules


@given(
    st.dictionaries(
        st.sampled_from([field.name for field in _FIELDS] + ["core_flags", "extra"]),
        st.one_of(st.booleans(), st.integers(-5, 60), st.text(max_size=5), st.none(), st.floats()),
        max_size=6,
    )
)
def test_from_dict_takes_a_rule_set_or_raises_cleanly(data: dict[str, Any]) -> None:
    try:
        rules = Rules.from_dict(data)
    except (TypeError, ValueError):
        return
    assert Rules.from_dict(rules.to_dict()) == rules
    assert rules.hand_size >= 1


def test_uno_rules() -> None:
    for bad in ("false", 0, 1, None, 1.0):
        with pytest.raises(TypeError, match="stacking"):
            uno.Rules(stacking=bad)  # type: ignore[arg-type]
    for bad in (True, 3.0, "300"):
        with pytest.raises(TypeError, match="target_score"):
            uno.Rules(target_score=bad)  # type: ignore[arg-type]
    for bad in (0, -1, 10**7):
        with pytest.raises(ValueError, match="target_score"):
            uno.Rules(target_score=bad)
    rules = uno.Rules(stacking=np.bool_(False), target_score=np.int16(200))
    assert rules == uno.LOMBARDY.replace(stacking=False, target_score=200)
    assert type(rules.target_score) is int and rules.stacking is False
    assert repr(uno.LOMBARDY) == "ddz.uno.LOMBARDY"
    assert repr(uno.STANDARD.replace(call_out=True)) == "ddz.uno.STANDARD.replace(call_out=True)"
    for bad_dict in ({"stacking": "false"}, {"bluffing": True}, [], {"target_score": "1"}):
        with pytest.raises((TypeError, ValueError)):
            uno.Rules.from_dict(bad_dict)  # type: ignore[arg-type]


def test_the_smallest_deals_play_to_their_end(isolated: IsolatedRunner) -> None:
    # Rules(hand_size=0, kitty_size=0) made simulate loop forever in C; the smallest deal
    # still accepted must finish.
    out = isolated(
        """
        import ddz
        for rules in (
            ddz.Rules(players=2, hand_size=1, kitty_size=0),
            ddz.Rules(players=3, hand_size=1, kitty_size=0, bidding="random"),
            ddz.Rules(players=2, hand_size=1, kitty_size=0, excluded_ranks="3456789TJQKA2",
                      bidding="call-grab"),
        ):
            result = ddz.simulate(200, rules=rules, seed=1)
            game = ddz.Game(rules, seed=2)
            while not game.is_over:
                game.step(game.legal_actions()[0])
        try:
            ddz.Rules(hand_size=0, kitty_size=0)
        except ValueError:
            print("refused")
        """,
        timeout=60,
    )
    assert out.strip() == "refused"
