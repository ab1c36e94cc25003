"""Whole games in C across threads, and VectorGame: both agree with ddz.Game move for move."""

from __future__ import annotations

import numpy as np
import pytest

import ddz
from ddz.actions import ActionSpace
from ddz.simulation import game_seed

VARIANTS = [ddz.CLASSIC, ddz.TWO_PLAYER, ddz.UNO_LANDLORD, ddz.DOUZERO]
IDS = ["classic", "two-player", "uno-landlord", "douzero"]


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_simulate_is_deterministic_whatever_the_threads(rules: ddz.Rules) -> None:
    one = ddz.simulate(600, rules=rules, seed=9, threads=1)
    assert one == ddz.simulate(600, rules=rules, seed=9, threads=2)
    assert one == ddz.simulate(600, rules=rules, seed=9, threads=3)
    assert one != ddz.simulate(600, rules=rules, seed=10)
    assert one.payoffs.shape == (600, rules.players)
    assert (one.payoffs.sum(axis=1) == 0).all()
    void = one.void
    assert (one.payoffs[void] == 0).all() and (one.winners[void] == -1).all()
    assert ((one.winners[~void] >= 0) & (one.winners[~void] < rules.players)).all()
    assert (one.lengths > 0).all()


def test_simulate_payoffs_follow_the_winner_and_the_landlord() -> None:
    result = ddz.simulate(2000, seed=4)
    played = ~result.void
    landlord_won = result.winners == result.landlords
    rows = np.arange(len(result.winners))
    landlord_pay = result.payoffs[rows, np.maximum(result.landlords, 0)]
    assert (landlord_pay[played & landlord_won] > 0).all()
    assert (landlord_pay[played & ~landlord_won] < 0).all()


def test_slices_of_a_run_concatenate_to_the_run() -> None:
    whole = ddz.simulate(900, seed=2)
    parts = [ddz.simulate(300, seed=2, first_game=first) for first in (0, 300, 600)]
    for name in ("payoffs", "winners", "landlords", "lengths"):
        joined = np.concatenate([getattr(part, name) for part in parts])
        assert np.array_equal(joined, getattr(whole, name))


def test_simulate_checks_its_arguments() -> None:
    with pytest.raises(ValueError, match="random agents"):
        ddz.simulate(10, agents="greedy")
    with pytest.raises(ValueError, match="threads >= 1"):
        ddz.simulate(10, threads=0)
    assert ddz.simulate(0).payoffs.shape == (0, 3)


def test_game_seed_is_the_deal_of_a_game() -> None:
    seed = game_seed(5, 3)
    assert isinstance(seed, int) and seed != game_seed(5, 4) and seed != game_seed(6, 3)
    games = ddz.VectorGame(4, seed=5)
    assert games.deal_seed(3) == game_seed(5, 3)


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_vector_game_steps_as_games_do(rules: ddz.Rules) -> None:
    n = 8
    vector = ddz.VectorGame(n, rules=rules, seed=3)
    space = ActionSpace(rules)
    games = [ddz.Game(rules, seed=vector.deal_seed(i)) for i in range(n)]
    episodes = 0
    for _ in range(400):
        masks = vector.legal_action_mask()
        observations = vector.observations()
        assert vector.current_players.tolist() == [g.current_player for g in games]
        for i, game in enumerate(games):
            assert np.array_equal(masks[i], game.legal_action_mask())
            player = game.current_player
            assert player is not None
            assert np.array_equal(observations[i], game.observation(player).encode())
        actions = vector.sample_legal()
        assert masks[np.arange(n), actions].all()
        rewards, done = vector.step(actions)
        for i, game in enumerate(games):
            game.push(space.action(int(actions[i])))
            assert game.is_over == done[i]
            if done[i]:
                episodes += 1
                assert rewards[i].tolist() == game.payoffs()
                games[i] = ddz.Game(rules, seed=vector.deal_seed(i))
            else:
                assert not rewards[i].any()
    assert episodes > 0


def test_an_illegal_action_changes_no_game() -> None:
    vector = ddz.VectorGame(3, seed=1)
    before = vector.observations()
    actions = vector.sample_legal()
    masks = vector.legal_action_mask()
    actions[1] = int(np.flatnonzero(~masks[1])[0])
    with pytest.raises(ValueError, match="game 1: action"):
        vector.step(actions)
    assert np.array_equal(vector.observations(), before)
    with pytest.raises(ValueError, match="one action a game"):
        vector.step([0, 0])
