"""UNO attacked at its boundary: the raw core (``ddz._core.uno``), ``ddz.uno.Game``, ``Match``
and ``VectorGame`` with wrong sizes, codes, indices, arrays, pickles and threads.

Everything that could crash runs through ``isolated`` (a fresh interpreter); the snippets
print what they tried, and the tests check that every attempt ended in a clean error or a
correct result.
"""

from __future__ import annotations

import copy
import itertools
import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ddz import IllegalMoveError, uno
from ddz.envs import UnoActionSpace
from tests.adversarial.conftest import IsolatedRunner

# --- the raw core, in a subprocess ------------------------------------------------------------


def test_raw_core_refuses_what_would_reach_outside_its_state(isolated: IsolatedRunner) -> None:
    out = isolated(
        """
        import random
        from ddz._core import uno
        tried = refused = 0
        try:
            uno.UnoCore(31)
        except TypeError:
            refused += 1
        tried += 1
        for bad in ((0, 1, 2, 0), (0, 11, 0, 0), (0, 3, 3, 0), (32, 3, 2, 0), (-1, 3, 2, 0)):
            try:
                uno.UnoCore.seeded(*bad)
            except (ValueError, OverflowError):
                refused += 1
            tried += 1
        rng = random.Random(5)
        for round_number in range(40):
            core = uno.UnoCore.seeded(31, rng.randint(2, 10), 0, round_number)
            while True:
                # a burst of arbitrary codes: each is applied only if in bounds
                for _ in range(20):
                    code = rng.choice((rng.randrange(1 << 15), rng.randrange(-(1 << 31), 1 << 31)))
                    before = core.state_bytes()
                    tried += 1
                    try:
                        core.push(code)
                        core.undo()
                    except ValueError:
                        refused += 1
                    assert core.state_bytes() == before
                    core.check(code)
                codes = core.legal_codes()
                if not codes:
                    break
                core.push(rng.choice(codes))
            for code in range(0, 1 << 15, 7):        # a finished round takes nothing
                tried += 1
                try:
                    core.push(code)
                except ValueError:
                    refused += 1
        for seat in (-1, 10, 11, 1 << 40):
            for method in (core.hand_counts, core.hand_points):
                tried += 1
                try:
                    method(seat)
                except (IndexError, OverflowError):
                    refused += 1
        print(tried, refused)
        """
    )
    tried, refused = map(int, out.split())
    assert tried > 20000 and refused > 0


def test_raw_arranged_deals_are_checked_before_writing(isolated: IsolatedRunner) -> None:
    out = isolated(
        """
        from ddz._core import uno
        bad = [
            ([[1] * 200, [2]], [], []),                # a hand larger than the deck
            ([[1], [2]], [3] * 5000, []),              # a draw pile past the array
            ([[1], [2]], [], [4] * 5000),              # a discard pile past the array
            ([[60], [2]], [3] * 106, []),              # no such kind
            ([[-1], [2]], [3] * 106, []),
            ([[1]] * 11, [], []),                      # eleven players
            ([[1]], [], []),
            ("ab", [], []),
            ([[1.5], [2]], [], []),
            ([[1 << 70], [2]], [], []),
        ]
        refused = 0
        for hands, draw, discard in bad:
            try:
                uno.UnoCore.arranged(31, 0, 1, hands, draw, discard)
            except (ValueError, TypeError, OverflowError):
                refused += 1
        print(refused, len(bad))
        """
    )
    refused, total = map(int, out.split())
    assert refused == total


def test_raw_vector_sizes_and_arrays(isolated: IsolatedRunner) -> None:
    out = isolated(
        """
        import numpy as np
        from ddz._core import uno
        refused = tried = 0
        for n in (0, -1, 2**61, 2**62, 2**63 - 1, uno.MAX_ROUNDS_ + 1):
            tried += 1
            try:
                uno.UnoVector(31, 3, 2, n, 0, False)
            except (ValueError, OverflowError, MemoryError):
                refused += 1
        vector = uno.UnoVector(31, 3, 2, 4, 0, False)
        arrays = [
            np.zeros((4, 76), np.uint8), np.zeros((3, 77), np.uint8), np.zeros((4, 77), np.int8),
            np.zeros((4, 77), np.uint8)[:, ::2], np.zeros(4, np.int64), np.zeros(4, np.int32),
            np.zeros(5, np.int64), np.zeros((4, 267), np.int16), np.zeros((4, 266), np.int8),
            np.zeros(4, np.int8)[::-1], np.zeros((4, 3), np.float32), np.zeros(3, np.uint8),
        ]
        calls = [
            lambda a: vector.legal_action_mask(a), lambda a: vector.sample_legal(a),
            lambda a: vector.observations(a), lambda a: vector.current_players(a),
            lambda a: vector.step(a, np.zeros((4, 3)), np.zeros(4, np.uint8)),
            lambda a: vector.step(np.ones(4, np.int64), a, np.zeros(4, np.uint8)),
            lambda a: vector.step(np.ones(4, np.int64), np.zeros((4, 3)), a),
        ]
        for call in calls:
            for array in arrays:
                tried += 1
                try:
                    call(array)
                except (ValueError, TypeError):
                    refused += 1
        for index in (-1, 0, 63, 77, 2**40, -2**62):          # no legal turn action
            tried += 1
            try:
                vector.step(np.full(4, index, np.int64), np.zeros((4, 3)), np.zeros(4, np.uint8))
            except ValueError:
                refused += 1
        rounds = np.zeros((4, 3), np.int64)
        for args in ((0, 3, 2, 1, 0, 0, 5), (0, 3, 2, 1, -1, 0, 4), (0, 1, 0, 1, 0, 0, 4),
                     (64, 3, 2, 1, 0, 0, 4), (0, 3, 3, 1, 0, 0, 4)):
            tried += 1
            flags, players, dealer, seed, first, start, stop = args
            try:
                uno.simulate_rounds_(flags, players, dealer, seed, first, start, stop, False,
                                     np.zeros(4, np.int8), np.zeros(4, np.uint8),
                                     np.zeros(4, np.int64), rounds)
            except ValueError:
                refused += 1
        print(tried, refused)
        """
    )
    tried, refused = map(int, out.split())
    assert refused == tried - 2  # the one right mask array and the one right sample array


def test_tampered_pickles_are_refused(isolated: IsolatedRunner) -> None:
    out = isolated(
        """
        import pickle, random
        from ddz._core import uno
        rng = random.Random(3)
        core = uno.UnoCore.seeded(31, 4, 3, 9)
        for _ in range(30):
            core.push(core.legal_codes()[0])
        restore, (flags, state, stack, actions) = core.__reduce__()
        assert restore(flags, state, stack, actions).state_bytes() == core.state_bytes()
        tried = refused = 0
        for _ in range(3000):
            data = bytearray(state)
            for _ in range(rng.randint(1, 3)):
                data[rng.randrange(len(data))] = rng.randrange(256)
            tried += 1
            try:
                other = restore(flags, bytes(data), stack, actions)
            except ValueError:
                refused += 1
                continue
            # accepted: then it is a state the core can play on safely
            for code in other.legal_codes():
                other.push(code)
                other.undo()
            other.playout(1, 10_000)
        for bad in ((flags, state[:-1], stack, actions), (flags, state, stack[:-1], actions),
                    (99, state, stack, actions), (flags, state, stack, actions[:-1])):
            tried += 1
            try:
                restore(*bad)
            except ValueError:
                refused += 1
        vector = uno.UnoVector(31, 3, 2, 3, 0, False)
        vrestore, vargs = vector.__reduce__()
        for n in (2, 4, 2**40):
            tried += 1
            try:
                vrestore(*vargs[:3], n, *vargs[4:])
            except (ValueError, MemoryError):
                refused += 1
        print(tried, refused)
        """
    )
    tried, refused = map(int, out.split())
    assert tried > 3000 and refused >= tried - 3000 + 7 + 0 and refused > 1000


# --- ddz.uno.Game: indices, codes, players --------------------------------------------------


def test_an_int_is_an_action_index_for_the_player_to_act() -> None:
    space = UnoActionSpace(3)
    game = uno.Game(3, seed=14)
    for index in game.legal_indices():
        action = space.action(index, player=0)
        assert action is not None and action in game.legal_actions(0)
    assert game.legal_indices() == sorted(
        space.index(action) for action in game.legal_actions(game.current_player)
    )
    assert str(game.step(np.int64(46))) == "0: play B6"  # numpy integers too
    assert str(game.undo()) == "0: play B6"
    with pytest.raises(IllegalMoveError, match="the pass"):
        game.step(0)
    for bad in (-1, 77, 2**70, np.uint64(2**63)):
        before = game.state_bytes()
        with pytest.raises(IllegalMoveError, match=r"outside 0\.\.76"):
            game.step(bad)
        with pytest.raises(IllegalMoveError):
            game.push(bad)
        assert game.state_bytes() == before
    with pytest.raises(IllegalMoveError):
        game.step(True)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="player must be an integer"):
        game.step(5, player="1")  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match=r"player must lie in 0 \.\. 2"):
        game.step(5, player=3)


def test_index_numbering_agrees_with_the_environments() -> None:
    for players in (2, 4, 10):
        space = UnoActionSpace(players)
        for player in range(players):
            for index in range(1, uno.NUM_INDICES):
                try:
                    action = space.action(index, player)
                except ValueError:
                    with pytest.raises(ValueError):
                        uno.actions.action_at(index, player, players)
                    continue
                assert uno.actions.action_at(index, player, players) == action
                assert action is not None
                assert uno.actions.index_of(action, players) == index


@given(st.integers(-(2**70), 2**70), st.integers(0, 3))
def test_push_code_never_changes_a_game_it_refuses(code: int, seed: int) -> None:
    game = uno.Game(4, seed=seed)
    before = game.state_bytes()
    try:
        game.push_code(code)
    except IllegalMoveError:
        assert game.state_bytes() == before
        return
    game.undo()
    assert game.state_bytes() == before


def test_every_code_push_code_takes_reads_back_as_an_action() -> None:
    # Found by hypothesis: 2328 (a play of Y5 with the colour bits of red) was pushed, and
    # undo then failed to read it back. A code is pushed only if it is the one code of an
    # action, so history and undo always read.
    for seat in range(3):
        game = uno.Game(3, seed=seat)
        for code in range(1 << 15):
            try:
                game.push_code(code)
            except IllegalMoveError:
                continue
            assert game.history[-1].code == code
            assert game.undo().code == code


def test_step_code_checks_and_push_code_does_not() -> None:
    game = uno.Game(2, seed=1)
    illegal = next(a for a in uno.actions.BY_CODE.values() if a.player == 1 and a.kind == "draw")
    with pytest.raises(IllegalMoveError):
        game.step_code(illegal.code)
    game.push_code(illegal.code)  # unchecked: the rules are skipped
    assert game.ply == 1
    with pytest.raises(IllegalMoveError, match="no action code"):
        game.step_code(1 << 20)


def test_a_finished_round_takes_nothing() -> None:
    game = uno.Game(2, seed=3)
    result = game.playout(7)
    while not game.is_over:
        game.push(game.legal_actions()[0])
    before = game.state_bytes()
    for code in range(0, 1 << 15, 97):
        with pytest.raises(IllegalMoveError):
            game.push_code(code)
    for index in range(uno.NUM_INDICES):
        with pytest.raises(IllegalMoveError):
            game.push(index)
    assert game.state_bytes() == before
    assert result.steps > 0


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: uno.Game(2.5), TypeError),  # type: ignore[arg-type]
        (lambda: uno.Game(True), TypeError),  # type: ignore[arg-type]
        (lambda: uno.Game(11), ValueError),
        (lambda: uno.Game(np.int8(3), seed=np.uint64(2**64 - 1)), None),
        (lambda: uno.Game(3, seed=2**64), ValueError),
        (lambda: uno.Game(3, seed=True), TypeError),  # type: ignore[arg-type]
        (lambda: uno.Game(3, seed="1"), TypeError),  # type: ignore[arg-type]
        (lambda: uno.Game(3, dealer=3), ValueError),
        (lambda: uno.Game(3, dealer=np.int16(2)), None),
        (lambda: uno.Game(3, dealer=1.0), TypeError),  # type: ignore[arg-type]
        (lambda: uno.Game(3, rules="lombardy"), TypeError),  # type: ignore[arg-type]
        (lambda: uno.Game(3, deal=["R1", "R2", "R3"]), TypeError),  # type: ignore[arg-type]
        (lambda: uno.Game(3, seed=1).hand(3), ValueError),
        (lambda: uno.Game(3, seed=1).hand(np.int64(2)), None),
        (lambda: uno.Game(3, seed=1).observation(-1), ValueError),
        (lambda: uno.Game(3, seed=1).playout(-1), ValueError),
        (lambda: uno.Game(3, seed=1).playout(1, max_steps=-1), ValueError),
        (lambda: uno.Game(3, seed=1).resolve("draw"), IllegalMoveError),
        (lambda: uno.Game(3, seed=1).resolve(itertools.repeat("draw")), IllegalMoveError),
        (lambda: uno.Game(3, seed=1).legal_actions("0"), TypeError),  # type: ignore[arg-type]
        (lambda: uno.Game(3, seed=1).legal_actions(np.int8(0)), None),
        (lambda: uno.Match(3, seed=1).dealer_of(0), ValueError),
        (lambda: uno.Match(3, seed=1).dealer_of(1.5), TypeError),  # type: ignore[arg-type]
        (lambda: uno.Deal("R1 R2"), TypeError),
        (lambda: uno.Deal(["R1"] * 11), ValueError),
        (lambda: uno.Deal(["R1", "R2"], rest=["draw"]), ValueError),  # type: ignore[arg-type]
        (lambda: uno.Match(3, seed=-1), ValueError),
        (lambda: uno.Match(3, first_dealer=3), ValueError),
        (lambda: uno.Match(3, rules={}), TypeError),  # type: ignore[arg-type]
        (lambda: uno.Card(np.int8(5)), None),
        (lambda: uno.Card(54), ValueError),
        (lambda: uno.Card(True), TypeError),  # type: ignore[arg-type]
        (lambda: uno.Action(10, "draw"), ValueError),
        (lambda: uno.Action(0, ["draw"]), ValueError),  # type: ignore[arg-type]
        (lambda: uno.Action(0, "play", "R1"), TypeError),  # type: ignore[arg-type]
        (lambda: uno.Action.from_code(-5), ValueError),
        (lambda: uno.Action.from_code(2.0), TypeError),  # type: ignore[arg-type]
        (lambda: uno.round_seed(-1, 0), ValueError),
        (lambda: uno.round_seed(1, -1), ValueError),
        (lambda: uno.simulate_rounds(4, threads=10**9), ValueError),
        (lambda: uno.simulate_rounds(4.0), TypeError),  # type: ignore[arg-type]
        (lambda: uno.simulate_rounds(4, seed=np.int32(3), threads=np.int8(2)), None),
        (lambda: uno.VectorGame(2**61), ValueError),
        (lambda: uno.VectorGame(uno.MAX_ROUNDS + 1), ValueError),
        (lambda: uno.VectorGame(2, seed=2**64), ValueError),
        (lambda: uno.VectorGame(2.0), TypeError),  # type: ignore[arg-type]
        (lambda: uno.VectorGame(np.int64(2), players=np.int8(3)), None),
        (lambda: uno.VectorGame(2).deal_seed(-1), IndexError),
        (lambda: uno.simulate(3, 1, seed=-1), ValueError),
        (lambda: uno.simulate(3, -1), ValueError),
    ],
)
def test_constructors_and_arguments(call: object, error: type[Exception] | None) -> None:
    if error is None:
        call()  # type: ignore[operator]
    else:
        with pytest.raises(error):
            call()  # type: ignore[operator]


def test_vector_step_refuses_floats_and_shapes_and_changes_nothing() -> None:
    vector = uno.VectorGame(4, players=3, seed=1)
    legal = vector.sample_legal()
    before = pickle.dumps(vector)
    wrong_types = (legal.astype(np.float64), legal.astype(bool), [str(a) for a in legal])
    for bad in wrong_types:  # a value of the wrong type: TypeError, as in ddz.VectorGame
        with pytest.raises(TypeError):
            vector.step(bad)
        assert pickle.dumps(vector) == before
    for bad in (legal[:3], legal.reshape(2, 2), np.full(4, 2**40), -legal):
        with pytest.raises(ValueError):
            vector.step(bad)
        assert pickle.dumps(vector) == before
    rewards, done = vector.step(legal.astype(np.uint8))  # any integer dtype
    assert rewards.shape == (4, 3) and done.shape == (4,)


# --- copying and pickling -------------------------------------------------------------------


def _play(game: uno.Game, steps: int) -> None:
    for _ in range(steps):
        if game.is_over:
            return
        game.push(game.legal_actions()[0])


@pytest.mark.parametrize("how", ["copy", "deepcopy", "pickle", "method"])
def test_games_and_matches_copy_to_equal_independent_objects(how: str) -> None:
    def clone(value: object) -> object:
        if how == "copy":
            return copy.copy(value)
        if how == "deepcopy":
            return copy.deepcopy(value)
        if how == "pickle":
            return pickle.loads(pickle.dumps(value))
        return value.copy()  # type: ignore[attr-defined]

    game = uno.Game(4, seed=8, deal=None)
    _play(game, 25)
    other = clone(game)
    assert isinstance(other, uno.Game)
    assert other.state_bytes() == game.state_bytes() and other.history == game.history
    assert other.to_json() == game.to_json()
    before = game.state_bytes()
    _play(other, 5)
    other.undo()
    assert game.state_bytes() == before and other.ply == game.ply + 4

    dealt = uno.Game(2, seed=3, deal=uno.Deal(["R1 R2", "G3"], "B4", rest="discard"))
    assert clone(dealt).to_json() == dealt.to_json()  # type: ignore[attr-defined]

    match = uno.Match(3, seed=2, rules=uno.LOMBARDY.replace(target_score=40))
    while match.round < 3 and not match.is_over:
        match.push(match.legal_actions()[0])
    twin = clone(match)
    assert isinstance(twin, uno.Match)
    assert twin.to_json() == match.to_json() and twin.scores == match.scores
    record = match.to_json()
    while not twin.is_over:
        twin.push(twin.legal_actions()[0])
    assert match.to_json() == record

    vector = uno.VectorGame(5, players=3, seed=4, reward="points")
    vector.step(vector.sample_legal())
    copied = clone(vector)
    assert isinstance(copied, uno.VectorGame)
    assert np.array_equal(copied.observations(), vector.observations())
    assert copied.deal_seed(2) == vector.deal_seed(2) and copied.reward == "points"
    assert np.array_equal(copied.sample_legal(), vector.sample_legal())
    observed = vector.observations()
    copied.step(copied.sample_legal())
    assert np.array_equal(vector.observations(), observed)

    if how != "method":
        for rules in (uno.LOMBARDY, uno.STANDARD.replace(target_score=50)):
            assert clone(rules) == rules


# --- threads --------------------------------------------------------------------------------


def test_threads_on_one_game_one_match_one_vector(isolated: IsolatedRunner) -> None:
    out = isolated(
        """
        import pickle, random, sys, threading
        import numpy as np
        from ddz import uno, IllegalMoveError
        sys.setswitchinterval(1e-6)

        def hammer(target, count, threads=4):
            errors = []
            def work(k):
                try:
                    target(k, count)
                except Exception as error:      # any escape fails the run
                    errors.append(repr(error))
            pool = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
            for t in pool: t.start()
            for t in pool: t.join()
            assert not errors, errors[:3]

        # one game: every step is checked and applied atomically, so every step that passed
        # the check is legal, and the history replays to the same state
        game = uno.Game(4, seed=11)
        def play(k, count):
            for _ in range(count):
                actions = game.legal_actions()
                if not actions:
                    return
                try:
                    game.step(actions[(k * 7) % len(actions)])
                except IllegalMoveError:
                    pass                          # another thread moved first: refused whole
                if k == 3 and game.ply % 5 == 0:
                    try:
                        game.undo()
                    except IndexError:
                        pass
        hammer(play, 400)
        replay = uno.Game(4, seed=11)
        for action in game.history:
            replay.step(action)
        assert replay.state_bytes() == game.state_bytes()

        # one match: rounds end and are dealt inside one step
        match = uno.Match(3, seed=5, rules=uno.LOMBARDY.replace(target_score=200))
        def play_match(k, count):
            rng = random.Random(k)
            for _ in range(count):
                if match.round > 2 or match.is_over:   # two rounds ended under contention
                    return
                actions = match.legal_actions()
                if not actions:
                    return
                try:
                    match.step(rng.choice(actions))
                except IllegalMoveError:
                    pass
        hammer(play_match, 100_000)
        assert match.round > 2 or match.is_over
        assert uno.Match.from_json(match.to_json()).to_json() == match.to_json()

        # one vector: sample then step races; a refused step changes nothing; every state
        # stays one the rules reach (pickle restores check each round)
        vector = uno.VectorGame(64, players=3, seed=2)
        shared = vector.sample_legal()
        def play_vector(k, count):
            for _ in range(count):
                if k == 0:
                    shared[:] = np.random.default_rng(len(shared)).integers(-5, 90, len(shared))
                    continue
                try:
                    vector.step(vector.sample_legal() if k == 1 else shared)
                except ValueError:
                    pass
                vector.observations(); vector.legal_action_mask(); vector.current_players
        hammer(play_vector, 300)
        pickle.loads(pickle.dumps(vector))

        # separate objects in threads give the single-threaded results
        def run_game(seed):
            g, rng = uno.Game(3, seed=seed), random.Random(seed)
            while not g.is_over:
                g.push(rng.choice(g.legal_actions()))
            return g.state_bytes()
        def run_vector(seed):
            v = uno.VectorGame(16, players=2, seed=seed)
            for _ in range(200):
                v.step(v.sample_legal())
            return v.observations().tobytes()
        expected = {s: (run_game(s), run_vector(s)) for s in range(6)}
        got = {}
        def separate(k, count):
            got[k] = (run_game(k), run_vector(k))
        hammer(separate, 1, threads=6)
        assert got == expected
        print("ok")
        """,
        timeout=120,
    )
    assert out.strip() == "ok"


# --- environments ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["classic", "uno"])
@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_environments_copy_to_equal_independent_environments(game: str, how: str) -> None:
    pytest.importorskip("pettingzoo")
    from ddz.envs import gymnasium as gym_envs
    from ddz.envs import pettingzoo as pz_envs

    def clone(value: object) -> object:
        return copy.deepcopy(value) if how == "deepcopy" else pickle.loads(pickle.dumps(value))

    env = pz_envs.env(game)
    env.reset(seed=3)
    for _ in range(6):
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"]
        env.step(int(np.flatnonzero(mask)[-1]))
    twin = clone(env)
    agent = env.agent_selection
    assert twin.agent_selection == agent  # type: ignore[attr-defined]
    assert np.array_equal(twin.observe(agent)["observation"], env.observe(agent)["observation"])  # type: ignore[attr-defined]
    before = env.observe(agent)["observation"].copy()
    mask = twin.observe(agent)["action_mask"]  # type: ignore[attr-defined]
    twin.step(int(np.flatnonzero(mask)[0]))  # type: ignore[attr-defined]
    assert np.array_equal(env.observe(agent)["observation"], before)

    single = gym_envs.SingleAgentEnv(game)
    observation, _ = single.reset(seed=4)
    copied = clone(single)
    action = int(np.flatnonzero(observation["action_mask"])[0])
    assert np.array_equal(
        copied.step(action)[0]["observation"],  # type: ignore[attr-defined]
        single.step(action)[0]["observation"],
    )
