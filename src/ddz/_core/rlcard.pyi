"""Type stubs for RLCard's Dou Dizhu in C (ddz/_core/rlcard.pyx)."""

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

class RlcardCore:
    def __init__(
        self,
        rules: Any,
        codes: npt.NDArray[np.uint64],
        ids: npt.NDArray[np.int64],
        sorted_positions: npt.NDArray[np.int64],
        answer_order: npt.NDArray[np.int32],
    ) -> None: ...
    def deal(self, hand0: int, hand1: int, hand2: int, kitty: int) -> None: ...
    @property
    def current(self) -> int: ...
    @property
    def over(self) -> bool: ...
    @property
    def winner(self) -> int: ...
    @property
    def plies(self) -> int: ...
    def hands(self) -> tuple[int, int, int]: ...
    def played(self) -> tuple[int, int, int]: ...
    def trace(self) -> list[int]: ...
    def legal_ids(self) -> list[int]: ...
    def legal_ids_for(self, seat: int) -> list[int]: ...
    def view(self, seat: int) -> tuple[str, str, list[int]]: ...
    def legal_parts(
        self,
        seat: int,
        features: list[Any],
        texts: tuple[str, ...],
        make_feature: Callable[[int], Any],
    ) -> tuple[dict[int, Any], list[str]]: ...
    def is_legal(self, rlcard_id: int) -> bool: ...
    def step(self, rlcard_id: int) -> bool: ...
    def step_back(self) -> bool: ...
    def encode(self, seat: int, out: npt.NDArray[np.int8]) -> None: ...
    def action_features(self, out: npt.NDArray[np.int8]) -> None: ...

class RlcardTables:
    @property
    def n(self) -> int: ...
    def __init__(self, cores: list[RlcardCore]) -> None: ...
    def core(self, table: int) -> RlcardCore: ...
    def observe(
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
                npt.NDArray[np.int64],
                npt.NDArray[np.int8],
                npt.NDArray[np.int64],
            ],
            tuple[
                npt.NDArray[np.int64],
                npt.NDArray[np.int64],
                npt.NDArray[np.int8],
                npt.NDArray[np.int64],
                npt.NDArray[np.int8],
                npt.NDArray[np.int64],
            ],
            tuple[
                npt.NDArray[np.int64],
                npt.NDArray[np.int64],
                npt.NDArray[np.int8],
                npt.NDArray[np.int64],
                npt.NDArray[np.int8],
                npt.NDArray[np.int64],
            ],
        ],
    ]: ...
    def step(self, actions: npt.ArrayLike) -> npt.NDArray[np.bool_]: ...

def cards_text(cards: int) -> str: ...
