"""Type stubs for the compiled playouts (ddz/_core/playouts.pyx)."""

from collections.abc import Sequence
from typing import Any

MAX_WORLDS: int
MAX_CANDIDATES: int
POLICIES: dict[str, int]

class Stop:
    def request_stop(self) -> None: ...
    def reset_stop(self) -> None: ...
    @property
    def requested(self) -> bool: ...

class RuleOrder:
    codes: Any
    places: Any
    def __init__(self, codes: Any, places: Any) -> None: ...
    def __len__(self) -> int: ...

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
def policy_playouts(
    rules: Any,
    state: bytes,
    hands: Any,
    kitty: Any,
    actions: Any,
    seat: int,
    out: Any,
    policies: Sequence[str | int] | None = None,
    order: RuleOrder | None = None,
    seed: int = 0,
    epsilon: int = 0,
    max_work: int = 0,
    stop: Stop | None = None,
) -> tuple[int, int]: ...
def greedy_disagreements(rules: Any, state: bytes, hands: Any, actions: Any, out: Any) -> None: ...
def policy_disagreements(
    rules: Any,
    state: bytes,
    hands: Any,
    actions: Any,
    out: Any,
    policies: Sequence[str | int] | None = None,
    order: RuleOrder | None = None,
) -> None: ...
def rule_choice(rules: Any, state: bytes, order: RuleOrder) -> tuple[int, bool]: ...
