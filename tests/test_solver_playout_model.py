"""SolverAgent's open playouts play each other seat as the model its play so far looks like
(``playout_model``, ddz.play.open_playouts.seat_models): the greedy agent or RLCard's rule
agent in C, read from the play in the one true world, as PIMCAgent(opponent="auto") reads it
in sampled worlds."""

from __future__ import annotations

from typing import Any

import pytest

import ddz
from ddz.play.agents import GreedyAgent, choose
from ddz.play.open_playouts import read_play, rule_seats, seat_models
from ddz.play.rule_model import rule_choice
from ddz.search_agents import SolverAgent


def rule_act(game: ddz.Game) -> ddz.Action:
    return rule_choice(game)[0]


def test_a_seat_that_plays_like_the_rule_agent_is_played_as_it() -> None:
    # the landlord plays as the rule agent, both farmers as the greedy agent; read at every
    # decision of farmer 1: the landlord as the rule agent once the greedy agent would have
    # played one of its moves otherwise, the greedy partner never
    modelled = 0
    for deal in range(6):
        game = ddz.Game(ddz.RLCARD, seed=deal)
        landlord = game.landlord
        assert landlord is not None
        me, partner = (landlord + 1) % 3, (landlord + 2) % 3
        while not game.is_over:
            seat = game.current_player
            if seat == me:
                reading = read_play(game)
                models = seat_models(game, "auto", reading)
                assert models[me] == models[partner] == "greedy"
                if reading is None:
                    assert models[landlord] == "greedy"
                else:
                    greedy, rule = reading
                    assert rule[landlord] == 0 and greedy[partner] == 0
                    expected = "rlcard-rule" if greedy[landlord] > 0 else "greedy"
                    assert models[landlord] == expected
                    modelled += expected == "rlcard-rule"
                assert seat_models(game, "greedy", reading) == ["greedy"] * 3
                told = seat_models(game, "rlcard-rule", reading)
                assert told[landlord] == "rlcard-rule" and told[me] == "greedy"
            game.step(rule_act(game) if seat == landlord else choose(GreedyAgent(), game))
    assert modelled >= 10


def test_told_the_rule_agent_a_partner_is_one_only_while_it_plays_like_one() -> None:
    """rule_seats, which SolverAgent's and PIMCAgent's told playouts share: farmer 1 (the
    landlord seat 0) plays its partner, seat 2, as the rule agent until the partner has
    played a move the rule agent would not have; the landlord always as the rule agent."""
    assert rule_seats(1, 0, [4, 0, 0]) == ["rlcard-rule", "greedy", "rlcard-rule"]
    assert rule_seats(1, 0, [4, 0, 2]) == ["rlcard-rule", "greedy", "greedy"]
    assert rule_seats(0, 0, [0, 3, 5]) == ["greedy", "rlcard-rule", "rlcard-rule"]


def test_ties_and_two_seats_are_played_greedy() -> None:
    game = ddz.Game(ddz.RLCARD, seed=1)
    assert game.current_player == game.landlord == 0
    assert read_play(game) is None  # nothing played: nothing read
    assert seat_models(game, "auto", None) == ["greedy"] * 3
    # seat 1 fits the rule agent better, seat 2 both alike: greedy on the tie
    assert seat_models(game, "auto", ([0, 2, 1], [0, 1, 1])) == ["greedy", "rlcard-rule", "greedy"]
    # told: the other side as the rule agent, whatever it read
    assert seat_models(game, "rlcard-rule", ([0, 0, 0], [0, 3, 3])) == [
        "greedy",
        "rlcard-rule",
        "rlcard-rule",
    ]
    two = ddz.Game(ddz.TWO_PLAYER, seed=1)
    while two.phase != "play":
        two.step(choose(GreedyAgent(), two))
    assert read_play(two) is None
    assert seat_models(two, "auto", ([0, 2], [0, 0])) == ["greedy", "greedy"]
    assert SolverAgent(max_cards=0).act(two) in two.legal_actions()  # "auto": greedy
    with pytest.raises(ValueError, match="three seats"):
        SolverAgent(max_cards=0, playout_model="rlcard-rule").act(two)


def test_playout_model_is_checked() -> None:
    with pytest.raises(ValueError, match="playout_model"):
        SolverAgent(playout_model="rule")


def landlord_game(deal: int, agent: SolverAgent, plies: int | None = None) -> ddz.Game:
    """Deal ``deal`` (RLCARD) played by ``agent`` as the landlord against the rule agent's
    farmers, to its end or for ``plies`` plies."""
    game = ddz.Game(ddz.RLCARD, seed=deal)
    while not game.is_over and (plies is None or len(game.history) < plies):
        seat = game.current_player
        game.step(choose(agent, game) if seat == game.landlord else rule_act(game))
    return game


def test_the_solver_agent_is_deterministic() -> None:
    first = landlord_game(5, SolverAgent(seed=3, node_limit=2000))
    again = landlord_game(5, SolverAgent(seed=3, node_limit=2000))
    assert [entry.action for entry in first.history] == [entry.action for entry in again.history]


# Deals where the landlord, 12 plies in (node_limit=2000, each solve unknown), plays another
# move when it plays the rule farmers as the rule agent than when it plays them greedy, and
# wins with it; the move of the greedy playouts then loses, the game played on the same way.
CHANGED = [(5, "5", "T"), (8, "Q", "pass")]


@pytest.mark.parametrize(("deal", "auto", "greedy"), CHANGED)
def test_playing_the_rule_farmers_as_the_rule_agent_changes_the_move(
    deal: int, auto: str, greedy: str
) -> None:
    playing = SolverAgent(node_limit=2000)
    game = landlord_game(deal, playing, plies=12)
    landlord = game.landlord
    assert game.current_player == landlord
    reading = read_play(game)
    assert "rlcard-rule" in seat_models(game, "auto", reading)
    chosen = playing.act(game)
    blind = SolverAgent(node_limit=2000, playout_model="greedy").act(game)
    assert (str(chosen), str(blind)) == (auto, greedy)
    for move, wins in ((chosen, True), (blind, False)):
        child = game.copy()
        child.step(move)
        # the rest of the game: the agent (auto) as the landlord, the rule agent farming
        agent = SolverAgent(node_limit=2000)
        while not child.is_over:
            seat = child.current_player
            child.step(choose(agent, child) if seat == landlord else rule_act(child))
        assert (child.winner == landlord) is wins


@pytest.mark.parametrize("partner_plays", ["rule", "greedy"])
def test_a_farmer_searches_a_proved_win_beside_a_rule_alike_partner(
    partner_plays: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a farmer's proof assumes a perfect partner: beside one played as the rule agent (that
    # has played every move as it would) the win is searched, beside a greedy one trusted
    calls: list[str] = []
    searched, fastest = SolverAgent._played_out, SolverAgent._fastest_win

    def search(self: SolverAgent, *args: Any) -> ddz.Action:
        calls.append("searched")
        return searched(self, *args)

    def trust(self: SolverAgent, *args: Any) -> ddz.Action:
        calls.append("trusted")
        return fastest(self, *args)

    monkeypatch.setattr(SolverAgent, "_played_out", search)
    monkeypatch.setattr(SolverAgent, "_fastest_win", trust)
    seen: list[str] = []
    for deal in range(8):
        game = ddz.Game(ddz.RLCARD, seed=deal)
        landlord = game.landlord
        assert landlord is not None
        me, partner = (landlord + 1) % 3, (landlord + 2) % 3
        agent = SolverAgent(node_limit=20_000)
        while not game.is_over:
            seat = game.current_player
            if seat == me and len(game.legal_actions()) > 1:
                out = any(len(a.cards) == len(game.hands[me]) for a in game.legal_actions())
                result = ddz.solve(game, node_limit=20_000, line=False)
                reading = read_play(game)
                alike = reading is not None and 0 == reading[1][partner] < reading[0][partner]
                calls.clear()
                action = agent.act(game)
                if result.value == 1 and not out:
                    expected = "searched" if partner_plays == "rule" and alike else "trusted"
                    assert calls[:1] == [expected], (deal, len(game.history))
                    seen.append(expected)
                game.step(action)
            elif seat == partner and partner_plays == "rule":
                game.step(rule_act(game))
            else:
                game.step(choose(GreedyAgent(), game))
    assert seen.count("trusted") >= 5
    assert partner_plays == "greedy" or seen.count("searched") >= 5
