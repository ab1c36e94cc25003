"""VectorEnv.observe_compact against observe() and against DouZero 1.1.0's own get_obs.

The compact form keeps each table's state (x_no_action, z) once and each legal action's 54
columns once; DouZero's x_batch row is the state followed by the action's columns. These
tests rebuild x_batch and z_batch from the compact form, the plain numpy way, and compare
them array for array with the full form at every lockstep step of random games (thousands
of positions), and with DouZero's get_obs for the same games when DouZero is installed.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from ddz.compat.douzero import (
    POSITIONS,
    CompactBatch,
    CompactObservation,
    PositionBatch,
    VectorEnv,
    VectorObservation,
)
from tests.test_compat_douzero_vector import GAMES, assert_same_obs, step_alongside


def rebuilt(group: CompactBatch) -> tuple[Any, Any]:
    """x_batch and z_batch from the parts, spelled out (not through the class's helpers)."""
    x_batch = np.hstack([group.x_no_action[group.row_slot], group.action_rows])
    return x_batch.astype(np.float32), group.z[group.row_slot].astype(np.float32)


def assert_compact_equals_full(compact: CompactObservation, full: VectorObservation) -> int:
    """Every array of the compact form equal to the full form's; returns the rows seen."""
    for name in ("position", "legal_count", "row_start"):
        assert np.array_equal(getattr(compact, name), getattr(full, name)), name
    rows = 0
    for index, (mine, theirs) in enumerate(zip(compact.groups, full.groups, strict=True)):
        assert isinstance(mine, CompactBatch) and isinstance(theirs, PositionBatch)
        assert mine.position == theirs.position == POSITIONS[index]
        for name in ("tables", "offsets", "x_no_action", "z", "row_slot"):
            ours, expected = getattr(mine, name), getattr(theirs, name)
            assert (ours.dtype, ours.shape) == (expected.dtype, expected.shape), name
            assert np.array_equal(ours, expected), name
        assert mine.action_rows.dtype == np.int8
        assert mine.action_rows.shape == (theirs.x_batch.shape[0], 54)
        x_batch, z_batch = rebuilt(mine)
        assert x_batch.dtype == np.float32 and np.array_equal(x_batch, theirs.x_batch)
        assert theirs.z_batch is not None and np.array_equal(z_batch, theirs.z_batch)
        assert np.array_equal(mine.x_batch(), theirs.x_batch)
        assert mine.x_batch().dtype == np.float32
        assert np.array_equal(mine.z_batch(), theirs.z_batch)
        rows += x_batch.shape[0]
    return rows


def test_compact_form_rebuilds_the_full_form_over_thousands_of_positions() -> None:
    rng = random.Random(41)
    vector = VectorEnv(32, "adp", seed=2027)
    vector.reset()
    steps = max(20, GAMES)
    rows = 0
    for _ in range(steps):
        full = vector.observe()
        # the full form first: observe_compact must not disturb what observe handed out
        kept = [(g.x_batch.copy(), g.x_no_action.copy(), g.tables.copy()) for g in full.groups]
        compact = vector.observe_compact()
        for group, (x_batch, x_no_action, tables) in zip(full.groups, kept, strict=True):
            assert np.array_equal(group.x_batch, x_batch)
            assert np.array_equal(group.x_no_action, x_no_action)
            assert np.array_equal(group.tables, tables)
        rows += assert_compact_equals_full(compact, full)
        vector.step([rng.randrange(int(count)) for count in compact.legal_count])
    assert rows > 32 * steps  # leads have many rows


def test_compact_form_equals_douzero_get_obs() -> None:
    env_module = pytest.importorskip(
        "douzero.env.env",
        reason="the DouZero comparison needs douzero==1.1.0 (pip install --no-deps "
        "douzero==1.1.0; .ci/run installs it)",
    )
    n = 12
    np.random.seed(43)
    vector = VectorEnv(n, "wp", seed=None)
    vector.reset()
    np.random.seed(43)
    theirs = [env_module.Env("wp") for _ in range(n)]
    expected = [env.reset() for env in theirs]  # the same global draws, in table order
    rng = random.Random(44)
    positions = finished = 0
    for _ in range(max(40, GAMES + 40)):
        compact = vector.observe_compact()
        for i in range(n):
            group = compact.groups[int(compact.position[i])]
            (slot,) = np.flatnonzero(group.tables == i)
            low, high = int(group.offsets[slot]), int(group.offsets[slot + 1])
            x_batch, z_batch = rebuilt(group)
            mine = {
                "position": group.position,
                "x_batch": x_batch[low:high],
                "z_batch": z_batch[low:high],
                "legal_actions": vector.legal_actions(i),
                "x_no_action": group.x_no_action[slot],
                "z": group.z[slot],
            }
            assert_same_obs(expected[i], mine)
            positions += 1
        actions = [rng.randrange(int(c)) for c in compact.legal_count]
        finished += step_alongside(vector, theirs, expected, actions, env_module)
    assert positions >= 12 * 40 and finished > 0


def test_compact_buffers_are_reused_and_grow() -> None:
    vector = VectorEnv(8, seed=3)
    vector.reset()
    first = vector.observe_compact()
    again = vector.observe_compact()
    assert np.shares_memory(first["landlord"].action_rows, again["landlord"].action_rows)
    assert "landlord: 8" in repr(again)
    assert again["landlord"] is again.groups[0]
    # a lead of every table at once (8 deals) needs more rows than the first buffer held
    assert again["landlord"].action_rows.shape[0] == int(again.legal_count.sum()) > 1


def test_compact_needs_a_deal() -> None:
    vector = VectorEnv(2, seed=1)
    with pytest.raises(ValueError, match="reset"):
        vector.observe_compact()
    vector.reset()
    core = vector._core
    with pytest.raises(ValueError, match="no game"):
        VectorEnv(2)._core.observe_compact()
    position, count, start, groups = core.observe_compact()
    assert position.tolist() == [0, 0] and len(groups) == 3
    assert start.tolist() == [0, int(count[0])]  # both tables in the landlord's group
