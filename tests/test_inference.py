"""What PIMC reads from the play (ddz.play.inference): the passes that are evidence, the
weights they give sampled worlds (against a plain reference), the resampling, and the agent's
worlds drawn with them."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

import ddz
from ddz._core.moves import Move, legal_moves
from ddz.agents import GreedyAgent, choose
from ddz.game import Game
from ddz.play.agents import _strength
from ddz.play.inference import (
    Pass,
    _strengths,
    assign_models,
    bid_disagreements,
    greedy_disagreements,
    greedy_weights,
    model_posterior,
    pass_weights,
    passes_over_beatable,
    resample,
)
from ddz.search_agents import PIMCAgent

PASS_WEIGHT = 0.25


def beats(move: Move, table: Move, hand: ddz.Cards) -> bool:
    """The plain rule: same kind and length, a higher rank, and no card of a bomb or the
    rocket of ``hand`` used (bombs and rockets are not evidence, so they are left out)."""
    counts = hand.counts(actions=True)
    used = move.cards.counts(actions=True)
    bombs = [rank for rank in range(13) if counts[rank] == 4]
    if counts[13] and counts[14]:
        bombs += [13, 14]
    return (
        move.type == table.type
        and move.length == table.length
        and move.rank > table.rank
        and len(move.cards) == len(table.cards)
        and not any(used[rank] for rank in bombs)
    )


def reference_weight(
    hands: tuple[int, ...], history: list[ddz.ActionRecord], me: int, landlord: int
) -> float:
    """Replay the play phase with every hand known (hands: the hands now): each other seat's
    pass over a non-partner's move multiplies by PASS_WEIGHT if the seat then held a beater
    of the table's kind among every move its hand could make leading."""
    play = [r for r in history if r.phase == "play"]
    weight = 1.0
    for index, record in enumerate(play):
        if not record.action.is_pass or record.player == me:
            continue
        table = next(r for r in reversed(play[:index]) if not r.action.is_pass)
        farmers = record.player != landlord and table.player != landlord
        if farmers:
            continue
        later = [r.action.cards.mask for r in play[index:] if r.player == record.player]
        hand = hands[record.player] + sum(later)
        leads = legal_moves(hand, 0, ddz.CLASSIC)
        if any(beats(move, table.action, ddz.Cards.from_mask(hand)) for move in leads):
            weight *= PASS_WEIGHT
    return weight


def games_with_passes(count: int) -> list[Game]:
    """Greedy games of the classic rules stopped mid-play, after a few passes."""
    games = []
    seed = 0
    while len(games) < count:
        seed += 1
        game = Game(ddz.CLASSIC, seed=seed)
        agent = GreedyAgent()
        passes = 0
        while not game.is_over and passes < 3 + seed % 3:
            action = choose(agent, game)
            if game.phase == "play" and isinstance(action, Move) and action.is_pass:
                passes += 1
            game.step(action)
        if not game.is_over and game.phase == "play":
            games.append(game)
    return games


def test_pass_weights_match_a_plain_reference() -> None:
    checked = 0
    for game in games_with_passes(8):
        assert game.landlord is not None
        for me in range(3):
            seen = game.observation(me)
            passes = passes_over_beatable(seen, ddz.CLASSIC)
            worlds = ddz.sample_worlds(seen, n=40, seed=me, rules=ddz.CLASSIC)
            weights = pass_weights(worlds.hands, passes, ddz.CLASSIC, PASS_WEIGHT)
            for i in range(len(worlds)):
                hands = tuple(int(mask) for mask in worlds.hands[i])
                expected = reference_weight(hands, game.history, me, game.landlord)
                assert weights[i] == pytest.approx(expected), (game.record(), me, i)
                checked += expected < 1
    assert checked > 0, "no world was down-weighted: the games test nothing"


def test_passes_over_a_partner_and_the_seats_own_are_not_evidence() -> None:
    # seat 0 landlord; seat 1 leads 3, seat 2 (its partner) passes, seat 0 passes
    game = Game.from_position(ddz.CLASSIC, ["4567", "3A5", "KKQ"], landlord=0, to_act=1)
    for action in ("3", "pass", "pass"):
        game.step(action)
    # seat 2's pass over its partner's 3 is no evidence; the landlord's pass is
    for me in (1, 2):
        (event,) = passes_over_beatable(game.observation(me), ddz.CLASSIC)
        assert event.seat == 0 and str(event.table) == "3" and event.since == 0
    # the landlord's own pass is not evidence for itself, its opponent's over it is
    assert passes_over_beatable(game.observation(0), ddz.CLASSIC) == []
    game.step("A")
    (event,) = passes_over_beatable(game.observation(1), ddz.CLASSIC)
    assert event.seat == 0 and event.since == 0
    game.step("pass")  # seat 2 over its partner's A: no evidence
    game.step("pass")  # the landlord over the A
    events = passes_over_beatable(game.observation(2), ddz.CLASSIC)
    assert [(e.seat, str(e.table)) for e in events] == [(0, "3"), (0, "A")]


def test_a_bomb_is_not_a_beater_and_later_plays_count() -> None:
    game = Game.from_position(ddz.CLASSIC, ["3K9", "45", "67"], landlord=0, to_act=0)
    game.step("K")
    game.step("pass")  # seat 1 passed over the landlord's K
    (event,) = passes_over_beatable(game.observation(0), ddz.CLASSIC)
    assert event.seat == 1 and event.table == Move.parse("K") and event.since == 0

    def world(hand: str) -> list[int]:
        return [0, ddz.Cards(hand).mask, 0]

    worlds = ["4444", "A5", "45", "XD", "X5", "AAAA5"]
    hands = np.array([world(hand) for hand in worlds], dtype=np.uint64)
    weights = pass_weights(hands, [event], ddz.CLASSIC, 0.5)
    # a bomb, the rocket, an A of four: no evidence; an A, a lone joker: beaters
    assert list(weights) == [1.0, 0.5, 1.0, 1.0, 0.5, 1.0]
    # a card played after the pass was held at the pass: an A played since is a beater
    later = Pass(event.seat, event.table, ddz.Cards("A").mask)
    assert list(pass_weights(hands[2:3], [later], ddz.CLASSIC, 0.5)) == [0.5]
    assert list(pass_weights(hands, [event, later], ddz.CLASSIC, 1.0)) == [1.0] * 6


def test_resample_draws_in_proportion() -> None:
    drawn = resample(np.array([0.0, 1.0, 3.0, 0.0]), 400, seed=5)
    assert list(np.bincount(drawn, minlength=4)) == [0, 100, 300, 0]
    assert list(resample(np.ones(3), 3, seed=1)) == [0, 1, 2]
    with pytest.raises(ValueError):
        resample(np.zeros(2), 2, seed=1)


def test_pimc_worlds_hold_fewer_beaters_where_a_seat_passed() -> None:
    """The agent's worlds (pass_weight 0.05) against plain sampled worlds: the seats that
    passed hold a beater in far fewer of them; pass_weight=1 gives the plain worlds."""
    fewer = 0
    for game in games_with_passes(6):
        seen = game.observation(game.current_player)
        passes = passes_over_beatable(seen, ddz.CLASSIC)
        if not passes:
            continue
        # the pass reading alone (opponent="greedy": no rule-agent reading beside it)
        agent = PIMCAgent(
            1,
            rules=ddz.CLASSIC,
            worlds=200,
            pass_weight=0.05,
            greedy_weight=1.0,
            oversample=4,
            opponent="greedy",
        )
        plain = PIMCAgent(
            1, rules=ddz.CLASSIC, worlds=200, pass_weight=1.0, greedy_weight=1.0, opponent="greedy"
        )
        inferred = agent._sample(seen, ddz.CLASSIC, 9)
        uniform = plain._sample(seen, ddz.CLASSIC, 9)
        assert np.array_equal(
            uniform.hands, ddz.sample_worlds(seen, n=200, seed=9, rules=ddz.CLASSIC).hands
        )

        broken = [
            float((pass_weights(w.hands, passes, ddz.CLASSIC, 0.5) < 1).mean())
            for w in (inferred, uniform)
        ]
        assert broken[0] <= broken[1]
        fewer += broken[0] < broken[1]
        world = inferred.game(0)  # an ordinary world of the same view
        assert world.observation(seen.player, history=False) == game.observation(
            seen.player, history=False
        )
    assert fewer > 0


def test_worlds_take_keeps_the_view() -> None:
    game = games_with_passes(1)[0]
    worlds = ddz.sample_worlds(game, game.current_player, 5, seed=3)
    taken = worlds.take([4, 0, 4])
    assert np.array_equal(taken.hands, worlds.hands[[4, 0, 4]])
    assert np.array_equal(taken.kitty, worlds.kitty[[4, 0, 4]])
    assert taken.game(2).hands == worlds.game(4).hands
    with pytest.raises(IndexError):
        worlds.take([5])


def reference_disagreements(game: Game, me: int, hands: tuple[int, ...]) -> list[int]:
    """Replay the play with every hand known (hands: the hands now, plus what each seat
    played), asking the Python GreedyAgent at every ply: each seat's count of differences."""
    plays = [r for r in game.history if r.phase == "play"]
    start = list(hands)
    for record in plays:
        start[record.player] += record.action.cards.mask
    assert game.landlord is not None
    world = Game.from_position(
        game.rules,
        [ddz.Cards.from_mask(mask) for mask in start],
        landlord=game.landlord,
        to_act=plays[0].player,
        kitty=game.kitty,
        bid=game.bid,
    )
    agent, counts = GreedyAgent(), [0] * game.rules.players
    for record in plays:
        counts[record.player] += choose(agent, world) != record.action
        world.step(record.action)
    return counts


def test_greedy_disagreements_match_a_python_replay() -> None:
    games = games_with_passes(4)
    # a PIMC seat plays seat 1 in the last two: its moves are not all greedy ones
    for game in games[2:]:
        pimc = PIMCAgent(3, rules=ddz.CLASSIC, worlds=10)
        for _ in range(4):
            if game.is_over:
                break
            seat = game.current_player
            game.step(
                pimc.act(game.observation(seat)) if seat == 1 else choose(GreedyAgent(), game)
            )
    seen_any = False
    for game in games:
        if game.is_over:
            continue
        me = game.current_player
        seen = game.observation(me)
        worlds = ddz.sample_worlds(seen, n=12, seed=1, rules=ddz.CLASSIC)
        counts = greedy_disagreements(seen, ddz.CLASSIC, worlds.hands)
        assert counts is not None
        for i in range(len(worlds)):
            hands = tuple(int(mask) for mask in worlds.hands[i])
            assert list(counts[i]) == reference_disagreements(game, me, hands)
        truth = reference_disagreements(game, me, tuple(h.mask for h in game.hands))
        seen_any |= any(truth) or any(counts[:, [s for s in range(3) if s != me]].any(axis=1))
        weights = greedy_weights(seen, ddz.CLASSIC, worlds.hands, 0.5)
        others = [s for s in range(3) if s != me]
        differ = counts[:, others].sum(axis=1)
        assert list(weights) == pytest.approx(list(0.5 ** (differ - differ.min())))
    assert seen_any


def test_greedy_weights_read_nothing_without_play() -> None:
    game = Game(ddz.CLASSIC, seed=2)
    seen = game.observation(0)  # bidding
    hands = np.zeros((3, 3), dtype=np.uint64)
    assert greedy_disagreements(seen, ddz.CLASSIC, hands) is None
    assert list(greedy_weights(seen, ddz.CLASSIC, hands, 0.1)) == [1.0] * 3


def test_pimc_worlds_agree_with_greedy_play() -> None:
    """Against greedy seats the default agent's worlds (greedy_weight 0.2) disagree with the
    play less often than the plain ones, and greedy_weight=0 keeps only the worlds that
    disagree least (the filter with its fallback)."""
    closer = 0
    for game in games_with_passes(4):
        seen = game.observation(game.current_player)
        others = [s for s in range(3) if s != seen.player]

        def differ(
            worlds: ddz.Worlds, seen: ddz.Observation = seen, others: list[int] = others
        ) -> npt.NDArray[np.int64]:
            counts = greedy_disagreements(seen, ddz.CLASSIC, worlds.hands)
            assert counts is not None
            return counts[:, others].sum(axis=1)

        greedy = PIMCAgent(1, rules=ddz.CLASSIC, worlds=100, opponent="greedy")
        inferred = greedy._sample(seen, ddz.CLASSIC, 4)
        uniform = ddz.sample_worlds(seen, n=100, seed=4, rules=ddz.CLASSIC)
        assert differ(inferred).mean() <= differ(uniform).mean()
        closer += differ(inferred).mean() < differ(uniform).mean()
        hard = PIMCAgent(
            1, rules=ddz.CLASSIC, worlds=100, greedy_weight=0.0, oversample=3, opponent="greedy"
        )
        pool = ddz.sample_worlds(seen, n=300, seed=4, rules=ddz.CLASSIC)
        assert set(differ(hard._sample(seen, ddz.CLASSIC, 4))) == {differ(pool).min()}
    assert closer > 0


def test_a_history_that_does_not_start_the_play_reads_nothing() -> None:
    # a game from a position with a move on the table: the first recorded action answers a
    # move the history does not hold, so no world can replay it (every world's count -1)
    game = Game.from_position(
        ddz.CLASSIC, ["3456", "789", "TJQ"], landlord=0, to_act=1, table="2", table_player=0
    )
    game.step("pass")
    seen = game.observation(2)
    worlds = ddz.sample_worlds(seen, n=5, seed=1, rules=ddz.CLASSIC)
    counts = greedy_disagreements(seen, ddz.CLASSIC, worlds.hands)
    assert counts is not None and (counts == -1).all()
    assert PIMCAgent(1, rules=ddz.CLASSIC).act(seen) in seen.legal_actions


def test_the_posterior_of_the_two_models() -> None:
    # nothing read: every weight 1, every chance the prior
    weights, chances = model_posterior(None, None, [1, 2], 5, 0.2, 0.01, 0.3)
    assert (weights == 1).all() and (chances == 0.3).all()
    # four worlds, seats 1 and 2 (column 0 marks a world the play cannot come from: -1)
    greedy = np.array([[0, 2, 0], [0, 0, 0], [0, 1, 1], [-1, -1, -1]])
    rule = np.array([[0, 0, 0], [0, 1, 0], [0, 1, 3], [-1, -1, -1]])
    weights, chances = model_posterior(greedy, rule, [1, 2], 4, 0.2, 0.01, 0.5)

    def evidence(g: int, r: int) -> tuple[float, float]:
        both = 0.5 * 0.01**r + 0.5 * 0.2**g
        return both, 0.5 * 0.01**r / both

    expected = np.zeros(4)
    for world in range(3):
        (one, first), (two, second) = (evidence(greedy[world, s], rule[world, s]) for s in (1, 2))
        expected[world] = one * two
        assert chances[world] == pytest.approx([first, second])
    assert chances[3] == pytest.approx([0.5, 0.5])  # no weight left: the prior
    # relative weights (each seat's best likelihood scaled to 1)
    assert weights / weights.max() == pytest.approx(expected / expected.max())
    assert chances[0, 0] > 0.9 and chances[1, 0] < 0.1  # the play says which
    # a weight of 0: one disagreement rules the model out
    _, chances = model_posterior(greedy, rule, [1], 4, 0.0, 0.01, 0.5)
    assert chances[0, 0] == 1.0 and chances[2, 0] == 1.0 and chances[1, 0] < 0.1


def test_the_models_are_drawn_in_stratified_shares() -> None:
    for worlds, share in ((100, 0.5), (100, 0.3), (37, 0.75)):
        chances = np.full((worlds, 2), share)
        drawn = assign_models(chances, 4)
        assert drawn.shape == (worlds, 2)
        for k in range(2):
            assert abs(drawn[:, k].sum() - share * worlds) <= 1
        assert (assign_models(chances, 4) == drawn).all()  # reproducible
        # spread over the worlds, not the first ones: the first round plays the first few
        assert 0 < drawn[: worlds // 2, 0].sum() < worlds // 2
    certain = np.array([[1.0, 0.0]] * 10)
    assert (assign_models(certain, 1) == certain.astype(bool)).all()
    assert not (
        assign_models(np.full((50, 1), 0.5), 1) == assign_models(np.full((50, 1), 0.5), 2)
    ).all()


def greedy_bidding(seed: int) -> Game:
    """A classic deal bid by greedy seats (redealt until someone bids)."""
    game = Game(ddz.CLASSIC, seed=seed)
    while True:
        while game.phase == "bidding":
            game.step(choose(GreedyAgent(), game))
        if not game.is_void:
            return game
        game = game.redeal()


def test_strengths_match_the_greedy_agent() -> None:
    rng = np.random.default_rng(5)
    hands = [ddz.Game(ddz.CLASSIC, seed=int(s)).hands for s in rng.integers(0, 1 << 30, 60)]
    masks = np.array([[h.mask for h in row] for row in hands], dtype=np.uint64)
    masks[:, 0] = ddz.Cards("3333XD22AA").mask  # a bomb, the rocket, two 2s, two aces
    got = _strengths(masks)
    for i in range(len(masks)):
        for seat in range(3):
            assert got[i, seat] == _strength(ddz.Cards.from_mask(int(masks[i, seat])))
    assert got[0, 0] == 4 + 4 + 3 + 2 * 2 + 1


def test_greedy_bids_agree_with_the_hands_dealt() -> None:
    """In the true world every greedy seat's bids agree with the greedy agent (from every
    seat's view, in bidding and in play, the kitty taken out of the landlord's hand), and
    in sampled worlds some disagree: the reading says something."""
    disagreeing = 0
    for seed in range(40):
        game = greedy_bidding(seed)
        for _ in range(seed % 7):  # some play
            game.step(choose(GreedyAgent(), game))
        truth = np.array([[h.mask for h in game.hands]], dtype=np.uint64)
        for me in range(3):
            seen = game.observation(me)
            counts = bid_disagreements(seen, truth)
            assert counts is not None and not counts.any()
            worlds = ddz.sample_worlds(seen, n=50, seed=seed, rules=ddz.CLASSIC)
            sampled = bid_disagreements(seen, worlds.hands)
            assert sampled is not None and sampled[:, me].sum() == 0
            disagreeing += int(sampled.any(axis=1).sum())
        # the rule agent never bids: a disagreement for each bid
        bids = [r for r in game.history if r.phase == "bidding" and str(r.action) != "pass"]
        rule = bid_disagreements(game.observation(0), truth, "rlcard-rule")
        assert rule is not None and rule.sum() == len(bids)
    assert disagreeing > 0


def test_bidding_seen_mid_bidding_is_read() -> None:
    # seat 1 sees seat 0's pass before it bids: no world gives seat 0 a 3-point hand
    game = Game(ddz.CLASSIC, seed=11, first_player=0)
    game.step("pass")
    seen = game.observation(1)
    worlds = ddz.sample_worlds(seen, n=400, seed=2, rules=ddz.CLASSIC)
    counts = bid_disagreements(seen, worlds.hands)
    assert counts is not None
    weak = _strengths(worlds.hands)[:, 0] < 3
    assert (counts[:, 0] == ~weak).all() and weak.any() and (~weak).any()


@pytest.mark.parametrize("opponent", ["greedy", "auto"])
def test_pimc_worlds_agree_with_greedy_bids(opponent: str) -> None:
    """With read_bids PIMC's worlds read the greedy seats' bids: at greedy_weight=0 (a
    filter) every world it samples agrees with them (the play read alone does not do that),
    and at the default weight far more of them than without read_bids (the default)."""

    def strict(read_bids: bool) -> PIMCAgent:
        # every world must agree with each greedy move seen (no weight, no rule-agent share)
        return PIMCAgent(
            1,
            rules=ddz.CLASSIC,
            greedy_weight=0.0,
            opponent=opponent,
            rule_prior=0.0,
            read_bids=read_bids,
        )

    for seed in (3, 4, 8):
        game = greedy_bidding(seed)
        game.step(choose(GreedyAgent(), game))
        seen = game.observation(game.current_player)
        others = [s for s in range(3) if s != seen.player]

        def agree(
            worlds: ddz.Worlds, seen: ddz.Observation = seen, others: list[int] = others
        ) -> float:
            counts = bid_disagreements(seen, worlds.hands)
            assert counts is not None
            return float((counts[:, others].sum(axis=1) == 0).mean())

        plain = agree(ddz.sample_worlds(seen, n=100, seed=4, rules=ddz.CLASSIC))
        assert plain < 0.9
        # (under "auto" a seat that passed may be the rule agent, which always passes: the
        # filter is the greedy agent's alone with no prior share for the rule agent)
        assert agree(strict(read_bids=True)._sample(seen, ddz.CLASSIC, 4)) == 1.0
        soft = PIMCAgent(1, rules=ddz.CLASSIC, opponent=opponent, read_bids=True)
        off = PIMCAgent(1, rules=ddz.CLASSIC, opponent=opponent)  # the default: not read
        unread = strict(read_bids=False)
        assert agree(unread._sample(seen, ddz.CLASSIC, 4)) < 1.0  # the play alone: not all
        soft_share = agree(soft._sample(seen, ddz.CLASSIC, 4))
        assert soft_share > agree(off._sample(seen, ddz.CLASSIC, 4)) + 0.2
