"""Playouts with every hand known against a model of the other players, move by move.

:class:`ddz.play.search_agents.SolverAgent` reads every hand. Told whom it plays against
(``SolverAgent(opponent=factory)``: an ordinary agent, such as RLCard's rule agent,
``ddz.compat.rlcard_rule.RLCardRuleAgent``), it can play the opponents' moves in its
playouts exactly as they will play them, by asking the model, instead of the greedy agent's
rules of thumb. The seats of its own side are played by the greedy agent (in C), a random
legal action ``epsilon`` per mille of the time; its partner by the model too when the
partner has played every move so far as the model would (:func:`plays_like`: beside a copy
of the opponent, the model is its partner's play exactly).

These playouts go through Python (the model is any agent), a few milliseconds each, so the
agent spends them on a few candidate moves only.

>>> import ddz
>>> from ddz.play.agents import GreedyAgent
>>> from ddz.play.model_playouts import model_playouts
>>> game = ddz.Game.from_position(ddz.ENDGAME, ["3KK", "44A"], landlord=0, to_act=0)
>>> legal = game.legal_actions()
>>> won, points = model_playouts(game, legal, GreedyAgent(), {1}, playouts=2, epsilon=0, seed=1)
>>> {str(action): float(share) for action, share in zip(legal, won)}
{'3': 0.0, 'K': 0.0, 'KK': 1.0}
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from ddz._core import vector as _vector
from ddz.doudizhu.actions import Action
from ddz.doudizhu.game import Game
from ddz.doudizhu.observation import Observation

__all__ = ["Model", "model_playouts", "plays_like"]


class Model(Protocol):
    """A model of a player: an ordinary agent (``ddz.play.agents.Agent``), asked for the
    move of a seat from the seat's observation."""

    def act(self, observation: Observation) -> Action: ...


def _give_rules(model: Model, game: Game) -> None:
    """The rules, to a model that asks for them (``set_rules``, as ``choose`` gives them)."""
    set_rules = getattr(model, "set_rules", None)
    if callable(set_rules):
        set_rules(game.rules)


def _greedy_or_random(game: Game, rng: random.Random, epsilon: int) -> int:
    """The code of the greedy agent's choice, or of a uniformly random legal action
    ``epsilon`` per mille of the time."""
    if epsilon and rng.randrange(1000) < epsilon:
        codes = game.legal_codes()
        return int(codes[rng.randrange(len(codes))])
    return int(_vector.greedy_action(game.rules, game.state_bytes()))


def model_playouts(
    game: Game,
    legal: Sequence[Action],
    model: Model,
    modelled: Collection[int],
    *,
    playouts: int,
    epsilon: int,
    seed: int,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """For each of ``legal`` (actions of the seat to act in ``game``): the share of
    ``playouts`` games its side wins after it, and the seat's mean payoff, with the seats in
    ``modelled`` played by ``model`` (``model.act(game.observation(seat))``) and every other
    seat by the greedy agent, a random legal action ``epsilon`` per mille of the time."""
    me = game.current_player
    if me is None:
        raise ValueError("the game is over: no seat is to act")
    _give_rules(model, game)
    rng = random.Random(seed)
    won = np.zeros(len(legal), dtype=np.float64)
    points = np.zeros(len(legal), dtype=np.float64)
    for j, action in enumerate(legal):
        for _ in range(playouts):
            child = game.copy()
            child.push(action)
            while (seat := child.current_player) is not None:
                if seat in modelled:
                    child.push(model.act(child.observation(seat)))
                else:
                    child.push_code(_greedy_or_random(child, rng, epsilon))
            payoff = child.payoffs()[me]
            won[j] += payoff > 0
            points[j] += payoff
    return won / playouts, points / playouts


def plays_like(game: Game, seat: int, model: Model, start: int = 0) -> tuple[bool, int]:
    """Has ``seat`` played each of its moves since ply ``start`` of the play (the moves
    before were checked already) as ``model`` chooses them? A model with a method
    ``choices(observation)`` (the actions it may choose: several where it draws at random,
    as :class:`ddz.compat.rlcard_rule.RLCardRuleAgent` has) is asked that, any other its
    ``act``. Returns the answer and the plies of play checked, to pass as ``start`` next
    time."""
    _give_rules(model, game)
    plays = [entry for entry in game.history if entry.phase == "play"]
    if start >= len(plays):
        return True, len(plays)
    back = game.copy()
    for _ in range(len(plays) - start):
        back.undo()
    for entry in plays[start:]:
        if entry.player == seat:
            seen = back.observation(seat)
            # a model that draws at random says among what (RLCardRuleAgent.choices)
            choices = getattr(model, "choices", None)
            options = choices(seen) if callable(choices) else [model.act(seen)]
            if entry.action.code not in {action.code for action in options}:
                return False, len(plays)
        back.push(entry.action)
    return True, len(plays)
