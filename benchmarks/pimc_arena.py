"""PIMCAgent against GreedyAgent in the arena: WP and ADP with 95% intervals, and the time
PIMC takes a decision.

    python benchmarks/pimc_arena.py [--deals 300] [--seed 1] [--rules classic two-player]
                                    [--worlds 100] [--playouts 1000] [--keep 8] [--work 1000000]
                                    [--exact-cards 12] [--node-limit 2000] [--solve-nodes 20000]
                                    [--win-weight 1] [--epsilon 0] [--objective score]
                                    [--pass-weight 1] [--oversample N] [--time-limit S]
                                    [--greedy-weight 0.2] [--bid-worlds 1000]
                                    [--opponent greedy|rlcard-rule|auto]
                                    [--rule-weight 0.01] [--rule-prior 0.5] [--alone]
                                    [--json PATH]

Every deal is played under every seating (``ddz.arena.run_arena``): classic rules, PIMC alone
against two greedy farmers or landlord from every seat and two PIMC copies against one
greedy from every seat (six seatings a deal); two-player, ``pimc greedy`` and
``greedy pimc``. ``--alone`` plays the classic seatings of PIMC alone against two greedy
players only (three a deal): in a game of two copies, one the landlord, one copy wins and
one loses whatever is played, so the six seatings' WP mixes PIMC against the greedy agent
with PIMC against itself. The intervals are over deals (docs/agents.md, "The metrics").

Time: every call of ``PIMCAgent.act`` is timed with ``time.perf_counter`` (the observation
is built before, by the arena); reported as median, 95th percentile and maximum in
milliseconds, over every decision PIMC was asked for, and over those with a choice (two or
more legal actions; a forced action returns at once). Single-threaded, in one process;
the machine's load shows in the maximum more than in the median.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

import ddz
from ddz.agents import AGENTS, AgentFactory, AnyAgent
from ddz.arena import run_arena
from ddz.game import Action, Observation
from ddz.rules import PRESETS
from ddz.search_agents import PIMCAgent


class Timed:
    """A PIMCAgent whose every decision is timed (the arena sees an ordinary agent), and
    whose play decisions with a choice are counted in ``counts``: those where a move that
    empties the hand was legal (``going_out``) and another was played (``going_out_missed``),
    and a farmer's with its partner's move on the table (``partner``), beaten with a bomb or
    rocket that does not empty the hand (``partner_bombed``)."""

    def __init__(
        self,
        agent: PIMCAgent,
        times: list[float],
        choices: list[float],
        counts: dict[str, int] | None = None,
    ) -> None:
        self.agent = agent
        self.times = times
        self.choices = choices
        self.counts = {} if counts is None else counts

    def set_rules(self, rules: ddz.Rules) -> None:
        self.agent.set_rules(rules)

    def act(self, observation: Observation) -> Action:
        start = time.perf_counter()
        action = self.agent.act(observation)
        spent = time.perf_counter() - start
        self.times.append(spent)
        if len(observation.legal_actions) > 1:
            self.choices.append(spent)
            if observation.phase == "play":
                self.count(observation, action)
        return action

    def count(self, observation: Observation, action: Action) -> None:
        counts, size = self.counts, len(observation.hand)
        counts["choices"] = counts.get("choices", 0) + 1
        cards = [len(a.cards) for a in observation.legal_actions if isinstance(a, ddz.Move)]
        played = len(action.cards) if isinstance(action, ddz.Move) else 0
        if size in cards:
            counts["going_out"] = counts.get("going_out", 0) + 1
            counts["going_out_missed"] = counts.get("going_out_missed", 0) + (played != size)
        me, landlord, table = observation.player, observation.landlord, observation.table_player
        if table is not None and me != landlord and table not in (me, landlord):
            counts["partner"] = counts.get("partner", 0) + 1
            bombed = isinstance(action, ddz.Move) and action.is_bomb and played != size
            counts["partner_bombed"] = counts.get("partner_bombed", 0) + bombed


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0, "median_ms": 0.0, "p95_ms": 0.0, "max_ms": 0.0}
    return {
        "n": len(values),
        "median_ms": 1e3 * statistics.median(values),
        "p95_ms": 1e3 * percentile(values, 0.95),
        "max_ms": 1e3 * max(values),
    }


def run(rules_name: str, args: argparse.Namespace) -> dict[str, Any]:
    times: list[float] = []
    choices: list[float] = []
    counts: dict[str, int] = {}
    options = {
        "worlds": args.worlds,
        "playouts": args.playouts,
        "keep": args.keep,
        "work": args.work,
        "exact_cards": args.exact_cards,
        "node_limit": args.node_limit,
        "solve_nodes": args.solve_nodes,
        "win_weight": args.win_weight,
        "epsilon": args.epsilon,
        "objective": args.objective,
        "pass_weight": args.pass_weight,
        "oversample": args.oversample,
        "time_limit": args.time_limit,
        "greedy_weight": args.greedy_weight,
        "bid_worlds": args.bid_worlds,
        "opponent": args.opponent,
        "rule_weight": args.rule_weight,
        "rule_prior": args.rule_prior,
        "bid_objective": args.bid_objective,
        "read_bids": args.read_bids,
        "bid_margin": args.bid_margin,
    }

    def make(seed: int | None) -> AnyAgent:
        return Timed(PIMCAgent(seed, **options), times, choices, counts)

    registry: dict[str, AgentFactory] = {
        "greedy": AGENTS["greedy"],
        "greedy-2": AGENTS["greedy"],  # a second name: three distinct agents seat PIMC alone
        "pimc": make,
    }
    rules = PRESETS[rules_name]

    def progress(done: int, deals: int) -> None:
        if not args.quiet:
            print(f"\r{rules_name}: {done}/{deals} deals", end="", file=sys.stderr, flush=True)

    start = time.perf_counter()
    alone = args.alone and PRESETS[rules_name].players == 3
    result = run_arena(
        ["pimc", "greedy", "greedy-2"] if alone else ["pimc", "greedy"],
        deals=args.deals,
        seed=args.seed,
        rules=rules,
        registry=registry,
        progress=progress,
    )
    seconds = time.perf_counter() - start
    if not args.quiet:
        print(file=sys.stderr)
    pimc = result["pimc"]
    return {
        "rules": rules_name,
        "deals": args.deals,
        "games": result.games,
        "seed": args.seed,
        "options": options,
        "wp": pimc.wp,
        "wp_ci": pimc.wp_ci,
        "adp": pimc.adp,
        "adp_ci": pimc.adp_ci,
        "landlord_wp": pimc.landlord_wp,
        "farmer_wp": pimc.farmer_wp,
        "decisions": summary(times),
        "choices": summary(choices),
        "counts": counts,
        "seconds": seconds,
        "table": result.table(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", nargs="+", default=["classic", "two-player"], choices=PRESETS)
    parser.add_argument("--worlds", type=int, default=100)
    parser.add_argument("--keep", type=int, default=8)
    parser.add_argument("--work", type=int, default=1_000_000)
    parser.add_argument("--playouts", type=int, default=1000)
    parser.add_argument("--exact-cards", type=int, default=12)
    parser.add_argument("--node-limit", type=int, default=2000)
    parser.add_argument("--solve-nodes", type=int, default=20_000)
    parser.add_argument("--win-weight", type=float, default=1.0)
    parser.add_argument("--epsilon", type=int, default=0)
    parser.add_argument("--objective", choices=["score", "wp"], default="score")
    parser.add_argument("--pass-weight", type=float, default=1.0)
    parser.add_argument("--oversample", type=int, default=None)
    parser.add_argument("--time-limit", type=float, default=None)
    parser.add_argument("--greedy-weight", type=float, default=0.2)
    parser.add_argument("--bid-worlds", type=int, default=1000)
    parser.add_argument("--opponent", choices=["greedy", "rlcard-rule", "auto"], default="greedy")
    parser.add_argument("--rule-weight", type=float, default=0.01)
    parser.add_argument("--rule-prior", type=float, default=0.5)
    parser.add_argument("--bid-objective", choices=["score", "wp"], default="score")
    parser.add_argument("--read-bids", action="store_true")
    parser.add_argument("--bid-margin", type=float, default=0.0)
    parser.add_argument(
        "--alone", action="store_true", help="classic: PIMC alone against two greedy players only"
    )
    parser.add_argument("--json", help="write every figure to this file")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    results = [run(name, args) for name in args.rules]
    print(
        "| rules | deals | games | PIMC WP | ±95% | PIMC ADP | ±95% | ms/decision median / p95 "
        "/ max | with a choice: median / p95 / max |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |")
    for r in results:
        d, c = r["decisions"], r["choices"]
        print(
            f"| {r['rules']} | {r['deals']} | {r['games']} | {r['wp']:.1f}% | {r['wp_ci']:.1f} "
            f"| {r['adp']:+.2f} | {r['adp_ci']:.2f} | {d['median_ms']:.2f} / {d['p95_ms']:.1f} / "
            f"{d['max_ms']:.1f} | {c['median_ms']:.2f} / {c['p95_ms']:.1f} / {c['max_ms']:.1f} |"
        )
    for r in results:
        print()
        print(r["table"])
        print("PIMC's play decisions with a choice:", r["counts"])
        print(f"({r['seconds']:.0f} s)")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(results, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
