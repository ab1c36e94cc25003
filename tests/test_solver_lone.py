"""The lone farmer test of the solver (FLAG_LONE_FARMER: where the landlord loses the
two-seat game against one farmer alone, the other farmer passing throughout, it loses the
three-seat position; so it does where it loses the three-seat game with the other farmer
held to one move a node: with action cards in play instead of the two-seat games, else
after them) against the slow minimax of tests/solver_reference.py."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

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


def settled_by_lone_farmer(rules: ddz.Rules, game: ddz.Game, truth: int) -> str | None:
    """The lone farmer test of game: None where it settles nothing; else, its value checked
    against truth (the minimax's) and its move as legal and keeping that value, which side
    it settles and how: "landlord" (lost), "farmer plays" (a farmer's winning move) or
    "farmer passes"."""
    value, code = ddz.Solver(rules, memory_mb=1)._core._lone_farmer(*fields(game), 100_000)
    if value == 0:
        return None
    assert value == truth, (game.hands, game.table, game.current_player)
    assert code is not None, (game.hands, game.table)
    move = ddz.Move.from_code(code)
    assert move in game.legal_actions(), (game.hands, game.table, move)
    if game.current_player == game.landlord:
        assert value == -1
        return "landlord"
    assert value == 1
    child = game.copy()
    child.push(move)
    if not child.is_over:
        after = reference.value_for_side_to_act(child)
        assert (after if child.current_player != child.landlord else -after) == 1, (
            game.hands,
            game.table,
            move,
        )
    return "farmer passes" if move.is_pass else "farmer plays"


def test_lone_farmer_wins_are_wins_by_minimax() -> None:
    # every position the test settles is settled so by the minimax, with a move that keeps
    # that value: the farmers' winning move (the lone farmer's own, or the pass of the
    # other), the landlord's a legal one; and it settles some of each kind
    found = {"landlord": 0, "farmer plays": 0, "farmer passes": 0}
    for seed in range(150):
        game = lone_position(seed)
        kind = settled_by_lone_farmer(RULES, game, reference.value_for_side_to_act(game))
        if kind is not None:
            found[kind] += 1
    assert min(found.values()) >= 10, found  # 36 / 46 / 41 of the 150 (measured)
    # the held-farmer game after the two-seat ones (its farmer answering as the ordering
    # says) settles the farmers' wins that take both: 105 of the 150 without it
    assert sum(found.values()) >= 115, found


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


def test_lone_farmer_is_off_for_two_seats() -> None:
    endgame = ddz.Game.from_position(ddz.ENDGAME, ["3", "22"], landlord=0, to_act=0)
    solver = ddz.Solver(ddz.ENDGAME, memory_mb=1)
    assert solver._core._lone_farmer(*fields(endgame), 10_000) == (0, None)


UNO = ddz.UNO_LANDLORD.replace(kitty_size=0)


def action_position(seed: int) -> ddz.Game:
    """A small Uno the Landlord position, any seat to lead, one farmer often holding high
    cards, each Skip and Reverse in a random hand half the time (hands of up to three
    cards besides: the minimax is slow on more)."""
    rng = random.Random(seed)
    landlord, to_act, hands, high = small_deal(rng, 6, most_cards=3)
    strong = rng.choice([seat for seat in range(3) if seat != landlord])
    hands[strong] = "".join(high[: rng.randint(0, 2)]) + hands[strong]
    for action in "SSVV":
        if rng.random() < 0.5:
            hands[rng.randrange(3)] += action
    return ddz.Game.from_position(UNO, hands, landlord=landlord, to_act=to_act)


def with_actions(game: ddz.Game) -> bool:
    return any(action in str(hand) for hand in game.hands for action in "SV")


def action_cases(first_seed: int, count: int) -> Iterator[tuple[ddz.Game, int]]:
    """(position, its minimax value for the side to act) of action_position's seeds
    first_seed .. first_seed + count - 1 that hold an action card."""
    for seed in range(first_seed, first_seed + count):
        game = action_position(seed)
        if with_actions(game):
            yield game, reference.value_for_side_to_act(game)


def test_lone_farmer_with_action_cards_wins_are_wins_by_minimax() -> None:
    # action cards in play: the three-seat game with the other farmer held to one move a
    # node (held_farmer). Every position it settles is settled so by the minimax, with
    # a legal move that keeps the value, and it settles most of the farmers' wins
    found = {"landlord": 0, "farmer plays": 0}  # the positions are leads: no pass
    farmer_wins = 0
    for game, truth in action_cases(0, 200):
        farmer_wins += (truth == 1) != (game.current_player == game.landlord)
        kind = settled_by_lone_farmer(UNO, game, truth)
        if kind is not None:
            found[kind] += 1
    assert min(found.values()) >= 10, found  # 33 / 120 of the 200 (measured)
    assert sum(found.values()) >= 0.8 * farmer_wins, (found, farmer_wins)  # 153 of 160


def test_held_farmer_games_are_keyed_apart() -> None:
    # where the held farmer's one move a node loses a game the farmers win, the test knows
    # nothing (0) and the solve after it, on the same table, still finds the farmers' win:
    # the landlord's wins in the held game are stored under keys of their own (Uno the
    # Landlord's positions: of lone_position's classic ones, the held game with its farmer
    # answering as the ordering says leaves no farmers' win open)
    seen = 0
    for game, truth in action_cases(1_000, 400):
        if (truth == 1) == (game.current_player == game.landlord):
            continue  # a landlord's win
        solver = ddz.Solver(UNO, memory_mb=1)
        value, _ = solver._core._lone_farmer(*fields(game), 100_000)
        if value != 0:
            continue
        seen += 1
        assert solver.solve(game, line=False).value == truth, (game.hands, game.current_player)
    assert seen >= 5, seen  # 21 (measured)


def test_held_farmer_wins_are_stored_under_the_positions_own_keys() -> None:
    # the held game stores its farmers' wins under the positions' own keys (held_key), for
    # the deal's search to reuse, and reads the deal's own entries first: where the
    # landlord wins, the held game settles nothing, and the solves after it on the same
    # table, one on the held game's own keys (a second held game) and the whole search,
    # still find the landlord's win; where the farmers win, every value is the minimax's
    seen = 0
    for game, truth in action_cases(3_000, 300):
        solver = ddz.Solver(UNO, memory_mb=1)
        first, _ = solver._core._lone_farmer(*fields(game), 100_000)
        again, _ = solver._core._lone_farmer(*fields(game), 100_000)
        assert first == again, (game.hands, game.current_player)
        assert first in (0, truth), (game.hands, game.current_player)
        assert solver.solve(game, line=False).value == truth, (game.hands, game.current_player)
        seen += (truth == 1) == (game.current_player == game.landlord)
    assert seen >= 20, seen  # the landlord's wins: 56 of the 278 (measured)


@pytest.mark.parametrize(
    ("rules", "position", "first_seed"),
    [(RULES, lone_position, 10_000), (UNO, action_position, 5_000)],
    ids=["classic", "action-cards"],
)
def test_whole_search_with_and_without_the_lone_farmer(
    core_flags: int, rules: ddz.Rules, position: Callable[[int], ddz.Game], first_seed: int
) -> None:
    # the search in tiny rounds (each round followed by the lone farmers' games, within 8
    # times the round's budget; with action cards, the held-farmer games): the same
    # verdicts as without them and as the minimax, a legal line, and rounds they end
    core._set_rounds(2, cards=0)
    lone = 0
    for seed in range(150):
        game = position(first_seed + seed)
        core._set_flags((core_flags | FLAG_LONE_FARMER) & ~FLAG_LONE_TREE)
        result = ddz.Solver(rules, memory_mb=1).solve(game)
        core._set_flags(core_flags & ~(FLAG_LONE_FARMER | FLAG_LONE_TREE))
        plain = ddz.Solver(rules, memory_mb=1).solve(game, line=False)
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
