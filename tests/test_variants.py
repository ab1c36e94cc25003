"""Two-player Dou Dizhu and Uno the Landlord (docs/two-player.md, uno-landlord.md): a scripted deal
for every rule, and random-game invariants for both presets."""

from __future__ import annotations

import random

import pytest

import ddz
from ddz import Cards, Game, IllegalMoveError

TWO = ddz.TWO_PLAYER
UNO = ddz.UNO_LANDLORD


def fill(rules: ddz.Rules, *fixed: str) -> tuple[list[Cards], Cards]:
    """A deal whose seats hold at least the given cards (the kitty last), completed with the
    rest of the deck low to high; two-player leftovers are the cards set aside."""
    deck = rules.deck
    parts = [Cards(part) for part in fixed]
    rest = deck
    for part in parts:
        rest = rest - part
    sizes = [rules.hand_size] * rules.players + [rules.kitty_size]
    spare = list(rest)
    completed = []
    for index, size in enumerate(sizes):
        part = parts[index] if index < len(parts) else Cards()
        need = size - len(part)
        assert need >= 0, f"seat {index} is given too many cards"
        part = part + "".join(spare[:need])
        spare = spare[need:]
        completed.append(part)
    return completed[:-1], completed[-1]


# --- two players ---------------------------------------------------------------------------


FARMER = "556789TJQKA2222XD"  # a rocket, a ten-card straight, a bomb and a 5
LANDLORD = "55666777888999TTT"


def two_player_game(bids: list[str], first: int = 0, **changes: object) -> Game:
    rules = TWO.replace(**changes) if changes else TWO
    hands = [FARMER, LANDLORD]  # seat 0 holds the farmer's cards in every script here
    game = Game(rules, deal=(hands, "JJJ"), first_player=first)
    for bid in bids:
        game.step(bid)
    return game


def test_two_player_deck_deal_and_cards_set_aside() -> None:
    game = Game(TWO, seed=5)
    assert len(TWO.deck) == 46 and TWO.deck.count("3") == 0 and TWO.deck.count("4") == 0
    assert [len(hand) for hand in game.hands] == [17, 17] and len(game.kitty) == 3
    assert len(game.set_aside) == 9
    for seat in range(2):
        seen = game.observation(seat)
        assert seen.kitty is None and len(seen.card_counts) == 2
    assert game.legal_actions() and {str(a) for a in game.legal_actions()} == {"pass", "call"}


def test_one_grab_makes_one_let_card() -> None:
    game = two_player_game(["call", "grab", "pass"])  # seat 1 grabs; seat 0 stops grabbing
    assert game.phase == "play" and game.landlord == 1 and game.grabs == 1
    assert len(game.hands[1]) == 20 and game.current_player == 1
    for action in ["6", "XD", "pass", "56789TJQKA", "pass", "2222"]:
        game.step(action)
    # the farmer holds one card: no more than the let count, so the farmer has won
    assert game.is_over and game.winner == 0 and len(game.hands[0]) == 1
    # 1 x 2 (grab) x 2 (rocket) x 2 (bomb) x 2 (spring: the landlord played only the opening)
    assert game.payoffs() == [16, -16]


def test_two_grabs_make_two_let_cards() -> None:
    game = two_player_game(["call", "grab", "grab", "pass"], first=1)
    # seat 1 called, seat 0 grabbed, seat 1 grabbed back, seat 0 stopped: seat 1 is landlord
    assert game.landlord == 1 and game.grabs == 2
    game.step("66")
    game.step("XD")
    game.step("pass")
    game.step("56789TJQKA")  # the farmer holds 5 cards: 2222 and a 5
    assert not game.is_over
    game.step("pass")
    game.step("2222")
    assert game.is_over and game.winner == 0
    assert game.payoffs()[0] > 0 and sum(game.payoffs()) == 0


def test_without_grabs_whoever_empties_their_hand_wins() -> None:
    game = two_player_game(["call", "pass"])
    assert game.landlord == 0 and game.grabs == 0
    game.step("56789TJQKA")
    assert not game.is_over  # a landlord is never saved by let cards


def test_the_grab_limit() -> None:
    game = two_player_game(["call", "grab", "grab", "grab", "grab"])
    assert game.phase == "play" and game.grabs == 4  # max_grabs reached: bidding is over
    limited = two_player_game(["call", "grab"], max_grabs=1)
    assert limited.phase == "play" and limited.grabs == 1 and limited.landlord == 1


def test_a_player_who_declined_to_call_may_not_grab() -> None:
    game = two_player_game(["pass", "call"])
    assert game.phase == "play" and game.landlord == 1  # seat 0 declined: no grab turn
    with pytest.raises(IllegalMoveError, match="bidding is over"):
        game.step("grab")


def test_neither_calls_makes_a_void_deal() -> None:
    game = two_player_game(["pass", "pass"])
    assert game.is_over and game.is_void and game.winner is None
    assert game.payoffs() == [0, 0]
    assert game.redeal().phase == "bidding"


def test_grabs_double_the_score() -> None:
    game = two_player_game(["call", "grab", "grab", "pass"])
    assert game.multiplier == 4  # base 1, two grabs


# --- Uno the Landlord ---------------------------------------------------------------------


def uno_game(landlord_cards: str, farmer1: str, farmer2: str, **changes: object) -> Game:
    """Seat 0 bids 3 and is landlord (its hand plus the kitty)."""
    rules = UNO.replace(**changes) if changes else UNO
    hands, kitty = fill(rules, landlord_cards, farmer1, farmer2)
    game = Game(rules, deal=(hands, kitty), first_player=0)
    game.step("bid 3")
    return game


def test_uno_landlord_deck_and_deal() -> None:
    game = Game(UNO, seed=2)
    assert len(UNO.deck) == 58 and UNO.deck.count("S") == 2 and UNO.deck.count("V") == 2
    assert [len(hand) for hand in game.hands] == [18, 18, 18] and len(game.kitty) == 4


def test_reverse_redirects_a_bomb_to_the_other_farmer() -> None:
    # the seed's example: a farmer bombs the landlord, the landlord reverses, and the bomb's
    # target becomes the other farmer
    game = uno_game("3V", "4444", "")
    game.step("3")
    game.step("4444")  # farmer 1 bombs the landlord's lead
    game.step("pass")  # farmer 2
    assert game.current_player == 0 and game.direction == 1
    game.step("V")
    assert game.direction == -1 and game.current_player == 2
    assert str(game.table) == "4444" and game.table_player == 1  # still on the table
    assert all(a.is_pass or ddz.beats(a, game.table) for a in game.legal_actions())
    game.step("pass")  # farmer 2 passes: the turn is back with the bomb's maker
    assert game.current_player == 1 and game.table is None


def test_the_maker_of_the_table_move_never_answers_it() -> None:
    game = uno_game("3", "4444", "V")
    game.step("3")
    game.step("4444")
    game.step("V")  # farmer 2 reverses: next would be farmer 1, who made the move
    assert game.direction == -1 and game.current_player == 0 and str(game.table) == "4444"


def test_skip_hands_the_trick_back() -> None:
    game = uno_game("3", "S", "")
    game.step("3")
    game.step("S")  # farmer 1 skips farmer 2: the turn comes back to the landlord's move
    assert game.current_player == 0 and game.table is None  # the landlord leads again
    assert "pass" not in [str(a) for a in game.legal_actions()]


def test_skip_on_an_empty_table_passes_the_lead_over_the_next_player() -> None:
    game = uno_game("3S", "", "")
    game.step("3")
    game.step("pass")
    game.step("pass")  # the trick is over: the landlord leads again
    game.step("S")  # on an empty table: the lead passes on, skipping seat 1
    assert game.current_player == 2 and game.table is None


def test_an_action_card_on_an_empty_table_hands_the_lead_on() -> None:
    game = uno_game("V", "", "")
    game.step("V")
    assert game.direction == -1 and game.current_player == 2 and game.table is None
    assert "pass" not in [str(a) for a in game.legal_actions()]  # seat 2 leads


def test_a_hand_may_end_on_an_action_card() -> None:
    rules = UNO.replace(bidding=ddz.Bidding.RANDOM)
    rng = random.Random(4)
    endings = 0
    for seed in range(400):
        game = Game(rules, seed=seed)
        while not game.is_over:
            game.push(rng.choice(game.legal_actions()))
        last = [r for r in game.history if str(r.action) != "pass"][-1]
        if str(last.action) in ("S", "V"):
            endings += 1
            assert game.winner == last.player and not game.hands[last.player]
    assert endings > 0


def test_action_cards_are_never_kickers_and_are_offered_when_answering() -> None:
    game = uno_game("3", "SV", "")
    game.step("3")
    offered = [str(a) for a in game.legal_actions()]
    assert "S" in offered and "V" in offered and "pass" in offered
    assert not any("S" in text and len(text) > 1 for text in offered)


def test_uno_landlord_void_deal() -> None:
    game = Game(UNO, seed=8, first_player=0)
    for _ in range(3):
        game.step("pass")
    assert game.is_void and game.payoffs() == [0, 0, 0]


def test_observation_shows_the_direction() -> None:
    game = uno_game("V", "", "")
    game.step("V")
    assert game.observation(1).direction == -1
    assert game.observation(1).encode()[-1] == -1


# --- invariants over random games ---------------------------------------------------------


@pytest.mark.parametrize(
    "rules", [TWO, UNO, UNO.replace(bidding=ddz.Bidding.CALL_GRAB)], ids=["two", "uno", "uno-cg"]
)
def test_random_games_keep_the_invariants(rules: ddz.Rules) -> None:
    rng = random.Random(17)
    for seed in range(300):
        game = Game(rules, seed=seed)
        start = game.state_bytes()
        dealt = game.kitty + game.set_aside
        for hand in game.hands:
            dealt = dealt + hand
        assert dealt == rules.deck
        plies = 0
        while not game.is_over:
            before = game.state_bytes()
            action = rng.choice(game.legal_actions())
            game.push(action)
            plies += 1
            if plies % 7 == 0:
                game.undo()
                assert game.state_bytes() == before
                game.push(action)
        assert sum(game.payoffs()) == 0
        held = Cards()
        for hand in game.hands:
            held = held + hand
        played = Cards()
        for record in game.history:
            if isinstance(record.action, ddz.Move) and not record.action.is_pass:
                played = played + record.action.cards
        assert (
            held + played + (game.kitty if game.landlord is None else Cards()) + (game.set_aside)
            == rules.deck
        )
        assert Game.from_json(game.to_json()).state_bytes() == game.state_bytes()
        while True:
            try:
                game.undo()
            except IndexError:
                break
        assert game.state_bytes() == start
