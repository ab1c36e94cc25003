"""Server-grade records: per-seat views, observations as JSON, ``step(player=...)``.

The leak tests build a second world that only differs in what the seat cannot see (the other
hands, the unseen kitty, the seed; for UNO two other players' hands) and plays the same
public actions: the seat's view and observation must be identical in both worlds.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ddz
from ddz import render, uno
from ddz.errors import IllegalMoveError, RecordError
from ddz.records import game_from_view

PRESETS = [ddz.CLASSIC, ddz.TWO_PLAYER, ddz.UNO_LANDLORD, ddz.DOUZERO]


def random_game(rules: ddz.Rules, seed: int, plies: int) -> ddz.Game:
    game = ddz.Game(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if game.is_over:
            break
        game.step(rng.choice(game.legal_actions()))
    return game


# --- views -----------------------------------------------------------------------------------


def test_view_hides_other_hands_the_unseen_kitty_and_the_seed() -> None:
    game = ddz.Game(seed=7)
    seen = game.view(1)
    assert seen["format"] == "ddz-view/1" and seen["seat"] == 1
    assert seen["hands"] == [None, str(game.deal[0][1]), None]
    assert seen["kitty"] is None and "seed" not in seen
    game.step("bid 3")
    assert game.view(1)["kitty"] == str(game.kitty) == "88K"  # shown to all once taken
    assert game.to_json(seat=1) == json.dumps(game.view(1))


@pytest.mark.parametrize("rules", PRESETS, ids=["classic", "two-player", "uno-landlord", "douzero"])
def test_a_view_is_the_record_with_the_hidden_fields_left_out(rules: ddz.Rules) -> None:
    for seed in range(5):
        game = random_game(rules, seed, 4 * seed)
        full = json.loads(game.to_json())
        for seat in range(rules.players):
            seen = json.loads(game.to_json(seat=seat))
            assert set(seen) == set(full) - {"seed"} | {"seat"}
            for key in ("rules", "first_player", "actions"):
                assert seen[key] == full[key]
            assert seen["hands"][seat] == full["hands"][seat]
            assert [h for i, h in enumerate(seen["hands"]) if i != seat] == [None] * (
                rules.players - 1
            )
            assert seen["kitty"] == (full["kitty"] if game.landlord is not None else None)
            with pytest.raises(ValueError):
                ddz.Game.from_json(json.dumps(seen))  # a view does not replay


def test_the_view_of_a_game_set_up_at_a_position() -> None:
    game = ddz.Game.from_position(
        ddz.ENDGAME, ["KK", "789TJQKA2"], landlord=0, to_act=1, table="333444+56", table_player=0
    )
    game.step("pass")
    seen = json.loads(game.to_json(seat=1))
    assert seen["start"]["hands"] == [None, "789TJQKA2"]
    assert seen["start"]["card_counts"] == [2, 9]
    assert seen["start"]["table"] == "333444+56" and seen["actions"] == ["pass"]
    assert "KK" not in json.dumps(seen) and "position" not in seen
    assert ddz.Observation.from_json(game.observation(0).to_json()) == game.observation(0)


def _seen_at_every_ply(game: ddz.Game, seat: int) -> list[str]:
    """What ``seat`` saw at each ply, last first (``render.text`` from that seat)."""
    probe, seen = game.copy(), []
    while True:
        seen.append(render.text(probe, seat=seat))
        if not probe.history:
            return seen
        probe.undo()


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: render.rules_name(r))
@settings(max_examples=60)  # each example renders every ply of a game twice
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 120))
def test_a_view_replays_what_its_seat_saw(rules: ddz.Rules, seed: int, plies: int) -> None:
    game = random_game(rules, seed, plies)
    seat = seed % rules.players
    again = game_from_view(game.to_json(seat=seat))
    assert again.view(seat) == game.view(seat)
    assert _seen_at_every_ply(again, seat) == _seen_at_every_ply(game, seat)


def test_a_view_of_a_game_set_up_at_a_position_replays() -> None:
    game = random_game(ddz.UNO_LANDLORD, 5, 12)
    started = game.position().game()
    rng = random.Random(5)
    while not started.is_over:
        started.step(rng.choice(started.legal_actions()))
    for seat in range(3):
        again = game_from_view(started.view(seat))
        assert _seen_at_every_ply(again, seat) == _seen_at_every_ply(started, seat)


def test_a_view_that_cannot_be_replayed_names_the_action() -> None:
    game = random_game(ddz.CLASSIC, 3, 40)
    data = game.view(0)
    player_of = {record.ply: record.player for record in game.history}
    # seat 1 or 2 plays a fifth 3 (the deck holds four): no hidden hand can hold it
    ply = next(r.ply for r in game.history if r.phase == "play" and r.player != 0)
    data["actions"][ply] = "33333"
    with pytest.raises(RecordError) as caught:
        game_from_view(data)
    assert caught.value.ply == ply + 1 and caught.value.field == "actions"
    assert player_of[ply] != 0
    # the seat's own hand does not hold what it is said to play
    data = game.view(0)
    own = next(r.ply for r in game.history if r.phase == "play" and r.player == 0)
    missing = next(rank for rank in "3456789TJQKA2XD" if rank not in str(game.deal[0][0]))
    data["actions"][own] = missing
    with pytest.raises(RecordError, match="the hand does not hold") as caught:
        game_from_view(data)
    assert caught.value.ply == own + 1
    with pytest.raises(RecordError, match="format"):
        game_from_view(game.to_json())  # the full record is no view


def test_view_refuses_a_seat_that_is_not_one() -> None:
    game = ddz.Game(ddz.TWO_PLAYER, seed=1)
    for seat in (2, -1):
        with pytest.raises(ValueError):
            game.view(seat)
    for seat in (True, "0", 1.0):  # a value of the wrong type: TypeError
        with pytest.raises(TypeError):
            game.view(seat)  # type: ignore[arg-type]
    assert game.view(np.int64(1))["seat"] == 1  # type: ignore[arg-type]


def other_world(game: ddz.Game, seat: int, rng: random.Random) -> ddz.Game:
    """The game dealt differently wherever ``seat`` cannot see, the same actions taken."""
    rules = game.rules
    played = [ddz.Cards()] * rules.players
    for record in game.history:
        if isinstance(record.action, ddz.Move):
            played[record.player] = played[record.player] + record.action.cards
    landlord = game.landlord
    # The kitty's cards that the landlord took and has not played (as far as anyone can
    # tell: cards of a rank are alike) are public.
    forced = ddz.Cards()
    if landlord is not None and landlord != seat:
        forced = game.kitty
        for card in str(played[landlord]):
            if ddz.Cards(card) <= forced:
                forced = forced - card
    # Unseen: the others' cards now (less those), the kitty until shown, the cards dealt to
    # nobody. Shuffle them and deal them again in the same numbers.
    unseen = rules.deck - game.hands[seat] - forced
    for cards in played:
        unseen = unseen - cards
    pool = list(str(unseen))
    rng.shuffle(pool)
    hands = []
    for other in range(rules.players):
        if other == seat:
            hands.append(game.deal[0][seat])
            continue
        fixed = forced if other == landlord else ddz.Cards()
        take = len(game.hands[other]) - len(fixed)
        now = ddz.Cards("".join(pool[:take])) + fixed
        pool = pool[take:]
        dealt = now + played[other]
        hands.append(dealt - game.kitty if other == landlord else dealt)
    kitty = game.kitty if landlord is not None else ddz.Cards("".join(pool[: rules.kitty_size]))
    world = ddz.Game(rules, deal=(hands, kitty), first_player=game.first_player)
    for record in game.history:
        world.step(record.action)
    return world


@given(
    rules=st.sampled_from(PRESETS),
    seed=st.integers(0, 2**32),
    plies=st.integers(0, 60),
    seat=st.integers(0, 2),
)
def test_nothing_hidden_leaks_into_a_view_or_an_observation(
    rules: ddz.Rules, seed: int, plies: int, seat: int
) -> None:
    seat %= rules.players
    game = random_game(rules, seed, plies)
    world = other_world(game, seat, random.Random(seed))
    assert world.history == game.history
    assert world.view(seat) == game.view(seat)
    assert world.to_json(seat=seat) == game.to_json(seat=seat)
    assert world.observation(seat).to_json() == game.observation(seat).to_json()
    assert world.observation(seat) == game.observation(seat)


def test_the_other_world_differs_where_the_seat_cannot_see() -> None:
    """The leak test would pass vacuously if the second world were the same game."""
    differ = 0
    for seed in range(20):
        game = random_game(ddz.CLASSIC, seed, 10)
        world = other_world(game, 0, random.Random(seed))
        differ += world.deal != game.deal
        assert world.deal[0][0] == game.deal[0][0]
    assert differ >= 18


# --- observations ----------------------------------------------------------------------------


@given(rules=st.sampled_from(PRESETS), seed=st.integers(0, 2**32), plies=st.integers(0, 80))
def test_observations_round_trip_through_json(rules: ddz.Rules, seed: int, plies: int) -> None:
    game = random_game(rules, seed, plies)
    for seat in range(rules.players):
        for history in (True, False):
            seen = game.observation(seat, history=history)
            text = seen.to_json()
            assert ddz.Observation.from_json(text) == seen
            assert ddz.Observation.from_dict(json.loads(text)) == seen
            assert json.loads(text) == seen.to_dict()


def test_observation_json_holds_cards_in_notation() -> None:
    game = ddz.Game(seed=7)
    game.step("bid 3")
    game.step("88")
    data = game.observation(0).to_dict()
    assert data["format"] == "ddz-observation/1"
    assert data["hand"] == str(game.hands[0]) and data["kitty"] == "88K"
    assert data["table"] == "88" and data["played"] == ["", "", "88"]
    assert data["history"][-1] == {"ply": 1, "player": 2, "phase": "play", "action": "88"}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"format": "ddz-game/1"}, "format"),
        ({"hand": "33Z"}, "hand"),
        ({"hand": 17}, "hand"),
        ({"player": 3}, "player"),
        ({"player": "0"}, "player"),
        ({"card_counts": [17, 17]}, None),
        ({"phase": "end"}, "phase"),
        ({"table": "3456"}, "table"),
        ({"history": [{"ply": 0}]}, "history"),
        ({"history": [{"ply": 0, "player": 0, "phase": "bidding", "action": "bid 9"}]}, "history"),
        ({"extra": 1}, "extra"),
        ({"bid": None}, "bid"),
    ],
)
def test_bad_observation_json_names_the_field(change: dict[str, object], field: str) -> None:
    data = ddz.Game(seed=7).observation(0).to_dict()
    data.update(change)
    with pytest.raises(RecordError) as caught:
        ddz.Observation.from_dict(data)
    if field is not None:
        assert caught.value.field == field
    for text in ("[", "null", '"x"', "[1, 2]"):
        with pytest.raises(RecordError):
            ddz.Observation.from_json(text)


def test_missing_observation_fields_are_named() -> None:
    data = ddz.Game(seed=7).observation(0).to_dict()
    del data["hand"]
    with pytest.raises(RecordError, match="hand"):
        ddz.Observation.from_dict(data)


# --- step(player=...) ------------------------------------------------------------------------


def test_step_refuses_the_wrong_seat_and_leaves_the_game_unchanged() -> None:
    game = ddz.Game(seed=7)  # seat 2 bids first
    before = game.state_bytes()
    for seat in (0, 1):
        with pytest.raises(IllegalMoveError, match=f"seat 2's turn, not seat {seat}'s"):
            game.step("bid 3", player=seat)
        assert game.state_bytes() == before
    for bad in (3, -1, True, "2", 2.0):
        with pytest.raises(IllegalMoveError):
            game.step("bid 3", player=bad)  # type: ignore[arg-type]
        assert game.state_bytes() == before
    record = game.step("bid 3", player=np.int8(2))  # type: ignore[arg-type]
    assert record.player == 2 and game.landlord == 2


def test_step_with_player_over_whole_games() -> None:
    for seed in range(10):
        game = ddz.Game(ddz.UNO_LANDLORD, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            action = rng.choice(game.legal_actions())
            current = game.current_player
            assert current is not None
            wrong = (current + 1) % 3
            before = game.state_bytes()
            with pytest.raises(IllegalMoveError):
                game.step(action, player=wrong)
            assert game.state_bytes() == before
            game.step(action, player=current)
        with pytest.raises(IllegalMoveError, match="over"):
            game.step("pass", player=0)


# --- UNO -------------------------------------------------------------------------------------


def random_round(players: int, seed: int, plies: int) -> uno.Game:
    game = uno.Game(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if game.is_over:
            break
        game.step(rng.choice(game.legal_actions()))
    return game


def test_uno_view() -> None:
    game = random_round(3, 5, 10)
    full = json.loads(game.to_json())
    for seat in range(3):
        seen = json.loads(game.to_json(seat=seat))
        assert seen == game.view(seat)
        assert seen["format"] == "ddz-uno-view/1" and "seed" not in seen and "deal" not in seen
        assert seen["actions"] == full["actions"] and seen["rules"] == full["rules"]
        assert seen["hand"] == " ".join(str(card) for card in game.hand(seat))
        with pytest.raises(ValueError):
            uno.Game.from_json(json.dumps(seen))
    with pytest.raises(ValueError):
        game.view(3)


@given(players=st.integers(2, 6), seed=st.integers(0, 2**32), plies=st.integers(0, 120))
def test_uno_observations_round_trip_through_json(players: int, seed: int, plies: int) -> None:
    game = random_round(players, seed, plies)
    for seat in range(players):
        seen = game.observation(seat)
        assert uno.Observation.from_json(seen.to_json()) == seen


def test_bad_uno_observation_json_names_the_field() -> None:
    good = uno.Game(3, seed=1).observation(0).to_dict()
    for change, field in [
        ({"top": "Z9"}, "top"),
        ({"hand": ["R7"]}, "hand"),
        ({"player": 5}, "player"),
        ({"colour": "purple"}, "colour"),
        ({"deciding": 1}, "deciding"),
        ({"format": "x"}, "format"),
    ]:
        data = dict(good, **change)
        with pytest.raises(RecordError) as caught:
            uno.Observation.from_dict(data)
        assert caught.value.field == field


@given(seed=st.integers(0, 2**32), seat=st.integers(0, 3), plies=st.integers(0, 80))
def test_nothing_hidden_leaks_into_an_uno_view(seed: int, seat: int, plies: int) -> None:
    """Two worlds where two other players' hands are swapped and the rest is the same: the
    seat sees the same as long as both take the same (legal in both) actions."""
    base = uno.Game(4, seed=seed)
    a, b = [other for other in range(4) if other != seat][:2]
    hands = [list(base.hand(p)) for p in range(4)]
    top = base.discard_pile[-1]
    if top.is_wild or top.face_index >= 10:
        return  # a first card with an effect: keep the two deals' openings alike simply
    swapped = list(hands)
    swapped[a], swapped[b] = hands[b], hands[a]
    first = uno.Game(4, seed=seed, deal=uno.Deal(hands, draw_pile=[top]))
    second = uno.Game(4, seed=seed, deal=uno.Deal(swapped, draw_pile=[top]))
    assert first.hand(a) != second.hand(a) or hands[a] == hands[b]
    rng = random.Random(seed)
    for _ in range(plies):
        assert first.view(seat) == second.view(seat)
        assert first.observation(seat).to_json() == second.observation(seat).to_json()
        common = [x for x in first.legal_actions() if x in set(second.legal_actions())]
        if not common or first.is_over:
            break
        action = rng.choice(common)
        first.step(action)
        second.step(action)


def test_uno_step_refuses_another_seats_action() -> None:
    game = uno.Game(players=3, seed=14)  # player 0 to act: play R4, play B6, draw
    before = game.state_bytes()
    with pytest.raises(IllegalMoveError, match="player 1 cannot take player 0's action"):
        game.step("0: play B6", player=1)
    with pytest.raises(IllegalMoveError):
        game.step(game.legal_actions()[0], player=2)
    with pytest.raises(IllegalMoveError):
        game.step("play B6", player=1)  # text without N: is player 1's: not held / not turn
    with pytest.raises(IllegalMoveError):
        game.step("play B6", player=7)
    assert game.state_bytes() == before
    assert str(game.step("play B6", player=0)) == "0: play B6"
    match = uno.Match(3, seed=2)
    current = match.game.current_player
    assert current is not None
    with pytest.raises(IllegalMoveError):
        match.step("draw", player=(current + 1) % 3)
    match.step("draw", player=current)
