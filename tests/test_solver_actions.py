"""Uno the Landlord's action cards in the solver's static tests against the slow minimax of
tests/solver_reference.py: a Skip or Reverse of an opposing seat beats nothing, so the side
that leads moves nobody answers keeps the lead (line_opponents, solver_static.pxd), unless
an opposing seat could shed its action cards and go out on the way; and a farmer's highest
single (pair) still answers the landlord's lower ones to a win (drop_answered)."""

from __future__ import annotations

import random

import pytest

import ddz
from tests import solver_reference as reference
from tests.test_solver_team import fields, move_wins

RULES = ddz.UNO_LANDLORD.replace(kitty_size=0)
TWO_SEATS = ddz.TWO_PLAYER.replace(action_cards=2, kitty_size=0)
DECK = "3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222XD"


def static_move(game: ddz.Game) -> int | None:
    hands, _, _, current, landlord = fields(game)
    return ddz.Solver(game.rules, memory_mb=1)._core._static_move(hands, current, landlord)


def action_position(seed: int) -> ddz.Game:
    """A small three-seat position, a seat leading without action cards, often with high
    cards, the other two a few cards each and between them some of the Skips and Reverses,
    now and then nothing else (a seat that could go out shedding them)."""
    rng = random.Random(seed)
    cards = list(DECK)
    rng.shuffle(cards)
    landlord, leader = rng.randint(0, 2), rng.randint(0, 2)
    high = sorted(cards, key=lambda card: -DECK.index(card))[: rng.randint(0, 6)]
    rest = [card for card in cards if card not in high]
    sizes = [rng.randint(0 if seat != leader else 1, 3) for seat in range(3)]
    hands = ["".join(rest[sum(sizes[:seat]) : sum(sizes[: seat + 1])]) for seat in range(3)]
    hands[leader] = "".join(high[: rng.randint(0, 3)]) + hands[leader]
    others = [seat for seat in range(3) if seat != leader]
    for action in "SSVV":
        if rng.random() < 0.6:
            hands[rng.choice(others)] += action
    for seat in others:
        if not hands[seat]:
            hands[seat] = rest[-1 - seat]
    return ddz.Game.from_position(RULES, hands, landlord=landlord, to_act=leader)


def test_static_win_through_opposing_action_cards_wins_by_minimax() -> None:
    # every move the static test finds where an opposing seat holds a Skip or Reverse wins
    # by the minimax, for the landlord and for a farmer; before line_opponents the test
    # gave up on every one of these positions but those the hand ends in one move
    found = {"landlord": 0, "farmer": 0}
    for seed in range(140):
        game = action_position(seed)
        if not any(
            "S" in str(game.hands[seat]) or "V" in str(game.hands[seat])
            for seat in range(3)
            if (seat == game.landlord) != (game.current_player == game.landlord)
        ):
            continue
        hand = game.hands[game.current_player]
        if any(move.cards == hand for move in game.legal_actions()):
            continue  # out in one move: the test held before too
        code = static_move(game)
        if code is None:
            continue
        assert move_wins(game, code), (game.hands, game.current_player, code)
        found["landlord" if game.current_player == game.landlord else "farmer"] += 1
    assert found["landlord"] >= 10 and found["farmer"] >= 25, found


def test_static_win_counts_the_cards_an_opposing_seat_may_shed() -> None:
    # the landlord's D nobody answers, then its 3: but a farmer holding only a Skip plays
    # it on its turn and goes out, so the landlord loses; holding a 5 beside the Skip it
    # cannot go out, and the landlord wins as the test says
    game = ddz.Game.from_position(RULES, ["3D", "S", "4"], landlord=0, to_act=0)
    assert reference.value_for_side_to_act(game) == -1
    assert static_move(game) is None
    game = ddz.Game.from_position(RULES, ["3D", "S5", "4V"], landlord=0, to_act=0)
    code = static_move(game)
    assert code is not None and move_wins(game, code)
    # a farmer leading against the landlord's Reverse and Skip, each seat order
    game = ddz.Game.from_position(RULES, ["SV4", "2K", "3"], landlord=0, to_act=1)
    code = static_move(game)
    assert code is not None and move_wins(game, code)
    game = ddz.Game.from_position(RULES, ["SV", "2K", "3"], landlord=0, to_act=1)
    assert reference.value_for_side_to_act(game) == -1
    assert static_move(game) is None
    # two seats (no 3s or 4s): the same against the one opponent
    game = ddz.Game.from_position(TWO_SEATS, ["5D", "S"], landlord=0, to_act=0)
    assert reference.value_for_side_to_act(game) == -1
    assert static_move(game) is None
    game = ddz.Game.from_position(TWO_SEATS, ["5D", "SS6"], landlord=0, to_act=0)
    code = static_move(game)
    assert code is not None and move_wins(game, code)
    # the side's own action card: not this test's business (it moves the turn)
    game = ddz.Game.from_position(RULES, ["3DS", "5", "4"], landlord=0, to_act=0)
    assert static_move(game) is None


def test_solves_with_opposing_action_cards_agree_with_minimax() -> None:
    # whole solves of the same positions, the side to act leading or answering a lead
    solver = ddz.Solver(RULES, memory_mb=1)
    for seed in range(100):
        game = action_position(1000 + seed)
        assert solver.solve(game, line=False).value == reference.value_for_side_to_act(game), (
            game.hands,
            game.current_player,
        )


@pytest.mark.usefixtures("core_flags")  # sets the flags back
def test_moves_left_out_as_answered_lose_with_opposing_action_cards() -> None:
    # the landlord to act, the farmers holding Skips and Reverses: where the farmers'
    # highest single (pair) of their other cards beats the landlord's and its holder,
    # holding no action card, then wins statically, the landlord's lower singles (pairs)
    # are left out; each must lose by the minimax (before, any opposing action card
    # switched the test off)
    from ddz._core import solver as core

    core._set_flags(core._get_flags() | 32)  # FLAG_LANDLORD_DROP
    solver = ddz.Solver(RULES, memory_mb=1)._core
    left_out = 0
    for seed in range(1000):
        game = action_position(2000 + seed)
        if game.current_player != game.landlord or not any(
            "S" in str(game.hands[seat]) or "V" in str(game.hands[seat])
            for seat in range(3)
            if seat != game.landlord
        ):
            continue
        hands, table, table_player, current, landlord = fields(game)
        for code in solver._answered_moves(hands, table, table_player, current, landlord):
            if ddz.Move.from_code(code).cards == game.hands[current]:
                continue  # the search takes a move that ends the game before any other
            assert not move_wins(game, code), (game.hands, code)
            left_out += 1
    assert left_out >= 15, left_out
