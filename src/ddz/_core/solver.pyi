"""Type stubs for the compiled solver core (ddz/_core/solver.pyx)."""

from collections.abc import Sequence
from typing import Any

class SolverCore:
    rules: Any
    table_bytes: int
    def __init__(self, rules: Any, memory_mb: int = 256, threads: int = 1) -> None: ...
    @property
    def threads(self) -> int: ...
    def clear(self) -> None: ...
    def solve(
        self,
        hands: Sequence[int],
        table: int,
        table_player: int,
        current: int,
        landlord: int,
        *,
        direction: int = 1,
        let: int = 0,
        landlord_plays: int = 2,
        farmer_plays: int = 1,
        score_mode: bool = False,
        time_limit: float = 0.0,
        node_limit: int = 0,
        thread: int = 0,
    ) -> tuple[int | None, int | None, int, bool]: ...
    def _answered_moves(
        self,
        hands: Sequence[int],
        table: int,
        table_player: int,
        current: int,
        landlord: int,
        let: int = 0,
    ) -> list[int]: ...
    def _team_move(
        self,
        hands: Sequence[int],
        table: int,
        table_player: int,
        current: int,
        landlord: int,
    ) -> int | None: ...
    def _static_loss(
        self,
        hands: Sequence[int],
        table: int,
        table_player: int,
        current: int,
        landlord: int,
    ) -> bool: ...
    def _lone_farmer(
        self,
        hands: Sequence[int],
        table: int,
        table_player: int,
        current: int,
        landlord: int,
        budget: int,
    ) -> tuple[int, int | None]: ...
    def _static_move(self, hands: Sequence[int], current: int, landlord: int) -> int | None: ...
    def check_idle(self) -> None: ...
    def verdict(self, thread: int = 0) -> tuple[int | None, int | None]: ...
    def request_stop(self) -> None: ...
    def reset_stop(self) -> None: ...
    def stopped(self) -> bool: ...

def state_position(
    state: bytes,
) -> tuple[tuple[int, ...], int, int, int, int, int, int, int, int, int, bool]: ...
def _set_flags(flags: int) -> None: ...
def _get_flags() -> int: ...
def _set_memo(on: bool) -> bool: ...
def _set_rounds(nodes: int, orders: int = 4, cards: int = 40, cards_two: int = 36) -> int: ...
def _get_memo() -> bool: ...
def _get_rounds() -> tuple[int, int, int, int]: ...
def _set_lone_tree(start: int, nodes: int, cards: int) -> tuple[int, int, int]: ...
def _get_lone_tree() -> tuple[int, int, int]: ...
def _pack_both(word: int, mask: int) -> tuple[int, int | None]: ...
