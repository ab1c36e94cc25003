"""Type stubs for DouZero's card play and encodings in C (ddz/_core/douzero.pyx)."""

from typing import Any

import numpy as np
import numpy.typing as npt

class DouzeroCore:
    @property
    def acting(self) -> int: ...
    @property
    def position(self) -> str: ...
    @property
    def bomb_num(self) -> int: ...
    @property
    def winner(self) -> int: ...
    @property
    def plies(self) -> int: ...
    def deal(self, hands: npt.NDArray[np.uint8]) -> None: ...
    def cards_left(self, position: int) -> int: ...
    def hand_counts(self) -> npt.NDArray[np.uint8]: ...
    def history_counts(self) -> npt.NDArray[np.uint8]: ...
    def legal_count(self) -> int: ...
    def legal_actions(self) -> list[list[int]]: ...
    def find(self, counts: npt.NDArray[np.uint8] | bytes) -> int: ...
    def index_of(self, action: object) -> int: ...
    def play(self, index: int) -> bool: ...
    def observation(self, with_z_batch: bool = True) -> dict[str, Any]: ...
    def __reduce__(self) -> tuple[Any, ...]: ...

class DouzeroTables:
    @property
    def n(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def objective(self) -> int: ...
    def __init__(self, n: int, seed: int = 0, objective: int = 0) -> None: ...
    def deal_seeded(self, which: npt.NDArray[np.int64]) -> None: ...
    def deal(
        self,
        which: npt.NDArray[np.int64],
        hands: npt.NDArray[np.uint8],
        kitty: npt.NDArray[np.uint8],
    ) -> None: ...
    def observe(
        self, with_z_batch: bool = True
    ) -> tuple[
        npt.NDArray[np.int8],
        npt.NDArray[np.int32],
        npt.NDArray[np.int64],
        tuple[
            tuple[
                npt.NDArray[np.int64],
                npt.NDArray[np.int64],
                npt.NDArray[np.float32],
                npt.NDArray[np.float32] | None,
                npt.NDArray[np.int8],
                npt.NDArray[np.int8],
                npt.NDArray[np.int64],
            ],
            ...,
        ],
    ]: ...
    def observe_compact(
        self,
    ) -> tuple[
        npt.NDArray[np.int8],
        npt.NDArray[np.int32],
        npt.NDArray[np.int64],
        tuple[
            tuple[
                npt.NDArray[np.int64],
                npt.NDArray[np.int64],
                npt.NDArray[np.int8],
                npt.NDArray[np.int8],
                npt.NDArray[np.int8],
                npt.NDArray[np.int64],
            ],
            ...,
        ],
    ]: ...
    def step(
        self, actions: npt.NDArray[np.int64], redeal: bool
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]: ...
    def legal_actions(self, table: int) -> list[list[int]]: ...
    def deal_counts(self, table: int) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]: ...
    def history_counts(self, table: int) -> npt.NDArray[np.uint8]: ...

def _restore_core(hands: npt.ArrayLike, history: npt.ArrayLike) -> DouzeroCore: ...
def python_set_order(counts: npt.NDArray[np.uint8]) -> list[int]: ...

class DouzeroSeats:
    def __init__(self) -> None: ...
    def observe(
        self, views: list[Any]
    ) -> tuple[
        npt.NDArray[np.int8],
        npt.NDArray[np.int8],
        npt.NDArray[np.int32],
        npt.NDArray[np.int64],
        tuple[
            tuple[
                npt.NDArray[np.int64],
                npt.NDArray[np.int64],
                npt.NDArray[np.int8],
                npt.NDArray[np.int8],
                npt.NDArray[np.int8],
                npt.NDArray[np.int64],
                npt.NDArray[np.uint64],
            ],
            ...,
        ],
    ]: ...
    def observe_games(
        self, cores: list[Any]
    ) -> tuple[
        npt.NDArray[np.int8],
        npt.NDArray[np.int8],
        npt.NDArray[np.int32],
        npt.NDArray[np.int64],
        tuple[
            tuple[
                npt.NDArray[np.int64],
                npt.NDArray[np.int64],
                npt.NDArray[np.int8],
                npt.NDArray[np.int8],
                npt.NDArray[np.int8],
                npt.NDArray[np.int64],
                npt.NDArray[np.uint64],
                npt.NDArray[np.uint64],
            ],
            ...,
        ],
        npt.NDArray[np.uint64],
    ]: ...
