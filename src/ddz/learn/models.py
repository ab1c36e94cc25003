"""DouZero's networks, with DouZero's layer names, so that weights load both ways.

A position's model reads the last five moves (``z``: 5 x 162, through an LSTM) and a row of
features for the position and one legal action (``x``: 373 values for the landlord, 484 for
a farmer), and gives that action's value. The parameter names (``lstm.*``, ``dense1.*`` to
``dense6.*``) are DouZero 1.1.0's ``LandlordLstmModel``/``FarmerLstmModel``'s, so a state
dict saved by either side loads into the other's model unchanged.

Every legal action of a decision shares the decision's ``z``: DouZero repeats it per row
(``z_batch``) and runs the LSTM once per row. :meth:`DeepMonteCarloNet.grouped_values` runs it
once per decision and repeats its output instead, which gives the same values (the LSTM is a
function of ``z`` alone) for a fraction of the work. :meth:`DeepMonteCarloNet.compact_values`
goes one step further for ``ddz.compat.douzero.VectorEnv.observe_compact``'s form: a row is
the decision's state and the action's 54 columns, and the first dense layer's share of the
state is also computed once per decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

if TYPE_CHECKING:
    from ddz.compat.douzero import CompactBatch

__all__ = [
    "HISTORY_WIDTH",
    "POSITIONS",
    "X_WIDTH",
    "DeepMonteCarloNet",
    "group_values",
    "new_models",
]

POSITIONS = ("landlord", "landlord_up", "landlord_down")
"""DouZero's three positions, one model each."""

X_WIDTH = {"landlord": 373, "landlord_up": 484, "landlord_down": 484}
"""The width of a position's action rows (``x_batch``)."""

HISTORY_WIDTH = 162
"""The width of one move of the history (``z`` is 5 of them)."""

_LSTM_WIDTH = 128
_HIDDEN_WIDTH = 512
_ACTION_WIDTH = 54  # the last columns of a row of x: the action's cards


class DeepMonteCarloNet(nn.Module):
    """One position's value network: an LSTM over the history, then six dense layers."""

    def __init__(self, x_width: int) -> None:
        super().__init__()
        self.x_width = x_width
        self.lstm = nn.LSTM(HISTORY_WIDTH, _LSTM_WIDTH, batch_first=True)
        self.dense1 = nn.Linear(x_width + _LSTM_WIDTH, _HIDDEN_WIDTH)
        self.dense2 = nn.Linear(_HIDDEN_WIDTH, _HIDDEN_WIDTH)
        self.dense3 = nn.Linear(_HIDDEN_WIDTH, _HIDDEN_WIDTH)
        self.dense4 = nn.Linear(_HIDDEN_WIDTH, _HIDDEN_WIDTH)
        self.dense5 = nn.Linear(_HIDDEN_WIDTH, _HIDDEN_WIDTH)
        self.dense6 = nn.Linear(_HIDDEN_WIDTH, 1)

    def history(self, z: torch.Tensor) -> torch.Tensor:
        """The LSTM's last output for each history of ``z`` (shape ``(k, 5, 162)``)."""
        output: torch.Tensor = self.lstm(z)[0]
        return output[:, -1, :]

    def head(self, history: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        """The values (shape ``(rows, 1)``) of rows ``x`` given each row's LSTM output."""
        h = torch.cat([history, x], dim=-1)
        for layer in (self.dense1, self.dense2, self.dense3, self.dense4, self.dense5):
            h = torch.relu(layer(h))
        values: torch.Tensor = self.dense6(h)
        return values

    def forward(self, z: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        """DouZero's form: one history per row (``z_batch``), values of shape ``(rows, 1)``."""
        return self.head(self.history(z), x)

    def grouped_values(
        self, z: torch.Tensor, x: torch.Tensor, row_decision: torch.Tensor
    ) -> torch.Tensor:
        """Values of rows ``x`` where row ``r`` belongs to decision ``row_decision[r]``.

        ``z`` holds one history per decision (shape ``(decisions, 5, 162)``); the LSTM runs
        once per decision. Equal to ``forward(z[row_decision], x)``.
        """
        return self.head(self.history(z).index_select(0, row_decision), x)

    def compact_values(
        self,
        z: torch.Tensor,
        x_state: torch.Tensor,
        action_rows: torch.Tensor,
        row_decision: torch.Tensor,
    ) -> torch.Tensor:
        """Values of the rows of the compact form, where row ``r`` is the action
        ``action_rows[r]`` (54 values) of decision ``row_decision[r]``.

        ``z`` (``(decisions, 5, 162)``) and ``x_state`` (``(decisions, x_width - 54)``: the
        decision's ``x_no_action``) hold one entry per decision; ``x`` of row ``r`` would
        be ``cat(x_state[row_decision[r]], action_rows[r])``. The first layer is linear in
        its input, so it splits into the history's, the state's and the action's columns:
        the LSTM and the state's share run once per decision, only the action's per row.
        Equal to ``forward(z[row_decision], cat(x_state[row_decision], action_rows))`` to
        float rounding. Integer inputs (the form's int8 arrays, as tensors) are taken as
        they are and converted to the weights' type.
        """
        if x_state.shape[-1] + _ACTION_WIDTH != self.x_width or action_rows.shape[-1] != (
            _ACTION_WIDTH
        ):
            raise ValueError(
                f"this model takes {self.x_width - _ACTION_WIDTH} state and {_ACTION_WIDTH} "
                f"action columns, not {x_state.shape[-1]} and {action_rows.shape[-1]}"
            )
        weight = self.dense1.weight
        state_end = _LSTM_WIDTH + x_state.shape[1]
        per_decision = torch.addmm(
            self.dense1.bias,
            torch.cat([self.history(z.to(weight.dtype)), x_state.to(weight.dtype)], dim=-1),
            weight[:, :state_end].t(),
        )
        h = per_decision.index_select(0, row_decision) + action_rows.to(weight.dtype).matmul(
            weight[:, state_end:].t()
        )
        # in place: the same values without a second (rows, 512) array a layer
        h = torch.relu_(h)
        for layer in (self.dense2, self.dense3, self.dense4, self.dense5):
            h = torch.relu_(layer(h))
        values: torch.Tensor = self.dense6(h)
        return values


def new_models(device: str | torch.device = "cpu") -> dict[str, DeepMonteCarloNet]:
    """A fresh model for each of DouZero's positions (random weights, torch's initialisation)."""
    return {position: DeepMonteCarloNet(X_WIDTH[position]).to(device) for position in POSITIONS}


def group_values(
    model: DeepMonteCarloNet,
    group: CompactBatch,
    decisions: npt.NDArray[np.int64] | None = None,
    device: str | torch.device = "cpu",
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]:
    """``model``'s values of the rows of a compact group's ``decisions`` (indexes of
    ``group.tables``, ascending; None: every one) in one forward pass of
    :meth:`DeepMonteCarloNet.compact_values`, and the group's indexes of those rows: the
    values of decision ``decisions[j]`` follow those of ``decisions[j - 1]``, in the order
    of its rows. The callers leave out the decisions with one legal action, which DouZero's
    agent plays without asking its network."""
    z, x_state, row_slot = group.z, group.x_no_action, group.row_slot
    action_rows = group.action_rows
    if decisions is None:
        rows = np.arange(row_slot.size)
    else:
        wanted = np.zeros(group.tables.size, dtype=bool)
        wanted[decisions] = True
        rows = np.flatnonzero(wanted[row_slot])
        renumber = np.cumsum(wanted) - 1
        z, x_state = z[decisions], x_state[decisions]
        action_rows, row_slot = action_rows[rows], renumber[row_slot[rows]]
    values = model.compact_values(
        torch.from_numpy(z).to(device),
        torch.from_numpy(x_state).to(device),
        torch.from_numpy(action_rows).to(device),
        torch.from_numpy(row_slot).to(device),
    )
    flat: npt.NDArray[np.float32] = values[:, 0].cpu().numpy()
    return flat, rows
