"""RLCard's rule agent in C (ddz._core.rule, ddz.play.rule_model) against RLCard itself.

``RLCardRuleAgent`` (ddz.compat.rlcard_rule) asks RLCard 1.2.0's ``DouDizhuRuleAgentV1`` for
its move; the port must choose the same move in every position, and draw at random exactly
where RLCard's agent draws (then ``RLCardRuleAgent.choices`` is every legal action). The
positions come from seeded deals played by a mix of the rule agent, the greedy agent and
random moves (every seat, leads and answers), and from random hands dealt straight into a
lead (rockets, bombs, planes, straights). The playouts and the reading of the play that use
the port are checked against Python games played move by move.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import ddz
from ddz._core import playouts
from ddz.doudizhu.cards import Cards
from ddz.doudizhu.game import Game
from ddz.doudizhu.position import Position
from ddz.play.agents import GreedyAgent, choose
from ddz.play.inference import model_disagreements
from ddz.play.rule_model import rule_choice, rule_order
from ddz.play.search_agents import PIMCAgent

pytest.importorskip("rlcard")
from ddz.compat.rlcard_rule import RLCardRuleAgent


def same_choice(game: Game, agent: RLCardRuleAgent) -> tuple[bool, bool]:
    """(the port agrees with RLCard, RLCard draws at random) in game's position."""
    seat = game.current_player
    assert seat is not None
    seen = game.observation(seat)
    choices = agent.choices(seen)
    mine, drew = rule_choice(game)
    if drew:
        return len(choices) == len(seen.legal_actions), True
    return [mine] == choices, False


def test_the_port_chooses_rlcards_move_in_every_position() -> None:
    agent, greedy = RLCardRuleAgent(seed=1), GreedyAgent()
    rng = random.Random(5)
    checked = drawn = 0
    for deal in range(120):
        game = Game(ddz.RLCARD, seed=deal)
        style = deal % 3  # 0: rule agents, 1: a third of the moves random, 2: greedy mixed in
        while not game.is_over:
            if len(game.legal_actions()) > 1:
                agrees, drew = same_choice(game, agent)
                assert agrees, (deal, len(game.history))
                checked += 1
                drawn += drew
            seat = game.current_player
            if style == 1 and rng.random() < 0.3:
                game.step(rng.choice(game.legal_actions()))
            elif style == 2 and seat == deal % 3:
                game.step(choose(greedy, game))
            else:
                game.step(agent.act(game.observation(seat)))
    assert checked > 2000 and 20 < drawn < checked // 5


def test_the_port_leads_the_group_of_its_lowest_card() -> None:
    agent = RLCardRuleAgent(seed=1)
    rng = random.Random(11)
    deck = [rank for rank in range(13) for _ in range(4)] + [13, 14]
    kinds = set()
    text = "3456789TJQKA2XD"
    crafted = ["XD", "2XD", "3333XD", "333444555K", "34567789TT", "3344556677", "22"]
    for trial in range(1500):
        cards = rng.sample(deck, 54)
        if trial < len(crafted):  # the lowest card in the rocket, a bomb, a plane, ...
            mine = [text.index(card) for card in crafted[trial]]
            rest = list(deck)
            for rank in mine:
                rest.remove(rank)
            rng.shuffle(rest)
            cards = mine + rest
        # hands rich in groups: sometimes sorted runs of the deck (planes, bombs, straights)
        if trial >= len(crafted) and rng.random() < 0.5:
            start = rng.randrange(34)
            cards = sorted(cards[:start]) + cards[start:]
            cards = cards[start : start + 20] + cards[:start] + cards[start + 20 :]
        size = len(crafted[trial]) if trial < len(crafted) else rng.randrange(1, 21)
        hands = [
            "".join(text[r] for r in sorted(cards[:size])),
            "".join(text[r] for r in sorted(cards[size : size + 17])),
            "".join(text[r] for r in sorted(cards[size + 17 : size + 34])),
        ]
        game = Game.from_position(ddz.RLCARD, hands, landlord=0, to_act=0)
        agrees, drew = same_choice(game, agent)
        assert agrees and not drew, hands[0]
        kinds.add(rule_choice(game)[0].type.name)
    assert {"ROCKET", "BOMB", "TRIO", "AIRPLANE", "STRAIGHT", "PAIR", "SINGLE"} <= kinds


def played_game(seed: int) -> Game:
    """A deal played by three rule agents to its end."""
    agent = RLCardRuleAgent(seed=seed)
    game = Game(ddz.RLCARD, seed=seed)
    while not game.is_over:
        game.step(agent.act(game.observation(game.current_player)))
    return game


def world_game(game: Game, hands: np.ndarray) -> Game:
    """game's play replayed from its start with the hands ``hands`` (the hands now) hold
    now: RLCard's agent reads the whole trace, which a game from a position lacks."""
    seen = game.observation(0)
    plays = [entry for entry in game.history if entry.phase == "play"]
    played = [0] * 3
    for entry in plays:
        played[entry.player] += entry.action.cards.mask
    start = [Cards.from_mask(int(hands[p]) + played[p]) for p in range(3)]
    assert seen.landlord is not None
    replay = Position(
        game.rules,
        start,
        landlord=seen.landlord,
        to_act=plays[0].player,
        kitty=seen.kitty,
        bid=max(1, seen.bid),
        grabs=seen.grabs,
    ).game()
    for entry in plays:
        replay.step(entry.action)
    return replay


def test_rule_playouts_play_as_the_python_agents() -> None:
    # the same payoffs as games played move by move in Python: the rule seats by RLCard's
    # agent (through RLCardRuleAgent), the greedy seat by GreedyAgent; worlds where RLCard's
    # agent would draw at random are left out (their draw comes from another generator)
    agent, greedy = RLCardRuleAgent(seed=1), GreedyAgent()
    compared = 0
    for seed in range(6):
        game = Game(ddz.RLCARD, seed=seed)
        for _ in range(4 + seed):
            game.step(agent.act(game.observation(game.current_player)))
        seat = game.current_player
        assert seat is not None
        worlds = ddz.sample_worlds(game, seat, 8, seed=seed)
        legal = game.legal_actions()
        codes = np.array([action.code for action in legal], dtype=np.uint64)
        out = np.empty((len(worlds), len(legal)), dtype=np.int64)
        models = ["greedy" if s == seat else "rlcard-rule" for s in range(3)]
        played, _ = playouts.policy_playouts(
            game.rules,
            game.state_bytes(),
            worlds.hands,
            worlds.kitty,
            codes,
            seat,
            out,
            models,
            rule_order(),
        )
        assert played == len(worlds)
        for i in range(len(worlds)):
            for j, action in enumerate(legal):
                child = world_game(game, worlds.hands[i])
                child.step(action)
                drew = False
                while not child.is_over:
                    now = child.current_player
                    if now == seat:
                        child.step(choose(greedy, child))
                        continue
                    options = agent.choices(child.observation(now))
                    drew = drew or len(options) > 1
                    child.step(options[0])
                if not drew:
                    assert out[i, j] == child.payoffs()[seat]
                    compared += 1
    assert compared > 100


def test_greedy_policies_are_the_greedy_playouts() -> None:
    game = played_game(3)
    while len(game.history) > 12:
        game.undo()
    seat = game.current_player
    assert seat is not None
    worlds = ddz.sample_worlds(game, seat, 10, seed=2)
    codes = np.array([a.code for a in game.legal_actions()], dtype=np.uint64)
    args = (game.rules, game.state_bytes(), worlds.hands, worlds.kitty, codes, seat)
    greedy = np.empty((10, len(codes)), dtype=np.int64)
    mixed = np.empty_like(greedy)
    assert playouts.greedy_playouts(*args, greedy, 7) == playouts.policy_playouts(
        *args, mixed, ["greedy"] * 3, None, 7
    )
    assert (greedy == mixed).all()


def test_the_rule_reading_finds_no_disagreement_in_the_true_world() -> None:
    for seed in range(8):
        game = played_game(seed)
        while len(game.history) > 8 + seed:
            game.undo()
        seat = game.current_player
        assert seat is not None
        seen = game.observation(seat)
        worlds = ddz.sample_worlds(seen, n=30, seed=seed, rules=game.rules)
        true = np.array([[card.mask for card in game.hands]], dtype=np.uint64)
        hands = np.concatenate([true, worlds.hands])
        rule = model_disagreements(seen, game.rules, hands, ["rlcard-rule"] * 3)
        greedy = model_disagreements(seen, game.rules, hands, ["greedy"] * 3)
        assert rule is not None and greedy is not None
        assert (rule[0] == 0).all()  # the rule agents' own play, draws included
        assert (rule >= -1).all() and (rule[1:] >= 0).sum() > 0


def test_policies_are_checked() -> None:
    game = played_game(1)
    while len(game.history) > 5:
        game.undo()
    seat = game.current_player
    assert seat is not None
    worlds = ddz.sample_worlds(game, seat, 2, seed=1)
    codes = np.array([game.legal_actions()[0].code], dtype=np.uint64)
    out = np.empty((2, 1), dtype=np.int64)
    args = (game.rules, game.state_bytes(), worlds.hands, worlds.kitty, codes, seat, out)
    with pytest.raises(ValueError, match="no playout policy"):
        playouts.policy_playouts(*args, ["greedy", "smart", "greedy"], rule_order())
    with pytest.raises(ValueError, match="one policy a seat"):
        playouts.policy_playouts(*args, ["greedy"], rule_order())
    with pytest.raises(ValueError, match="order"):
        playouts.policy_playouts(*args, ["rlcard-rule"] * 3, None)
    with pytest.raises(ValueError, match="ascending"):
        playouts.RuleOrder(np.array([2, 1], dtype=np.uint64), np.zeros(2, dtype=np.int32))
    two = ddz.Game(ddz.TWO_PLAYER, seed=1)
    with pytest.raises(ValueError, match="three seats"):
        rule_choice(two)
    with pytest.raises(ValueError, match="opponent"):
        PIMCAgent(opponent="smart")
    with pytest.raises(ValueError, match="three seats"):
        PIMCAgent(1, rules=two.rules, opponent="rlcard-rule").act(
            two.observation(two.current_player)
        )


def test_pimc_with_the_rule_model_plays_reproducibly() -> None:
    rule = RLCardRuleAgent(seed=2)
    for opponent in ("rlcard-rule", "auto"):
        moves = []
        for _ in range(2):
            agent = PIMCAgent(4, rules=ddz.RLCARD, opponent=opponent, worlds=30, playouts=200)
            game = Game(ddz.RLCARD, seed=4)
            while not game.is_over:
                seat = game.current_player
                seen = game.observation(seat)
                action = agent.act(seen) if seat == game.landlord else rule.act(seen)
                assert action in seen.legal_actions
                game.step(action)
            moves.append([entry.action.code for entry in game.history])
        assert moves[0] == moves[1]


def test_the_models_of_the_other_seats() -> None:
    game = played_game(5)
    while len(game.history) > 9:
        game.undo()
    seat = game.current_player
    assert seat is not None and game.landlord is not None
    seen = game.observation(seat)
    rules = game.rules
    pool = ddz.sample_worlds(seen, n=40, seed=1, rules=rules)
    rule = model_disagreements(seen, rules, pool.hands, ["rlcard-rule"] * 3)
    greedy = model_disagreements(seen, rules, pool.hands, ["greedy"] * 3)
    assert rule is not None and greedy is not None
    plain = PIMCAgent(rules=rules, opponent="greedy")
    assert plain._models(seen, rules, rule) == ["greedy"] * 3
    modelled = PIMCAgent(rules=rules, opponent="rlcard-rule")._models(seen, rules, rule)
    assert modelled[seat] == "greedy"
    for other in range(3):
        if other != seat and (other == game.landlord) != (seat == game.landlord):
            assert modelled[other] == "rlcard-rule"
    # a partner that played unlike the rule agent in every world is played greedy
    rule[:, :] = 1
    farmer = next(s for s in range(3) if s != game.landlord)
    partner = 3 - farmer - game.landlord
    seen = game.observation(farmer)
    models = PIMCAgent(rules=rules, opponent="rlcard-rule")._models(seen, rules, rule)
    assert models[partner] == "greedy" and models[game.landlord] == "rlcard-rule"


def shares(models: list[list[str]], seat: int) -> float:
    """The share of worlds playing ``seat`` as the rule agent."""
    return sum(world[seat] == "rlcard-rule" for world in models) / len(models)


def test_auto_plays_an_unread_seat_as_both_models_and_a_read_one_as_its_own() -> None:
    # the landlord's first lead: nothing read, each other seat the rule agent in half the
    # worlds (rule_prior), independently, reproducibly; its own seat greedy in every one
    game = Game(ddz.RLCARD, seed=3)
    seat = game.current_player
    assert seat is not None
    seen = game.observation(seat)
    others = [s for s in range(3) if s != seat]
    for prior in (0.5, 0.3):
        agent = PIMCAgent(rules=ddz.RLCARD, rule_prior=prior)
        worlds, models = agent._sample_models(seen, ddz.RLCARD, 11)
        assert len(worlds) == len(models) == 100
        assert all(world[seat] == "greedy" for world in models)
        for other in others:
            assert abs(shares(models, other) - prior) <= 0.01
        both = sum(all(world[s] == "rlcard-rule" for s in others) for world in models)
        assert 0.5 * prior * prior <= both / 100 <= prior * (1 + prior) / 2
        again = PIMCAgent(rules=ddz.RLCARD, rule_prior=prior)._sample_models(seen, ddz.RLCARD, 11)
        assert again[1] == models and (again[0].hands == worlds.hands).all()
    other = PIMCAgent(rules=ddz.RLCARD)._sample_models(seen, ddz.RLCARD, 12)[1]
    assert other != PIMCAgent(rules=ddz.RLCARD)._sample_models(seen, ddz.RLCARD, 11)[1]
    # later in a deal: a seat whose play only one model explains in the sampled worlds is
    # played as that model in (about) every world, as it exactly with the other's weight 0
    for by_rule in (True, False):
        rules = ddz.RLCARD
        if by_rule:
            game = played_game(5)
        else:
            game = Game(rules, seed=5)
            while not game.is_over:
                game.step(GreedyAgent().act(game.observation(game.current_player)))
        while len(game.history) > 15:
            game.undo()
        seat = game.current_player
        assert seat is not None
        seen = game.observation(seat)
        model, unlike = ("rlcard-rule", "greedy") if by_rule else ("greedy", "rlcard-rule")
        for weights in ({}, {"greedy_weight": 0.0} if by_rule else {"rule_weight": 0.0}):
            agent = PIMCAgent(rules=rules, **weights)  # type: ignore[arg-type]
            worlds, models = agent._sample_models(seen, rules, 1)
            counts = {
                name: model_disagreements(seen, rules, worlds.hands, [name] * 3)
                for name in ("greedy", "rlcard-rule")
            }
            fits, misfits = counts[model], counts[unlike]
            assert fits is not None and misfits is not None
            told = [s for s in range(3) if s != seat and misfits[:, s].min() >= 1]
            assert told  # the deal is one where the play tells them apart
            for other in told:
                assert (fits[:, other] == 0).any()
                if weights:
                    # where the other model fails, the seat is this one's in every world
                    unexplained = misfits[:, other] > 0
                    got = np.array([world[other] == model for world in models])
                    assert unexplained.any() and got[unexplained].all()
                else:
                    share = shares(models, other)
                    assert (share if by_rule else 1 - share) >= 0.9


def test_solves_correct_the_playouts_only_where_their_perfect_players_are_not_modelled() -> None:
    trusted = PIMCAgent._trusted  # (a proved loss, a proved win) taken over a playout
    assert trusted(["greedy"] * 3, 0, 0) == (True, True)
    assert trusted(["greedy", "rlcard-rule", "rlcard-rule"], 0, 0) == (False, True)
    assert trusted(["rlcard-rule", "greedy", "greedy"], 1, 0) == (False, True)
    assert trusted(["greedy", "greedy", "rlcard-rule"], 1, 0) == (True, False)
    assert trusted(["rlcard-rule", "greedy", "rlcard-rule"], 1, 0) == (False, False)


def test_among_kickers_of_equal_rank_the_port_takes_rlcards_first() -> None:
    # answers to a trio or plane with kickers: RLCard's list of them is not ddz's order
    # (its single wings put the jokers first), and the port must follow RLCard's list
    agent = RLCardRuleAgent(seed=1)
    rng = random.Random(3)
    text = "3456789TJQKA2XD"
    deck = [rank for rank in range(13) for _ in range(4)] + [13, 14]
    leads = {
        "AIRPLANE_SINGLES": "3334442X",
        "TRIO_SINGLE": "3338",
        "FOUR_TWO_SINGLES": "333357",
        "AIRPLANE_PAIRS": "3334445566",
    }
    compared = unlike_ddz = 0
    for trial in range(600):
        kind, lead = list(leads.items())[trial % 4]
        rest = list(deck)
        for card in lead:
            rest.remove(text.index(card))
        rng.shuffle(rest)
        hands = [
            lead + "".join(text[rank] for rank in rest[34:36]),
            "".join(text[rank] for rank in sorted(rest[:17])),
            "".join(text[rank] for rank in sorted(rest[17:34])),
        ]
        game = Game.from_position(ddz.RLCARD, hands, landlord=0, to_act=0)
        mask = Cards.parse(lead).mask
        game.step(
            next(a for a in game.legal_actions() if a.cards.mask == mask and a.type.name == kind)
        )
        agrees, drew = same_choice(game, agent)
        assert agrees, hands
        compared += not drew
        table = game.observation(1).table
        assert table is not None
        same = [a for a in game.legal_actions() if a.type == table.type]
        low = min((a.code >> 56) & 15 for a in same) if same else 0
        tied = [a for a in same if (a.code >> 56) & 15 == low]
        unlike_ddz += not drew and len(tied) > 1 and rule_choice(game)[0] != tied[0]
    assert compared > 100 and unlike_ddz > 0


def test_pimc_with_the_rule_model_goes_out_when_it_can() -> None:
    game = Game.from_position(ddz.RLCARD, ["33", "4567", "89TJQ"], landlord=0, to_act=0)
    for opponent in ("rlcard-rule", "auto"):
        agent = PIMCAgent(1, rules=ddz.RLCARD, opponent=opponent)
        assert str(agent.act(game.observation(0))) == "33"


def test_auto_reads_two_seats_through_the_greedy_agent() -> None:
    game = ddz.Game(ddz.TWO_PLAYER, seed=3)
    while game.phase == "bidding":
        game.step(choose(GreedyAgent(), game))
    seat = game.current_player
    assert seat is not None
    auto = PIMCAgent(2, rules=game.rules, opponent="auto", worlds=20)
    plain = PIMCAgent(2, rules=game.rules, worlds=20, opponent="greedy")
    assert auto.act(game.observation(seat)) == plain.act(game.observation(seat))


def test_worlds_of_different_models_are_played_each_as_its_own() -> None:
    # each world's row is the playout of that world under its own models: the worlds of the
    # first assignment as one call on them alone (the same seed), the greedy ones as a
    # greedy call (the greedy agent draws nothing)
    game = Game(ddz.RLCARD, seed=3)
    seat = game.current_player
    assert seat is not None
    seen = game.observation(seat)
    worlds = ddz.sample_worlds(seen, n=24, seed=2, rules=ddz.RLCARD)
    ruled = ["greedy" if s == seat else "rlcard-rule" for s in range(3)]
    models = [ruled if i % 3 == 0 else ["greedy"] * 3 for i in range(24)]
    legal = list(seen.legal_actions)[:12]
    codes = np.array([action.code for action in legal], dtype=np.uint64)
    agent = PIMCAgent(rules=ddz.RLCARD)
    state = worlds.game(0).state_bytes()
    payoffs = agent._play(ddz.RLCARD, state, worlds, 24, codes, seat, 77, None, models)
    assert payoffs.shape == (24, len(legal))
    for policies, rows in ((ruled, list(range(0, 24, 3))), (["greedy"] * 3, None)):
        index = np.array(rows if rows else [i for i in range(24) if i % 3], dtype=np.intp)
        alone = np.empty((len(index), len(legal)), dtype=np.int64)
        playouts.policy_playouts(
            ddz.RLCARD,
            state,
            np.ascontiguousarray(worlds.hands[index]),
            np.ascontiguousarray(worlds.kitty[index]),
            codes,
            seat,
            alone,
            policies,
            rule_order(),
            77,
        )
        assert (payoffs[index] == alone).all()
    # the models matter in these worlds: played all greedy, some rows differ
    greedy = agent._play(ddz.RLCARD, state, worlds, 24, codes, seat, 77, None, None)
    assert (greedy[::3] != payoffs[::3]).any() and (greedy[1::3] == payoffs[1::3]).all()
