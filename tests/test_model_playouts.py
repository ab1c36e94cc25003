"""SolverAgent told whom it plays against (``opponent=``): playouts with the modelled seats
played as the model plays them (ddz.play.model_playouts), a partner taken for the model
only while it plays like it, and the default agent unchanged."""

from __future__ import annotations

import pytest

import ddz
from ddz.play.agents import GreedyAgent, choose
from ddz.play.arena import play_game
from ddz.play.model_playouts import model_playouts, plays_like
from ddz.play.open_playouts import open_playouts
from ddz.search_agents import SolverAgent

UNSOLVED = [
    "TT/JQKKA/7TA landlord=2 turn=2 played=3344556778JQQA2/455667999T22/"
    "33468889JJQKKA2XD kitty=6KA bid=3 bombs=1 moves=10,14 rules=classic",
    "4AA22/KK/599 landlord=1 turn=0 table=TT@2 played=355667799JKK/344566888TTJJJQA2D/"
    "334778TTQQQA2X kitty=58K bid=2 moves=9,13 rules=classic",
]


@pytest.mark.parametrize("text", UNSOLVED)
def test_greedy_as_the_model_plays_the_greedy_playouts(text: str) -> None:
    # the Python greedy agent chooses what the C one does: modelling every other seat by it
    # must give the C playouts' results move for move
    game = ddz.Position.parse(text).game()
    me = game.current_player
    legal = game.legal_actions()
    others = {seat for seat in range(3) if seat != me}
    won, points = model_playouts(game, legal, GreedyAgent(), others, playouts=1, epsilon=0, seed=3)
    c_won, c_points = open_playouts(game, legal, playouts=1, epsilon=0, seed=3)
    assert won.tolist() == c_won.tolist() and points.tolist() == c_points.tolist()


def test_model_playouts_are_seeded() -> None:
    game = ddz.Position.parse(UNSOLVED[0]).game()
    legal = game.legal_actions()
    runs = [
        model_playouts(game, legal, GreedyAgent(), {0, 1}, playouts=6, epsilon=400, seed=seed)[0]
        for seed in (5, 5, 6)
    ]
    assert runs[0].tolist() == runs[1].tolist()
    assert all(((share * 6) % 1 == 0).all() for share in runs)


rlcard = pytest.importorskip("rlcard")
from ddz.compat.rlcard_rule import RLCardRuleAgent  # noqa: E402


def rule_game(seed: int, rule_seat: int) -> ddz.Game:
    """A deal under RLCard's rules: ``rule_seat`` played by the rule agent, the others greedy."""
    game = ddz.Game(ddz.RLCARD, seed=seed)
    agents = [RLCardRuleAgent(seed) if s == rule_seat else GreedyAgent() for s in range(3)]
    while not game.is_over:
        game.step(choose(agents[game.current_player], game))
    return game


def test_a_seat_plays_like_the_model_exactly_when_it_is_the_model() -> None:
    differs = 0
    for seed in range(6):
        game = rule_game(seed, rule_seat=1)
        plays = sum(entry.phase == "play" for entry in game.history)
        assert plays_like(game, 1, RLCardRuleAgent(0)) == (True, plays)
        alike, checked = plays_like(game, 2, RLCardRuleAgent(0))
        assert checked == plays
        differs += not alike
        # checked move by move: the moves before ``start`` are not asked again
        assert plays_like(game, 2, RLCardRuleAgent(0), start=plays) == (True, plays)
    assert differs >= 3  # the greedy agent is not RLCard's rule agent


def last_turn(game: ddz.Game, seat: int) -> ddz.Game:
    """``game`` taken back to ``seat``'s last turn of the play."""
    back = game.copy()
    back.undo()
    while back.current_player != seat or back.phase != "play":
        back.undo()
    return back


def test_a_partner_is_modelled_while_it_plays_like_the_model() -> None:
    checked = 0
    for seed in range(8):
        landlord = ddz.Game(ddz.RLCARD, seed=seed).landlord
        assert landlord is not None
        farmer, partner = (landlord + 1) % 3, (landlord + 2) % 3
        beside_rule = last_turn(rule_game(seed, rule_seat=partner), farmer)
        assert SolverAgent(opponent=RLCardRuleAgent)._partner_modelled(beside_rule)
        beside_greedy = last_turn(rule_game(seed, rule_seat=landlord), farmer)
        alike, _ = plays_like(beside_greedy, partner, RLCardRuleAgent(0))
        agent = SolverAgent(opponent=RLCardRuleAgent)
        assert agent._partner_modelled(beside_greedy) == alike
        checked += not alike
        # without a model, and for the landlord, no partner is modelled
        assert not SolverAgent()._partner_modelled(beside_rule)
        assert not agent._partner_modelled(last_turn(beside_rule, landlord))
    assert checked >= 4


def test_the_default_solver_agent_has_no_model() -> None:
    agent = SolverAgent()
    assert agent.opponent is None and agent._model is None


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"opponent": "rlcard-rule"}, TypeError),
        ({"opponent": lambda seed: SolverAgent(seed)}, TypeError),
        ({"opponent": RLCardRuleAgent, "candidates": 0}, ValueError),
        ({"opponent": RLCardRuleAgent, "model_playouts": 0}, ValueError),
        ({"opponent": RLCardRuleAgent, "model_epsilon": 1001}, ValueError),
    ],
)
def test_the_model_arguments_are_checked(kwargs: dict[str, object], error: type) -> None:
    with pytest.raises(error):
        SolverAgent(**kwargs)  # type: ignore[arg-type]


def test_the_model_wins_a_deal_the_plain_agent_loses() -> None:
    # docs/agents.md's example: deal 1 under RLCard's rules, the agent as landlord against
    # two rule agents; the plain agent loses it, told whom it plays it wins
    def landlord_wins(agent: SolverAgent) -> bool:
        deal = ddz.Game(ddz.RLCARD, seed=1)
        players = [agent if s == deal.landlord else RLCardRuleAgent(s) for s in range(3)]
        game, _ = play_game(deal, players)
        # and no sure win passed up: where the landlord could go out, it did
        plays = [entry for entry in game.history if entry.phase == "play"]
        walk = game.copy()
        for _ in plays:
            walk.undo()
        for entry in plays:
            if entry.player == deal.landlord:
                hand = len(walk.hands[entry.player])
                out = [a for a in walk.legal_actions() if len(getattr(a, "cards", "")) == hand]
                assert not out or entry.action in out
            walk.push(entry.action)
        return game.winner == deal.landlord

    assert not landlord_wins(SolverAgent(node_limit=20_000))
    assert landlord_wins(SolverAgent(opponent=RLCardRuleAgent, node_limit=20_000))


def test_the_arena_names_the_solver_told_its_opponents(capsys: pytest.CaptureFixture[str]) -> None:
    from ddz.cli.main import main

    assert main(["arena", "solver:clever", "--deals", "1"]) == 2
    assert "no agent 'solver:clever'" in capsys.readouterr().err
    assert main(["arena", "solver:rlcard-rule", "--rules", "douzero", "--deals", "1"]) == 2
    assert "--rules rlcard" in capsys.readouterr().err
    assert main(["arena", "solver:solver", "--against", "greedy", "--deals", "1"]) == 2
    assert "cannot model a seat" in capsys.readouterr().err
    # a model that needs the rules (PIMCAgent) is given them, as choose gives them
    command = ["arena", "solver:pimc", "--against", "greedy", "--deals", "1", "--no-mixed"]
    assert main([*command, "--quiet"]) == 0
    capsys.readouterr()
    command = ["arena", "solver:greedy", "--against", "greedy", "--deals", "1", "--no-mixed"]
    assert main([*command, "--quiet"]) == 0
    assert capsys.readouterr().out.splitlines()[2].startswith("solver:greedy ")
