"""RLCard 1.2.0's rule agent (``doudizhu-rule-v1``) in C, as a model of the other players:
what ``PIMCAgent(opponent="rlcard-rule")`` plays its playouts and reads the play with.

The port (``ddz/_core/rule.pxd``) needs neither RLCard nor Python in its loop: it leads the
group of its hand that holds its lowest card, answers with the lowest move of the table's
type, and otherwise passes or draws at random as RLCard's agent does. Among kicker moves of
equal rank it takes the first in RLCard's list of answers, the order RLCard's tables give
(:func:`rule_order`, shipped with ddz in ``ddz/data``). ``tests/test_rule_model.py`` checks it
move for move against :class:`ddz.compat.rlcard_rule.RLCardRuleAgent`, which asks RLCard.

>>> import ddz
>>> from ddz.play.rule_model import rule_choice
>>> game = ddz.Game(ddz.RLCARD, seed=3)
>>> str(game.hands[game.current_player])[:8]          # it leads the trio of its lowest card
'33345577'
>>> action, drew = rule_choice(game)
>>> str(action), drew
('333', False)
"""

from __future__ import annotations

import functools
import gzip
from importlib import resources

import numpy as np

from ddz._core import playouts as _playouts
from ddz.doudizhu.action_space import action_space, rlcard_action_ids
from ddz.doudizhu.actions import Action
from ddz.doudizhu.game import Game
from ddz.doudizhu.rules import RLCARD

__all__ = ["OPPONENTS", "rule_choice", "rule_order"]

OPPONENTS = ("greedy", "rlcard-rule")
"""The models of the other players ``PIMCAgent`` plays its playouts with (``opponent=``):
the greedy agent (``ddz.play.agents.GreedyAgent``) and RLCard's rule agent."""


@functools.lru_cache(maxsize=1)
def rule_order() -> _playouts.RuleOrder:
    """RLCard's moves' codes under ``ddz.RLCARD``, ascending, and each one's place in RLCard's
    list of answers to a move (built once a process)."""
    data = resources.files("ddz").joinpath("data/rlcard_answer_order.txt.gz").read_bytes()
    order = np.array(gzip.decompress(data).split(), dtype=np.int64)
    place = np.empty(len(order), dtype=np.int32)
    place[order] = np.arange(len(order), dtype=np.int32)
    ids = rlcard_action_ids()
    codes = np.asarray(action_space(RLCARD).codes, dtype=np.uint64)
    held = (ids >= 0) & (codes != 0)
    codes, places = codes[held], place[ids[held]]
    ranked = np.argsort(codes, kind="stable")
    return _playouts.RuleOrder(
        np.ascontiguousarray(codes[ranked]), np.ascontiguousarray(places[ranked])
    )


def rule_choice(game: Game) -> tuple[Action, bool]:
    """The rule agent's action for the player to act in ``game`` (three seats, in play or
    bidding), and whether it draws it at random (then any legal action is as likely; the
    action returned is one draw). ValueError for a game it does not play."""
    if game.rules.players != 3 or game.is_over:
        raise ValueError("RLCard's rule agent plays three seats, in a game not over")
    code, drew = _playouts.rule_choice(game.rules, game.state_bytes(), rule_order())
    for action in game.legal_actions():
        if action.code == code:
            return action, drew
    raise AssertionError(f"the rule agent's choice {code:#x} is not legal")  # not reached
