#!/usr/bin/env python3
"""The drop-in environments against the packages they replace, in one process.

Each pair plays the same seeded games with the same random actions: the drop-ins give the
same observations and the same legal-action lists (DouZero: the same order; RLCard: the same
order when answering, RLCard's id order when leading), so an action drawn by index from the
list is the same move for both and both sides play identical games. The clock covers
``reset`` and every ``step`` (observations included); choosing the action is a
``random.Random`` draw outside nothing. Samples run round-robin, each a pass over ``--games``
seeded games, with the garbage collector paused; the median of ``--repeats`` samples is
reported, and the ratio of the medians.

``douzero``  ``douzero.env.env.Env("adp")`` against ``ddz.compat.douzero.Env("adp")``
``rlcard``   ``rlcard.make("doudizhu")`` against ``ddz.compat.rlcard.make("doudizhu")``
``uno``      ``rlcard.make("uno")`` against ``ddz.compat.rlcard.make("uno")``

The script installs nothing: a peer that does not import is skipped with a message. Run it
with a Python that has ddz and the peers (``pip install --no-deps douzero==1.1.0``,
``pip install rlcard==1.2.0``).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import importlib.metadata
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

Sample = tuple[int, float]  # steps, seconds


def douzero_run(make: Callable[[], Any]) -> Callable[[int, int], Sample]:
    def run(games: int, seed: int) -> Sample:
        env = make()
        rng = random.Random(seed)
        np.random.seed(seed)
        steps = 0
        start = time.perf_counter()
        for _ in range(games):
            obs = env.reset()
            done = False
            while not done:
                legal = obs["legal_actions"]
                obs, _, done, _ = env.step(legal[rng.randrange(len(legal))])
                steps += 1
        return steps, time.perf_counter() - start

    return run


def rlcard_run(make: Callable[[int], Any]) -> Callable[[int, int], Sample]:
    def run(games: int, seed: int) -> Sample:
        env = make(seed)
        rng = random.Random(seed)
        steps = 0
        start = time.perf_counter()
        for _ in range(games):
            state, _ = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"])
                state, _ = env.step(legal[rng.randrange(len(legal))])
                steps += 1
        return steps, time.perf_counter() - start

    return run


def pairs() -> dict[str, tuple[str, Callable[..., Sample], str, Callable[..., Sample]]]:
    found: dict[str, tuple[str, Callable[..., Sample], str, Callable[..., Sample]]] = {}
    try:
        douzero_env = importlib.import_module("douzero.env.env")
        from ddz.compat import douzero as ddz_douzero

        found["douzero"] = (
            "douzero.env.env.Env",
            douzero_run(lambda: douzero_env.Env("adp")),
            "ddz.compat.douzero.Env",
            douzero_run(lambda: ddz_douzero.Env("adp")),
        )
    except ImportError as error:
        print(f"skipping DouZero: {error}", file=sys.stderr)
    try:
        rlcard = importlib.import_module("rlcard")
        from ddz.compat import rlcard as ddz_rlcard

        for game in ("doudizhu", "uno"):
            if game not in ddz_rlcard.GAMES:
                print(f"skipping RLCard {game}: no drop-in", file=sys.stderr)
                continue
            found[game] = (
                f'rlcard.make("{game}")',
                rlcard_run(lambda seed, game=game: rlcard.make(game, config={"seed": seed})),
                f'ddz.compat.rlcard.make("{game}")',
                rlcard_run(lambda seed, game=game: ddz_rlcard.make(game, config={"seed": seed})),
            )
    except ImportError as error:
        print(f"skipping RLCard: {error}", file=sys.stderr)
    return found


def measure(run: Callable[[int, int], Sample], games: int, seed: int) -> float:
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        steps, seconds = run(games, seed)
    finally:
        if gc_was_enabled:
            gc.enable()
    return steps / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per peer sample")
    parser.add_argument("--ratio", type=int, default=10, help="ddz plays this many times more")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", nargs="*", default=None, help="douzero, doudizhu, uno")
    parser.add_argument("--json", default=None, help="write every sample here")
    args = parser.parse_args()
    results: dict[str, Any] = {}
    print(f"{'environment':46}{'steps/s':>12}{'ratio':>9}")
    print("-" * 67)
    for name, (peer_name, peer, ours_name, ours) in pairs().items():
        if args.only and name not in args.only:
            continue
        peer_rates, our_rates = [], []
        for repeat in range(args.repeats):
            seed = args.seed + 1000 * repeat
            peer_rates.append(measure(peer, args.games, seed))
            our_rates.append(measure(ours, args.games * args.ratio, seed))
        peer_median = statistics.median(peer_rates)
        our_median = statistics.median(our_rates)
        print(f"{peer_name:46}{peer_median:>12,.0f}{1.0:>8.1f}x")
        print(f"{ours_name:46}{our_median:>12,.0f}{our_median / peer_median:>8.1f}x")
        results[name] = {
            "peer": peer_name,
            "ddz": ours_name,
            "peer_steps_per_s": peer_rates,
            "ddz_steps_per_s": our_rates,
            "ratio": our_median / peer_median,
        }
    versions = {}
    for package in ("ddz", "douzero", "rlcard", "numpy"):
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):
            versions[package] = importlib.metadata.version(package)
    if args.json:
        with open(args.json, "w") as file:
            json.dump({"results": results, "versions": versions, "args": vars(args)}, file)


if __name__ == "__main__":
    main()
