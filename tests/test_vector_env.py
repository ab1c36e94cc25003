"""The environments read the core: observations and masks equal the games', and the batched
Gymnasium vector environment equals n single games step for step."""

from __future__ import annotations

import numpy as np
import pytest

import ddz
from ddz.envs import make_adapter

pytest.importorskip("gymnasium")

from ddz.envs.vector import DouDizhuVectorEnv


@pytest.mark.parametrize("game", ["classic", "two-player", "uno-landlord"])
def test_adapter_observations_and_masks_come_from_the_core(game: str) -> None:
    adapter = make_adapter(game, history=6)
    adapter.reset(seed=5)
    rng = np.random.default_rng(5)
    steps = 0
    while not adapter.is_over and steps < 200:
        seat = adapter.to_act
        assert seat is not None
        seen = adapter.observation(seat)
        assert np.array_equal(seen, adapter.game.observation_vector(seat, history=6))
        assert (adapter.observation_low <= seen).all() and (seen <= adapter.observation_high).all()
        mask = adapter.action_mask(seat)
        assert np.array_equal(mask.astype(bool), adapter.game.legal_action_mask())
        adapter.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1


@pytest.mark.parametrize("mask", ["dense", "packed", "indices"])
def test_vector_env_equals_single_games(mask: str) -> None:
    n = 6
    envs = DouDizhuVectorEnv(n, game="two-player", seed=3, history=4, mask=mask)  # type: ignore[arg-type]
    observations, info = envs.reset(seed=3)
    games = [ddz.Game(ddz.TWO_PLAYER, seed=envs.games.deal_seed(i)) for i in range(n)]
    space = ddz.ActionSpace(ddz.TWO_PLAYER)
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(120):
        assert envs.observation_space.contains(observations)
        actions = np.empty(n, dtype=np.int64)
        for i, game in enumerate(games):
            seat = game.current_player
            assert seat is not None and info["current_player"][i] == seat
            assert np.array_equal(observations[i], game.observation_vector(seat, history=4))
            legal = game.legal_indices()
            if mask == "dense":
                assert np.array_equal(info["action_mask"][i], game.legal_action_mask())
            elif mask == "packed":
                bits = np.unpackbits(
                    info["packed_action_mask"][i], count=space.size, bitorder="little"
                )
                assert np.array_equal(bits.astype(bool), game.legal_action_mask())
            else:
                offsets = info["legal_offsets"]
                run = info["legal_indices"][offsets[i] : offsets[i + 1]]
                assert np.array_equal(run, legal)
            actions[i] = rng.choice(legal)
        observations, rewards, terminated, truncated, info = envs.step(actions)
        assert not truncated.any()
        for i, game in enumerate(games):
            seat = game.current_player
            game.push(space.action(int(actions[i])))
            assert bool(terminated[i]) == game.is_over
            if game.is_over:
                assert info["payoffs"][i].tolist() == game.payoffs()
                assert rewards[i] == game.payoffs()[seat]  # type: ignore[index]
                games[i] = ddz.Game(ddz.TWO_PLAYER, seed=envs.games.deal_seed(i))
                ended += 1
            else:
                assert rewards[i] == 0
    assert ended > 0


def test_vector_env_options_are_checked() -> None:
    with pytest.raises(ValueError, match="no Dou Dizhu game"):
        DouDizhuVectorEnv(2, game="uno")
    with pytest.raises(ValueError, match="mask"):
        DouDizhuVectorEnv(2, mask="sparse")  # type: ignore[arg-type]
    envs = DouDizhuVectorEnv(2)
    with pytest.raises(ValueError, match="not legal"):
        envs.step([1, 1])  # the single 3 while bidding
    first, _ = envs.reset(seed=9)
    again, _ = envs.reset(seed=9)
    assert np.array_equal(first, again)
