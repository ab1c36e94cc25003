"""PIMCAgent's time limit, bidding and exact solves (tests/test_search_agents.py has the
rest; tests/test_inference.py what it reads from the play)."""

from __future__ import annotations

import time

import numpy as np
import pytest

import ddz
from ddz.game import Game
from ddz.search_agents import PIMCAgent


def opening_lead() -> Game:
    """A classic deal just bid: the landlord leads 20 cards (a few hundred legal moves)."""
    game = Game(ddz.CLASSIC, seed=4)
    game.step("bid 3")
    assert game.phase == "play"
    return game


def test_a_time_limit_stops_the_whole_decision() -> None:
    """Playouts that would take seconds stop at the time limit (a behaviour bound, generous
    for a loaded machine: the limit was honoured to the tick before the playouts stopped
    too, which took the decision to seconds)."""
    game = opening_lead()
    seen = game.observation(game.current_player)
    heavy = {"worlds": 20_000, "playouts": 100_000, "work": 0, "rules": ddz.CLASSIC}
    start = time.perf_counter()
    action = PIMCAgent(1, time_limit=0.05, **heavy).act(seen)  # type: ignore[arg-type]
    spent = time.perf_counter() - start
    assert action in seen.legal_actions
    assert spent < 1.0, f"a 0.05 s decision took {spent:.2f} s"


def test_without_a_time_limit_a_seeded_decision_is_reproducible() -> None:
    game = opening_lead()
    for _ in range(6):  # a few plies in, with passes to read
        game.step(
            PIMCAgent(2, rules=ddz.CLASSIC, worlds=30).act(game.observation(game.current_player))
        )
    seen = game.observation(game.current_player)
    chosen = {str(PIMCAgent(9, rules=ddz.CLASSIC, worlds=60).act(seen)) for _ in range(3)}
    assert len(chosen) == 1


def bidding_deal(rules: ddz.Rules, hand: str) -> Game:
    """A deal where seat 0 holds ``hand`` and bids first; the rest dealt in deck order."""
    rest = list(str(rules.deck))
    for card in hand:
        rest.remove(card)
    size = len(hand)
    others = ["".join(rest[size * k : size * (k + 1)]) for k in range(rules.players - 1)]
    kitty = "".join(rest[size * (rules.players - 1) :][: rules.kitty_size])
    return Game(rules, deal=([hand, *others], kitty), first_player=0)


@pytest.mark.parametrize(
    ("rules", "strong", "weak"),
    [
        (ddz.CLASSIC, "2222AAAAKKKXD3456", "3334445667899TJQ5"),
        (ddz.TWO_PLAYER, "2222AAAAKKKXD5678", "5556667889TTJQ9TJ"),
    ],
    ids=["classic", "two-player"],
)
def test_pimc_bids_from_sampled_worlds(rules: ddz.Rules, strong: str, weak: str) -> None:
    """Known answers: two bombs, the rocket and three kings bid the most there is (bid 3,
    call); a hand without a card above Q never bids 3 (the greedy agent passes both)."""
    top = "bid 3" if rules.players == 3 else "call"
    for seed in range(2):
        agent = PIMCAgent(seed, rules=rules)
        assert str(agent.act(bidding_deal(rules, strong).observation(0))) == top
        assert str(agent.act(bidding_deal(rules, weak).observation(0))) != top


@pytest.mark.parametrize(
    ("name", "bad", "error"),
    [
        ("pass_weight", 0.0, ValueError),
        ("pass_weight", 1.5, ValueError),
        ("pass_weight", float("nan"), ValueError),
        ("greedy_weight", -0.1, ValueError),
        ("greedy_weight", "0.2", TypeError),
        ("oversample", 0, ValueError),
        ("oversample", 2.0, TypeError),
        ("bid_worlds", 0, ValueError),
        ("bid_margin", float("nan"), ValueError),
        ("bid_margin", "0.1", TypeError),
        ("bid_objective", "adp", ValueError),
        ("read_bids", 1, TypeError),
    ],
)
def test_pimc_inference_arguments_are_checked(name: str, bad: object, error: type) -> None:
    with pytest.raises(error, match=name):
        PIMCAgent(**{name: bad})  # type: ignore[arg-type]


def test_a_bid_is_worth_its_share_of_won_worlds_and_a_void_deal_half() -> None:
    payoffs = np.array([[0, 2, -6], [0, -2, 6], [1, 4, 6]], dtype=np.int64)  # worlds x bids
    wp = PIMCAgent(1, rules=ddz.CLASSIC, bid_objective="wp")
    assert wp._bid_value(payoffs).tolist() == pytest.approx([2 / 3, 2 / 3, 2 / 3])
    score = PIMCAgent(1, rules=ddz.CLASSIC)  # the default
    assert score._bid_value(payoffs).tolist() == pytest.approx(
        [1 / 3 + 1 / 3, 4 / 3 + 2 / 3, 2 + 2 / 3]
    )


def test_bid_margin_makes_passing_worth_more() -> None:
    """The same worlds valued with and without the margin: a hand that bids 3 at margin 0
    passes when passing gets 0.3 on top."""
    seen = Game(ddz.CLASSIC, seed=11, first_player=0).observation(0)
    agents = {
        m: PIMCAgent(1, rules=ddz.CLASSIC, bid_objective="wp", bid_margin=m) for m in (0, 0.3)
    }
    actions = {m: str(agent.act(seen)) for m, agent in agents.items()}
    assert actions == {0: "bid 3", 0.3: "pass"}
