"""DeepMonteCarloNet.compact_values on VectorEnv's compact form against forward() on the
rows rebuilt from it (DouZero's form): the same values to float rounding."""

from __future__ import annotations

import random

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from ddz.compat.douzero import VectorEnv  # noqa: E402
from ddz.learn.models import POSITIONS, new_models  # noqa: E402


def test_compact_values_equal_forward_on_rebuilt_rows() -> None:
    torch.manual_seed(3)
    models = new_models()
    vector = VectorEnv(24, seed=11)
    vector.reset()
    rng = random.Random(12)
    checked = {position: 0 for position in POSITIONS}
    with torch.no_grad():
        for _ in range(6):
            compact = vector.observe_compact()
            for group in compact.groups:
                if group.tables.size == 0:
                    continue
                model = models[group.position]
                z = torch.from_numpy(group.z)  # int8, as the form gives it
                x_state = torch.from_numpy(group.x_no_action)
                actions = torch.from_numpy(group.action_rows)
                row_decision = torch.from_numpy(group.row_slot)
                values = model.compact_values(z, x_state, actions, row_decision)
                x_batch = torch.from_numpy(group.x_batch())
                z_batch = torch.from_numpy(group.z_batch())
                expected = model(z_batch, x_batch)
                assert values.shape == expected.shape == (group.row_slot.size, 1)
                assert torch.allclose(values, expected, rtol=1e-4, atol=1e-5)
                checked[group.position] += group.row_slot.size
            vector.step(np.array([rng.randrange(int(c)) for c in compact.legal_count]))
    assert min(checked.values()) > 0


def test_compact_values_refuse_the_wrong_widths() -> None:
    model = new_models()["landlord"]
    z = torch.zeros(2, 5, 162)
    with pytest.raises(ValueError, match="319 state and 54 action"):
        model.compact_values(z, torch.zeros(2, 430), torch.zeros(3, 54), torch.zeros(3))
    with pytest.raises(ValueError, match="319 state and 54 action"):
        model.compact_values(z, torch.zeros(2, 319), torch.zeros(3, 53), torch.zeros(3))
