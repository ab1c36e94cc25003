"""Solve time, nodes/s and memory of ``ddz.solve`` by position size: a markdown table.

    python benchmarks/solver.py                      # two and three seats, 12 positions a size
    python benchmarks/solver.py --seats 2 --sizes 26 34 --count 50 --time-limit 10
    python benchmarks/solver.py --from-files benchmarks/positions   # the shipped sets
    python benchmarks/solver.py --deals three two --count 100         # whole deals

Positions are seeded random deals (``random_positions``): two seats under ``ddz.ENDGAME``
(the open-hand puzzles' rules) with ``size // 2`` cards each, three seats under
``ddz.CLASSIC`` with every hand known (the farmers ``size // 3`` cards each, the landlord the
rest); the landlord leads. ``--deals`` solves whole deals instead (``whole_deals``: three
seats 20 v 17 v 17, two seats 20 v 17, Uno the Landlord 22 v 18 v 18). ``--from-files``
reads position files instead (the format of ``benchmarks/positions/``: ``VALUE POSITION`` a
line) and checks the stored values; a ``*-score.txt`` file stores exact scores, solved with
``score=True``.

Each size runs in a fresh child process, one cold ``ddz.Solver`` a position (as
``ddz.solve`` does), so the peak resident memory (RSS) it reports is that size's, and a
position's time is the verdict's (``SolveResult.seconds``, the principal variation not
included). A position not solved within ``--time-limit`` counts as unknown and as the limit
in the time columns (so the max then reads ``>limit``). nodes/s is all nodes over all
seconds of the size. Times are the solving process's CPU time by default (``--clock cpu``:
on a machine shared with other work the wall clock counts the waits for a core too); the
time limit is the solver's own, on the wall clock. Timings on a loaded machine vary:
compare medians of runs made one after another, and see docs/solver.md for how the
published tables were made.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import ddz

TWO_SEAT_SIZES = (10, 14, 18, 22, 26, 30, 34)
THREE_SEAT_SIZES = (12, 18, 24, 30, 33)
DECK = str(ddz.ENDGAME.deck)  # the 54 cards, one character each


def hand_sizes(seats: int, size: int) -> list[int]:
    """The hands of a ``size``-card position: two seats split evenly (the landlord, seat 0,
    takes an odd card), three seats give each farmer ``size // 3``."""
    if seats == 2:
        return [size - size // 2, size // 2]
    return [size - 2 * (size // 3), size // 3, size // 3]


def rules_for(seats: int) -> ddz.Rules:
    return ddz.ENDGAME if seats == 2 else ddz.CLASSIC


def random_positions(seats: int, size: int, count: int, seed: int) -> list[ddz.Position]:
    """``count`` seeded random positions: ``size`` cards dealt from a shuffled 54-card deck,
    the landlord (seat 0) to lead. The same arguments give the same positions on every
    machine and Python version (``random.Random.shuffle`` is stable)."""
    rng = random.Random(f"ddz-solver-{seats}-{size}-{seed}")
    rules = rules_for(seats)
    positions = []
    for _ in range(count):
        deck = list(DECK)
        rng.shuffle(deck)
        hands, start = [], 0
        for n in hand_sizes(seats, size):
            hands.append("".join(deck[start : start + n]))
            start += n
        game = ddz.Game.from_position(rules, hands, landlord=0, to_act=0)
        positions.append(game.position())
    return positions


DEAL_KINDS = ("three", "two", "two-player", "uno")
DEAL_LABELS = {
    "three": "whole deals, 3 seats (20 v 17 v 17)",
    "two": "whole deals, 2 seats (20 v 17)",
    "two-player": "whole deals, the two-player game (20 v 17, let cards)",
    "uno": "whole deals, Uno the Landlord (22 v 18 v 18)",
}
DEAL_PRESETS = {
    "three": ddz.CLASSIC,
    "two": ddz.ENDGAME,
    "two-player": ddz.TWO_PLAYER,
    "uno": ddz.UNO_LANDLORD,
}


def whole_deals(kind: str, count: int, seed: int) -> list[ddz.Position]:
    """``count`` seeded whole deals, the landlord (seat 0) to lead, every hand known.
    ``three``: ``ddz.CLASSIC``, 17 cards a seat and the kitty's 3 to the landlord (20 v 17 v
    17, the kitty shown); ``uno``: ``ddz.UNO_LANDLORD`` the same way (22 v 18 v 18, Skip and
    Reverse cards in the deck); ``two-player``: ``ddz.TWO_PLAYER`` the same way (20 v 17 from
    the 46 cards without 3s and 4s, the other 9 set aside), deal ``i`` after ``i % 3`` grabs,
    so with that many let cards (the farmer wins on reaching that many cards) and the stake
    doubled that many times; ``two``: ``ddz.ENDGAME``, the landlord 20 cards and the farmer 17
    from one shuffled 54-card deck (the other 17 set aside). The same arguments give the
    same deals on every machine."""
    if kind not in DEAL_KINDS:
        raise ValueError(f"a deal is one of {DEAL_KINDS}, not {kind!r}")
    rules = DEAL_PRESETS[kind]
    rng = random.Random(f"ddz-deal-{kind}-{seed}")
    positions = []
    for index in range(count):
        deck = list(str(rules.deck))
        rng.shuffle(deck)
        kitty: str | None = None
        if kind == "two":
            hands = ["".join(deck[0:20]), "".join(deck[20:37])]
        else:
            size, extra, seats = rules.hand_size, rules.kitty_size, rules.players
            hands = ["".join(deck[i * size : (i + 1) * size]) for i in range(seats)]
            kitty = "".join(deck[seats * size : seats * size + extra])
            hands[0] += kitty
        grabs = index % 3 if kind == "two-player" else 0
        game = ddz.Game.from_position(rules, hands, landlord=0, to_act=0, kitty=kitty, grabs=grabs)
        positions.append(game.position())
    return positions


def is_score_file(path: Path) -> bool:
    """A file of exact scores (``*-score.txt``): its values are solved with ``score=True``."""
    return path.name.endswith("-score.txt")


def read_positions(path: Path) -> list[tuple[int | None, ddz.Position, str]]:
    """The lines of a position file: ``(value, position, comment)``. A line is ``VALUE
    POSITION`` with VALUE ``+1`` or ``-1`` (for the side to act; in a score file, the exact
    score, a signed number such as ``-2``; ``?`` for a position whose value was not verified
    within the budget the set's maker allowed: ``None``) and POSITION in ``ddz.Position``'s
    text form, optionally followed by ``# comment``; blank lines and lines starting with
    ``#`` are skipped."""
    score = is_score_file(path)
    entries = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        text, _, comment = line.partition(" #")
        value_text, _, position_text = text.strip().partition(" ")
        if score:
            if value_text != "?" and not re.fullmatch(r"[+-][1-9][0-9]*", value_text):
                raise ValueError(
                    f"{path}:{number}: the value must be a signed score such as -2, or ?, "
                    f"not {value_text!r}"
                )
        elif value_text not in ("+1", "-1", "?"):
            raise ValueError(f"{path}:{number}: the value must be +1, -1 or ?, not {value_text!r}")
        try:
            position = ddz.Position.parse(position_text.strip())
        except ValueError as error:
            raise ValueError(f"{path}:{number}: {error}") from None
        value = None if value_text == "?" else int(value_text)
        entries.append((value, position, comment.strip()))
    return entries


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (``share`` in 0..1) of a non-empty list."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


# --- the child process: solve one size ---------------------------------------------------


def solve_all(request: dict[str, Any]) -> dict[str, Any]:
    """Solve every position of ``request`` (texts, limits); runs in the child process."""
    with open("/proc/self/statm") as statm:  # resident pages before any solve
        baseline = int(statm.read().split()[1]) * resource.getpagesize()
    if request.get("flags") is not None:
        from ddz._core import solver as core

        core._set_flags(request["flags"])  # the search's shortcuts (docs/dev/solver-history.md)
    if request.get("round_orders") is not None:
        from ddz._core import solver as core

        core._set_rounds(100_000, request["round_orders"])  # the rounds' move orders
    results = []
    for text in request["positions"]:
        position = ddz.Position.parse(text)
        solver = ddz.Solver(
            position.rules, memory_mb=request["memory_mb"], threads=request["threads"]
        )
        game = position.game()
        cpu = time.process_time()
        result = solver.solve(
            game,
            time_limit=request["time_limit"],
            node_limit=request.get("node_limit"),
            score=request.get("score", False),
            line=False,
        )
        cpu = time.process_time() - cpu
        settled = result.score if request.get("score", False) else result.value
        results.append(
            {
                # score mode settles the verdict first: a position counts as settled once
                # its score is
                "settled": settled is not None,
                "value": result.value,
                "score": result.score,
                "seconds": result.seconds,
                "cpu": cpu,
                "nodes": result.nodes,
            }
        )
    # ru_maxrss is in KiB on Linux
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return {"results": results, "peak_rss": peak, "baseline_rss": baseline}


def run_size(texts: list[str], args: argparse.Namespace, score: bool = False) -> dict[str, Any]:
    request = {
        "positions": texts,
        "time_limit": args.time_limit,
        "memory_mb": args.memory_mb,
        "threads": args.threads,
        "node_limit": args.node_limit,
        "score": args.score or score,
        "flags": args.flags,
        "round_orders": args.round_orders,
    }
    child = subprocess.run(
        [sys.executable, __file__, "--child"],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        check=False,
    )
    if child.returncode != 0:
        raise SystemExit(f"the solving process failed:\n{child.stderr}")
    answer: dict[str, Any] = json.loads(child.stdout)
    return answer


# --- the table ---------------------------------------------------------------------------


def summarise(label: str, answer: dict[str, Any], limit: float, clock: str) -> dict[str, Any]:
    results = answer["results"]
    unknown = sum(1 for r in results if not r["settled"])
    key = "cpu" if clock == "cpu" else "seconds"
    times = [r[key] if r["settled"] else limit for r in results]
    nodes = sum(r["nodes"] for r in results)
    seconds = sum(r[key] for r in results)
    return {
        "label": label,
        "count": len(results),
        "wins": sum(1 for r in results if r["value"] == 1),
        "unknown": unknown,
        "median": statistics.median(times),
        "p90": percentile(times, 0.9),
        "max": max(times),
        "max_unknown": unknown > 0,
        "nodes_per_second": nodes / seconds if seconds > 0 else 0.0,
        "peak_rss_mb": answer["peak_rss"] / 2**20,
        "baseline_rss_mb": answer["baseline_rss"] / 2**20,
        "results": results,
    }


def seconds_text(value: float) -> str:
    if value < 0.01:
        return f"{value * 1000:.2f} ms"
    if value < 1:
        return f"{value * 1000:.0f} ms"
    return f"{value:.2f} s"


def markdown(rows: list[dict[str, Any]], limit: float) -> str:
    lines = [
        "| position | n | side to act wins | median | p90 | max | nodes/s | peak RSS "
        f"| unknown within {limit:g} s |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        maximum = f">{limit:g} s" if row["max_unknown"] else seconds_text(row["max"])
        lines.append(
            f"| {row['label']} | {row['count']} | {row['wins']} | {seconds_text(row['median'])} "
            f"| {seconds_text(row['p90'])} | {maximum} "
            f"| {row['nodes_per_second'] / 1e6:.1f} M | {row['peak_rss_mb']:.0f} MB "
            f"| {row['unknown']} |"
        )
    return "\n".join(lines)


def label_for(seats: int, size: int) -> str:
    sizes = " v ".join(str(n) for n in hand_sizes(seats, size))
    return f"{seats} seats, {size} cards ({sizes})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seats", type=int, nargs="+", choices=(2, 3), default=[2, 3])
    parser.add_argument("--sizes", type=int, nargs="+", help="cards on the table (all seats)")
    parser.add_argument("--count", type=int, default=12, help="positions a size (default 12)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds a position")
    parser.add_argument("--memory-mb", type=int, default=256, help="the table's bound")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--node-limit", type=int, help="nodes a position (default: none)")
    parser.add_argument("--score", action="store_true", help="solve for the exact score")
    parser.add_argument(
        "--flags",
        type=int,
        help="the search's shortcuts, a mask of solver_order.pxd's FLAG_* (default: the "
        "solver's; 123 is the search before the team, seat-by-seat and score shortcuts, "
        "13819 the search before the rounds, 30203 with --round-orders 2 the search before "
        "the covered plays, 128507 the search before the two-seat covered plays, 652795 "
        "the search before the two-seat transposition cutoff, 2749947 the search before the "
        "three-seat static losses)",
    )
    parser.add_argument(
        "--round-orders",
        type=int,
        choices=(1, 2, 3, 4),
        help="the move orders the rounds of a whole three-seat deal take in turn (default: "
        "the solver's, 4; 2 is the rounds before the partner's lead orders)",
    )
    parser.add_argument(
        "--deals", nargs="+", choices=DEAL_KINDS, help="solve --count whole deals of these kinds"
    )
    parser.add_argument(
        "--clock",
        choices=("cpu", "wall"),
        default="cpu",
        help="time a solve by the process's CPU time (default: a busy machine's waits do "
        "not count; with --threads > 1 it adds the threads up) or the wall clock",
    )
    parser.add_argument(
        "--from-files",
        type=Path,
        metavar="DIR",
        help="solve the position files in DIR (*.txt) and check their values",
    )
    parser.add_argument("--json", type=Path, metavar="PATH", help="write every result here")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        json.dump(solve_all(json.load(sys.stdin)), sys.stdout)
        return 0
    if args.count < 1 or args.time_limit <= 0:
        parser.error("--count and --time-limit must be positive")

    # (label, texts, stored values or None, stored scores: solve with score=True)
    jobs: list[tuple[str, list[str], list[int | None] | None, bool]] = []
    if args.deals:
        for kind in args.deals:
            deals = whole_deals(kind, args.count, args.seed)
            jobs.append((DEAL_LABELS[kind], [str(p) for p in deals], None, False))
    elif args.from_files:
        for path in sorted(args.from_files.glob("*.txt")):
            entries = read_positions(path)
            values = [v for v, _, _ in entries]
            jobs.append((path.name, [str(p) for _, p, _ in entries], values, is_score_file(path)))
    else:
        for seats in args.seats:
            sizes = args.sizes or (TWO_SEAT_SIZES if seats == 2 else THREE_SEAT_SIZES)
            for size in sizes:
                if not 2 <= size <= 54 or (seats == 3 and size < 3):
                    parser.error(f"size {size} is not a position of {seats} seats")
                positions = random_positions(seats, size, args.count, args.seed)
                jobs.append((label_for(seats, size), [str(p) for p in positions], None, False))

    rows, wrong = [], 0
    for label, texts, values, scores in jobs:
        answer = run_size(texts, args, score=scores)
        row = summarise(label, answer, args.time_limit, args.clock)
        if values is not None:
            for text, value, result in zip(texts, values, row["results"], strict=True):
                solved = result["score"] if scores else result["value"]
                if None not in (value, solved) and solved != value:
                    wrong += 1
                    print(f"WRONG: {text} stored {value:+d}, solved {solved:+d}")
        row["positions"] = texts
        rows.append(row)
        print(f"{label}: median {seconds_text(row['median'])}", file=sys.stderr, flush=True)
    print(markdown(rows, args.time_limit))
    baseline = max(row["baseline_rss_mb"] for row in rows)
    print(
        f"\nddz {ddz.__version__}; {args.threads} thread(s), memory_mb={args.memory_mb}, "
        f"seed {args.seed}, {args.clock} clock, time limit {args.time_limit:g} s (wall "
        f"clock); a child process holds "
        f"{baseline:.0f} MB before its first solve"
    )
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "arguments": vars(args)
                    | {"from_files": str(args.from_files), "json": str(args.json)},
                    "rows": rows,
                },
                indent=1,
            )
        )
    if wrong:
        print(f"{wrong} stored value(s) disagree", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
