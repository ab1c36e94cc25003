"""ddz.compat.rlcard.VectorEnv against the single-table drop-in (itself tested equal to
RLCard 1.2.0, tests/test_compat_rlcard.py) and against RLCard itself when it is installed.

Table i of a VectorEnv(n, seed=s) is mirrored by make("doudizhu", config={"seed": s + i})
playing the same actions; at every lockstep step every table's obs, legal ids (in order)
and action features are compared array for array, and so are the payoffs and the games
dealt after one ends. RLCard lists leads in a Python set's order, so against RLCard itself
leads are compared as sets (id -> features), answers as lists.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ddz
from ddz.compat import rlcard as ddz_rlcard
from ddz.compat.rlcard import SeatBatch, VectorEnv, VectorObservation
from tests.test_compat_rlcard import GAMES, PASS_ID

WIDTHS = (790, 901, 901)


def table_state(obs: VectorObservation, table: int) -> tuple[Any, list[int], Any]:
    """Table ``table``'s obs, legal ids and features, read through tables and offsets."""
    group = obs.groups[int(obs.player[table])]
    (slot,) = np.flatnonzero(group.tables == table)
    low, high = int(group.offsets[slot]), int(group.offsets[slot + 1])
    assert (low, high - low) == (int(obs.row_start[table]), int(obs.legal_count[table]))
    assert (group.row_slot[low:high] == slot).all()
    assert obs.legal_ids(table).tolist() == group.action_ids[low:high].tolist()
    return group.obs[slot], group.action_ids[low:high].tolist(), group.action_features[low:high]


def check_layout(obs: VectorObservation, n: int) -> None:
    seen = []
    for seat, group in enumerate(obs.groups):
        assert isinstance(group, SeatBatch) and group.seat == seat
        assert group.obs.dtype == np.int8 and group.obs.shape == (group.tables.size, WIDTHS[seat])
        assert group.action_features.dtype == np.int8
        assert group.action_features.shape == (group.action_ids.size, 54)
        assert group.row_slot.shape == group.action_ids.shape
        assert group.offsets[0] == 0 and group.offsets[-1] == group.action_ids.size
        assert (np.diff(group.offsets) == obs.legal_count[group.tables]).all()
        assert (obs.player[group.tables] == seat).all()
        seen += group.tables.tolist()
    assert sorted(seen) == list(range(n))


def assert_same(state: dict[str, Any], obs: Any, ids: list[int], features: Any, ordered: bool):
    assert state["obs"].dtype == obs.dtype and np.array_equal(state["obs"], obs)
    keys = list(state["legal_actions"])
    if ordered or PASS_ID in keys:
        assert keys == ids
    else:
        assert sorted(keys) == sorted(ids)
    for row, rlcard_id in enumerate(ids):
        theirs = state["legal_actions"][rlcard_id]
        assert theirs.dtype == features.dtype and np.array_equal(theirs, features[row])


def play_mirrored(
    n: int, seed: int, steps: int, make: Callable[[int], Any], ordered: bool, rng: random.Random
) -> tuple[int, int]:
    """Steps a VectorEnv with random legal ids, each table mirrored by ``make(seed + i)``;
    returns (positions compared, games finished)."""
    vector = VectorEnv(n, seed=seed)
    obs = vector.reset()
    mirrors = [make(seed + i) for i in range(n)]
    states = [mirror.reset()[0] for mirror in mirrors]
    positions = finished = 0
    for _ in range(steps):
        check_layout(obs, n)
        actions = []
        for i in range(n):
            mine = table_state(obs, i)
            assert_same(states[i], *mine, ordered=ordered)
            positions += 1
            ids = mine[1]
            roll = rng.random()
            actions.append(PASS_ID if roll < 0.25 and PASS_ID in ids else rng.choice(ids))
        payoffs, dones = vector.step(np.array(actions))
        assert payoffs.dtype == np.int64 and payoffs.shape == (n, 3) and dones.dtype == np.bool_
        for i in range(n):
            states[i] = mirrors[i].step(actions[i])[0]
            assert bool(dones[i]) == mirrors[i].is_over()
            if dones[i]:
                finished += 1
                assert payoffs[i].tolist() == list(mirrors[i].get_payoffs())
                states[i] = mirrors[i].reset()[0]
            else:
                assert payoffs[i].tolist() == [0, 0, 0]
        obs = vector.observe()
    return positions, finished


def test_every_table_equals_the_drop_in_over_thousands_of_positions() -> None:
    steps = max(40, GAMES * 3)
    positions, finished = play_mirrored(
        24,
        1000,
        steps,
        lambda seed: ddz_rlcard.make("doudizhu", config={"seed": seed}),
        ordered=True,
        rng=random.Random(31),
    )
    assert positions == 24 * steps and finished > 24 * steps // 100


def test_every_table_equals_rlcard() -> None:
    rlcard = pytest.importorskip(
        "rlcard", reason="the RLCard comparisons need rlcard==1.2.0 (.ci/run installs it)"
    )
    steps = max(40, GAMES * 2)
    positions, finished = play_mirrored(
        12,
        77,
        steps,
        lambda seed: rlcard.make("doudizhu", config={"seed": seed}),
        ordered=False,
        rng=random.Random(32),
    )
    assert positions == 12 * steps and finished > 0


def test_legal_actions_of_a_table_are_the_drop_ins() -> None:
    vector = VectorEnv(3, seed=5)
    vector.reset()
    single = ddz_rlcard.make("doudizhu", config={"seed": 6})
    state, _ = single.reset()
    legal = vector.legal_actions(1)
    assert list(legal) == list(state["legal_actions"])
    assert all(np.array_equal(legal[k], v) for k, v in state["legal_actions"].items())


def test_wrong_actions_raise_and_change_nothing() -> None:
    vector = VectorEnv(3, seed=9)
    with pytest.raises(ValueError, match="reset"):
        vector.observe()
    obs = vector.reset()
    before = [table_state(obs, i) for i in range(3)]
    before = [(o.copy(), ids, f.copy()) for o, ids, f in before]
    legal = [int(obs.legal_ids(i)[0]) for i in range(3)]
    for bad, error in (
        ([legal[0], legal[1]], ValueError),
        ([0.0, 0, 0], TypeError),
        ([legal[0], legal[1], -1], ddz.IllegalMoveError),
        ([legal[0], legal[1], 27472], ddz.IllegalMoveError),
        ([legal[0], legal[1], PASS_ID], ddz.IllegalMoveError),  # no pass on a lead
    ):
        with pytest.raises(error):
            vector.step(bad)
    obs = vector.observe()
    for i in range(3):
        obs_i, ids, features = table_state(obs, i)
        assert np.array_equal(obs_i, before[i][0]) and ids == before[i][1]
        assert np.array_equal(features, before[i][2])
    assert obs.player.tolist() == [0, 0, 0]
    with pytest.raises(ValueError):
        VectorEnv(0)
    with pytest.raises(TypeError):
        VectorEnv(2, seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        vector.legal_actions(3)
    assert "seat 0: 3" in repr(obs)
