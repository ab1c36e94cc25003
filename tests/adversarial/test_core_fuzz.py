"""The Dou Dizhu core attacked through every public entry point it owns (``ddz._core.moves``,
``ddz._core.game``, ``ddz._core.vector`` and the Python layers on them: ``ddz.Game``,
``ddz.batch``, ``ddz.simulate``, ``ddz.VectorGame``), with hypothesis drawing the inputs: raw
64-bit integers for cards, codes and rules, numpy arrays of every dtype, shape and
contiguity, sizes, seeds and thread counts from far outside their ranges.

Each test runs its hypothesis loop in a fresh interpreter (the ``isolated`` fixture), so a
crash fails the test instead of killing the runner; inside, every call must either succeed
or raise ``ValueError``/``TypeError``/``OverflowError``/``IndexError``, and after every error
the object it was called on must be exactly as before. ``HYPOTHESIS_PROFILE=thorough``
multiplies the examples by ten; ``DDZ_FUZZ_COUNTS=path`` appends each test's count of inputs.
"""

from __future__ import annotations

import os

import pytest

from tests.adversarial.conftest import IsolatedRunner

EXAMPLES = {"thorough": 10}.get(os.environ.get("HYPOTHESIS_PROFILE", ""), 1)

# Shared by every child: imports, the errors a refusal may raise, and the strategies.
PRELUDE = """
import copy, pickle, sys
import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st
import ddz
from ddz import batch
from ddz._core import game as core_game, moves as core_moves, vector as core_vector

REFUSED = (ValueError, TypeError, OverflowError, IndexError)
RULES = [ddz.CLASSIC, ddz.TWO_PLAYER, ddz.UNO_LANDLORD, ddz.DOUZERO, ddz.RLCARD, ddz.ENDGAME]
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck))
tried = 0

u64 = st.integers(0, 2**64 - 1)
wild_int = st.one_of(
    u64, st.integers(-2**70, 2**70), st.sampled_from([0, 1, -1, 2**63 - 1, 2**63, 2**64 - 1,
                                                      2**64, 2**31, 2**32, -2**63]))

# sizes: small ones (which deal, so they stay small) and huge ones (refused unallocated)
sizes = st.one_of(st.integers(-3, 12), st.sampled_from([2**24 + 1, 2**40 + 1, 2**61, 2**63,
                                                         2**64, -2**63, 10**30]))

def bits_of(value):
    return st.integers(0, 63).map(lambda bit: value ^ (1 << bit))

def _legal_codes(rules, seed):
    game = ddz.Game(rules, seed=seed)
    game.push(game.legal_actions()[-1])
    while game.phase == "bidding":
        game.push(game.legal_actions()[-1])
    return [m.code for m in game.legal_actions()] + [game.hands[game.current_player].mask]

MEANINGFUL = sorted({c for r in RULES for s in range(3) if ddz.Game(r, seed=s).phase
                     for c in _legal_codes(r, s)})
card_ints = st.one_of(
    u64, st.sampled_from(MEANINGFUL), st.sampled_from(MEANINGFUL).flatmap(bits_of),
    st.sampled_from([r.deck.mask for r in RULES]))
codes = st.one_of(
    card_ints, st.builds(lambda cards, kind, rank, length: (cards & (2**51 - 1))
                         | (kind << 51) | (rank << 56) | (length << 60),
                         card_ints, st.integers(0, 31), st.integers(0, 15), st.integers(0, 15)))
rules_any = st.one_of(st.sampled_from(RULES), st.sampled_from(RULES).map(lambda r: r.core_flags),
                      u64, st.just(core_moves.PERMISSIVE_RULES))

def arrays(length=st.integers(0, 6)):
    "numpy arrays of every dtype, shape and contiguity, holding wild values"
    @st.composite
    def build(draw):
        data = type("Draw", (), {"draw": staticmethod(draw)})
        dtype = data.draw(st.sampled_from([np.uint64, np.int64, np.int32, np.uint8, np.int8,
                                           np.float64, np.bool_, object]))
        shape = data.draw(st.one_of(length.map(lambda n: (n,)),
                                    st.tuples(st.integers(0, 3), st.integers(0, 3)),
                                    st.just(())))
        size = int(np.prod(shape)) if shape else 1
        values = data.draw(st.lists(u64, min_size=2 * size, max_size=2 * size))
        if dtype is object:
            base = np.array(values + [None], dtype=object)[:2 * size]
        else:
            with np.errstate(all="ignore"):
                base = np.array(values, dtype=np.uint64).astype(dtype)
        view = base[::2] if data.draw(st.booleans()) else base[:size]
        array = view.reshape(shape) if shape else view[:1].reshape(())
        if data.draw(st.booleans()) and array.ndim:
            array = array.copy()
            array.flags.writeable = data.draw(st.booleans())
        return array
    return build()

def call(function, *args, **kwargs):
    "Run one call: its result, or None when it refused with one of REFUSED."
    global tried
    tried += 1
    try:
        return function(*args, **kwargs)
    except REFUSED:
        return None
"""


def fuzz(isolated: IsolatedRunner, body: str, examples: int) -> int:
    """Run PRELUDE + body (which defines check(), a hypothesis test) in a fresh interpreter
    with `examples` examples; returns how many entry-point calls it made."""
    code = f"EXAMPLES = {examples * EXAMPLES}\n{PRELUDE}\n{body}\ncheck()\nprint('tried', tried)\n"
    out = isolated(code, timeout=300)
    tried = int(out.split()[-1])
    assert tried >= examples
    counts = os.environ.get("DDZ_FUZZ_COUNTS")
    if counts:
        with open(counts, "a") as file:
            file.write(f"{os.environ.get('PYTEST_CURRENT_TEST', '?').split(' ')[0]} {tried}\n")
    return tried


def test_raw_move_functions_take_any_64_bit_values(isolated: IsolatedRunner) -> None:
    fuzz(
        isolated,
        """
@SETTINGS
@given(card_ints, card_ints, codes, codes, rules_any, st.integers(-40, 40),
       st.integers(-40, 40), st.integers(-40, 40))
def check(a, b, code, table, rules, kind, rank, length):
    for fn, args in [
        (core_moves.unpack_counts, (a,)), (core_moves.count_cards, (a,)),
        (core_moves.is_valid_cards, (a,)), (core_moves.is_subset_cards, (a, b)),
        (core_moves.add_cards, (a, b)), (core_moves.code_fields, (code,)),
        (core_moves.make_move_code, (a, kind, rank, length)),
        (core_moves.Move.from_code, (code,)), (core_moves.legal_moves, (a, table, rules)),
        (core_moves.classify_cards, (a, rules)), (core_moves.move_beats, (code, table)),
        (core_moves.move_beats, (code, table, rules)), (core_moves.is_reading_code, (code, rules)),
        (core_moves.legality_code, (a, code, table, rules)),
        (core_moves.pack_counts, (core_moves.unpack_counts(a)[:15],)),
        (core_moves.pack_rules, (a, kind, rank, length, kind, rank, length, b, kind)),
    ]:
        call(fn, *args)
    moves = call(core_moves.LegalMoves, a, table, rules)
    if moves is not None:
        moves.count(), moves[:3] if moves.count() < 2000 else None
        call(moves.__contains__, core_moves.Move.from_code(0))
    move = call(core_moves.Move.from_code, code)
    if move is not None:
        str(move), repr(move), move.cards, move.main, move.kickers, hash(move)
        assert pickle.loads(pickle.dumps(move)) == move
        for rules_set in RULES:
            call(move.index, rules_set)
    # the Python layer over them
    for text in (str(move) if move is not None else "pass", "33", "XD"):
        call(ddz.classify, text)
        call(ddz.legal_moves, ddz.Cards.from_mask(a) if core_moves.is_valid_cards(a)
             else ddz.Cards(), text)
    for index in (a, -a, kind, rank):
        for rules_set in RULES[:2]:
            call(ddz.Move.from_index, index, rules_set)
""",
        200,
    )


def test_batch_arrays_of_every_dtype_shape_and_contiguity(isolated: IsolatedRunner) -> None:
    fuzz(
        isolated,
        """
@SETTINGS
@given(arrays(), arrays(), arrays(st.integers(0, 300)), arrays(), card_ints, codes,
       st.sampled_from(RULES), rules_any)
def check(hands, tables, out, offsets, hand, table, rules, raw_rules):
    snapshot = [x.copy() for x in (hands, tables)]
    total = call(core_moves.moves_batch, hands, tables, raw_rules, out, offsets)
    call(core_moves.moves_batch, hands, tables, rules, out, offsets)
    call(core_moves.moves_batch, hands, hands, rules, hands, offsets)   # aliased buffers
    call(core_moves.moves_into, hand, table, raw_rules, out)
    call(core_moves.moves_into, hand, table, rules, hands)
    call(batch.moves_into, hand, 0, rules, out)
    call(batch.legal_moves_batch, hands, tables, rules=rules)
    call(batch.legal_moves_batch, hands, rules=rules)
    call(batch.move_codes, hand, None, rules=rules)
    call(batch.move_codes, hand, table, rules=rules)
    call(batch.to_moves, [int(x) for x in np.ravel(tables)[:4] if isinstance(x, (int, np.integer))])
    if hands.dtype != object:
        call(batch.hand_masks, [ddz.Cards.from_mask(int(x)) for x in np.ravel(hands)[:3]
                                if 0 <= int(x) < 2**64 and core_moves.is_valid_cards(int(x))])
    for array, before in zip((hands, tables), snapshot):  # inputs are only read
        if array is not hands:
            assert np.array_equal(array, before, equal_nan=False) or array.dtype.kind == "f"
""",
        250,
    )


def test_game_methods_under_any_action_and_state_unchanged_after_errors(
    isolated: IsolatedRunner,
) -> None:
    fuzz(
        isolated,
        """
OPS = ["push_code", "step_code", "push", "step", "undo", "copy", "pickle", "why", "check"]

@SETTINGS
@given(st.sampled_from(RULES), u64, st.lists(st.tuples(st.sampled_from(OPS), codes,
                                                       wild_int), max_size=40))
def check(rules, seed, program):
    global tried
    game = ddz.Game(rules, seed=seed)
    for op, code, number in program:
        legal = game.legal_actions()
        if legal and number % 3 == 0:    # often an action that applies
            code = legal[number % len(legal)].code
        before = game.state_bytes()
        tried += 1
        try:
            if op == "push_code":
                game.push_code(code)
            elif op == "step_code":
                game.step_code(code)
            elif op == "push":
                game.push(number)
            elif op == "step":
                game.step(number % (rules.num_actions + 5) if number % 2 else number)
            elif op == "undo":
                game.undo()
            elif op == "copy":
                game = copy.deepcopy(game) if number % 2 else game.copy()
                assert game.state_bytes() == before
            elif op == "pickle":
                game = pickle.loads(pickle.dumps(game))
                assert game.state_bytes() == before
            elif op == "why":
                game.why_illegal(number)
            else:
                game._core.check(code)
        except REFUSED:
            assert game.state_bytes() == before, op
        # every view still reads, whatever push made
        game.table, game.history, game.payoffs(), game.multiplier, game.legal_action_mask()
        for seat in range(rules.players):
            game.observation(seat).encode()
        str(game)
        assert sum(game.payoffs()) == 0
""",
        150,
    )


def test_raw_game_core_constructor_positions_and_restores(isolated: IsolatedRunner) -> None:
    fuzz(
        isolated,
        """
@SETTINGS
@given(st.sampled_from(RULES), st.lists(card_ints, max_size=4), card_ints,
       st.lists(wild_int, min_size=11, max_size=11), st.data())
def check(rules, hands, kitty, numbers, data):
    core = call(core_game.GameCore, rules, hands, kitty, numbers[0], numbers[1])
    call(core_game.shuffled_deal, rules, numbers[2])
    call(core_game.seeded_below, numbers[2], numbers[3])
    game = ddz.Game(rules, seed=abs(numbers[4]) % 2**64)
    target = game._core
    before = target.state_bytes()
    result = call(target.set_position, hands, hands[::-1], kitty, *numbers[:10])
    if result is None and target.state_bytes() != before:
        # refused: nothing changed; accepted: the position must be one the core can hold
        assert False, "set_position changed the state and then refused"
    for code in data.draw(st.lists(codes, max_size=5)):
        call(target.push, code); call(target.check, code); call(target.step, code)
    target.legal_moves(), target.bidding_codes(), target.payoffs(), target.history_entries()
    # a pickled state with one field bent must be refused or be a state the core can hold
    game = ddz.Game(rules, seed=abs(numbers[5]) % 2**64)
    for _ in range(abs(numbers[6]) % 30):
        if game.is_over:
            break
        game.push(game.legal_actions()[0])
    parts = list(game._core.__reduce__()[1])
    which = data.draw(st.integers(1, 3))
    raw = bytearray(parts[which])
    if raw:
        position = data.draw(st.integers(0, len(raw) - 1))
        raw[position] = data.draw(st.integers(0, 255))
    parts[which] = bytes(raw) + data.draw(st.sampled_from([b"", b"x"]))
    restored = call(core_game.restore_core, *parts)
    if restored is not None:
        restored.legal_moves(), restored.bidding_codes(), restored.payoffs()
        for code in data.draw(st.lists(codes, max_size=4)):
            call(restored.push, code)
        while restored.history_entries():
            restored.undo()
""",
        250,
    )


def test_vector_game_arrays_sizes_and_state_unchanged_after_errors(
    isolated: IsolatedRunner,
) -> None:
    fuzz(
        isolated,
        """
@SETTINGS
@given(st.sampled_from(RULES[:3]), st.integers(1, 4), u64, sizes, st.integers(-2, 40),
       st.lists(st.tuples(arrays(st.integers(0, 8)), arrays(st.integers(0, 8)),
                          st.integers(0, 13), wild_int), max_size=8))
def check(rules, n, seed, size, history, program):
    call(lambda: ddz.VectorGame(size, rules=rules, history=history))
    index = ddz.game.action_index(rules)
    call(core_vector.VectorGame, rules, size, seed, index, history)
    call(core_vector.VectorGame, rules, n, seed, None, 0)
    games = ddz.VectorGame(n, rules=rules, seed=seed, history=max(0, min(history, 15)))
    core = games._core
    for array, other, op, number in program:
        before = games.state_bytes()
        if op == 0:
            call(games.step, array)
        elif op == 1:
            call(core.step, array, np.zeros((n, 3), np.int64), np.zeros(n, np.uint8))
        elif op == 2:
            call(core.legal_action_mask, array)
        elif op == 3:
            call(core.observations, array, number)
        elif op == 4:
            call(core.current_players, array)
        elif op == 5:
            call(core.sample_legal, array)
        elif op == 6:
            call(core.keys, array)
        elif op == 7:
            call(core.step, np.zeros(n, np.int64), array, other)
        elif op == 8:
            call(core.packed_mask, array)
        elif op == 9:
            call(core.legal_indices, array, other)
        elif op == 10:
            call(core.mark, array, other, array, number)
            mask = np.zeros((n, games.num_actions), np.uint8)
            call(core.mark, mask, other, array, number)
        elif op == 11:
            call(games.legal_action_mask, out=array)
            call(games.packed_action_mask, out=array)
            call(games.observations, out=array, history=number)
        elif op == 12:
            games.step(games.sample_legal())
            continue
        else:
            copied = pickle.loads(pickle.dumps(games))
            assert copied.state_bytes() == before
            games = copy.copy(copied)
            core = games._core
        if op in (0, 1, 7):
            # a refused step changes nothing; an accepted one stepped with legal actions
            assert games.state_bytes() == before or array.size == n
        else:
            assert games.state_bytes() == before
        for i in (-1, n, size, number):
            call(core.deal_seed, i)
    games.legal_action_mask(), games.observations(), games.current_players
    games.legal_indices(), games.packed_action_mask(), games.legal_action_mask(copy=False)
    # a pickled vector with one part bent is refused or is one the core can hold
    parts = list(games._core.__reduce__()[1])
    which = program[0][2] % len(parts) if program else 6
    value = parts[which]
    if isinstance(value, bytes) and value:
        raw = bytearray(value)
        raw[seed % len(raw)] ^= 1 << (seed % 8)
        parts[which] = bytes(raw)
    elif isinstance(value, int):
        parts[which] = value ^ (1 << (seed % 64)) if seed % 3 else -value - 1
    restored = call(core_vector.restore_vector, *parts)
    if restored is not None:
        size_ = len(parts[5]) // 8
        restored.legal_action_mask(np.zeros((n, size_), np.uint8))
        restored.sample_legal(np.zeros(n, np.int64))
        restored.observations(np.zeros((n, ddz.game.observation_size(parts[8])), np.int8), parts[8])
        actions = np.zeros(n, np.int64)
        restored.sample_legal(actions)
        call(restored.step, actions, np.zeros((n, 3), np.int64), np.zeros(n, np.uint8))
""",
        150,
    )


def test_simulate_sizes_seeds_threads_and_agents(isolated: IsolatedRunner) -> None:
    fuzz(
        isolated,
        """
agents = st.one_of(st.sampled_from(["random", "greedy", "clever", ""]),
                   st.lists(st.sampled_from(["random", "greedy", "x"]), max_size=4).map(tuple))
odd = st.sampled_from([np.int64(5), np.uint8(3), np.int8(-1), 2.0, "3", None, True])
# game counts that play quickly or are refused (above MAX_GAMES = 2**40) before any work:
# 2**24 + 1, a vector too big, is a simulation of 16 million games, accepted and slow
small = st.one_of(st.integers(-3, 12), st.sampled_from([2**40 + 1, 2**61, 2**63, 2**64,
                                                        -2**63, 10**30]), odd)

@SETTINGS
@given(st.sampled_from(RULES[:3]), small, st.one_of(wild_int, odd), small,
       st.one_of(wild_int, odd), agents, st.binary(max_size=300),
       arrays(st.integers(0, 5)))
def check(rules, n, seed, threads, first, names, blob, array):
    call(lambda: ddz.simulate(n, rules=rules, seed=seed, threads=threads, first_game=first,
                              agents=names))
    call(ddz.simulation.game_seed, seed, first)
    call(core_vector.greedy_action, rules, blob)
    state = ddz.Game(rules, seed=7)._core.state_bytes()
    if blob:
        bent = bytearray(state)
        bent[blob[0] % len(bent)] = blob[-1]
        call(core_vector.greedy_action, rules, bytes(bent))
    payoffs = np.zeros((4, 3), np.int64)
    call(core_vector.simulate_games, rules, array, 1, 0, 0, 4, payoffs, np.zeros(4, np.int8),
         np.zeros(4, np.int8), np.zeros(4, np.int64))
    call(core_vector.simulate_games, rules, np.zeros(rules.players, np.int8), 1, seed, first,
         threads, payoffs, np.zeros(4, np.int8), np.zeros(4, np.int8), np.zeros(4, np.int64))
""",
        120,
    )


@pytest.mark.parametrize("rules_name", ["classic", "two-player", "uno-landlord"])
def test_whole_random_games_of_pushes_keep_every_invariant(
    isolated: IsolatedRunner, rules_name: str
) -> None:
    """Random play with push (unchecked) of any action the shape check lets through: cards
    are conserved, payoffs sum to zero, undo restores every state bit for bit."""
    fuzz(
        isolated,
        f"""
rules = ddz.rules.PRESETS[{rules_name!r}]
@SETTINGS
@given(u64, st.lists(st.integers(0, 2**32), min_size=1, max_size=200))
def check(seed, choices):
    global tried
    game = ddz.Game(rules, seed=seed)
    states = [game.state_bytes()]
    for choice in choices:
        if game.is_over:
            break
        seat = game.current_player
        if game.phase == "play":   # any move of the hand, beaten or not: push skips the rules
            options = list(ddz.legal_moves(game.hands[seat], rules=rules)) + [ddz.PASS]
        else:
            options = list(game.legal_actions()) + [ddz.Bid("bid", 3), ddz.Bid("grab")]
        tried += 1
        try:
            game.push(options[choice % len(options)])
        except ddz.IllegalMoveError:
            assert game.state_bytes() == states[-1]
            continue
        states.append(game.state_bytes())
        held = ddz.Cards() if game.landlord is not None else game.kitty
        for cards in list(game.hands) + list(game.observation(0).played):
            held = held + cards   # raises if a card were there twice
        assert len(held) == rules.players * rules.hand_size + rules.kitty_size
    assert sum(game.payoffs()) == 0
    while game.history:
        game.undo()
        states.pop()
        assert game.state_bytes() == states[-1]
""",
        60,
    )
