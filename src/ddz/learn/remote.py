"""Actors on a Ray cluster (``python -m ddz train --ray ADDRESS``).

Local actors write into shared memory; Ray actors may run on other machines, so each one
(:class:`RemoteActor`, a ``LockstepActor`` in a Ray actor process) plays until it has at
least one slot (``T`` finished decisions) of some position and returns its full slots. A
feeder thread in the trainer's process (:func:`feed`) keeps one such call in flight per
actor, writes the slots it gets into the local buffers through the same free and full
queues the local actors use, and sends the learner's latest weights with the next call (at
most once a second an actor: the three state dicts are about 18 MB). The learner and its threads are
unchanged. Every machine of the cluster needs ddz with its ``learn`` extra installed.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
import torch

from ddz.learn.actor import LockstepActor
from ddz.learn.buffers import Buffers, IndexQueue
from ddz.learn.flags import TrainFlags
from ddz.learn.models import POSITIONS, new_models

__all__ = ["WEIGHTS_INTERVAL", "RemoteActor", "feed"]

WEIGHTS_INTERVAL = 1.0
"""The least seconds between two sendings of the weights to one actor."""

Slots = dict[str, list[dict[str, npt.NDArray[Any]]]]
"""Full slots of each position: a dict of DouZero's buffer keys, ``T`` decisions each."""


class RemoteActor:
    """A lockstep actor in a Ray actor process; :meth:`play` returns full slots."""

    def __init__(self, flags: TrainFlags, index: int) -> None:
        torch.set_num_threads(1)
        self.models = new_models("cpu")
        for model in self.models.values():
            model.eval()
        seed = None if flags.seed is None else flags.seed + index
        self.actor = LockstepActor(
            flags.tables_per_actor,
            self.models,
            objective=flags.objective,
            exp_epsilon=flags.exp_epsilon,
            unroll_length=flags.unroll_length,
            seed=seed,
        )

    def play(
        self, weights: Mapping[str, Mapping[str, torch.Tensor]] | None
    ) -> tuple[Slots, npt.NDArray[np.float64]]:
        """Load ``weights`` (if given), step until a slot is full; the full slots and the
        counters (decisions, games, seconds per phase) so far."""
        if weights is not None:
            for p in POSITIONS:
                self.models[p].load_state_dict(weights[p])
        actor = self.actor
        t = actor.unroll_length
        while all(actor.finished[p].size < t for p in POSITIONS):
            actor.step()
        slots: Slots = {p: [] for p in POSITIONS}
        for p in POSITIONS:
            out = actor.finished[p]
            while out.size >= t:
                slots[p].append({k: a[:t].copy() for k, a in out.arrays().items()})
                out.drop_front(t)
        counters = np.array([actor.decisions, actor.episodes, *actor.timing], dtype=np.float64)
        return slots, counters


def feed(
    flags: TrainFlags,
    weights: Callable[[], dict[str, dict[str, torch.Tensor]]],
    free_queue: Mapping[str, IndexQueue],
    full_queue: Mapping[str, IndexQueue],
    buffers: Buffers,
    counters: torch.Tensor,
    stop: threading.Event,
) -> None:
    """The feeder thread: start ``num_actors`` Ray actors, fill buffer slots with what they
    return until ``stop`` is set or a free queue gives None; then end the actors.

    ``weights()`` gives the learner's current weights (on the CPU)."""
    import ray  # type: ignore[import-not-found, unused-ignore]

    # Any: Ray's stubs, where installed, do not type a class turned into an actor
    remote: Any = ray.remote(num_cpus=1)(RemoteActor)
    actors: list[Any] = [remote.remote(flags, i) for i in range(flags.num_actors)]
    sent = [time.monotonic()] * len(actors)
    reference = ray.put(weights())
    pending = {actor.play.remote(reference): k for k, actor in enumerate(actors)}
    views = {p: {k: v.numpy() for k, v in buffers[p].items()} for p in POSITIONS}
    try:
        while not stop.is_set():
            ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.5)
            for ref in ready:
                k = pending.pop(ref)
                slots, count = ray.get(ref)
                counters.numpy()[k] = count
                for p in POSITIONS:
                    for slot in slots[p]:
                        index = free_queue[p].get()
                        if index is None:
                            return
                        for key, array in slot.items():
                            views[p][key][index] = array
                        full_queue[p].put(index)
                now = time.monotonic()
                update = None
                if now - sent[k] >= WEIGHTS_INTERVAL:
                    update, sent[k] = ray.put(weights()), now
                pending[actors[k].play.remote(update)] = k
    finally:
        for actor in actors:
            ray.kill(actor)
