"""The drop-in environments pickle and deep-copy to independent, equal environments.

RLCard's DMC trainer hands its environment to actor processes started with
``torch.multiprocessing``'s spawn context, which pickles it; DouZero's builds one per actor,
and a user may checkpoint or fork one. A copy taken mid-game must give the same states as
the original for the same actions from there on, and playing one must not move the other.
These tests need neither peer.
"""

from __future__ import annotations

import copy
import multiprocessing
import pickle
import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
import pytest

from ddz import IllegalMoveError
from ddz._core.douzero import DouzeroCore, _restore_core
from ddz.compat import douzero, rlcard

COPIES: dict[str, Callable[[Any], Any]] = {
    "pickle": lambda env: pickle.loads(pickle.dumps(env)),
    "pickle-protocol-0": lambda env: pickle.loads(pickle.dumps(env, protocol=0)),
    "deepcopy": copy.deepcopy,
    "copy": copy.copy,
}


# --- DouZero --------------------------------------------------------------------------------


def same_douzero_obs(a: dict[str, Any] | None, b: dict[str, Any] | None) -> None:
    if a is None or b is None:
        assert a is None and b is None
        return
    assert list(a) == list(b)
    for key, value in a.items():
        if isinstance(value, np.ndarray):
            assert value.dtype == b[key].dtype and np.array_equal(value, b[key]), key
        else:
            assert value == b[key], key


def same_infoset(a: douzero.Env, b: douzero.Env) -> None:
    assert (a.infoset is None) == (b.infoset is None)
    if a.infoset is not None:
        assert vars(a.infoset) == vars(b.infoset)


def douzero_midgame(seed: int, plies: int) -> tuple[douzero.Env, dict[str, Any], random.Random]:
    rng = random.Random(seed)
    np.random.seed(seed)
    env = douzero.Env("adp")
    obs = env.reset()
    for _ in range(plies):
        after, _, done, _ = env.step(rng.choice(obs["legal_actions"]))
        if done:
            break
        assert after is not None
        obs = after
    return env, obs, rng


@pytest.mark.parametrize("how", list(COPIES))
@pytest.mark.parametrize("seed", range(6))
def test_douzero_copy_mid_game_plays_on_identically(how: str, seed: int) -> None:
    env, obs, rng = douzero_midgame(seed, plies=seed * 7)
    twin = COPIES[how](env)
    assert twin is not env and twin._core is not env._core
    same_infoset(env, twin)
    if env._core.winner >= 0:  # the game ended before the copy: both stay over
        with pytest.raises(IllegalMoveError):
            twin.step([])
        return
    same_douzero_obs(douzero.get_obs(env), douzero.get_obs(twin))
    done = False
    while not done:
        action = rng.choice(obs["legal_actions"])
        obs, reward, done, info = env.step(action)
        twin_obs, twin_reward, twin_done, twin_info = twin.step(action)
        same_douzero_obs(obs, twin_obs)
        assert (reward, done, info) == (twin_reward, twin_done, twin_info)
        same_infoset(env, twin)


def test_douzero_copy_is_independent() -> None:
    env, obs, _ = douzero_midgame(11, plies=5)
    before = douzero.get_obs(env)
    twin = copy.deepcopy(env)
    twin.step(obs["legal_actions"][-1])
    same_douzero_obs(before, douzero.get_obs(env))
    assert env._core.plies == 5 and twin._core.plies == 6


def test_douzero_copies_before_the_deal_and_after_the_end() -> None:
    fresh = pickle.loads(pickle.dumps(douzero.Env("wp")))
    assert fresh.objective == "wp" and fresh.infoset is None
    with pytest.raises(IllegalMoveError):
        fresh.step([3])
    np.random.seed(3)
    fresh.reset()
    env, _, _ = douzero_midgame(5, plies=1000)  # played to the end
    assert env._core.winner >= 0
    twin = pickle.loads(pickle.dumps(env))
    assert twin._core.winner == env._core.winner
    assert twin._core.bomb_num == env._core.bomb_num
    same_infoset(env, twin)  # the infoset the game ended from
    with pytest.raises(IllegalMoveError):
        twin.step([3])


def test_douzero_tampered_pickles_give_value_errors() -> None:
    core = DouzeroCore()
    hands = np.zeros((3, 15), dtype=np.uint8)
    hands[:, 0] = 1
    hands[0, 1] = 1
    core.deal(hands)
    restore, (start, history) = core.__reduce__()
    assert restore is _restore_core and history.shape == (0, 15)
    illegal = np.zeros((1, 15), dtype=np.uint8)
    illegal[0, 5] = 1  # a card the landlord does not hold
    with pytest.raises(ValueError, match="not legal"):
        _restore_core(start, illegal)
    too_many = start.copy()
    too_many[0, 0] = 5
    with pytest.raises(ValueError):
        _restore_core(too_many, history)
    with pytest.raises(ValueError, match="not a pickled"):
        _restore_core(start, np.zeros((2, 3), dtype=np.uint8))
    four = np.zeros((1, 15), dtype=np.uint8)
    four[0, 1] = 1
    after = _restore_core(start, four)  # the landlord leads its 4
    assert after.plies == 1 and after.acting == 2
    with pytest.raises(ValueError, match="move 1"):
        _restore_core(start, np.vstack([four, four]))  # landlord_down holds no 4


# --- RLCard ---------------------------------------------------------------------------------


def same_rlcard_state(a: dict[str, Any], b: dict[str, Any]) -> None:
    assert list(a) == list(b)
    assert a["obs"].dtype == b["obs"].dtype and np.array_equal(a["obs"], b["obs"])
    assert list(a["legal_actions"]) == list(b["legal_actions"])
    for key, features in a["legal_actions"].items():
        assert np.array_equal(features, b["legal_actions"][key])
    assert a["raw_obs"] == b["raw_obs"]
    assert a["raw_legal_actions"] == b["raw_legal_actions"]
    assert a["action_record"] == b["action_record"]


def same_rlcard_env(a: rlcard.DoudizhuEnv, b: rlcard.DoudizhuEnv) -> None:
    for seat in range(3):
        same_rlcard_state(a.get_state(seat), b.get_state(seat))
    assert a.get_perfect_information() == b.get_perfect_information()
    assert np.array_equal(a.get_payoffs(), b.get_payoffs())
    assert a.is_over() == b.is_over() and a.get_player_id() == b.get_player_id()
    assert a.timestep == b.timestep


def rlcard_midgame(seed: int, plies: int) -> tuple[rlcard.DoudizhuEnv, random.Random]:
    rng = random.Random(seed)
    env = rlcard.make("doudizhu", config={"seed": seed, "allow_step_back": True})
    state, _ = env.reset()
    for _ in range(plies):
        if env.is_over():
            break
        if env.timestep and rng.random() < 0.2:
            state, _ = env.step_back()
            continue
        state, _ = env.step(rng.choice(list(state["legal_actions"])))
    return env, rng


@pytest.mark.parametrize("how", list(COPIES))
@pytest.mark.parametrize("seed", range(6))
def test_rlcard_copy_mid_game_plays_on_identically(how: str, seed: int) -> None:
    env, rng = rlcard_midgame(seed, plies=seed * 9)
    twin = COPIES[how](env)
    assert twin is not env and twin._core is not env._core
    same_rlcard_env(env, twin)
    while not env.is_over():
        if rng.random() < 0.15:  # the undo states come back with the copy
            back, twin_back = env.step_back(), twin.step_back()
            assert (back is False) == (twin_back is False)
        else:
            action = rng.choice(list(env.get_state(env.get_player_id())["legal_actions"]))
            state, player = env.step(action)
            twin_state, twin_player = twin.step(action)
            assert player == twin_player
            same_rlcard_state(state, twin_state)
        same_rlcard_env(env, twin)
    # the deal generator travels too: the next games are the same
    same_rlcard_state(env.reset()[0], twin.reset()[0])
    same_rlcard_env(env, twin)


def test_rlcard_copy_is_independent() -> None:
    env, _ = rlcard_midgame(21, plies=4)
    before = env.get_state(env.get_player_id())
    twin = copy.deepcopy(env)
    twin.step(min(before["legal_actions"]))
    twin.reset()
    same_rlcard_state(before, env.get_state(env.get_player_id()))
    assert twin.timestep == env.timestep + 1


def test_rlcard_copies_keep_their_agents() -> None:
    env, _ = rlcard_midgame(2, plies=3)
    agents = [object(), object(), object()]
    env.set_agents(agents)
    shallow, deep = copy.copy(env), copy.deepcopy(env)
    assert shallow.agents == agents and shallow.agents is not env.agents
    assert all(a is b for a, b in zip(shallow.agents, agents, strict=True))
    assert not any(a is b for a, b in zip(deep.agents, agents, strict=True))
    assert env.agents is agents
    steps, trace = env.timestep, list(env._trace)
    shallow.step(min(shallow.get_state(shallow.get_player_id())["legal_actions"]))
    assert env.timestep == steps and env._trace == trace != shallow._trace


def test_rlcard_copies_before_the_deal_and_keeps_config() -> None:
    env = rlcard.make("doudizhu", config={"seed": 9})
    twin = pickle.loads(pickle.dumps(env))
    assert not twin.allow_step_back and twin.num_actions == 27472
    with pytest.raises(IllegalMoveError):
        twin.step(27471)
    same_rlcard_state(env.reset()[0], twin.reset()[0])


def test_rlcard_tampered_pickles_give_value_errors() -> None:
    env, _ = rlcard_midgame(4, plies=6)
    state = env.__getstate__()
    bad = dict(state, _ops=[*state["_ops"], (env.get_player_id(), "no such move")])
    with pytest.raises(ValueError, match="not legal"):
        rlcard.DoudizhuEnv.__new__(rlcard.DoudizhuEnv).__setstate__(bad)
    wrong_seat = dict(state, _ops=[((state["_ops"][0][0] + 1) % 3, state["_ops"][0][1])])
    with pytest.raises(ValueError, match="not legal"):
        rlcard.DoudizhuEnv.__new__(rlcard.DoudizhuEnv).__setstate__(wrong_seat)
    with pytest.raises(ValueError, match="step back"):
        rlcard.DoudizhuEnv.__new__(rlcard.DoudizhuEnv).__setstate__(dict(state, _ops=[(0, "")]))
    with pytest.raises(ValueError, match="deal"):
        rlcard.DoudizhuEnv.__new__(rlcard.DoudizhuEnv).__setstate__(
            dict(state, _deal=(1, 2, 3, 4), _ops=[])
        )


# --- across a spawned process, as the trainers use them -------------------------------------


def play_in_child(env: Any, actions: list[Any]) -> list[Any]:
    """Run in a spawned process: play ``actions`` on the unpickled env; the states."""
    return [env.step(action)[0] for action in actions]


def test_envs_travel_to_a_spawned_process() -> None:
    dz, dz_obs, rng = douzero_midgame(8, plies=4)
    dz_actions = []
    dz_here = copy.deepcopy(dz)
    dz_expected = []
    obs = dz_obs
    for _ in range(3):
        action = rng.choice(obs["legal_actions"])
        dz_actions.append(action)
        obs = dz_here.step(action)[0]
        dz_expected.append(obs)
    rl, _ = rlcard_midgame(8, plies=4)
    rl_before = rl.get_state(rl.get_player_id())
    rl_here = copy.deepcopy(rl)
    rl_actions, rl_expected = [], []
    for _ in range(3):
        action = max(rl_here.get_state(rl_here.get_player_id())["legal_actions"])
        rl_actions.append(action)
        rl_expected.append(rl_here.step(action)[0])
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        dz_got = pool.submit(play_in_child, dz, dz_actions).result(timeout=300)
        rl_got = pool.submit(play_in_child, rl, rl_actions).result(timeout=300)
    for expected, got in zip(dz_expected, dz_got, strict=True):
        same_douzero_obs(expected, got)
    for expected, got in zip(rl_expected, rl_got, strict=True):
        same_rlcard_state(expected, got)
    # the originals did not move
    same_douzero_obs(dz_obs, douzero.get_obs(dz))
    same_rlcard_state(rl_before, rl.get_state(rl.get_player_id()))
