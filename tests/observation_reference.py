"""The observation encoding written out in Python, slowly and plainly: the reference that the
core's encoder (``Observation.encode()``, ``Game.observation_vector``) is checked against.
It reads ``OBSERVATION_LAYOUT``'s fields one by one (docs: ``ddz.doudizhu.observation``)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ddz.doudizhu.observation import Observation


def encode(observation: Observation) -> npt.NDArray[np.int8]:
    """``Observation.encode()`` of ``observation``, field by field."""
    seats = len(observation.card_counts)
    order = [(observation.player + offset) % seats for offset in range(seats)]
    missing = 3 - seats  # two players: the third seat's fields stay zero

    def one_hot(width: int, index: int | None) -> list[int]:
        vector = [0] * width
        if index is not None:
            vector[index] = 1
        return vector

    def relative(seat: int | None) -> int | None:
        return None if seat is None else (seat - observation.player) % seats

    parts: list[int] = list(observation.hand.counts(actions=True))
    for seat in order:
        parts += observation.played[seat].counts(actions=True)
    parts += [0] * (17 * missing)
    parts += [observation.card_counts[seat] for seat in order] + [0] * missing
    parts += one_hot(3, relative(observation.landlord))
    parts += observation.kitty.counts(actions=True) if observation.kitty is not None else [0] * 17
    parts += (
        observation.table.cards.counts(actions=True) if observation.table is not None else [0] * 17
    )
    parts += one_hot(3, relative(observation.table_player))
    parts += one_hot(17, None if observation.table is None else int(observation.table.type))
    parts += one_hot(3, ("bidding", "play", "over").index(observation.phase))
    parts += one_hot(4, observation.bid)
    parts.append(observation.multiplier.bit_length() - 1 if observation.multiplier > 0 else 0)
    parts += one_hot(3, relative(observation.current_player))
    parts.append(observation.direction)
    return np.array(parts, dtype=np.int8)
