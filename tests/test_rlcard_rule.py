"""RLCard's rule agent as a ddz agent (ddz.compat.rlcard_rule): the same moves as on RLCard.

Seeded deals are played twice: on RLCard 1.2.0's own engine, with its ``DouDizhuRuleAgentV1``
reading RLCard's states, and on ddz's engine under ``ddz.RLCARD``, with
:class:`RLCardRuleAgent` reading ddz's observations; a seat may be ddz's greedy agent on
both (on RLCard's engine its move comes from a ddz game kept in step). Every move of every
game and the winner must agree, the rule agent's random choices included (NumPy's global
generator seeded on RLCard's side, the agent's own on ddz's).
"""

from __future__ import annotations

import numpy as np
import pytest

import ddz
from ddz.play.agents import GreedyAgent, choose

rlcard = pytest.importorskip("rlcard")
from rlcard.games.doudizhu.utils import cards2str  # noqa: E402
from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1  # noqa: E402

from ddz.compat.rlcard_rule import RLCardRuleAgent  # noqa: E402

RANKS = "3456789TJQKA2BR"


def rlcard_text(action: object) -> str:
    cards = getattr(action, "cards", None)
    if cards is None or getattr(action, "is_pass", False):
        return "pass"
    return "".join(RANKS[rank] * count for rank, count in enumerate(cards.counts()))


def play_on_rlcard(seed: int, greedy_seat: int | None) -> tuple[list[tuple[int, str]], int, bool]:
    """One game on RLCard's engine: the trace, the winner (0 the landlord) and whether the
    rule agent drew at random."""
    env = rlcard.make("doudizhu", config={"seed": seed})
    rule = DouDizhuRuleAgentV1()
    state, player = env.reset()
    mirror = ddz_game(env)
    np.random.seed(seed)
    drawn = np.random.get_state()
    greedy = GreedyAgent()
    while not env.is_over():
        if player == greedy_seat:
            text = rlcard_text(choose(greedy, mirror))
        else:
            text = str(rule.step(state))
        mirror.step(next(a for a in mirror.legal_actions() if rlcard_text(a) == text))
        state, player = env.step(text, raw_action=True)
    drew = not np.array_equal(np.random.get_state()[1], drawn[1]) or (
        np.random.get_state()[2] != drawn[2]
    )
    return list(env.game.round.trace), env.game.winner_id, drew


def ddz_game(env: object) -> ddz.Game:
    """The deal of an RLCard game just reset, as a ddz game under ddz.RLCARD."""
    players = env.game.players  # type: ignore[attr-defined]
    kitty = env.game.round.seen_cards  # type: ignore[attr-defined]
    hands = [cards2str(player.current_hand) for player in players]
    landlord_hand = list(hands[0])
    for card in kitty:
        landlord_hand.remove(card)
    hands[0] = "".join(landlord_hand)
    game = ddz.Game(ddz.RLCARD, deal=(hands, kitty), first_player=0)
    assert game.phase == "play" and game.landlord == 0 and game.current_player == 0
    return game


def play_on_ddz(seed: int, greedy_seat: int | None, game: ddz.Game) -> list[tuple[int, str]]:
    rule = RLCardRuleAgent(seed)  # one generator for the three seats, as NumPy's global one
    greedy = GreedyAgent()
    trace = []
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        action = choose(greedy if seat == greedy_seat else rule, game)
        trace.append((seat, rlcard_text(action)))
        game.step(action)
    return trace


@pytest.mark.parametrize("greedy_seat", [None, 0, 1, 2])
def test_rule_agent_plays_rlcards_moves_on_ddzs_engine(greedy_seat: int | None) -> None:
    random_choices = 0
    for seed in range(25):
        expected, winner, drew = play_on_rlcard(seed, greedy_seat)
        env = rlcard.make("doudizhu", config={"seed": seed})
        env.reset()
        game = ddz_game(env)
        played = play_on_ddz(seed, greedy_seat, game)
        assert played == expected, (seed, greedy_seat)
        assert game.winner == winner, (seed, greedy_seat)
        random_choices += drew
    # the games cover the rule agent's random answers (pass, a bomb or the rocket)
    assert random_choices >= 3, random_choices


def test_rule_agent_refuses_what_it_cannot_play() -> None:
    agent = RLCardRuleAgent(1)
    with pytest.raises(TypeError, match="Observation"):
        agent.act(ddz.Game(ddz.RLCARD, seed=1))  # type: ignore[arg-type]
    game = ddz.Game(seed=1)  # classic rules: bidding first, then moves RLCard does not have
    assert str(agent.act(game.observation(game.current_player or 0))) == "pass"
    with pytest.raises(ValueError, match="no legal actions"):
        agent.act(game.observation(((game.current_player or 0) + 1) % 3))


def test_rule_agent_leaves_numpys_global_generator_alone() -> None:
    np.random.seed(5)
    before = np.random.get_state()[1].copy()
    game = ddz.Game(ddz.RLCARD, seed=2)
    agents = [RLCardRuleAgent(seat) for seat in range(3)]
    while not game.is_over:
        seat = game.current_player
        assert seat is not None
        game.step(choose(agents[seat], game))
    assert (np.random.get_state()[1] == before).all()
