"""The 64-bit state key: kept incrementally, equal to a from-scratch computation, restored by
undo, equal for transposed move orders, different for different states."""

from __future__ import annotations

import random

import pytest

import ddz
from ddz import uno
from ddz.rules import PRESETS
from ddz.testing import check_env


def signature(game: ddz.Game) -> tuple[object, ...]:
    """Everything the key covers (docs/positions.md, "The state key"), read from the API."""
    core = game._core
    spring = (min(core.landlord_plays, 2), core.farmer_plays > 0) if game.rules.spring else ()
    bidding = ()
    if game.phase == "bidding":
        bidding = (core.bid, core.high_bidder, core.caller, game.grabs, str(game.kitty))
    return (
        tuple(game.hands),
        game.phase,
        game.current_player,
        game.landlord,
        core.table,
        game.table_player,
        game.direction,
        game.grabs,
        game.winner,
        game.is_void,
        spring,
        bidding,
        # in bidding, every field (few states; the ply there moves with the bidding turns)
        core.state_bytes() if game.phase == "bidding" else b"",
    )


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_incremental_key_equals_from_scratch_and_undo_restores_it(name: str) -> None:
    rules = PRESETS[name]
    rng = random.Random(name)
    steps = 0
    for seed in range(40):
        game = ddz.Game(rules, seed=seed)
        keys = [game.key]
        while not game.is_over:
            assert game.key == game._core.key_from_scratch(), (seed, len(keys))
            game.push(rng.choice(game.legal_actions()))
            keys.append(game.key)
            steps += 1
        assert game.key == game._core.key_from_scratch()
        copy = game.copy()
        assert copy.key == game.key
        for key in reversed(keys[:-1]):
            game.undo()
            assert game.key == key
    assert steps > 500


def test_different_states_differ_and_equal_states_agree() -> None:
    """Over every state of many random games, keys and the covered fields match one to one:
    no two different states share a key, no state has two keys."""
    by_key: dict[int, tuple[object, ...]] = {}
    by_signature: dict[tuple[object, ...], int] = {}
    rng = random.Random(5)
    for rules in (ddz.CLASSIC, ddz.TWO_PLAYER, ddz.UNO_LANDLORD):
        for seed in range(60):
            game = ddz.Game(rules, seed=seed)
            while True:
                seen = (*signature(game), rules)
                assert by_key.setdefault(game.key, seen) == seen
                assert by_signature.setdefault(seen, game.key) == game.key
                if game.is_over:
                    break
                game.push(rng.choice(game.legal_actions()))
    assert len(by_key) > 5000


def test_transposed_move_orders_meet_on_one_key() -> None:
    start = ddz.Game.from_position(ddz.ENDGAME, ["3459", "D"], landlord=0, to_act=0)
    one, other = start.copy(), start.copy()
    for action in ("3", "pass", "4", "pass"):
        one.step(action)
    for action in ("4", "pass", "3", "pass"):
        other.step(action)
    assert one.key == other.key and one.history != other.history
    assert one.key != start.key
    # the same cards played as a bomb or as a trio and a single: the bombs differ, the key not
    start = ddz.Game.from_position(ddz.ENDGAME, ["333389", "D"], landlord=0, to_act=0)
    one, other = start.copy(), start.copy()
    for action in ("3333", "pass", "8", "pass"):
        one.step(action)
    for action in ("333+8", "pass", "3", "pass"):
        other.step(action)
    assert one.bombs == 1 and other.bombs == 0 and one.key == other.key
    # a dealt game and the same position set up anew: other ply, bid, first bidder; one key
    rng = random.Random(3)
    for seed in range(30):
        game = ddz.Game(seed=seed)
        while game.phase != "over" and (game.phase == "bidding" or rng.random() < 0.9):
            game.push(rng.choice(game.legal_actions()))
        if game.phase == "play":
            again = game.position().game()
            assert again.key == game.key and again.state_bytes() != game.state_bytes()


def test_what_the_key_leaves_out_and_what_it_covers() -> None:
    def key(**change: object) -> int:
        fields: dict[str, object] = dict(landlord=0, to_act=1, table="9", table_player=0)
        fields.update(change)
        return ddz.Game.from_position(ddz.CLASSIC, ["34", "56", "78"], **fields).key  # type: ignore[arg-type]

    base = key()
    assert key(bombs=3) == key(bid=2) == key(kitty="9") == base  # score and the shown kitty
    assert key(played=["9", "TT", "JJ"]) == key(played=["9", "QQ", "KK"])  # the past
    assert key(to_act=2) != base and key(table="T") != base and key(landlord=1) != base
    assert key(table="9", table_player=2) != base
    assert key(landlord_moves=2) != base  # a spring is no longer possible: another future
    no_spring = ddz.CLASSIC.replace(spring=False)
    assert (
        ddz.Game.from_position(
            no_spring, ["3", "4", "5"], landlord=0, to_act=0, played=["6", "", ""], landlord_moves=1
        ).key
        == ddz.Game.from_position(
            no_spring, ["3", "4", "5"], landlord=0, to_act=0, played=["6", "", ""], landlord_moves=2
        ).key
    )
    # seats matter: the same cards in other hands
    assert (
        ddz.Game.from_position(ddz.ENDGAME, ["3", "4"], landlord=0, to_act=0).key
        != ddz.Game.from_position(ddz.ENDGAME, ["4", "3"], landlord=0, to_act=0).key
    )


def test_vector_game_keys() -> None:
    assert check_env(ddz.TWO_PLAYER, games=4, steps=150, seed=2) >= 0  # compares keys
    vector = ddz.VectorGame(6, seed=4)
    keys = vector.keys
    assert keys.dtype.name == "uint64" and keys.shape == (6,)
    assert [int(k) for k in keys] == [ddz.Game(seed=vector.deal_seed(i)).key for i in range(6)]


@pytest.mark.parametrize("players", [2, 4])
def test_uno_keys(players: int) -> None:
    rng = random.Random(players)
    for seed in range(15):
        game = uno.Game(players, seed=seed)
        keys = [game.key]
        while not game.is_over and len(keys) < 400:
            assert game.key == game._core.key_from_scratch()
            game.step(rng.choice(game.legal_actions()))
            keys.append(game.key)
        assert len(set(keys)) == len(keys)  # every step changes the state (the pile at least)
        for key in reversed(keys[:-1]):
            game.undo()
            assert game.key == key
    assert uno.Game(players, seed=1).key == uno.Game(players, seed=1).key
    assert uno.Game(players, seed=1).key != uno.Game(players, seed=2).key
    again = uno.Game.from_json(game.to_json())
    assert again.key == game.key
    vector = uno.VectorGame(3, players=players, seed=7)
    assert [int(k) for k in vector.keys] == [
        uno.Game(players, seed=vector.deal_seed(i)).key for i in range(3)
    ]
