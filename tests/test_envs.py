"""The reinforcement-learning environments: PettingZoo's and Gymnasium's own conformance checks,
masks equal to the legal actions, rewards, illegal actions and seeds.

The tests of ``ddz.envs`` (the adapters and the UNO action space) always run; those of the
PettingZoo and Gymnasium environments skip when the ``rl`` extra is not installed.
"""

from __future__ import annotations

import copy
import pickle
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ddz
from ddz import uno
from ddz.actions import action_space
from ddz.envs import (
    GAMES,
    PRESETS,
    ActionMask,
    DouDizhuAdapter,
    UnoActionSpace,
    UnoAdapter,
    make_adapter,
)

ROOT = Path(__file__).resolve().parents[1]
# api_test warns about every dictionary observation; PettingZoo exempts its own masked games
# from these two by name.
DICT_OBSERVATION_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box",
)


def legal_mask(adapter: Any, seat: int) -> np.ndarray[Any, Any]:
    """The mask the game's own legal actions give, built without the adapter's mask code."""
    if isinstance(adapter, DouDizhuAdapter):
        return action_space(adapter.rules).mask(adapter.game.legal_actions()).astype(np.int8)
    game = adapter.game
    return UnoActionSpace(game.players).mask(
        game.legal_actions(seat), passing=seat != game.current_player
    )


# --- ddz.envs, no extra needed ------------------------------------------------------------


def test_the_games_are_the_presets_registered_for_the_environments() -> None:
    assert GAMES == ("classic", "two-player", "uno-landlord", "uno")
    assert PRESETS == {
        "classic": ddz.CLASSIC,
        "two-player": ddz.TWO_PLAYER,
        "uno-landlord": ddz.UNO_LANDLORD,
    }
    for game in GAMES:
        adapter = make_adapter(game)
        assert adapter.name == game
        if game in PRESETS:
            assert adapter.rules is PRESETS[game]


@pytest.mark.parametrize("players", [2, 4, 10])
def test_uno_action_space_numbers_every_action_once(players: int) -> None:
    space = UnoActionSpace(players)
    for player in range(players):
        actions = [
            action
            for action in uno.actions.BY_CODE.values()
            if action.player == player
            and (action.kind != "catch" or action.target not in (player, *range(players, 10)))
        ]
        indices = {space.index(action) for action in actions}
        assert len(indices) == len(actions) == space.size - 1 - (uno.MAX_PLAYERS - players)
        assert space.PASS not in indices and max(indices) < space.size
        for action in actions:
            assert space.action(space.index(action), player) == action
    assert space.action(space.PASS, 0) is None
    with pytest.raises(ValueError, match="catches no other player"):
        space.index(uno.Action(1, "catch", target=1))
    if players < uno.MAX_PLAYERS:
        with pytest.raises(ValueError):
            space.action(space.size - 1, 0)


@pytest.mark.parametrize("game", GAMES)
def test_adapter_random_play_masks_and_rewards(game: str) -> None:
    adapter = make_adapter(game, players=3) if game == "uno" else make_adapter(game)
    rng = np.random.default_rng(1)
    for seed in range(3 if game == "uno" else 10):
        adapter.reset(seed=seed)
        while (seat := adapter.to_act) is not None:
            mask = adapter.action_mask(seat)
            assert np.array_equal(mask, legal_mask(adapter, seat))
            for other in range(adapter.num_players):
                if other != seat:
                    assert not adapter.action_mask(other).any()
            observation = adapter.observation(seat)
            assert observation.dtype == np.int8
            assert (adapter.observation_low <= observation).all()
            assert (observation <= adapter.observation_high).all()
            adapter.step(int(rng.choice(np.flatnonzero(mask))))
        rewards = adapter.rewards()
        assert adapter.is_over and sum(rewards) == pytest.approx(0.0)
        if isinstance(adapter.game, ddz.Game):
            assert rewards == [float(p) for p in adapter.game.payoffs()]
        elif adapter.game.winner is not None:
            assert rewards[adapter.game.winner] == 1.0


@pytest.mark.parametrize("game", GAMES)
def test_action_masks_find_their_nonzero_entries_as_int8_arrays_do(game: str) -> None:
    """The masks are ActionMask arrays (int8, the same values) whose nonzero() takes numpy's
    bool path: every way numpy finds nonzero entries answers as for a plain int8 array,
    whatever values are written in, and a mask kept from an earlier turn does not change."""
    adapter = make_adapter(game, max_steps=200)
    adapter.reset(seed=5)
    rng = np.random.default_rng(5)
    kept: list[tuple[ActionMask, np.ndarray[Any, Any]]] = []
    while (seat := adapter.to_act) is not None:
        mask = adapter.action_mask(seat)
        plain = np.array(mask, dtype=np.int8)  # a plain ndarray with the same values
        assert type(mask) is ActionMask and type(plain) is np.ndarray
        assert mask.dtype == np.int8 and isinstance(mask, np.ndarray)
        legal = np.flatnonzero(plain)
        assert legal.size > 0
        assert np.array_equal(np.flatnonzero(mask), legal)
        assert np.array_equal(np.nonzero(mask)[0], legal)
        assert np.array_equal(np.where(mask)[0], legal)
        assert np.array_equal(np.argwhere(mask), np.argwhere(plain))
        assert np.array_equal(np.flatnonzero(mask[1:]), np.flatnonzero(plain[1:]))
        kept.append((mask, plain))
        adapter.step(int(rng.choice(legal)))
    for mask, plain in kept:  # each call made a new array: none was rewritten since
        assert np.array_equal(mask, plain)
    assert not np.flatnonzero(adapter.action_mask(0)).size
    odd = np.array([0, 2, -1, 0, 127, -128, 1, 0], dtype=np.int8)
    assert np.array_equal(np.flatnonzero(odd.view(ActionMask)), np.flatnonzero(odd))
    flags = (odd != 0).view(ActionMask)  # a bool mask (as from a comparison) takes its own path
    assert np.array_equal(np.flatnonzero(flags), [1, 2, 4, 5, 6])
    for compared, expected in ((odd.view(ActionMask) == 0, odd == 0), (flags != 0, odd != 0)):
        assert type(compared) is np.ndarray and np.array_equal(compared, expected)
    assert type(odd.view(ActionMask)[2:]) is ActionMask
    kept_mask = kept[0][0]
    for copied in (pickle.loads(pickle.dumps(kept_mask)), copy.deepcopy(kept_mask)):
        assert type(copied) is ActionMask and np.array_equal(copied, kept_mask)
    assert type(np.asarray(kept_mask)) is np.ndarray  # a plain view, for who wants one


def test_gymnasium_samples_an_action_mask_as_a_plain_array() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    adapter = make_adapter("classic")
    adapter.reset(seed=9)
    mask = adapter.action_mask(adapter.to_act)
    ours, plain = gymnasium.spaces.Discrete(len(mask)), gymnasium.spaces.Discrete(len(mask))
    ours.seed(4)
    plain.seed(4)
    drawn = [int(ours.sample(mask)) for _ in range(20)]
    assert drawn == [int(plain.sample(np.array(mask))) for _ in range(20)]
    assert all(mask[action] == 1 for action in drawn)


def test_adapter_seeds_deal_the_ddz_games() -> None:
    adapter = make_adapter("classic")
    adapter.reset(seed=11)
    assert adapter.game.deal == ddz.Game(seed=11).deal
    adapter.reset()
    assert adapter.seed == 12 and adapter.game.deal == ddz.Game(seed=12).deal
    unos = make_adapter("uno", players=5)
    assert isinstance(unos, UnoAdapter)
    unos.reset(seed=4)
    assert unos.game.state_bytes() == uno.Game(5, seed=4).state_bytes()


def test_adapter_illegal_actions() -> None:
    adapter = make_adapter("classic")
    adapter.reset(seed=7)  # seat 2 bids: pass, bid 1..3 legal; index 1 (a move) is not
    before = adapter.game.state_bytes()
    for bad in (1, -1, adapter.num_actions, None, 1.0, "pass"):
        with pytest.raises(ddz.IllegalMoveError, match="player_2"):
            adapter.step(bad)
    assert adapter.game.state_bytes() == before and not adapter.is_over
    losing = make_adapter("classic", illegal_action="lose", illegal_reward=-5)
    losing.reset(seed=7)
    losing.step(1)
    assert losing.is_over and losing.forfeit == 2 and losing.to_act is None
    assert losing.rewards() == [0.0, 0.0, -5.0]
    with pytest.raises(ddz.IllegalMoveError, match="over"):
        losing.step(0)
    with pytest.raises(ValueError, match="illegal_action"):
        make_adapter("classic", illegal_action="ignore")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="UNO"):
        make_adapter("classic", players=3)


def test_ddz_imports_no_rl_library() -> None:
    code = (
        "import sys, ddz, ddz.envs, ddz.uno\n"
        "assert not any(m.split('.')[0] in ('pettingzoo', 'gymnasium') for m in sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# --- PettingZoo ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_test(game: str) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]

    from ddz.envs.pettingzoo import env

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(game), num_cycles=100 if game == "uno" else 300)
        seed_test(lambda: env(game), num_cycles=20)
    unexpected = [
        str(w.message) for w in caught if not str(w.message).startswith(DICT_OBSERVATION_WARNINGS)
    ]
    assert unexpected == []


def test_pettingzoo_api_test_with_truncation_and_options() -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from ddz.envs.pettingzoo import env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env("uno", players=2, reward="points", max_steps=40), num_cycles=50)
        api_test(env("classic", rules=ddz.DOUZERO, illegal_action="lose"), num_cycles=100)


def play_pettingzoo(game: Any, seed: int) -> tuple[list[Any], dict[str, float]]:
    """A random masked episode; returns the trajectory and each agent's total reward."""
    adapter = game.unwrapped.adapter
    game.reset(seed=seed)
    for agent in game.possible_agents:
        game.action_space(agent).seed(seed)
    totals = dict.fromkeys(game.possible_agents, 0.0)
    trajectory: list[Any] = []
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _ = game.last()
        totals[agent] += reward
        seat = game.possible_agents.index(agent)
        if terminated or truncated:
            assert not observation["action_mask"].any()
            action = None
        else:
            assert adapter.to_act == seat
            assert np.array_equal(observation["action_mask"], legal_mask(adapter, seat))
            action = int(game.action_space(agent).sample(observation["action_mask"]))
        trajectory.append((agent, observation["observation"].tobytes(), action))
        game.step(action)
    assert game.agents == []
    return trajectory, totals


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_random_episode(game: str) -> None:
    pytest.importorskip("pettingzoo")
    from ddz.envs.pettingzoo import env

    options: dict[str, Any] = {"players": 3} if game == "uno" else {}
    first = env(game, **options)
    trajectory, totals = play_pettingzoo(first, 5)
    adapter = first.unwrapped.adapter
    assert adapter.is_over
    assert sum(totals.values()) == pytest.approx(0.0)  # zero-sum, UNO's "win" reward too
    assert list(totals.values()) == pytest.approx(adapter.rewards())
    if game != "uno":
        assert list(totals.values()) == [float(p) for p in adapter.game.payoffs()]
    # The same seed replays the same episode, in a new environment as in the old one.
    assert play_pettingzoo(env(game, **options), 5) == (trajectory, totals)
    assert play_pettingzoo(first, 5) == (trajectory, totals)


def test_pettingzoo_wrapper_answers_as_pettingzoos_own() -> None:
    """env() wraps in a subclass of PettingZoo's OrderEnforcingWrapper whose step-loop
    attributes are properties: before reset and through an episode it must answer exactly as
    PettingZoo's wrapper around an equal raw_env does."""
    pytest.importorskip("pettingzoo")
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    from ddz.envs.pettingzoo import env, raw_env

    ours, stock = env("classic"), OrderEnforcingWrapper(raw_env("classic"))
    assert isinstance(ours, OrderEnforcingWrapper) and str(ours) == str(stock) == "ddz_classic_v0"
    names = ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos")
    for name in names:
        for wrapped in (ours, stock):
            with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
                getattr(wrapped, name)
    assert ours._cumulative_rewards == stock._cumulative_rewards == {}
    names += ("_cumulative_rewards", "num_agents")
    rng = np.random.default_rng(3)
    for wrapped in (ours, stock):
        wrapped.reset(seed=11)
    for agent in ours.agent_iter():
        assert agent == next(iter(stock.agent_iter()))
        for name in names:
            assert getattr(ours, name) == getattr(stock, name), name
        observation, *rest = ours.last()
        other, *other_rest = stock.last()
        assert rest == other_rest
        assert all(np.array_equal(observation[k], other[k]) for k in ("observation", "action_mask"))
        done = rest[1] or rest[2]
        action = None if done else int(rng.choice(np.flatnonzero(observation["action_mask"])))
        ours.step(action)
        stock.step(action)
    assert ours.agents == stock.agents == []


def test_pettingzoo_illegal_actions_and_render() -> None:
    pytest.importorskip("pettingzoo")
    from ddz.envs.pettingzoo import env, raw_env

    game = env("classic", render_mode="ansi")
    game.reset(seed=7)
    assert game.agent_selection == "player_2"
    before = game.last()[0]["observation"]
    with pytest.raises(ddz.IllegalMoveError, match="not legal"):
        game.step(1)
    assert np.array_equal(game.last()[0]["observation"], before)
    text = game.render()
    assert text.startswith("classic: Dou Dizhu, classic rules: bidding") and "seat 2 to act" in text

    losing = raw_env("classic", illegal_action="lose")
    losing.reset(seed=7)
    losing.step(1)
    assert all(losing.terminations.values())
    assert losing.rewards == {"player_0": 0.0, "player_1": 0.0, "player_2": -1.0}
    assert "not legal" in losing.infos["player_2"]["illegal_action"]
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("classic", render_mode="rgb_array")


# --- Gymnasium ----------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_check_env(game: str) -> None:
    pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from ddz.envs.gymnasium import SingleAgentEnv

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(SingleAgentEnv(game, opponents="greedy"), skip_render_check=True)
        check_env(SingleAgentEnv(game, seat=1, render_mode="ansi"))
    assert [str(w.message) for w in caught if "spec" not in str(w.message)] == []


def test_gymnasium_make_and_check_env() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from ddz.envs.gymnasium import ENV_IDS

    for game, env_id in ENV_IDS.items():
        made = gymnasium.make(env_id)
        assert made.unwrapped.adapter.name == game
    made = gymnasium.make("ddz/Uno-v0", players=3, opponents=["greedy", "random"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(made.unwrapped, skip_render_check=True)
    assert [str(w.message) for w in caught] == []


def play_gymnasium(env: Any, seed: int) -> tuple[list[Any], float, dict[str, Any]]:
    rng = np.random.default_rng(seed)
    observation, info = env.reset(seed=seed)
    assert info["seed"] == seed
    trajectory = []
    terminated = truncated = False
    while not (terminated or truncated):
        adapter = env.adapter
        assert adapter.to_act == env.seat
        assert np.array_equal(observation["action_mask"], legal_mask(adapter, env.seat))
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        trajectory.append((observation["observation"].tobytes(), action))
        observation, reward, terminated, truncated, info = env.step(action)
        if not terminated:
            assert reward == 0.0
    return trajectory, reward, info


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_episode(game: str) -> None:
    pytest.importorskip("gymnasium")
    from ddz.envs.gymnasium import SingleAgentEnv

    options: dict[str, Any] = {"players": 3} if game == "uno" else {}
    env = SingleAgentEnv(game, seat=1, opponents="random", **options)
    trajectory, reward, info = play_gymnasium(env, 9)
    assert env.adapter.is_over and reward == info["rewards"][1]
    assert sum(info["rewards"]) == pytest.approx(0.0)
    with pytest.raises(ddz.IllegalMoveError, match="over"):
        env.step(0)
    again = SingleAgentEnv(game, seat=1, opponents="random", **options)
    assert play_gymnasium(again, 9)[:2] == (trajectory, reward)
    assert play_gymnasium(env, 9)[:2] == (trajectory, reward)


def test_gymnasium_options() -> None:
    pytest.importorskip("gymnasium")
    from ddz.agents import GreedyAgent
    from ddz.envs.gymnasium import SingleAgentEnv

    env = SingleAgentEnv("classic", seat=2, opponents=["greedy", GreedyAgent()])
    _, info = env.reset(seed=7)
    assert info["seat"] == 2 and env.adapter.to_act == 2
    _, reward, terminated, _, info = env.step(1)  # a move in bidding: illegal
    assert terminated and reward == -1.0 and "not legal" in info["illegal_action"]
    strict = SingleAgentEnv("classic", seat=2, illegal_action="raise")
    strict.reset(seed=7)
    with pytest.raises(ddz.IllegalMoveError):
        strict.step(1)
    with pytest.raises(ValueError, match="opponents"):
        SingleAgentEnv("classic", opponents=["greedy"])
    with pytest.raises(ValueError, match="agent"):
        SingleAgentEnv("classic", opponents="clever")
    with pytest.raises(ValueError, match="seat"):
        SingleAgentEnv("two-player", seat=2)


# --- docs/environments.md -----------------------------------------------------------------


def test_environment_docs_examples_run(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    doc = ROOT / "docs" / "environments.md"
    if not doc.exists():
        pytest.skip("docs not available")
    blocks = re.findall(r"```python\n(.*?)```", doc.read_text(), re.S)
    plain = [block for block in blocks if not block.lstrip().startswith(">>>")]
    assert len(plain) >= 4
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for block in plain:
            exec(compile(block, str(doc), "exec"), {})


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"illegal_reward": True}, TypeError),
        ({"illegal_reward": "2"}, TypeError),
        ({"illegal_reward": float("nan")}, ValueError),
        ({"illegal_reward": float("inf")}, ValueError),
        ({"max_steps": True}, TypeError),
        ({"max_steps": 2.0}, TypeError),
        ({"max_steps": "3"}, TypeError),
        ({"max_steps": 0}, ValueError),
    ],
)
def test_adapter_numbers_are_checked(kwargs: dict[str, object], error: type[Exception]) -> None:
    from ddz.envs import DouDizhuAdapter, UnoAdapter

    for adapter in (DouDizhuAdapter, UnoAdapter):
        with pytest.raises(error):
            adapter(**kwargs)  # type: ignore[arg-type]
