"""Observations and their numpy encoding never reveal what the player may not know."""

from __future__ import annotations

import random

import ddz


def test_encoding_has_the_documented_size_and_fields() -> None:
    game = ddz.Game(seed=4)
    vector = game.observation(1).encode()
    assert vector.shape == (ddz.OBSERVATION_SIZE,)
    assert sum(width for _, width in ddz.OBSERVATION_LAYOUT) == ddz.OBSERVATION_SIZE
    assert list(vector[:17]) == list(game.hands[1].counts(actions=True))
    counts = vector[68:71]
    assert list(counts) == [17, 17, 17]


def test_other_hands_do_not_change_what_a_player_sees() -> None:
    rng = random.Random(9)
    deck = list(str(ddz.CLASSIC.deck))
    rng.shuffle(deck)
    mine, rest = "".join(deck[:17]), deck[17:]
    views = []
    for _ in range(3):
        rng.shuffle(rest)
        others = ["".join(rest[:17]), "".join(rest[17:34])]
        game = ddz.Game(deal=([mine, *others], "".join(rest[34:37])), first_player=1, seed=2)
        game.step("pass")  # seat 1 passes: a public action
        views.append(game.observation(0))
    encoded = [view.encode().tolist() for view in views]
    assert encoded[0] == encoded[1] == encoded[2]
    assert all(view.kitty is None for view in views)  # not shown before the landlord is known


def test_the_kitty_is_shown_once_the_landlord_takes_it() -> None:
    game = ddz.Game(seed=11, first_player=0)
    game.step("bid 3")
    for seat in range(3):
        observation = game.observation(seat)
        assert observation.kitty == game.kitty and observation.landlord == 0
        assert observation.hand == game.hands[seat]


def test_an_observation_may_leave_the_history_out() -> None:
    game = ddz.Game(seed=6, first_player=0)
    game.step("bid 3")
    game.step(game.legal_actions()[0])
    full, light = game.observation(1), game.observation(1, history=False)
    assert len(full.history) == 2 and light.history == ()
    assert (full.encode() == light.encode()).all()
