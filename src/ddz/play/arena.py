"""The arena: agents play the same deals from every seat, and the standard metrics.

Every deal is played once per *seating* (an assignment of agents to the seats), so every
agent holds every hand, bids from every position and meets every role the bidding gives it:

- three agents ``[a, b, c]``: the three rotations ``a b c``, ``c a b``, ``b c a``;
- two agents ``[a, b]``: each alone against two copies of the other, from every seat:
  ``a b b``, ``b a b``, ``b b a``, ``b a a``, ``a b a``, ``a a b`` (six seatings);
- one agent: it plays every seat;
- the two-player game (``ddz.TWO_PLAYER``): ``a b`` and ``b a``.

Repeated seatings are played once (``greedy, greedy, random`` has three, ``x, x, x`` one).

A void deal (everyone passed) is redealt, as at a real table: ``Game.redeal()`` gives the
next seed and moves the first bid on one seat; the redeals are counted in the result.

Metrics, per agent over every seat it played (a "game" below is one seat of one game):

- WP, the win percentage: the share of its games its side won;
- ADP, the average difference in points: the mean of its payoff, the points it won minus
  the points it lost (the landlord wins or loses twice the score, a farmer once);
- each with a 95% confidence interval, ±1.96 standard errors, the standard error taken
  over deals: the games of one deal share their cards, so they are not independent, but
  deals are.

The payoffs are zero-sum, so copies of one agent have an ADP of 0; in the three-player game
their WP is ``(2 - L) / 3`` for a landlord win rate ``L``, not 50%, because a farmers' win is
won by two seats. Compare agents within one arena, where each plays every seat equally
often.

>>> from ddz.play.arena import run_arena
>>> result = run_arena(["greedy", "random"], deals=4, seed=1)
>>> result.games, [stats.games for stats in result.stats]
(24, [36, 36])
>>> result == run_arena(["greedy", "random"], deals=4, seed=1)   # seeded: the same
True
>>> print(result)                                              # the table (result.table())
classic rules, seed 1: 4 deals x 6 seatings = 24 games; the games column counts seats, 3 a game
agent    games      WP   ±95%     ADP   ±95%  landlord  WP as landlord  WP as farmer
greedy      36   72.2%   10.9   +2.72   1.61        11          100.0%         60.0%
random      36   25.0%   13.7   -2.72   1.61        13           15.4%         30.4%
>>> result                  # the repr: one line (broken here for the page)
<ArenaResult classic rules, seed=1, deals=4, games=24:
 {'greedy': WP 72.2% ADP +2.72, 'random': WP 25.0% ADP -2.72}>
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Literal

from ddz.base.errors import check_integer
from ddz.doudizhu.game import Game
from ddz.doudizhu.rules import CLASSIC, PRESETS, Rules
from ddz.play.agents import AGENTS, AgentFactory, AnyAgent, agent_factory, choose

__all__ = [
    "CORE_AGENTS",
    "AgentStats",
    "ArenaResult",
    "play_game",
    "play_games",
    "run_arena",
    "run_core_arena",
    "seatings",
]

CORE_AGENTS = frozenset({"random", "greedy"})
"""The agents ``ddz.simulate`` plays in C (the C greedy chooses what GreedyAgent chooses)."""

MAX_REDEALS = 100
"""Void deals in a row after which the arena gives up (agents that never bid)."""

_Z95 = 1.959963984540054  # the normal quantile of 97.5%: a two-sided 95% interval
_MASK64 = (1 << 64) - 1


def seatings(agents: Sequence[str], players: int = 3) -> list[tuple[str, ...]]:
    """The seatings each deal is played under (see the module docstring).

    >>> seatings(["a", "b", "c"])
    [('a', 'b', 'c'), ('c', 'a', 'b'), ('b', 'c', 'a')]
    >>> seatings(["a", "b"])[:3], len(seatings(["a", "b"])), seatings(["a"])
    ([('a', 'b', 'b'), ('b', 'a', 'b'), ('b', 'b', 'a')], 6, [('a', 'a', 'a')])
    >>> seatings(["a", "b"], players=2)
    [('a', 'b'), ('b', 'a')]
    """
    names = list(agents)
    if not 1 <= len(names) <= players:
        raise ValueError(f"{players} seats take 1 to {players} agents, not {len(names)}")
    if len(names) == 1:
        lineups = [(names[0],) * players]
    elif len(names) == players:
        lineups = [tuple(names)]
    else:  # two agents, three seats: each alone against two of the other
        first, second = names
        lineups = [(first, second, second), (second, first, first)]
    result: list[tuple[str, ...]] = []
    for lineup in lineups:
        for shift in range(players):
            seating = lineup[players - shift :] + lineup[: players - shift]
            if seating not in result:
                result.append(seating)
    return result


@dataclasses.dataclass(frozen=True)
class AgentStats:
    """One agent's results over every seat it played (see the module docstring)."""

    name: str
    games: int
    wins: int
    points: int
    landlord_games: int
    landlord_wins: int
    wp: float
    """Win percentage, 0 .. 100."""
    wp_ci: float
    """Half-width of the 95% confidence interval of ``wp`` (NaN from fewer than two deals)."""
    adp: float
    """Average difference in points: the mean payoff per game."""
    adp_ci: float
    """Half-width of the 95% confidence interval of ``adp``."""

    @property
    def landlord_wp(self) -> float:
        """Win percentage as landlord (NaN if never landlord)."""
        return 100 * self.landlord_wins / self.landlord_games if self.landlord_games else math.nan

    @property
    def farmer_wp(self) -> float:
        """Win percentage as a farmer (NaN if never a farmer)."""
        farmer_games = self.games - self.landlord_games
        farmer_wins = self.wins - self.landlord_wins
        return 100 * farmer_wins / farmer_games if farmer_games else math.nan


@dataclasses.dataclass(frozen=True)
class ArenaResult:
    """What an arena run found: the set-up, counts, and one :class:`AgentStats` per agent."""

    agents: tuple[str, ...]
    rules: Rules
    seed: int
    deals: int
    seatings: tuple[tuple[str, ...], ...]
    games: int
    redeals: int
    """Void deals redealt (everyone passed in bidding)."""
    stats: tuple[AgentStats, ...]
    void_skipped: int = 0
    """Void games left out (``run_core_arena(void="skip")``: a void game is not redealt)."""
    void_replaced: int = 0
    """Deals left out for a void game under some seating, each replaced by the next deal of
    the run (``run_core_arena(void="replace")``)."""

    def __getitem__(self, name: str) -> AgentStats:
        """The stats of the agent named ``name``."""
        for stats in self.stats:
            if stats.name == name:
                return stats
        raise KeyError(name)

    def __str__(self) -> str:
        """The table (:meth:`table`): ``print(result)`` shows it."""
        return self.table()

    def __repr__(self) -> str:
        """One line: the set-up, the counts and each agent's WP and ADP."""
        agents = ", ".join(
            f"{stats.name!r}: WP {stats.wp:.1f}% ADP {stats.adp:+.2f}" for stats in self.stats
        )
        voids = f", redeals={self.redeals}" if self.redeals else ""
        if self.void_skipped:
            voids += f", void_skipped={self.void_skipped}"
        if self.void_replaced:
            voids += f", void_replaced={self.void_replaced}"
        return (
            f"<ArenaResult {self._rules_name()} rules, seed={self.seed}, deals={self.deals}, "
            f"games={self.games}{voids}: {{{agents}}}>"
        )

    def _rules_name(self) -> str:
        return preset_name(self.rules)

    def table(self) -> str:
        """The results as a text table, one row per agent."""
        heading = (
            f"{self._rules_name()} rules, seed {self.seed}: {self.deals} deals x "
            f"{len(self.seatings)} seatings = {self.games} games"
        )
        notes = []
        if self.redeals:
            plural = "s" if self.redeals > 1 else ""
            notes.append(f"{self.redeals} void deal{plural} redealt")
        if self.void_skipped:
            plural = "s" if self.void_skipped > 1 else ""
            notes.append(f"{self.void_skipped} void game{plural} left out")
        if self.void_replaced:
            plural = "s" if self.void_replaced > 1 else ""
            notes.append(
                f"{self.void_replaced} deal{plural} with a void game left out and replaced"
            )
        heading += "".join(f" ({note})" for note in notes)
        heading += f"; the games column counts seats, {self.rules.players} a game"
        width = max(5, *(len(stats.name) for stats in self.stats))
        header = (
            f"{'agent':<{width}}  {'games':>6}  {'WP':>6}  {'±95%':>5}  {'ADP':>6}  {'±95%':>5}"
            f"  {'landlord':>8}  {'WP as landlord':>14}  {'WP as farmer':>12}"
        )
        lines = [heading, header]
        for s in self.stats:
            lines.append(
                f"{s.name:<{width}}  {s.games:>6}  {s.wp:>5.1f}%  {_ci(s.wp_ci, '.1f')}  "
                f"{s.adp:>+6.2f}  {_ci(s.adp_ci, '.2f')}  {s.landlord_games:>8}  "
                f"{_pct(s.landlord_wp):>14}  {_pct(s.farmer_wp):>12}"
            )
        return "\n".join(lines)


def _ci(value: float, spec: str) -> str:
    return f"{'-':>5}" if math.isnan(value) else f"{value:>5{spec}}"


def _pct(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.1f}%"


def play_game(game: Game, agents: Sequence[AnyAgent], *, checked: bool = True) -> tuple[Game, int]:
    """Play ``game`` to the end with one agent per seat; returns the finished game and how
    many void deals were redealt on the way. ``checked`` takes actions with ``step`` (an
    illegal action raises ``IllegalMoveError``), else with the unchecked ``push``."""
    redeals = 0
    # current_player is a seat until the game is over, hence the ignores below.
    while True:
        if checked:
            while not game.is_over:
                game.step(choose(agents[game.current_player], game))  # type: ignore[index]
        else:
            while not game.is_over:
                game.push(choose(agents[game.current_player], game))  # type: ignore[index]
        if not game.is_void:
            return game, redeals
        if redeals + 1 == MAX_REDEALS:
            raise RuntimeError(f"{MAX_REDEALS} void deals in a row: do the agents ever bid?")
        redeals += 1
        game = game.redeal()


class _Table:
    """One game of :func:`play_games` in flight."""

    __slots__ = ("agents", "batched", "game", "order", "redeals")

    def __init__(self, order: int, game: Game, agents: Sequence[AnyAgent]) -> None:
        self.order = order
        self.game = game
        self.agents = agents
        self.redeals = 0
        # how each seat's agent is asked (looked up once a game, not once a decision)
        self.batched = tuple(_batching(agent) for agent in agents)

    def settled(self) -> bool:
        """True once the game is over and not void; a void game is redealt (play_game's
        rule, MAX_REDEALS included)."""
        while self.game.is_over:
            if not self.game.is_void:
                return True
            if self.redeals + 1 == MAX_REDEALS:
                raise RuntimeError(f"{MAX_REDEALS} void deals in a row: do the agents ever bid?")
            self.redeals += 1
            self.game = self.game.redeal()
        return False


_ALONE, _OBSERVATIONS, _GAMES = 0, 1, 2  # how play_games asks an agent


def _batching(agent: AnyAgent) -> int:
    if getattr(agent, "perfect_information", False) is True:
        return _ALONE
    if callable(getattr(agent, "act_games", None)):
        return _GAMES
    return _OBSERVATIONS if callable(getattr(agent, "act_batch", None)) else _ALONE


def play_games(
    games: Iterable[tuple[Game, Sequence[AnyAgent]]],
    *,
    tables: int = 1,
    checked: bool = True,
) -> Iterator[tuple[Game, int]]:
    """Play each ``(game, agents)`` to the end as :func:`play_game` does, up to ``tables``
    games at a time in lockstep; yields ``(finished game, redeals)`` in the order given.

    At each step every game in flight takes one action. An agent with a method
    ``act_batch(observations) -> actions`` (``ddz.learn.DouZeroAgent``'s: one forward pass
    of its network for many decisions) that is to act at several tables is asked once for
    all of them; every other agent is asked as :func:`choose` asks, one table at a time. A
    batched agent chooses for each observation what its ``act`` would, so the games are
    the ones :func:`play_game` plays, whatever ``tables`` is (each agent's choices depending
    only on what it is shown, or each game having agents of its own, as in the arena).

    An agent with a method ``act_games(games) -> codes`` (DouZeroAgent's again) is handed
    the games themselves instead of observations, and returns the core code of its action
    at each (``game.step_code``): it promises to read only the view of each game's seat to
    act (DouZeroAgent reads it in C, with no observation built), as an agent given a game
    through :func:`choose` would see that seat's observation.

    >>> import ddz
    >>> from ddz.play.agents import GreedyAgent, RandomAgent
    >>> jobs = [(ddz.Game(seed=s), [GreedyAgent(), RandomAgent(s), GreedyAgent()]) for s in (1, 2)]
    >>> [(game.winner, redeals) for game, redeals in play_games(jobs, tables=2)]
    [(2, 0), (0, 0)]
    """
    tables = check_integer(tables, "tables", 1)
    source = iter(games)
    active: list[_Table] = []
    finished: dict[int, tuple[Game, int]] = {}
    given = yielded = 0
    exhausted = False
    while True:
        while not exhausted and len(active) < tables:
            job = next(source, None)
            if job is None:
                exhausted = True
                break
            table = _Table(given, *job)
            given += 1
            if table.settled():
                finished[table.order] = (table.game, table.redeals)
            else:
                active.append(table)
        while yielded in finished:
            yield finished.pop(yielded)
            yielded += 1
        if not active:
            if exhausted:
                return
            continue
        # one action at every table in flight; batched agents choose last, all at once
        waiting: dict[int, tuple[Any, int, list[_Table], list[Any]]] = {}
        for table in active:
            game = table.game
            seat: int = game.current_player  # type: ignore[assignment]
            agent = table.agents[seat]
            batching = table.batched[seat]
            if batching:
                set_rules = getattr(agent, "set_rules", None)
                if set_rules is not None:
                    set_rules(game.rules)
                entry = waiting.get(id(agent))
                if entry is None:
                    entry = waiting[id(agent)] = (agent, batching, [], [])
                entry[2].append(table)
                entry[3].append(game if batching == _GAMES else game.observation(seat))
            else:
                action = choose(agent, game)
                game.step(action) if checked else game.push(action)
        for agent, batching, waiting_tables, shown in waiting.values():
            by_games = batching == _GAMES
            chosen = agent.act_games(shown) if by_games else agent.act_batch(shown)
            if len(chosen) != len(shown):
                method, answers, asked = (
                    ("act_games", "codes", "games")
                    if by_games
                    else ("act_batch", "actions", "observations")
                )
                raise ValueError(
                    f"{type(agent).__name__}.{method} gave {len(chosen)} {answers} for "
                    f"{len(shown)} {asked}"
                )
            for table, choice in zip(waiting_tables, chosen, strict=True):
                game = table.game
                if by_games:  # a core code
                    game.step_code(choice) if checked else game.push_code(choice)
                else:
                    game.step(choice) if checked else game.push(choice)
        still = []
        for table in active:
            if table.settled():
                finished[table.order] = (table.game, table.redeals)
            else:
                still.append(table)
        active = still


class _Tally:
    """Running sums for one agent: totals, and per-deal means for the standard errors."""

    __slots__ = (
        "deal_points",
        "deal_wins",
        "games",
        "ll_games",
        "ll_wins",
        "points",
        "sum_p",
        "sum_p2",
        "sum_w",
        "sum_w2",
        "wins",
    )

    def __init__(self) -> None:
        self.games = self.wins = self.points = self.ll_games = self.ll_wins = 0
        self.deal_wins = self.deal_points = 0
        self.sum_w = self.sum_w2 = self.sum_p = self.sum_p2 = 0.0

    def end_deal(self, games_per_deal: int) -> None:
        # Every deal gives an agent the same number of games, so the mean of the per-deal
        # means is the overall mean and their spread gives the standard error.
        w = self.deal_wins / games_per_deal
        p = self.deal_points / games_per_deal
        self.sum_w += w
        self.sum_w2 += w * w
        self.sum_p += p
        self.sum_p2 += p * p
        self.deal_wins = self.deal_points = 0

    def stats(self, name: str, deals: int) -> AgentStats:
        games = max(self.games, 1)
        return AgentStats(
            name=name,
            games=self.games,
            wins=self.wins,
            points=self.points,
            landlord_games=self.ll_games,
            landlord_wins=self.ll_wins,
            wp=100 * self.wins / games,
            wp_ci=100 * half_width(self.sum_w, self.sum_w2, deals),
            adp=self.points / games,
            adp_ci=half_width(self.sum_p, self.sum_p2, deals),
        )


def preset_name(rules: Rules) -> str:
    """The name of the preset ``rules`` are, or ``"custom"``: how results name their rules."""
    return next((name for name, preset in PRESETS.items() if preset == rules), "custom")


def half_width(total: float, squares: float, n: int) -> float:
    """The half-width of the 95% interval of a mean of ``n`` values with this ``total`` and
    sum of ``squares`` (NaN below two values); the arena's and the duplicate matches'."""
    if n < 2:
        return math.nan
    variance = max(squares - total * total / n, 0.0) / (n - 1)
    return _Z95 * math.sqrt(variance / n)


def run_arena(
    agents: Sequence[str],
    *,
    deals: int,
    seed: int = 0,
    rules: Rules = CLASSIC,
    registry: Mapping[str, AgentFactory] = AGENTS,
    progress: Callable[[int, int], None] | None = None,
    checked: bool = True,
    tables: int = 1,
) -> ArenaResult:
    """Play ``deals`` deals, each under every seating of ``agents`` (names in
    ``registry``, or ``kind:ARGUMENT`` such as ``douzero:PATH``: see
    :func:`ddz.agents.agent_factory`), and report WP and ADP per agent.

    Seeded: the deals come from ``seed`` and each game's agents are made afresh with seeds
    drawn from it, so the same arguments give the same result, and each game does not
    depend on the games before it. ``progress(done, deals)`` is called after each deal.

    ``tables`` games are played at a time in lockstep (:func:`play_games`): an agent with
    ``act_batch`` (``ddz.learn.DouZeroAgent``) chooses at every table where it is to act in
    one call. The games, and so the result, are the same whatever ``tables`` is, but where
    a network values two actions within float rounding of each other: a batch of another
    size can round them the other way.
    """
    if deals < 0:
        raise ValueError(f"deals must be 0 or more, not {deals}")
    tables = check_integer(tables, "tables", 1)
    names = list(dict.fromkeys(agents))  # distinct, in order
    # resolved once: an agent named kind:ARGUMENT (a checkpoint) is loaded here, not per game
    factories = {name: agent_factory(name, registry) for name in names}
    plan = seatings(agents, rules.players)
    tallies = {name: _Tally() for name in names}
    per_deal = {name: sum(seating.count(name) for seating in plan) for name in names}
    rng = random.Random(seed)
    games = redeals = 0

    def jobs() -> Iterator[tuple[Game, list[AnyAgent]]]:
        for _ in range(deals):
            deal_seed = rng.getrandbits(63)
            for index, seating in enumerate(plan):
                players = [
                    factories[name](agent_seed(deal_seed, 3 * index + seat))
                    for seat, name in enumerate(seating)
                ]
                yield Game(rules, seed=deal_seed), players

    played = play_games(jobs(), tables=tables, checked=checked)
    for done in range(deals):
        for seating in plan:
            game, redealt = next(played)
            redeals += redealt
            games += 1
            payoffs = game.payoffs()
            landlord = game.landlord
            landlord_won = game.winner == landlord
            for seat, name in enumerate(seating):
                tally = tallies[name]
                won = (seat == landlord) == landlord_won
                tally.games += 1
                tally.wins += won
                tally.points += payoffs[seat]
                tally.deal_wins += won
                tally.deal_points += payoffs[seat]
                if seat == landlord:
                    tally.ll_games += 1
                    tally.ll_wins += won
        for name in names:
            tallies[name].end_deal(per_deal[name])
        if progress is not None:
            progress(done + 1, deals)
    return ArenaResult(
        agents=tuple(agents),
        rules=rules,
        seed=seed,
        deals=deals,
        seatings=tuple(plan),
        games=games,
        redeals=redeals,
        stats=tuple(tallies[name].stats(name, deals) for name in names),
    )


def agent_seed(deal_seed: int, slot: int) -> int:
    """A distinct, well-spread seed for the agent in ``slot`` of a deal (a Weyl step of the
    golden ratio), so that agents of one deal draw apart; the arena's and the duplicate
    matches'."""
    return (deal_seed + (slot + 1) * 0x9E3779B97F4A7C15) & _MASK64


def run_core_arena(
    agents: Sequence[str],
    *,
    deals: int,
    seed: int = 0,
    rules: Rules = CLASSIC,
    threads: int = 1,
    progress: Callable[[int, int], None] | None = None,
    void: Literal["skip", "replace"] = "skip",
) -> ArenaResult:
    """The arena for the agents the core plays (``CORE_AGENTS``), every game in C through
    ``ddz.simulate``: deal ``i`` is game ``i`` of the run seeded ``seed`` under every seating.

    Two differences from :func:`run_arena`: a void game (everyone passed in bidding) is not
    redealt, and the random agent's choices come from the core's generator, so the numbers
    differ from a Python arena with the same seed. ``void`` says what becomes of void games:

    - ``"skip"``: they are left out of the statistics (``void_skipped`` counts them), so
      ``games`` is ``deals`` x seatings less the void games, and the agents' game counts may
      differ. Per-deal means for the confidence intervals are taken over each deal's games
      that were played out.
    - ``"replace"``: a deal with a void game under any seating is left out whole and the
      next deal of the run takes its place (``void_replaced`` counts them), so ``deals``
      deals are each played to a result under every seating: ``games`` is ``deals`` x
      seatings, as in :func:`run_arena`, and every agent plays every seat equally often.
      (``python -m ddz simulate`` plays so.)

    Deterministic whatever ``threads`` is.
    """
    import numpy as np

    from ddz.play.simulation import simulate

    if deals < 0:
        raise ValueError(f"deals must be 0 or more, not {deals}")
    if void not in ("skip", "replace"):
        raise ValueError(f"void must be 'skip' or 'replace', not {void!r}")
    names = list(dict.fromkeys(agents))
    for name in names:
        if name not in CORE_AGENTS:
            raise ValueError(f"the core plays {sorted(CORE_AGENTS)}, not {name!r}")
    plan = seatings(agents, rules.players)
    shape = (len(names), deals)
    games_n = np.zeros(shape, dtype=np.int64)
    wins_n = np.zeros(shape, dtype=np.int64)
    points_n = np.zeros(shape, dtype=np.int64)
    landlord_games = np.zeros(len(names), dtype=np.int64)
    landlord_wins = np.zeros(len(names), dtype=np.int64)
    skipped = replaced = void_run = 0
    done = 0  # deals counted so far: columns 0 .. done - 1
    start = 0  # the next game index of the run to play
    while done < deals:
        size = min(20_000, deals - done)
        results = [
            simulate(
                size, rules=rules, agents=seating, seed=seed, threads=threads, first_game=start
            )
            for seating in plan
        ]
        start += size
        played_all = np.logical_and.reduce([result.landlords >= 0 for result in results])
        if void == "replace":
            keep = np.flatnonzero(played_all)
            replaced += size - len(keep)
            void_run = 0 if len(keep) else void_run + size
            if void_run >= MAX_REDEALS:
                raise RuntimeError(f"{void_run} void deals in a row: do the agents ever bid?")
        else:
            keep = np.arange(size)
        columns = slice(done, done + len(keep))
        for seating, result in zip(plan, results, strict=True):
            played = result.landlords[keep] >= 0
            skipped += int((~played).sum())
            landlords = result.landlords[keep]
            landlord_won = result.winners[keep] == landlords
            for seat, name in enumerate(seating):
                row = names.index(name)
                is_landlord = landlords == seat
                won = played & (is_landlord == landlord_won)
                games_n[row, columns] += played
                wins_n[row, columns] += won
                points_n[row, columns] += result.payoffs[keep, seat]
                landlord_games[row] += int((played & is_landlord).sum())
                landlord_wins[row] += int((played & is_landlord & won).sum())
        done += len(keep)
        if progress is not None:
            progress(done, deals)
    stats = []
    for row, name in enumerate(names):
        games = int(games_n[row].sum())
        counted = games_n[row] > 0
        win_means = wins_n[row][counted] / games_n[row][counted]
        point_means = points_n[row][counted] / games_n[row][counted]
        n = int(counted.sum())
        stats.append(
            AgentStats(
                name=name,
                games=games,
                wins=int(wins_n[row].sum()),
                points=int(points_n[row].sum()),
                landlord_games=int(landlord_games[row]),
                landlord_wins=int(landlord_wins[row]),
                wp=100 * int(wins_n[row].sum()) / max(games, 1),
                wp_ci=100 * half_width(float(win_means.sum()), float((win_means**2).sum()), n),
                adp=int(points_n[row].sum()) / max(games, 1),
                adp_ci=half_width(float(point_means.sum()), float((point_means**2).sum()), n),
            )
        )
    return ArenaResult(
        agents=tuple(agents),
        rules=rules,
        seed=seed,
        deals=deals,
        seatings=tuple(plan),
        games=deals * len(plan) - skipped,
        redeals=0,
        stats=tuple(stats),
        void_skipped=skipped,
        void_replaced=replaced,
    )
