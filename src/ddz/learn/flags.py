"""The trainer's settings: DouZero's flags, under DouZero's names, and the lockstep tables."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

__all__ = ["OBJECTIVES", "TrainFlags"]

OBJECTIVES = ("adp", "wp", "logadp")
"""DouZero's rewards: the score (ADP), the win (WP, +1/-1) or the score's log (logadp)."""


@dataclass(frozen=True)
class TrainFlags:
    """One training run's settings; the defaults are DouZero 1.1.0's (``douzero.dmc``'s
    ``arguments.py``) but for the actors, which step ``tables_per_actor`` games each."""

    xpid: str = "douzero"
    savedir: str = "douzero_checkpoints"
    save_interval: float = 30.0
    """Minutes between checkpoints (one more is written when training ends)."""
    objective: str = "adp"
    num_actors: int = 5
    tables_per_actor: int = 256
    """The games an actor steps in lockstep: one forward pass a position a step (256: an
    actor's decisions a CPU second rise from 64 tables to 256, then level off)."""
    training_device: str = "cpu"
    """Where the learner runs: ``cpu`` or ``cuda:N`` (actors run on the CPU)."""
    load_model: bool = False
    disable_checkpoint: bool = False
    total_frames: int = 100_000_000_000
    exp_epsilon: float = 0.01
    batch_size: int = 32
    unroll_length: int = 100
    num_buffers: int = 50
    num_threads: int = 4
    """Learner threads per position."""
    max_grad_norm: float = 40.0
    learning_rate: float = 0.0001
    alpha: float = 0.99
    momentum: float = 0.0
    epsilon: float = 1e-5
    log_interval: float = 5.0
    """Seconds between progress lines (DouZero's trainer: 5)."""
    seed: int | None = None
    """Deals and exploration from this seed (actor ``i`` uses ``seed + i``); None: fresh."""
    ray: str | None = None
    """The address of a Ray cluster to run the actors on (``auto``, ``local``,
    ``ray://host:10001``); None: local actor processes."""

    def __post_init__(self) -> None:
        if self.objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {OBJECTIVES}, not {self.objective!r}")
        for name in ("num_actors", "tables_per_actor", "batch_size", "unroll_length"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be 1 or more, not {getattr(self, name)}")
        if self.num_threads < 1:
            raise ValueError(f"num_threads must be 1 or more, not {self.num_threads}")
        if self.num_buffers < self.batch_size:
            # a batch waits for batch_size full slots: fewer slots than that never fill one
            raise ValueError(
                f"num_buffers ({self.num_buffers}) must be at least batch_size ({self.batch_size})"
            )
        if not 0.0 <= self.exp_epsilon <= 1.0:
            raise ValueError(f"exp_epsilon must be 0 to 1, not {self.exp_epsilon}")
        if self.training_device != "cpu" and not self.training_device.startswith("cuda:"):
            raise ValueError(f"device must be cpu or cuda:N, not {self.training_device!r}")

    def as_dict(self) -> dict[str, Any]:
        """The flags as a plain dict (what a checkpoint keeps under ``flags``)."""
        return dataclasses.asdict(self)
