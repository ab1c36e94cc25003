"""Playouts with every hand known: how often each move wins against a model of the players.

:class:`ddz.play.search_agents.SolverAgent` reads every hand. Where its exact solve says
nothing useful against fallible opponents, it plays out each legal move in the true position
(not in sampled worlds, as :class:`~ddz.play.search_agents.PIMCAgent` does) with every seat
then played by the greedy agent, in C (``ddz._core.playouts``), a random legal action taken
``epsilon`` per mille of the time: a model of opponents that play by rule of thumb and
sometimes otherwise. The share of the playouts each move wins is its value.

>>> import ddz
>>> from ddz.play.open_playouts import open_playouts
>>> game = ddz.Game.from_position(ddz.ENDGAME, ["3KK", "44A"], landlord=0, to_act=0)
>>> legal = game.legal_actions()
>>> won, points = open_playouts(game, legal, playouts=8, epsilon=0, seed=1)
>>> {str(action): float(share) for action, share in zip(legal, won)}
{'3': 0.0, 'K': 0.0, 'KK': 1.0}
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ddz._core import playouts as _playouts
from ddz.doudizhu.actions import Action
from ddz.doudizhu.game import Game

__all__ = ["open_playouts"]


def open_playouts(
    game: Game, legal: Sequence[Action], *, playouts: int, epsilon: int, seed: int
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """For each of ``legal`` (actions of the seat to act in ``game``): the share of
    ``playouts`` playouts its side wins after it, and the seat's mean payoff. With
    ``epsilon`` 0 every playout is the same game, so one is played."""
    me = game.current_player
    if me is None:
        raise ValueError("the game is over: no seat is to act")
    count = playouts if epsilon else 1
    world = [cards.mask for cards in game.hands]
    hands = np.array([world] * count, dtype=np.uint64)
    kitty = np.full(count, game.kitty.mask, dtype=np.uint64)
    codes = np.array([action.code for action in legal], dtype=np.uint64)
    out = np.empty((count, len(codes)), dtype=np.int64)
    _playouts.greedy_playouts(
        game.rules, game.state_bytes(), hands, kitty, codes, me, out, seed & (2**64 - 1), epsilon
    )
    won: npt.NDArray[np.float64] = (out > 0).mean(axis=0)
    points: npt.NDArray[np.float64] = out.mean(axis=0)
    return won, points
