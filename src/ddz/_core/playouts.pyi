"""Type stubs for the compiled greedy playouts (ddz/_core/playouts.pyx)."""

from typing import Any

MAX_WORLDS: int
MAX_CANDIDATES: int

class Stop:
    def request_stop(self) -> None: ...
    def reset_stop(self) -> None: ...
    @property
    def requested(self) -> bool: ...

def greedy_playouts(
    rules: Any,
    state: bytes,
    hands: Any,
    kitty: Any,
    actions: Any,
    seat: int,
    out: Any,
    seed: int = 0,
    epsilon: int = 0,
    max_work: int = 0,
    stop: Stop | None = None,
) -> tuple[int, int]: ...
def greedy_disagreements(rules: Any, state: bytes, hands: Any, actions: Any, out: Any) -> None: ...
