"""An actor: ``n`` DouZero games stepped in lockstep, one forward pass a position a step.

DouZero's actor plays one game and runs its position's model once per decision (on every
legal action of that decision). This actor plays ``n`` games (``VectorEnv``) and, at each
step, runs each position's model once on the legal actions of every table where that
position is to act, in the compact form (``VectorEnv.observe_compact`` and
``compact_values``: the LSTM and the state's share of the first layer once per table, the
action's 54 columns per row); a table whose only legal action is a pass skips the network.
Each table's decision is then DouZero's: the best action, or with probability
``exp_epsilon`` a uniformly random legal one.

What it records is DouZero's too: for every decision of a position, ``x_no_action``, the
chosen action's 54 values and ``z``; when a game ends, each position's decisions of that
game get the game's return as their target (the landlord's reward, negated for the
farmers), ``done`` on their last decision and the return there as ``episode_return``. Each
table's decisions wait in a per-table staging area until its game ends, then join the
position's queue of finished decisions in one piece (DouZero's buffers hold whole games
one after another); every ``T`` of them fill one shared buffer slot.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
import torch

from ddz.compat.douzero import CompactBatch, VectorEnv
from ddz.learn.buffers import ACTION_WIDTH, IndexQueue
from ddz.learn.flags import TrainFlags
from ddz.learn.models import HISTORY_WIDTH, POSITIONS, X_WIDTH, DeepMonteCarloNet, group_values

__all__ = ["ENV_TABLE_BYTES", "PHASES", "LockstepActor", "act", "actor_bytes", "best_rows"]

MAX_DECISIONS = 64
"""The most decisions one position makes in one game. In any three decisions in a row one
plays cards (after two passes the next player leads), and at most 54 cards are played, so a
game has at most 164 decisions and a position at most 55."""

ENV_TABLE_BYTES = 448 * 1024
"""The memory one table of the actor's environment holds (its game, and its share of the
arrays :meth:`~ddz.compat.douzero.VectorEnv.observe_compact` writes): 416-427 KB measured
with ``tracemalloc`` at 64 and 512 tables; :func:`actor_bytes` counts it."""


def actor_bytes(tables: int, unroll_length: int) -> int:
    """The memory a :class:`LockstepActor` of ``tables`` tables holds: its staging areas
    (every table's ``MAX_DECISIONS`` decisions of each position: ``x_no_action``, the
    action and ``z``, int8), its finished decisions (room for a slot short of full and
    every table finishing at once, with ``done``, the return and the target), and the
    environment's :data:`ENV_TABLE_BYTES` a table. The trainer refuses actors whose tables
    would not fit in the machine's memory."""
    total = tables * ENV_TABLE_BYTES
    for p in POSITIONS:
        row = X_WIDTH[p] + 5 * HISTORY_WIDTH  # x_no_action and the action make X_WIDTH
        total += tables * MAX_DECISIONS * row
        total += (unroll_length + tables * MAX_DECISIONS) * (row + 1 + 4 + 4)
    return total


PHASES = ("observe", "forward", "record", "step", "finish", "buffers")
"""Where an actor's time goes, in the order of its timing counters: ``observe`` (the
environment writes the features), ``forward`` (the models, and choosing), ``record``
(copying each decision's features to its table's staging area), ``step`` (the environment
plays the actions and deals finished tables), ``finish`` (finished games' decisions get
their targets and join the position's queue) and ``buffers`` (waiting for a free slot and
writing full slots to shared memory)."""


def best_rows(
    values: npt.NDArray[np.float32], offsets: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64]:
    """The first row of greatest value in each segment ``offsets[j]:offsets[j + 1]``
    (every segment non-empty), as DouZero's ``argmax`` over one decision's rows."""
    values = np.nan_to_num(values, nan=-np.inf)  # a diverged model still picks an action
    counts = np.diff(offsets)
    best = np.maximum.reduceat(values, offsets[:-1])
    candidates = np.flatnonzero(values == np.repeat(best, counts))
    slots = np.repeat(np.arange(counts.size), counts)[candidates]
    first = np.ones(candidates.size, dtype=bool)
    first[1:] = slots[1:] != slots[:-1]
    return candidates[first]


class _Finished:
    """One position's finished decisions, oldest first, waiting to fill buffer slots."""

    def __init__(self, x_no_action: int, capacity: int) -> None:
        self.size = 0
        self.done = np.zeros(capacity, dtype=bool)
        self.episode_return = np.zeros(capacity, dtype=np.float32)
        self.target = np.zeros(capacity, dtype=np.float32)
        self.obs_x_no_action = np.zeros((capacity, x_no_action), dtype=np.int8)
        self.obs_action = np.zeros((capacity, ACTION_WIDTH), dtype=np.int8)
        self.obs_z = np.zeros((capacity, 5, HISTORY_WIDTH), dtype=np.int8)

    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        return {
            "done": self.done,
            "episode_return": self.episode_return,
            "target": self.target,
            "obs_x_no_action": self.obs_x_no_action,
            "obs_action": self.obs_action,
            "obs_z": self.obs_z,
        }

    def drop_front(self, count: int) -> None:
        """Forget the oldest ``count`` decisions (they went to a buffer slot)."""
        rest = self.size - count
        for array in self.arrays().values():
            array[:rest] = array[count : self.size]
        self.size = rest


class LockstepActor:
    """``n`` tables stepped together; :meth:`step` plays one decision at every table.

    ``models`` are the three positions' networks (the learner's shared copies in a
    training run); finished decisions collect in :attr:`finished` until :meth:`flush`
    writes them to buffer slots. ``timing[k]`` adds up the seconds spent in
    ``PHASES[k]``; :attr:`decisions` counts the decisions played.
    """

    def __init__(
        self,
        n: int,
        models: Mapping[str, DeepMonteCarloNet],
        *,
        objective: str = "adp",
        exp_epsilon: float = 0.01,
        unroll_length: int = 100,
        seed: int | None = None,
    ) -> None:
        self.env = VectorEnv(n, objective, seed=seed)
        self.models = models
        self.exp_epsilon = exp_epsilon
        self.unroll_length = unroll_length
        self.rng = np.random.default_rng(seed)
        self.timing = np.zeros(len(PHASES))
        self.decisions = 0
        self.episodes = 0
        widths = {p: X_WIDTH[p] - ACTION_WIDTH for p in POSITIONS}
        # each table's decisions of its current game, per position, until the game ends
        self._count = {p: np.zeros(n, dtype=np.int64) for p in POSITIONS}
        self._x_no_action = {
            p: np.zeros((n, MAX_DECISIONS, widths[p]), dtype=np.int8) for p in POSITIONS
        }
        self._action = {
            p: np.zeros((n, MAX_DECISIONS, ACTION_WIDTH), dtype=np.int8) for p in POSITIONS
        }
        self._z = {
            p: np.zeros((n, MAX_DECISIONS, 5, HISTORY_WIDTH), dtype=np.int8) for p in POSITIONS
        }
        # room for a slot's worth short of full plus every table finishing at once
        capacity = unroll_length + n * MAX_DECISIONS
        self.finished = {p: _Finished(widths[p], capacity) for p in POSITIONS}
        self.env.reset()

    def step(self) -> None:
        """One decision at every table: observe, choose, record, play, finish games."""
        clock = time.perf_counter
        timing = self.timing
        t0 = clock()
        obs = self.env.observe_compact()
        t1 = clock()
        actions = np.empty(self.env.n, dtype=np.int64)
        chosen_rows: list[npt.NDArray[np.int64] | None] = []
        for group in obs.groups:
            if group.tables.size == 0:
                chosen_rows.append(None)
                continue
            rows = self._choose(group)
            actions[group.tables] = rows - group.offsets[:-1]
            chosen_rows.append(rows)
        t2 = clock()
        for group, chosen in zip(obs.groups, chosen_rows, strict=True):
            if chosen is None:
                continue
            p = group.position
            tables = group.tables
            count = self._count[p]
            at = count[tables]
            if at.max() >= MAX_DECISIONS:  # cannot happen in a legal game (see MAX_DECISIONS)
                raise RuntimeError(f"a game gave {p} more than {MAX_DECISIONS} decisions")
            self._x_no_action[p][tables, at] = group.x_no_action
            self._action[p][tables, at] = group.action_rows[chosen]
            self._z[p][tables, at] = group.z
            count[tables] = at + 1
        t3 = clock()
        rewards, dones = self.env.step(actions)
        t4 = clock()
        self.decisions += self.env.n
        for table in np.flatnonzero(dones).tolist():
            self._finish(table, float(rewards[table]))
        t5 = clock()
        timing[0] += t1 - t0
        timing[1] += t2 - t1
        timing[2] += t3 - t2
        timing[3] += t4 - t3
        timing[4] += t5 - t4

    def _choose(self, group: CompactBatch) -> npt.NDArray[np.int64]:
        """The chosen row of each of ``group``'s tables: DouZero's choice (the best action,
        or a random one with probability ``exp_epsilon``). A table with one legal action
        (a pass it cannot refuse: about a third of all decisions) needs no network, so
        only the others go through the model, in the compact form (the history and the
        state's share of the first layer once a table, the action's 54 columns a row)."""
        offsets = group.offsets
        counts = np.diff(offsets)
        rows = offsets[:-1].copy()
        open_ = np.flatnonzero(counts > 1)
        if open_.size == 0:
            return rows
        with torch.inference_mode():
            values, picked = group_values(
                self.models[group.position], group, None if open_.size == counts.size else open_
            )
        open_counts = counts[open_]
        open_offsets = np.zeros(open_.size + 1, dtype=np.int64)
        np.cumsum(open_counts, out=open_offsets[1:])
        best = best_rows(values, open_offsets)
        if self.exp_epsilon > 0.0:
            explore = self.rng.random(best.size) < self.exp_epsilon
            if explore.any():
                counts_explored = open_counts[explore]
                picks = (self.rng.random(counts_explored.size) * counts_explored).astype(np.int64)
                best[explore] = open_offsets[:-1][explore] + picks
        rows[open_] = picked[best]
        return rows

    def _finish(self, table: int, reward: float) -> None:
        """Table ``table``'s game ended with the landlord's ``reward``: its decisions get
        their targets and join each position's finished decisions."""
        self.episodes += 1
        for p in POSITIONS:
            k = int(self._count[p][table])
            if k == 0:
                continue
            ret = reward if p == "landlord" else -reward
            out = self.finished[p]
            at = slice(out.size, out.size + k)
            out.done[at] = False
            out.done[out.size + k - 1] = True
            out.episode_return[at] = 0.0
            out.episode_return[out.size + k - 1] = ret
            out.target[at] = ret
            out.obs_x_no_action[at] = self._x_no_action[p][table, :k]
            out.obs_action[at] = self._action[p][table, :k]
            out.obs_z[at] = self._z[p][table, :k]
            out.size += k
            self._count[p][table] = 0

    def flush(
        self,
        free_queue: Mapping[str, IndexQueue],
        full_queue: Mapping[str, IndexQueue],
        buffers: Mapping[str, Mapping[str, npt.NDArray[Any]]],
    ) -> bool:
        """Fill a buffer slot for every ``T`` finished decisions of a position (DouZero's
        free and full queues); False when a free queue gave None, the signal to stop."""
        start = time.perf_counter()
        t = self.unroll_length
        try:
            for p in POSITIONS:
                out = self.finished[p]
                while out.size >= t:
                    index = free_queue[p].get()
                    if index is None:
                        return False
                    for key, array in out.arrays().items():
                        buffers[p][key][index] = array[:t]
                    full_queue[p].put(index)
                    out.drop_front(t)
            return True
        finally:
            self.timing[5] += time.perf_counter() - start


def act(
    i: int,
    free_queue: Mapping[str, IndexQueue],
    full_queue: Mapping[str, IndexQueue],
    models: Mapping[str, DeepMonteCarloNet],
    buffers: Mapping[str, Mapping[str, torch.Tensor]],
    flags: TrainFlags,
    counters: torch.Tensor,
    stop: Any = None,
) -> None:
    """An actor process's loop: step the tables, fill slots, until ``stop`` (an event) is
    set or a free queue gives None.

    ``counters[i]`` (shared) receives the decisions played, the games finished and the
    seconds per phase (:data:`PHASES`), for the trainer's report.
    """
    torch.set_num_threads(1)  # one core an actor: the actors and the learner share them
    try:
        seed = None if flags.seed is None else flags.seed + i
        actor = LockstepActor(
            flags.tables_per_actor,
            models,
            objective=flags.objective,
            exp_epsilon=flags.exp_epsilon,
            unroll_length=flags.unroll_length,
            seed=seed,
        )
        views = {p: {k: v.numpy() for k, v in buffers[p].items()} for p in POSITIONS}
        mine = counters[i].numpy()
        while stop is None or not stop.is_set():
            actor.step()
            running = actor.flush(free_queue, full_queue, views)
            mine[0] = actor.decisions
            mine[1] = actor.episodes
            mine[2:] = actor.timing
            if not running:
                return
    except KeyboardInterrupt:
        return  # the trainer saves and stops the actors; Ctrl-C reaches them too
