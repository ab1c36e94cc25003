"""Many seeded matches between agents, and what each seat achieved.

>>> from ddz import uno
>>> stats = uno.simulate(3, 2, seed=1, agents=["greedy", "random", "random"])
>>> [s.agent for s in stats], sum(s.matches_won for s in stats)
(['greedy', 'random', 'random'], 2.0)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ddz.base.errors import check_integer, check_seed, shorten
from ddz.uno.agents import Agent, make_agent, play_turn
from ddz.uno.match import Match, round_seed
from ddz.uno.rules import LOMBARDY, Rules, check_players

__all__ = ["AgentStats", "simulate"]


@dataclasses.dataclass(frozen=True)
class AgentStats:
    """One seat's results over a simulation. A match won on a shared lowest total counts as
    a fraction (two sharing: half each)."""

    seat: int
    agent: str
    matches: int
    matches_won: float
    rounds: int
    rounds_won: int
    mean_score: float
    """The mean final total per match (golf: lower is better)."""
    mean_round_points: float
    """The mean points added per round."""

    @property
    def win_rate(self) -> float:
        return self.matches_won / self.matches if self.matches else 0.0


def simulate(
    players: int,
    games: int,
    seed: int = 0,
    agents: Sequence[Agent | str] = ("greedy", "random"),
    rules: Rules = LOMBARDY,
    *,
    max_actions: int = 1_000_000,
) -> list[AgentStats]:
    """Play ``games`` seeded matches of ``players`` players and return each seat's stats.

    ``agents`` are agents or names (``random``, ``greedy``), one per seat; a shorter list is
    repeated to fill the seats. Random agents are seeded from ``seed``, so a simulation is
    the same on every run. ``max_actions`` bounds the moments of play per match, against
    agents that never finish a round (RuntimeError when reached).
    """
    players = check_players(players)
    games = check_integer(games, "games", 0)
    seed = check_seed(seed)
    max_actions = check_integer(max_actions, "max_actions", 1)
    if isinstance(agents, (str, bytes)) or not hasattr(agents, "__len__"):
        raise TypeError(f"agents are a sequence of agents or names, not {shorten(agents)}")
    if not agents:
        raise ValueError("at least one agent")
    seats: list[Agent] = []
    for seat in range(players):
        spec = agents[seat % len(agents)]
        seats.append(
            make_agent(spec, round_seed(seed, 1000 + seat)) if isinstance(spec, str) else spec
        )
    won = [0.0] * players
    totals = [0] * players
    round_points = [0] * players
    rounds_won = [0] * players
    rounds = 0
    for index in range(games):
        match = Match(players, seed=round_seed(seed, index), rules=rules)
        for _ in range(max_actions):
            if match.is_over:
                break
            play_turn(match, seats)
        else:
            raise RuntimeError(f"match {index} did not finish in {max_actions} moments")
        winners = match.winners
        for seat in winners:
            won[seat] += 1 / len(winners)
        for seat, score in enumerate(match.scores):
            totals[seat] += score
        for result in match.results:
            rounds += 1
            if result.winner is not None:
                rounds_won[result.winner] += 1
            for seat, points in enumerate(result.points):
                round_points[seat] += points
    return [
        AgentStats(
            seat=seat,
            agent=seats[seat].name,
            matches=games,
            matches_won=won[seat],
            rounds=rounds,
            rounds_won=rounds_won[seat],
            mean_score=totals[seat] / games if games else 0.0,
            mean_round_points=round_points[seat] / rounds if rounds else 0.0,
        )
        for seat in range(players)
    ]
