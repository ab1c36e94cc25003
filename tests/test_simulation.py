"""Whole games in C across threads, and VectorGame: both agree with ddz.Game move for move."""

from __future__ import annotations

import numpy as np
import pytest

import ddz
from ddz.simulation import game_seed
from ddz.testing import check_env

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
        ddz.simulate(10, agents="clever")
    with pytest.raises(ValueError, match=r"threads must lie in 1 \.\. 256"):
        ddz.simulate(10, threads=0)
    assert ddz.simulate(0).payoffs.shape == (0, 3)


def test_game_seed_is_the_deal_of_a_game() -> None:
    seed = game_seed(5, 3)
    assert isinstance(seed, int) and seed != game_seed(5, 4) and seed != game_seed(6, 3)
    games = ddz.VectorGame(4, seed=5)
    assert games.deal_seed(3) == game_seed(5, 3)


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_vector_game_steps_as_games_do(rules: ddz.Rules) -> None:
    assert check_env(rules, games=8, steps=400, seed=3) > 0


def test_check_env_finds_a_difference(monkeypatch: pytest.MonkeyPatch) -> None:
    # a VectorGame whose observations are off by one card must be caught
    original = ddz.VectorGame.observations

    def wrong(self: ddz.VectorGame) -> np.ndarray:  # type: ignore[type-arg]
        out = original(self)
        out[0, 0] += 1
        return out

    monkeypatch.setattr(ddz.VectorGame, "observations", wrong)
    with pytest.raises(AssertionError, match=r"step 0, game 0 .*: observation"):
        check_env(ddz.CLASSIC, games=2, steps=3)


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
