"""The shared-memory buffers that carry experience from the actors to the learner.

DouZero's arrangement: for each position, ``num_buffers`` slots of ``T`` (the unroll length)
decisions each, in shared memory. An actor takes a free slot's index from the position's
free queue, fills the slot and puts the index on the full queue; a learner thread takes
``batch_size`` indices from the full queue, stacks those slots into a batch and gives the
indices back to the free queue. The keys and their shapes and types are DouZero's
(``done``, ``episode_return``, ``target``, ``obs_x_no_action``, ``obs_action``, ``obs_z``).

Here each key is one tensor of shape ``(num_buffers, T, ...)`` where DouZero keeps a list of
``num_buffers`` tensors: a batch is then one ``index_select`` rather than a stack of copies.
"""

from __future__ import annotations

import threading
from typing import Any, Protocol

import torch

from ddz.learn.models import HISTORY_WIDTH, POSITIONS, X_WIDTH

__all__ = ["ACTION_WIDTH", "KEYS", "Buffers", "IndexQueue", "create_buffers", "get_batch"]

ACTION_WIDTH = 54
"""The width of an action's encoding: the last 54 values of an ``x`` row."""

KEYS = ("done", "episode_return", "target", "obs_x_no_action", "obs_action", "obs_z")
"""DouZero's buffer keys, in its order."""

Buffers = dict[str, dict[str, torch.Tensor]]
"""``buffers[position][key]``: a shared tensor of shape ``(num_buffers, T, ...)``."""


class IndexQueue(Protocol):
    """What a free or full queue does (``multiprocessing``'s ``SimpleQueue``)."""

    def get(self) -> Any: ...

    def put(self, obj: Any, /) -> None: ...


def _specs(position: str, unroll_length: int) -> dict[str, tuple[tuple[int, ...], torch.dtype]]:
    t = unroll_length
    x_no_action = X_WIDTH[position] - ACTION_WIDTH
    return {
        "done": ((t,), torch.bool),
        "episode_return": ((t,), torch.float32),
        "target": ((t,), torch.float32),
        "obs_x_no_action": ((t, x_no_action), torch.int8),
        "obs_action": ((t, ACTION_WIDTH), torch.int8),
        "obs_z": ((t, 5, HISTORY_WIDTH), torch.int8),
    }


def create_buffers(num_buffers: int, unroll_length: int) -> Buffers:
    """Zeroed shared-memory buffers for every position (on the CPU, where actors write)."""
    buffers: Buffers = {}
    for position in POSITIONS:
        buffers[position] = {
            key: torch.zeros((num_buffers, *shape), dtype=dtype).share_memory_()  # type: ignore[no-untyped-call]
            for key, (shape, dtype) in _specs(position, unroll_length).items()
        }
    return buffers


def get_batch(
    free_queue: IndexQueue,
    full_queue: IndexQueue,
    buffers: dict[str, torch.Tensor],
    batch_size: int,
    lock: threading.Lock,
) -> dict[str, torch.Tensor] | None:
    """A batch of one position: ``batch_size`` full slots, each key shaped ``(T, B, ...)`` as
    DouZero's ``get_batch`` makes it; the slots go back to the free queue. None when the full
    queue gave None (the trainer is stopping).

    The lock keeps the indices of one batch together when several threads take batches.
    """
    with lock:
        indices = [full_queue.get() for _ in range(batch_size)]
    if any(index is None for index in indices):
        return None
    chosen = torch.tensor(indices, dtype=torch.int64)
    batch = {key: buffers[key].index_select(0, chosen).transpose(0, 1) for key in KEYS}
    for index in indices:
        free_queue.put(index)
    return batch
