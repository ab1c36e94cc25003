"""ddz.learn.models against DouZero's own networks: the same parameters, the same values."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
douzero = pytest.importorskip("douzero")

from ddz.learn.models import POSITIONS, X_WIDTH, new_models  # noqa: E402
from tests import douzero_networks  # noqa: E402

douzero_models = douzero_networks.douzero_models()


@pytest.mark.parametrize("position", POSITIONS)
def test_state_dicts_load_both_ways(position: str) -> None:
    ours = new_models()[position]
    theirs = douzero_models.model_dict[position]()
    assert {k: v.shape for k, v in ours.state_dict().items()} == {
        k: v.shape for k, v in theirs.state_dict().items()
    }
    theirs.load_state_dict(ours.state_dict())
    torch.manual_seed(0)
    z = torch.rand(7, 5, 162)
    x = torch.rand(7, X_WIDTH[position])
    expected = theirs.forward(z, x, return_value=True)["values"]
    assert torch.allclose(ours(z, x), expected)
    ours.load_state_dict(theirs.state_dict())


def test_grouped_values_equal_one_history_per_row() -> None:
    model = new_models()["landlord_up"]
    torch.manual_seed(1)
    z = torch.rand(3, 5, 162)
    row_decision = torch.tensor([0, 0, 1, 2, 2, 2])
    x = torch.rand(6, 484)
    assert torch.allclose(
        model.grouped_values(z, x, row_decision), model(z[row_decision], x), atol=1e-6
    )
