"""ddz.compat.rlcard against RLCard 1.2.0 itself: the same seeds, the same actions, every
state compared field by field.

The peer is installed by .ci/run (``pip install rlcard==1.2.0``); without it the comparisons
skip. DDZ_COMPAT_GAMES raises the number of games compared (default 120: 60 games here,
about 3,700 positions).

RLCard lists a player's leads in the iteration order of a Python set of strings, which
changes from process to process (PYTHONHASHSEED); those lists are compared as sets. Answers
are compared as lists: the order is RLCard's.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ddz
from ddz.compat import rlcard as ddz_rlcard

GAMES = int(os.environ.get("DDZ_COMPAT_GAMES", "120")) // 2
PASS_ID = 27471


def peer() -> Any:
    return pytest.importorskip(
        "rlcard", reason="the RLCard comparisons need rlcard==1.2.0 (.ci/run installs it)"
    )


def assert_same_state(theirs: dict[str, Any], ours: dict[str, Any]) -> None:
    assert type(theirs) is type(ours)
    assert list(theirs) == list(ours)
    assert theirs["obs"].dtype == ours["obs"].dtype
    assert np.array_equal(theirs["obs"], ours["obs"])
    # legal_actions are the player to act's, raw_obs["actions"] the state's seat's (they
    # differ in a state of a seat not to act): either may be a lead
    keys = list(theirs["legal_actions"])
    if PASS_ID in keys:
        assert keys == list(ours["legal_actions"])
    else:
        assert sorted(keys) == sorted(ours["legal_actions"])
    leading = "pass" not in theirs["raw_obs"]["actions"]
    for key, features in theirs["legal_actions"].items():
        mine = ours["legal_actions"][key]
        assert features.dtype == mine.dtype and np.array_equal(features, mine)
    raw, mine = dict(theirs["raw_obs"]), dict(ours["raw_obs"])
    assert list(raw) == list(mine)
    actions, my_actions = raw.pop("actions"), mine.pop("actions")
    assert raw == mine
    if leading:
        assert sorted(actions) == sorted(my_actions)
        assert sorted(theirs["raw_legal_actions"]) == sorted(ours["raw_legal_actions"])
    else:
        assert actions == my_actions
        assert theirs["raw_legal_actions"] == ours["raw_legal_actions"]
    assert theirs["action_record"] == ours["action_record"]


def assert_same_information(theirs: dict[str, Any], ours: dict[str, Any]) -> None:
    theirs, ours = dict(theirs), dict(ours)
    actions, my_actions = theirs.pop("legal_actions"), ours.pop("legal_actions")
    assert theirs == ours
    assert actions == my_actions if "pass" in actions else sorted(actions) == sorted(my_actions)


def choose(state: dict[str, Any], rng: random.Random) -> int:
    legal = sorted(state["legal_actions"])
    roll = rng.random()
    if roll < 0.15:  # the move with the most cards
        return max(legal, key=lambda i: int(state["legal_actions"][i].sum()))
    if roll < 0.3 and len(legal) > 1 and PASS_ID in legal:
        return PASS_ID
    return rng.choice(legal)


def test_same_states_as_rlcard() -> None:
    rlcard = peer()
    rng = random.Random(21)
    for game in range(GAMES):
        theirs = rlcard.make("doudizhu", config={"seed": game})
        ours = ddz_rlcard.make("doudizhu", config={"seed": game})
        (state, player), (state2, player2) = theirs.reset(), ours.reset()
        assert player == player2
        while True:
            assert_same_state(state, state2)
            assert theirs.is_over() == ours.is_over()
            assert theirs.get_player_id() == ours.get_player_id()
            if theirs.is_over():
                break
            if rng.random() < 0.1 and theirs.game.round.trace:
                other = rng.randrange(3)  # a state of a seat not to act
                assert_same_state(theirs.get_state(other), ours.get_state(other))
            action = choose(state, rng)
            if rng.random() < 0.2:
                text = theirs._decode_action(action)
                (state, player), (state2, player2) = (
                    theirs.step(text, raw_action=True),
                    ours.step(text, raw_action=True),
                )
            else:
                (state, player), (state2, player2) = theirs.step(action), ours.step(action)
            assert player == player2
        assert list(theirs.get_payoffs()) == list(ours.get_payoffs())
        for seat in range(3):
            assert_same_state(theirs.get_state(seat), ours.get_state(seat))
        assert_same_information(theirs.get_perfect_information(), ours.get_perfect_information())


def test_step_back_as_rlcard() -> None:
    rlcard = peer()
    rng = random.Random(22)
    for game in range(max(GAMES // 6, 4)):
        config = {"seed": 500 + game, "allow_step_back": True}
        theirs, ours = rlcard.make("doudizhu", config=config), ddz_rlcard.make("doudizhu", config)
        state, _ = theirs.reset()
        ours.reset()
        for _ in range(200):
            if theirs.is_over() or (theirs.game.round.trace and rng.random() < 0.3):
                back, back2 = theirs.step_back(), ours.step_back()
                assert (back is False) == (back2 is False)
                if back is False:
                    break
                state, player = back
                assert player == back2[1]
                assert_same_state(state, back2[0])
            else:
                action = choose(state, rng)
                state, player = theirs.step(action)
                state2, player2 = ours.step(action)
                assert player == player2
                assert_same_state(state, state2)
            assert_same_information(
                theirs.get_perfect_information(), ours.get_perfect_information()
            )
            assert list(theirs.get_payoffs()) == list(ours.get_payoffs())


def test_attributes_and_features_as_rlcard() -> None:
    rlcard = peer()
    theirs, ours = rlcard.make("doudizhu"), ddz_rlcard.make("doudizhu")
    for name in ("name", "num_players", "num_actions", "state_shape", "action_shape"):
        assert getattr(theirs, name) == getattr(ours, name), name
    assert theirs.allow_step_back == ours.allow_step_back is False
    for action in [0, 1, 200, 5000, 27000, PASS_ID, *random.Random(3).sample(range(27472), 200)]:
        assert np.array_equal(theirs.get_action_feature(action), ours.get_action_feature(action))


def test_registered_with_rlcard_and_runs_its_agents() -> None:
    rlcard = peer()
    from rlcard.agents import RandomAgent

    assert "ddz-doudizhu" in ddz_rlcard.register()
    assert ddz_rlcard.register() == ddz_rlcard.register()  # once a process
    env = rlcard.make("ddz-doudizhu", config={"seed": 3})
    assert isinstance(env, ddz_rlcard.DoudizhuEnv)
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    np.random.seed(3)
    for _ in range(2):
        trajectories, payoffs = env.run(is_training=False)
        assert sorted(payoffs.tolist()) in ([0, 0, 1], [0, 1, 1])
        assert all(len(t) >= 2 for t in trajectories)


def test_register_can_replace_rlcards_own_doudizhu() -> None:
    rlcard = peer()
    from rlcard.envs.registration import registry

    original = registry.env_specs["doudizhu"]
    assert not isinstance(rlcard.make("doudizhu"), ddz_rlcard.DoudizhuEnv)
    try:
        assert ddz_rlcard.register(replace=True) == ["ddz-doudizhu", "doudizhu"]
        env = rlcard.make("doudizhu", config={"seed": 5})
        assert isinstance(env, ddz_rlcard.DoudizhuEnv)
        assert isinstance(rlcard.make("ddz-doudizhu"), ddz_rlcard.DoudizhuEnv)
        assert ddz_rlcard.register(replace=True) == ["ddz-doudizhu", "doudizhu"]
    finally:
        registry.env_specs["doudizhu"] = original
    assert not isinstance(rlcard.make("doudizhu"), ddz_rlcard.DoudizhuEnv)


def test_seeded_games_repeat_and_illegal_actions_raise() -> None:
    a, b = ddz_rlcard.make("doudizhu", {"seed": 9}), ddz_rlcard.make("doudizhu", {"seed": 9})
    state, _ = a.reset()
    assert np.array_equal(state["obs"], b.reset()[0]["obs"])
    before = (state["raw_obs"], list(state["legal_actions"]))
    for bad in (PASS_ID, -1, 27472, "3", 3.0, None, 10**30):
        with pytest.raises(ddz.IllegalMoveError):
            a.step(bad)  # type: ignore[arg-type]
    for bad in ("pass", "XYZ", 5, "33333"):
        with pytest.raises(ddz.IllegalMoveError):
            a.step(bad, raw_action=True)
    state = a.get_state(0)
    assert (state["raw_obs"], list(state["legal_actions"])) == before
    with pytest.raises(Exception, match="allow_step_back"):
        a.step_back()
    with pytest.raises(ValueError):
        ddz_rlcard.make("blackjack")
    with pytest.raises(ValueError):
        ddz_rlcard.make("doudizhu", {"seed": -1})


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda env: env.get_state(1.0), TypeError, "player_id must be an integer, not 1.0"),
        (lambda env: env.get_state(True), TypeError, "player_id must be an integer, not True"),
        (lambda env: env.get_state("1"), TypeError, "player_id must be an integer"),
        (lambda env: env.get_state(3), ValueError, r"player_id must lie in 0 \.\. 2, not 3"),
        (lambda env: env.get_action_feature(1.5), TypeError, "action must be an integer"),
        (lambda env: env.get_action_feature("1"), TypeError, "action must be an integer"),
        (lambda env: env.get_action_feature(True), TypeError, "action must be an integer"),
        (lambda env: env.get_action_feature(27472), ValueError, r"action must lie in 0 \.\. 27471"),
        (lambda env: ddz_rlcard.make(None), TypeError, "env_id is a name"),
        (lambda env: ddz_rlcard.make("doudizhu", 5), TypeError, "config is a dict or None"),
        (lambda env: ddz_rlcard.make("doudizhu", {"seed": True}), TypeError, "a seed is"),
        (lambda env: ddz_rlcard.make("doudizhu", {"seed": 1.0}), TypeError, "a seed is"),
        (lambda env: ddz_rlcard.DoudizhuEnv([]), TypeError, "config is a dict or None"),
    ],
)
def test_wrong_arguments_are_refused_at_the_boundary(
    call: Callable[[ddz_rlcard.DoudizhuEnv], object], error: type[Exception], message: str
) -> None:
    env = ddz_rlcard.make("doudizhu", {"seed": 2})
    env.reset()
    with pytest.raises(error, match=message):
        call(env)


def test_numpy_integers_are_taken_where_integers_go() -> None:
    env = ddz_rlcard.make("doudizhu", {"seed": 2})
    env.reset()
    assert env.get_state(np.int64(1))["raw_obs"]["self"] == 1
    assert np.array_equal(env.get_action_feature(np.int32(5)), env.get_action_feature(5))
