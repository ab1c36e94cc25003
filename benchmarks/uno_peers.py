#!/usr/bin/env python3
"""Random two-player UNO rounds: ddz.uno (house rules off and on) against RLCard's UNO.

Every engine deals a fresh seeded round and plays it to the end with random actions from its
own legal-action list; the clock covers dealing and playing. The policy is RLCard's rule for
everyone: a uniformly random *play* (a wild once per colour), a draw only when nothing can be
played, and a playable drawn card is played (RLCard plays it automatically; ddz lists "play
it" and "keep", and the policy plays). With the house rules on, the UNO calls, catches and
jump-ins that ddz lists count as plays, so they are chosen too. A second table uses ddz's
uniform policy over every legal action (voluntary draws and keeps included), which makes
rounds much longer; compare its steps/s, not its rounds/s.

ddz is timed through three entry points:

``objects``  ``game.legal_actions()`` (Action objects) and ``game.push(action)`` in Python
``raw``      ``game.legal_codes()`` (ints) and ``game.push_code(code)`` in Python
``core``     ``game.playout(seed, eager=True)``: the same policy, the loop in C

Rounds are timed round-robin, each sample a pass over ``--rounds`` seeded rounds, and the
median of ``--repeats`` samples is reported with the garbage collector paused. The script
installs nothing; without RLCard its rows are skipped. Run it with a Python that has both
(``pip install rlcard==1.2.0 /path/to/ddz``).
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import json
import platform
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from ddz import uno

DRAW_OR_KEEP = (1, 2)  # the core's DRAW and KEEP action types (code & 7)


@dataclass
class Sample:
    rounds: int
    steps: int
    seconds: float


def ddz_objects(rules: uno.Rules, eager: bool) -> Callable[[int, int], Sample]:
    def run(count: int, seed: int) -> Sample:
        rng = random.Random(seed)
        steps = 0
        start = time.perf_counter()
        for index in range(count):
            game = uno.Game(2, seed=seed + index, rules=rules)
            while not game.is_over:
                actions = game.legal_actions()
                if eager:
                    plays = [a for a in actions if a.kind != "draw" and a.kind != "keep"]
                    if plays:
                        actions = plays
                game.push(rng.choice(actions))
                steps += 1
        return Sample(count, steps, time.perf_counter() - start)

    return run


def ddz_raw(rules: uno.Rules, eager: bool) -> Callable[[int, int], Sample]:
    def run(count: int, seed: int) -> Sample:
        rng = random.Random(seed)
        steps = 0
        start = time.perf_counter()
        for index in range(count):
            game = uno.Game(2, seed=seed + index, rules=rules)
            push, legal = game.push_code, game.legal_codes
            while not game.is_over:
                codes = legal()
                if eager:
                    plays = [c for c in codes if c & 7 not in DRAW_OR_KEEP]
                    if plays:
                        codes = plays
                push(rng.choice(codes))
                steps += 1
        return Sample(count, steps, time.perf_counter() - start)

    return run


def ddz_core(rules: uno.Rules, eager: bool) -> Callable[[int, int], Sample]:
    def run(count: int, seed: int) -> Sample:
        steps = 0
        start = time.perf_counter()
        for index in range(count):
            game = uno.Game(2, seed=seed + index, rules=rules)
            steps += game.playout(seed + index, eager=eager).steps
        return Sample(count, steps, time.perf_counter() - start)

    return run


def rlcard_rounds() -> Callable[[int, int], Sample] | None:
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError as error:
        print(f"RLCard skipped: {error}")
        return None

    def run(count: int, seed: int) -> Sample:
        rng = random.Random(seed)
        game = UnoGame(num_players=2)
        game.np_random = np.random.RandomState(seed)
        steps = 0
        start = time.perf_counter()
        for _ in range(count):
            game.init_game()
            while not game.is_over():
                game.step(rng.choice(game.get_legal_actions()))
                steps += 1
        return Sample(count, steps, time.perf_counter() - start)

    return run


def measure(
    engines: dict[str, Callable[[int, int], Sample]], rounds: int, repeats: int, seed: int
) -> dict[str, list[Sample]]:
    samples: dict[str, list[Sample]] = {name: [] for name in engines}
    for run in engines.values():  # warm up (imports, caches)
        run(max(1, rounds // 10), seed)
    gc.disable()
    try:
        for repeat in range(repeats):
            for name, run in engines.items():
                samples[name].append(run(rounds, seed + 1_000_003 * repeat))
    finally:
        gc.enable()
    return samples


def summarise(samples: list[Sample]) -> dict[str, float]:
    rounds_per_s = statistics.median(s.rounds / s.seconds for s in samples)
    steps_per_s = statistics.median(s.steps / s.seconds for s in samples)
    steps = sum(s.steps for s in samples) / sum(s.rounds for s in samples)
    return {"rounds_per_s": rounds_per_s, "steps_per_s": steps_per_s, "steps_per_round": steps}


def print_table(title: str, results: dict[str, dict[str, float]], baseline: str | None) -> None:
    print(f"\n{title}")
    print(f"  {'engine':<28} {'rounds/s':>10} {'steps/s':>11} {'steps/rd':>9} {'x base':>7}")
    base = results.get(baseline or "", {}).get("rounds_per_s")
    for name, row in results.items():
        ratio = f"{row['rounds_per_s'] / base:>6.1f}x" if base else "      -"
        print(
            f"  {name:<28} {row['rounds_per_s']:>10,.0f} {row['steps_per_s']:>11,.0f} "
            f"{row['steps_per_round']:>9.1f} {ratio}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=300, help="rounds per sample")
    parser.add_argument("--repeats", type=int, default=5, help="samples per engine")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", help="write every figure to this file")
    args = parser.parse_args()

    off, on = uno.STANDARD, uno.LOMBARDY
    engines: dict[str, Callable[[int, int], Sample]] = {}
    rlcard = rlcard_rounds()
    if rlcard is not None:
        engines["rlcard"] = rlcard
    for label, rules in (("off", off), ("on", on)):
        engines[f"ddz objects, rules {label}"] = ddz_objects(rules, eager=True)
        engines[f"ddz raw, rules {label}"] = ddz_raw(rules, eager=True)
        engines[f"ddz core, rules {label}"] = ddz_core(rules, eager=True)
    uniform: dict[str, Callable[[int, int], Sample]] = {}
    for label, rules in (("off", off), ("on", on)):
        uniform[f"ddz objects, rules {label}"] = ddz_objects(rules, eager=False)
        uniform[f"ddz raw, rules {label}"] = ddz_raw(rules, eager=False)
        uniform[f"ddz core, rules {label}"] = ddz_core(rules, eager=False)

    print(
        f"random two-player rounds, {args.rounds} per sample, median of {args.repeats}; "
        f"Python {platform.python_version()}, ddz {importlib.metadata.version('ddz')}"
        + (f", rlcard {importlib.metadata.version('rlcard')}" if rlcard else "")
    )
    eager = {
        k: summarise(v) for k, v in measure(engines, args.rounds, args.repeats, args.seed).items()
    }
    print_table(
        "RLCard's policy (play when you can; draw only when you cannot)",
        eager,
        "rlcard" if rlcard else None,
    )
    print("\n  rules on / rules off, time per round and per step:")
    for tier in ("objects", "raw", "core"):
        a, b = eager[f"ddz {tier}, rules off"], eager[f"ddz {tier}, rules on"]
        print(
            f"    {tier:<8} {a['rounds_per_s'] / b['rounds_per_s']:.2f}x per round, "
            f"{a['steps_per_s'] / b['steps_per_s']:.2f}x per step"
        )
    few = max(10, args.rounds // 10)  # uniform rounds are long: fewer of them
    flat = {k: summarise(v) for k, v in measure(uniform, few, args.repeats, args.seed).items()}
    print_table("ddz's uniform policy (every legal action, voluntary draws too)", flat, None)
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"rlcard_policy": eager, "uniform": flat, "args": vars(args)}, out, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
