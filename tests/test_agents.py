"""Agents: legal actions only, no peeking, and the greedy agent's rules of thumb."""

from __future__ import annotations

import random

import pytest

import ddz
import ddz.arena
from ddz import Bidding, Cards, Game
from ddz.agents import AGENTS, Agent, GreedyAgent, RandomAgent, choose, make_agent

DECK = Cards("3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222XD")

RULE_SETS = {
    "classic": ddz.CLASSIC,
    "call-grab": ddz.CLASSIC.replace(bidding=Bidding.CALL_GRAB),
    "douzero": ddz.DOUZERO,
    "two-player": ddz.TWO_PLAYER,
    "uno-landlord": ddz.UNO_LANDLORD,
}


GAMES = 300  # per rule set


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_agents_only_take_legal_actions_and_change_nothing(name: str) -> None:
    rules = RULE_SETS[name]
    kinds = ["greedy", "random", "greedy"][: rules.players]
    games = 0
    for seed in range(GAMES):
        # Rotate the kinds over the seats so each agent meets every position.
        names = kinds[seed % rules.players :] + kinds[: seed % rules.players]
        agents = [make_agent(kind, seed * 7 + seat) for seat, kind in enumerate(names)]
        game = Game(rules, seed=seed)
        while not game.is_over:
            seat = game.current_player
            assert seat is not None
            before = game.state_bytes()
            action = choose(agents[seat], game)
            assert game.state_bytes() == before, "act() must not change the game"
            assert action in game.legal_actions(), (game.record(), str(action))
            game.step(action)
        games += 1
        assert game.is_void or sum(game.payoffs()) == 0
    assert games == GAMES


def test_every_registered_agent_is_an_agent() -> None:
    for name, factory in AGENTS.items():
        assert isinstance(factory(1), Agent), name
        assert isinstance(make_agent(name, 1), Agent), name
    with pytest.raises(ValueError, match="no agent 'nobody'; the agents are: random, greedy"):
        make_agent("nobody")


def test_the_random_agent_is_seeded() -> None:
    def actions(seed: int) -> list[str]:
        agent, game, taken = RandomAgent(seed), Game(seed=3), []
        while not game.is_over:
            action = choose(agent, game)  # one agent for every seat
            taken.append(str(action))
            game.step(action)
        return taken

    assert actions(1) == actions(1)
    assert actions(1) != actions(2)


def test_the_greedy_agent_is_deterministic() -> None:
    def record(seed: int) -> str:
        game = Game(seed=seed)
        agents = [GreedyAgent(), GreedyAgent(99), GreedyAgent()]
        while not game.is_over:
            game.step(choose(agents[game.current_player], game))  # type: ignore[index]
        return game.record()

    assert record(5) == record(5)


def _reshuffled_unseen(game: Game, seat: int, rng: random.Random) -> Game:
    """The same game up to now, from a deal in which the cards ``seat`` cannot see (the other
    hands' unplayed cards) are dealt differently among the other seats, with the same counts.
    ``seat`` must be the landlord (the kitty, which everyone saw, stays where it is)."""
    history = game.history
    played = [Cards() for _ in game.hands]
    for record in history:
        if isinstance(record.action, ddz.Move):
            played[record.player] = played[record.player] + record.action.cards
    others = [other for other in range(len(game.hands)) if other != seat]
    unseen = list("".join(str(game.hands[other]) for other in others))
    rng.shuffle(unseen)
    hands = list(game.deal[0])
    start = 0
    for other in others:
        size = len(game.hands[other])
        hands[other] = played[other] + "".join(unseen[start : start + size])
        start += size
    again = Game(
        game.rules, seed=game.seed, deal=(hands, game.deal[1]), first_player=game.first_player
    )
    for record in history:
        again.step(record.action)
    return again


def test_agents_act_on_what_their_seat_may_know() -> None:
    """Deal the cards the landlord cannot see differently: it must act the same."""
    rng = random.Random(2024)
    checked = 0
    for seed in range(60):
        game = Game(seed=seed)
        agents = [GreedyAgent(), GreedyAgent(), GreedyAgent()]
        stop = rng.randrange(4, 40)
        while not game.is_over and len(game.history) < stop:
            game.step(choose(agents[game.current_player], game))  # type: ignore[index]
        seat = game.current_player
        if game.is_over or seat != game.landlord or seat is None:
            continue
        other = _reshuffled_unseen(game, seat, rng)
        assert other.hands[seat] == game.hands[seat]
        assert other.observation(seat).card_counts == game.observation(seat).card_counts
        assert str(choose(GreedyAgent(), other)) == str(choose(GreedyAgent(), game))
        assert str(choose(RandomAgent(seed), other)) == str(choose(RandomAgent(seed), game))
        checked += other.hands != game.hands
    assert checked >= 10


# --- the greedy agent's rules of thumb, on fixed deals ----------------------------------------


def _position(landlord20: str, kitty: str, farmer: str, actions: list[str]) -> Game:
    """Seat 0 is dealt ``landlord20`` less the kitty and bids 3; seat 1 gets ``farmer``, seat
    2 the rest of the deck; then ``actions`` are taken."""
    rest = DECK - landlord20 - farmer
    hands = [str(Cards(landlord20) - kitty), farmer, str(rest)]
    game = Game(deal=(hands, kitty), first_player=0)
    for action in ["bid 3", *actions]:
        game.step(action)
    return game


LANDLORD = "3356789TJQKA6789TJ22"  # two straights, 33 and 22
FARMER = "3444456789TJQKA2X"  # a bomb of 4s and singles


def test_greedy_keeps_its_bomb_while_no_opponent_is_close() -> None:
    game = _position(LANDLORD, "J22", FARMER, ["33"])
    assert str(game.hands[1]) == "3444456789TJQKA2X"
    assert str(choose(GreedyAgent(), game)) == "pass"  # 44 would break the bomb


def test_greedy_bombs_an_opponent_about_to_go_out() -> None:
    straights = ["56789TJQKA", "pass", "pass", "6789TJ", "pass", "pass"]
    game = _position(LANDLORD, "J22", FARMER, straights)
    agent = GreedyAgent()
    assert str(choose(agent, game)) == "33"  # the landlord leads its low pair, keeping the 2s
    game.step("33")
    assert len(game.hands[0]) == 2
    assert str(choose(agent, game)) == "4444"  # the landlord holds two cards: bomb now
    game.step("pass")
    game.step("pass")
    assert str(choose(agent, game)) == "22"  # the landlord goes out


def test_greedy_leads_the_longest_run_of_low_cards() -> None:
    game = _position(LANDLORD, "J22", FARMER, [])
    assert str(game.hands[0]) == "33566778899TTJJQKA22"
    assert str(choose(GreedyAgent(), game)) == "66778899TTJJ"  # 12 cards, none above a jack


def test_a_farmer_lets_the_partner_win_the_trick_unless_it_is_cheap() -> None:
    agent = GreedyAgent()
    # Seat 2 (a farmer) holds A, 2 and the big joker.
    over_partner = _position(LANDLORD, "J22", FARMER, ["5", "K"])
    assert "A" in over_partner.hands[2]
    assert str(choose(agent, over_partner)) == "pass"
    over_landlord = _position(LANDLORD, "J22", FARMER, ["K", "pass"])
    assert str(choose(agent, over_landlord)) == "2"  # rather than break its pair of aces
    cheap = _position(LANDLORD, "J22", FARMER, ["3", "4"])
    assert str(choose(agent, cheap)) == "6"  # a low card, breaking no pair


@pytest.mark.parametrize(
    ("hand", "bid"),
    [
        ("33445566789TJQKAA", "pass"),  # nothing that wins a trick
        ("3344556678TJQKA2X", "bid 2"),  # a 2 and the small joker: 5 points
        ("3456789TJQKA2222D", "bid 3"),  # a bomb of 2s and the big joker
    ],
)
def test_greedy_bids_by_hand_strength(hand: str, bid: str) -> None:
    rest = list(str(DECK - hand))
    game = Game(
        deal=([hand, "".join(rest[:17]), "".join(rest[17:34])], "".join(rest[34:])),
        first_player=0,
    )
    assert str(choose(GreedyAgent(), game)) == bid


# --- what an agent is shown ----------------------------------------------------------------


def test_an_ordinary_agent_is_shown_its_seats_observation() -> None:
    shown: list[object] = []

    class Recorder:
        def act(self, observation: ddz.Observation) -> ddz.game.Action:
            shown.append(observation)
            return observation.legal_actions[0]

    game = Game(seed=11)
    for _ in range(30):
        if game.is_over:
            break
        seat = game.current_player
        action = choose(Recorder(), game)
        seen = shown[-1]
        assert isinstance(seen, ddz.Observation)
        assert seen == game.observation(seat)  # type: ignore[arg-type]
        assert seen.legal_actions == tuple(game.legal_actions())
        assert not hasattr(seen, "hands")  # nothing of the other hands
        game.step(action)
    others = [seat for seat in range(3) if seat != game.current_player]
    assert all(game.observation(seat).legal_actions == () for seat in others)


def test_a_perfect_information_agent_is_shown_the_game() -> None:
    class Oracle:
        perfect_information = True

        def act(self, game: Game) -> ddz.game.Action:
            assert isinstance(game, Game)
            return game.legal_actions()[-1]

    game = Game(seed=7)
    assert isinstance(Oracle(), ddz.agents.PerfectInformationAgent)
    assert str(choose(Oracle(), game)) == "bid 3"
    result = ddz.arena.play_game(Game(seed=3), [Oracle(), RandomAgent(1), GreedyAgent()])
    assert result[0].is_over
    finished = result[0]
    with pytest.raises(ValueError, match="game is over"):
        choose(Oracle(), finished)


def test_an_agent_given_a_game_reads_its_seat_to_act() -> None:
    """Earlier versions took a game: an ordinary agent given one reads the observation of its
    seat to act (before, GreedyAgent().act(game) failed deep inside with AttributeError);
    anything else is a TypeError naming what to pass."""
    from ddz.agents import GreedyAgent, RandomAgent

    game = ddz.Game(seed=7)
    seen = game.observation(game.current_player)  # type: ignore[arg-type]
    assert GreedyAgent().act(game) == GreedyAgent().act(seen)
    assert RandomAgent(seed=1).act(game) == RandomAgent(seed=1).act(seen)
    for agent in (GreedyAgent(), RandomAgent(seed=1)):
        with pytest.raises(TypeError, match=r"game.observation\(seat\)"):
            agent.act("33")  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [True, "2", 2.5, float("nan"), b"1"])
def test_agent_seeds_are_integers(bad: object) -> None:
    from ddz import uno
    from ddz.search_agents import PIMCAgent, SolverAgent

    for make in (RandomAgent, GreedyAgent, PIMCAgent, SolverAgent, uno.RandomAgent):
        with pytest.raises(TypeError, match="seed must be an integer"):
            make(bad)  # type: ignore[arg-type]


def test_agent_seeds_take_numpy_integers_and_none() -> None:
    import numpy as np

    from ddz import uno

    seen = Game(seed=7).observation(2)
    assert str(RandomAgent(np.int64(3)).act(seen)) == str(RandomAgent(3).act(seen))
    for make in (RandomAgent, GreedyAgent, uno.RandomAgent):
        make(None)
        make(2**70)  # any integer seeds Python's generator
