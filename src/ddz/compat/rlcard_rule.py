"""RLCard 1.2.0's rule agent for Dou Dizhu (``doudizhu-rule-v1``) as a ddz agent.

:class:`RLCardRuleAgent` has ddz's agent interface (``act(observation) -> Action``) and asks
RLCard's own ``DouDizhuRuleAgentV1`` for every move: it builds the state that agent reads
(RLCard's ``raw_obs``: the hand, the trace, the actions offered, in RLCard's order, the seats
counted from the landlord, RLCard's seat 0) from the ddz observation, and maps the text it
answers back onto the legal action. So RLCard's rule agent plays in ddz's arena, on ddz's
engine, under ``ddz.RLCARD`` (the move set RLCard's rule agent was written for: any rules
whose moves are all RLCard's do, and the landlord must be known when play starts, as in
RLCard, which does not bid). It needs ``rlcard`` installed.

In one case the rule agent draws at random (an answer it has no move of the table's type
for: pass, a bomb or the rocket, with NumPy's global generator); here the draw comes from
the agent's own generator, seeded by ``seed``, so that the arena's games are reproducible and
NumPy's global generator is left alone. The moves are RLCard's: tests/test_rlcard_rule.py
plays seeded deals on RLCard's own engine and on ddz's, and finds the same moves.

The state it builds (``RLCardRuleAgent(seed).act(observation)`` then asks RLCard's agent,
which leads ``333`` here: the group of its lowest card):

>>> import ddz
>>> from ddz.compat.rlcard_rule import RLCardRuleAgent
>>> game = ddz.Game(ddz.RLCARD, seed=3)
>>> game.landlord, game.current_player                  # seat 1 is RLCard's seat 0
(1, 1)
>>> _ = game.step(game.legal_actions()[0])              # the landlord leads a 3
>>> state = RLCardRuleAgent.raw_obs(game.observation(2))
>>> state["self"], state["trace"], state["actions"][:4]
(1, [(0, '3')], ['pass', '4', '5', '6'])
"""

from __future__ import annotations

import functools
import importlib
import types
from typing import Any

import numpy as np

from ddz.base.errors import check_integer
from ddz.doudizhu.action_space import _rlcard_actions, action_space, rlcard_action_ids
from ddz.doudizhu.actions import Action
from ddz.doudizhu.cards import Cards
from ddz.doudizhu.moves import Move, MoveType
from ddz.doudizhu.observation import Observation
from ddz.doudizhu.rules import RLCARD

__all__ = ["RLCardRuleAgent"]

_PASS_ID = 27471
_RANKS = "3456789TJQKA2BR"  # RLCard's card text: 10 is T, the jokers B (black) and R (red)


@functools.lru_cache(maxsize=1)
def _tables() -> tuple[tuple[str, ...], dict[int, int], dict[int, int]]:
    """RLCard's action texts by id, the id of each ddz move code under ``ddz.RLCARD``, and
    each id's place in RLCard's walk of the answers to a move (``get_gt_cards``)."""
    from ddz.compat.rlcard import _tables as drop_in_tables

    texts = _rlcard_actions()
    codes = action_space(RLCARD).codes
    ids = rlcard_action_ids()
    id_of = {int(code): int(rid) for code, rid in zip(codes, ids, strict=True) if rid >= 0}
    order = drop_in_tables()[2].order
    place = {int(rid): index for index, rid in enumerate(order)}
    return texts, id_of, place


def _text(cards: Cards) -> str:
    """RLCard's text of ``cards``: ranks low to high, ``B`` and ``R`` for the jokers."""
    return _text_of(cards.mask)


_MOVE_TEXTS: dict[int, str] = {}
"""RLCard's text of each move played so far, by its code (``"pass"`` for a pass)."""


def _move_text(move: Move) -> str:
    """RLCard's text of a move of the trace, kept by code (a dict of a few thousand)."""
    text = _MOVE_TEXTS.get(move.code)
    if text is None:
        text = _MOVE_TEXTS[move.code] = "pass" if move.is_pass else _text(move.cards)
    return text


@functools.lru_cache(maxsize=1 << 14)
def _text_of(mask: int) -> str:
    """:func:`_text` by the cards' mask, kept: the trace is rebuilt at every turn, and a
    model of the rule agent in playouts asks for thousands of turns a decision."""
    counts = Cards.from_mask(mask).counts()
    return "".join(_RANKS[rank] * count for rank, count in enumerate(counts))


class _Generator:
    """What the rule agent's ``np.random.choice`` reaches: a generator of the agent's own."""

    def __init__(self, seed: int | None) -> None:
        self.random = np.random.RandomState(seed)


class _Draws:
    """A stand-in for NumPy's generator that notes a draw instead of drawing."""

    def __init__(self) -> None:
        self.random = self
        self.drawn = False

    def choice(self, options: list[str]) -> str:
        self.drawn = True
        return options[0]


class RLCardRuleAgent:
    """RLCard 1.2.0's ``DouDizhuRuleAgentV1`` playing a seat of a ddz game (module docstring).

    ``seed`` seeds the one random choice the rule agent makes; ``None``: unseeded.
    """

    def __init__(self, seed: int | None = None) -> None:
        if seed is not None:
            seed = check_integer(seed, "seed", 0) % (1 << 32)  # NumPy's seeds are 32-bit
        try:
            module = importlib.import_module("rlcard.models.doudizhu_rule_models")
        except ImportError as error:
            raise ImportError(
                "RLCardRuleAgent needs RLCard's rule agent: pip install rlcard==1.2.0"
            ) from error
        rule_agent = module.DouDizhuRuleAgentV1
        self._agent = rule_agent()
        # The rule agent's step, unchanged, reading its module's names except ``np``, which
        # is this agent's generator: NumPy's global one is neither read nor advanced.
        names = {**vars(module), "np": _Generator(seed)}
        step = rule_agent.step
        self._step = types.FunctionType(step.__code__, names, step.__name__, step.__defaults__)
        # the same step noting whether it draws (choices)
        self._draws = _Draws()
        names = {**vars(module), "np": self._draws}
        self._noting = types.FunctionType(step.__code__, names, step.__name__, step.__defaults__)

    def __repr__(self) -> str:
        return "RLCardRuleAgent()"

    def act(self, observation: Observation) -> Action:
        if not isinstance(observation, Observation):
            raise TypeError(
                "RLCardRuleAgent.act takes an Observation (game.observation(seat)), "
                f"not {type(observation).__name__}"
            )
        legal = list(observation.legal_actions)
        if not legal:
            raise ValueError("the observation has no legal actions: it is not this seat's turn")
        if observation.phase != "play":  # RLCard does not bid: the first legal action
            return legal[0]
        state = self.raw_obs(observation)
        text = str(self._step(self._agent, {"raw_obs": state}))
        for action, offered in zip(legal, self._texts(observation), strict=True):
            if offered == text:
                return action
        raise AssertionError(f"RLCard's rule agent chose {text!r}, not offered")  # not reached

    def choices(self, observation: Observation) -> list[Action]:
        """The actions the rule agent may choose in ``observation``: the one it chooses, or,
        where it draws at random, every legal action (it draws among them uniformly). Its
        generator is left alone. A model of the player (``SolverAgent(opponent=...)``) reads
        from this whether a move played was the rule agent's."""
        legal = list(observation.legal_actions)
        if observation.phase != "play" or len(legal) <= 1:
            return legal[:1]
        self._draws.drawn = False
        text = str(self._noting(self._agent, {"raw_obs": self.raw_obs(observation)}))
        if self._draws.drawn:
            return legal
        for action, offered in zip(legal, self._texts(observation), strict=True):
            if offered == text:
                return [action]
        raise AssertionError(f"RLCard's rule agent chose {text!r}, not offered")  # not reached

    @staticmethod
    def _texts(observation: Observation) -> list[str]:
        texts, id_of, _ = _tables()
        found = []
        for action in observation.legal_actions:
            rid = id_of.get(action.code) if isinstance(action, Move) else None
            if rid is None:
                raise ValueError(f"{action} is not one of RLCard's moves: play under ddz.RLCARD")
            found.append(texts[rid])
        return found

    @classmethod
    def raw_obs(cls, observation: Observation) -> dict[str, Any]:
        """The part of RLCard's state the rule agent reads (``state["raw_obs"]``): seats
        numbered from the landlord (RLCard's seat 0), the play phase's moves as its trace,
        the seat's hand and the actions it is offered, in RLCard's order."""
        landlord = observation.landlord
        if landlord is None or len(observation.card_counts) != 3:
            raise ValueError("RLCard's rule agent plays three seats with a landlord")
        _, id_of, place = _tables()

        def seat(player: int) -> int:
            return (player - landlord) % 3

        trace = [
            (seat(entry.player), _move_text(entry.action))
            for entry in observation.history
            if entry.phase == "play" and isinstance(entry.action, Move)
        ]
        offered = cls._texts(observation)
        if not (observation.table is None or observation.table_player == observation.player):
            # an answer: RLCard lists the pass, the same type's moves as it walks its
            # tables, then the rocket and the bombs (after a bomb: the bombs, then the rocket)
            table = observation.table
            assert table is not None

            def key(pair: tuple[Action, str]) -> int:
                action = pair[0]
                assert isinstance(action, Move)
                if action.is_pass:
                    return -1
                walk = place[id_of[action.code]]
                if action.type is MoveType.ROCKET:
                    return walk + (1 << 20 if table.type is not MoveType.BOMB else 1 << 21)
                if action.type is MoveType.BOMB and table.type is not MoveType.BOMB:
                    return walk + (1 << 21)
                return walk

            pairs = sorted(zip(observation.legal_actions, offered, strict=True), key=key)
            offered = [text for _, text in pairs]
        return {
            "landlord": 0,
            "self": seat(observation.player),
            "trace": trace,
            "current_hand": _text(observation.hand),
            "actions": offered,
            "num_cards_left": [observation.card_counts[(landlord + s) % 3] for s in range(3)],
        }
