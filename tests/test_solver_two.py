"""The two-seat shortcuts of the solver for whole deals against the slow minimax of
tests/solver_reference.py: the covered plays of the static test (FLAG_TWO_COVERS), the
root searched in rounds of two move orders (FLAG_TWO_ROUNDS) and the enhanced
transposition cutoff (FLAG_TWO_ETC)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

import ddz
from ddz._core import solver as core
from tests import solver_reference as reference

FLAG_TWO_COVERS, FLAG_TWO_ROUNDS, FLAG_TWO_ETC = 524288, 1048576, 2097152  # solver_order.pxd
DECK = str(ddz.ENDGAME.deck)


def move_wins(game: ddz.Game, code: int) -> bool:
    """Does the move of code, legal in game, win for the seat that plays it (minimax)?"""
    move = ddz.Move.from_code(code)
    assert move in game.legal_actions(), (game.hands, move)
    child = game.copy()
    child.step(move)
    if child.is_over:
        return child.winner == game.current_player
    return reference.value_for_side_to_act(child) == -1


def covered_position(seed: int) -> ddz.Game:
    """A small two-seat position under the endgame rules, the seat to lead often holding
    high singles and pairs beside low ones (the covered plays' hands), the other a few
    cards, sometimes only one to three (the rule must count how many it may shed)."""
    rng = random.Random(seed)
    cards = list(DECK)
    rng.shuffle(cards)
    leader = rng.randint(0, 1)
    sizes = [rng.randint(1, 4), rng.randint(1, 4)]
    sizes[leader] = rng.randint(2, 4)
    high = sorted(cards, key=lambda card: -DECK.index(card))[: rng.randint(0, 6)]
    rest = [card for card in cards if card not in high]
    hands = [
        "".join(rest[: sizes[0]]),
        "".join(rest[sizes[0] : sizes[0] + sizes[1]]),
    ]
    hands[leader] = "".join(high[: rng.randint(0, 3)]) + hands[leader]
    return ddz.Game.from_position(ddz.ENDGAME, hands, landlord=rng.randint(0, 1), to_act=leader)


def static_move(game: ddz.Game) -> int | None:
    hands, *_ = core.state_position(game.state_bytes())
    return ddz.Solver(ddz.ENDGAME, memory_mb=1)._core._static_move(
        hands, game.current_player, game.landlord
    )


def test_two_seat_covered_plays_win_by_minimax(core_flags: int) -> None:
    # FLAG_TWO_COVERS: every move the static test finds with covered singles and pairs in
    # its split wins by the minimax, and it finds some the plain test does not
    found = 0
    for seed in range(300):
        game = covered_position(seed)
        core._set_flags(core_flags & ~FLAG_TWO_COVERS)
        if static_move(game) is not None:
            continue  # the plain test's
        core._set_flags(core_flags | FLAG_TWO_COVERS)
        code = static_move(game)
        if code is None:
            continue
        assert move_wins(game, code), (game.hands, game.current_player, code)
        found += 1
    assert found >= 15, found


def test_two_seat_covered_plays_count_the_cards_the_opponent_may_shed(core_flags: int) -> None:
    # the opponent holds one card: answering the covered 3 with its K it goes out, so the
    # 3 covered by the joker is no win (nor by the plain test: 3 and 4 are both answered);
    # nor where the opponent holds a bomb, which beats any cover
    core._set_flags(core_flags | FLAG_TWO_COVERS)
    # (a rule that ignores the bomb finds a move in each of the last three: checked)
    for hands in (
        ["34D", "K"],
        ["34D", "5555K"],
        ["3D", "5555K"],
        ["3336D", "5555"],
        ["33366D", "5555K"],
    ):
        game = ddz.Game.from_position(ddz.ENDGAME, hands, landlord=0, to_act=0)
        assert reference.value_for_side_to_act(game) == -1
        assert static_move(game) is None
    # with room to shed, the same hand wins by the covered 3
    game = ddz.Game.from_position(ddz.ENDGAME, ["34D", "KQ"], landlord=0, to_act=0)
    assert reference.value_for_side_to_act(game) == 1
    assert static_move(game) is not None


@given(st.integers(0, 10**6))
def test_two_seat_covered_positions_agree_with_minimax(seed: int) -> None:
    # the whole search with the covered plays (as shipped) on the positions they are made
    # for
    game = covered_position(seed)
    solver = ddz.Solver(ddz.ENDGAME, memory_mb=1)
    assert solver.solve(game, line=False).value == reference.value_for_side_to_act(game)


def test_two_seat_rounds_agree_with_minimax(core_flags: int) -> None:
    # FLAG_TWO_ROUNDS: the root searched in rounds of a growing node budget, the search's
    # order and a perturbed one in turn, on one table. With rounds of two nodes to start,
    # small positions are searched in many rounds too: a round stopped at its budget must
    # leave nothing false in the table (win/loss and score mode), and the line read back
    # from the table must stay legal
    core._set_rounds(2, cards_two=0)
    restarted = 0
    for seed in range(80):
        game = covered_position(5000 + seed)
        core._set_flags(core_flags | FLAG_TWO_ROUNDS)
        solver = ddz.Solver(ddz.ENDGAME, memory_mb=1)
        rounds = solver.solve(game)
        scored = solver.solve(game, score=True, line=False)
        core._set_flags(core_flags & ~FLAG_TWO_ROUNDS)
        once = ddz.Solver(ddz.ENDGAME, memory_mb=1).solve(game, line=False)
        assert rounds.value == once.value == reference.value_for_side_to_act(game)
        assert scored.score == reference.value_for_side_to_act(game, score=True)
        reference.play_line(game, rounds.line)
        restarted += rounds.nodes > once.nodes
    assert restarted >= 20, restarted


def test_two_seat_transposition_cutoff_agrees_with_minimax(core_flags: int) -> None:
    # FLAG_TWO_ETC: a child the table holds as won for the side to act wins the node at
    # once. The children of each position are solved first on the same solver, so that the
    # root finds them in its table: its value and its line's first move must be the
    # minimax's, a child that is the opponent's turn negated and one that is the mover's
    # again (the opponent cannot answer: a forced pass) not
    fired = 0
    for seed in range(240):
        game = covered_position(9000 + seed)
        expected = reference.value_for_side_to_act(game)
        nodes = {}
        for flags in (core_flags | FLAG_TWO_ETC, core_flags & ~FLAG_TWO_ETC):
            core._set_flags(flags)
            solver = ddz.Solver(ddz.ENDGAME, memory_mb=1)
            for move in game.legal_actions():
                child = game.copy()
                child.step(move)
                if not child.is_over:
                    solver.solve(child, line=False)
            result = solver.solve(game)
            assert result.value == expected, (game.hands, game.current_player, flags)
            if expected == 1:
                assert move_wins(game, result.line[0].code), (game.hands, result.line)
            nodes[flags] = result.nodes
        fired += nodes[core_flags | FLAG_TWO_ETC] < nodes[core_flags & ~FLAG_TWO_ETC]
    assert fired >= 12, fired
