"""The lone farmer test of the solver (FLAG_LONE_FARMER: where the landlord loses the
two-seat game against one farmer alone, the other farmer passing throughout, it loses the
three-seat position) against the slow minimax of tests/solver_reference.py."""

from __future__ import annotations

import random

import pytest

import ddz
from ddz._core import solver as core
from tests import solver_reference as reference
from tests.test_solver_loss import fields, loss_game, small_deal

RULES = ddz.CLASSIC.replace(kitty_size=0)
FLAG_LONE_FARMER = 16777216  # solver_order.pxd
FLAG_LONE_TREE = 33554432


def lone_position(seed: int) -> ddz.Game:
    """A small three-seat position, any seat to act, sometimes answering a move of the seat
    one or two places before it (the seats between passing: loss_game); one farmer often
    holds high cards, so that it may beat the landlord alone."""
    rng = random.Random(seed)
    landlord, to_act, hands, high = small_deal(rng, 6)
    strong = rng.choice([seat for seat in range(3) if seat != landlord])
    hands[strong] = "".join(high[: rng.randint(0, 3)]) + hands[strong]
    return loss_game(hands, landlord, to_act, rng.randint(0, 4), rng.randint(1, 2))


def test_lone_farmer_wins_are_wins_by_minimax() -> None:
    # every position the test settles is settled so by the minimax, with a move that keeps
    # that value: the farmers' winning move (the lone farmer's own, or the pass of the
    # other), the landlord's a legal one; and it settles some of each kind
    found = {"landlord": 0, "lone farmer": 0, "other farmer passes": 0}
    for seed in range(150):
        game = lone_position(seed)
        solver = ddz.Solver(RULES, memory_mb=1)
        value, code = solver._core._lone_farmer(*fields(game), 100_000)
        if value == 0:
            continue
        assert value == reference.value_for_side_to_act(game), (game.hands, game.table)
        assert code is not None, (game.hands, game.table)
        move = ddz.Move.from_code(code)
        assert move in game.legal_actions(), (game.hands, game.table, move)
        if game.current_player == game.landlord:
            assert value == -1
            found["landlord"] += 1
            continue
        assert value == 1
        child = game.copy()
        child.push(move)
        if not child.is_over:
            after = reference.value_for_side_to_act(child)
            landlord_moved = game.current_player == game.landlord
            same = (child.current_player == child.landlord) == landlord_moved
            assert (after if same else -after) == 1, (game.hands, game.table, move)
        found["other farmer passes" if move.is_pass else "lone farmer"] += 1
    assert min(found.values()) >= 10, found  # 31 / 36 / 38 of the 150 (measured)


def test_lone_farmer_leaves_out_what_is_no_two_seat_game() -> None:
    # the other farmer to lead, or its move to beat: it cannot just pass there, so the lone
    # farmer's game is no game of the position. Each case is a landlord win (the minimax)
    # that the two-seat game would call lost, were the lead or the move taken as the lone
    # farmer's (found by a search of random positions)
    cases = [
        # seat 1 must lead its 5 or 8, the landlord's K goes out; passed, seat 2's 3 would
        (["K", "85", "3"], 1, None, None),
        # seat 2's big joker to beat: both others pass, seat 2 leads its 3 or 4, and the
        # landlord's 9 goes out; were it seat 1's, seat 1 would lead its 6 and go out
        (["9", "6", "34"], 0, "D", 2),
    ]
    for hands, to_act, table, table_player in cases:
        game = ddz.Game.from_position(
            RULES,
            hands,
            landlord=0,
            to_act=to_act,
            table=None if table is None else ddz.Move.parse(table),
            table_player=table_player,
        )
        side = 1 if to_act == 0 else -1
        assert reference.value_for_side_to_act(game) == side, (hands, table)
        value, _ = ddz.Solver(RULES, memory_mb=1)._core._lone_farmer(*fields(game), 10_000)
        assert value == 0, (hands, table)


def test_lone_farmer_is_off_for_action_cards_and_two_seats() -> None:
    uno = ddz.Solver(ddz.UNO_LANDLORD, memory_mb=1)
    game = ddz.Game.from_position(ddz.UNO_LANDLORD, ["3S", "22", "4"], landlord=0, to_act=0)
    assert uno._core._lone_farmer(*fields(game), 10_000) == (0, None)
    endgame = ddz.Game.from_position(ddz.ENDGAME, ["3", "22"], landlord=0, to_act=0)
    solver = ddz.Solver(ddz.ENDGAME, memory_mb=1)
    assert solver._core._lone_farmer(*fields(endgame), 10_000) == (0, None)


def test_whole_search_with_and_without_the_lone_farmer(core_flags: int) -> None:
    # the search in tiny rounds (each round followed by the lone farmers' games, within 8
    # times the round's budget): the same verdicts as without the test and as the minimax, a legal
    # line, and rounds that end by the lone farmer test
    core._set_rounds(2, cards=0)
    lone = 0
    for seed in range(150):
        game = lone_position(10_000 + seed)
        core._set_flags((core_flags | FLAG_LONE_FARMER) & ~FLAG_LONE_TREE)
        result = ddz.Solver(RULES, memory_mb=1).solve(game)
        core._set_flags(core_flags & ~(FLAG_LONE_FARMER | FLAG_LONE_TREE))
        plain = ddz.Solver(RULES, memory_mb=1).solve(game, line=False)
        assert result.value == plain.value == reference.value_for_side_to_act(game), seed
        reference.play_line(game, result.line)
        lone += result.nodes != plain.nodes
    assert lone >= 20, lone


def test_whole_search_with_the_lone_farmer_in_the_tree(core_flags: int) -> None:
    # the games asked at every node below the root too (FLAG_LONE_TREE), from the first of
    # tiny rounds, within a small budget each, so that games stop at their budget and at
    # the round's end: the same verdicts as without them and as the minimax, a legal line,
    # and searches they change
    core._set_rounds(2, cards=0)
    changed = 0
    for seed in range(150):
        game = lone_position(20_000 + seed)
        core._set_flags((core_flags | FLAG_LONE_FARMER) & ~FLAG_LONE_TREE)
        plain = ddz.Solver(RULES, memory_mb=1).solve(game, line=False)
        assert plain.value == reference.value_for_side_to_act(game), seed
        core._set_flags(core_flags | FLAG_LONE_FARMER | FLAG_LONE_TREE)
        for budget in (3, 200):
            core._set_lone_tree(1, budget, 0)
            result = ddz.Solver(RULES, memory_mb=1).solve(game)
            assert result.value == plain.value, (seed, budget)
            reference.play_line(game, result.line)
            changed += result.nodes != plain.nodes
    assert changed >= 20, changed  # 33 of the 300 (measured)


def test_lone_tree_settings_are_checked() -> None:
    with pytest.raises(ValueError):
        core._set_lone_tree(0, 8000, 24)
    with pytest.raises(ValueError):
        core._set_lone_tree(1_600_000, 0, 24)
    with pytest.raises(ValueError):
        core._set_lone_tree(1_600_000, 8000, -1)
