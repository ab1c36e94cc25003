"""Every rule of the classic game (docs/rules.md#classic-game, and its call/grab for three
players), each played out on a hand-written deal."""

from __future__ import annotations

import pytest

import ddz
from ddz import PASS, Bid, Bidding, Cards, Game, IllegalMoveError

POINTS = ddz.CLASSIC
CALL_GRAB = ddz.CLASSIC.replace(bidding=Bidding.CALL_GRAB)
RANDOM = ddz.CLASSIC.replace(bidding=Bidding.RANDOM)
NO_SPRING = ddz.CLASSIC.replace(spring=False)

# The main deal. With the kitty, seat 0 holds 3456789TJQKA + 55 + 2222 + XD: four moves.
# Seat 1 can go out in four moves too: 4, 56789TJQKA, 333+7, 88.
HANDS = ("345556789TJQKA222", "333456778889TJQKA", "4466799TTJJQQKKAA")
KITTY = "2XD"

# The bomb deal. With the kitty, seat 0 holds 3 + 2222 + XD + 56789TJQKA + 777; seat 1 holds
# the bomb 4444.
BOMB_HANDS = ("356777789TJQ222XD", "33344445556668889", "99TTTJJJQQQKKKAAA")
BOMB_KITTY = "KA2"


def new_game(rules: ddz.Rules = POINTS, first_player: int = 0, *, bombs: bool = False) -> Game:
    deal = (BOMB_HANDS, BOMB_KITTY) if bombs else (HANDS, KITTY)
    return Game(rules, seed=1, deal=deal, first_player=first_player)


def play(game: Game, *actions: str) -> list[int]:
    """Step every action (checked); the seats that took them."""
    return [game.step(action).player for action in actions]


def test_the_deals_are_whole_decks() -> None:
    deck = ddz.CLASSIC.deck
    for hands, kitty in ((HANDS, KITTY), (BOMB_HANDS, BOMB_KITTY)):
        assert Cards(hands[0]) + hands[1] + hands[2] + kitty == deck
    game = new_game()
    assert game.hands == tuple(Cards(hand) for hand in HANDS)
    assert game.kitty == Cards(KITTY)
    assert (game.phase, game.current_player, game.landlord) == ("bidding", 0, None)


@pytest.mark.parametrize(
    ("deal", "first_player", "message"),
    [
        ((HANDS[:2], KITTY), 0, "a deal has 3 hands, not 2"),
        (((HANDS[0], HANDS[1], HANDS[2][:-1]), KITTY), 0, "hand 2 has 16 cards, not 17"),
        ((HANDS, KITTY[:2]), 0, "the kitty has 2 cards, not 3"),
        (
            ((HANDS[0], HANDS[1], HANDS[2][:-1] + "3"), KITTY),
            0,
            r"holds 5 of 3 \(.*\); a deck holds 4",
        ),
        ((HANDS, KITTY), 3, "first_player must lie in 0 .. 2"),
    ],
)
def test_a_fixed_deal_is_checked(deal: tuple, first_player: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Game(POINTS, deal=deal, first_player=first_player)


# --- points bidding ------------------------------------------------------------------------


def test_points_bidding_offers_pass_and_every_higher_bid() -> None:
    game = new_game()
    assert [str(a) for a in game.legal_actions()] == ["pass", "bid 1", "bid 2", "bid 3"]
    play(game, "bid 1")
    assert game.legal_actions() == [Bid("pass"), Bid("bid", 2), Bid("bid", 3)]
    play(game, "pass")
    assert game.legal_actions() == [Bid("pass"), Bid("bid", 2), Bid("bid", 3)]
    play(game, "bid 2")
    assert game.landlord == 2  # three turns taken: bidding is over


@pytest.mark.parametrize("first_player", [0, 1, 2])
def test_a_bid_of_3_ends_bidding_at_once(first_player: int) -> None:
    game = new_game(first_player=first_player)
    play(game, "bid 3")
    assert game.phase == "play"
    assert game.landlord == first_player
    assert game.bid == game.multiplier == 3
    assert len(game.history) == 1


def test_a_bid_of_3_ends_bidding_before_the_third_turn() -> None:
    game = new_game()
    assert play(game, "bid 1", "bid 3") == [0, 1]
    assert (game.phase, game.landlord, game.bid) == ("play", 1, 3)
    assert len(game.history) == 2  # seat 2 never bid


@pytest.mark.parametrize(
    ("actions", "landlord", "base"),
    [
        (("bid 1", "bid 2", "pass"), 1, 2),
        (("bid 1", "pass", "pass"), 0, 1),
        (("bid 2", "pass", "pass"), 0, 2),
        (("pass", "bid 1", "bid 2"), 2, 2),
        (("pass", "pass", "bid 1"), 2, 1),
        (("pass", "bid 2", "pass"), 1, 2),
    ],
)
def test_the_highest_bidder_is_landlord_and_the_bid_is_the_base(
    actions: tuple[str, ...], landlord: int, base: int
) -> None:
    game = new_game()
    assert play(game, *actions) == [0, 1, 2]
    assert game.phase == "play"
    assert game.landlord == landlord
    assert game.bid == game.multiplier == base


def test_bids_must_rise() -> None:
    game = new_game()
    play(game, "bid 2")
    before = game.state_bytes()
    for action in ("bid 1", "bid 2", Bid("bid", 1), "call", "grab"):
        with pytest.raises(IllegalMoveError, match="not a bidding action seat 1 has"):
            game.step(action)
    assert game.state_bytes() == before
    assert game.legal_actions() == [Bid("pass"), Bid("bid", 3)]


def test_all_pass_is_a_void_deal() -> None:
    game = new_game()
    play(game, "pass", "pass", "pass")
    assert game.is_void and game.is_over
    assert game.phase == "over"
    assert game.landlord is None
    assert game.winner is None
    assert game.current_player is None
    assert game.payoffs() == [0, 0, 0]
    assert game.legal_actions() == []
    assert game.hands == tuple(Cards(hand) for hand in HANDS)  # nobody took the kitty
    assert game.observation(0).kitty is None
    for action in ("pass", Bid("bid", 1)):
        with pytest.raises(IllegalMoveError, match="the game is over"):
            game.step(action)
    assert game.record().endswith("result void deal\n")


def test_a_void_deal_is_redealt_with_the_next_seed_and_bidder() -> None:
    game = new_game(first_player=2)
    play(game, "pass", "pass", "pass")
    redeal = game.redeal()
    assert redeal.seed == game.seed + 1
    assert redeal.first_player == 0
    assert (redeal.phase, redeal.current_player, redeal.history) == ("bidding", 0, [])
    assert redeal.deal != game.deal
    assert redeal.deal == Game(seed=game.seed + 1).deal


# --- random landlord -----------------------------------------------------------------------


@pytest.mark.parametrize("landlord", [0, 1, 2])
def test_random_landlord_has_no_bidding_and_base_1(landlord: int) -> None:
    game = new_game(RANDOM, first_player=landlord)
    assert game.phase == "play"
    assert game.landlord == game.current_player == landlord
    assert game.bid == game.multiplier == 1
    assert game.history == []
    assert game.hands[landlord] == Cards(HANDS[landlord]) + KITTY
    assert PASS not in game.legal_actions()
    with pytest.raises(IllegalMoveError, match="bidding is over"):
        game.step(Bid("bid", 1))


# --- call and grab, three players ----------------------------------------------------------


@pytest.mark.parametrize(
    ("actions", "seats", "landlord", "multiplier"),
    [
        # A call nobody grabs: the caller has no grab-back turn.
        (("call", "pass", "pass"), [0, 1, 2], 0, 1),
        # Each grab doubles; whoever grabbed last is landlord.
        (("call", "grab", "pass", "pass"), [0, 1, 2, 0], 1, 2),
        (("call", "pass", "grab", "pass"), [0, 1, 2, 0], 2, 2),
        (("call", "grab", "grab", "pass"), [0, 1, 2, 0], 2, 4),
        # The caller grabs back once, at the end.
        (("call", "grab", "pass", "grab"), [0, 1, 2, 0], 0, 4),
        (("call", "grab", "grab", "grab"), [0, 1, 2, 0], 0, 8),
        # Seat 0 declined to call, so it may not grab: after seat 2, the caller.
        (("pass", "call", "grab", "pass"), [0, 1, 2, 1], 2, 2),
        (("pass", "call", "grab", "grab"), [0, 1, 2, 1], 1, 4),
        (("pass", "call", "pass"), [0, 1, 2], 1, 1),
        # Both others declined: nobody may grab.
        (("pass", "pass", "call"), [0, 1, 2], 2, 1),
    ],
)
def test_call_and_grab(
    actions: tuple[str, ...], seats: list[int], landlord: int, multiplier: int
) -> None:
    game = new_game(CALL_GRAB)
    for action in actions:
        assert Bid.parse(action) in game.legal_actions()
        game.step(action)
    assert [record.player for record in game.history] == seats
    assert game.phase == "play"
    assert game.landlord == game.current_player == landlord
    assert game.multiplier == multiplier
    assert game.hands[landlord] == Cards(HANDS[landlord]) + KITTY


def test_call_grab_offers_call_then_grab() -> None:
    game = new_game(CALL_GRAB)
    assert game.legal_actions() == [Bid("pass"), Bid("call")]
    for action in ("grab", "bid 1"):
        with pytest.raises(IllegalMoveError):
            game.step(action)
    play(game, "pass")
    assert game.legal_actions() == [Bid("pass"), Bid("call")]
    play(game, "call")
    assert game.legal_actions() == [Bid("pass"), Bid("grab")]
    with pytest.raises(IllegalMoveError):
        game.step("call")


def test_max_grabs_caps_the_grabs() -> None:
    # once the grabs run out bidding is over: nobody is left with a pass-only turn
    game = new_game(CALL_GRAB.replace(max_grabs=1))
    play(game, "call", "grab")
    assert (game.phase, game.landlord, game.multiplier) == ("play", 1, 2)
    with pytest.raises(IllegalMoveError, match="bidding is over"):
        game.step("grab")

    game = new_game(CALL_GRAB.replace(max_grabs=0))
    play(game, "call")
    assert (game.phase, game.landlord, game.multiplier) == ("play", 0, 1)


def test_call_grab_all_decline_is_a_void_deal() -> None:
    game = new_game(CALL_GRAB)
    play(game, "pass", "pass", "pass")
    assert game.is_void
    assert (game.landlord, game.winner, game.payoffs()) == (None, None, [0, 0, 0])


# --- the kitty and the lead ----------------------------------------------------------------


def test_the_kitty_goes_to_the_landlord_and_is_shown_only_then() -> None:
    game = new_game()
    play(game, "bid 1", "bid 2")
    for player in range(3):
        seen = game.observation(player)
        assert seen.kitty is None
        assert seen.hand == Cards(HANDS[player])
        assert seen.card_counts == (17, 17, 17)
    play(game, "pass")
    assert game.landlord == 1
    assert game.hands[1] == Cards(HANDS[1]) + KITTY
    assert (game.hands[0], game.hands[2]) == (Cards(HANDS[0]), Cards(HANDS[2]))
    for player in range(3):
        seen = game.observation(player)
        assert seen.kitty == Cards(KITTY)
        assert seen.landlord == 1
        assert seen.card_counts == (17, 20, 17)


def test_the_landlord_leads_and_cannot_pass() -> None:
    game = new_game()
    play(game, "pass", "bid 1", "pass")
    assert game.current_player == game.landlord == 1
    assert game.table is None
    assert PASS not in game.legal_actions()
    with pytest.raises(IllegalMoveError, match="leader of a trick cannot pass"):
        game.step("pass")


# --- tricks --------------------------------------------------------------------------------


def test_a_trick_ends_after_two_passes_and_the_last_player_leads() -> None:
    game = new_game()
    play(game, "bid 3", "3", "4")
    assert (str(game.table), game.table_player, game.current_player) == ("4", 1, 2)
    play(game, "pass")
    assert (str(game.table), game.table_player, game.current_player) == ("4", 1, 0)
    play(game, "pass")
    assert (game.table, game.table_player, game.current_player) == (None, None, 1)
    assert PASS not in game.legal_actions()
    assert ddz.Move.parse("3") in game.legal_actions()  # any move leads a new trick
    with pytest.raises(IllegalMoveError, match="cannot pass"):
        game.step("pass")


def test_an_answer_must_beat_the_table() -> None:
    game = new_game()
    play(game, "bid 3", "3")
    for action, reason in (
        ("3", "does not beat 3"),  # same rank
        ("33", "does not beat 3"),  # another type
        ("X", "does not hold"),
        ("333+4", "does not beat 3"),
    ):
        with pytest.raises(IllegalMoveError, match=reason):
            game.step(action)
    play(game, "4", "pass", "5", "pass", "6")  # higher singles in seat order
    assert (str(game.table), game.table_player) == ("6", 2)


# --- scoring -------------------------------------------------------------------------------


def test_bombs_and_the_rocket_double_the_score() -> None:
    game = new_game(bombs=True)
    play(game, "bid 2", "pass", "pass")
    assert (game.landlord, game.multiplier) == (0, 2)
    play(game, "3", "4444")  # a farmer's bomb
    assert (game.bombs, game.multiplier) == (1, 4)
    play(game, "pass", "2222")  # a higher bomb: two bombs, x 4
    assert (game.bombs, game.multiplier) == (2, 8)
    play(game, "pass", "pass", "XD")  # the rocket
    assert (game.bombs, game.multiplier) == (3, 16)
    play(game, "pass", "pass", "56789TJQKA", "pass", "pass", "777")
    assert (game.winner, game.spring) == (0, False)
    assert game.multiplier == 16
    assert game.payoffs() == [32, -16, -16]


def test_a_spring_doubles_the_score() -> None:
    game = new_game()
    play(game, "bid 2", "pass", "pass", "3456789TJQKA")
    for move in ("55", "2", "2", "2", "2", "X"):
        assert game.multiplier == 2
        play(game, "pass", "pass", move)
    play(game, "pass", "pass", "D")
    assert (game.winner, game.landlord, game.bombs) == (0, 0, 0)
    assert game.spring  # the farmers played no card
    assert game.multiplier == 4
    assert game.payoffs() == [8, -4, -4]


def test_a_spring_with_a_bomb_and_the_rocket() -> None:
    for rules, score in ((POINTS, 24), (NO_SPRING, 12)):
        game = new_game(rules)
        play(game, "bid 3", "3456789TJQKA", "pass", "pass", "55", "pass", "pass", "2222")
        play(game, "pass", "pass", "XD")
        assert game.spring and game.bombs == 2
        assert game.multiplier == score  # 3 x 2 x 2, x 2 for the spring if the rules say so
        assert game.payoffs() == [2 * score, -score, -score]


ANTI_SPRING = ("bid 1", "pass", "pass", "3", "4", "pass", "pass", "56789TJQKA", "pass", "pass")
ANTI_SPRING_END = ("333+7", "pass", "pass", "88")


def test_an_anti_spring_doubles_the_score() -> None:
    for rules, score in ((POINTS, 2), (NO_SPRING, 1)):
        game = new_game(rules)
        play(game, *ANTI_SPRING, *ANTI_SPRING_END)
        assert (game.winner, game.landlord) == (1, 0)
        assert game.spring  # the landlord played only the opening move
        assert game.multiplier == score
        assert game.payoffs() == [-2 * score, score, score]


def test_no_spring_when_both_sides_played() -> None:
    # Farmers win; the landlord played twice.
    game = new_game()
    play(game, "bid 2", "pass", "pass", "3", "4", "pass", "5", "pass", "6", "pass", "pass")
    play(game, "44", "pass", "88", "pass", "pass", "56789TJQKA", "pass", "pass", "333+7")
    assert (game.winner, game.landlord, game.spring) == (1, 0, False)
    assert game.multiplier == 2
    assert game.payoffs() == [-4, 2, 2]


def test_the_landlord_wins_twice_the_score() -> None:
    # A farmer played a card: no spring.
    game = new_game()
    play(game, "bid 1", "pass", "pass", "3", "4", "pass", "2", "pass", "pass")
    play(game, "456789TJQKA", "pass", "pass", "55", "pass", "pass", "222+X", "pass", "pass", "D")
    assert (game.winner, game.landlord, game.spring, game.bombs) == (0, 0, False, 0)
    assert game.multiplier == 1
    assert game.payoffs() == [2, -1, -1]


def test_payoffs_are_zero_until_the_end() -> None:
    game = new_game()
    play(game, *ANTI_SPRING)
    assert game.payoffs() == [0, 0, 0]
    assert game.winner is None and not game.spring
    play(game, *ANTI_SPRING_END)
    assert game.payoffs() == [-4, 2, 2]
    game.undo()
    assert game.payoffs() == [0, 0, 0]
    assert (game.winner, game.phase, game.current_player) == (None, "play", 1)
