"""The three-seat team shortcuts of the solver against the slow minimax of
tests/solver_reference.py: the farmers' static win through the partner (a farmer passes to,
or leads under, a partner that then wins statically), score mode's switch to the win/loss
search once no doubling can come, each side's own doublings bounding its score, its bombs
nobody answers, played first as a bound and tried first as an order, the covered plays, and
the three-seat transposition cutoff."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ddz
from ddz._core import solver as core
from tests import solver_reference as reference

RULES = ddz.CLASSIC.replace(kitty_size=0)
DECK = "3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222XD"


def team_position(
    cards: list[str], sizes: tuple[int, int, int], landlord: int, first: bool, answer: int
) -> ddz.Game | None:
    """Three seats dealt from cards (sizes a seat); see team_game."""
    hands, start = [], 0
    for size in sizes:
        hands.append("".join(cards[start : start + size]))
        start += size
    return team_game(hands, landlord, first, answer)


def team_game(hands: list[str], landlord: int, first: bool, answer: int) -> ddz.Game | None:
    """The hands, a farmer to act: the first farmer after the landlord or the second;
    answer 0 leads, else the seat before plays its (answer - 1)-th legal lead first, which
    the farmer to act answers. None where that lead empties the hand."""
    to_act = (landlord + (1 if first else 2)) % 3
    if not answer:
        return ddz.Game.from_position(RULES, hands, landlord=landlord, to_act=to_act)
    before = (to_act + 2) % 3
    leads = ddz.Game.from_position(RULES, hands, landlord=landlord, to_act=before)
    options = leads.legal_actions()
    table = options[(answer - 1) % len(options)]
    hands = list(hands)
    hands[before] = str(ddz.Cards.parse(hands[before]) - table.cards)
    if not hands[before]:
        return None
    return ddz.Game.from_position(
        RULES, hands, landlord=landlord, to_act=to_act, table=table, table_player=before
    )


def fields(game: ddz.Game) -> tuple[tuple[int, ...], int, int, int, int]:
    hands, table, table_player, current, landlord, *_ = core.state_position(game.state_bytes())
    return hands, table, table_player, current, landlord


def team_move_wins(game: ddz.Game, solver: ddz.Solver) -> bool:
    """Where the team test finds a move for the farmer to act, it is legal and wins for
    the farmers by the minimax; returns whether it found one."""
    code = solver._core._team_move(*fields(game))
    if code is None:
        return False
    move = ddz.Move.from_code(code)
    assert move in game.legal_actions(), (game.hands, game.table, move)
    child = game.copy()
    child.step(move)
    if not child.is_over:
        value = reference.value_for_side_to_act(child)
        # the child's side to act: the other farmer (the same side) or the landlord
        farmers_win = value == 1 if child.current_player != child.landlord else value == -1
        assert farmers_win, (game.hands, game.table, move)
    return True


def random_team_position(seed: int) -> ddz.Game | None:
    rng = random.Random(seed)
    cards = list(DECK)
    rng.shuffle(cards)
    sizes = (rng.randint(1, 4), rng.randint(1, 4), rng.randint(1, 4))
    landlord = rng.randint(0, 2)
    sizes = tuple(size + 2 if seat == landlord else size for seat, size in enumerate(sizes))
    return team_position(cards, sizes, landlord, rng.random() < 0.5, rng.randint(0, 6))


def test_the_team_test_finds_winning_moves() -> None:
    # seeded small positions: every move the test finds must win, and it finds some of
    # each kind (a pass to the partner, a lead the partner overtakes)
    solver = ddz.Solver(RULES, memory_mb=1)
    found = {"pass": 0, "lead": 0}
    for seed in range(300):
        game = random_team_position(seed)
        if game is None:
            continue
        if team_move_wins(game, solver):
            found["lead" if game.table is None else "pass"] += 1
    assert found["pass"] >= 10 and found["lead"] >= 5, found  # the test is not empty


positions = st.builds(
    team_position,
    st.permutations(list(DECK)),
    st.tuples(st.integers(1, 4), st.integers(1, 4), st.integers(1, 4)),
    st.integers(0, 2),
    st.booleans(),
    st.integers(0, 8),
)


@given(positions)
def test_team_positions_agree_with_minimax(game: ddz.Game | None) -> None:
    # the whole search (the team test on, every shortcut as shipped) in win/loss and score
    # mode on positions where the test often fires
    if game is None:
        return
    solver = ddz.Solver(RULES, memory_mb=1)
    team_move_wins(game, solver)
    assert solver.solve(game, line=False).value == reference.value_for_side_to_act(game)
    scored = solver.solve(game, score=True, line=False)
    expected = reference.value_for_side_to_act(game, score=True)
    assert scored.score == expected, (game.hands, game.table)


def test_score_mode_without_doublings_to_come_agrees_with_the_full_search(core_flags: int) -> None:
    # no bomb or rocket left and no spring possible: score mode searches the position in
    # win/loss mode; the scores agree with the search that does not switch and the minimax
    switched = ddz.Solver(RULES, memory_mb=1)
    compared = 0
    for seed in range(60):
        game = random_team_position(1000 + seed)
        if game is None:
            continue
        core._set_flags(core_flags)
        fast = switched.solve(game, score=True, line=False)
        core._set_flags(core_flags & ~256)  # FLAG_SCORE_SETTLED off
        full = ddz.Solver(RULES, memory_mb=1).solve(game, score=True, line=False)
        assert fast.score == full.score, (game.hands, game.table)
        compared += 1
    assert compared >= 40


def bomb_position(
    cards: list[str],
    quad: str,
    seat: int,
    sizes: tuple[int, int, int],
    landlord: int,
    first: bool,
    answer: int,
) -> ddz.Game | None:
    """team_game with the four cards of quad (the rocket when quad is 'XD') in seat's hand
    besides its share: the score's doublings come from bombs as well as the spring."""
    held = quad if quad == "XD" else quad * 4
    rest = [card for card in cards if card not in held]
    hands, start = [], 0
    for size in sizes:
        hands.append("".join(rest[start : start + size]))
        start += size
    hands[seat] += held
    return team_game(hands, landlord, first, answer)


bombs = st.builds(
    bomb_position,
    st.permutations(list(DECK)),
    st.sampled_from(["3", "7", "T", "K", "2", "XD"]),
    st.integers(0, 2),
    st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(1, 3)),
    st.integers(0, 2),
    st.booleans(),
    st.integers(0, 8),
)


@given(bombs)
def test_score_mode_with_bombs_agrees_with_minimax(game: ddz.Game | None) -> None:
    # the score by null windows, a bomb's child searched in the window mapped through its
    # doubling, and the doublings still to come bounding the value
    if game is None:
        return
    scored = ddz.Solver(RULES, memory_mb=1).solve(game, score=True, line=False)
    assert scored.score == reference.value_for_side_to_act(game, score=True), (
        game.hands,
        game.table,
    )


FLAG_ROUNDS = 16384  # solver_order.pxd
FLAG_SCORE_BOMBS = 67108864
FLAG_SCORE_BOMB_ROUNDS, FLAG_BOMBS_FIRST = 134217728, 268435456


def seeded_bomb_positions(seed: int, count: int) -> Iterator[ddz.Game]:
    """bomb_position from a seeded generator: count tries, the void ones left out."""
    rng = random.Random(seed)
    for _ in range(count):
        cards = list(DECK)
        rng.shuffle(cards)
        game = bomb_position(
            cards,
            rng.choice(["7", "K", "2", "XD"]),
            rng.randint(0, 2),
            (rng.randint(1, 3), rng.randint(1, 3), rng.randint(1, 3)),
            rng.randint(0, 2),
            rng.random() < 0.5,
            rng.randint(0, 8),
        )
        if game is not None:
            yield game


def test_bombs_played_first_bound_the_score(core_flags: int) -> None:
    # FLAG_SCORE_BOMBS: a side that plays the bombs nobody answers, then wins statically,
    # wins by at least 1 + those bombs (+ a spring where no opponent plays again): the
    # scores with the bound as without it and as the minimax's, and the bound must change
    # the search on some positions (it fires)
    compared = fired = 0
    for game in seeded_bomb_positions(24, 400):
        core._set_flags(core_flags | FLAG_SCORE_BOMBS)
        bound = ddz.Solver(RULES, memory_mb=1).solve(game, score=True, line=False)
        core._set_flags(core_flags & ~FLAG_SCORE_BOMBS)
        plain = ddz.Solver(RULES, memory_mb=1).solve(game, score=True, line=False)
        assert bound.score == plain.score, (game.hands, game.table)
        assert bound.score == reference.value_for_side_to_act(game, score=True)
        compared += 1
        fired += bound.nodes != plain.nodes
    assert compared >= 300 and fired >= 100, (compared, fired)


FLAG_SCORE_SIDES = 2048  # solver_order.pxd


def bombs_on_both_sides(seed: int) -> ddz.Game | None:
    """A small position, three seats or two (the endgame rules), where the landlord and a
    farmer each hold a bomb or the rocket besides one or two other cards; None where
    team_game finds none."""
    rng = random.Random(seed)
    players = rng.choice([2, 3])
    deck = DECK if players == 3 else str(ddz.ENDGAME.deck)
    ranks = [*sorted({card for card in deck if card not in "XD"}), "XD"]
    quads = rng.sample(ranks, 2)
    held = [quad if quad == "XD" else quad * 4 for quad in quads]
    rest = [card for card in deck if card not in quads[0] + quads[1]]
    rng.shuffle(rest)
    landlord = rng.randrange(players)
    farmer = (landlord + rng.randint(1, players - 1)) % players
    hands = []
    for _ in range(players):
        size = rng.randint(1, 2)
        hands.append("".join(rest[:size]))
        rest = rest[size:]
    hands[landlord] += held[0]
    hands[farmer] += held[1]
    if players == 2:
        return ddz.Game.from_position(
            ddz.ENDGAME, hands, landlord=landlord, to_act=rng.randrange(players)
        )
    return team_game(hands, landlord, rng.random() < 0.5, rng.randint(0, 8))


def test_each_sides_own_doublings_bound_its_score(core_flags: int) -> None:
    # FLAG_SCORE_SIDES: a side's value is at most 1 + its own bombs and rocket (+ its
    # spring), since the other side can always keep its own back; so a window above that
    # is settled at once even where the other side holds bombs. Scores with the bound, as
    # without it and as the minimax's, and the bound must change the search on some
    # positions of each seat count (it fires)
    compared, fired = {2: 0, 3: 0}, {2: 0, 3: 0}
    for seed in range(150):
        game = bombs_on_both_sides(seed)
        if game is None:
            continue
        expected = reference.value_for_side_to_act(game, score=True)
        core._set_flags(core_flags | FLAG_SCORE_SIDES)
        sides = ddz.Solver(game.rules, memory_mb=1).solve(game, score=True, line=False)
        core._set_flags(core_flags & ~FLAG_SCORE_SIDES)
        plain = ddz.Solver(game.rules, memory_mb=1).solve(game, score=True, line=False)
        assert sides.score == plain.score == expected, (game.hands, game.table, expected)
        players = len(game.hands)
        compared[players] += 1
        fired[players] += sides.nodes < plain.nodes
    assert min(compared.values()) >= 50 and min(fired.values()) >= 20, (compared, fired)


def test_bombs_first_in_the_rounds_agree_with_minimax(core_flags: int) -> None:
    # FLAG_BOMBS_FIRST (a window asking more than a win tries the bombs nobody answers
    # first) as the order, and FLAG_SCORE_BOMB_ROUNDS (the rounds of score mode take each
    # order with it and without), the rounds made two nodes to start so that these small
    # positions go through many: every score the minimax's, and each form changes the
    # search on some positions
    core._set_rounds(2, cards=0)
    compared = ordered = rounds = 0
    for game in seeded_bomb_positions(25, 300):
        expected = reference.value_for_side_to_act(game, score=True)
        found = {}
        for name, flags in (
            ("plain", core_flags & ~(FLAG_ROUNDS | FLAG_SCORE_BOMB_ROUNDS | FLAG_BOMBS_FIRST)),
            ("first", (core_flags & ~(FLAG_ROUNDS | FLAG_SCORE_BOMB_ROUNDS)) | FLAG_BOMBS_FIRST),
            ("rounds", (core_flags | FLAG_ROUNDS | FLAG_SCORE_BOMB_ROUNDS) & ~FLAG_BOMBS_FIRST),
            ("rounds without", (core_flags | FLAG_ROUNDS) & ~FLAG_SCORE_BOMB_ROUNDS),
        ):
            core._set_flags(flags)
            found[name] = ddz.Solver(RULES, memory_mb=1).solve(game, score=True, line=False)
            assert found[name].score == expected, (name, game.hands, game.table)
        compared += 1
        ordered += found["first"].nodes != found["plain"].nodes
        rounds += found["rounds"].nodes != found["rounds without"].nodes
    assert compared >= 200 and ordered >= 10 and rounds >= 100, (compared, ordered, rounds)


def test_rounds_of_two_move_orders_agree_with_minimax(core_flags: int) -> None:
    # FLAG_ROUNDS: the root searched in rounds of a growing node budget, the two orders of a
    # farmer's pass to its partner in turn, on one table. With rounds of two nodes to start,
    # these small positions are searched in many rounds too: a round stopped at its budget
    # must leave nothing false in the table. The verdicts (win/loss, and score mode's,
    # which the rounds settle first) against the single search, which the tests above check
    # against the minimax, and against the minimax itself where it is quick (at most 10
    # cards); the line read back from the table must stay legal
    core._set_rounds(2, cards=0)
    restarted = by_minimax = 0
    for seed in range(120):
        game = random_team_position(2000 + seed)
        if game is None:
            continue
        core._set_flags(core_flags | FLAG_ROUNDS)
        solver = ddz.Solver(RULES, memory_mb=1)
        rounds = solver.solve(game)
        scored = solver.solve(game, score=True, line=False)
        core._set_flags(core_flags & ~FLAG_ROUNDS)
        single = ddz.Solver(RULES, memory_mb=1)
        once = single.solve(game, line=False)
        assert rounds.value == once.value, (game.hands, game.table)
        assert scored.score == single.solve(game, score=True, line=False).score
        if sum(len(hand) for hand in game.hands) <= 10:
            assert rounds.value == reference.value_for_side_to_act(game)
            by_minimax += 1
        reference.play_line(game, rounds.line)
        restarted += rounds.nodes > once.nodes
    assert restarted >= 30 and by_minimax >= 40, (restarted, by_minimax)


FLAG_COVERS, FLAG_TEAM_COVER = 32768, 65536  # solver_order.pxd


def move_wins(game: ddz.Game, code: int) -> bool:
    """Does the move of code, legal in game, win for the side that plays it (minimax)?"""
    move = ddz.Move.from_code(code)
    assert move in game.legal_actions(), (game.hands, game.table, move)
    mover = game.current_player == game.landlord
    child = game.copy()
    child.step(move)
    if child.is_over:
        return (child.winner == child.landlord) == mover
    value = reference.value_for_side_to_act(child)
    return (value == 1) == ((child.current_player == child.landlord) == mover)


def covered_position(seed: int) -> ddz.Game:
    """A small three-seat position, a seat leading that often holds high singles and pairs
    beside low ones (the covered plays' hands), the others a few cards, some of them only
    two or three (the rule must count how many each may shed)."""
    rng = random.Random(seed)
    cards = list(DECK)
    rng.shuffle(cards)
    landlord, leader = rng.randint(0, 2), rng.randint(0, 2)
    sizes = [rng.randint(1, 4) for _ in range(3)]
    sizes[leader] = rng.randint(2, 4)
    high = sorted(cards, key=lambda card: -DECK.index(card))[: rng.randint(0, 6)]
    rest = [card for card in cards if card not in high]
    hands = ["".join(rest[sum(sizes[:seat]) : sum(sizes[: seat + 1])]) for seat in range(3)]
    hands[leader] = "".join(high[: rng.randint(0, 3)]) + hands[leader]
    return ddz.Game.from_position(RULES, hands, landlord=landlord, to_act=leader)


def test_covered_plays_win_by_minimax(core_flags: int) -> None:
    # FLAG_COVERS: every move the static test finds with covered singles and pairs in its
    # split (the landlord's against both farmers seat by seat, a farmer's against the
    # landlord) wins by the minimax, and it finds some the plain test does not, of both
    # sides; a cover counted without the seats' cards to shed fails this
    found = {"landlord": 0, "farmer": 0}
    solver = ddz.Solver(RULES, memory_mb=1)._core
    for seed in range(160):
        game = covered_position(seed)
        hands, _, _, current, landlord = fields(game)
        core._set_flags(core_flags & ~FLAG_COVERS)
        if solver._static_move(hands, current, landlord) is not None:
            continue  # the plain test's (test_solver.py)
        core._set_flags(core_flags | FLAG_COVERS)
        code = solver._static_move(hands, current, landlord)
        if code is None:
            continue
        assert move_wins(game, code), (game.hands, game.current_player, code)
        found["landlord" if current == landlord else "farmer"] += 1
    assert found["landlord"] >= 6 and found["farmer"] >= 15, found


def test_covered_plays_count_the_cards_each_seat_may_shed(core_flags: int) -> None:
    # the landlord holds one card: answering the farmer's covered 3 it goes out, so the 3
    # covered by the joker is no win (the plain test neither: 3 and 4 are both answered);
    # and the farmer leading under its partner loses where the landlord's answer empties
    # its hand, however the partner overtakes it
    core._set_flags(core_flags | FLAG_COVERS | FLAG_TEAM_COVER)
    game = ddz.Game.from_position(RULES, ["K", "5", "34D"], landlord=0, to_act=2)
    assert reference.value_for_side_to_act(game) == -1
    assert ddz.Solver(RULES, memory_mb=1)._core._static_move(fields(game)[0], 2, 0) is None
    # nor where the landlord holds a bomb, which beats any cover
    game = ddz.Game.from_position(RULES, ["5555K", "6", "34D"], landlord=0, to_act=2)
    assert reference.value_for_side_to_act(game) == -1
    assert ddz.Solver(RULES, memory_mb=1)._core._static_move(fields(game)[0], 2, 0) is None
    game = ddz.Game.from_position(RULES, ["K", "A7", "35"], landlord=0, to_act=2)
    assert reference.value_for_side_to_act(game) == -1
    assert ddz.Solver(RULES, memory_mb=1)._core._team_move(*fields(game)) is None


def team_cover_position(seed: int) -> ddz.Game:
    """A small three-seat position, the farmer before the landlord to lead, its partner
    often holding high cards (the team test's lead that the landlord may answer)."""
    rng = random.Random(seed)
    cards = list(DECK)
    rng.shuffle(cards)
    landlord = rng.randint(0, 2)
    leader, partner = (landlord + 2) % 3, (landlord + 1) % 3
    sizes = [rng.randint(2, 4) for _ in range(3)]
    high = sorted(cards, key=lambda card: -DECK.index(card))[: rng.randint(2, 8)]
    rest = [card for card in cards if card not in high]
    hands = ["".join(rest[sum(sizes[:seat]) : sum(sizes[: seat + 1])]) for seat in range(3)]
    hands[partner] = "".join(high[: rng.randint(1, 3)]) + hands[partner]
    return ddz.Game.from_position(RULES, hands, landlord=landlord, to_act=leader)


def test_team_cover_leads_win_by_minimax(core_flags: int) -> None:
    # FLAG_TEAM_COVER: a farmer's lead that the landlord, next, may answer, where the
    # partner overtakes every answer and then wins statically; every such move wins by the
    # minimax, and some are found that the plain team test does not find
    more = 0
    solver = ddz.Solver(RULES, memory_mb=1)._core
    for seed in range(200):
        game = team_cover_position(seed)
        core._set_flags(core_flags & ~FLAG_TEAM_COVER)
        if solver._team_move(*fields(game)) is not None:
            continue  # the plain team test's (above)
        core._set_flags(core_flags | FLAG_TEAM_COVER)
        code = solver._team_move(*fields(game))
        if code is None:
            continue
        assert move_wins(game, code), (game.hands, code)
        more += 1
    assert more >= 5, more


@given(st.integers(0, 10**6))
def test_covered_positions_agree_with_minimax(seed: int) -> None:
    # the whole search with the covered plays (as shipped) on the positions they are made
    # for
    game = covered_position(seed)
    solver = ddz.Solver(RULES, memory_mb=1)
    assert solver.solve(game, line=False).value == reference.value_for_side_to_act(game)


FLAG_THREE_ETC = 512  # solver_order.pxd


def bar_twins(seed: int) -> tuple[ddz.Game, ddz.Game]:
    """Two positions of one canonical key and two root keys: the same hands, the seat
    after the table's maker to answer a single 4 in the first and a single 3 in the second,
    no hand holding a 3 or a 4 (the move to beat is keyed by the lowest rank the seats could
    answer above it). Their children are one another's, key for key."""
    rng = random.Random(seed)
    cards = [card for card in DECK if card not in "34"]
    rng.shuffle(cards)
    landlord, maker = rng.randint(0, 2), rng.randint(0, 2)
    sizes = [rng.randint(1, 4) for _ in range(3)]
    sizes[landlord] += 1
    hands = ["".join(cards[sum(sizes[:seat]) : sum(sizes[: seat + 1])]) for seat in range(3)]
    first, second = (
        ddz.Game.from_position(
            RULES,
            hands,
            landlord=landlord,
            to_act=(maker + 1) % 3,
            table=ddz.Move.parse(rank),
            table_player=maker,
        )
        for rank in "43"
    )
    return first, second


def test_three_seat_transposition_cutoff_agrees_with_minimax(core_flags: int) -> None:
    # FLAG_THREE_ETC (at every node here: _set_etc_cards(0)): a child the table holds as
    # won for the side to act wins the node at once. The first of two bar twins is solved
    # first, so that the second, a root the table does not hold, finds every child of its
    # own there: its value and its line's first move must be the minimax's, a child that
    # is the other side's turn negated and one that is this side's again (a farmer's pass
    # to its partner, or the passes of seats with no answer skipped) not. Checked: the
    # cutoff negating every child, or none, fails this
    with pytest.raises(ValueError, match="cards must be >= 0"):
        core._set_etc_cards(-1)
    assert core._set_etc_cards(0) == 16  # the default: 16 cards in play
    fired = {"landlord": 0, "farmer": 0}
    for seed in range(150):
        twin, game = bar_twins(seed)
        expected = reference.value_for_side_to_act(game)
        nodes, first_moves = {}, set()
        for flags in (core_flags | FLAG_THREE_ETC, core_flags & ~FLAG_THREE_ETC):
            core._set_flags(flags)
            solver = ddz.Solver(RULES, memory_mb=1)
            solver.solve(twin, line=False)
            result = solver.solve(game)
            assert result.value == expected, (game.hands, game.table, game.current_player)
            nodes[flags] = result.nodes
            first_moves.add(result.line[0].code)
        if expected == 1:
            for code in first_moves:
                assert move_wins(game, code), (game.hands, game.table, code)
        if nodes[core_flags | FLAG_THREE_ETC] < nodes[core_flags & ~FLAG_THREE_ETC]:
            fired["landlord" if game.current_player == game.landlord else "farmer"] += 1
    assert fired["landlord"] >= 4 and fired["farmer"] >= 20, fired
