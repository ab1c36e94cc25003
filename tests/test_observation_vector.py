"""The core's observation vector and legal-action formats, against slow Python references."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

import ddz
from ddz.game import HISTORY_ENTRY_LAYOUT, observation_layout, observation_size
from ddz.testing import check_env
from tests import observation_reference

VARIANTS = [ddz.CLASSIC, ddz.TWO_PLAYER, ddz.UNO_LANDLORD, ddz.DOUZERO]
IDS = ["classic", "two-player", "uno-landlord", "douzero"]
ENTRY = sum(width for _, width in HISTORY_ENTRY_LAYOUT)


def reference_vector(game: ddz.Game, player: int, history: int) -> np.ndarray:
    """observation_layout(history), built from Python objects: the Observation's encoding,
    the bombs, and the last moves of play read from the game's history records."""
    seats = game.rules.players
    base = observation_reference.encode(game.observation(player, history=False)).tolist()
    tail = [0] * (ENTRY * history)
    plays = [record for record in game.history if record.phase == "play"][::-1][:history]
    for k, record in enumerate(plays):
        assert isinstance(record.action, ddz.Move)
        tail[ENTRY * k : ENTRY * k + 17] = record.action.cards.counts(actions=True)
        tail[ENTRY * k + 17 + (record.player - player) % seats] = 1
    return np.array([*base, game.bombs, *tail], dtype=np.int8)


def random_states(rules: ddz.Rules, games: int, seed: int):  # type: ignore[no-untyped-def]
    """Every state of `games` random games (bidding, play and the end)."""
    rng = random.Random(seed)
    for index in range(games):
        game = ddz.Game(rules, seed=seed * 1000 + index)
        yield game
        while not game.is_over:
            game.push(rng.choice(game.legal_actions()))
            yield game


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_the_core_vector_equals_the_python_reference(rules: ddz.Rules) -> None:
    space = ddz.ActionSpace(rules)
    states = 0
    out = np.empty(observation_size(4), dtype=np.int8)
    for game in random_states(rules, 50, seed=len(IDS) + rules.players):
        history = states % 7  # 0 .. 6 moves back, so short and long histories both occur
        for seat in range(rules.players):
            expected = reference_vector(game, seat, history)
            assert np.array_equal(game.observation_vector(seat, history=history), expected)
            assert np.array_equal(
                game.observation_vector(seat)[: ddz.OBSERVATION_SIZE],
                game.observation(seat).encode(),
            )
        seat = states % rules.players
        assert game.observation_vector(seat, history=4, out=out) is out
        assert np.array_equal(out, reference_vector(game, seat, 4))
        legal = game.legal_actions()
        assert game.legal_codes().tolist() == [action.code for action in legal]
        assert game.legal_indices().tolist() == [space.index(action) for action in legal]
        assert np.array_equal(game.legal_action_mask(), space.mask(legal))
        states += 1
    assert states > 1000


def test_history_keeps_its_place_through_undo_and_copy() -> None:
    game = ddz.Game(seed=3)
    rng = random.Random(3)
    while not game.is_over:
        game.push(rng.choice(game.legal_actions()))
    seen = [game.observation_vector(0)]
    copy = game.copy()
    for _ in range(10):
        game.undo()
        seen.append(game.observation_vector(0))
    for vector in reversed(seen[:-1]):
        game.push(copy.history[len(game.history)].action)
        assert np.array_equal(game.observation_vector(0), vector)
    assert np.array_equal(copy.observation_vector(0), seen[0])


def test_games_of_several_rule_sets_index_their_own_space() -> None:
    """Game keeps the last rule set's tables by identity (a lookup by Rules hashes every
    field): games of different, equal and distinct rule sets taking turns must each use
    their own action space."""
    rule_sets = [ddz.CLASSIC, ddz.TWO_PLAYER, ddz.CLASSIC.replace(), ddz.UNO_LANDLORD]
    games = [ddz.Game(rules, seed=4) for rules in rule_sets]
    rng = random.Random(4)
    while any(not game.is_over for game in games):
        for game in games:
            if game.is_over:
                continue
            space = ddz.ActionSpace(game.rules)
            indices = game.legal_indices()
            assert indices.tolist() == [space.index(a) for a in game.legal_actions()]
            chosen = int(indices[rng.randrange(len(indices))])
            assert game.step(chosen).action.code == int(space.codes[chosen])


def test_observation_size_refuses_what_the_layout_refuses() -> None:
    assert observation_size(1) == observation_size(1) == 141 + ENTRY
    for bad in (True, np.int64(1), 1.0, -1):
        with pytest.raises(ValueError, match="history"):
            observation_size(bad)  # type: ignore[arg-type]


def test_layout_describes_the_vector() -> None:
    assert observation_layout(0)[: len(ddz.OBSERVATION_LAYOUT)] == ddz.OBSERVATION_LAYOUT
    for history in (0, 1, 15, 40):
        vector = ddz.Game(seed=1).observation_vector(2, history=history)
        assert len(vector) == observation_size(history) == 141 + ENTRY * history
    with pytest.raises(ValueError, match="history"):
        observation_layout(-1)
    with pytest.raises(ValueError, match="history"):
        ddz.Game(seed=1).observation_vector(0, history=10**6)
    with pytest.raises(ValueError, match="player"):
        ddz.Game(seed=1).observation_vector(3)
    with pytest.raises(ValueError, match="out"):
        ddz.Game(seed=1).observation_vector(0, out=np.empty(441, dtype=np.int64))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="entries"):
        ddz.Game(seed=1).observation_vector(0, out=np.empty(440, dtype=np.int8))


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_the_vector_of_games_equals_single_games(rules: ddz.Rules) -> None:
    assert check_env(rules, games=6, steps=150, seed=rules.players) > 0


def test_vector_formats_and_buffers() -> None:
    vector = ddz.VectorGame(16, seed=4, history=3)
    for _ in range(40):
        vector.step(vector.sample_legal())
    dense = vector.legal_action_mask()
    bits = vector.packed_action_mask()
    indices, offsets = vector.legal_indices()
    assert np.array_equal(
        np.unpackbits(bits, axis=1, count=vector.num_actions, bitorder="little").astype(bool),
        dense,
    )
    rows = np.repeat(np.arange(16), np.diff(offsets))
    rebuilt = np.zeros_like(dense)
    rebuilt[rows, indices] = True
    assert np.array_equal(rebuilt, dense)
    out = np.ones_like(dense)
    assert vector.legal_action_mask(out=out) is out and np.array_equal(out, dense)
    observations = vector.observations()
    assert observations.shape == (16, observation_size(3))
    assert np.array_equal(vector.observations(history=1), observations[:, : observation_size(1)])
    with pytest.raises(ValueError, match="remembers"):
        vector.observations(history=4)
    with pytest.raises(ValueError, match="out"):
        vector.legal_action_mask(out=np.zeros((15, vector.num_actions), dtype=bool))
    with pytest.raises(ValueError, match="out"):
        vector.observations(out=np.zeros((16, 3), dtype=np.int8))


def test_uno_observation_vector_equals_encode() -> None:
    from ddz import uno

    rng = random.Random(5)
    checked = 0
    for seed in range(12):
        game = uno.Game(players=2 + seed % 4, seed=seed)
        for _ in range(60):
            if game.is_over:
                break
            for seat in range(game.players):
                assert np.array_equal(
                    game.observation_vector(seat), game.observation(seat).encode()
                )
                checked += 1
            game.push(rng.choice(game.legal_actions()))
    assert checked > 1000
    with pytest.raises(ValueError, match="player"):
        uno.Game(players=2, seed=1).observation_vector(2)


def test_the_vectors_own_mask_follows_every_step() -> None:
    vector = ddz.VectorGame(8, seed=9)
    for _ in range(120):  # through bidding, play and new deals
        own = vector.legal_action_mask(copy=False)
        assert not own.flags.writeable
        assert np.array_equal(own, vector.legal_action_mask())
        vector.step(vector.sample_legal())


def test_copies_and_pickles_keep_the_remembered_moves() -> None:
    import copy
    import pickle

    vector = ddz.VectorGame(6, seed=2, history=4)
    for _ in range(50):
        vector.step(vector.sample_legal())
    for duplicate in (lambda v: v.copy(), copy.deepcopy, lambda v: pickle.loads(pickle.dumps(v))):
        other = duplicate(vector)
        assert np.array_equal(other.observations(), vector.observations())
        assert np.array_equal(other.legal_action_mask(copy=False), vector.legal_action_mask())
        actions = vector.sample_legal()
        other.step(actions)
        vector.step(actions)
        assert np.array_equal(other.observations(), vector.observations())


@pytest.mark.parametrize("rules", VARIANTS, ids=IDS)
def test_encode_equals_the_python_reference(rules: ddz.Rules) -> None:
    """Observation.encode() (the core's encoder, from the observation's fields) against the
    field-by-field Python encoder, on every state of random games and on observations
    changed by hand (a kitty shown before a landlord, no table player)."""
    for game in random_states(rules, 30, seed=rules.players):
        for seat in range(rules.players):
            seen = game.observation(seat, history=False)
            assert np.array_equal(seen.encode(), observation_reference.encode(seen))
    odd = dataclasses.replace(
        ddz.Game(rules, seed=1).observation(0), kitty=rules.deck - rules.deck, landlord=None
    )
    assert np.array_equal(odd.encode(), observation_reference.encode(odd))


def test_the_layout_is_the_cores() -> None:
    """The layout is defined once, in Python; the core's constants agree with it."""
    from ddz._core import game as core

    assert ddz.OBSERVATION_SIZE == core.OBSERVATION_BASE
    assert observation_size(0) == core.OBSERVATION_BASE + 1
    assert sum(width for _, width in HISTORY_ENTRY_LAYOUT) == ENTRY


def test_encode_refuses_fields_out_of_range() -> None:
    seen = ddz.Game(seed=1).observation(0)
    with pytest.raises(ValueError):
        dataclasses.replace(seen, card_counts=(17, 17, 200)).encode()
    with pytest.raises(ValueError):
        dataclasses.replace(seen, bid=9).encode()
