"""Playouts with every hand known: how often each move wins against a model of the players.

:class:`ddz.play.search_agents.SolverAgent` reads every hand. Where its exact solve says
nothing useful against fallible opponents, it plays out each legal move in the true position
(not in sampled worlds, as :class:`~ddz.play.search_agents.PIMCAgent` does) with every seat
then played by its model, in C (``ddz._core.playouts``), a random legal action taken
``epsilon`` per mille of the time: a model of players that play by rule of thumb and
sometimes otherwise. The share of the playouts each move wins is its value.

Each seat's model (:func:`seat_models`) is the greedy agent or RLCard's rule agent
(:mod:`ddz.play.rule_model`), read from the play so far as ``PIMCAgent(opponent="auto")``
reads it in each sampled world; here the hands are known, so there is one world, the true
one: each other seat is played as whichever of the two disagrees with fewer of its moves.

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
from ddz.play.inference import model_disagreements
from ddz.play.rule_model import rule_order

__all__ = ["Reading", "open_playouts", "read_play", "rule_seats", "seat_models"]

Reading = tuple[list[int], list[int]]
"""Each seat's play-phase moves so far that the greedy agent, and that RLCard's rule agent,
would not have made holding its cards (:func:`read_play`)."""


def read_play(game: Game) -> Reading | None:
    """The greedy agent's and the rule agent's disagreements with each seat's play so far,
    every hand known (:func:`ddz.play.inference.model_disagreements` in the one true world);
    None where the rule agent does not play (not three seats) or nothing can be read (no
    play yet, a game without the history of its play, Skip and Reverse cards)."""
    me, rules = game.current_player, game.rules
    if me is None or rules.players != 3 or game.landlord is None:
        return None
    observation = game.observation(me)
    hands = np.array([[cards.mask for cards in game.hands]], dtype=np.uint64)
    counts = []
    for policy in ("greedy", "rlcard-rule"):
        read = model_disagreements(observation, rules, hands, [policy] * rules.players)
        if read is None or read[0, 0] < 0:
            return None
        counts.append([int(count) for count in read[0]])
    return counts[0], counts[1]


def rule_seats(me: int, landlord: int, fewest_rule: Sequence[int]) -> list[str]:
    """Each seat's player told that the others play as RLCard's rule agent: the seat ``me``
    greedy; the other side the rule agent, and a partner too while it has played every move
    as the rule agent would (``fewest_rule[seat]``: the rule agent's disagreements with its
    moves, 0 where there are none; ``me``'s is not read)."""
    models = ["greedy"] * len(fewest_rule)
    for seat, fewest in enumerate(fewest_rule):
        partner = (seat == landlord) == (me == landlord)
        if seat != me and (not partner or fewest == 0):
            models[seat] = "rlcard-rule"
    return models


def seat_models(game: Game, model: str, reading: Reading | None) -> list[str]:
    """Each seat's player in the open playouts of the seat to act in ``game``: the seat
    itself greedy; the others the greedy agent under ``model="greedy"``, with two seats and
    where nothing is read (``reading``: :func:`read_play`); under ``"rlcard-rule"`` as
    :func:`rule_seats` says; under ``"auto"`` each other seat the one of the two that
    disagrees with fewer of its moves, the greedy agent when they tie (``PIMCAgent``'s
    ``opponent``)."""
    me, landlord, players = game.current_player, game.landlord, game.rules.players
    models = ["greedy"] * players
    if model == "greedy" or players != 3 or me is None or landlord is None:
        return models
    if model == "rlcard-rule":  # nothing read: every seat as told
        return rule_seats(me, landlord, [0] * players if reading is None else reading[1])
    if reading is None:
        return models
    greedy, rule = reading
    for seat in range(players):
        if seat != me and rule[seat] < greedy[seat]:
            models[seat] = "rlcard-rule"
    return models


def open_playouts(
    game: Game,
    legal: Sequence[Action],
    *,
    playouts: int,
    epsilon: int,
    seed: int,
    models: Sequence[str] | None = None,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """For each of ``legal`` (actions of the seat to act in ``game``): the share of
    ``playouts`` playouts its side wins after it, and the seat's mean payoff, each seat
    played by ``models[seat]`` (``"greedy"`` or ``"rlcard-rule"``; None: every seat greedy).
    With ``epsilon`` 0 every playout is the same game, so one is played."""
    me = game.current_player
    if me is None:
        raise ValueError("the game is over: no seat is to act")
    count = playouts if epsilon else 1
    world = [cards.mask for cards in game.hands]
    hands = np.array([world] * count, dtype=np.uint64)
    kitty = np.full(count, game.kitty.mask, dtype=np.uint64)
    codes = np.array([action.code for action in legal], dtype=np.uint64)
    out = np.empty((count, len(codes)), dtype=np.int64)
    policies = None if models is None else list(models)
    order = rule_order() if policies is not None and "rlcard-rule" in policies else None
    _playouts.policy_playouts(
        game.rules,
        game.state_bytes(),
        hands,
        kitty,
        codes,
        me,
        out,
        policies,
        order,
        seed & (2**64 - 1),
        epsilon,
    )
    won: npt.NDArray[np.float64] = (out > 0).mean(axis=0)
    points: npt.NDArray[np.float64] = out.mean(axis=0)
    return won, points
