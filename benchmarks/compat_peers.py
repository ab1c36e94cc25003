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

``douzero-batch`` is ddz against itself: ``--tables`` (64) tables' DouZero observations
written by one ``ddz.compat.douzero.VectorEnv.observe()`` call, against one
``ddz.compat.douzero.get_obs`` call on each of ``--tables`` drop-in ``Env`` objects holding
the same games (checked equal first); ``observe(z_batch=False)``, which leaves out the
largest array (``z_batch``, each table's ``z`` repeated per row; ``z[row_slot]`` gives it);
and ``observe_compact()``, which writes each table's state once and each action's 54 columns
once (x_batch is rebuilt from them exactly). The tables are played in lockstep with random
actions to ``--samples`` points spread over their games (deals, leads with many rows,
answers with few); at each point the four are timed in turn, each the best of 5 calls; the
median over the points of each is reported, and the ratios of the medians.

``douzero-loop`` times whole steps: ``--steps`` lockstep steps of ``--tables`` games with
random actions (drawn once, untimed), played by ``VectorEnv.step`` + ``observe()`` (or
``observe_compact()``) against ``Env.step`` on each of ``--tables`` drop-in environments
(whose ``step`` returns the next observation; a finished game is reset with the vector
table's next deal). ``rlcard-loop`` does the same for ``ddz.compat.rlcard.VectorEnv``
(``step`` + ``observe``) against ``--tables`` environments of ``make("doudizhu")`` seeded as
the vector's tables (``step`` returns the state; a finished game is reset). Each takes
``--repeats`` samples round-robin, timed by the process's CPU clock (on a loaded machine the
wall clock mostly measures the other processes), and reports medians and the ratio of the
medians.

``--count-calls FORM`` makes no timing: it sets up the ``douzero-batch`` position and makes
``--calls`` calls of one form (``full``, ``no-z``, ``compact``, ``separate`` or ``none``), for
``valgrind --tool=callgrind`` (machine-independent instruction counts: a form's count minus
``none``'s, divided by ``--calls``, is its cost per call).

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


def douzero_batch(tables: int, samples: int, seed: int) -> dict[str, Any]:
    """VectorEnv.observe() against ``tables`` separate Env observations, same positions."""
    from ddz.compat.douzero import Env, VectorEnv, get_obs

    rng = random.Random(seed)
    vector = VectorEnv(tables, "adp", seed=seed)
    obs = vector.reset()
    envs = [Env("adp") for _ in range(tables)]
    for i, env in enumerate(envs):
        env.reset(vector.card_play_data(i))
    one_call: list[float] = []
    no_z_batch: list[float] = []
    compact: list[float] = []
    separate: list[float] = []
    rows: list[int] = []
    for _ in range(samples):
        for _ in range(rng.randrange(1, 12)):  # advance, untimed, to the next point
            actions = [rng.randrange(int(count)) for count in obs.legal_count]
            legal = [vector.legal_actions(i) for i in range(tables)]
            _, dones = vector.step(actions)
            for i, env in enumerate(envs):
                env.step(legal[i][actions[i]])
                if dones[i]:
                    env.reset(vector.card_play_data(i))
            obs = vector.observe()
        for i, env in enumerate(envs):  # the same observations, array for array
            mine, theirs = vector.table_observation(i), get_obs(env)
            for key, value in theirs.items():
                if isinstance(value, np.ndarray):
                    assert value.dtype == mine[key].dtype, key
                    assert np.array_equal(value, mine[key]), key
                else:
                    assert value == mine[key], key
        rows.append(int(obs.legal_count.sum()))
        gc.disable()
        try:
            best_one = best_no_z = best_compact = best_separate = float("inf")
            for _ in range(5):
                start = time.perf_counter()
                vector.observe_compact()
                best_compact = min(best_compact, time.perf_counter() - start)
                start = time.perf_counter()
                vector.observe()
                best_one = min(best_one, time.perf_counter() - start)
                start = time.perf_counter()
                vector.observe(z_batch=False)
                best_no_z = min(best_no_z, time.perf_counter() - start)
                start = time.perf_counter()
                for env in envs:
                    get_obs(env)
                best_separate = min(best_separate, time.perf_counter() - start)
        finally:
            gc.enable()
        one_call.append(best_one)
        no_z_batch.append(best_no_z)
        compact.append(best_compact)
        separate.append(best_separate)
    return {
        "one_call_s": one_call,
        "no_z_batch_s": no_z_batch,
        "compact_s": compact,
        "separate_s": separate,
        "rows": rows,
    }


def douzero_loop(tables: int, steps: int, seed: int, repeats: int) -> dict[str, Any]:
    """``steps`` lockstep steps: VectorEnv step + observe against ``tables`` Env.step calls."""
    from ddz.compat.douzero import Env, VectorEnv

    rng = random.Random(seed)
    vector = VectorEnv(tables, "adp", seed=seed)
    obs = vector.reset()
    deals = [[vector.card_play_data(i)] for i in range(tables)]
    plan = []
    for _ in range(steps):  # the actions, drawn once; every table's deals in order
        actions = np.array([rng.randrange(int(count)) for count in obs.legal_count])
        plan.append(actions)
        _, dones = vector.step(actions)
        for i in np.flatnonzero(dones).tolist():
            deals[i].append(vector.card_play_data(i))
        obs = vector.observe()

    def run_vector(form: str) -> float:
        env = VectorEnv(tables, "adp", seed=seed)
        env.reset()
        observe = env.observe_compact if form == "compact" else env.observe
        start = time.process_time()
        for actions in plan:
            env.step(actions)
            observe()
        return time.process_time() - start

    def run_separate() -> float:
        envs = [Env("adp") for _ in range(tables)]
        state = [env.reset(deals[i][0]) for i, env in enumerate(envs)]
        dealt = [1] * tables
        start = time.process_time()
        for actions in plan:
            for i, env in enumerate(envs):
                after, _, done, _ = env.step(state[i]["legal_actions"][actions[i]])
                if done:
                    after = env.reset(deals[i][dealt[i]])
                    dealt[i] += 1
                state[i] = after
        return time.process_time() - start

    samples: dict[str, list[float]] = {"full_s": [], "compact_s": [], "separate_s": []}
    for _ in range(repeats):
        gc.disable()
        try:
            samples["full_s"].append(run_vector("full"))
            samples["compact_s"].append(run_vector("compact"))
            samples["separate_s"].append(run_separate())
        finally:
            gc.enable()
    return samples


def rlcard_loop(tables: int, steps: int, seed: int, repeats: int) -> dict[str, Any]:
    """``steps`` lockstep steps: rlcard VectorEnv step + observe against ``tables``
    make("doudizhu") step calls."""
    from ddz.compat import rlcard as ddz_rlcard

    rng = random.Random(seed)
    vector = ddz_rlcard.VectorEnv(tables, seed=seed)
    obs = vector.reset()
    plan = []
    for _ in range(steps):  # the actions, drawn once
        ids = np.array([rng.choice(obs.legal_ids(i).tolist()) for i in range(tables)])
        plan.append(ids)
        vector.step(ids)
        obs = vector.observe()

    def run_vector() -> float:
        env = ddz_rlcard.VectorEnv(tables, seed=seed)
        env.reset()
        start = time.process_time()
        for ids in plan:
            env.step(ids)
            env.observe()
        return time.process_time() - start

    def run_separate() -> float:
        envs = [ddz_rlcard.make("doudizhu", config={"seed": seed + i}) for i in range(tables)]
        for env in envs:
            env.reset()
        start = time.process_time()
        for ids in plan:
            for i, env in enumerate(envs):
                env.step(int(ids[i]))
                if env.is_over():
                    env.reset()
        return time.process_time() - start

    samples: dict[str, list[float]] = {"vector_s": [], "separate_s": []}
    for _ in range(repeats):
        gc.disable()
        try:
            samples["vector_s"].append(run_vector())
            samples["separate_s"].append(run_separate())
        finally:
            gc.enable()
    return samples


def count_calls(form: str, tables: int, calls: int, seed: int) -> None:
    """``calls`` calls of one observation form at one lockstep position, for callgrind."""
    from ddz.compat.douzero import Env, VectorEnv, get_obs

    values = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30)
    rng = random.Random(seed)
    vector = VectorEnv(tables, "adp", seed=seed)
    obs = vector.reset()
    for _ in range(5):
        vector.step([rng.randrange(int(count)) for count in obs.legal_count])
        obs = vector.observe()
    envs = [Env("adp") for _ in range(tables)]
    for i, env in enumerate(envs):  # the same positions, replayed
        env.reset(vector.card_play_data(i))
        for move in vector._core.history_counts(i):
            env.step([values[r] for r in range(15) for _ in range(move[r])])
        assert np.array_equal(get_obs(env)["x_batch"], vector.table_observation(i)["x_batch"])
    print(f"{int(obs.legal_count.sum())} rows, {calls} calls of {form}")
    for _ in range(calls):
        if form == "full":
            vector.observe()
        elif form == "no-z":
            vector.observe(z_batch=False)
        elif form == "compact":
            vector.observe_compact()
        elif form == "separate":
            for env in envs:
                get_obs(env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per peer sample")
    parser.add_argument("--ratio", type=int, default=10, help="ddz plays this many times more")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--only",
        nargs="*",
        default=None,
        help="douzero, doudizhu, uno, douzero-batch, douzero-loop, rlcard-loop",
    )
    parser.add_argument("--json", default=None, help="write every sample here")
    parser.add_argument("--tables", type=int, default=64, help="douzero-batch: tables")
    parser.add_argument("--samples", type=int, default=41, help="douzero-batch: points timed")
    parser.add_argument("--steps", type=int, default=300, help="douzero-loop, rlcard-loop")
    parser.add_argument(
        "--count-calls", choices=["full", "no-z", "compact", "separate", "none"], default=None
    )
    parser.add_argument("--calls", type=int, default=200, help="--count-calls: calls made")
    args = parser.parse_args()
    if args.count_calls is not None:
        count_calls(args.count_calls, args.tables, args.calls, args.seed)
        return
    results: dict[str, Any] = {}
    if args.only is None or "douzero-batch" in args.only:
        batch = douzero_batch(args.tables, args.samples, args.seed)
        one = statistics.median(batch["one_call_s"])
        no_z = statistics.median(batch["no_z_batch_s"])
        compact = statistics.median(batch["compact_s"])
        separate = statistics.median(batch["separate_s"])
        print(f"DouZero observations of {args.tables} tables, median of {args.samples} points")
        print(f"(median {statistics.median(batch['rows']):.0f} x_batch rows a point)")
        print(f"{'':46}{'us/call':>12}{'ratio':>9}")
        for label, seconds in (
            (f"{args.tables} x ddz.compat.douzero.get_obs(Env)", separate),
            ("ddz.compat.douzero.VectorEnv.observe()", one),
            ("VectorEnv.observe(z_batch=False)", no_z),
            ("VectorEnv.observe_compact()", compact),
        ):
            print(f"{label:46}{seconds * 1e6:>12,.0f}{separate / seconds:>8.1f}x")
        print()
        results["douzero-batch"] = dict(
            batch,
            ratio=separate / one,
            ratio_no_z_batch=separate / no_z,
            ratio_compact=separate / compact,
        )
    for name, loop, labels in (
        (
            "douzero-loop",
            douzero_loop,
            {
                "separate_s": f"{args.tables} x ddz.compat.douzero.Env.step",
                "full_s": "VectorEnv.step + observe()",
                "compact_s": "VectorEnv.step + observe_compact()",
            },
        ),
        (
            "rlcard-loop",
            rlcard_loop,
            {
                "separate_s": f'{args.tables} x ddz.compat.rlcard.make("doudizhu").step',
                "vector_s": "ddz.compat.rlcard.VectorEnv.step + observe()",
            },
        ),
    ):
        if not args.only or name not in args.only:
            continue
        samples = loop(args.tables, args.steps, args.seed, args.repeats)
        medians = {key: statistics.median(values) for key, values in samples.items()}
        steps = args.steps * args.tables
        print(
            f"{name}: {args.steps} lockstep steps of {args.tables} tables, median of {args.repeats}"
        )
        print(f"{'':46}{'us/table step':>14}{'ratio':>9}")
        for key, label in labels.items():
            ratio = medians["separate_s"] / medians[key]
            print(f"{label:46}{medians[key] / steps * 1e6:>14,.2f}{ratio:>8.1f}x")
        print()
        results[name] = dict(samples, medians=medians)
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
