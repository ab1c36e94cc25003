"""The greedy agent's bidding, in one place for the agent that bids by it
(:class:`ddz.play.agents.GreedyAgent`) and for the reading of its bids
(:func:`ddz.play.inference.bid_disagreements`): a hand's strength and the strengths it bids
from. (The core's C port, ``ddz._core.greedy``, is checked against the agent by the tests.)

>>> import ddz
>>> import numpy as np
>>> int(strength(np.array(ddz.Cards("3333XD22").counts()))), bid_points(np.array([2, 6, 9]))
(15, array([0, 2, 3]))
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["BID_AT", "CALL_AT", "GRAB_AT", "bid_points", "strength"]

BID_AT = (3, 5, 7)
"""The hand strength to bid 1, 2 and 3 from."""
CALL_AT, GRAB_AT = 3, 7
"""... and to call and to grab the landlord."""


def strength(counts: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """How strong a hand is for bidding, from its 15 rank counts (the last axis, 3 .. 2,
    the small and the big joker; any axes before it): the cards that win tricks and the
    bombs: 4 a big joker, 3 a small joker, 2 a 2, 1 for two aces, 4 a bomb of 3 .. 2."""
    value: npt.NDArray[np.int64] = (
        4 * counts[..., 14] + 3 * counts[..., 13] + 2 * counts[..., 12] + counts[..., 11] // 2
    )
    value += 4 * (counts[..., :13] == 4).sum(axis=-1)
    return value


def bid_points(strengths: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The points the greedy agent bids at each strength: 0 (a pass) to 3."""
    points = np.zeros_like(strengths)
    for level in BID_AT:
        points += strengths >= level
    return points
