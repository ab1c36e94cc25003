"""ddz.solve against the slow minimax of tests/solver_reference.py, on thousands of small
positions under several rule sets, in win/loss and score mode; and the API's boundary."""

from __future__ import annotations

import os
import random
from collections.abc import Callable

import pytest

import ddz
from tests import solver_reference as reference

# positions per rule set (set DDZ_SOLVER_POSITIONS for a longer sweep)
POSITIONS = int(os.environ.get("DDZ_SOLVER_POSITIONS", "200"))

RULE_SETS = {
    "classic": ddz.CLASSIC,
    "two-player": ddz.TWO_PLAYER,
    "uno-landlord": ddz.UNO_LANDLORD,
    "douzero": ddz.DOUZERO,
    # made up: loose kickers, short chains, no four + two, no spring
    "made-up": ddz.CLASSIC.replace(
        players=2,
        four_with_two=False,
        single_kickers_distinct=False,
        kicker_matches_main=True,
        rocket_as_kickers=True,
        trio_as_wings=True,
        max_straight=6,
        max_pair_straight=4,
        spring=False,
        bidding=ddz.Bidding.RANDOM,
    ),
}


def small_position(rules: ddz.Rules, seed: int, *, cards: int) -> ddz.Game | None:
    """A play-phase position with few cards: a seeded deal of small hands, random bidding,
    then random moves forward (None if the game ended or the deal was void)."""
    rng = random.Random(seed)
    hand = rng.randint(1, cards)
    small = rules.replace(hand_size=hand, kitty_size=rng.randint(0, 3 - rules.players // 3))
    game = ddz.Game(rules=small, seed=seed)
    while game.phase == "bidding":
        game.step(rng.choice(game.legal_actions()))
    for _ in range(rng.randint(0, 4)):
        if game.is_over:
            break
        child = game.copy()
        child.step(rng.choice(game.legal_actions()))
        if child.is_over:
            break
        game = child
    return None if game.phase != "play" else game


def check(game: ddz.Game, solver: ddz.Solver) -> None:
    result = solver.solve(game, line=False)
    assert result.value == reference.value_for_side_to_act(game), game.hands
    scored = solver.solve(game, score=True, line=False)
    expected = reference.value_for_side_to_act(game, score=True)
    # the reference gives the side's payoff; the solver the score (a 3-seat landlord's
    # payoff is twice the score)
    factor = 2 if game.rules.players == 3 and game.current_player == game.landlord else 1
    assert scored.score is not None and scored.score * factor == expected, game.hands
    assert scored.value == result.value


@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_agrees_with_minimax(name: str) -> None:
    rules = RULE_SETS[name]
    checked = 0
    seed = 0
    solvers: dict[ddz.Rules, ddz.Solver] = {}
    while checked < POSITIONS:
        seed += 1
        game = small_position(rules, seed, cards=3 if rules.players == 3 else 4)
        if game is None:
            continue
        solver = solvers.setdefault(game.rules, ddz.Solver(game.rules, memory_mb=1))
        check(game, solver)
        checked += 1


@pytest.mark.parametrize("name", ["endgame", "made-up"])
def test_chains_under_renumbered_ranks(name: str) -> None:
    # the table keys positions by their renumbered ranks (gaps closed up while chains are
    # possible, plain order once they are not): hands of 4-7 cards from a run of ranks with
    # gaps, so that chains form, break and the renumbering changes shape along the game
    rules = ddz.ENDGAME if name == "endgame" else RULE_SETS[name].replace(kitty_size=0)
    solver = ddz.Solver(rules, memory_mb=4)
    for seed in range(12):
        rng = random.Random(seed)
        deck = list("333344445555666688889999TTTTJJJJ2222XD")
        rng.shuffle(deck)
        a, b = rng.randint(4, 7), rng.randint(4, 7)
        hands = ["".join(deck[:a]), "".join(deck[a : a + b])]
        game = ddz.Game.from_position(rules, hands, landlord=0, to_act=rng.randint(0, 1))
        assert solver.solve(game, line=False).value == reference.value_for_side_to_act(game), hands


KICKER_RULES = {
    "endgame": ddz.ENDGAME,
    "two-player": ddz.TWO_PLAYER.replace(kitty_size=0),
    "made-up": RULE_SETS["made-up"].replace(kitty_size=0, quad_as_wings=True),
    "wing-trios": ddz.ENDGAME.replace(
        airplane_rank_includes_wing_trios=True,
        bombs_only_on_heavy_wings=True,
        min_airplane=2,
        trio_as_wings=True,
        single_kickers_distinct=False,
        pair_kickers_distinct=False,
    ),
}


def kicker_hand(rng: random.Random, counts: dict[str, int]) -> str:
    """A trio, a quad or two trios in a row, plus loose cards (ranks held once or twice)."""
    ranks = [rank for rank in "3456789TJQKA2" if counts[rank] == 4]
    loose_ranks = rng.randint(2, 3)
    main = rng.choice(["trio", "quad", "airplane"])
    cards = []
    if main == "airplane":
        starts = [
            i
            for i, rank in enumerate("3456789TJQK")
            if counts["3456789TJQKA"[i + 1]] == 4 and counts[rank] == 4
        ]
        if starts:
            low = rng.choice(starts)
            for rank in "3456789TJQKA"[low : low + 2]:
                cards += [rank] * 3
                counts[rank] -= 3
        else:
            main = "trio"
    if main in ("trio", "quad"):
        rank = rng.choice(ranks)
        width = 3 if main == "trio" else 4
        cards += [rank] * width
        counts[rank] -= width
    for _ in range(loose_ranks):
        loose = [rank for rank in "3456789TJQKA2XD" if counts[rank] > 0 and rank not in cards]
        rank = rng.choice(loose)
        take = min(counts[rank], rng.choice([1, 1, 1, 2]))
        cards += [rank] * take
        counts[rank] -= take
    return "".join(cards)


def two_seats(
    rules: ddz.Rules, rng: random.Random, hands: list[str], landlord: int, to_act: int
) -> ddz.Game | None:
    """The two-seat position of these hands; half of them answering a move the other seat
    has just played (None when that emptied its hand)."""
    table = None
    if rng.random() < 0.5:
        # the other seat has just played: answers are searched too
        other = ddz.Game.from_position(rules, hands, landlord=landlord, to_act=1 - to_act)
        table = rng.choice(other.legal_actions())
        hands[1 - to_act] = str(ddz.Cards.parse(hands[1 - to_act]) - table.cards)
        if not hands[1 - to_act]:
            return None
    return ddz.Game.from_position(
        rules,
        hands,
        landlord=landlord,
        to_act=to_act,
        table=table,
        table_player=None if table is None else 1 - to_act,
    )


def kicker_position(rules: ddz.Rules, seed: int) -> ddz.Game | None:
    """Two seats: one with a trio, a quad or an airplane and loose cards, the other the same
    or loose cards only (so that which kickers go matters); half of them answering a move."""
    rng = random.Random(seed)
    deck = str(rules.deck)
    counts = {rank: deck.count(rank) for rank in "3456789TJQKA2XD"}
    hands = [kicker_hand(rng, counts), ""]
    if rng.random() < 0.5:
        hands[1] = kicker_hand(rng, counts)
    else:
        for _ in range(rng.randint(2, 4)):
            rank = rng.choice([rank for rank in "3456789TJQKA2XD" if counts[rank] > 0])
            hands[1] += rank
            counts[rank] -= 1
    landlord = rng.randint(0, 1)
    to_act = 0 if rng.random() < 0.75 else 1
    return two_seats(rules, rng, hands, landlord, to_act)


def agreed_with_minimax(
    rules: ddz.Rules, make: Callable[[ddz.Rules, int], ddz.Game | None], seeds: int
) -> int:
    """Solve make(rules, seed) for each seed below seeds and assert the minimax's value;
    return how many positions there were (make may give None)."""
    solver = ddz.Solver(rules, memory_mb=4)
    checked = 0
    for seed in range(seeds):
        game = make(rules, seed)
        if game is None:
            continue
        expected = reference.value_for_side_to_act(game)
        assert solver.solve(game, line=False).value == expected, (game.hands, game.table)
        checked += 1
    return checked


@pytest.mark.parametrize("name", sorted(KICKER_RULES))
def test_kicker_choices(name: str) -> None:
    # two seats with trios, quads or airplanes and several loose ranks: the search leaves out
    # a kicker of a rank held once (twice) when a lower such rank could take its place;
    # checked against the minimax, which tries every kicker
    checked = agreed_with_minimax(KICKER_RULES[name], kicker_position, POSITIONS // 8)
    assert checked >= POSITIONS // 16


def set_hand(rng: random.Random, counts: dict[str, int], ranks: int) -> str:
    """Loose ranks held once, twice or three times, now and then a quad."""
    cards = ""
    for _ in range(ranks):
        free = [rank for rank in "3456789TJQKA2XD" if counts[rank] > 0 and rank not in cards]
        rank = rng.choice(free)
        take = min(counts[rank], rng.choice([1, 1, 1, 2, 2, 3, 4] if ranks > 3 else [1, 2]))
        cards += rank * take
        counts[rank] -= take
    return cards


def set_position(rules: ddz.Rules, seed: int) -> ddz.Game | None:
    """Two seats of singles, pairs and trios at spread ranks (so that some ranks of one seat
    have none of the other's between them), to lead or to answer."""
    rng = random.Random(seed)
    deck = str(rules.deck)
    counts = {rank: deck.count(rank) for rank in "3456789TJQKA2XD"}
    hands = [set_hand(rng, counts, rng.randint(3, 4)), set_hand(rng, counts, rng.randint(2, 3))]
    landlord = rng.randint(0, 1)
    to_act = rng.randint(0, 1)
    return two_seats(rules, rng, hands, landlord, to_act)


@pytest.mark.parametrize("name", sorted(KICKER_RULES))
def test_equivalent_ranks_choices(name: str) -> None:
    # two seats of loose singles, pairs and trios: the search leaves out a single, pair or
    # trio of rank b (also a single or pair broken off more cards, where the kicker rules
    # allow it) when a lower rank a held that often would do and the other seat holds no
    # answer between them; checked against the minimax, which tries every move
    checked = agreed_with_minimax(KICKER_RULES[name], set_position, POSITIONS)
    assert checked >= POSITIONS // 2


# Three seats: the dominated kickers and equivalent ranks are left out for the landlord
# (its opponents are the two farmers, their cards pooled) and for a farmer (no other seat
# holding a card between the two ranks), the landlord's singles and pairs a farmer answers
# to a win at once are left out, and a move no other seat answers skips both passes. The
# seat to act holds a trio, quad or airplane and loose ranks (or loose singles, pairs and
# trios), the others a few loose cards each
THREE_SEAT_RULES = {
    "classic": ddz.CLASSIC.replace(kitty_size=0),
    "made-up": RULE_SETS["made-up"].replace(players=3, kitty_size=0, quad_as_wings=True),
}


def three_seat_position(rules: ddz.Rules, seed: int) -> ddz.Game | None:
    """Three seats, the seat to act with a kicker or set hand, the others 1-3 loose cards
    each; the landlord a random seat; half of them answering the move the seat before has
    just played."""
    rng = random.Random(seed)
    deck = str(rules.deck)
    counts = {rank: deck.count(rank) for rank in "3456789TJQKA2XD"}
    landlord, to_act = rng.randint(0, 2), rng.randint(0, 2)
    hands = ["", "", ""]
    if rng.random() < 0.5:
        hands[to_act] = kicker_hand(rng, counts)
    else:
        hands[to_act] = set_hand(rng, counts, rng.randint(3, 4))
    for seat in range(3):
        if seat != to_act:
            hands[seat] = set_hand(rng, counts, rng.randint(1, 2))
    table, before = None, (to_act + 2) % 3
    if rng.random() < 0.5:
        other = ddz.Game.from_position(rules, hands, landlord=landlord, to_act=before)
        table = rng.choice(other.legal_actions())
        hands[before] = str(ddz.Cards.parse(hands[before]) - table.cards)
        if not hands[before]:
            return None
    return ddz.Game.from_position(
        rules,
        hands,
        landlord=landlord,
        to_act=to_act,
        table=table,
        table_player=None if table is None else before,
    )


@pytest.mark.parametrize("name", sorted(THREE_SEAT_RULES))
def test_three_seat_choices(name: str) -> None:
    checked = agreed_with_minimax(THREE_SEAT_RULES[name], three_seat_position, POSITIONS // 4)
    assert checked >= POSITIONS // 8


def test_three_seat_moves_left_out_as_answered_lose(core_flags: int) -> None:
    # the farmer holding the farmers' highest single (pair), its partner passing, answers the
    # landlord's lower singles (pairs) and leads to a static win; the landlord holding a
    # single (pair) above both farmers' answers a farmer's lower ones the same way: each
    # must lose, by the minimax
    from ddz._core import solver as core

    rules = THREE_SEAT_RULES["classic"]
    solver = ddz.Solver(rules, memory_mb=1)._core
    left_out = {"landlord": 0, "farmer": 0}
    made = (three_seat_position(rules, seed) for seed in range(POSITIONS // 2))
    games = [game for game in made if game is not None]
    core._set_flags(core_flags | 32 | 1024)  # FLAG_LANDLORD_DROP, FLAG_FARMER_DROP
    dropped = [(game, solver._answered_moves(*core_fields(game))) for game in games]
    for game, codes in dropped:
        mover = game.current_player
        for code in codes:
            move = ddz.Move.from_code(code)
            assert move in game.legal_actions(), (game.hands, move)
            child = game.copy()
            child.step(move)
            if child.is_over:
                continue  # the search takes a move that ends the game before any other
            value = reference.value_for_side_to_act(child)
            same_side = (child.current_player == game.landlord) == (mover == game.landlord)
            # the mover's side loses
            assert value == (-1 if same_side else 1), (game.hands, game.table, move)
            left_out["landlord" if mover == game.landlord else "farmer"] += 1
    # the test is not empty
    assert left_out["landlord"] >= POSITIONS // 20 and left_out["farmer"] >= POSITIONS // 100


@pytest.mark.parametrize("name", sorted(KICKER_RULES))
def test_moves_left_out_as_answered_lose(name: str) -> None:
    # where the other seat's highest single (pair) beats all of the side's and its hand then
    # passes the static test, the search leaves out the side's lower singles (pairs) at
    # nodes it expects to lose: each must lose, by the minimax
    rules = KICKER_RULES[name]
    solver = ddz.Solver(rules, memory_mb=1)._core
    left_out = 0
    for seed in range(POSITIONS):
        game = set_position(rules, seed)
        if game is None:
            continue
        fields = core_fields(game)
        for code in solver._answered_moves(*fields):
            move = ddz.Move.from_code(code)
            assert move in game.legal_actions(), (game.hands, move)
            child = game.copy()
            child.step(move)
            assert reference.value_for_side_to_act(child) == 1, (game.hands, game.table, move)
            left_out += 1
    assert left_out >= POSITIONS // 4  # the test is not empty


def core_fields(game: ddz.Game) -> tuple[tuple[int, ...], int, int, int, int, int]:
    """What SolverCore._answered_moves takes of a game."""
    from ddz._core import solver as core

    hands, table, table_player, current, landlord, _, let, *_ = core.state_position(
        game.state_bytes()
    )
    return hands, table, table_player, current, landlord, let


def endgame(hands: list[str], **fields: object) -> ddz.Game:
    fields.setdefault("landlord", 0)
    fields.setdefault("to_act", 0)
    return ddz.Game.from_position(ddz.ENDGAME, hands, **fields)  # type: ignore[arg-type]


# FLAG_PASS_BEFORE_BOMBS and FLAG_TWO_TOP_PAIR (solver_order.pxd): orders of the answers
ANSWER_ORDERS = 536870912 | 1073741824


def answer_position(rules: ddz.Rules, seed: int) -> ddz.Game:
    """A position whose side to act answers a single or pair holding a bomb and a pair of
    its highest rank (the answers those orders move), its opponents a few cards."""
    rng = random.Random(seed)
    ranks = "56789TJQKA2"
    bomb, *others = rng.sample(range(len(ranks) - 3), 3)
    top = rng.randrange(max(bomb, *others) + 1, len(ranks) - 2)
    low = min(others)
    mover = ranks[bomb] * 4 + ranks[top] * 2 + "".join(ranks[r] for r in others[1:])
    left = list(str(rules.deck))
    for card in mover:
        left.remove(card)
    width = rng.choice([1, 2])
    table = ranks[low] * width if left.count(ranks[low]) >= width else "3" * width
    for card in table:
        left.remove(card)
    rng.shuffle(left)
    seats = rules.players
    hands = [""] * seats
    mover_seat = rng.randrange(seats)
    hands[mover_seat] = mover
    for seat in range(seats):
        if seat != mover_seat:
            size = rng.randint(3, 5) if seats == 2 else rng.randint(2, 3)
            hands[seat] = "".join(left.pop() for _ in range(size))
    before = (mover_seat - 1) % seats
    return ddz.Game.from_position(
        rules,
        hands,
        landlord=rng.randrange(seats),
        to_act=mover_seat,
        table=table,
        table_player=before,
    )


def open_deal(rules: ddz.Rules, size: int, seed: int) -> ddz.Game:
    """size cards a seat from a shuffled deck, the landlord (seat 0) to lead."""
    rng = random.Random(seed)
    cards = list(str(rules.deck))
    rng.shuffle(cards)
    hands = ["".join(cards[seat * size : (seat + 1) * size]) for seat in range(rules.players)]
    return ddz.Game.from_position(rules, hands, landlord=0, to_act=0)


@pytest.mark.parametrize("seats", [2, 3])
def test_answer_orders_change_no_verdict(seats: int, core_flags: int) -> None:
    # the pass before the bombs, the top pair last: orders only, so they move the search
    # (fewer or more nodes), never a verdict or a score: against the minimax on small
    # answers they move, and against the search without them on deals of 24 cards
    from ddz._core import solver as core

    rules = ddz.ENDGAME if seats == 2 else ddz.CLASSIC
    small = [answer_position(rules, seed) for seed in range(POSITIONS // 10)]
    deals = [open_deal(rules, 12 if seats == 2 else 8, seed) for seed in range(150)]

    def solved(flags: int) -> list[tuple[ddz.SolveResult, ddz.SolveResult]]:
        core._set_flags(flags)
        return [
            (ddz.solve(game, line=False), ddz.solve(game, score=True, line=False))
            for game in small + deals
        ]

    now, before = solved(core_flags), solved(core_flags ^ ANSWER_ORDERS)
    moved = 0
    for index, game in enumerate(small + deals):
        (wl, scored), (wl_before, scored_before) = now[index], before[index]
        assert wl.value == wl_before.value, game
        assert scored.score == scored_before.score, game
        if index < len(small):
            assert wl.value == reference.value_for_side_to_act(game), game
        moved += wl.nodes != wl_before.nodes
    assert moved >= 5  # the orders are not idle on these positions (two seats: about 20)


def test_the_line_plays_out_to_the_verdict() -> None:
    solver = ddz.Solver(ddz.ENDGAME)
    for seed in range(20):
        game = ddz.Game(ddz.ENDGAME, seed=seed)
        rng = random.Random(seed)
        cards = list(str(game.hands[0]) + str(game.hands[1]))
        rng.shuffle(cards)
        game = endgame(["".join(cards[:6]), "".join(cards[6:12])])
        result = solver.solve(game)
        assert result.value in (1, -1) and result.move == result.line[0]
        walk = reference.play_line(game, result.line)  # every move of the line is legal
        assert walk.is_over
        side_won = (walk.winner == walk.landlord) == (game.current_player == game.landlord)
        assert side_won == (result.value == 1)
        values = {str(m.move): m.value for m in solver.analyse(game)}
        assert max(values.values()) == result.value
        assert values[str(result.move)] == result.value or result.value == -1


def test_an_answer_nobody_answers_then_a_winning_split_wins_at_once() -> None:
    # the farmer answers the landlord's 3 with its 2, which the landlord cannot beat, then
    # leads QQ (no pair beats it) and goes out with the 5: the answering node's static test
    # finds it without a child node, and its move is the one read back
    game = endgame(["4JK", "25QQ"], to_act=1, table="3", table_player=0)
    result = ddz.Solver(ddz.ENDGAME).solve(game)
    assert result.value == 1 and result.nodes == 1
    assert str(result.move) == "2" and result.move == result.line[0]
    walk = reference.play_line(game, result.line)
    assert walk.is_over and walk.winner == 1
    # where the landlord holds a pair to beat QQ, the same answer no longer wins at once
    beaten = endgame(["4KK", "25QQ"], to_act=1, table="3", table_player=0)
    assert ddz.Solver(ddz.ENDGAME).solve(beaten).nodes > 1


def test_limits_give_unknown() -> None:
    game = ddz.Game(ddz.ENDGAME, seed=1)  # 17 v 17: more than 10 nodes
    result = ddz.solve(game, node_limit=10)
    assert result.value is None and result.move is None and result.line == ()
    assert result.nodes >= 10
    assert "unknown" in str(result)


def test_threads_agree() -> None:
    solver = ddz.Solver(ddz.ENDGAME, memory_mb=16, threads=2)
    single = ddz.Solver(ddz.ENDGAME, memory_mb=16)
    for seed in range(6):
        game = ddz.Game(ddz.ENDGAME, seed=seed)
        cards = str(game.hands[0])[:7], str(game.hands[1])[:7]
        position = endgame(list(cards))
        assert solver.solve(position).value == single.solve(position).value


def test_score_mode_counts_bombs_and_spring() -> None:
    # the landlord bombs, then goes out: no farmer card played, a spring: 1 x 2 x 2
    game = endgame(["33334", "5"], bombs=0)
    result = ddz.solve(game, score=True)
    assert result.value == 1 and result.score == 4
    assert [str(move) for move in result.line][:1] in (["3333"], ["33334"])


# deal 1 of benchmarks/positions/deal-three-score.txt: its verdict (-1) settles in about
# 300,000 nodes, its score (-2) in about 9,500,000
DEAL_1 = (
    "3456777899TTJJQQK222/3344466889TJJQKKA/35556789TQKAAA2XD landlord=0 turn=0 kitty=392 "
    "rules=classic"
)


def test_score_mode_keeps_the_verdict_its_limits_leave() -> None:
    # score mode settles the verdict first: limits that stop the score's search after it
    # leave value and move (the verdict's), no score and no line
    game = ddz.Position.parse(DEAL_1).game()
    solver = ddz.Solver(game.rules)
    result = solver.solve(game, score=True, node_limit=1_000_000)
    assert result.value == -1 and result.score is None and result.line == ()
    assert result.move in game.legal_actions()
    assert result.nodes == 1_000_000
    assert ddz.solve(game, node_limit=1_000_000, line=False).value == -1
    # the next solve on the solver does not answer with that verdict
    other = ddz.Game(seed=5)
    while other.phase == "bidding":
        other.step(other.legal_actions()[-1])
    unsettled = solver.solve(other, score=True, node_limit=1_000)
    assert unsettled.value is None and unsettled.move is None
    moves = ddz.Solver(game.rules).analyse(game, score=True, node_limit=200_000)
    assert any(entry.value is not None and entry.score is None for entry in moves)


def test_boundary() -> None:
    game = ddz.Game(seed=1)  # bidding
    with pytest.raises(ValueError, match="play phase"):
        ddz.solve(game)
    with pytest.raises(TypeError):
        ddz.solve("33/44 landlord=0")  # type: ignore[arg-type]
    position = endgame(["34", "5"])
    with pytest.raises(ValueError, match="time_limit"):
        ddz.solve(position, time_limit=-1)
    with pytest.raises(ValueError, match="node_limit"):
        ddz.solve(position, node_limit=0)
    with pytest.raises(ValueError, match="memory_mb"):
        ddz.solve(position, memory_mb=0)
    with pytest.raises(ValueError, match="threads"):
        ddz.solve(position, threads=0)
    with pytest.raises(ValueError, match="rules"):
        ddz.Solver(ddz.CLASSIC).solve(position)
    over = endgame(["3", "5"])
    over.step("3")
    with pytest.raises(ValueError, match="play phase"):
        ddz.solve(over)


LEAD_RULE_SETS = {
    **RULE_SETS,
    "endgame": ddz.ENDGAME,
    # every kicker and wing option the generator knows, on
    "loose": ddz.CLASSIC.replace(
        single_kickers_distinct=False,
        pair_kickers_distinct=False,
        kicker_matches_main=True,
        rocket_as_kickers=True,
        quad_as_wings=True,
        trio_as_wings=True,
        multiple_readings=True,
        min_airplane=2,
        max_straight=12,
    ),
    "wing-trios": ddz.CLASSIC.replace(
        trio_as_wings=True,
        trio_wings_adjacent=True,
        airplane_rank_includes_wing_trios=True,
        bombs_only_on_heavy_wings=True,
    ),
}


@pytest.mark.parametrize("name", sorted(LEAD_RULE_SETS))
def test_lowest_leads_are_the_leads_holding_the_lowest_card(name: str) -> None:
    """The splitting generator of the static win test and the ordering (generate_lowest)
    gives exactly the leads that hold a card of the hand's lowest rank, in legal_moves'
    order. Hands rich in trios, quads and runs, where its shortcuts are."""
    from ddz._core import moves as core

    rules = LEAD_RULE_SETS[name]
    rng = random.Random(f"lowest-leads-{name}")
    deck = list(str(rules.deck))
    # the lowest card a joker or an action card: the rocket, Skip and Reverse
    edges = ["XD", "D", "2XD", "SV", "SSVV", "V", "XDSV"]
    for trial in range(-len(edges), 400):
        if trial < 0:
            text = edges[trial]
            if any(text.count(c) > deck.count(c) for c in text):
                continue
            hand = ddz.Cards(text)
        elif trial % 2:
            hand = ddz.Cards("".join(rng.sample(deck, rng.randint(1, 20))))
        else:  # whole ranks in a row: trios, quads, chains, airplanes with wings
            symbols = sorted(set(deck), key=deck.index)
            start = rng.randrange(len(symbols))
            run = symbols[start : start + rng.randint(1, 6)]
            picked = [s for s in run for _ in range(min(deck.count(s), rng.randint(2, 4)))]
            extra = [c for c in rng.sample(deck, rng.randint(0, 6))]
            counts: dict[str, int] = {}
            for s in picked + extra:
                if counts.get(s, 0) < deck.count(s):
                    counts[s] = counts.get(s, 0) + 1
            hand = ddz.Cards("".join(s * n for s, n in counts.items()))
        mask = hand.mask
        low = (mask & -mask).bit_length() - 1
        low_rank = low // 3
        expected = [
            m.code
            for m in core.legal_moves(mask, 0, rules.core_flags)
            if (m.code >> (3 * low_rank)) & 7
        ]
        assert core.lowest_leads(mask, rules.core_flags) == expected, (name, str(hand))


def test_lowest_leads_refuses_what_legal_moves_refuses() -> None:
    from ddz._core import moves as core

    with pytest.raises(ValueError):
        core.lowest_leads(0, ddz.CLASSIC.core_flags)
    with pytest.raises(ValueError):
        core.lowest_leads(ddz.Cards("SS").mask, ddz.CLASSIC.core_flags)


def test_packing_agrees_with_a_plain_pext() -> None:
    """The canonical key packs the digits of the ranks in play with pext where the CPU has
    it fast, else with a portable loop: both must give the plain definition's bits."""
    from ddz._core import solver as core

    def pext(word: int, mask: int) -> int:
        out, at = 0, 0
        for bit in range(63):
            if mask >> bit & 1:
                out |= (word >> bit & 1) << at
                at += 1
        return out

    rng = random.Random("pack")
    for trial in range(3000):
        ranks = rng.getrandbits(13 if trial % 3 else 17)
        mask = sum(7 << (3 * r) for r in range(17) if ranks >> r & 1)
        if trial % 5 == 0:
            mask = rng.getrandbits(62)  # any mask below bit 63
        word = rng.getrandbits(64)
        portable, fast = core._pack_both(word, mask)
        assert portable == pext(word, mask), (word, mask)
        assert fast is None or fast == portable
    with pytest.raises(ValueError):
        core._pack_both(1, 1 << 63)


def test_a_table_the_system_refuses_is_a_memory_error_naming_its_size() -> None:
    """memory_mb=65536 is in the documented range; when the system cannot give the table,
    the solver says so as the CLI does (one wording), not a bare MemoryError(). The
    address space is capped in a child process so the refusal happens on any machine."""
    import subprocess
    import sys

    script = (
        "import resource, ddz\n"
        "resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))\n"
        "try:\n"
        "    ddz.Solver(ddz.ENDGAME, memory_mb=65536)\n"
        "except MemoryError as error:\n"
        "    print(type(error).__name__, str(error))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    assert out.strip() == (
        "MemoryError not enough memory for a 65536 MB table; ask for less with memory_mb"
    )
