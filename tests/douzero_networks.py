"""DouZero 1.1.0's own networks, ``douzero/dmc/models.py``, for tests to compare ddz's with.

``douzero.dmc``'s ``__init__`` imports DouZero's trainer, which needs GitPython; the models
file itself needs torch and numpy only, so it is loaded on its own, by path (and can stand
in for ``douzero.dmc.models`` in ``sys.modules`` where DouZero's evaluation imports it).
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest


@functools.cache
def douzero_models() -> ModuleType:
    """DouZero's ``douzero.dmc.models`` module (the test is skipped without douzero)."""
    douzero = pytest.importorskip("douzero")
    spec = importlib.util.spec_from_file_location(
        "douzero.dmc.models", Path(douzero.__file__).parent / "dmc" / "models.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
