"""Agents that search: :class:`SolverAgent` reads every hand and plays the exact solver's move;
:class:`PIMCAgent` sees only its seat's observation, samples the hidden hands and plays out
every candidate move in every sampled world (Perfect Information Monte Carlo).

Both are registered in :data:`ddz.agents.AGENTS` (``"solver"`` and ``"pimc"``) and play in the
arena, ``python -m ddz simulate`` and ``python -m ddz play``; docs/solver.md ("Agents that
search") has how they work and their measured strength.

>>> import ddz
>>> from ddz.search_agents import PIMCAgent, SolverAgent
>>> game = ddz.Game.from_position(ddz.ENDGAME, ["3KK", "44A"], landlord=0, to_act=0)
>>> str(SolverAgent().act(game))            # every hand known: KK wins, 3 or K loses
'KK'
>>> seen = game.observation(0)               # seat 0's view only: the other hand hidden
>>> str(PIMCAgent(seed=1, rules=ddz.ENDGAME).act(seen))
'KK'
"""

from __future__ import annotations

import random
import time
from typing import ClassVar, Literal

import numpy as np

from ddz._core import playouts as _playouts
from ddz._core import solver as _solver_core
from ddz._core import vector as _vector
from ddz.errors import check_integer
from ddz.game import Action, Game, Observation
from ddz.rules import Rules
from ddz.solver import Solver
from ddz.worlds import sample_worlds

__all__ = ["PIMCAgent", "SolverAgent"]


def _greedy(game: Game, legal: list[Action]) -> Action:
    """The greedy agent's choice (ddz.agents.GreedyAgent, in C) among ``legal``."""
    code = _vector.greedy_action(game.rules, game.state_bytes())
    for action in legal:
        if action.code == code:
            return action
    return legal[0]  # not reached: the C greedy chooses a legal action


def _limit(value: float | None, name: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ValueError(f"{name} must be a positive number of seconds or None, not {value!r}")
    return float(value)


class SolverAgent:
    """Plays the exact solver's move (:func:`ddz.solve`), reading every hand: it says so
    with ``perfect_information = True`` and is given the :class:`ddz.Game`.

    In a won position it plays a winning move; in a lost one the move that holds out longest
    (the one whose refutation took the most search). Each decision is one solve within
    ``node_limit`` nodes (and ``time_limit`` seconds, if given: a time limit makes the
    agent's choices depend on the machine's speed). It **falls back** to the greedy agent's
    choice (:class:`ddz.agents.GreedyAgent`) when the solve is unknown within the limits,
    when more than ``max_cards`` cards are left in the hands (``None``: always try), and in
    bidding; ``solved`` and ``fallbacks`` count its decisions of each kind (a forced action,
    the only legal one, counts as neither).

    The transposition table (``memory_mb``) carries over from one decision to the next, so
    the positions of one game cost less and less to solve.

    >>> import ddz
    >>> agent = SolverAgent(node_limit=10_000)
    >>> game = ddz.Game.from_position(ddz.ENDGAME, ["3KK", "44A"], landlord=0, to_act=0)
    >>> str(agent.act(game)), agent.solved, agent.fallbacks
    ('KK', 1, 0)
    """

    perfect_information: ClassVar[Literal[True]] = True

    def __init__(
        self,
        seed: int | None = None,
        *,
        node_limit: int = 100_000,
        time_limit: float | None = None,
        max_cards: int | None = None,
        memory_mb: int = 32,
    ) -> None:
        del seed  # deterministic: nothing to seed
        self.node_limit = check_integer(node_limit, "node_limit", 1, 1 << 40)
        self.time_limit = _limit(time_limit, "time_limit")
        self.max_cards = None if max_cards is None else check_integer(max_cards, "max_cards", 0)
        self.memory_mb = check_integer(memory_mb, "memory_mb", 1, 1 << 16)
        self.solved = 0
        self.fallbacks = 0
        self._solver: Solver | None = None

    def __repr__(self) -> str:
        return "SolverAgent()"

    def act(self, game: Game) -> Action:
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if game.phase != "play":
            return _greedy(game, legal)
        if self.max_cards is not None and sum(map(len, game.hands)) > self.max_cards:
            self.fallbacks += 1
            return _greedy(game, legal)
        if self._solver is None or self._solver.rules != game.rules:
            self._solver = Solver(game.rules, memory_mb=self.memory_mb)
        result = self._solver.solve(
            game, node_limit=self.node_limit, time_limit=self.time_limit, line=False
        )
        if result.value is None or result.move is None:
            self.fallbacks += 1
            return _greedy(game, legal)
        self.solved += 1
        for action in legal:
            if action.code == result.move.code:
                return action
        raise AssertionError(f"the solver's move {result.move} is not legal")  # not reached


class PIMCAgent:
    """Perfect Information Monte Carlo: an ordinary agent (it is given only its seat's
    observation) that samples the hidden cards and plays every candidate out.

    For each decision with more than one legal action it

    1. samples worlds with :func:`ddz.sample_worlds`, consistent with everything the seat has
       seen (``worlds`` of them, fewer when there are many legal actions: at most
       ``playouts`` playouts a decision, at least one world);
    2. in every world, takes each legal action and lets every seat play the greedy agent to
       the end of the game, in C (``ddz._core.playouts``), scoring the seat's payoff;
    3. when ``exact_cards`` or fewer cards are left in the hands (play phase), solves each
       world's position after each action exactly (:func:`ddz.solve`, ``node_limit`` nodes a
       solve, the table kept between solves) and corrects the playout's verdict where the
       solver disagrees: the side the solver says wins gets the playout's payoff if it agrees,
       else the current score; a solve unknown within its limit keeps the playout's result;
    4. plays the action with the best mean payoff plus ``win_weight`` times its share of
       won worlds (ties: the greedy agent's choice, then the first legal action).

    Bidding is searched the same way (the kitty is among the hidden cards until shown).

    ``seed`` makes it reproducible: the same observations give the same actions. A
    ``time_limit`` (seconds) stops the exact solves of a decision once spent (the playouts'
    results stand): it makes the choices depend on the machine's speed.

    The rules are public, not hidden information: the arena, ``simulate`` and
    ``play`` give them through ``set_rules`` (``ddz.agents.choose`` calls it); pass ``rules=``
    to call ``act`` yourself.
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        rules: Rules | None = None,
        worlds: int = 40,
        playouts: int = 2000,
        exact_cards: int = 16,
        node_limit: int = 5_000,
        win_weight: float = 1.0,
        epsilon: int = 0,
        time_limit: float | None = None,
    ) -> None:
        self.rules = rules
        self.worlds = check_integer(worlds, "worlds", 1, 1 << 16)
        self.playouts = check_integer(playouts, "playouts", 1, 1 << 24)
        self.exact_cards = check_integer(exact_cards, "exact_cards", 0, 64)
        self.node_limit = check_integer(node_limit, "node_limit", 1, 1 << 40)
        self.win_weight = float(win_weight)
        self.epsilon = check_integer(epsilon, "epsilon", 0, 1000)
        self.time_limit = _limit(time_limit, "time_limit")
        self._rng = random.Random(seed)
        self._solver: Solver | None = None

    def __repr__(self) -> str:
        return "PIMCAgent()"

    def set_rules(self, rules: Rules) -> None:
        """The rules the game is played by (public knowledge; ``choose`` calls this)."""
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a ddz.Rules, not {type(rules).__name__}")
        self.rules = rules

    def act(self, observation: Observation) -> Action:
        if not isinstance(observation, Observation):
            raise TypeError(f"PIMCAgent.act takes an Observation, not {type(observation).__name__}")
        legal = list(observation.legal_actions)
        if not legal:
            raise ValueError("the observation has no legal actions: it is not this seat's turn")
        if len(legal) == 1:
            return legal[0]
        rules = self.rules
        if rules is None:
            raise ValueError(
                "PIMCAgent needs the rules: PIMCAgent(rules=...), or play it through "
                "ddz.agents.choose (the arena, simulate and play do)"
            )
        start = time.perf_counter()
        seed = self._rng.getrandbits(64)
        count = max(1, min(self.worlds, self.playouts // len(legal)))
        try:
            worlds = sample_worlds(observation, n=count, seed=seed, rules=rules)
            template = worlds.game(0)
        except ValueError:
            # bidding seen without its history cannot be replayed: pass, always legal
            if observation.phase == "bidding":
                return legal[0]
            raise
        codes = np.array([action.code for action in legal], dtype=np.uint64)
        payoffs = np.empty((count, len(legal)), dtype=np.int64)
        me = observation.player
        _playouts.greedy_playouts(
            rules,
            template.state_bytes(),
            worlds.hands,
            worlds.kitty,
            codes,
            me,
            payoffs,
            seed,
            self.epsilon,
        )
        if observation.phase == "play" and sum(observation.card_counts) <= self.exact_cards:
            self._solve_worlds(template, worlds.hands, legal, payoffs, me, start)
        value = payoffs.mean(axis=0) + self.win_weight * (payoffs > 0).mean(axis=0)
        best = value.max()
        ties = [index for index in range(len(legal)) if value[index] == best]
        if len(ties) > 1:
            greedy = _greedy(template, legal)
            return greedy if legal.index(greedy) in ties else legal[ties[0]]
        return legal[ties[0]]

    def _solve_worlds(
        self,
        template: Game,
        hands: np.ndarray,
        legal: list[Action],
        payoffs: np.ndarray,
        me: int,
        start: float,
    ) -> None:
        """Step 3 of the class docstring: correct the playouts with exact solves."""
        rules = template.rules
        if self._solver is None or self._solver.rules != rules:
            self._solver = Solver(rules, memory_mb=16)
        core = self._solver._core  # one solve per world and action: the raw core is enough
        landlord = template.landlord
        assert landlord is not None  # in play
        players = rules.players
        deadline = None if self.time_limit is None else start + self.time_limit
        for j, action in enumerate(legal):
            child = template.copy()
            child.push(action)
            if child.is_over:
                continue  # the playout already holds the exact payoff
            fields = _solver_core.state_position(child.state_bytes())
            mine, table, table_player, current, _, direction, let, lplays, fplays = fields[:9]
            same_side = (current == landlord) == (me == landlord)
            stake = child.multiplier * (2 if players == 3 and me == landlord else 1)
            for i in range(len(hands)):
                if deadline is not None and time.perf_counter() > deadline:
                    return
                world = [int(cards) for cards in hands[i]]
                world[me] = mine[me]
                value, _, _, _ = core.solve(
                    world,
                    table,
                    table_player,
                    current,
                    landlord,
                    direction=direction,
                    let=let,
                    landlord_plays=lplays,
                    farmer_plays=fplays,
                    node_limit=self.node_limit,
                )
                if value is None:
                    continue
                won = (value > 0) == same_side
                if (payoffs[i, j] > 0) != won:
                    payoffs[i, j] = stake if won else -stake
