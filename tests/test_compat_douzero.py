"""ddz.compat.douzero against DouZero 1.1.0 itself: the same deals, the same actions, every
array of every observation compared with np.array_equal.

The peer is installed by .ci/run (``pip install --no-deps douzero==1.1.0``); without it the
comparisons skip. DDZ_COMPAT_GAMES raises the number of games compared (default 120, about
7,000 positions).
"""

from __future__ import annotations

import itertools
import os
import random
from typing import Any

import numpy as np
import pytest

import ddz
from ddz._core.douzero import DouzeroCore, python_set_order
from ddz.compat.douzero import POSITIONS, Env

GAMES = int(os.environ.get("DDZ_COMPAT_GAMES", "120"))
VALUES = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)
DECK = [v for v in VALUES[:13] for _ in range(4)] + [20, 30]


def peer() -> Any:
    return pytest.importorskip(
        "douzero.env.env",
        reason="the DouZero comparisons need douzero==1.1.0 (pip install --no-deps "
        "douzero==1.1.0; .ci/run installs it)",
    )


def assert_same_obs(theirs: dict[str, Any] | None, ours: dict[str, Any] | None) -> None:
    if theirs is None or ours is None:
        assert theirs is None and ours is None
        return
    assert list(theirs) == list(ours)
    for key, value in theirs.items():
        mine = ours[key]
        if isinstance(value, np.ndarray):
            assert isinstance(mine, np.ndarray), key
            assert (value.dtype, value.shape) == (mine.dtype, mine.shape), key
            assert np.array_equal(value, mine), key
        else:
            assert value == mine, key


def choose(legal: list[list[int]], rng: random.Random) -> list[int]:
    """Mostly uniform; sometimes the longest move or a bomb, so rarer answers get played."""
    roll = rng.random()
    if roll < 0.15:
        return max(legal, key=len)
    if roll < 0.25:
        bombs = [m for m in legal if (len(m) == 4 and len(set(m)) == 1) or m == [20, 30]]
        if bombs:
            return rng.choice(bombs)
    return rng.choice(legal)


def skewed_deal(rng: random.Random) -> dict[str, list[int]]:
    """A deal from a deck only locally shuffled: hands full of bombs, triples and chains."""
    deck = DECK.copy()
    block = rng.choice((4, 6, 8, 12))
    for start in range(0, len(deck), block):
        part = deck[start : start + block]
        rng.shuffle(part)
        deck[start : start + block] = part
    offset = rng.randrange(54)
    deck = deck[offset:] + deck[:offset]
    return {
        "landlord": sorted(deck[:20]),
        "landlord_up": sorted(deck[20:37]),
        "landlord_down": sorted(deck[37:54]),
        "three_landlord_cards": sorted(deck[17:20]),
    }


def play_both(theirs: Any, ours: Env, first: Any, mine: Any, rng: random.Random) -> int:
    assert_same_obs(first, mine)
    obs, positions = first, 1
    while True:
        action = choose(obs["legal_actions"], rng)
        obs, reward, done, info = theirs.step(action)
        obs2, reward2, done2, info2 = ours.step(list(action))
        assert (reward, done, info) == (reward2, done2, info2)
        assert_same_obs(obs, obs2)
        if done:
            return positions
        positions += 1


@pytest.mark.parametrize("objective", ["adp", "wp", "logadp"])
def test_same_observations_as_douzero_for_seeded_games(objective: str) -> None:
    env_module = peer()
    rng = random.Random(11)
    theirs, ours = env_module.Env(objective), Env(objective)
    positions = 0
    for game in range(GAMES if objective == "adp" else GAMES // 6):
        np.random.seed(game)
        first = theirs.reset()
        np.random.seed(game)
        positions += play_both(theirs, ours, first, ours.reset(), rng)
    assert positions > 20 * (GAMES if objective == "adp" else GAMES // 6)


def test_same_observations_as_douzero_for_skewed_deals() -> None:
    env_module = peer()
    rng = random.Random(12)
    theirs, ours = env_module.Env("adp"), Env("adp")
    for _ in range(GAMES // 2):
        deal = skewed_deal(rng)
        theirs.reset()  # builds DouZero's players; the deal is then replaced
        theirs._env.reset()
        theirs._env.card_play_init({k: list(v) for k, v in deal.items()})
        theirs.infoset = theirs._env.game_infoset
        first = env_module.get_obs(theirs.infoset)
        play_both(theirs, ours, first, ours.reset(deal), rng)


def test_infoset_matches_douzero() -> None:
    env_module = peer()
    rng = random.Random(13)
    theirs, ours = env_module.Env("adp"), Env("adp")
    for game in range(8):
        np.random.seed(1000 + game)
        theirs.reset()
        np.random.seed(1000 + game)
        ours.reset()
        done = False
        while True:
            a, b = theirs.infoset, ours.infoset
            assert b is not None
            for name in vars(a):
                assert getattr(a, name) == getattr(b, name), name
            if done:
                break
            action = choose(a.legal_actions, rng)
            _, _, done, _ = theirs.step(action)
            ours.step(action)


def test_set_order_is_pythons() -> None:
    # every set of at most 5 distinct card values, and some larger ones
    subsets = [s for k in range(1, 6) for s in itertools.combinations(range(15), k)]
    rng = random.Random(14)
    subsets += [tuple(sorted(rng.sample(range(15), rng.randrange(6, 16)))) for _ in range(200)]
    for ranks in subsets:
        counts = np.zeros(15, dtype=np.uint8)
        counts[list(ranks)] = 1
        cards = sorted(VALUES[r] for r in ranks for _ in range(1 + (r < 13) * rng.randrange(4)))
        assert [VALUES[r] for r in python_set_order(counts)] == list(set(cards))


def test_leads_are_ddz_douzero_moves() -> None:
    """DouZero's leads, as a set, are ddz's legal leads under ddz.DOUZERO."""
    rng = random.Random(15)
    for _ in range(150):
        deck = DECK.copy()
        rng.shuffle(deck)
        hand = sorted(deck[:20])
        core = DouzeroCore()
        rows = np.zeros((3, 15), dtype=np.uint8)
        for p, cards in enumerate((hand, deck[20:37], deck[37:54])):
            for card in cards:
                rows[p, VALUES.index(card)] += 1
        core.deal(rows)
        ours = {tuple(m) for m in core.legal_actions()}
        cards = ddz.Cards.from_counts(rows[0].tolist())
        theirs = {
            tuple(v for v, k in zip(VALUES, move.cards.counts(), strict=True) for _ in range(k))
            for move in ddz.legal_moves(cards, last=None, rules=ddz.DOUZERO)
        }
        assert ours == theirs


def test_illegal_actions_raise_and_change_nothing() -> None:
    np.random.seed(3)
    env = Env("adp")
    obs = env.reset()
    before = env._core.history_counts().copy(), obs["legal_actions"]
    hand = env.infoset.player_hand_cards if env.infoset else []
    for bad in ([], [hand[-1], hand[0]], [1], [3.0], "33", None, [99], [3] * 21, [True]):
        with pytest.raises(ddz.IllegalMoveError):
            env.step(bad)  # type: ignore[arg-type]
    assert np.array_equal(env._core.history_counts(), before[0])
    again = env.step(before[1][0])
    assert again[0] is not None and again[0]["position"] == "landlord_down"


def test_bad_deals_raise() -> None:
    env = Env("adp")
    with pytest.raises(ddz.IllegalMoveError):
        env.step([3])
    good = skewed_deal(random.Random(1))
    for position in POSITIONS:
        for bad in ([], [3] * 5, [2], "3", list(range(3, 15)) * 2):
            deal = dict(good, **{position: bad})
            with pytest.raises((ValueError, TypeError)):
                env.reset(deal)
    with pytest.raises(ValueError):
        env.reset(dict(good, three_landlord_cards=[30, 30, 30]))
    with pytest.raises(TypeError):
        env.reset([1, 2])  # type: ignore[arg-type]


def test_games_end_with_douzero_rewards() -> None:
    env = Env("logadp")
    rng = random.Random(4)
    np.random.seed(4)
    for _ in range(20):
        obs = env.reset()
        while True:
            assert obs is not None
            obs, reward, done, _ = env.step(choose(obs["legal_actions"], rng))
            if done:
                break
            assert reward == 0.0
        assert abs(reward) == env._core.bomb_num + 1
        assert (reward > 0) == (env._core.winner == 0)
        with pytest.raises(ddz.IllegalMoveError):
            env.step([])
