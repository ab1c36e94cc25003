"""Time ``ddz.review`` of whole classic games (docs/solver.md, "Reviewing a game").

Each game is dealt from its seed (17/17/17 and a kitty of 3), bid and played to the end by
greedy agents, then reviewed at a budget (default: ``ddz.review``'s). Prints one line a
game (plies of the play phase, how many have both verdicts known, how many have an unknown
one, blunders, nodes, wall and CPU seconds of the review) and the medians.

    python benchmarks/review.py --games 5
    python benchmarks/review.py --games 5 --node-limit 200000
"""

from __future__ import annotations

import argparse
import statistics
import time

import ddz
from ddz.doudizhu.review import DEFAULT_NODE_LIMIT
from ddz.play.agents import GreedyAgent, choose


def played(seed: int) -> ddz.Game:
    """A classic deal from ``seed`` played to the end (bids too) by greedy agents; a void
    deal is dealt again from the next seed."""
    agent = GreedyAgent()
    while True:
        game = ddz.Game(ddz.CLASSIC, seed=seed)
        while not game.is_over:
            game.step(choose(agent, game))
        if not game.is_void:
            return game
        seed += 1_000_003


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--node-limit", type=int, default=DEFAULT_NODE_LIMIT)
    parser.add_argument("--time-limit", type=float, default=None)
    args = parser.parse_args()
    walls, cpus = [], []
    print("seed  plies  known  unknown  blunders        nodes   wall s    cpu s")
    for seed in range(args.seed, args.seed + args.games):
        game = played(seed)
        wall, cpu = time.perf_counter(), time.process_time()
        result = ddz.review(game, node_limit=args.node_limit, time_limit=args.time_limit)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        walls.append(wall)
        cpus.append(cpu)
        unknown = len(result.rows) - result.known
        print(
            f"{seed:4d}  {len(result.rows):5d}  {result.known:5d}  {unknown:7d}  "
            f"{len(result.blunders):8d}  {result.nodes:11,d}  {wall:7.2f}  {cpu:7.2f}",
            flush=True,
        )
    print(f"median wall {statistics.median(walls):.2f} s, cpu {statistics.median(cpus):.2f} s")


if __name__ == "__main__":
    main()
