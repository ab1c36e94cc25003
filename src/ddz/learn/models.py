"""DouZero's networks, with DouZero's layer names, so that weights load both ways.

A position's model reads the last five moves (``z``: 5 x 162, through an LSTM) and a row of
features for the position and one legal action (``x``: 373 values for the landlord, 484 for
a farmer), and gives that action's value. The parameter names (``lstm.*``, ``dense1.*`` to
``dense6.*``) are DouZero 1.1.0's ``LandlordLstmModel``/``FarmerLstmModel``'s, so a state
dict saved by either side loads into the other's model unchanged.

Every legal action of a decision shares the decision's ``z``: DouZero repeats it per row
(``z_batch``) and runs the LSTM once per row. :meth:`DeepMonteCarloNet.grouped_values` runs it
once per decision and repeats its output instead, which gives the same values (the LSTM is a
function of ``z`` alone) for a fraction of the work.
"""

from __future__ import annotations

import torch
from torch import nn

__all__ = ["HISTORY_WIDTH", "POSITIONS", "X_WIDTH", "DeepMonteCarloNet", "new_models"]

POSITIONS = ("landlord", "landlord_up", "landlord_down")
"""DouZero's three positions, one model each."""

X_WIDTH = {"landlord": 373, "landlord_up": 484, "landlord_down": 484}
"""The width of a position's action rows (``x_batch``)."""

HISTORY_WIDTH = 162
"""The width of one move of the history (``z`` is 5 of them)."""

_LSTM_WIDTH = 128
_HIDDEN_WIDTH = 512


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


def new_models(device: str | torch.device = "cpu") -> dict[str, DeepMonteCarloNet]:
    """A fresh model for each of DouZero's positions (random weights, torch's initialisation)."""
    return {position: DeepMonteCarloNet(X_WIDTH[position]).to(device) for position in POSITIONS}
