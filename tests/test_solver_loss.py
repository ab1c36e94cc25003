"""The three-seat static loss tests of the solver (FLAG_LORD_LOSS, FLAG_FARMER_LOSS: the side
to act loses at once where each of its moves meets an opponent's ready answer) against the
slow minimax of tests/solver_reference.py."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

import ddz
from ddz._core import solver as core
from tests import solver_reference as reference

RULES = ddz.CLASSIC.replace(kitty_size=0)
DECK = "3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222XD"
FLAG_LORD_LOSS, FLAG_FARMER_LOSS = 4194304, 8388608  # solver_order.pxd


def loss_game(hands: list[str], landlord: int, to_act: int, answer: int, gap: int) -> ddz.Game:
    """The hands, to_act to play: answer 0 leads, else the seat gap (1 or 2) places before
    plays its (answer - 1)-th legal lead first, the seats between passing. A lead that
    empties the hand is not played (to_act leads then)."""
    if answer:
        before = (to_act - gap) % 3
        leads = ddz.Game.from_position(RULES, hands, landlord=landlord, to_act=before)
        options = leads.legal_actions()
        table = options[(answer - 1) % len(options)]
        rest = ddz.Cards.parse(hands[before]) - table.cards
        if rest:
            hands = list(hands)
            hands[before] = str(rest)
            return ddz.Game.from_position(
                RULES, hands, landlord=landlord, to_act=to_act, table=table, table_player=before
            )
    return ddz.Game.from_position(RULES, hands, landlord=landlord, to_act=to_act)


def small_deal(
    rng: random.Random, most_high: int, most_cards: int = 4
) -> tuple[int, int, list[str], list[str]]:
    """(landlord, seat to act, hands, high cards): three hands of one to most_cards cards,
    none of the up to most_high highest cards of a shuffled deck, which are left for the
    caller to hand out."""
    cards = list(DECK)
    rng.shuffle(cards)
    landlord, to_act = rng.randint(0, 2), rng.randint(0, 2)
    sizes = [rng.randint(1, most_cards) for _ in range(3)]
    high = sorted(cards, key=lambda card: -DECK.index(card))[: rng.randint(0, most_high)]
    rest = [card for card in cards if card not in high]
    hands = ["".join(rest[sum(sizes[:seat]) : sum(sizes[: seat + 1])]) for seat in range(3)]
    return landlord, to_act, hands, high


def loss_position(seed: int) -> ddz.Game:
    """A small three-seat position, the side not to act often holding high cards (where
    its ready answers are), the side to act a few low ones."""
    rng = random.Random(seed)
    landlord, to_act, hands, high = small_deal(rng, 8)
    strong = [seat for seat in range(3) if (seat == landlord) != (to_act == landlord)]
    for seat in strong:
        hands[seat] = "".join(high[: rng.randint(0, 3)]) + hands[seat]
        high = high[3:]
    return loss_game(hands, landlord, to_act, rng.randint(0, 6), rng.randint(1, 2))


def fields(game: ddz.Game) -> tuple[tuple[int, ...], int, int, int, int]:
    hands, table, table_player, current, landlord, *_ = core.state_position(game.state_bytes())
    return hands, table, table_player, current, landlord


def static_loss(game: ddz.Game) -> bool:
    return ddz.Solver(RULES, memory_mb=1)._core._static_loss(*fields(game))


def test_static_losses_lose_by_minimax() -> None:
    # every position the tests call lost is lost by the minimax, and they call some of
    # each kind lost: the landlord leading and answering, the farmer before the landlord
    # and the one after it (its partner between)
    found = {"landlord": 0, "farmer before": 0, "farmer after": 0}
    for seed in range(400):
        game = loss_position(seed)
        if not static_loss(game):
            continue
        assert reference.value_for_side_to_act(game) == -1, (game.hands, game.table)
        if game.current_player == game.landlord:
            kind = "landlord"
        elif (game.current_player + 1) % 3 == game.landlord:
            kind = "farmer before"
        else:
            kind = "farmer after"
        found[kind] += 1
    assert min(found.values()) >= 5, found


def test_static_losses_ask_every_line() -> None:
    # positions won by the side to act that a version of the tests missing one of their
    # lines calls lost (each found so, with that line left out: checked): the mover goes
    # out with its move; the landlord's pass gives the lead back to a farmer without a
    # static win; the partner of the farmer after the landlord overtakes to go out; the
    # farmer's pass; a ready answer the other side could still answer
    cases = [
        (["KD", "Q", "4"], 2, 2, "3", 0),  # the landlord goes out with its 4
        (["4", "Q", "6"], 1, 0, None, -1),  # the farmer goes out with its 4
        (["49T", "4A", "JA"], 1, 1, "2", 0),  # the landlord passes the 2
        (["9K", "778", "3A"], 2, 2, "A", 0),  # the landlord passes the A
        (["T", "9XD", "56QA"], 1, 2, None, -1),  # the partner goes out with its T
        (["9", "99XD", "8Q"], 1, 2, "7", 1),  # over the 8, the partner goes out
        (["8K", "35", "4"], 0, 1, "K", 2),  # the farmer passes the landlord's K
        (["2", "3", "3X"], 0, 1, "8", 2),
        (["455K", "2", "37T"], 0, 2, "7", 0),  # a landlord's move a farmer answers
    ]
    for hands, landlord, to_act, table, table_player in cases:
        game = ddz.Game.from_position(
            RULES,
            hands,
            landlord=landlord,
            to_act=to_act,
            table=None if table is None else ddz.Move.parse(table),
            table_player=None if table is None else table_player,
        )
        assert reference.value_for_side_to_act(game) == 1, (hands, table)
        assert not static_loss(game), (hands, table)


@given(st.integers(0, 10**6))
def test_loss_positions_agree_with_minimax(seed: int) -> None:
    # the whole search with the static loss tests (as shipped) on the positions they are
    # made for
    game = loss_position(seed)
    solver = ddz.Solver(RULES, memory_mb=1)
    assert solver.solve(game, line=False).value == reference.value_for_side_to_act(game)


def test_the_static_losses_change_no_verdict(core_flags: int) -> None:
    # the same positions with the tests off and on: the same verdicts, the same as the
    # minimax
    for seed in range(120):
        game = loss_position(seed)
        values = []
        for flags in (core_flags & ~(FLAG_LORD_LOSS | FLAG_FARMER_LOSS), core_flags):
            core._set_flags(flags)
            values.append(ddz.Solver(RULES, memory_mb=1).solve(game, line=False).value)
        assert values[0] == values[1] == reference.value_for_side_to_act(game), seed
