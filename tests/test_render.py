"""The text tables: str(game) for every Dou Dizhu variant and for UNO, one seat's view."""

from __future__ import annotations

import random

import pytest

import ddz
import ddz.svg
from ddz import render, uno
from ddz.rules import PRESETS
from ddz.uno import render as uno_render

VARIANTS = ["classic", "two-player", "uno-landlord"]


def played(rules: ddz.Rules, seed: int, actions: int) -> ddz.Game:
    """A game after ``actions`` random actions (fewer if it ends)."""
    game = ddz.Game(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if game.is_over:
            break
        game.step(rng.choice(game.legal_actions()))
    return game


def rows(table: str) -> dict[int, list[str]]:
    """The seat rows of a table: seat -> its columns (marker dropped)."""
    found = {}
    for line in table.splitlines():
        words = line[2:].split()
        if line[:2] in ("> ", "  ") and words and words[0].isdigit():
            found[int(words[0])] = words[1:]
    return found


@pytest.mark.parametrize("variant", VARIANTS)
def test_str_shows_every_hand_and_the_state(variant: str) -> None:
    rules = PRESETS[variant]
    for seed, actions in [(1, 0), (2, 6), (3, 25), (4, 400)]:
        game = played(rules, seed, actions)
        table = str(game)
        assert table == render.text(game)
        assert table.startswith(f"Dou Dizhu, {variant} rules: ")
        seats = rows(table)
        assert sorted(seats) == list(range(rules.players))
        for seat, hand in enumerate(game.hands):
            # role, count, then the hand grouped by rank (or "-" when empty)
            assert int(seats[seat][1]) == len(hand)
            assert "".join(seats[seat][2:]).replace("-", "") == str(hand)
        if game.current_player is not None:
            assert f"\n> {game.current_player} " in table
        assert ("to beat " in table) == (game.phase == "play")
        assert ("result  " in table) == game.is_over
        assert f"score   x{game.multiplier}" in table or "score   no bid yet" in table
    assert repr(game).startswith("<Game ") and "\n" not in repr(game)


@pytest.mark.parametrize("variant", VARIANTS)
def test_one_seat_sees_its_own_hand_only(variant: str) -> None:
    rules = PRESETS[variant]
    game = played(rules, 5, 8)
    for seat in range(rules.players):
        seen = rows(render.text(game, seat=seat))
        for other in range(rules.players):
            shown = seen[other][2:]
            if other == seat:
                assert "".join(shown).replace("-", "") == str(game.hands[seat])
            else:
                assert shown == ["hidden"]
            assert int(seen[other][1]) == len(game.hands[other])
        # the observation draws the same rows
        assert rows(str(game.observation(seat))) == seen
    with pytest.raises(ValueError, match="seat must be"):
        render.text(game, seat=rules.players)


def test_the_kitty_is_hidden_from_a_seat_until_the_landlord_takes_it() -> None:
    game = ddz.Game(seed=7)
    assert "kitty   3 cards, face down" in render.text(game, seat=0)
    assert "kitty   88 K" in str(game)  # everyone's view shows it
    game.step("bid 3")
    assert "kitty   88 K" in render.text(game, seat=0)


def test_the_cards_out_of_play_show_in_the_every_hand_view_only() -> None:
    game = ddz.Game(rules=ddz.TWO_PLAYER, seed=3)
    assert len(game.set_aside) == 9
    aside = f"aside   {render.grouped(game.set_aside)}  (out of play)"
    assert aside in str(game).splitlines()
    assert all("aside" not in render.text(game, seat=seat) for seat in range(2))
    assert "aside" not in str(game.observation(0))
    assert "aside" not in str(ddz.Game(seed=3))  # classic deals every card
    # a position's unmentioned cards are most of the deck: not drawn
    position = ddz.Game.from_position(ddz.ENDGAME, ["3KK", "44A"], landlord=0, to_act=0)
    assert "aside" not in str(position)


def test_the_trick_is_the_current_one_from_its_lead() -> None:
    game = ddz.Game(seed=7)
    for action in ["bid 3", "44", "66"]:
        game.step(action)
    assert "trick   2: 44, 0: 66" in str(game)
    assert "to beat 66  (seat 0)" in str(game)
    game.step("pass")
    game.step("pass")  # the trick is over: it stays shown while seat 0 leads
    assert "trick   2: 44, 0: 66, 1: pass, 2: pass" in str(game)
    assert "to beat -  (seat 0 leads)" in str(game)
    game.step("3")
    assert "trick   0: 3\n" in str(game)


def test_a_finished_and_a_void_game() -> None:
    game = played(ddz.CLASSIC, 11, 1000)
    assert game.is_over and not game.is_void
    table = str(game)
    assert "over after" in table and "result  " in table
    assert " ".join(f"{p:+d}" for p in game.payoffs()) in table
    void = ddz.Game(seed=3)
    while not void.is_over:
        void.step("pass")
    assert "result  void deal: everyone passed" in str(void)
    assert "result  void deal: everyone passed" in str(void.observation(1))


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_finished_games_observation_says_who_won(variant: str) -> None:
    game = played(PRESETS[variant], 11, 1000)
    while game.is_void:
        game = played(PRESETS[variant], game.seed + 1, 1000)
    side = "landlord wins" if game.winner == game.landlord else "farmers win"
    for seat in range(game.rules.players):
        seen = str(game.observation(seat))
        assert f"result  {side} (seat {game.winner} out)" in seen, seen
        assert str(game).splitlines()[-1].startswith(f"result  {side} (seat {game.winner} out)")


def test_uno_tables() -> None:
    game = uno.Game(players=4, seed=14)
    agents = [uno.make_agent("greedy")] * 4
    for _ in range(6):
        uno.play_turn(game, agents)
    table = str(game)
    assert table == uno_render.text(game)
    assert table.startswith("UNO, lombardy rules, 4 players: ply ")
    assert f"top     {game.top}, colour {game.colour}" in table
    for seat in range(4):
        line = next(row for row in table.splitlines() if row[2:].startswith(f"{seat} "))
        assert line.split()[-len(game.hand(seat)) :] == [str(c) for c in game.hand(seat)]
    mine = uno_render.text(game, seat=2)
    assert mine.count("hidden") == 3 and "(you are player 2)" in mine
    assert str(game.observation(2)).count("hidden") == 3
    uno.play_round(game, agents)
    assert "result  " in str(game) and "points  " in str(game)
    assert repr(game).startswith("<uno.Game")
    with pytest.raises(ValueError, match="seat must be"):
        uno_render.text(game, seat=4)


def test_uno_penalty_and_reversed_turns_show() -> None:
    game = uno.Game(deal=uno.Deal(["R+2 R5", "G+2 G3", "B4 B7"], draw_pile="R1"), seed=1)
    game.step("play R+2")
    assert "penalty +2: player 1 stacks a Draw Two or draws" in str(game)
    reverse = uno.Game(deal=uno.Deal(["RR R5", "G4 G3", "B4 B7"], draw_pile="R1"), seed=1)
    reverse.step("play RR")
    assert "turns 2 -> 1 -> 0" in str(reverse)


def test_a_position_without_a_kitty() -> None:
    game = ddz.Game.from_position(
        ddz.ENDGAME, ["3", "4"], landlord=0, to_act=0, table="5", table_player=1
    )
    table = str(game)
    assert "kitty" not in table and "to beat 5  (seat 1)" in table
    game.step("pass")
    assert "trick   0: pass" in str(game)  # the move set up with the position is no action
    assert "kitty" not in ddz.svg.table(game)
