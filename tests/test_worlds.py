"""ddz.sample_worlds: every sampled world is consistent with the seat's view, and the worlds
are uniform over the physical deals: small cases are enumerated deal by deal and the sampled
frequencies checked with a chi-square test (fixed seeds: the test cannot flake)."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import numpy as np
import pytest

import ddz
from ddz.rules import PRESETS

# The chi-square quantile at p = 1e-4 (Wilson-Hilferty): a correct sampler fails it once in
# ten thousand seeds; the seeds are fixed, so the test passes or fails for good.
Z = 3.719


def critical(df: int) -> float:
    return df * (1 - 2 / (9 * df) + Z * math.sqrt(2 / (9 * df))) ** 3


def consistent_deals(game: ddz.Game, seat: int) -> Counter[tuple[int, ...]]:
    """Every physical deal that agrees with seat's view, by brute force from the definition,
    counted by what it leaves hidden now (each other seat's cards, the unseen kitty, the
    cards set aside, as card integers).

    The deal: the seat's own cards as dealt (its hand and its plays, less the kitty if it is
    the landlord) and the shown kitty are fixed physical cards (a constant factor); every
    other physical card is dealt in every way to the other seats (as many as they hold now
    plus their plays, less the kitty for the landlord), the unseen kitty and the rest. A deal
    is kept when each seat's cards as dealt (with the kitty, for the landlord) include every
    card it has played since."""
    seen = game.observation(seat, history=False)
    shown = seen.kitty if seen.kitty is not None else ddz.Cards()
    mine = seen.hand + seen.played[seat]
    if seat == seen.landlord:
        mine = mine - shown
    unseen = game.rules.deck - mine - shown
    physical = list(str(unseen))  # one entry a physical card: equal ranks, distinct cards
    others = [s for s in range(game.rules.players) if s != seat]
    extra = {s: shown if s == seen.landlord else ddz.Cards() for s in others}
    sizes = [seen.card_counts[s] + len(seen.played[s]) - len(extra[s]) for s in others]
    if seen.phase == "bidding":
        sizes.append(game.rules.kitty_size)
    outcomes: Counter[tuple[int, ...]] = Counter()

    def deal(rest: tuple[int, ...], parts: list[tuple[int, ...]]) -> None:
        if len(parts) == len(sizes):
            dealt = [ddz.Cards("".join(physical[i] for i in part)) for part in parts]
            now = []
            for position, other in enumerate(others):
                held = dealt[position] + extra[other]
                if not seen.played[other] <= held:
                    return  # it could not have played what it played
                now.append((held - seen.played[other]).mask)
            now += [cards.mask for cards in dealt[len(others) :]]
            now.append(ddz.Cards("".join(physical[i] for i in rest)).mask)
            outcomes[tuple(now)] += 1
            return
        for chosen in itertools.combinations(rest, sizes[len(parts)]):
            deal(tuple(i for i in rest if i not in chosen), [*parts, chosen])

    deal(tuple(range(len(physical))), [])
    return outcomes


def sampled(worlds: ddz.Worlds, game: ddz.Game, seat: int) -> Counter[tuple[int, ...]]:
    others = [s for s in range(game.rules.players) if s != seat]
    columns = [worlds.hands[:, s] for s in others]
    if game.phase == "bidding":
        columns.append(worlds.kitty)
    columns.append(worlds.set_aside)
    return Counter(zip(*(c.tolist() for c in columns), strict=True))


def small_position(rng: random.Random, rules: ddz.Rules, sizes: list[int], spare: int) -> ddz.Game:
    """A random position: hands of the given sizes, `spare` cards nobody holds or played, every
    other card of the deck played by some seat, a kitty among the landlord's cards."""
    while True:
        deck = list(str(rules.deck))
        rng.shuffle(deck)
        hands = []
        for size in sizes:
            hands.append("".join(deck[:size]))
            del deck[:size]
        del deck[:spare]
        played = ["" for _ in sizes]
        for card in deck:
            played[rng.randrange(len(sizes))] += card
        landlord = rng.randrange(len(sizes))
        owned = list(hands[landlord] + played[landlord])
        kitty = "".join(rng.sample(owned, min(rules.kitty_size, len(owned))))
        try:
            return ddz.Game.from_position(
                rules,
                hands,
                landlord=landlord,
                to_act=rng.randrange(len(sizes)),
                played=played,
                kitty=kitty,
            )
        except ValueError:
            continue  # e.g. the landlord played nothing: try another


def check_uniform(game: ddz.Game, seat: int, n: int, seed: int) -> int:
    """Sample n worlds; they must be consistent deals, at the deals' frequencies (chi-square,
    cells expecting fewer than 5 worlds pooled into one). Returns how many outcomes."""
    expected = consistent_deals(game, seat)
    total = sum(expected.values())
    worlds = ddz.sample_worlds(game, seat, n, seed)
    counts = sampled(worlds, game, seat)
    assert set(counts) <= set(expected), "a world outside the consistent deals"
    cells: list[tuple[float, int]] = []
    small_expected, small_seen = 0.0, 0
    for outcome, weight in expected.items():
        mean = n * weight / total
        if mean < 5:
            small_expected += mean
            small_seen += counts.get(outcome, 0)
        else:
            cells.append((mean, counts.get(outcome, 0)))
    if small_expected:
        cells.append((small_expected, small_seen))
    if len(cells) > 1:
        statistic = sum((seen - mean) ** 2 / mean for mean, seen in cells)
        assert statistic < critical(len(cells) - 1), (statistic, len(cells), str(game.position()))
    return len(expected)


TINY = "3456789TJQ"  # taken out: the deck is KKKKAAAA2222XD, 14 cards
TINY3 = ddz.Rules(players=3, hand_size=3, kitty_size=1, excluded_ranks=TINY)
TINY2 = ddz.Rules(
    players=2, hand_size=3, kitty_size=1, excluded_ranks=TINY, bidding=ddz.Bidding.CALL_GRAB
)
TINY_UNO = ddz.Rules(  # AAAAXDSSVV
    players=3, hand_size=2, kitty_size=1, excluded_ranks=TINY + "K2", action_cards=2
)


@pytest.mark.parametrize(
    ("rules", "sizes", "spare"),
    [
        (TINY3, [2, 2, 2], 2),
        (TINY3, [1, 3, 2], 0),
        (TINY2, [3, 2], 3),
        (TINY2, [2, 3], 1),
        (TINY_UNO, [2, 1, 2], 1),
    ],
)
def test_worlds_are_uniform_over_the_physical_deals(
    rules: ddz.Rules, sizes: list[int], spare: int
) -> None:
    rng = random.Random(str(sizes) + str(spare))
    outcomes = 0
    for case in range(4):
        game = small_position(rng, rules, sizes, spare)
        for seat in range(rules.players):
            outcomes += check_uniform(game, seat, 6000, seed=case * 10 + seat)
    assert outcomes >= 20  # the cases are not all trivial


def test_a_seat_that_played_a_card_was_dealt_it() -> None:
    """Two 2s unseen with a D; the farmer played a 2 and holds one card: dealt 22 in one
    physical deal, 2D in two, so it holds the 2 now with probability 1/3 (not 1/2)."""
    game = ddz.Game.from_position(
        TINY2, ["KKKKAAAA22X", "2"], landlord=0, to_act=0, played=["", "2"]
    )
    worlds = ddz.sample_worlds(game, 0, 30_000, seed=1)
    share = float(np.mean(worlds.hands[:, 1] == ddz.Cards("2").mask))
    assert abs(share - 1 / 3) < 0.01  # 3.7 standard deviations
    assert check_uniform(game, 0, 3000, seed=2) == 2


def test_the_unseen_kitty_in_bidding_is_uniform_too() -> None:
    # a tiny deck (A, 2, the jokers): 2 cards each, a kitty of 1, 5 set aside
    rules = ddz.Rules(
        players=2,
        hand_size=2,
        kitty_size=1,
        excluded_ranks="3456789TJQK",
        bidding=ddz.Bidding.CALL_GRAB,
    )
    for seed in range(3):
        game = ddz.Game(rules, seed=seed)
        assert game.phase == "bidding"
        check_uniform(game, 0, 8000, seed=seed)
        check_uniform(game, 1, 8000, seed=seed + 100)
        game.step("call")
        world = ddz.sample_worlds(game, 0, 5, seed=1).game(3)
        assert world.history == game.history and world.hands[0] == game.hands[0]


def test_a_seat_that_sees_everything_gets_the_one_world() -> None:
    game = ddz.Game.from_position(
        ddz.ENDGAME,
        ["3", "4"],
        landlord=0,
        to_act=0,
        played=[str(ddz.ENDGAME.deck - ddz.Cards("34")), ""],
        landlord_moves=9,
    )
    worlds = ddz.sample_worlds(game, 0, 3, seed=0)
    assert [str(c) for c in worlds[2]] == ["3", "4"] and not worlds.set_aside.any()


def consistent(worlds: ddz.Worlds, game: ddz.Game, seat: int) -> None:
    seen = game.observation(seat, history=False)
    rules = game.rules
    for index in range(len(worlds)):
        hands = worlds[index]
        assert hands[seat] == seen.hand
        assert tuple(len(h) for h in hands) == seen.card_counts
        total = ddz.Cards.from_mask(int(worlds.set_aside[index]))
        for cards in hands + seen.played:
            total = total + cards  # ValueError if a card were twice
        if seen.phase == "bidding":
            total = total + ddz.Cards.from_mask(int(worlds.kitty[index]))
        assert total == rules.deck
        if seen.landlord is not None and seen.kitty is not None:
            owned = hands[seen.landlord] + seen.played[seen.landlord]
            assert seen.kitty <= owned
        if seen.phase != "over":
            world = worlds.game(index)
            assert world.observation(seat, history=False) == seen
            assert world.hands == hands
        if seen.phase == "play":  # the fast path's position passes the full validation
            position = worlds.position(index)
            assert ddz.Position.parse(str(position), rules=rules) == position


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_world_is_consistent_with_the_view(name: str) -> None:
    rules = PRESETS[name]
    rng = random.Random(name)
    for seed in range(12):
        game = ddz.Game(rules, seed=seed)
        while True:
            seat = rng.randrange(rules.players)
            consistent(ddz.sample_worlds(game, seat, 8, seed=rng.randrange(1 << 64)), game, seat)
            if game.is_over or rng.random() < 0.15:
                break
            game.step(rng.choice(game.legal_actions()))
        if game.phase == "play":  # from the seat's observation (with its rules) the same
            seen = game.observation(seat)
            by_observation = ddz.sample_worlds(seen, n=8, seed=5, rules=rules)
            by_game = ddz.sample_worlds(game, seat, 8, seed=5)
            assert np.array_equal(by_observation.hands, by_game.hands)
            consistent(by_observation, game, seat)


def test_seeded_and_batched() -> None:
    game = ddz.Game(seed=8)
    one = ddz.sample_worlds(game, 2, 500, seed=11)
    two = ddz.sample_worlds(game, 2, 500, seed=11)
    assert np.array_equal(one.hands, two.hands) and np.array_equal(one.set_aside, two.set_aside)
    assert not np.array_equal(one.hands, ddz.sample_worlds(game, 2, 500, seed=12).hands)
    assert len({tuple(row) for row in one.hands.tolist()}) > 490  # 34 unseen cards: all differ
    assert len(ddz.sample_worlds(game, 0, 0, seed=1)) == 0
    assert repr(one) == "<Worlds 500 worlds of seat 2's view, bidding>"


def test_arguments_are_checked() -> None:
    game = ddz.Game(seed=1)
    with pytest.raises(ValueError, match=r"seat must lie in 0 \.\. 2"):
        ddz.sample_worlds(game, 3, 1, seed=0)
    with pytest.raises(TypeError, match="needs the seat"):
        ddz.sample_worlds(game)
    with pytest.raises(ValueError, match=r"n must lie in 0 \.\. "):
        ddz.sample_worlds(game, 0, -1, seed=0)
    with pytest.raises(ValueError, match=r"seed must lie in 0 \.\. "):
        ddz.sample_worlds(game, 0, 1, seed=-1)
    with pytest.raises(ValueError, match="differs from the game's rules"):
        ddz.sample_worlds(game, 0, 1, seed=0, rules=ddz.TWO_PLAYER)
    seen = game.observation(1)
    with pytest.raises(TypeError, match="needs rules="):
        ddz.sample_worlds(seen, n=1, seed=0)
    with pytest.raises(ValueError, match="seat 1's, not seat 0's"):
        ddz.sample_worlds(seen, 0, 1, seed=0, rules=ddz.CLASSIC)
    with pytest.raises(ValueError, match="3 seats; the rules 2"):
        ddz.sample_worlds(seen, n=1, seed=0, rules=ddz.TWO_PLAYER)
    with pytest.raises(TypeError, match=r"takes a ddz\.Game or an Observation"):
        ddz.sample_worlds("33/44", 0, 1)  # type: ignore[arg-type]
    worlds = ddz.sample_worlds(game, 0, 2, seed=0)
    with pytest.raises(IndexError):
        worlds.game(2)
