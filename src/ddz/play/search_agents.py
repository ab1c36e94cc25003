"""Agents that search: :class:`SolverAgent` reads every hand and plays the exact solver's move;
:class:`PIMCAgent` sees only its seat's observation, samples the hidden hands and plays out
every candidate move in every sampled world (Perfect Information Monte Carlo).

Both are registered in :data:`ddz.play.agents.AGENTS` (``"solver"`` and ``"pimc"``) and play in the
arena, ``python -m ddz simulate`` and ``python -m ddz play``; docs/solver.md ("Agents that
search") has how they work and their measured strength.

>>> import ddz
>>> from ddz.play.search_agents import PIMCAgent, SolverAgent
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
from collections.abc import Callable
from typing import ClassVar, Literal, cast

import numpy as np
import numpy.typing as npt

from ddz._core import playouts as _playouts
from ddz._core import solver as _solver_core
from ddz._core import vector as _vector
from ddz._core.moves import Move
from ddz.base.errors import check_integer, check_number, shorten
from ddz.base.fanout import run_interruptible
from ddz.doudizhu.actions import Action, Bid
from ddz.doudizhu.game import Game
from ddz.doudizhu.observation import Observation
from ddz.doudizhu.rules import Rules
from ddz.doudizhu.solver import Solver
from ddz.doudizhu.worlds import Worlds, sample_worlds
from ddz.play.inference import (
    assign_models,
    bid_disagreements,
    greedy_weights,
    model_disagreements,
    model_posterior,
    model_weights,
    pass_weights,
    passes_over_beatable,
    resample,
)
from ddz.play.model_playouts import Model, model_playouts, plays_like
from ddz.play.open_playouts import Reading, open_playouts, read_play, rule_seats, seat_models
from ddz.play.rule_model import OPPONENTS, rule_order

__all__ = ["OBJECTIVES", "PIMC_OPPONENTS", "PIMCAgent", "SolverAgent"]

OBJECTIVES = ("wp", "score")
"""What :class:`PIMCAgent` plays for: ``"wp"`` the share of sampled worlds it wins (win
probability), ``"score"`` the expected stake (bid, bombs and spring under the game's Rules)."""


PIMC_OPPONENTS = (*OPPONENTS, "auto")
"""Whom :class:`PIMCAgent` plays the other seats as in its playouts (``opponent=``): the
greedy agent, RLCard's rule agent, or, ``"auto"``, each seat in each world as one of the two
drawn in proportion to how well it explains the seat's play so far (half and half before)."""


def _objective(value: object, name: str = "objective") -> Literal["wp", "score"]:
    """``value`` if it is one of :data:`OBJECTIVES`, else one ValueError naming them."""
    if value == "wp" or value == "score":
        return "wp" if value == "wp" else "score"
    raise ValueError(
        f'{name} must be "wp" (win probability) or "score" (expected stake), not {shorten(value)}'
    )


def _going_out(hand_size: int, legal: list[Action]) -> list[Action]:
    """The legal moves that empty a hand of ``hand_size`` cards (they end the game won)."""
    return [a for a in legal if isinstance(a, Move) and not a.is_pass and len(a.cards) == hand_size]


def _best_going_out(moves: list[Action]) -> Action:
    """The first going-out move, a bomb or rocket first: it doubles the stake it wins."""
    return next((a for a in moves if isinstance(a, Move) and a.is_bomb), moves[0])


def _greedy(game: Game, legal: list[Action]) -> Action:
    """The greedy agent's choice (ddz.play.agents.GreedyAgent, in C) among ``legal``."""
    code = _vector.greedy_action(game.rules, game.state_bytes())
    for action in legal:
        if action.code == code:
            return action
    return legal[0]  # not reached: the C greedy chooses a legal action


_DIRECT_PLAYOUTS = 4096
"""Playouts a call may hold (tens of milliseconds) and still run on the calling thread."""
_DIRECT_WORK = 1 << 22
"""A work limit up to which a call runs on the calling thread (about 0.1 s of moves scored)."""
_CHUNK_PLAYOUTS = 32
"""Playouts between two readings of the clock under a time limit (about a millisecond)."""
_ASSIGN_SEED = 0x5EED_0F_A550
"""Mixed into a decision's seed for the draw of each world's models (``"auto"``), apart from
the sampling's and the playouts' own uses of that seed."""
_GROUP_SEED = 0x9E3779B97F4A7C15
"""Mixed into the playouts' seed once for each group of worlds after the first that plays
another assignment of models (each group is its own call)."""


def _limit(value: float | None, name: str) -> float | None:
    """A number of seconds above 0, or None (TypeError for text, bools, ...)."""
    return None if value is None else check_number(value, name, positive=True)


class SolverAgent:
    """Plays the exact solver's move (:func:`ddz.solve`), reading every hand, and exploits
    fallible opponents where the solve alone would not: it says so with
    ``perfect_information = True`` and is given the :class:`ddz.Game`.

    ``objective="wp"`` (the default): a move that empties its hand is always played (a bomb
    or rocket first among several: it doubles the stake), counted as neither solved nor
    fallen back; otherwise each decision is one solve within ``node_limit`` nodes (and
    ``time_limit`` seconds, if given: a time limit makes the agent's choices depend on the
    machine's speed), and

    * in a **won** position it plays a proved win, the fastest it finds: the solver's
      winning move, or a move playing more cards whose own solve proves it wins too (the
      nearest thing to the shortest win a win/loss proof gives; at most ``win_tries`` such
      solves a decision, the most cards first);
    * in a **lost** position (lost against perfect opponents), the move whose playouts
      against a model of the players win most often (:mod:`ddz.play.open_playouts`:
      ``playouts`` games from the true position, each seat played by its model, below,
      a random action ``epsilon`` per mille of the time), ties going to the solver's move,
      the one that holds out longest: real opponents go wrong;
    * when the solve is **unknown** within the limits, or more than ``max_cards`` cards are
      left in the hands (``None``: always try), it **falls back** to going out where it can,
      else to those playouts' best move (the most won, then the highest mean payoff, then
      the greedy agent's choice), never to the greedy agent's choice alone.

    ``objective="score"``: each decision is a score-mode solve (``solve(score=True)``: the
    winning side maximises the final stake, bombs and spring counted), and its move is played
    even over going out, since it is *proved* to score at least as much with every hand
    known; going out is taken only when that solve is unknown, and the playouts' best move
    when it cannot go out. The default stays ``"wp"``: a score solve searches more for the
    same ``node_limit``.

    ``playout_model`` says whom those open playouts play the other seats as, in C (the agent
    itself greedy): ``"greedy"`` (the greedy agent), ``"rlcard-rule"`` (RLCard's rule agent:
    the other side, and a partner while it has played every move as the rule agent would;
    three seats) or ``"auto"`` (the default: each other seat as whichever of the two
    disagrees with fewer of its moves so far, the greedy agent on a tie and with two seats;
    :func:`ddz.play.open_playouts.seat_models`), the strings and the reading of
    :class:`PIMCAgent`'s ``opponent``, here in the one true world. A farmer whose partner is
    played as the rule agent, having played every move so far as it would, searches a
    proved farmers' win the same way (the solver's move first among equals) instead of
    trusting it: the proof assumes a perfect partner.

    ``opponent`` (opt-in; default ``None``: the above unchanged; ``playout_model`` still
    plays the open playouts, which choose and break ties) is a factory of a model of
    the opponents (an ordinary agent made from a seed, as :data:`ddz.play.agents.AGENTS`
    holds them: RLCard's rule agent, ``ddz.compat.rlcard_rule.RLCardRuleAgent``, under
    ``ddz.RLCARD``). With every hand known, the agent then simulates them as they play:
    wherever it would play the open playouts' best move, their best ``candidates`` moves
    (and the solver's and the greedy agent's) are played out again ``model_playouts`` times
    each with the opponents' seats played by the model (:mod:`ddz.play.model_playouts`; its
    own side greedy, a random action ``model_epsilon`` per mille of the time), and the move
    that wins those most often is played, the open playouts breaking ties. A farmer whose
    partner has played every move so far as the model would (or not yet played) takes the
    partner for one too: its partner is modelled as well, and a proved win of the farmers
    (which assumes a perfect partner) is searched in the same way, the solver's move first
    among equals.

    In bidding it plays the greedy agent's choice. ``solved`` and ``fallbacks`` count its
    decisions of each kind (a forced action, the only legal one, counts as neither).
    ``seed`` seeds the playouts (``None``: seed 0; the agent is deterministic).

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
        objective: str = "wp",
        playouts: int = 64,
        epsilon: int = 250,
        win_tries: int = 4,
        opponent: Callable[[int | None], object] | None = None,
        candidates: int = 6,
        model_playouts: int = 1,
        model_epsilon: int = 0,
        playout_model: str = "auto",
    ) -> None:
        self._rng = random.Random(0 if seed is None else check_integer(seed, "seed"))
        if playout_model not in PIMC_OPPONENTS:
            raise ValueError(
                f"playout_model must be one of {', '.join(PIMC_OPPONENTS)}, "
                f"not {shorten(playout_model)}"
            )
        self.playout_model = playout_model
        self.objective = _objective(objective)
        self.node_limit = check_integer(node_limit, "node_limit", 1, 1 << 40)
        self.time_limit = _limit(time_limit, "time_limit")
        self.max_cards = None if max_cards is None else check_integer(max_cards, "max_cards", 0)
        self.memory_mb = check_integer(memory_mb, "memory_mb", 1, 1 << 16)
        self.playouts = check_integer(playouts, "playouts", 1, 1 << 16)
        self.epsilon = check_integer(epsilon, "epsilon", 0, 1000)
        self.win_tries = check_integer(win_tries, "win_tries", 0, 1 << 16)
        if opponent is not None and not callable(opponent):
            raise TypeError(
                "opponent must make a model of the opponents from a seed (a factory, as "
                f"ddz.agents.AGENTS holds), not {type(opponent).__name__}"
            )
        self.opponent = opponent
        self.candidates = check_integer(candidates, "candidates", 1, 1 << 16)
        self.model_playouts = check_integer(model_playouts, "model_playouts", 1, 1 << 16)
        self.model_epsilon = check_integer(model_epsilon, "model_epsilon", 0, 1000)
        self._model: Model | None = None
        if opponent is not None:
            model = opponent(self._rng.getrandbits(32))
            if getattr(model, "perfect_information", False) or not callable(
                getattr(model, "act", None)
            ):
                raise TypeError(
                    "opponent must make an ordinary agent (act(observation) -> action), "
                    f"not {type(model).__name__}"
                )
            self._model = cast(Model, model)
        # the partner's play checked against the model so far: (deal, plies checked, alike)
        self._partner: tuple[object, int, bool] | None = None
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
        current = game.current_player
        assert current is not None  # in play
        out = _going_out(len(game.hands[current]), legal)
        score = self.objective == "score"
        if out and not score:  # a sure win now: no search can find a surer one
            return _best_going_out(out)
        if self.playout_model == "rlcard-rule" and game.rules.players != 3:
            raise ValueError("playout_model='rlcard-rule' plays three seats, not two")
        if self.max_cards is not None and sum(map(len, game.hands)) > self.max_cards:
            self.fallbacks += 1
            return _best_going_out(out) if out else self._played_out(game, legal, None)
        if self._solver is None or self._solver.rules != game.rules:
            self._solver = Solver(game.rules, memory_mb=self.memory_mb)
        result = self._solver.solve(
            game, node_limit=self.node_limit, time_limit=self.time_limit, score=score, line=False
        )
        if result.value is None or result.move is None:
            self.fallbacks += 1
            return _best_going_out(out) if out else self._played_out(game, legal, None)
        self.solved += 1
        code = result.move.code
        move = next((action for action in legal if action.code == code), None)
        if move is None:
            raise AssertionError(f"the solver's move {result.move} is not legal")  # not reached
        if score:
            return move
        models = None
        if result.value > 0:
            trusted = not self._partner_modelled(game)
            if trusted and current != game.landlord:  # a farmer: how is its partner played?
                models, reading = self._models(game)
                trusted = not _rule_partner(game, models, reading)
            if trusted:
                return self._fastest_win(game, legal, move)
        # a proof of a farmers' win assumes a perfect partner: beside a modelled one, the
        # move is searched like a lost one's, the solver's move first among equals
        return self._played_out(game, legal, move, models)

    def _models(self, game: Game) -> tuple[list[str], Reading | None]:
        """Each seat's model in the open playouts (``playout_model``), and the play read."""
        if self.playout_model == "greedy":
            return ["greedy"] * game.rules.players, None
        reading = read_play(game)
        return seat_models(game, self.playout_model, reading), reading

    def _played_out(
        self,
        game: Game,
        legal: list[Action],
        lost: Action | None,
        models: list[str] | None = None,
    ) -> Action:
        """The move whose open playouts win most often, each seat played by its model
        (``models``, else :meth:`_models`); ties: in a lost position the solver's move
        ``lost``, else the highest mean payoff; then the greedy agent's."""
        won, points = open_playouts(
            game,
            legal,
            playouts=self.playouts,
            epsilon=self.epsilon,
            seed=self._rng.getrandbits(64),
            models=self._models(game)[0] if models is None else models,
        )
        greedy = _greedy(game, legal)

        def value(j: int) -> tuple[float, bool, float, bool]:
            action = legal[j]
            return (float(won[j]), action == lost, float(points[j]), action == greedy)

        ranked = sorted(range(len(legal)), key=value, reverse=True)
        if self._model is None:
            return legal[ranked[0]]
        # against a model of the players, the best few (and the solver's and the greedy
        # agent's moves) are played out again with the modelled seats playing as modelled;
        # the playouts above break the ties
        chosen = ranked[: self.candidates]
        chosen += [j for j in range(len(legal)) if legal[j] in (lost, greedy) and j not in chosen]
        me = game.current_player
        assert me is not None and game.landlord is not None
        modelled = {
            s for s in range(game.rules.players) if (s == game.landlord) != (me == game.landlord)
        }
        if self._partner_modelled(game):
            modelled.add(3 - me - game.landlord)
        model_won, _ = model_playouts(
            game,
            [legal[j] for j in chosen],
            self._model,
            modelled,
            playouts=self.model_playouts,
            epsilon=self.model_epsilon,
            seed=self._rng.getrandbits(64),
        )
        best = max(range(len(chosen)), key=lambda k: (float(model_won[k]), value(chosen[k])))
        return legal[chosen[best]]

    def _partner_modelled(self, game: Game) -> bool:
        """With a model of the opponents: is this farmer's partner (three seats) taken for
        one too, having played every move so far as the model would (before its first move:
        yes)? Checked move by move, once each (:func:`ddz.play.model_playouts.plays_like`)."""
        me, landlord = game.current_player, game.landlord
        model = self._model
        if model is None or me is None or landlord is None or me == landlord:
            return False
        if game.rules.players != 3:
            return False
        deal = (game.deal, landlord)
        start, alike = 0, True
        if self._partner is not None and self._partner[0] == deal:
            _, start, alike = self._partner
        if alike:
            alike, start = plays_like(game, 3 - me - landlord, model, start)
        self._partner = (deal, start, alike)
        return alike

    def _fastest_win(self, game: Game, legal: list[Action], move: Action) -> Action:
        """A proved win playing the most cards: up to ``win_tries`` moves playing more cards
        than the solver's winning ``move`` are solved, the most cards first."""
        solver = self._solver
        assert solver is not None
        me, landlord = game.current_player, game.landlord

        def cards(action: Action) -> int:
            return len(action.cards) if isinstance(action, Move) else 0

        longer = sorted((a for a in legal if cards(a) > cards(move)), key=cards, reverse=True)
        for action in longer[: self.win_tries]:
            child = game.copy()
            child.push(action)
            result = solver.solve(
                child, node_limit=self.node_limit, time_limit=self.time_limit, line=False
            )
            if result.value is None:
                continue
            same_side = (child.current_player == landlord) == (me == landlord)
            if (result.value > 0) == same_side:
                return action
        return move


def _rule_partner(game: Game, models: list[str], reading: Reading | None) -> bool:
    """Is the partner of the farmer to act played as the rule agent in the open playouts
    (``models``) and has it played every move so far as the rule agent would?"""
    me, landlord = game.current_player, game.landlord
    if me is None or landlord is None or me == landlord or game.rules.players != 3:
        return False
    partner = 3 - me - landlord
    return models[partner] == "rlcard-rule" and (reading is None or reading[1][partner] == 0)


_BID_OVERSAMPLE = 3
"""Worlds sampled for each one kept when only the bids are read (the bidding, the first lead)."""


def _plus(
    counts: npt.NDArray[np.int64] | None, more: npt.NDArray[np.int64] | None
) -> npt.NDArray[np.int64] | None:
    """Disagreement counts added (None: nothing read), a world the play could not come from
    (-1 in its first column) left so."""
    if counts is None or more is None:
        return more if counts is None else counts
    return np.where(counts[:, :1] < 0, counts, counts + more)


class PIMCAgent:
    """Perfect Information Monte Carlo: an ordinary agent (it is given only its seat's
    observation) that samples the hidden cards and plays every candidate out.

    For each decision with more than one legal action it

    1. samples ``worlds`` worlds with :func:`ddz.sample_worlds`, consistent with everything
       the seat has seen; in play, once others have played, ``oversample`` times as many,
       weighted by what their play says (``pass_weight`` for each pass over a move the seat
       could beat without a bomb, ``greedy_weight`` for each move the greedy agent would not
       have made in that world: :mod:`ddz.play.inference`) and resampled to ``worlds``;
    2. in every world, takes each legal action and lets every seat play the greedy agent to
       the end of the game, in C (``ddz._core.playouts``), scoring the seat's payoff. With
       more than ``keep`` legal actions and more than ``playouts`` playouts to play, a first
       round plays every action in the first ``playouts // actions`` worlds (at least one),
       and only the ``keep`` best of them (and the greedy agent's choice) go on to every world.
       Each round stops after the world at which its playouts' players have scored ``work``
       legal moves in all (0: no limit), a bound on the time that depends on nothing else:
       a few hundred a playout is usual, about 20 ns each;
    3. when ``exact_cards`` or fewer cards are left in the hands (play phase), solves each
       world's position after each of those actions exactly (:func:`ddz.solve`,
       ``node_limit`` nodes a solve, ``solve_nodes`` nodes a decision in all, world by world;
       the table kept between solves) and corrects the playout where the solver disagrees:
       the playout's payoff if it agrees, else the current score won or lost; a solve unknown
       within its limit leaves the playout's result;
    4. plays the action with the best value under ``objective`` (ties: the greedy agent's
       choice, then the first legal action):

       * ``"score"`` (the default): the mean payoff (the stake: bid, doubled by every bomb
         and rocket and by a spring where the rules count one) plus ``win_weight`` times the
         share of won worlds; ``win_weight`` (default 1.0) is the tie-break towards winning
         the agent always had, and ``objective="score"`` with the defaults plays as the agent
         did before ``objective`` existed. The default is ``"score"`` because that is what
         every :class:`ddz.Rules` scores: :meth:`ddz.Game.payoffs` and the arena's ADP pay
         the stake, and no rule set pays a win/loss only.
       * ``"wp"``: the share of won worlds only (``win_weight`` is not used): a bomb that
         doubles the stake is worth nothing more, so it is played only where it wins more.

    Whatever the objective, three rules come before that choice (docs/agents.md,
    "Objectives and guarantees"):

    * **going out**: a legal move that empties the hand ends the game won, and is always
      played (among several, a bomb or rocket first). Under ``"score"`` too: the solver
      proves wins and losses, not scores, and the sampled worlds are not all the worlds the
      seat cannot tell apart, so no other move is ever *proved* to score more, and the agent
      never gives up a sure stake for an unproved larger one;
    * **proved wins**: when step 3 solved every world played for some actions and each of
      them won in every one (or the action ends the game won), the choice is among those
      actions only (by the objective's value, then the most cards played: the nearest
      thing to the shortest win a win/loss proof gives);
    * **a winning partner**: a farmer (three players) whose partner made the move on the
      table passes unless another action's value is strictly higher than passing's (under
      ``"wp"``: a strictly higher share of won worlds); pass is always among the actions
      searched then.

    Bidding is searched the same way, in ``bid_worlds`` worlds (the kitty is among the
    hidden cards until shown); with ``read_bids`` (off: it measured no better) the other
    seats' bids are read like their moves (what the greedy agent would have bid with each
    world's cards). Under ``bid_objective="score"`` (the default) each bid's value is as
    ``objective="score"`` values an action; under ``"wp"`` each bid is worth its share of won
    worlds (a void deal counts half). ``bid_margin`` (0 by default) is added to passing's
    value: a bid must beat passing by that much. Against the greedy agent ``"wp"`` with a
    margin of 0.15 takes the landlord's seat less often and raises the arena's WP, but only
    in the seatings where two copies play each other; alone against two greedy players it
    won no more and scored less (docs/agents.md).

    ``opponent`` says whom the other seats are played as in step 2 and read through in step
    1: ``"greedy"`` (as above), ``"rlcard-rule"`` (RLCard 1.2.0's rule agent, ported to C:
    ``ddz._core.rule``, :mod:`ddz.play.rule_model`; three seats) or ``"auto"`` (the default:
    each other seat, world by world, as one of the two drawn in proportion to how well it
    explains the seat's moves so far there, ``rule_prior`` the rule agent's share before
    any: :meth:`_posterior`; the greedy agent with two seats). Under ``"rlcard-rule"``
    the other side plays as the rule agent, and a partner while some sampled world has it
    playing every move as the rule agent would; each move a seat played as the rule agent
    would not have made weighs its world by ``rule_weight``; ``oversample`` is then 10 unless
    given; and step 3's verdicts that assume perfect play of a seat played as the rule agent
    in a world (a loss: perfect opponents; a farmers' win: a perfect partner) leave that
    world's playouts alone.

    ``seed`` makes it reproducible: the same observations give the same actions. A
    ``time_limit`` (seconds) bounds the whole decision: the playouts run in chunks of about
    32 with the clock read between them, the solves stop once it is spent, and what was
    played by then decides (nothing: the greedy agent's choice); it makes the choices
    depend on the machine's speed.

    The rules are public, not hidden information: the arena, ``simulate`` and
    ``play`` give them through ``set_rules`` (``ddz.play.agents.choose`` calls it); pass ``rules=``
    to call ``act`` yourself.
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        rules: Rules | None = None,
        worlds: int = 100,
        playouts: int = 1000,
        keep: int = 8,
        work: int = 1_000_000,
        exact_cards: int = 20,
        node_limit: int = 5_000,
        solve_nodes: int = 100_000,
        win_weight: float = 1.0,
        epsilon: int = 0,
        time_limit: float | None = None,
        objective: str = "score",
        pass_weight: float = 1.0,
        oversample: int | None = None,
        bid_worlds: int = 1000,
        greedy_weight: float = 0.2,
        opponent: str = "auto",
        rule_weight: float = 0.01,
        rule_prior: float = 0.5,
        bid_objective: str = "score",
        read_bids: bool = False,
        bid_margin: float = 0.0,
    ) -> None:
        self.rules = rules
        if not isinstance(read_bids, bool):
            raise TypeError(f"read_bids must be True or False, not {shorten(read_bids)}")
        self.read_bids = read_bids
        self.bid_margin = check_number(bid_margin, "bid_margin")
        if opponent not in PIMC_OPPONENTS:
            raise ValueError(
                f"opponent must be one of {', '.join(PIMC_OPPONENTS)}, not {shorten(opponent)}"
            )
        self.opponent = opponent
        self.rule_weight = check_number(rule_weight, "rule_weight")
        if not 0 <= self.rule_weight <= 1:
            raise ValueError(f"rule_weight must be from 0 to 1, not {rule_weight}")
        self.rule_prior = check_number(rule_prior, "rule_prior")
        if not 0 <= self.rule_prior <= 1:
            raise ValueError(f"rule_prior must be from 0 to 1, not {rule_prior}")
        self.objective = _objective(objective)
        self.bid_objective = _objective(bid_objective, "bid_objective")
        self.worlds = check_integer(worlds, "worlds", 1, 1 << 16)
        self.playouts = check_integer(playouts, "playouts", 1, 1 << 24)
        self.keep = check_integer(keep, "keep", 1, 1 << 16)
        self.work = check_integer(work, "work", 0, 1 << 62)
        self.exact_cards = check_integer(exact_cards, "exact_cards", 0, 64)
        self.node_limit = check_integer(node_limit, "node_limit", 1, 1 << 40)
        self.solve_nodes = check_integer(solve_nodes, "solve_nodes", 0, 1 << 40)
        self.win_weight = check_number(win_weight, "win_weight")
        self.epsilon = check_integer(epsilon, "epsilon", 0, 1000)
        self.time_limit = _limit(time_limit, "time_limit")
        self.pass_weight = check_number(pass_weight, "pass_weight")
        if not 0 < self.pass_weight <= 1:
            raise ValueError(f"pass_weight must be above 0 and at most 1, not {pass_weight}")
        self.oversample = (
            None if oversample is None else check_integer(oversample, "oversample", 1, 64)
        )
        self.greedy_weight = check_number(greedy_weight, "greedy_weight")
        if not 0 <= self.greedy_weight <= 1:
            raise ValueError(f"greedy_weight must be from 0 to 1, not {greedy_weight}")
        self.bid_worlds = check_integer(bid_worlds, "bid_worlds", 1, 1 << 16)
        self._rng = random.Random(None if seed is None else check_integer(seed, "seed"))
        self._solver: Solver | None = None

    def __repr__(self) -> str:
        return "PIMCAgent()"

    def _sample(self, observation: Observation, rules: Rules, seed: int) -> Worlds:
        """Step 1's worlds (:meth:`_sample_models`)."""
        return self._sample_models(observation, rules, seed)[0]

    def _opponent(self, rules: Rules) -> str:
        """The model of the other seats under ``rules``: ``"auto"`` reads through the greedy
        agent alone where the rule agent does not play (two seats)."""
        if self.opponent == "auto" and rules.players != 3:
            return "greedy"
        return self.opponent

    def _oversample(self, rules: Rules) -> int:
        """``oversample``, or when not given 3, and 10 under a model with the rule agent:
        its moves say more of its hand than the greedy agent's, and its sharper weight needs
        more worlds to draw from (measured: docs/agents.md)."""
        if self.oversample is not None:
            return self.oversample
        return 3 if self._opponent(rules) == "greedy" else 10

    def _sample_models(
        self, observation: Observation, rules: Rules, seed: int
    ) -> tuple[Worlds, list[list[str]]]:
        """Step 1: ``worlds`` worlds, drawn from ``oversample`` times as many weighted by
        what the other seats' play says (ddz.play.inference), and each world's model of
        each seat in the playouts (:meth:`_models`; under ``"auto"``, :meth:`_posterior`)."""
        opponent = self._opponent(rules)
        if opponent == "auto" and observation.landlord is not None:
            return self._posterior(observation, rules, seed)
        oversample = self._oversample(rules)
        models = self._models(observation, rules, None)
        reads = (
            observation.phase == "play"
            and oversample > 1
            and any(record.phase == "play" for record in observation.history)
        )
        weighs = self.pass_weight < 1 or self.greedy_weight < 1 or opponent != "greedy"
        # the bids read through the greedy agent (the rule agent always passes: nothing)
        bids = (
            self._reads_bids(observation, oversample)
            and opponent != "rlcard-rule"
            and self.greedy_weight < 1
        )
        n = self.bid_worlds if observation.phase == "bidding" else self.worlds
        if not ((reads and weighs) or bids):
            worlds = sample_worlds(observation, n=n, seed=seed, rules=rules)
            return worlds, [models] * len(worlds)
        if not (reads and weighs):
            oversample = min(oversample, _BID_OVERSAMPLE)
        pool = sample_worlds(observation, n=n * oversample, seed=seed, rules=rules)
        weights = np.ones(len(pool), dtype=np.float64)
        if bids:
            others = {
                p: self.greedy_weight for p in range(rules.players) if p != observation.player
            }
            weights *= model_weights(bid_disagreements(observation, pool.hands), others, len(pool))
        if reads and weighs:  # the play read too (else the bids alone)
            passes = passes_over_beatable(observation, rules) if self.pass_weight < 1 else []
            weights *= pass_weights(pool.hands, passes, rules, self.pass_weight)
            if opponent == "greedy":
                weights *= greedy_weights(observation, rules, pool.hands, self.greedy_weight)
            else:
                every = rules.players
                rule = model_disagreements(observation, rules, pool.hands, ["rlcard-rule"] * every)
                greedy = None
                models = self._models(observation, rules, rule)
                if self.greedy_weight < 1 and models.count("greedy") > 1:
                    # a partner played greedy: its moves read through the greedy agent (the
                    # replay skipped when no other seat needs it: it is most of the sampling)
                    greedy = model_disagreements(observation, rules, pool.hands, ["greedy"] * every)
                for counts, model, weight in (
                    (greedy, "greedy", self.greedy_weight),
                    (rule, "rlcard-rule", self.rule_weight),
                ):
                    seats = {
                        p: weight
                        for p in range(every)
                        if p != observation.player and models[p] == model
                    }
                    weights *= model_weights(counts, seats, len(weights))
        if not weights.any():  # no world agrees with the play: the uniform sample
            weights[:] = 1.0
        worlds = pool.take(resample(weights, n, seed))
        return worlds, [models] * len(worlds)

    def _reads_bids(self, observation: Observation, oversample: int) -> bool:
        """Are the other seats' bids read (``read_bids``; some other seat bid or passed)?"""
        return (
            self.read_bids
            and oversample > 1
            and any(
                record.phase == "bidding" and record.player != observation.player
                for record in observation.history
            )
            # call-and-grab bidding is not read (bid_disagreements)
            and all(
                isinstance(record.action, Bid) and record.action.kind in ("bid", "pass")
                for record in observation.history
                if record.phase == "bidding"
            )
        )

    def _posterior(
        self, observation: Observation, rules: Rules, seed: int
    ) -> tuple[Worlds, list[list[str]]]:
        """Step 1 under ``"auto"`` (three seats, the landlord known): not told whom it
        plays, each world plays each other seat as the rule agent or the greedy agent, drawn
        in proportion to how well each explains that seat's play so far in that world
        (``rule_weight``, ``greedy_weight`` a disagreement; ``rule_prior`` the rule agent's
        share before any play: the first lead is played against both), and the worlds are
        weighted by the two models' evidence together (ddz.play.inference.model_posterior)."""
        me, every = observation.player, rules.players
        others = [seat for seat in range(every) if seat != me]
        oversample = self._oversample(rules)
        reads = (
            observation.phase == "play"
            and oversample > 1
            and any(record.phase == "play" for record in observation.history)
        )
        greedy = rule = None
        bids = self._reads_bids(observation, oversample)
        if reads or bids:
            # the bids alone: a smaller pool (their reading is cheap, the sampling is not)
            size = self.worlds * (oversample if reads else min(oversample, _BID_OVERSAMPLE))
            pool = sample_worlds(observation, n=size, seed=seed, rules=rules)
            if reads:
                rule = model_disagreements(observation, rules, pool.hands, ["rlcard-rule"] * every)
                greedy = model_disagreements(observation, rules, pool.hands, ["greedy"] * every)
            if bids:
                # the bids are moves too: a seat's disagreements with a model include them
                greedy = _plus(greedy, bid_disagreements(observation, pool.hands, "greedy"))
                rule = _plus(rule, bid_disagreements(observation, pool.hands, "rlcard-rule"))
            reads = True
        else:
            n = self.bid_worlds if observation.phase == "bidding" else self.worlds
            pool = sample_worlds(observation, n=n, seed=seed, rules=rules)
        weights, chances = model_posterior(
            greedy,
            rule,
            others,
            len(pool),
            self.greedy_weight,
            self.rule_weight,
            self.rule_prior,
        )
        if reads:
            passes = passes_over_beatable(observation, rules) if self.pass_weight < 1 else []
            weights *= pass_weights(pool.hands, passes, rules, self.pass_weight)
            if not weights.any():  # no world agrees with the play: the uniform sample
                weights[:] = 1.0
            taken = resample(weights, self.worlds, seed)
            worlds, chances = pool.take(taken), chances[taken]
        else:
            worlds = pool
        ruled = assign_models(chances, seed ^ _ASSIGN_SEED)
        models = []
        for row in ruled:
            world = ["greedy"] * every
            for k, seat in enumerate(others):
                if row[k]:
                    world[seat] = "rlcard-rule"
            models.append(world)
        return worlds, models

    def _models(
        self, observation: Observation, rules: Rules, rule: npt.NDArray[np.int64] | None
    ) -> list[str]:
        """Each seat's player in the playouts: the seat itself greedy; the others the greedy
        agent under ``opponent="greedy"`` (and under ``"auto"`` before the landlord is known:
        after, :meth:`_posterior` draws them); under ``"rlcard-rule"`` the other side the
        rule agent, and a partner too while some sampled world has it playing every move as
        the rule agent would (``rule``: the rule agent's disagreements in the pool)."""
        players = rules.players
        models = ["greedy"] * players
        if self._opponent(rules) != "rlcard-rule" or players != 3 or observation.landlord is None:
            return models
        me, landlord = observation.player, observation.landlord
        possible = None if rule is None else rule[:, 0] >= 0
        if possible is not None and not possible.any():
            return models  # no world the play could come from: nothing read
        # the rule agent's fewest disagreements with each seat's play in any world (0: not read)
        fewest = [
            0 if rule is None or seat == me else int(rule[possible, seat].min())
            for seat in range(players)
        ]
        return rule_seats(me, landlord, fewest)

    def set_rules(self, rules: Rules) -> None:
        """The rules the game is played by (public knowledge; ``choose`` calls this)."""
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a ddz.Rules, not {type(rules).__name__}")
        self.rules = rules

    def act(self, observation: Observation) -> Action:
        if not isinstance(observation, Observation):
            raise TypeError(
                "PIMCAgent.act takes an Observation (game.observation(seat)), "
                f"not {type(observation).__name__}"
            )
        start = time.perf_counter()
        deadline = None if self.time_limit is None else start + self.time_limit
        legal = list(observation.legal_actions)
        if not legal:
            raise ValueError("the observation has no legal actions: it is not this seat's turn")
        if len(legal) == 1:
            return legal[0]
        rules = self.rules
        if rules is None:
            raise ValueError(
                "PIMCAgent needs the rules: PIMCAgent(rules=...), or play it through "
                "ddz.play.agents.choose (the arena, simulate and play do)"
            )
        if observation.phase == "play":
            out = _going_out(len(observation.hand), legal)
            if out:  # a sure win now: no search can find a surer one
                return _best_going_out(out)
        seed = self._rng.getrandbits(64)
        if self._opponent(rules) != "greedy" and rules.players != 3:
            raise ValueError(f"opponent={self.opponent!r} plays three seats, not two")
        try:
            worlds, models = self._sample_models(observation, rules, seed)
            template = worlds.game(0)
        except ValueError:
            # bidding seen without its history cannot be replayed: pass, always legal
            if observation.phase == "bidding":
                return legal[0]
            raise
        me = observation.player
        state = template.state_bytes()
        codes = np.array([action.code for action in legal], dtype=np.uint64)
        # the greedy agent's choice reads only this seat's hand and the public counts, so
        # any world's state gives the same one
        greedy = legal.index(_greedy(template, legal))
        # a farmer whose partner's move is on the table: passing is the move to beat
        partner = (
            observation.phase == "play"
            and rules.players == 3
            and observation.landlord is not None
            and me != observation.landlord
            and observation.table_player is not None
            and observation.table_player not in (me, observation.landlord)
        )
        keep = {greedy}
        passing = None
        if partner:
            passing = next(j for j, a in enumerate(legal) if isinstance(a, Move) and a.is_pass)
            keep.add(passing)
        candidates = list(range(len(legal)))
        count = len(worlds)
        first = max(1, min(count, self.playouts // len(legal)))
        early: tuple[list[int], npt.NDArray[np.int64]] | None = None
        if first < count and len(legal) > self.keep:
            # many actions: a first round in a few worlds, then the best few in all of them
            payoffs = self._play(rules, state, worlds, first, codes, me, seed, deadline, models)
            if len(payoffs) == 0:  # the time limit came first
                return legal[greedy]
            early = (candidates, payoffs)
            value = self._value(payoffs)
            ranked = sorted(candidates, key=lambda j: (-value[j], j))[: self.keep]
            candidates = sorted(set(ranked) | keep)
        payoffs = self._play(
            rules, state, worlds, count, codes[candidates], me, seed, deadline, models
        )
        if len(payoffs) == 0:  # the time limit came first: the first round's, else greedy
            if early is None:
                return legal[greedy]
            candidates, payoffs = early
        proved = np.zeros(len(candidates), dtype=bool)
        if observation.phase == "play" and sum(observation.card_counts) <= self.exact_cards:
            chosen = [legal[j] for j in candidates]
            # the playouts' work limit may have stopped them before the last world
            hands = worlds.hands[: len(payoffs)]
            landlord = observation.landlord
            trusted = [
                (True, True) if landlord is None else self._trusted(world, me, landlord)
                for world in models[: len(payoffs)]
            ]
            proved = self._solve_worlds(template, hands, chosen, payoffs, me, deadline, trusted)
        if observation.phase == "bidding":
            value = self._bid_value(payoffs)
            for k, j in enumerate(candidates):
                action = legal[j]
                if isinstance(action, Bid) and action.kind == "pass":
                    value[k] += self.bid_margin
        else:
            value = self._value(payoffs)
        allowed = list(range(len(candidates)))
        if proved.any():  # never trade a proved win for a playout's estimate
            allowed = [k for k in allowed if proved[k]]
        if passing is not None and passing in candidates:
            k_pass = candidates.index(passing)
            if k_pass in allowed and value[k_pass] >= max(value[k] for k in allowed):
                return legal[passing]  # nothing strictly better than letting the partner win
        best = max(value[k] for k in allowed)
        ties = [k for k in allowed if value[k] == best]
        if proved.any():  # among proved wins of equal value, the most cards played
            most = max(self._cards(legal[candidates[k]]) for k in ties)
            ties = [k for k in ties if self._cards(legal[candidates[k]]) == most]
        tied = [candidates[k] for k in ties]
        return legal[greedy] if greedy in tied else legal[tied[0]]

    @staticmethod
    def _cards(action: Action) -> int:
        """How many cards ``action`` plays (0 for a pass or a bid)."""
        return len(action.cards) if isinstance(action, Move) else 0

    def _play(
        self,
        rules: Rules,
        state: bytes,
        worlds: Worlds,
        count: int,
        codes: npt.NDArray[np.uint64],
        me: int,
        seed: int,
        deadline: float | None = None,
        models: list[list[str]] | None = None,
    ) -> npt.NDArray[np.int64]:
        """Seat ``me``'s payoff in each of the first ``count`` worlds after each action (in
        fewer worlds when the playouts' work reached ``work``, or the clock ``deadline``),
        each seat played by its model in that world (``models``, one list a world; None:
        every seat greedy)."""
        payoffs = np.empty((count, len(codes)), dtype=np.int64)
        hands, kitty = worlds.hands[:count], worlds.kitty[:count]
        models = None if models is None else models[:count]
        ruled = models is not None and any("rlcard-rule" in world for world in models)
        order = rule_order() if ruled else None

        def run(stop: _playouts.Stop | None) -> tuple[int, int]:
            return self._grouped(
                rules, state, hands, kitty, codes, me, payoffs, models, order, seed, self.work, stop
            )

        if deadline is not None:
            return self._play_until(
                rules, state, hands, kitty, codes, me, payoffs, seed, deadline, models, order
            )
        if count * len(codes) <= _DIRECT_PLAYOUTS or 0 < self.work <= _DIRECT_WORK:
            played, _ = run(None)  # short: no thread to pay for
        else:
            # long: in C without the GIL on a helper thread, this one waiting where Ctrl-C
            # reaches it (the solver's mechanism), the playouts stopped by their flag
            stop = _playouts.Stop()
            played, _ = run_interruptible(stop, lambda: run(stop))
        return payoffs[:played]

    def _play_until(
        self,
        rules: Rules,
        state: bytes,
        hands: npt.NDArray[np.uint64],
        kitty: npt.NDArray[np.uint64],
        codes: npt.NDArray[np.uint64],
        me: int,
        payoffs: npt.NDArray[np.int64],
        seed: int,
        deadline: float,
        models: list[list[str]] | None = None,
        order: _playouts.RuleOrder | None = None,
    ) -> npt.NDArray[np.int64]:
        """:meth:`_play` under a time limit: the worlds in chunks of about
        ``_CHUNK_PLAYOUTS`` playouts (a millisecond or two), the clock read between chunks,
        on this thread. Each chunk's playouts are seeded by its first world (a time limit
        does not promise the untimed choices anyway)."""
        step = max(1, _CHUNK_PLAYOUTS // len(codes))
        played = work = 0
        while played < len(hands) and time.perf_counter() < deadline:
            end = min(len(hands), played + step)
            budget = 0 if self.work == 0 else max(1, self.work - work)
            done, spent = self._grouped(
                rules,
                state,
                hands[played:end],
                kitty[played:end],
                codes,
                me,
                payoffs[played:end],
                None if models is None else models[played:end],
                order,
                seed ^ played,
                budget,
                None,
            )
            played += done
            work += spent
            if played < end or (self.work and work >= self.work):
                break
        return payoffs[:played]

    def _grouped(
        self,
        rules: Rules,
        state: bytes,
        hands: npt.NDArray[np.uint64],
        kitty: npt.NDArray[np.uint64],
        codes: npt.NDArray[np.uint64],
        me: int,
        payoffs: npt.NDArray[np.int64],
        models: list[list[str]] | None,
        order: _playouts.RuleOrder | None,
        seed: int,
        work: int,
        stop: _playouts.Stop | None,
    ) -> tuple[int, int]:
        """One ``policy_playouts`` call for each assignment of models among the worlds
        (``models``, one list a world; one call, as before ``"auto"`` drew them, when all
        worlds play the same): (the worlds played, a prefix of them; the work). The groups
        share ``work``; a group stopped short (the work, ``stop``) stops the rest."""
        if models is None or all(world == models[0] for world in models):
            return _playouts.policy_playouts(
                rules,
                state,
                hands,
                kitty,
                codes,
                me,
                payoffs,
                models[0] if models else None,
                order,
                seed,
                self.epsilon,
                work,
                stop,
            )
        groups: dict[tuple[str, ...], list[int]] = {}
        for i, world in enumerate(models):
            groups.setdefault(tuple(world), []).append(i)
        done = np.zeros(len(models), dtype=bool)
        spent = 0
        for g, (group, rows) in enumerate(groups.items()):
            if work and spent >= work:
                break
            index = np.array(rows, dtype=np.intp)
            out = np.empty((len(index), len(codes)), dtype=np.int64)
            played, used = _playouts.policy_playouts(
                rules,
                state,
                np.ascontiguousarray(hands[index]),
                np.ascontiguousarray(kitty[index]),
                codes,
                me,
                out,
                list(group),
                order,
                (seed ^ (g * _GROUP_SEED)) & 0xFFFF_FFFF_FFFF_FFFF,
                self.epsilon,
                work - spent if work else 0,
                stop,
            )
            payoffs[index[:played]] = out[:played]
            done[index[:played]] = True
            spent += used
            if played < len(index):
                break
        missing = np.flatnonzero(~done)
        return (int(missing[0]) if len(missing) else len(models)), spent

    @staticmethod
    def _trusted(models: list[str], me: int, landlord: int) -> tuple[bool, bool]:
        """Which of a solve's verdicts correct a playout: (a loss, a win). A loss assumes
        perfect opponents, a farmers' win a perfect partner: where those seats are played
        as RLCard's rule agent, the model is what they will play and the solver's perfect
        play is not, so that verdict leaves the playout's result."""
        side = [(seat == landlord) == (me == landlord) for seat in range(len(models))]
        loss = all(m == "greedy" for seat, m in enumerate(models) if not side[seat])
        win = all(m == "greedy" for seat, m in enumerate(models) if side[seat] and seat != me)
        return loss, win

    def _bid_value(self, payoffs: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """Each bid's value under ``bid_objective``: as :meth:`_value` under ``"score"``;
        under ``"wp"`` its share of won worlds, a void deal (every seat passed: payoff 0,
        dealt again) counted half won, as a fresh deal is neither side's."""
        if self.bid_objective == "score":
            return self._value(payoffs)
        won: npt.NDArray[np.float64] = (payoffs > 0).mean(axis=0) + 0.5 * (payoffs == 0).mean(
            axis=0
        )
        return won

    def _value(self, payoffs: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """Each action's value under ``objective``: its share of won worlds (``"wp"``), or
        its mean payoff plus ``win_weight`` times that share (``"score"``)."""
        won: npt.NDArray[np.float64] = (payoffs > 0).mean(axis=0)
        if self.objective == "wp":
            return won
        value: npt.NDArray[np.float64] = payoffs.mean(axis=0)
        value += self.win_weight * won
        return value

    def _solve_worlds(
        self,
        template: Game,
        hands: npt.NDArray[np.uint64],
        legal: list[Action],
        payoffs: npt.NDArray[np.int64],
        me: int,
        deadline: float | None,
        trusted: list[tuple[bool, bool]] | None = None,
    ) -> npt.NDArray[np.bool_]:
        """Step 3 of the class docstring: correct the playouts with exact solves. Returns
        which actions are proved won in every world of ``payoffs``: the action ends the
        game won, or every world's solve of it is a win (none stopped by a limit)."""
        rules = template.rules
        if self._solver is None or self._solver.rules != rules:
            self._solver = Solver(rules, memory_mb=16)
        solver = self._solver  # one raw core search per world and action is enough
        landlord = template.landlord
        assert landlord is not None  # in play
        players = rules.players
        children = []
        won_in = np.zeros(len(legal), dtype=np.int64)  # worlds each action is proved won in
        over = np.zeros(len(legal), dtype=bool)
        for j, action in enumerate(legal):
            child = template.copy()
            child.push(action)
            if child.is_over:
                over[j] = child.payoffs()[me] > 0
                continue  # the playout already holds the exact payoff
            fields = _solver_core.state_position(child.state_bytes())
            current = fields[3]
            same_side = (current == landlord) == (me == landlord)
            stake = child.multiplier * (2 if players == 3 and me == landlord else 1)
            children.append((j, fields, same_side, stake))
        spent = 0
        # world by world, every action of a world: a budget that runs out leaves whole
        # worlds uncorrected rather than some actions corrected in more worlds than others
        for i in range(len(hands)):
            if spent >= self.solve_nodes:
                break
            if deadline is not None and time.perf_counter() > deadline:
                break
            world = [int(cards) for cards in hands[i]]
            for j, fields, same_side, stake in children:
                world[me] = fields[0][me]
                value, _, nodes, _ = solver._core_solve(
                    fields, hands=world, node_limit=self.node_limit
                )
                spent += nodes
                if value is None:
                    continue
                won = (value > 0) == same_side
                won_in[j] += won
                if (payoffs[i, j] > 0) != won and (trusted is None or trusted[i][won]):
                    payoffs[i, j] = stake if won else -stake
        proved: npt.NDArray[np.bool_] = over | ((won_in == len(hands)) & (len(hands) > 0))
        return proved
