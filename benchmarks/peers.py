#!/usr/bin/env python3
"""Move-generation speed of ddz against OpenSpiel, DouZero and RLCard, in one process.

Every engine answers the same questions: the legal moves of the same seeded random hands,
leading on an empty table and answering a move on the table. Each hand is converted to each
engine's own representation (an OpenSpiel state, a DouZero card list, an RLCard string or
player, a ``ddz.Cards``) before any clock starts, so only move generation is timed. The
engines run round-robin, each sample a full pass over all positions (repeated until it lasts
``--min-time``), and the median of ``--repeats`` samples is reported, as timeit does with the
garbage collector paused.

This script installs nothing: a peer that does not import is skipped with a message. Run it
with a Python that has ddz and the peers installed (see ``benchmarks/README.md``).

The positions and the peers' contenders are in ``peer_engines.py``; this script adds ddz's,
times them all and prints the tables.
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import json
import math
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from peer_engines import (
    Contender,
    Position,
    douzero_contender,
    make_positions,
    openspiel_contender,
    openspiel_game_contenders,
    rank_counts,
    rlcard_contender,
)

import ddz
from ddz import batch

RULE_SETS: dict[str, ddz.Rules] = {
    "classic": ddz.CLASSIC,
    "douzero": ddz.DOUZERO,
    "rlcard": ddz.RLCARD,
}

# Speed targets for ddz, as multiples of OpenSpiel's sets/s: (leads, answers).
TARGETS: dict[str, tuple[float, float]] = {
    "objects": (2.0, 1.0),
    "raw": (10.0, 3.0),
    "batch": (20.0, 20.0),
}

# OpenSpiel's figures measured on another machine (leads and answer sets per second), the
# baseline when OpenSpiel cannot be imported here.
REFERENCE_OPENSPIEL = {"leads": 135_000.0, "answers": 2_470_000.0}


# ---------------------------------------------------------------------------------------------
# ddz's contenders


def ddz_contenders(positions: list[Position], label: str, rules: ddz.Rules) -> list[Contender]:
    """ddz at its three API levels: Move objects, raw codes per hand, one batch call."""
    hands = [ddz.Cards.from_counts(rank_counts(position.hand)) for position in positions]
    lasts = [position.table for position in positions]
    masks = [hand.mask for hand in hands]
    tables = [0 if last is None else last.code for last in lasts]
    hand_array = np.array(masks, dtype=np.uint64)
    table_array = np.array(tables, dtype=np.uint64)
    sizes = [
        len(ddz.legal_moves(hand, last, rules=rules))
        for hand, last in zip(hands, lasts, strict=True)
    ]
    out = np.empty(max(sizes), dtype=np.uint64)  # room for the largest set: no reallocation
    # Local names, as the peers' loops use: a module attribute lookup per call is no engine's.
    legal_moves, moves_into = ddz.legal_moves, batch.moves_into
    moves_batch = batch.legal_moves_batch

    def objects() -> None:
        for hand, last in zip(hands, lasts, strict=True):
            list(legal_moves(hand, last, rules=rules))

    def raw() -> None:
        for mask, table in zip(masks, tables, strict=True):
            moves_into(mask, table, rules, out)

    def batched() -> None:
        moves_batch(hand_array, table_array, rules=rules)

    return [
        Contender(f"ddz legal_moves -> Move ({label})", objects, sizes, "objects"),
        Contender(f"ddz raw moves_into ({label})", raw, sizes, "raw"),
        Contender(f"ddz legal_moves_batch ({label})", batched, sizes, "batch"),
    ]


# ---------------------------------------------------------------------------------------------
# Whole random games


def ddz_game_contenders(count: int, seed: int, rules: ddz.Rules, label: str) -> list[Contender]:
    """ddz's random games through the Python loop: legal_actions() and push()."""
    rng = random.Random(seed)
    choose = rng.choice
    starts = []
    next_seed = seed
    while len(starts) < count:
        game = ddz.Game(rules, seed=next_seed)
        next_seed += 1
        while game.phase == "bidding":
            game.push(choose(game.legal_actions()))
        if game.phase == "play":
            starts.append(game)

    def play_out(game: ddz.Game) -> int:
        plies = 0
        while not game.is_over:
            game.push(choose(game.legal_actions()))
            plies += 1
        return plies

    def whole() -> None:
        for index in range(count):
            play_out(ddz.Game(rules, seed=seed + index))

    def play_phase() -> None:
        for start in starts:
            play_out(start.copy())

    sizes = [play_out(start.copy()) for start in starts[:200]]
    return [
        Contender(f"ddz random games, play phase ({label})", play_phase, sizes, "games-play"),
        Contender(f"ddz random games, deal + bid + play ({label})", whole, sizes, "games-whole"),
    ]


def games_section(
    count: int,
    seed: int,
    repeats: int,
    min_time: float,
    labels: Sequence[str],
    results: dict[str, Any],
) -> None:
    contenders = openspiel_game_contenders(count, seed)
    for label in labels:
        contenders += ddz_game_contenders(count, seed, RULE_SETS[label], label)
    measure(contenders, count, repeats, min_time)
    baselines = {c.kind: c.median for c in contenders if c.name.startswith("OpenSpiel")}
    print(f"\nrandom games ({count:,} games; OpenSpiel measured here)")
    header = f"{'engine':<48} {'games/s':>10} {'x OpenSpiel':>11} {'plies':>6} {'spread':>7}"
    print(header)
    print("-" * len(header))
    rows = []
    for contender in contenders:
        baseline = baselines.get(contender.kind)
        ratio = contender.median / baseline if baseline else float("nan")
        spread = (max(contender.samples) - min(contender.samples)) / contender.median
        rows.append(
            {
                "engine": contender.name,
                "games_per_s": contender.median,
                "ratio_to_openspiel": ratio,
                "spread": spread,
                "avg_plies": statistics.fmean(contender.sizes),
                "samples": contender.samples,
            }
        )
        print(
            f"{contender.name:<48} {contender.median:>10,.0f} {ratio:>10.2f}x "
            f"{statistics.fmean(contender.sizes):>6.1f} {spread:>6.0%}"
        )
    print(
        "plies: actions of the players in the play phase (OpenSpiel's random games end "
        "when all pass the auction; ddz's void deals are over after the auction)."
    )
    results["sections"]["games"] = {"rows": rows}


def simulation_section(count: int, seed: int, repeats: int, results: dict[str, Any]) -> None:
    """ddz.simulate (whole games in C, one and two threads) and VectorGame (sample + step in
    C) against OpenSpiel's random play-phase loop, per game and per step."""
    baseline_games = baseline_steps = float("nan")
    peers = openspiel_game_contenders(min(count, 500), seed)
    if peers:
        measure(peers[:1], min(count, 500), repeats, 0.2)
        baseline_games = peers[0].median
        baseline_steps = baseline_games * statistics.fmean(peers[0].sizes)

    def median_rate(units: int, run: Callable[[], object]) -> float:
        run()
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            run()
            times.append(time.perf_counter() - start)
        return units / statistics.median(times)

    games = max(count, 20000)
    rows = []
    for threads in (1, 2):
        rate = median_rate(games, lambda t=threads: ddz.simulate(games, seed=seed, threads=t))
        rows.append(
            (f"ddz.simulate, random agents, {threads} thread(s)", rate, rate / baseline_games)
        )
    for hand_size in (9, 13, 17):
        rules = ddz.CLASSIC.replace(hand_size=hand_size)
        rate = median_rate(games, lambda r=rules: ddz.simulate(games, rules=r, seed=seed))
        rows.append(
            (f"ddz.simulate, {hand_size}-card hands, 1 thread", rate, rate / baseline_games)
        )
    print(
        f"\nwhole games in the core ({games:,} games; OpenSpiel play phase {baseline_games:,.0f}/s)"
    )
    header = f"{'engine':<48} {'games/s':>12} {'x OpenSpiel':>11}"
    print(header)
    print("-" * len(header))
    for name, rate, ratio in rows:
        print(f"{name:<48} {rate:>12,.0f} {ratio:>10.1f}x")
    results["sections"]["simulate"] = [
        {"engine": name, "games_per_s": rate, "ratio_to_openspiel": ratio}
        for name, rate, ratio in rows
    ]

    steps_rows = []
    for n in (64, 256, 1024):
        vector = ddz.VectorGame(n, seed=seed)
        rounds = max(1, 200_000 // n)

        def run(vector: ddz.VectorGame = vector, rounds: int = rounds) -> None:
            for _ in range(rounds):
                vector.step(vector.sample_legal())

        rate = median_rate(n * rounds, run)
        steps_rows.append((f"VectorGame({n}): sample_legal + step", rate, rate / baseline_steps))
        masks = median_rate(n * 20, lambda v=vector: [v.legal_action_mask() for _ in range(20)])
        steps_rows.append(
            (f"VectorGame({n}): legal_action_mask (rows)", masks, masks / baseline_steps)
        )
    print(f"\nVectorGame steps (OpenSpiel play phase {baseline_steps:,.0f} steps/s)")
    header = f"{'engine':<48} {'steps/s':>12} {'x OpenSpiel':>11}"
    print(header)
    print("-" * len(header))
    for name, rate, ratio in steps_rows:
        print(f"{name:<48} {rate:>12,.0f} {ratio:>10.1f}x")
    results["sections"]["vector"] = [
        {"engine": name, "steps_per_s": rate, "ratio_to_openspiel": ratio}
        for name, rate, ratio in steps_rows
    ]


# ---------------------------------------------------------------------------------------------
# Timing


def sample(contender: Contender, passes: int, positions: int) -> float:
    """Sets/s over ``passes`` full passes, with the collector paused as timeit does."""
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        for _ in range(passes):
            contender.run()
        elapsed = time.perf_counter() - start
    finally:
        gc.enable()
    return passes * positions / elapsed


def measure(contenders: list[Contender], positions: int, repeats: int, min_time: float) -> None:
    # Warm up once and size each sample to last min_time: a 2,000-hand batch call takes a
    # millisecond, far below the clock's noise on a busy machine.
    passes = {}
    for contender in contenders:
        contender.run()
        start = time.perf_counter()
        contender.run()
        once = max(time.perf_counter() - start, 1e-9)
        passes[contender.name] = max(1, math.ceil(min_time / once))
    for repeat in range(repeats):
        # Round-robin, the order rotated each repeat, so drift in the machine's speed (other
        # load, thermal limits) spreads over every engine instead of landing on one.
        shift = repeat % len(contenders)
        for contender in contenders[shift:] + contenders[:shift]:
            contender.samples.append(sample(contender, passes[contender.name], positions))


# ---------------------------------------------------------------------------------------------
# Report


def section_rows(
    section: str, contenders: list[Contender], baseline: float
) -> list[dict[str, Any]]:
    index = 0 if section == "leads" else 1
    rows = []
    for contender in contenders:
        target = TARGETS[contender.kind][index] if contender.kind in TARGETS else None
        ratio = contender.median / baseline
        spread = (max(contender.samples) - min(contender.samples)) / contender.median
        rows.append(
            {
                "engine": contender.name,
                "sets_per_s": contender.median,
                "ratio_to_openspiel": ratio,
                "target": target,
                "met": None if target is None else ratio >= target,
                "spread": spread,
                "avg_moves": statistics.fmean(contender.sizes),
                "samples": contender.samples,
            }
        )
    return rows


def print_table(title: str, rows: list[dict[str, Any]]) -> None:
    print(f"\n{title}")
    header = (
        f"{'engine':<40} {'sets/s':>12} {'x OpenSpiel':>11} {'target':>7} {'met':>4} "
        f"{'spread':>7} {'avg moves':>9}"
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        target = "" if row["target"] is None else f">={row['target']:g}x"
        met = "" if row["met"] is None else ("yes" if row["met"] else "NO")
        print(
            f"{row['engine']:<40} {row['sets_per_s']:>12,.0f} {row['ratio_to_openspiel']:>10.2f}x "
            f"{target:>7} {met:>4} {row['spread']:>6.0%} {row['avg_moves']:>9.1f}"
        )


def versions() -> dict[str, str]:
    found = {"python": platform.python_version(), "ddz": ddz.__version__}
    for distribution in ("open_spiel", "douzero", "rlcard", "numpy"):
        try:
            found[distribution] = importlib.metadata.version(distribution)
        except importlib.metadata.PackageNotFoundError:
            found[distribution] = "not installed"
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=2000, help="hands per section")
    parser.add_argument("--repeats", type=int, default=7, help="samples per engine (median)")
    parser.add_argument("--min-time", type=float, default=0.2, help="seconds per sample")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--rules",
        nargs="+",
        choices=sorted(RULE_SETS),
        default=["classic", "douzero"],
        help="ddz rule sets to time",
    )
    parser.add_argument("--games", type=int, default=500, help="random games (0: skip)")
    parser.add_argument("--json", metavar="PATH", help="also write the results here")
    args = parser.parse_args(argv)
    if args.positions < 3 or args.repeats < 1:
        parser.error("need --positions >= 3 and --repeats >= 1")

    leads, answers = make_positions(args.positions, args.seed)
    landlords = sum(position.seat == "landlord" for position in leads)
    print(
        f"{args.positions:,} positions (seed {args.seed}); leads: {landlords:,} hands of 20 "
        f"cards, {args.positions - landlords:,} of 17; answers: hands of 17 facing a random "
        f"lead of the landlord's 20; median of {args.repeats} samples of >= {args.min_time} s"
    )
    print("versions: " + ", ".join(f"{name} {version}" for name, version in versions().items()))

    results: dict[str, Any] = {
        "positions": args.positions,
        "repeats": args.repeats,
        "min_time": args.min_time,
        "seed": args.seed,
        "versions": versions(),
        "machine": platform.platform(),
        "sections": {},
    }
    for section, positions in (("leads", leads), ("answers", answers)):
        peers = [
            make(positions) for make in (openspiel_contender, douzero_contender, rlcard_contender)
        ]
        contenders = [peer for peer in peers if peer is not None]
        for label in args.rules:
            contenders += ddz_contenders(positions, label, RULE_SETS[label])
        measure(contenders, len(positions), args.repeats, args.min_time)
        if peers[0] is not None:
            baseline, source = peers[0].median, "measured here"
        else:
            baseline, source = (
                REFERENCE_OPENSPIEL[section],
                "a reference measured elsewhere (not here)",
            )
        rows = section_rows(section, contenders, baseline)
        results["sections"][section] = {"openspiel_baseline": source, "rows": rows}
        kind = "leading-move sets" if section == "leads" else "answer sets"
        print_table(f"{kind} (OpenSpiel baseline: {baseline:,.0f}/s, {source})", rows)

    if args.games:
        games_section(args.games, args.seed, args.repeats, args.min_time, args.rules, results)
        simulation_section(args.games, args.seed, args.repeats, results)

    print(
        "\nspread: (max - min) / median of the samples. avg moves: moves per set as each "
        "engine offers them\n(answers include the pass); engines differ in rules "
        "(docs/rules.md#engines-differ)."
    )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump(results, file, indent=2)
            file.write("\n")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
