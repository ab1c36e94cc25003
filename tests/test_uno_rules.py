"""A scripted situation for every rule of docs/uno.md (UNO with Lombardy house rules).

Each test fixes the deal with ``uno.Deal``: the hands, then the draw pile with the next card
first (its first card is flipped as the starting card); the dealer is the last seat, so
seat 0 plays first.
"""

from __future__ import annotations

import collections

import pytest

from ddz import IllegalMoveError, uno
from ddz.uno import LOMBARDY, STANDARD, Card, Rules

NO_HOUSE = STANDARD


def make(
    hands: list[str],
    draw: str = "",
    *,
    rules: Rules = LOMBARDY,
    dealer: int | None = None,
    discard: str = "",
    rest: str = "draw",
    seed: int = 1,
) -> uno.Game:
    deal = uno.Deal(hands, draw, discard, rest)  # type: ignore[arg-type]
    return uno.Game(len(hands), seed=seed, rules=rules, dealer=dealer, deal=deal)


def legal(game: uno.Game, player: int | None = None) -> list[str]:
    return [str(action) for action in game.legal_actions(player)]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(sorted(uno.parse_cards(text)))


def total_cards(game: uno.Game) -> int:
    return len(game.draw_pile) + len(game.discard_pile) + sum(map(len, game.hands))


def assert_unchanged_on_error(game: uno.Game, action: str, message: str) -> None:
    before = game.state_bytes()
    with pytest.raises(IllegalMoveError, match=message):
        game.step(action)
    assert game.state_bytes() == before


# --- setup and the first card -----------------------------------------------------------


def test_seeded_deal_is_seven_each_and_the_dealers_left_goes_first() -> None:
    game = uno.Game(4, seed=9, dealer=1)
    assert [len(hand) for hand in game.hands] == [7, 7, 7, 7]
    assert total_cards(game) == 108
    assert game.current_player in (2, 3)  # 2, unless the first card skipped them


def test_first_card_number_plays_normally() -> None:
    game = make(["R1 G2", "B3 Y4", "Y5 Y6"], "R5 G7 B9")
    assert (str(game.top), game.colour, game.current_player) == ("R5", "red", 0)
    assert game.draw_pile[:2] == cards("G7 B9")
    assert legal(game) == ["0: play R1", "0: draw"]


def test_first_card_skip_skips_the_first_player() -> None:
    game = make(["R1", "B3", "Y5"], "RS")
    assert game.current_player == 1


def test_first_card_reverse_turns_play_back_from_the_dealer() -> None:
    game = make(["R1", "B3", "Y5", "G6"], "RR")  # dealer 3
    assert (game.direction, game.current_player) == (-1, 2)
    two = make(["R1", "B3"], "RR")  # two players: a Reverse is a Skip, the dealer starts
    assert (two.direction, two.current_player) == (-1, 1)


def test_first_card_draw_two_hits_the_first_player() -> None:
    game = make(["R1", "B3", "Y5"], "R+2 G7 G8 G9", rules=NO_HOUSE)
    assert game.hand(0) == cards("R1 G7 G8")
    assert game.current_player == 1
    stacking = make(["R1 B+2", "B3", "Y5"], "R+2 G7 G8 G9")
    assert (stacking.pending, stacking.current_player) == (2, 0)
    assert legal(stacking, 0) == ["0: play B+2", "0: draw"]


def test_first_card_wild_lets_the_first_player_choose() -> None:
    game = make(["R1 G2", "B3", "Y5"], "W")
    assert (game.colour, game.current_player) == (None, 0)
    assert legal(game) == [f"0: colour {c}" for c in uno.COLOURS]
    assert_unchanged_on_error(game, "play G2", "chooses the colour first")
    game.step("colour green")
    assert (game.colour, game.current_player) == ("green", 0)
    assert legal(game) == ["0: play G2", "0: draw"]


def test_first_card_wild_draw_four_is_shuffled_back() -> None:
    game = make(["R1", "B3"], "W+4 W+4 R5")
    assert game.top != Card.parse("W+4")
    assert game.draw_pile.count(Card.parse("W+4")) == 4
    assert total_cards(game) == 108


# --- a turn --------------------------------------------------------------------------------


def test_play_by_colour_number_symbol_or_wild() -> None:
    game = make(["R1 G5 BS W Y7", "GS G9", "B1"], "R5")
    assert legal(game, 0) == [
        "0: play R1",
        "0: play G5",
        *[f"0: play W {c}" for c in uno.COLOURS],
        "0: draw",
    ]
    game.step("play G5")
    assert game.colour == "green"
    game.step("play GS")  # by colour; the skip passes over seat 2
    assert game.current_player == 0
    game.step("play BS")  # by symbol
    assert game.colour == "blue"


def test_an_illegal_play_changes_nothing() -> None:
    game = make(["R1 Y7", "B3", "B4"], "R5")
    assert_unchanged_on_error(game, "play Y7", "matches neither")
    assert_unchanged_on_error(game, "play G7", "does not hold G7")
    assert_unchanged_on_error(game, "1: draw", "it is player 0's turn")
    assert_unchanged_on_error(game, "play Y7 blue", "Y7 is yellow")
    assert_unchanged_on_error(game, "fold", "no action")
    assert_unchanged_on_error(game, "keep", "keep follows")
    assert_unchanged_on_error(game, "3: draw", "no player 3")


def test_draw_a_playable_card_then_play_it_or_keep_it() -> None:
    game = make(["Y7 G3", "B3", "B4"], "R5 R8")
    game.step("draw")
    assert game.drawn == Card.parse("R8") and game.current_player == 0
    assert legal(game, 0) == ["0: play R8", "0: keep"]
    assert_unchanged_on_error(game, "play Y7", "just drew R8")
    kept = game.copy()
    kept.step("keep")
    assert kept.current_player == 1 and Card.parse("R8") in kept.hand(0)
    game.step("play R8")
    assert game.top == Card.parse("R8") and game.current_player == 1


def test_draw_an_unplayable_card_ends_the_turn() -> None:
    game = make(["Y7 G3", "B3", "B4"], "R5 G9")
    game.step("draw")
    assert game.current_player == 1 and game.drawn is None
    assert game.hand(0) == cards("Y7 G3 G9")


def test_drawing_is_allowed_with_a_playable_card() -> None:
    game = make(["R7", "B3", "B4"], "R5 B9")
    assert "0: draw" in legal(game)


# --- action cards --------------------------------------------------------------------------


def test_skip() -> None:
    game = make(["RS R1", "B3", "B4"], "R5")
    game.step("play RS")
    assert game.current_player == 2


def test_reverse_with_three_players() -> None:
    game = make(["RR R1", "B3", "R4 R6"], "R5")
    game.step("play RR")
    assert (game.direction, game.current_player) == (-1, 2)
    game.step("play R4")
    assert game.current_player == 1


def test_reverse_with_two_players_acts_as_a_skip() -> None:
    game = make(["RR R1", "B3"], "R5", rules=NO_HOUSE)
    game.step("play RR")
    assert (game.direction, game.current_player) == (-1, 0)
    game.step("play R1")
    assert game.winner == 0


def test_draw_two_without_stacking() -> None:
    game = make(["R+2 R1", "B3", "B4"], "R5 G1 G2 G3", rules=NO_HOUSE)
    game.step("play R+2")
    assert game.hand(1) == cards("B3 G1 G2")
    assert game.current_player == 2


def test_wild_draw_four_without_stacking() -> None:
    game = make(["W+4 R1", "B3", "B4"], "R5 G1 G2 G3 G4 G5", rules=NO_HOUSE)
    game.step("play W+4 blue")
    assert game.hand(1) == cards("B3 G1 G2 G3 G4")
    assert (game.current_player, game.colour) == (2, "blue")


def test_wild_chooses_the_colour() -> None:
    game = make(["W R1 R2", "B3", "Y4"], "G5")
    game.step("play W yellow")
    assert (game.top, game.colour) == (uno.CARDS[52], "yellow")
    assert legal(game, 1) == ["1: draw"]


# --- stacking ------------------------------------------------------------------------------


def test_draw_twos_stack_and_the_first_who_cannot_draws_the_total() -> None:
    game = make(["R+2 R1 R2", "G+2 G1 G2", "B4 B5", "Y1"], "R5 Y2 Y3 Y4 Y5")
    game.step("play R+2")
    assert (game.pending, game.current_player) == (2, 1)
    assert legal(game, 1) == ["1: play G+2", "1: draw"]
    game.step("play G+2")
    assert (game.pending, game.current_player) == (4, 2)
    assert legal(game, 2) == ["2: draw"]
    assert_unchanged_on_error(game, "play B4", "faces \\+4: stack a Draw Two or draw")
    game.step("draw")
    assert game.hand(2) == cards("B4 B5 Y2 Y3 Y4 Y5")
    assert (game.pending, game.current_player) == (0, 3)


def test_wild_draw_fours_stack() -> None:
    game = make(["W+4 R1", "W+4 G1", "B4"], "R5 Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8")
    game.step("play W+4 red")
    game.step("play W+4 green")
    assert (game.pending, game.current_player, game.colour) == (8, 2, "green")
    game.step("draw")
    assert len(game.hand(2)) == 9 and game.current_player == 0


def test_penalties_never_mix() -> None:
    game = make(["R+2 R1", "W+4 G+2 G1", "B4"], "R5")
    game.step("play R+2")
    assert "1: play W+4 red" not in legal(game)
    assert_unchanged_on_error(game, "play W+4 red", "stack a Draw Two")
    other = make(["W+4 R1 R2", "G+2 G1", "B4"], "R5")
    other.step("play W+4 green")
    assert legal(other, 1) == ["1: draw"]
    assert_unchanged_on_error(other, "play G+2", "stack a Wild Draw Four")


# --- jump-in -------------------------------------------------------------------------------


def test_jump_in_with_the_exact_twin() -> None:
    game = make(["R7 R1 R2", "B7 B1", "R7 G1 G2", "Y1 Y2"], "R5")
    game.step("play R7")
    assert legal(game) == ["1: play B7", "1: draw", "2: play R7"]  # B7 is no twin
    game.step("2: play R7")
    assert game.current_player == 3  # play continues from the jumper
    assert game.hand(2) == cards("G1 G2")
    assert game.jump_in_player is not None  # the twin's twin is gone, but the window is open
    assert legal(game) == ["3: draw"]


def test_jump_in_window_closes_when_the_next_player_acts() -> None:
    game = make(["R7 R1 Y3", "R2 B1 B2", "G1 G4", "R7 Y1 Y2"], "R5")
    game.step("play R7")
    assert "3: play R7" in legal(game)
    game.step("play R2")
    assert "3: play R7" not in legal(game)
    assert game.is_wrong_jump_in("3: play R7")


def test_no_jump_in_on_a_wild() -> None:
    game = make(["W R1 Y3", "B1", "W G1", "Y1"], "R5")
    game.step("play W red")
    assert legal(game, 2) == []
    assert game.is_wrong_jump_in("2: play W blue")


def test_a_wrong_jump_in_costs_two_cards_and_play_goes_on() -> None:
    game = make(["R7 R1", "B1 B2", "G1", "B7 Y1"], "R5 G8 G9")
    game.step("play R7")
    assert game.is_wrong_jump_in("3: play B7")
    assert game.why_illegal("3: play B7") is None
    game.step("3: play B7")
    assert game.hand(3) == cards("B7 Y1 G8 G9")
    assert (game.current_player, game.top) == (1, Card.parse("R7"))


def test_jumping_in_on_your_own_card_is_wrong() -> None:
    game = make(["R7 R7 R1", "B1", "G1"], "R5 G8 G9")
    game.step("play R7")
    assert game.is_wrong_jump_in("0: play R7")


def test_a_skipped_player_may_jump_in() -> None:
    game = make(["RS R1 Y3", "RS B1"], "R5")
    game.step("play RS")  # two players: seat 0 again
    assert legal(game) == ["0: play R1", "0: draw", "1: play RS"]
    game.step("1: play RS")
    assert game.current_player == 1  # the jumper's Skip passes over seat 0


def test_stacked_draw_twos_on_a_jump_in() -> None:
    game = make(["R+2 R1", "G1 G2", "R+2 B1", "Y1 Y2"], "R5 Y3 Y4 Y5 Y6")
    game.step("play R+2")
    assert (game.pending, game.current_player) == (2, 1)
    game.step("2: play R+2")
    assert (game.pending, game.current_player) == (4, 3)
    game.step("draw")
    assert game.hand(3) == cards("Y1 Y2 Y3 Y4 Y5 Y6")
    assert game.hand(1) == cards("G1 G2")  # seat 1 was jumped over and owes nothing
    assert game.current_player == 0


def test_out_of_turn_play_is_illegal_without_jump_ins() -> None:
    game = make(["R7 R1 Y3", "B1", "R7 G1"], "R5", rules=LOMBARDY.replace(jump_in=False))
    game.step("play R7")
    assert legal(game, 2) == []
    assert_unchanged_on_error(game, "2: play R7", "it is player 1's turn")


def test_resolve_a_jump_in_and_the_turn_at_once() -> None:
    game = make(["R7 R1", "R2 B1", "G1", "R7 Y1"], "R5")
    game.step("play R7")
    taken = game.resolve(["1: play R2", "3: play R7"])
    assert [str(a) for a in taken] == ["3: play R7"]
    assert game.current_player == 0 and game.hand(1) == cards("R2 B1")


def test_resolve_catches_nearest_first_and_a_call_beats_a_catch() -> None:
    game = make(["R1 R2", "B1 B2", "G1", "Y1 Y2"], "R5")
    game.step("play R1")
    catches = game.copy()
    taken = catches.resolve(["3: catch 0", "2: catch 0", "1: draw"])
    assert [str(a) for a in taken] == ["2: catch 0", "1: draw"]
    called = game.copy()
    taken = called.resolve(["3: catch 0", "0: uno"])
    assert [str(a) for a in taken] == ["0: uno"]
    assert len(called.hand(0)) == 1
    with pytest.raises(IllegalMoveError, match="at most one action per player"):
        game.resolve(["1: draw", "1: catch 0"])


# --- UNO -----------------------------------------------------------------------------------


def test_a_caught_uno() -> None:
    game = make(["R1 R2", "B2 B3", "G2 G3"], "R5 Y1 Y2")
    game.step("play R1")
    assert game.uno_player == 0
    assert legal(game) == ["1: draw", "0: uno", "1: catch 0", "2: catch 0"]
    game.step("2: catch 0")
    assert game.hand(0) == cards("R2 Y1 Y2")
    assert game.uno_player is None and game.current_player == 1


def test_an_uncaught_uno() -> None:
    game = make(["R1 R2", "R3 B2 B3", "G1 G2"], "R5")
    game.step("play R1")
    game.step("play R3")  # the next player acted: the window is closed
    assert game.uno_player is None
    assert_unchanged_on_error(game, "2: catch 0", "cannot be caught")
    assert len(game.hand(0)) == 1


def test_a_called_uno_cannot_be_caught() -> None:
    game = make(["R1 R2", "B1 B2", "G1 G2"], "R5")
    game.step("play R1")
    game.step("uno")  # the player on one card calls
    assert game.uno_player is None
    assert_unchanged_on_error(game, "1: catch 0", "cannot be caught")


def test_caught_before_their_own_next_turn_with_two_players() -> None:
    game = make(["RS R2", "B1 B2"], "R5 Y1 Y2")
    game.step("play RS")
    assert (game.current_player, game.uno_player) == (0, 0)
    game.step("catch 0")  # the other player, by default
    assert game.hand(0) == cards("R2 Y1 Y2")


def test_no_calls_or_catches_without_call_out() -> None:
    game = make(["R1 R2", "B2 B3"], "R5", rules=NO_HOUSE)
    game.step("play R1")
    assert legal(game) == ["1: draw"]
    assert_unchanged_on_error(game, "0: uno", "off in these rules")


# --- no going out on a Wild Draw Four ------------------------------------------------------


def test_no_going_out_on_a_wild_draw_four() -> None:
    game = make(["W+4", "B1 B2"], "R5 Y1")
    assert legal(game, 0) == ["0: draw"]
    assert_unchanged_on_error(game, "play W+4 red", "no going out on a Wild Draw Four")
    two = make(["W+4 R1", "B1 B2"], "R5")
    two.step("play W+4 red")  # not the last card: fine
    assert two.pending == 4


def test_a_last_wild_draw_four_cannot_stack_either() -> None:
    game = make(["W+4 R1 R2", "W+4", "B1"], "R5 Y1 Y2 Y3 Y4")
    game.step("play W+4 red")
    assert legal(game, 1) == ["1: draw"]


def test_going_out_on_a_wild_draw_four_when_allowed() -> None:
    game = make(["W+4", "B1 B2"], "R5", rules=NO_HOUSE)
    game.step("play W+4 red")
    assert game.winner == 0 and game.is_over
    assert game.hand(1) == cards("B1 B2")  # the round ends at once: no penalty drawn


# --- an empty draw pile --------------------------------------------------------------------


def test_reshuffle_keeps_the_top_card() -> None:
    game = make(["R1 R2 R3", "G1 G2 G3"], "B5", rest="discard")
    assert game.draw_pile == () and len(game.discard_pile) == 102
    game.step("draw")
    assert game.discard_pile == cards("B5")
    assert len(game.draw_pile) == 100 and len(game.hand(0)) == 4
    assert total_cards(game) == 108
    again = make(["R1 R2 R3", "G1 G2 G3"], "B5", rest="discard")
    again.step("draw")
    assert again.state_bytes() == game.state_bytes()  # seeded: the same new pile


def test_penalties_reshuffle_too() -> None:
    game = make(["R+2 R1", "G1 G2", "B1"], "R5", rest="discard", rules=NO_HOUSE)
    game.step("play R+2")
    assert len(game.hand(1)) == 4 and game.discard_pile[-1] == Card.parse("R+2")
    assert len(game.discard_pile) == 1


def test_without_reshuffle_an_empty_pile_blocks_the_round() -> None:
    rules = LOMBARDY.replace(reshuffle=False)
    game = make(["Y1 G2 G3", "G1 G2"], "B5", rest="discard", rules=rules)
    game.step("draw")
    assert game.is_over and game.is_blocked and game.winner is None
    assert game.points() == [6, 3]


def test_with_nothing_to_draw_a_player_who_can_play_must() -> None:
    rules = LOMBARDY.replace(reshuffle=False)
    game = make(["B1 G2 G3", "G1 G2"], "B5", rest="discard", rules=rules)
    assert legal(game, 0) == ["0: play B1"]
    assert_unchanged_on_error(game, "draw", "must play a card")


# --- going out and scoring -----------------------------------------------------------------


def test_going_out_ends_the_round_and_scores_golf() -> None:
    game = make(["R1", "B1 BS W", "G9 G+2 W+4"], "R5")
    game.step("play R1")
    assert game.is_over and game.winner == 0 and game.current_player is None
    assert game.points() == [0, 71, 79]
    assert game.legal_actions() == []
    assert_unchanged_on_error(game, "1: draw", "the round is over")


def test_card_values() -> None:
    values = {str(card): card.points for card in uno.CARDS}
    assert values["R0"] == 0 and values["B9"] == 9
    assert values["GS"] == values["YR"] == values["R+2"] == 20
    assert values["W"] == values["W+4"] == 50


def test_the_deck() -> None:
    counts = collections.Counter(str(card) for card in uno.DECK)
    assert len(uno.DECK) == 108
    assert counts["R0"] == 1 and counts["R1"] == 2 and counts["BS"] == 2 and counts["G+2"] == 2
    assert counts["W"] == counts["W+4"] == 4
