"""The learner's step, as DouZero's: a position's batch, the MSE to the returns, RMSprop.

A decision's target is the return of its game for the deciding position (Monte-Carlo, no
bootstrapping): the model of a position learns the value of an action as the mean final
reward it led to. The batch's rows are DouZero's (``x_no_action`` and the chosen action's
54 values side by side make the ``x`` row, ``z`` the history), the loss is the mean squared
error, gradients are clipped to ``max_grad_norm`` and the optimizer is RMSprop with
DouZero's settings; after each step the actors' copies of the model get the new weights.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Mapping

import torch
from torch import nn

from ddz.learn.flags import TrainFlags
from ddz.learn.models import POSITIONS, DeepMonteCarloNet

__all__ = ["STAT_KEYS", "Learner", "compute_loss", "create_optimizers"]

STAT_KEYS = tuple(f"{kind}_{p}" for p in POSITIONS for kind in ("mean_episode_return", "loss"))
"""DouZero's statistics, in its order: each position's mean episode return and last loss."""


def compute_loss(values: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """The mean squared error of the values (shape ``(rows, 1)``) to the targets."""
    return ((values.squeeze(-1) - targets) ** 2).mean()


def create_optimizers(
    flags: TrainFlags, models: Mapping[str, DeepMonteCarloNet]
) -> dict[str, torch.optim.RMSprop]:
    """One RMSprop a position, with DouZero's settings."""
    return {
        p: torch.optim.RMSprop(
            models[p].parameters(),
            lr=flags.learning_rate,
            momentum=flags.momentum,
            eps=flags.epsilon,
            alpha=flags.alpha,
        )
        for p in POSITIONS
    }


class Learner:
    """The three models being trained, their optimizers and DouZero's statistics.

    :meth:`learn` is what DouZero's learner threads call; a lock a position keeps two
    threads of one position from stepping its model at once.
    """

    def __init__(
        self,
        flags: TrainFlags,
        models: Mapping[str, DeepMonteCarloNet],
        actor_models: Mapping[str, DeepMonteCarloNet] | None = None,
    ) -> None:
        self.flags = flags
        self.device = torch.device(flags.training_device)
        self.models = models
        self.actor_models = actor_models
        self.optimizers = create_optimizers(flags, models)
        self.stats: dict[str, float] = dict.fromkeys(STAT_KEYS, 0)
        self.locks = {p: threading.Lock() for p in POSITIONS}
        # the means of the last 100 batches' finished games, as DouZero reports them
        self.returns: dict[str, deque[float]] = {p: deque(maxlen=100) for p in POSITIONS}

    def learn(self, position: str, batch: Mapping[str, torch.Tensor]) -> dict[str, float]:
        """One optimisation step of ``position``'s model on ``batch`` (keys as the buffers',
        shaped ``(T, B, ...)``); returns the position's statistics after it."""
        device = self.device
        x = torch.cat((batch["obs_x_no_action"], batch["obs_action"]), dim=2)
        x = torch.flatten(x.to(device), 0, 1).float()
        z = torch.flatten(batch["obs_z"].to(device), 0, 1).float()
        target = torch.flatten(batch["target"].to(device), 0, 1)
        finished = batch["episode_return"][batch["done"]]
        model = self.models[position]
        with self.locks[position]:
            if finished.numel():
                self.returns[position].append(float(finished.mean()))
            loss = compute_loss(model(z, x), target)
            optimizer = self.optimizers[position]
            optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            nn.utils.clip_grad_norm_(model.parameters(), self.flags.max_grad_norm)
            optimizer.step()
            if self.actor_models is not None:
                self.actor_models[position].load_state_dict(model.state_dict())
            recent = self.returns[position]
            stats = {
                f"mean_episode_return_{position}": sum(recent) / len(recent) if recent else 0.0,
                f"loss_{position}": float(loss.item()),
            }
            self.stats.update(stats)
            return stats
