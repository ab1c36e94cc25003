"""Threads: separate objects in parallel give exactly the single-threaded results, and one
object shared by several threads is serialised (never corrupted, never crashed), with the
interpreter switching threads as often as it can (``sys.setswitchinterval(1e-6)``).

Every result is checked against a single-threaded run of the same work."""

from __future__ import annotations

import contextlib
import pickle
import random
import threading
import time

import numpy as np
import pytest

import ddz
from ddz import IllegalMoveError, batch, uno
from tests.concurrency import THREADS, run_threads

pytestmark = pytest.mark.usefixtures("switch_often")  # threads switch often


def random_game_masks(seed: int) -> list[bytes]:
    """One random game: the legal-action mask before every action, as bytes."""
    game = ddz.Game(seed=seed)
    rng = random.Random(seed)
    masks = []
    while not game.is_over:
        mask = game.legal_action_mask()
        masks.append(mask.tobytes())
        game.step(int(rng.choice(np.flatnonzero(mask))))
    return masks


def test_masks_of_separate_games_in_threads_equal_single_threaded() -> None:
    """One process-wide action space used to share a scratch array: two threads' masks
    mixed about 2% of the time."""
    seeds = [[100 * worker + game for game in range(6)] for worker in range(THREADS)]
    expected = [[random_game_masks(seed) for seed in row] for row in seeds]
    got = run_threads(lambda i: [random_game_masks(seed) for seed in seeds[i]])
    assert got == expected


def test_one_game_stepped_by_many_threads_is_serialised() -> None:
    """check and apply were two calls: two threads stepping one game applied an unchecked
    action (a segfault once the game was over). Each step is now one core call: every
    thread's records are exactly the game's history, and the history replays."""
    for seed in range(4):
        game = ddz.Game(seed=seed)

        def player(i: int, game: ddz.Game = game) -> list[ddz.game.ActionRecord]:
            rng = random.Random(i)
            records = []
            while not game.is_over:
                actions = game.legal_actions()
                if not actions:
                    break
                # another thread may move first: then this action is stale and refused
                with contextlib.suppress(IllegalMoveError):
                    records.append(game.step(rng.choice(actions)))
            return records

        records = [r for rs in run_threads(player) for r in rs]  # type: ignore[attr-defined]
        history = game.history
        assert sorted(records, key=lambda r: r.ply) == history
        assert game.is_over
        replay = ddz.Game(seed=seed)
        for record in history:
            replay.step(record.action)
        assert replay.state_bytes() == game.state_bytes()


def test_one_game_pushed_copied_and_undone_by_many_threads_never_breaks() -> None:
    game = ddz.Game(seed=77)
    states = set()
    reference = ddz.Game(seed=77)
    while not reference.is_over:  # every state of the line the threads walk
        states.add(reference.state_bytes())
        reference.push(reference.legal_actions()[0])
    states.add(reference.state_bytes())

    def worker(i: int) -> int:
        seen = 0
        for _ in range(300):
            copy = game.copy()
            assert copy.state_bytes() in states
            actions = game.legal_actions()
            if i % 2 and actions:
                with contextlib.suppress(IllegalMoveError):  # the game moved on, or ended
                    game.push(actions[0])
            elif game.history:
                with contextlib.suppress(IndexError):
                    game.undo()
            seen += 1
        return seen

    assert run_threads(worker) == [300] * THREADS
    # pushes of legal_actions()[0] from any state of the line stay on the line, except when
    # a thread's list was stale: then push (unchecked) may leave the line; either way the
    # game is one the core can hold, and its views read
    game.history, game.observation(0).encode(), game.payoffs()


def test_simulate_in_threads_equals_one_thread() -> None:
    one = ddz.simulate(600, seed=5, agents=("greedy", "random", "random"))
    for threads in (2, 3, 8):
        assert (
            ddz.simulate(600, seed=5, agents=("greedy", "random", "random"), threads=threads) == one
        )
    results = run_threads(lambda i: ddz.simulate(300, seed=i, threads=2))
    assert results == [ddz.simulate(300, seed=i) for i in range(THREADS)]


def play_vector(seed: int, steps: int) -> list[bytes]:
    games = ddz.VectorGame(8, seed=seed)
    trace = []
    for _ in range(steps):
        rewards, done = games.step(games.sample_legal())
        trace.append(rewards.tobytes() + done.tobytes() + games.observations().tobytes())
        trace.append(games.legal_action_mask().tobytes())
    return trace


def test_separate_vector_games_in_threads_equal_single_threaded() -> None:
    expected = [play_vector(seed, 40) for seed in range(THREADS)]
    assert run_threads(lambda i: play_vector(i, 40)) == expected


def test_one_vector_game_stepped_by_many_threads_replays_in_step_order() -> None:
    """Two threads stepping one VectorGame corrupted thousands of games silently. Now each
    call holds the object's lock: the steps, in the order the core numbered them, replay to
    the same rewards and the same final state single-threaded."""
    games = ddz.VectorGame(16, seed=9)
    log: list[tuple[int, bytes, bytes]] = []
    lock = threading.Lock()

    def stepper(i: int) -> int:
        taken = 0
        for _ in range(60):
            actions = games.sample_legal()
            rewards = np.zeros((16, 3), dtype=np.int64)
            done = np.zeros(16, dtype=np.uint8)
            try:
                number = games._core.step(actions, rewards, done)
            except ValueError:
                continue  # another thread stepped between sample and step: nothing changed
            with lock:
                log.append((number, actions.tobytes(), rewards.tobytes() + done.tobytes()))
            taken += 1
        return taken

    taken = run_threads(stepper)
    assert sum(taken) == len(log) == games._core.steps  # type: ignore[arg-type]
    replay = ddz.VectorGame(16, seed=9)
    for number, (index, actions, outcome) in enumerate(sorted(log)):
        assert index == number
        rewards = np.zeros((16, 3), dtype=np.int64)
        done = np.zeros(16, dtype=np.uint8)
        replay._core.step(np.frombuffer(actions, dtype=np.int64), rewards, done)
        assert rewards.tobytes() + done.tobytes() == outcome
    assert replay.state_bytes() == games.state_bytes()


def test_vector_game_readers_never_see_half_a_step() -> None:
    """Readers (masks, observations, players) run while one thread steps: every read must be
    of a state some step left, never of a step in progress."""
    reference = ddz.VectorGame(32, seed=3)
    plan = []
    seen_masks = {reference.legal_action_mask().tobytes()}
    seen_observations = {reference.observations().tobytes()}
    for _ in range(25):
        actions = reference.sample_legal()
        plan.append(actions)
        reference.step(actions)
        seen_masks.add(reference.legal_action_mask().tobytes())
        seen_observations.add(reference.observations().tobytes())
    games = ddz.VectorGame(32, seed=3)

    def work(i: int) -> int:
        if i == 0:
            for actions in plan:
                games.step(actions)
            return len(plan)
        reads = 0
        for _ in range(40):
            assert games.legal_action_mask().tobytes() in seen_masks
            assert games.observations().tobytes() in seen_observations
            reads += 1
        return reads

    run_threads(work)
    assert games.state_bytes() == reference.state_bytes()


def test_batch_and_legal_moves_in_threads_equal_single_threaded() -> None:
    rng = random.Random(4)
    hands = [ddz.Game(seed=rng.randrange(10**6)).hands[0] for _ in range(40)]
    masks = batch.hand_masks(hands)
    loose = ddz.CLASSIC.replace(single_kickers_distinct=False, trio_as_wings=True)
    expected = [
        batch.legal_moves_batch(masks, rules=rules)[0].tobytes() for rules in (ddz.CLASSIC, loose)
    ]
    counts = [[ddz.legal_moves(h, rules=r).count() for h in hands] for r in (ddz.CLASSIC, loose)]

    def work(i: int) -> tuple[bytes, list[int]]:
        rules = (ddz.CLASSIC, loose)[i % 2]  # alternating rules: the core's rules cache
        for _ in range(5):
            codes = batch.legal_moves_batch(masks, rules=rules)[0].tobytes()
            found = [ddz.legal_moves(h, rules=rules).count() for h in hands]
        return codes, found

    for i, (codes, found) in enumerate(run_threads(work)):  # type: ignore[misc]
        assert codes == expected[i % 2] and found == counts[i % 2]


class _ScratchLockThatWatches:
    """ddz.VectorGame's scratch lock, watched: it notes when a second thread arrives at it
    while it is held, and keeps a copy of the vector's own mask as each holder leaves, which
    is what a ``legal_action_mask(copy=False)`` call returned. (That call hands out the
    vector's own mask, documented to be updated in place by the next call, another
    thread's included: the caller's array may change as soon as the lock is left, so the
    test reads what was returned here rather than through the live view.)"""

    def __init__(self, games: ddz.VectorGame) -> None:
        self.real = games._scratch
        self.games = games
        self.arrived = threading.Event()
        self.left_with: dict[int, np.ndarray] = {}

    def __enter__(self) -> _ScratchLockThatWatches:
        if self.real.locked():
            self.arrived.set()
        self.real.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.games._mask is not None:
            self.left_with.setdefault(threading.get_ident(), self.games._mask.copy())
        self.real.release()


class _CoreThatLetsAnotherThreadIn:
    """A VectorGame core whose first legal_indices call, once its run is written, starts a
    second thread that steps the vector and reads its legal indices and own mask, and waits
    until that thread has come to the scratch lock this call holds (at most 20 s), then
    0.3 s more, before returning: the worst moment for the Python layer's scratch."""

    def __init__(self, games: ddz.VectorGame, actions: np.ndarray) -> None:
        self.real = games._core
        self.games = games
        self.actions = actions
        self.armed = True
        self.thread: threading.Thread | None = None

    def __getattr__(self, name: str) -> object:
        return getattr(self.real, name)

    def legal_indices(self, out: np.ndarray, offsets: np.ndarray) -> int:
        total: int = self.real.legal_indices(out, offsets)
        if self.armed:
            self.armed = False

            def other() -> None:
                self.games.step(self.actions)
                self.games.legal_indices()
                self.games.legal_action_mask(copy=False)

            thread = threading.Thread(target=other)
            thread.start()
            self.thread = thread
            watch = self.games._scratch
            assert isinstance(watch, _ScratchLockThatWatches)
            # the other thread steps (the core's own lock), then comes to the scratch lock
            assert watch.arrived.wait(20), "the second thread never reached the scratch lock"
            thread.join(0.3)  # held, the lock keeps it out; without one it would finish here
        return total


@pytest.mark.parametrize("read", ["legal_indices", "own mask"])
def test_vector_game_scratch_is_one_callers_at_a_time(read: str) -> None:
    """ddz.VectorGame keeps a scratch buffer for legal_indices and its own mask: a second
    thread refilling it between a call's fill and its copy gave that call another state's
    indices under its own offsets, and a clear meeting another's marks left the own mask
    wrong for good."""
    games = ddz.VectorGame(8, seed=5)
    reference = games.copy()
    before_indices, before_offsets = reference.legal_indices()
    before_mask = reference.legal_action_mask()
    actions = reference.sample_legal()
    reference.step(actions)
    watch = _ScratchLockThatWatches(games)
    games._scratch = watch  # type: ignore[assignment]
    core = _CoreThatLetsAnotherThreadIn(games, actions)
    games._core = core
    if read == "legal_indices":
        indices, offsets = games.legal_indices()
        assert np.array_equal(indices, before_indices)
        assert np.array_equal(offsets, before_offsets)
    else:
        games.legal_action_mask(copy=False)
        assert np.array_equal(watch.left_with[threading.get_ident()], before_mask)
    assert core.thread is not None
    core.thread.join()
    games._core = core.real
    games._scratch = watch.real
    assert games.state_bytes() == reference.state_bytes()
    assert np.array_equal(games.legal_action_mask(copy=False), reference.legal_action_mask())
    after_indices, after_offsets = reference.legal_indices()
    indices, offsets = games.legal_indices()
    assert np.array_equal(indices, after_indices) and np.array_equal(offsets, after_offsets)


def test_vector_game_step_while_another_thread_scribbles_on_the_actions() -> None:
    """VectorGame.step checked the caller's array and read it again without the GIL: a
    writer in between got an unchecked action applied. Now each step copies the actions
    once into C memory: every step either refuses (nothing changes) or applies legal
    actions, and the vector's states stay ones the core accepts (pickle checks each)."""
    games = ddz.VectorGame(32, seed=6)
    shared = games.sample_legal()
    stop = threading.Event()

    def scribbler() -> None:
        rng = np.random.default_rng(1)
        while not stop.is_set():
            where = rng.integers(0, len(shared), 4)
            shared[where] = rng.choice([-1, games.num_actions, 2**62, 0, 5], 4)

    thread = threading.Thread(target=scribbler)
    thread.start()
    applied = refused = 0
    try:
        for _ in range(150):
            before = games.state_bytes()
            shared[:] = games.sample_legal()
            try:
                games.step(shared)
                applied += 1
            except ValueError:
                refused += 1
                assert games.state_bytes() == before
    finally:
        stop.set()
        thread.join()
    assert applied + refused == 150
    restored = pickle.loads(pickle.dumps(games))  # every game's state checked field by field
    assert restored.state_bytes() == games.state_bytes()
    restored.legal_action_mask(), restored.observations()


def play_match(seed: int) -> str:
    match = uno.Match(3, seed=seed, rules=uno.LOMBARDY.replace(target_score=60))
    rng = random.Random(seed)
    while not match.is_over and match.round < 3:
        match.step(rng.choice(match.legal_actions()))
    return match.to_json()


def test_separate_uno_matches_in_threads_equal_single_threaded() -> None:
    expected = [play_match(seed) for seed in range(THREADS)]
    assert run_threads(play_match) == expected


def solvable_position() -> ddz.Game:
    game = ddz.Game(seed=4)
    while game.phase != "play":
        game.push(game.legal_actions()[-1])
    for _ in range(6):
        game.push(game.legal_actions()[-1])
    return game


def test_one_solver_shared_by_threads_gives_the_single_threaded_verdict() -> None:
    """Two solves on one Solver shared its searcher (move stack, node counter): a solve
    stopped at a node limit it never reached (value None) and counted another's nodes."""
    game = solvable_position()
    alone = ddz.solve(game, node_limit=200_000, line=False, memory_mb=8)
    assert alone.value is not None
    solver = ddz.Solver(game.rules, memory_mb=8)

    def work(i: int) -> list[tuple[int | None, int]]:
        verdicts = []
        for _ in range(3):
            solver.clear()
            result = solver.solve(game, node_limit=200_000, line=False)
            verdicts.append((result.value, result.nodes))
        return verdicts

    for verdicts in run_threads(work):
        # a thread's clear may come between another's clear and solve: the table then
        # answers at once, so only the verdict is fixed, never a stop short of the limit
        for value, nodes in verdicts:  # type: ignore[attr-defined]
            assert value == alone.value and nodes <= alone.nodes


def test_the_raw_solver_refuses_a_second_solve_on_a_busy_searcher() -> None:
    game = ddz.Game(seed=4)  # the first position of play: far more than 0.5 s to solve
    while game.phase != "play":
        game.push(game.legal_actions()[-1])
    solver = ddz.Solver(game.rules, memory_mb=8)
    fields = ddz._core.solver.state_position(game.state_bytes())
    hands, table, table_player, current, landlord = fields[:5]
    core = solver._core
    seen: list[str] = []
    started = threading.Event()

    def long_solve() -> None:
        started.set()
        core.solve(hands, table, table_player, current, landlord, node_limit=0, time_limit=0.5)

    thread = threading.Thread(target=long_solve)
    solver.clear()
    thread.start()
    started.wait()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and len(seen) < 2:
        try:
            core.solve(hands, table, table_player, current, landlord, node_limit=10)
        except RuntimeError as error:
            seen.append(str(error))
        try:
            core.clear()
        except RuntimeError as error:
            seen.append(str(error))
    thread.join()
    assert any("in use by another thread" in message for message in seen)
