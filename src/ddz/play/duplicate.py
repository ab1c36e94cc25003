"""Duplicate matches: an agent and an opponent play the same deals from both sides.

Under rules where the landlord is known when play starts (``Bidding.RANDOM``: ``ddz.RLCARD``,
``ddz.DOUZERO``, as in RLCard and DouZero, which do not bid), every deal is played

- once with the agent as the **landlord** against two copies of the opponent,
- once with the opponent as the landlord against two copies of the agent (the **farmers**),
- and, with ``mixed=True``, twice with the agent as one farmer and a copy of the opponent as
  the other, against the opponent as landlord (**mixed** teams): the agent in the seat after
  the landlord's, then in the seat before it.

So both sides of a deal hold the same cards, and luck of the deal cancels out. Each game is
scored for the side the agent is on: WP, the share of the games that side won; ADP, the
points that side won (the landlord's payoff, or the sum of the two farmers': the minus of the
landlord's), per game. **Overall** is the landlord and the farmers games together (each deal
counted once as each): an agent against a copy of itself has an overall WP of 50% and an ADP
of 0. The mixed games are reported on their own. 95% intervals (of every WP and the
overall ADP) are ±1.96 standard errors over deals (a deal's games share their cards).

Every agent named plays its own games against the opponent, on the same deals: one row each.

>>> import ddz
>>> from ddz.play.duplicate import run_duplicate
>>> result = run_duplicate(["greedy"], "random", deals=4, seed=2, rules=ddz.RLCARD)
>>> side = result["greedy"]
>>> side.landlord.games, side.farmers.games, side.mixed.games
(4, 4, 8)
>>> print(result)
rlcard rules, seed 2: 4 deals against random, each played as landlord, as the farmers and mixed
agent   deals      WP  ±95%    ADP  ±95%  landlord WP  ±95%  farmers WP  ±95%  mixed WP  ±95%
greedy      4  100.0%   0.0  +2.75  0.94       100.0%   0.0      100.0%   0.0     87.5%  24.5
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Mapping, Sequence

from ddz.doudizhu.game import Game
from ddz.doudizhu.rules import RLCARD, Bidding, Rules
from ddz.play.agents import AGENTS, AgentFactory
from ddz.play.arena import agent_seed, half_width, play_game, preset_name

__all__ = [
    "SIDES",
    "DuplicateResult",
    "SideResult",
    "SideStats",
    "duplicate_seatings",
    "run_duplicate",
]

SIDES = ("landlord", "farmers", "mixed")
"""The kinds of game of a duplicate match (module docstring), in the order they are played."""


def duplicate_seatings(
    agent: str, opponent: str, landlord: int, *, mixed: bool = True
) -> list[tuple[str, tuple[str, str, str]]]:
    """The games of one deal whose landlord sits at ``landlord``: (side, agent per seat).

    >>> for side, seating in duplicate_seatings("a", "b", landlord=1):
    ...     print(side, seating)
    landlord ('b', 'a', 'b')
    farmers ('a', 'b', 'a')
    mixed ('b', 'b', 'a')
    mixed ('a', 'b', 'b')
    """
    down, up = (landlord + 1) % 3, (landlord + 2) % 3

    def seating(**seats: str) -> tuple[str, str, str]:
        by_seat = {landlord: seats["landlord"], down: seats["down"], up: seats["up"]}
        return (by_seat[0], by_seat[1], by_seat[2])

    games = [
        ("landlord", seating(landlord=agent, down=opponent, up=opponent)),
        ("farmers", seating(landlord=opponent, down=agent, up=agent)),
    ]
    if mixed:
        games.append(("mixed", seating(landlord=opponent, down=agent, up=opponent)))
        games.append(("mixed", seating(landlord=opponent, down=opponent, up=agent)))
    return games


@dataclasses.dataclass(frozen=True)
class SideResult:
    """One kind of game's results for the agent's side (module docstring)."""

    games: int
    wins: int
    points: int
    wp: float
    """Win percentage, 0 .. 100 (NaN without games)."""
    wp_ci: float
    """Half-width of the 95% interval of ``wp`` (NaN from fewer than two deals)."""
    adp: float
    """The side's points per game."""
    adp_ci: float


@dataclasses.dataclass(frozen=True)
class SideStats:
    """One agent's duplicate match: overall (landlord and farmers games), and each kind."""

    name: str
    deals: int
    overall: SideResult
    landlord: SideResult
    farmers: SideResult
    mixed: SideResult


@dataclasses.dataclass(frozen=True)
class DuplicateResult:
    """What :func:`run_duplicate` found: the set-up and one :class:`SideStats` per agent."""

    agents: tuple[str, ...]
    opponent: str
    rules: Rules
    seed: int
    deals: int
    mixed: bool
    stats: tuple[SideStats, ...]

    def __getitem__(self, name: str) -> SideStats:
        for stats in self.stats:
            if stats.name == name:
                return stats
        raise KeyError(name)

    def __str__(self) -> str:
        return self.table()

    def __repr__(self) -> str:
        agents = ", ".join(f"{s.name!r}: WP {s.overall.wp:.1f}%" for s in self.stats)
        return (
            f"<DuplicateResult {self._rules_name()} rules, seed={self.seed}, deals={self.deals}, "
            f"against {self.opponent!r}: {{{agents}}}>"
        )

    def _rules_name(self) -> str:
        return preset_name(self.rules)

    def table(self) -> str:
        """The results as a text table, one row per agent."""
        heading = (
            f"{self._rules_name()} rules, seed {self.seed}: {self.deals} deals against "
            f"{self.opponent}, each played as landlord, as the farmers"
        )
        heading += " and mixed" if self.mixed else ""
        width = max(5, *(len(stats.name) for stats in self.stats))
        header = (
            f"{'agent':<{width}}  {'deals':>5}  {'WP':>6}  {'±95%':>4}  {'ADP':>5}  {'±95%':>4}"
            f"  {'landlord WP':>11}  {'±95%':>4}  {'farmers WP':>10}  {'±95%':>4}"
        )
        header += f"  {'mixed WP':>8}  {'±95%':>4}" if self.mixed else ""
        lines = [heading, header]
        for s in self.stats:
            line = (
                f"{s.name:<{width}}  {s.deals:>5}  {_pct(s.overall.wp):>6}  "
                f"{_num(s.overall.wp_ci, '.1f'):>4}  {s.overall.adp:>+5.2f}  "
                f"{_num(s.overall.adp_ci, '.2f'):>4}  {_pct(s.landlord.wp):>11}  "
                f"{_num(s.landlord.wp_ci, '.1f'):>4}  {_pct(s.farmers.wp):>10}  "
                f"{_num(s.farmers.wp_ci, '.1f'):>4}"
            )
            if self.mixed:
                line += f"  {_pct(s.mixed.wp):>8}  {_num(s.mixed.wp_ci, '.1f'):>4}"
            lines.append(line)
        return "\n".join(lines)


def _pct(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.1f}%"


def _num(value: float, spec: str) -> str:
    return "-" if math.isnan(value) else f"{value:{spec}}"


class _Sums:
    """Running sums of one kind of game: totals, and per-deal means for the intervals."""

    def __init__(self) -> None:
        self.games = self.wins = self.points = 0
        self.deals = 0
        self.sum_w = self.sum_w2 = self.sum_p = self.sum_p2 = 0.0

    def add_deal(self, results: list[tuple[bool, int]]) -> None:
        if not results:
            return
        wins = sum(won for won, _ in results)
        points = sum(points for _, points in results)
        self.games += len(results)
        self.wins += wins
        self.points += points
        self.deals += 1
        w, p = wins / len(results), points / len(results)
        self.sum_w += w
        self.sum_w2 += w * w
        self.sum_p += p
        self.sum_p2 += p * p

    def result(self) -> SideResult:
        games = self.games
        return SideResult(
            games=games,
            wins=self.wins,
            points=self.points,
            wp=100 * self.wins / games if games else math.nan,
            wp_ci=100 * half_width(self.sum_w, self.sum_w2, self.deals),
            adp=self.points / games if games else math.nan,
            adp_ci=half_width(self.sum_p, self.sum_p2, self.deals),
        )


def run_duplicate(
    agents: Sequence[str],
    opponent: str,
    *,
    deals: int,
    seed: int = 0,
    rules: Rules = RLCARD,
    registry: Mapping[str, AgentFactory] = AGENTS,
    mixed: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> DuplicateResult:
    """Play ``deals`` deals as duplicate matches of each of ``agents`` against ``opponent``
    (names in ``registry``; module docstring). ``rules`` must name the landlord when play
    starts (``Bidding.RANDOM``) and seat three. Seeded as :func:`ddz.play.arena.run_arena`:
    the same arguments give the same result; ``progress(done, deals)`` after each deal."""
    if deals < 0:
        raise ValueError(f"deals must be 0 or more, not {deals}")
    if rules.players != 3 or rules.bidding is not Bidding.RANDOM:
        raise ValueError(
            "a duplicate match needs three seats and the landlord known when play starts "
            "(Bidding.RANDOM, as ddz.RLCARD and ddz.DOUZERO have); run_arena plays every seat "
            "of any rules"
        )
    names = list(dict.fromkeys(agents))
    if not names:
        raise ValueError("name at least one agent to play against the opponent")
    for name in [*names, opponent]:
        if name not in registry:
            raise ValueError(f"no agent {name!r}; the agents are: {', '.join(registry)}")
    sums = {name: {side: _Sums() for side in (*SIDES, "overall")} for name in names}
    rng = random.Random(seed)
    for done in range(deals):
        deal_seed = rng.getrandbits(63)
        landlord = Game(rules, seed=deal_seed).landlord
        assert landlord is not None  # Bidding.RANDOM: dealt with the landlord named
        for name in names:
            results: dict[str, list[tuple[bool, int]]] = {side: [] for side in SIDES}
            plan = duplicate_seatings(name, opponent, landlord, mixed=mixed)
            for index, (side, seating) in enumerate(plan):
                players = [
                    registry[who](agent_seed(deal_seed, 3 * index + seat))
                    for seat, who in enumerate(seating)
                ]
                game, _ = play_game(Game(rules, seed=deal_seed), players)
                landlord_points = game.payoffs()[landlord]
                landlord_won = game.winner == landlord
                if side == "landlord":
                    results[side].append((landlord_won, landlord_points))
                else:
                    results[side].append((not landlord_won, -landlord_points))
            for side in SIDES:
                sums[name][side].add_deal(results[side])
            sums[name]["overall"].add_deal(results["landlord"] + results["farmers"])
        if progress is not None:
            progress(done + 1, deals)
    stats = tuple(
        SideStats(
            name=name,
            deals=deals,
            overall=sums[name]["overall"].result(),
            landlord=sums[name]["landlord"].result(),
            farmers=sums[name]["farmers"].result(),
            mixed=sums[name]["mixed"].result(),
        )
        for name in names
    )
    return DuplicateResult(
        agents=tuple(names),
        opponent=opponent,
        rules=rules,
        seed=seed,
        deals=deals,
        mixed=mixed,
        stats=stats,
    )
