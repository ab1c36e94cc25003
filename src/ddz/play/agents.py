"""Agents: players that choose an action for the seat to act.

An agent sees what its seat may see. An ordinary agent has ``act(observation) -> Action``:
the observation is the seat's information set (:meth:`ddz.Game.observation`): its own
hand, the others' card counts, the cards played, the table, the landlord, the kitty once
shown, bids, the history and ``legal_actions``, one of which it returns. An agent that needs
the whole game (a solver that reads every hand, an oracle for experiments) says so with the
class attribute ``perfect_information = True`` and is given the :class:`ddz.Game` instead.
An ordinary agent that needs the rules (they are public: a search agent samples worlds and
plays them out under them) may have a method ``set_rules(rules)``, which :func:`choose` calls
with the game's rules before ``act``. :func:`choose` asks either kind; the arena,
``simulate`` and the command line use it. The search agents, ``SolverAgent`` and
``PIMCAgent``, live in :mod:`ddz.play.search_agents` and are registered here too.

>>> import ddz
>>> from ddz.play.agents import GreedyAgent, RandomAgent, choose, make_agent
>>> game = ddz.Game(seed=7)
>>> agents = [GreedyAgent(), RandomAgent(seed=1), make_agent("greedy")]
>>> while not game.is_over:
...     seat = game.current_player
...     _ = game.step(choose(agents[seat], game))   # step() checks: a slip would raise
...     if game.is_void:                            # everyone passed in bidding
...         game = game.redeal()
>>> game.landlord, game.winner, game.payoffs()
(2, 2, [-1, -1, 2])
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import ClassVar, Literal, NamedTuple, Protocol, runtime_checkable

import numpy as np

from ddz._core import moves as _core
from ddz.base.errors import check_integer
from ddz.doudizhu.actions import Action
from ddz.doudizhu.cards import Cards
from ddz.doudizhu.game import Game
from ddz.doudizhu.moves import PASS, Move, MoveType
from ddz.doudizhu.observation import Observation
from ddz.play.bidding import CALL_AT, GRAB_AT, bid_points, strength
from ddz.play.search_agents import PIMC_OPPONENTS, PIMCAgent, SolverAgent

__all__ = [
    "AGENTS",
    "AGENT_KINDS",
    "Agent",
    "AgentFactory",
    "AgentKind",
    "AnyAgent",
    "GreedyAgent",
    "PIMCAgent",
    "PerfectInformationAgent",
    "RandomAgent",
    "SolverAgent",
    "agent_factory",
    "agent_names",
    "choose",
    "make_agent",
    "register_agent_kind",
]


@runtime_checkable
class Agent(Protocol):
    """A player that sees its seat's information set: ``act(observation)`` returns one of
    ``observation.legal_actions`` (it is called only on the observing seat's turn).

    It must not change anything it is given; the caller takes the action.
    """

    def act(self, observation: Observation) -> Action: ...


@runtime_checkable
class PerfectInformationAgent(Protocol):
    """A player that reads the whole game, every hand included, and says so:
    ``perfect_information = True`` (a class attribute), ``act(game)`` returns a legal action
    for ``game.current_player`` without changing the game."""

    perfect_information: ClassVar[Literal[True]]

    def act(self, game: Game) -> Action: ...


AnyAgent = Agent | PerfectInformationAgent
"""Either kind of agent: what :func:`choose` accepts."""

AgentFactory = Callable[[int | None], AnyAgent]
"""Something that makes an agent from a seed (``None``: unseeded), such as an agent class."""


def choose(agent: AnyAgent, game: Game) -> Action:
    """The action ``agent`` chooses for the seat to act: an ordinary agent is shown that
    seat's observation, a ``perfect_information`` agent the game itself.

    >>> import ddz
    >>> class Peeker:                      # sees every hand: must say so
    ...     perfect_information = True
    ...     def act(self, game):
    ...         return game.legal_actions()[-1]
    >>> game = ddz.Game(seed=7)
    >>> str(choose(Peeker(), game)), str(choose(GreedyAgent(), game))
    ('bid 3', 'bid 1')
    """
    seat = game.current_player
    if seat is None:
        raise ValueError("the game is over: no seat is to act")
    if getattr(agent, "perfect_information", False) is True:
        return agent.act(game)  # type: ignore[arg-type]
    set_rules = getattr(agent, "set_rules", None)
    if set_rules is not None:
        set_rules(game.rules)  # public knowledge, which an observation does not hold
    return agent.act(game.observation(seat))  # type: ignore[arg-type]


def seen_by(agent: object, given: Observation | Game) -> Observation:
    """What an ordinary agent's ``act`` reads: the observation given, or, for a game (as
    earlier versions took), the observation of its seat to act. TypeError for anything else,
    naming what to pass."""
    if isinstance(given, Observation):
        return given
    if isinstance(given, Game):
        seat = given.current_player
        if seat is None:
            raise ValueError("the game is over: no seat is to act")
        return given.observation(seat)
    name = type(agent).__name__
    raise TypeError(
        f"{name}.act takes an observation (game.observation(seat)) or a game, "
        f"not {type(given).__name__}"
    )


class RandomAgent:
    """Plays a uniformly random legal action (bids included), from a seeded generator.

    >>> import ddz
    >>> seen = ddz.Game(seed=7).observation(2)
    >>> str(RandomAgent(seed=3).act(seen)) == str(RandomAgent(seed=3).act(seen))
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        # any integer (numpy's too) or None; never a bool, float or text, which Random took
        self.rng = random.Random(None if seed is None else check_integer(seed, "seed"))

    def act(self, observation: Observation | Game) -> Action:
        """A uniformly random legal action of the observing seat (a game: its seat to act)."""
        return self.rng.choice(seen_by(self, observation).legal_actions)

    def __repr__(self) -> str:
        return "RandomAgent()"


# --- the greedy agent's arithmetic on card integers -------------------------------------
#
# A card integer holds one octal digit per rank, the count of that rank (``Cards.mask``,
# docs/layout.md); a move code holds a move's cards in its low bits and its type, main rank
# and chain length above them. The greedy agent scores every legal move with a handful of
# integer operations on these, instead of building Move and Cards objects: it is called
# for every decision of millions of games.

_RANKS = 15  # 3 .. A, 2, small joker, big joker: the digits that matter here
_ONES = sum(1 << (3 * rank) for rank in range(_RANKS))  # bit 0 of every rank digit
_FOURS = _ONES << 2  # bit 2 of every digit: set exactly where a rank is held four times
_JOKERS = (7 << 3 * 13) | (7 << 3 * 14)
_ROCKET_CARDS = (1 << 3 * 13) | (1 << 3 * 14)
_CARDS = _core.CARDS_MASK
_TYPE_SHIFT = _core.TYPE_SHIFT_
_RANK_SHIFT = _core.RANK_SHIFT_

_SINGLE = int(MoveType.SINGLE)
_PAIR = int(MoveType.PAIR)
_BOMB = int(MoveType.BOMB)
_ROCKET = int(MoveType.ROCKET)
_SKIP = int(MoveType.SKIP)  # Skip and Reverse, the action cards of Uno the Landlord, last
assert int(MoveType.REVERSE) == _SKIP + 1

# What keeping a card is worth: its rank for 3 .. A, more for the cards that win tricks
# (the 2 and the jokers), which a player wants to hold back for control.
_KEEP = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 14, 17, 19)
_LEAD_GAIN = 9  # a lead's worth per card shed, against the worth of the cards kept
_SPLIT = 7  # the cost of leaving part of a rank behind (a pair broken into a single, ...)
_CLOSE = 3  # an opponent with this many cards or fewer is close to going out
_PARTNER_CHEAP = 24  # the most a farmer spends to take a trick from the other farmer


def _value_tables() -> tuple[list[int], ...]:
    """Four lookup tables, one per group of four rank digits (12 bits), giving for those
    digits the cards' keep-worth in the low 16 bits and their number above."""
    tables = []
    for group in range(4):
        ranks = range(4 * group, min(4 * group + 4, _RANKS))
        table = []
        for bits in range(1 << (3 * len(ranks))):
            worth = count = 0
            for offset, rank in enumerate(ranks):
                digit = (bits >> (3 * offset)) & 7
                worth += digit * _KEEP[rank]
                count += digit
            table.append(worth | count << 16)
        tables.append(table)
    return tuple(tables)


_T0, _T1, _T2, _T3 = _value_tables()


def _worth(cards: int) -> int:
    """Keep-worth of some cards | their number << 16 (see _value_tables)."""
    return (
        _T0[cards & 0xFFF]
        + _T1[(cards >> 12) & 0xFFF]
        + _T2[(cards >> 24) & 0xFFF]
        + _T3[(cards >> 36) & 0x1FF]
    )


def _ranks_held(cards: int) -> int:
    """One bit (bit 0 of the digit) for every rank present in ``cards``."""
    return (cards | cards >> 1 | cards >> 2) & _ONES


def _strength(hand: Cards) -> int:
    """How strong a hand is for bidding: the cards that win tricks and the bombs.

    >>> _strength(Cards("3456789TJQKA2XD")), _strength(Cards("3333XD22"))
    (9, 15)
    """
    return int(strength(np.array(hand.counts(), dtype=np.int64)))


class GreedyAgent:
    """A fast rule-of-thumb player: no search, a few integer operations per legal move.

    Bidding: by hand strength (big joker 4, small joker 3, each 2 counts 2, two aces 1,
    each bomb 4): bid 1, 2 or 3 from 3, 5 and 7 points; call from 3 and grab from 7.

    Leading: the move that sheds the most low cards, so long chains and trios with a low
    kicker come first, without breaking pairs and trios needlessly; never a move that
    breaks a bomb or the rocket. The winning move when one empties the hand; against an
    opponent with one or two cards left, no single (or pair) they could beat cheaply; the
    lowest single when the farmer partner holds one card.

    Answering: the cheapest beating move that breaks no bomb or rocket (the highest one
    when an opponent is about to go out); a bomb or the rocket only when an opponent is
    close to going out, or when what is left goes out in one move. A farmer does not beat
    the other farmer unless that goes out, or is cheap and the partner is not about to
    go out.

    Two players: the farmer plays for the let count (out at as many cards as there were
    grabs), and the landlord counts the farmer as close by the cards above it. Uno the
    Landlord: Skip and Reverse are kept; a Skip stops an opponent who is next and close to
    going out when there is nothing else to play.

    The agent is deterministic; ``seed`` is accepted (and ignored) so every agent is made
    the same way.

    >>> import ddz
    >>> game = ddz.Game(deal=(["33344455567899TJQ", "6677889TTJJQKKAA2", "2223456789TJQKAXD"],
    ...                       "QKA"), first_player=2)
    >>> agent = GreedyAgent()
    >>> str(agent.act(game.observation(2)))          # seat 2: both jokers and three 2s
    'bid 3'
    >>> _ = game.step("bid 3")
    >>> str(game.hands[2]), str(agent.act(game.observation(2)))   # a long chain, QQ KK AA kept
    ('3456789TJQQKKAA222XD', '3456789TJ')
    """

    def __init__(self, seed: int | None = None) -> None:
        if seed is not None:  # deterministic: nothing to seed, but a seed is an integer
            check_integer(seed, "seed")

    def __repr__(self) -> str:
        return "GreedyAgent()"

    def act(self, observation: Observation | Game) -> Action:
        """The greedy choice for the observing seat (given a game: for its seat to act)."""
        seen = seen_by(self, observation)
        if seen.phase == "bidding":
            return self._bid(seen)
        me = seen.player
        landlord = seen.landlord
        assert landlord is not None, "act() is called in play on the seat to act"
        seats = len(seen.card_counts)
        hand = seen.hand.mask
        counts = seen.card_counts
        # Two players: the farmer wins on reaching the let count (one per grab).
        lets = seen.grabs if seats == 2 else 0
        partner = -1
        if me == landlord:
            opponents_left = min(counts[seat] for seat in range(seats) if seat != me) - lets
            goal = 0
        else:
            opponents_left = counts[landlord]
            goal = lets
            if seats == 3:
                partner = 3 - me - landlord
        table = seen.table
        # The legal moves in the core's order (the pass first when answering), as codes.
        codes: list[int] = [action.code for action in seen.legal_actions]
        # Out: the hand empties, or (a two-player farmer) holds no more than the lets.
        winning = _winning_move(codes, hand, counts[me] - goal) if goal else -1
        if winning >= 0:
            code = winning
        elif table is None:
            partner_left = counts[partner] if partner >= 0 else 0
            code = self._lead(codes, hand, opponents_left, partner_left)
        else:
            code = self._answer(
                codes,
                hand,
                opponents_left,
                partner >= 0 and seen.table_player == partner,
                counts[partner] if partner >= 0 else 0,
                (me + seen.direction) % seats != partner,
            )
        return Move.from_code(code) if code else PASS

    # --- bidding ---------------------------------------------------------------------------

    def _bid(self, seen: Observation) -> Action:
        held = _strength(seen.hand)
        legal = seen.legal_actions
        kinds = {str(action): action for action in legal}
        if "call" in kinds or "grab" in kinds:
            if "grab" in kinds and held >= GRAB_AT:
                return kinds["grab"]
            if "call" in kinds and held >= CALL_AT:
                return kinds["call"]
            return kinds.get("pass", legal[0])
        points = int(bid_points(np.array(held)))
        if points and f"bid {points}" in kinds:
            return kinds[f"bid {points}"]
        return kinds.get("pass", legal[0])

    # --- play ------------------------------------------------------------------------------

    @staticmethod
    def _breaks(cards: int, kind: int, hand: int) -> bool:
        """Does a move take cards from a bomb or the rocket without playing it whole?"""
        if kind in (_BOMB, _ROCKET):
            return False
        if _ranks_held(cards) & (hand & _FOURS) >> 2:
            return True
        return hand & _ROCKET_CARDS == _ROCKET_CARDS and bool(cards & _JOKERS)

    def _lead(self, codes: list[int], hand: int, opponents_left: int, partner_left: int) -> int:
        best, best_score = codes[0], None
        # A farmer whose partner holds one card leads the lowest single: the partner may
        # go out on it.
        feed_partner = partner_left == 1
        for code in codes:
            cards = code & _CARDS
            if cards == hand:
                return code  # goes out: wins
            kind = (code >> _TYPE_SHIFT) & 31
            if kind >= _SKIP or self._breaks(cards, kind, hand):
                continue  # action cards are kept for answering (see _answer)
            rest = hand - cards
            worth = _worth(cards)
            number, keep = worth >> 16, worth & 0xFFFF
            if kind in (_BOMB, _ROCKET):
                # A bomb leads only when what is left goes out in one more move.
                if not _is_one_move(rest, codes):
                    continue
                score = 1000
            else:
                splits = (_ranks_held(cards) & _ranks_held(rest)).bit_count()
                score = number * _LEAD_GAIN - keep - _SPLIT * splits
                if feed_partner and kind == _SINGLE:
                    score = 500 - keep
                elif opponents_left <= 2 and (
                    kind == _SINGLE or (opponents_left == 2 and kind == _PAIR)
                ):
                    # Lead the highest one, so the opponent cannot go out on it cheaply.
                    score = -100 + keep
            if best_score is None or score > best_score:
                best, best_score = code, score
        return best

    def _answer(
        self,
        codes: list[int],
        hand: int,
        opponents_left: int,
        partner_on_table: bool,
        partner_left: int,
        opponent_next: bool,
    ) -> int:
        if len(codes) == 1:
            return 0  # only the pass
        best, best_cost = 0, None
        bomb, bomb_cost = 0, None
        skip = 0
        urgent = opponents_left <= _CLOSE
        for code in codes[1:]:  # the pass comes first
            cards = code & _CARDS
            if cards == hand:
                return code  # goes out: wins
            kind = (code >> _TYPE_SHIFT) & 31
            if kind >= _SKIP:
                if kind == _SKIP:
                    skip = code
                continue
            if self._breaks(cards, kind, hand):
                continue
            if kind in (_BOMB, _ROCKET):
                # Cheaper bomb first; the rocket last.
                cost = ((code >> _RANK_SHIFT) & 15) + (100 if kind == _ROCKET else 0)
                if bomb_cost is None or cost < bomb_cost:
                    bomb, bomb_cost = code, cost
                continue
            worth = _worth(cards)
            splits = (_ranks_held(cards) & _ranks_held(hand - cards)).bit_count()
            cost = (worth & 0xFFFF) + _SPLIT * splits
            if opponents_left <= 2:
                cost = -cost  # hold the trick with the highest answer
            if best_cost is None or cost < best_cost:
                best, best_cost = code, cost
        if partner_on_table:
            # Let the partner's move stand, unless answering is cheap: low cards, nothing
            # broken, and the partner not about to go out anyway.
            cheap = best_cost is not None and 0 <= best_cost <= _PARTNER_CHEAP
            if best and cheap and partner_left > 2:
                worth = _worth(best & _CARDS)
                if (worth & 0xFFFF) <= 8 * (worth >> 16):  # on average a J or lower
                    return best
            return 0
        if best:
            return best
        if bomb and (urgent or _is_one_move(hand - (bomb & _CARDS), codes)):
            return bomb
        if skip and urgent and opponent_next:
            return skip  # Uno the Landlord: the opponent about to go out loses a turn
        return 0


def _winning_move(codes: list[int], hand: int, most: int) -> int:
    """The first move that leaves at most ``most`` cards of ``hand`` (-1: none)."""
    for code in codes:
        if code and _worth(code & _CARDS) >> 16 >= most:
            return code
    return -1


def _is_one_move(cards: int, codes: list[int]) -> bool:
    """Can these cards be played as one move? (Empty cards can: the hand is out.)

    ``codes`` are the legal moves of a hand holding ``cards``: their card sets are the
    moves that hand could make, so a match is a move of exactly these cards. A lead's
    codes hold every move; an answer's, only the beating ones, which then errs on "no".
    """
    if cards == 0:
        return True
    return any(code & _CARDS == cards for code in codes)


AGENTS: dict[str, AgentFactory] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "pimc": PIMCAgent,
    "solver": SolverAgent,
}
"""The agents by the names the arena and the command line use (each made with its default
parameters: ``ddz.play.search_agents`` documents those of ``pimc`` and ``solver``)."""


class AgentKind(NamedTuple):
    """Agents named with an argument, ``kind:ARGUMENT`` (:data:`AGENT_KINDS`)."""

    resolve: Callable[[str], AgentFactory]
    """The factory of the agent named by the argument (ValueError, FileNotFoundError or
    ImportError saying what is wrong with it)."""
    usage: str
    """How the name is written, for messages: ``douzero:PATH``."""


AGENT_KINDS: dict[str, AgentKind] = {}
"""Agents named ``kind:ARGUMENT``, such as ``douzero:PATH`` (an agent playing DouZero's
checkpoints at PATH): registered by the layers above this one
(:func:`register_agent_kind`), since the code behind them may not be imported here."""


def register_agent_kind(kind: str, resolve: Callable[[str], AgentFactory], usage: str) -> None:
    """Name agents ``kind:ARGUMENT``: ``resolve(ARGUMENT)`` gives their factory."""
    if not kind.isidentifier():
        raise ValueError(f"an agent kind is a word, not {kind!r}")
    AGENT_KINDS[kind] = AgentKind(resolve, usage)


def _modelling_pimc(model: str) -> AgentFactory:
    """``pimc:MODEL``: ``PIMCAgent`` whose playouts play the other seats as ``MODEL``
    (``opponent=``: ``greedy``, ``rlcard-rule`` or ``auto``)."""
    if model not in PIMC_OPPONENTS:
        raise ValueError(f"pimc:{model}: the models are {', '.join(PIMC_OPPONENTS)}")

    def factory(seed: int | None) -> AnyAgent:
        return PIMCAgent(seed, opponent=model)

    return factory


register_agent_kind("pimc", _modelling_pimc, "pimc:MODEL")


def agent_names(registry: Mapping[str, AgentFactory] = AGENTS) -> str:
    """The agent names for messages: the registry's, then the kinds' usages."""
    return ", ".join([*registry, *(kind.usage for kind in AGENT_KINDS.values())])


def agent_factory(name: str, registry: Mapping[str, AgentFactory] = AGENTS) -> AgentFactory:
    """The factory of the agent named ``name``: a name in ``registry``, or
    ``kind:ARGUMENT`` of a kind in :data:`AGENT_KINDS` (resolved now: a checkpoint is read
    here, once, and its errors raised here)."""
    if not isinstance(name, str):
        raise TypeError(f"an agent name is text, not {type(name).__name__}")
    factory = registry.get(name)
    if factory is not None:
        return factory
    kind, colon, argument = name.partition(":")
    if colon and kind in AGENT_KINDS:
        if not argument:
            raise ValueError(f"{kind}: names nothing; write {AGENT_KINDS[kind].usage}")
        return AGENT_KINDS[kind].resolve(argument)
    raise ValueError(f"no agent {name!r}; the agents are: {agent_names(registry)}")


def make_agent(name: str, seed: int | None = None) -> AnyAgent:
    """A new agent by its name in :data:`AGENTS` (or ``kind:ARGUMENT``, :func:`agent_factory`).

    >>> make_agent("greedy"), make_agent("random", 1)
    (GreedyAgent(), RandomAgent())
    >>> make_agent("clever")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: no agent 'clever'; the agents are: random, greedy, pimc, solver...
    """
    return agent_factory(name)(seed)
