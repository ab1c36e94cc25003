"""Type stubs for the compiled UNO vector core (ddz/_core/uno_vector.pyx), re-exported by
ddz._core.uno."""

from typing import Any

MAX_ROUNDS_: int
OBS_SIZE_: int
NUM_INDICES_: int

def round_seed_(seed: int, index: int) -> int: ...
def simulate_rounds_(
    flags: int,
    players: int,
    dealer: int,
    seed: int,
    first: int,
    start: int,
    stop: int,
    eager: bool,
    winners: Any,
    blocked: Any,
    lengths: Any,
    points: Any,
) -> None: ...

class UnoVector:
    flags: int
    players: int
    dealer: int
    points: bool
    def __init__(
        self, flags: int, players: int, dealer: int, n: int, seed: int, points: bool
    ) -> None: ...
    def deal_seed(self, game: int) -> int: ...
    def __reduce__(self) -> tuple[Any, ...]: ...
    def legal_action_mask(self, mask: Any) -> None: ...
    def step(self, actions: Any, rewards: Any, done: Any) -> None: ...
    def sample_legal(self, out: Any) -> None: ...
    def observations(self, out: Any) -> None: ...
    def current_players(self, out: Any) -> None: ...
    def keys(self, out: Any) -> None: ...
