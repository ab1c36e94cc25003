"""Positions: Game.from_position, ddz.Position, its text form, records of games that start at
a position, and the ENDGAME preset."""

from __future__ import annotations

import random

import pytest

import ddz
from ddz.rules import PRESETS


def random_play(game: ddz.Game, rng: random.Random, plies: int) -> None:
    for _ in range(plies):
        if game.is_over:
            return
        game.step(rng.choice(game.legal_actions()))


def settled(rules: ddz.Rules, seed: int) -> ddz.Game:
    """A seeded game of rules, bid through (redealt until someone is landlord)."""
    game = ddz.Game(rules, seed=seed)
    rng = random.Random(seed)
    while game.phase != "play":
        if game.is_void:
            game = game.redeal()
        else:
            game.step(rng.choice(game.legal_actions()))
    return game


def test_from_position_sets_up_every_field() -> None:
    game = ddz.Game.from_position(
        ddz.CLASSIC,
        ["334455", "JJQQ", "KKAA2"],
        landlord=2,
        to_act=0,
        table="QQ",
        table_player=1,
        played=["9", "QQ", "XD"],
        kitty="KA2",
        bid=3,
        bombs=1,
    )
    assert game.phase == "play" and game.current_player == 0 and game.landlord == 2
    assert str(game.table) == "QQ" and game.table_player == 1
    assert [str(h) for h in game.hands] == ["334455", "JJQQ", "KKAA2"]
    assert str(game.kitty) == "KA2" and game.bid == 3 and game.bombs == 1
    assert game.multiplier == 3 * 2
    assert [str(a) for a in game.legal_actions()] == ["pass"]
    observation = game.observation(0)
    assert [str(c) for c in observation.played] == ["9", "QQ", "XD"]
    assert observation.card_counts == (6, 4, 5) and str(observation.kitty) == "KA2"
    assert game.start is not None and game.start.to_act == 0
    assert len(game.set_aside) == 54 - 15 - 5
    game.step("pass")  # seat 2 passed before: the trick is back with seat 1, who leads
    assert game.current_player == 1 and game.table is None


def test_hands_as_cards_or_text_and_the_default_turn() -> None:
    by_text = ddz.Game.from_position(ddz.ENDGAME, ["34", "5"], landlord=1, to_act=1)
    by_cards = ddz.Game.from_position(
        ddz.ENDGAME, [ddz.Cards("34"), ddz.Cards("5")], landlord=1, to_act=1
    )
    assert by_text.state_bytes() == by_cards.state_bytes()
    assert by_text.position() == by_cards.position()


def test_a_position_game_plays_out_with_spring_and_let_cards() -> None:
    game = ddz.Game.from_position(ddz.ENDGAME, ["33", "4"], landlord=0, to_act=0)
    game.step("33")
    assert game.winner == 0 and game.spring and game.payoffs() == [2, -2]
    # two players, one grab: the farmer wins down to one card
    game = ddz.Game.from_position(ddz.TWO_PLAYER, ["555", "67"], landlord=0, to_act=1, grabs=1)
    assert game.multiplier == 2
    game.step("7")
    assert game.winner == 1 and game.payoffs() == [-2, 2]  # x2 grab; no spring: no opening
    # the landlord's opening move only: the farmers' spring
    game = ddz.Game.from_position(
        ddz.CLASSIC, ["6", "7", "8"], landlord=0, to_act=1, table="5", table_player=0
    )
    assert (game.start is not None) and game.start.landlord_moves == 1
    game.step("7")
    assert game.spring and game.payoffs() == [-4, 2, 2]
    game = ddz.Game.from_position(
        ddz.CLASSIC,
        ["6", "7", "8"],
        landlord=0,
        to_act=1,
        table="5",
        table_player=0,
        landlord_moves=2,
    )
    game.step("7")
    assert not game.spring and game.payoffs() == [-2, 1, 1]


def test_uno_landlord_direction() -> None:
    game = ddz.Game.from_position(
        ddz.UNO_LANDLORD,
        ["33S", "44", "55"],
        landlord=0,
        to_act=2,
        table="9",
        table_player=1,
        direction=-1,
    )
    assert game.direction == -1
    game.step("pass")  # direction -1: seat 2 passes to seat 1, the table's maker
    assert game.current_player == 1 and game.table is None


BAD = [
    (dict(hands=["3", "3", "3", "3"]), ValueError, "3 seats"),
    (dict(hands="33/44/55"), TypeError, "sequence of card sets"),
    (dict(hands=["3", "4", "5Z"]), ValueError, r"hands\[2\]"),
    (dict(hands=["3333", "3", "4"]), ValueError, "5 of '3'"),
    (dict(hands=["S", "3", "4"]), ValueError, "of 'S'"),
    (dict(hands=["3", "", "4"]), ValueError, "hand 1 is empty"),
    (dict(landlord=3), ValueError, "landlord must be a seat 0..2"),
    (dict(landlord=True), TypeError, "landlord must be a seat"),
    (dict(to_act=-1), ValueError, "to_act must be a seat"),
    (dict(table="3"), TypeError, "table_player must be a seat"),
    (dict(table_player=1), ValueError, "no table move"),
    (dict(table="3", table_player=0), ValueError, "nobody answers their own move"),
    (dict(table="pass", table_player=1), ValueError, "cannot be the pass"),
    (dict(table="3456", table_player=1), ValueError, "table: '3456' is no move"),
    (dict(table="3333+44", table_player=1), ValueError, "no move under these rules"),
    (dict(table=3, table_player=1), TypeError, "table must be a Move"),
    (dict(table="7", table_player=1, played=["", "8", ""]), ValueError, "not among the cards"),
    (dict(played=["3", "4"]), ValueError, "played has 2 entries"),
    (dict(kitty="3456"), ValueError, "kitty has 3"),
    (dict(kitty="9"), ValueError, "not among the landlord's cards"),
    (dict(bid=4), ValueError, r"bid must be in 1..3"),
    (dict(bid=1.0), TypeError, "bid must be an int"),
    (dict(bombs=15), ValueError, r"bombs must be in 0..14"),
    (dict(grabs=1), ValueError, r"grabs must be in 0..0"),
    (dict(direction=-1), ValueError, "needs Reverse cards"),
    (dict(direction=2), ValueError, "direction is 1 or -1"),
    (dict(landlord_moves=1), ValueError, "0 exactly when"),
    (dict(played=["", "", "9"], farmer_moves=0), ValueError, "0 exactly when"),
]


@pytest.mark.parametrize(("change", "error", "message"), BAD)
def test_every_field_is_validated(change: dict[str, object], error: type, message: str) -> None:
    arguments: dict[str, object] = dict(hands=["3", "4", "5"], landlord=0, to_act=0)
    arguments.update(change)
    hands = arguments.pop("hands")
    with pytest.raises(error, match=message):
        ddz.Game.from_position(ddz.CLASSIC, hands, **arguments)  # type: ignore[arg-type]


def test_let_cards_and_bidding_limits() -> None:
    with pytest.raises(ValueError, match="has already won"):
        ddz.Game.from_position(ddz.TWO_PLAYER, ["55", "67"], landlord=0, to_act=1, grabs=2)
    with pytest.raises(ValueError, match=r"bid must be in 1..1"):
        ddz.Game.from_position(ddz.TWO_PLAYER, ["55", "67"], landlord=0, to_act=1, bid=2)
    with pytest.raises(TypeError, match=r"rules must be a ddz\.Rules"):
        ddz.Game.from_position("classic", ["3", "4", "5"], landlord=0, to_act=0)  # type: ignore[arg-type]


TEXTS = [
    "456789/TJQKA2 landlord=0 turn=1 table=3@0 rules=endgame",
    "3/4/5 landlord=2 turn=0 rules=classic",
    "334455/JJQQ/KKAA2 landlord=2 turn=0 table=QQ@1 played=9/QQ/XD kitty=KA2 bid=3 bombs=1 "
    "rules=classic",
    "555/67 landlord=0 turn=1 grabs=1 rules=two-player",
    "33S/44/55 landlord=0 turn=2 table=9@1 direction=-1 rules=uno-landlord",
    "6/7/8 landlord=0 turn=1 table=5@0 moves=2,0 rules=classic",
    "KKK/89/TJ landlord=0 turn=1 table=333444+57@0 rules=classic",
    "3/4 landlord=1 turn=1 played=-/5555 bombs=1 rules=endgame",
]


@pytest.mark.parametrize("text", TEXTS)
def test_canonical_text_round_trips(text: str) -> None:
    position = ddz.Position.parse(text)
    assert str(position) == text
    assert ddz.Position.parse(str(position)) == position
    assert eval(repr(position), {"Position": ddz.Position}) == position


def test_text_defaults_and_rules() -> None:
    # two hands: the endgame rules; three: classic; the turn: the landlord, or after the table
    assert ddz.Position.parse("3/4 landlord=1").rules is ddz.ENDGAME
    assert ddz.Position.parse("3/4/5 landlord=1").to_act == 1
    assert ddz.Position.parse("3/4/5 landlord=1 table=9@1").to_act == 2
    position = ddz.Position.parse("5/6 landlord=0", rules=ddz.TWO_PLAYER.replace(spring=False))
    assert str(position) == "5/6 landlord=0 turn=0"  # no preset: no rules field
    endgame = ddz.Position.parse("3/4 landlord=0 rules=endgame", rules=ddz.ENDGAME)
    assert endgame.rules == ddz.ENDGAME


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty position"),
        ("3/4", "landlord= is missing"),
        ("3/4 landlord=0 color=red", "fields are key=value"),
        ("3/4 landlord=0 landlord=1", "given twice"),
        ("3/4 landlord=x", "landlord: 'x' is not a number"),
        ("3/4 landlord=0 table=5", "write the move, '@', the seat"),
        ("3/4 landlord=0 moves=1", "write landlord,farmers"),
        ("3/4 landlord=0 rules=chess", "presets are"),
        ("3/4/5 landlord=0 rules=endgame", "3 entries; these rules have 2 seats"),
        ("3/4 landlord=0 " + "x" * 10_000, "10015 characters, more than the 1000 read"),
        ("3/4 landlord=0" + " " * 10_000_000, "10000014 characters"),  # refused unread
        ("3/4 landlord=1_0", "landlord: '1_0' is not a number"),  # int() would read 10
        ("3/4 landlord=+0", "landlord: '\\+0' is not a number"),
        ("3/4 landlord=\u0660", "is not a number"),  # an Arabic-Indic zero: int() reads 0
    ],
)
def test_bad_text_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ddz.Position.parse(text)


def test_text_rules_must_agree_with_the_rules_passed() -> None:
    with pytest.raises(ValueError, match="other rules were passed"):
        ddz.Position.parse("3/4 landlord=0 rules=endgame", rules=ddz.TWO_PLAYER)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_positions_of_random_games_replay_the_same_future(name: str) -> None:
    """The position of a game mid-play, through its text, starts a game with the same future:
    the same legal actions at every step and the same result for the same actions."""
    rules = PRESETS[name]
    for seed in range(25):
        rng = random.Random(seed)
        game = settled(rules, seed)
        random_play(game, rng, rng.randrange(0, 30))
        if game.is_over:
            continue
        position = game.position()
        assert ddz.Position.parse(str(position), rules=rules) == position
        copy = ddz.Position.parse(str(position), rules=rules).game()
        assert copy.observation(0, history=False).played == game.observation(0).played
        while not game.is_over:
            legal = game.legal_actions()
            assert copy.legal_actions() == legal
            action = rng.choice(legal)
            game.step(action)
            copy.step(action)
        assert copy.is_over and copy.winner == game.winner
        assert copy.payoffs() == game.payoffs() and copy.spring == game.spring


@pytest.mark.parametrize("name", ["classic", "two-player", "uno-landlord", "endgame"])
def test_records_of_position_games_round_trip(name: str) -> None:
    rules = PRESETS[name]
    for seed in range(10):
        rng = random.Random(seed)
        base = settled(rules, seed)
        random_play(base, rng, 5)
        if base.is_over:
            continue
        game = base.position().game()
        random_play(game, rng, rng.randrange(1, 40))
        for again in (ddz.Game.from_json(game.to_json()), ddz.Game.from_record(game.record())):
            assert again.state_bytes() == game.state_bytes()
            assert again.history == game.history and again.start == game.start
            assert again.rules == rules
        copy = game.copy()
        assert copy.start == game.start and copy.to_json() == game.to_json()
        while game.history:
            game.undo()
        assert game.state_bytes() == game.start.game().state_bytes()  # type: ignore[union-attr]


def test_custom_rules_records() -> None:
    rules = ddz.CLASSIC.replace(four_with_two=False)
    game = ddz.Game.from_position(rules, ["3", "44", "5"], landlord=1, to_act=1)
    game.step("44")
    again = ddz.Game.from_json(game.to_json())
    assert again.rules == rules and again.winner == 1
    assert ddz.Game.from_record(game.record()).payoffs() == game.payoffs()


def test_position_is_play_phase_only() -> None:
    with pytest.raises(ValueError, match="in bidding"):
        ddz.Game(seed=1).position()


def test_endgame_preset() -> None:
    rules = ddz.ENDGAME
    assert rules.players == 2 and rules.deck == ddz.CLASSIC.deck and rules.kitty_size == 0
    assert rules.bidding is ddz.Bidding.RANDOM and PRESETS["endgame"] is rules
    for seed in range(5):
        game = ddz.Game(rules, seed=seed)  # a random 17 v 17 position, the landlord to lead
        assert game.phase == "play" and game.current_player == game.landlord
        assert [len(hand) for hand in game.hands] == [17, 17] and len(game.set_aside) == 20
    # hands of any size, the classic combinations
    game = ddz.Game.from_position(rules, ["3334445555", "XD2"], landlord=0, to_act=0)
    assert "333444+55" not in [str(m) for m in game.legal_actions()]  # wings of one rank
    assert "5555+34" in [str(m) for m in game.legal_actions()]
