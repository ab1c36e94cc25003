"""ddz.compat.douzero.VectorEnv against the single-table drop-in Env (itself tested equal to
DouZero's get_obs), and against DouZero 1.1.0 itself when it is installed.

Every table of a VectorEnv is mirrored by an Env playing the same deal and the same actions;
at every lockstep step every row of every position's group is compared with that Env's
observation (np.array_equal, same dtypes and shapes), and so are the rewards and the games
dealt after one ends. DDZ_COMPAT_GAMES scales the number of steps (default 120: 48 tables for
200 steps, 9,600 observed positions).
"""

from __future__ import annotations

import os
import random
from typing import Any

import numpy as np
import pytest

from ddz.compat.douzero import OBJECTIVES, POSITIONS, Env, VectorEnv, VectorObservation
from tests.concurrency import run_threads
from tests.test_compat_douzero import assert_same_obs as same_obs

GAMES = int(os.environ.get("DDZ_COMPAT_GAMES", "120"))
VALUES = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)
DECK = [v for v in VALUES[:13] for _ in range(4)] + [20, 30]
KEYS = ["position", "x_batch", "z_batch", "legal_actions", "x_no_action", "z"]


def assert_same_obs(theirs: dict[str, Any], ours: dict[str, Any]) -> None:
    assert list(theirs) == KEYS
    same_obs(theirs, ours)


def group_rows(obs: VectorObservation, table: int) -> dict[str, Any]:
    """Table ``table``'s observation read straight from the grouped arrays, through the
    group's ``tables`` and ``offsets`` (the way a batched actor routes rows)."""
    group = obs.groups[int(obs.position[table])]
    (slot,) = np.flatnonzero(group.tables == table)
    low, high = int(group.offsets[slot]), int(group.offsets[slot + 1])
    assert (low, high - low) == (int(obs.row_start[table]), int(obs.legal_count[table]))
    assert (group.row_slot[low:high] == slot).all()
    z_batch = group.z_batch
    if z_batch is None:  # observe(z_batch=False): the caller gathers z per row
        z_batch = group.z[group.row_slot].astype(np.float32)
    return {
        "position": group.position,
        "x_batch": group.x_batch[low:high],
        "z_batch": z_batch[low:high],
        "x_no_action": group.x_no_action[slot],
        "z": group.z[slot],
    }


def check_layout(obs: VectorObservation, n: int) -> None:
    """Each table in exactly one group, the group's rows exactly its tables' rows."""
    seen = []
    for index, group in enumerate(obs.groups):
        assert group.position == POSITIONS[index]
        assert group.x_batch.shape[1] == (373 if index == 0 else 484)
        assert group.x_no_action.shape == (group.tables.size, 319 if index == 0 else 430)
        assert group.z.shape == (group.tables.size, 5, 162)
        assert group.row_slot.shape == (group.x_batch.shape[0],)
        if group.z_batch is not None:
            assert group.z_batch.shape == (group.x_batch.shape[0], 5, 162)
            assert np.array_equal(group.z_batch, group.z[group.row_slot])
        assert list(group.tables) == sorted(group.tables)
        assert group.offsets[0] == 0 and group.offsets[-1] == group.x_batch.shape[0]
        assert (np.diff(group.offsets) == obs.legal_count[group.tables]).all()
        assert (obs.position[group.tables] == index).all()
        seen += group.tables.tolist()
    assert sorted(seen) == list(range(n))


def play_mirrored(
    vector: VectorEnv, steps: int, rng: random.Random, z_batch: bool = True
) -> tuple[int, int]:
    """Steps ``vector`` with random actions, each table mirrored by an Env; compares every
    observation, reward and new deal. Returns (positions compared, games finished)."""
    n = vector.n
    vector.reset()
    obs = vector.observe(z_batch=z_batch)
    mirrors = [Env(vector.objective) for _ in range(n)]
    expected = [mirror.reset(vector.card_play_data(i)) for i, mirror in enumerate(mirrors)]
    positions = finished = 0
    for _ in range(steps):
        check_layout(obs, n)
        for i in range(n):
            mine = group_rows(obs, i)
            mine["legal_actions"] = vector.legal_actions(i)
            assert_same_obs(expected[i], {key: mine[key] for key in KEYS})
            assert_same_obs(expected[i], vector.table_observation(i))
            positions += 1
        actions = np.array([rng.randrange(int(count)) for count in obs.legal_count])
        rewards, dones = vector.step(actions)
        assert rewards.dtype == np.float64 and dones.dtype == np.bool_
        for i in range(n):
            after, reward, done, _ = mirrors[i].step(expected[i]["legal_actions"][actions[i]])
            assert (bool(dones[i]), float(rewards[i])) == (done, reward)
            if done:
                finished += 1
                after = mirrors[i].reset(vector.card_play_data(i))
            assert after is not None
            expected[i] = after
        obs = vector.observe(z_batch=z_batch)
    return positions, finished


def test_every_row_equals_env_over_thousands_of_positions() -> None:
    rng = random.Random(21)
    steps = max(20, GAMES * 5 // 3)
    positions, finished = play_mirrored(VectorEnv(48, "adp", seed=2026), steps, rng)
    # random games last about 70 plies
    assert positions == 48 * steps and finished > 48 * steps // 100


@pytest.mark.parametrize("objective", ["logadp", "wp"])
def test_rewards_of_each_objective_equal_env(objective: str) -> None:
    rng = random.Random(22)
    _, finished = play_mirrored(VectorEnv(16, objective, seed=5), 120, rng)
    assert finished > 16


def test_without_z_batch_the_rest_is_the_same() -> None:
    rng = random.Random(25)
    positions, _ = play_mirrored(VectorEnv(16, "adp", seed=8), 100, rng, z_batch=False)
    assert positions == 1600
    vector = VectorEnv(5, seed=8)
    vector.reset()
    assert all(group.z_batch is None for group in vector.observe(z_batch=False).groups)


def test_global_generator_deals_as_env_reset_does() -> None:
    """seed=None: table i's first deal is the i-th Env.reset() after seeding np.random, and
    the tables a step finished are dealt next, in ascending order."""
    np.random.seed(9)
    vector = VectorEnv(6, "adp", seed=None)
    obs = vector.reset()
    state = np.random.get_state()
    np.random.seed(9)
    for i in range(6):
        env = Env("adp")
        assert_same_obs(env.reset(), vector.table_observation(i))
    draws = np.random.RandomState()
    draws.set_state(state)
    rng = random.Random(23)
    redealt = 0
    while redealt < 12:
        rewards, dones = vector.step([rng.randrange(int(c)) for c in obs.legal_count])
        for i in np.flatnonzero(dones):
            deck = DECK.copy()
            draws.shuffle(deck)
            assert vector.card_play_data(int(i)) == {
                "landlord": sorted(deck[:20]),
                "landlord_up": sorted(deck[20:37]),
                "landlord_down": sorted(deck[37:54]),
                "three_landlord_cards": sorted(deck[17:20]),
            }
            redealt += 1
        assert np.array_equal(rewards != 0, dones)
        obs = vector.observe()
        assert (obs.position[dones] == 0).all()  # a new game: its landlord to act


def test_seeded_deals_reproducible_and_table_own() -> None:
    """Table i's deals depend on the seed and i only: not on n, nor on other tables' play."""
    a, b, c = VectorEnv(3, seed=77), VectorEnv(8, seed=77), VectorEnv(3, seed=78)
    a.reset(), b.reset(), c.reset()
    deals = [a.card_play_data(i) for i in range(3)]
    assert deals == [b.card_play_data(i) for i in range(3)]
    assert deals != [c.card_play_data(i) for i in range(3)]
    assert len({str(d) for d in deals + [b.card_play_data(i) for i in range(3, 8)]}) == 8
    for deal in deals:
        hands = deal["landlord"] + deal["landlord_up"] + deal["landlord_down"]
        assert sorted(hands) == sorted(DECK)
        assert (len(deal["landlord"]), len(deal["landlord_up"])) == (20, 17)
        assert all(card in deal["landlord"] for card in deal["three_landlord_cards"])
    a.reset(), b.reset()  # the second deals agree too
    second = a.card_play_data(1)
    assert second == b.card_play_data(1) and second != deals[1]


def test_wrong_actions_raise_and_change_nothing() -> None:
    vector = VectorEnv(4, seed=1)
    with pytest.raises(ValueError, match="reset"):
        vector.observe()
    with pytest.raises(ValueError, match="reset"):
        vector.step([0, 0, 0, 0])
    obs = vector.reset()
    before = [vector.table_observation(i) for i in range(4)]
    counts = obs.legal_count.copy()
    for bad, error in (
        ([0, 0, 0], ValueError),
        ([[0, 0, 0, 0]], ValueError),
        ([0.0, 0, 0, 0], TypeError),
        (["0", "0", "0", "0"], TypeError),
        ([0, 0, 0, -1], IndexError),
        ([0, int(counts[1]), 0, 0], IndexError),
        (np.array([0, 2**63, 0, 0], dtype=np.uint64), IndexError),
    ):
        with pytest.raises(error):
            vector.step(bad)  # type: ignore[arg-type]
    for i in range(4):
        assert_same_obs(before[i], vector.table_observation(i))
    with pytest.raises(IndexError):
        vector.table_observation(4)
    with pytest.raises(IndexError):
        vector.legal_actions(-1)


def test_bad_arguments_raise() -> None:
    for n in (0, 2**16 + 1, -3):
        with pytest.raises(ValueError):
            VectorEnv(n)
    for bad_n in (2.0, True, "4"):
        with pytest.raises(TypeError):
            VectorEnv(bad_n)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        VectorEnv(2, "win")
    with pytest.raises(ValueError):
        VectorEnv(2, seed=-1)
    with pytest.raises(ValueError):
        VectorEnv(2, seed=2**64)
    with pytest.raises(TypeError):
        VectorEnv(2, seed=1.5)  # type: ignore[arg-type]
    assert OBJECTIVES == ("adp", "logadp", "wp")


def test_buffers_are_reused_and_grow() -> None:
    """observe writes into the same arrays while they are large enough."""
    vector = VectorEnv(8, seed=3)
    first = vector.reset()["landlord"].x_batch
    again = vector.observe()["landlord"].x_batch
    assert np.shares_memory(first, again)


def step_alongside(
    vector: VectorEnv, theirs: list[Any], expected: list[Any], actions: list[int], env_module: Any
) -> int:
    """Play ``actions`` at every table of ``vector`` and in DouZero's own ``theirs`` (one
    ``Env`` a table), check the rewards and ends agree, deal each finished table's next game
    (the vector's deal) to DouZero's env too, and put each env's next observation into
    ``expected``; returns how many games finished."""
    rewards, dones = vector.step(actions)
    finished = 0
    for i, env in enumerate(theirs):
        after, reward, done, _ = env.step(expected[i]["legal_actions"][actions[i]])
        assert (bool(dones[i]), float(rewards[i])) == (done, reward)
        if done:
            finished += 1
            deal = vector.card_play_data(i)
            env._env.reset()
            env._env.card_play_init({k: list(v) for k, v in deal.items()})
            env.infoset = env._env.game_infoset
            after = env_module.get_obs(env.infoset)
        expected[i] = after
    return finished


def test_same_observations_as_douzero_get_obs() -> None:
    env_module = pytest.importorskip(
        "douzero.env.env",
        reason="the DouZero comparison needs douzero==1.1.0 (pip install --no-deps "
        "douzero==1.1.0; .ci/run installs it)",
    )
    n = 12
    np.random.seed(31)
    vector = VectorEnv(n, "adp", seed=None)
    obs = vector.reset()
    np.random.seed(31)
    theirs = [env_module.Env("adp") for _ in range(n)]
    expected = [env.reset() for env in theirs]  # the same global draws, in table order
    rng = random.Random(24)
    finished = 0
    for _ in range(max(30, GAMES // 2)):
        for i in range(n):
            assert_same_obs(expected[i], vector.table_observation(i))
        actions = [rng.randrange(int(c)) for c in obs.legal_count]
        finished += step_alongside(vector, theirs, expected, actions, env_module)
        obs = vector.observe()
    assert finished > 0


def replayed(vector: VectorEnv, table: int) -> dict[str, Any]:
    """Env's observation after table ``table``'s deal and moves so far, replayed."""
    env = Env(vector.objective)
    obs = env.reset(vector.card_play_data(table))
    for move in vector._core.history_counts(table):
        obs, _, done, _ = env.step([VALUES[r] for r in range(15) for _ in range(move[r])])
        assert not done and obs is not None
    return obs


@pytest.mark.usefixtures("switch_often")
def test_one_vector_env_shared_by_threads_is_serialised() -> None:
    vector = VectorEnv(32, seed=4)
    vector.reset()
    steps: list[int] = []

    def work(i: int) -> None:
        for _ in range(40):
            obs = vector.observe(z_batch=bool(i % 2))
            assert obs.legal_count.min() >= 1
            vector.step(np.zeros(32, dtype=np.int64))  # the first action is always legal
            steps.append(i)
            vector.table_observation(i)

    run_threads(work)
    assert len(steps) == 160
    for table in range(32):
        assert_same_obs(replayed(vector, table), vector.table_observation(table))


@pytest.mark.usefixtures("switch_often")
def test_the_raw_core_refuses_a_second_thread_and_stays_whole() -> None:
    """DouzeroTables used from threads without a lock: a call while another runs raises
    RuntimeError; nothing is ever read half stepped, and every table replays."""
    vector = VectorEnv(64, seed=5)
    vector.reset()
    core = vector._core
    refused: list[str] = []

    def work(i: int) -> None:
        for _ in range(60):
            try:
                if i % 2:
                    core.observe(bool(i % 4 == 1))
                else:
                    core.step(np.zeros(64, dtype=np.int64), True)
            except RuntimeError as error:
                refused.append(str(error))

    run_threads(work)
    assert all("in use by another thread" in message for message in refused)
    vector.observe()
    for table in range(64):
        assert_same_obs(replayed(vector, table), vector.table_observation(table))


def test_the_core_checks_a_copy_of_the_arrays_it_is_given() -> None:
    vector = VectorEnv(3, seed=6)
    obs = vector.reset()
    core = vector._core
    before = [vector.card_play_data(i) for i in range(3)]
    with pytest.raises(TypeError):
        core.deal_seeded(np.array([0.0]))
    with pytest.raises(TypeError):
        core.deal(np.array([0]), np.zeros((1, 3, 15), dtype=np.int64), np.zeros((1, 15)))
    with pytest.raises(IndexError):
        core.deal_seeded(np.array([3], dtype=np.int64))
    which = np.array([0, 1], dtype=np.int64)
    hands = np.zeros((2, 3, 15), dtype=np.uint8)
    hands[:, :, :13] = 1  # one of each of 3..2 in every hand, both jokers the landlord's
    hands[:, 0, 13:] = 1
    kitty = np.zeros((2, 15), dtype=np.uint8)

    def changed(array: Any, index: tuple[Any, ...], value: int) -> Any:
        array = array.copy()
        array[index] = value
        return array

    for bad_hands, bad_kitty, message in (
        (hands[:1], kitty, "one deal"),
        (hands[:, :, :14].copy(), kitty, "15 counts"),
        (hands, kitty[:, :14].copy(), "15 counts"),
        (changed(hands, (1, 2, 0), 5), kitty, "deck"),  # five 3s in a hand
        (changed(hands, (0, 1, 0), 3), kitty, "deck"),  # five 3s in all
        (changed(hands, (1, 1, 14), 1), kitty, "deck"),  # a second big joker
        (changed(hands, (0, 2), 0), kitty, "1 to 20"),  # an empty hand
        (changed(hands, (1, 0, slice(0, 6)), 2), kitty, "1 to 20"),  # 21 cards
        (hands, changed(kitty, (1, 3), 2), "kitty"),  # two 6s the landlord has not
    ):
        with pytest.raises(ValueError, match=message):
            core.deal(which, bad_hands, bad_kitty)
    with pytest.raises(IndexError):
        core.deal(np.array([0, 3], dtype=np.int64), hands, kitty)
    assert [vector.card_play_data(i) for i in range(3)] == before  # nothing was dealt
    core.deal(which, hands, changed(kitty, (1, 13), 1))  # the checks pass a good deal
    assert vector.card_play_data(1)["three_landlord_cards"] == [20]
    assert vector.card_play_data(2) == before[2]
    obs = vector.observe()
    # the row starts handed out are the core's output, not its input: writing them is harmless
    obs.row_start[:] = 10**9
    again = vector.observe()
    assert again.row_start.max() < again.legal_count.sum()
    for table in range(3):
        assert_same_obs(replayed(vector, table), vector.table_observation(table))
