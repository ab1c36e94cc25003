"""Where PIMCAgent's exact solves pay: the share of random classic positions the solver
settles within a node limit, by the cards left in the hands (three seats).

    python benchmarks/pimc_settle.py [--positions 40] [--node-limit 2000] [--seed 1]

Each position deals ``total`` random cards of the classic deck over the three seats (as
evenly as they go), seat 0 the landlord, a random seat to act, and solves it once with
``ddz.Solver.solve`` (one 16 MB table for all). Reported: how many settled (a value within
the limit) and the median nodes searched. Node counts do not depend on the machine.
"""

from __future__ import annotations

import argparse
import random
import statistics

import ddz
from ddz.doudizhu.solver import Solver


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--node-limit", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    solver = Solver(ddz.CLASSIC, memory_mb=16)
    print("| cards left | settled | median nodes |")
    print("| ---: | ---: | ---: |")
    for total in (9, 12, 15, 18, 21, 24):
        settled, nodes = 0, []
        for _ in range(args.positions):
            deck = list(str(ddz.CLASSIC.deck))
            rng.shuffle(deck)
            sizes = [total // 3 + (1 if seat < total % 3 else 0) for seat in range(3)]
            hands, at = [], 0
            for size in sizes:
                hands.append("".join(deck[at : at + size]))
                at += size
            game = ddz.Game.from_position(ddz.CLASSIC, hands, landlord=0, to_act=rng.randrange(3))
            result = solver.solve(game, node_limit=args.node_limit, line=False)
            settled += result.value is not None
            nodes.append(result.nodes)
        print(f"| {total} | {settled}/{args.positions} | {statistics.median(nodes):g} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
