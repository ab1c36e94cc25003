"""Type stubs for the compiled world sampler (ddz/_core/worlds.pyx)."""

from typing import Any

def sample_deals(pool: int, sizes: Any, played: Any, seed: int, out: Any) -> float: ...
