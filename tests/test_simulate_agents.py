"""The greedy agent in C: the same action as ddz.agents.GreedyAgent in every state, and
simulate() playing it (and random agents) seat by seat."""

from __future__ import annotations

import random

import numpy as np
import pytest

import ddz
from ddz._core import vector as _core
from ddz.agents import GreedyAgent, choose

CALL_GRAB = ddz.CLASSIC.replace(bidding=ddz.rules.Bidding.CALL_GRAB, max_grabs=2)
VARIANTS = [ddz.CLASSIC, ddz.TWO_PLAYER, ddz.UNO_LANDLORD, ddz.DOUZERO, CALL_GRAB]
IDS = ["classic", "two-player", "uno-landlord", "douzero", "call-grab"]


def c_greedy(game: ddz.Game) -> int:
    return _core.greedy_action(game.rules, game._core.state_bytes())


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_c_greedy_acts_as_the_python_greedy_agent(rules: ddz.Rules) -> None:
    agent = GreedyAgent()
    decisions = 0
    for deal in range(300):
        # seats driven by a mix of greedy and random play, so the greedy agent meets both
        # its own kind of game and odd ones (long tricks, bombs, skips, high bids)
        chooser = random.Random(deal)
        greedy_seats = {seat for seat in range(rules.players) if chooser.random() < 0.6}
        game = ddz.Game(rules, seed=1000 + deal)
        while not game.is_over:
            expected = choose(agent, game).code
            assert c_greedy(game) == expected, (deal, len(game.history), str(game.hands))
            decisions += 1
            if game.current_player in greedy_seats:
                game.push_code(expected)
            else:
                game.push_code(chooser.choice(game.legal_actions()).code)
        assert c_greedy(game) == 0
    assert decisions > 300 * 20


def test_c_greedy_rejects_a_foreign_state() -> None:
    game = ddz.Game(ddz.CLASSIC, seed=1)
    with pytest.raises(ValueError, match="bytes"):
        _core.greedy_action(ddz.CLASSIC, game._core.state_bytes()[:-1])
    with pytest.raises(ValueError, match="rules"):
        _core.greedy_action(ddz.TWO_PLAYER, game._core.state_bytes())


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_simulate_plays_greedy_games_as_ddz_game_does(rules: ddz.Rules) -> None:
    # the landlord seat's greedy agent and the others random: replay the C games in Python
    seats = ("greedy", "random", "random")[: rules.players]
    result = ddz.simulate(40, rules=rules, agents=seats, seed=5)
    all_greedy = ddz.simulate(40, rules=rules, agents="greedy", seed=5)
    agent = GreedyAgent()
    for index in range(40):
        game = ddz.Game(rules, seed=ddz.simulation.game_seed(5, index))
        while not game.is_over:
            game.push(choose(agent, game))
        assert game.payoffs() == all_greedy.payoffs[index].tolist()
        assert (-1 if game.winner is None else game.winner) == all_greedy.winners[index]
        assert len(game.history) == all_greedy.lengths[index]
    assert (result.payoffs.sum(axis=1) == 0).all()


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
@pytest.mark.parametrize("agents", ["greedy", ("greedy", "random", "random"), ("random", "greedy")])
def test_simulate_with_greedy_seats_is_deterministic_and_zero_sum(
    rules: ddz.Rules, agents: str | tuple[str, ...]
) -> None:
    if not isinstance(agents, str):
        agents = (agents * 3)[: rules.players]
    one = ddz.simulate(500, rules=rules, agents=agents, seed=11, threads=1)
    assert one == ddz.simulate(500, rules=rules, agents=agents, seed=11, threads=3)
    parts = [
        ddz.simulate(250, rules=rules, agents=agents, seed=11, first_game=first)
        for first in (0, 250)
    ]
    assert np.array_equal(np.concatenate([part.payoffs for part in parts]), one.payoffs)
    assert (one.payoffs.sum(axis=1) == 0).all()
    void = one.void
    assert (one.payoffs[void] == 0).all() and (one.winners[void] == -1).all()
    assert (one.lengths > 0).all()


def test_random_seats_draw_as_in_all_random_runs() -> None:
    # an all-random run is unchanged by the agents argument spelled out
    assert ddz.simulate(300, seed=3) == ddz.simulate(300, agents=("random",) * 3, seed=3)


@pytest.mark.parametrize(
    "rules", [ddz.CLASSIC, ddz.DOUZERO, ddz.UNO_LANDLORD], ids=["classic", "douzero", "uno"]
)
def test_greedy_beats_random(rules: ddz.Rules) -> None:
    games = 3000
    for seat in range(3):
        agents = tuple("greedy" if other == seat else "random" for other in range(3))
        result = ddz.simulate(games, rules=rules, agents=agents, seed=21, threads=2)
        # one greedy seat against two random ones: its average payoff is clearly positive,
        # where a random seat's is zero on average
        greedy = result.payoffs[:, seat].mean()
        assert greedy > 0.5, (seat, greedy)
        played = ~result.void
        as_landlord = played & (result.landlords == seat)
        landlord_wins = (result.winners[as_landlord] == seat).mean()
        assert landlord_wins > 0.6, (seat, landlord_wins)


def test_greedy_beats_random_two_players() -> None:
    result = ddz.simulate(3000, rules=ddz.TWO_PLAYER, agents=("greedy", "random"), seed=4)
    assert result.payoffs[:, 0].mean() > 0.5
    swapped = ddz.simulate(3000, rules=ddz.TWO_PLAYER, agents=("random", "greedy"), seed=4)
    assert swapped.payoffs[:, 1].mean() > 0.5


def test_simulate_names_the_agents_it_plays() -> None:
    with pytest.raises(ValueError, match="greedy and random agents"):
        ddz.simulate(10, agents="clever")
    with pytest.raises(ValueError, match="one a seat"):
        ddz.simulate(10, agents=("greedy", "random"))
