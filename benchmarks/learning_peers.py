#!/usr/bin/env python3
"""The paths learning code takes through ddz against RLCard and OpenSpiel, in one process.

The speed targets of the learning paths, each a ratio of medians measured here, in one run:

``game``    ``ddz.Game``: the core observation with history (``observation_vector``) of the
            player to act, ``legal_indices()`` and ``step(index)``, whole random games, against
            RLCard's ``rlcard.make("doudizhu")`` env stepped with random legal actions
            (target >= 20x).
``aec``     the PettingZoo AEC env ``ddz.envs.pettingzoo.env("classic")`` stepped as its docs
            show (``agent_iter``, ``last()``, a random action among the mask's nonzero
            entries, ``step``), against the same RLCard env (target >= 8x; >= 6x with the
            user's draw ``np.random.choice(np.flatnonzero(obs["action_mask"]))``, also
            timed over ``raw_env`` and over ``ddz.Game`` with no env). The same loop over
            a *trivial* AEC env (ddz's env class over no game: it hands out preallocated
            arrays of the same shapes and ends after a fixed number of turns) is the ceiling
            the AEC API and the env's own bookkeeping set.
``vector``  ``ddz.VectorGame(256)``: ``legal_indices()``, a random index a game drawn with
            numpy, ``step``, against OpenSpiel's play phase (``state.legal_actions()`` +
            ``apply_action``, from states cloned after the auction, as ``peers.py`` times it),
            per step (target >= 8x). Also ``sample_legal`` + ``step`` and the batched
            Gymnasium env ``DouDizhuVectorEnv(256)`` (observations included).
``mask``    ``VectorGame(256).legal_action_mask`` dense rows a second over states of random
            play (target >= 450,000 rows/s: 3x the 150,000 a second the dense mask ran at before the
            core's masks, a figure recorded, not measured here), and its
            variants (``copy=False``, ``out=``, the packed mask).

A step is one decision: RLCard's games have no auction, ddz's ``Game`` and AEC games count
their bids too (the dead agents' ``None`` steps at the end of an AEC game are not counted,
but are timed). Samples run round-robin (the order rotated each repeat) with the garbage
collector paused, each over its own seeded games; the median of ``--repeats`` samples is
reported, with the spread ((max - min) / median). Setup (making envs, OpenSpiel's auctions)
is outside the clock; resets and new deals are inside it. The clock is the process's CPU
time (``time.process_time``) unless ``--clock wall``: on a machine shared with other work,
time spent waiting for a core is not the path's cost (every path runs on one thread).

The script installs nothing: a peer that does not import is skipped with a message, and its
ratios are not printed. Run it with a Python that has ddz (with the ``rl`` extra) and the
peers: ``pip install rlcard==1.2.0 open_spiel==2.0.2``.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import importlib.metadata
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import ddz
import ddz.envs

Sample = tuple[int, float]  # units (steps or rows), seconds

EARLIER_MASK_ROWS = 150_000.0  # VectorGame(256) dense mask rows/s before the core's masks

# The clock every sample reads: the process's CPU time by default (--clock cpu), so that time
# this process spends waiting for a core that other processes hold is not counted (every
# path here is single-threaded); the wall clock with --clock wall.
clock: Callable[[], float] = time.process_time


@dataclass
class Path:
    """One timed path: ``run(seed, scale)`` plays its own work and times it."""

    section: str
    name: str
    run: Callable[[int, float], Sample]
    role: str = "ddz"  # "peer" (the section's baseline), "ddz", "ceiling"
    target: float | None = None  # the ratio to the section's peer to reach
    samples: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.samples)


def try_import(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError as error:
        print(f"skipping {name}: {error}", file=sys.stderr)
        return None


# ---------------------------------------------------------------------------------------------
# RLCard: the baseline of the game and aec sections


def rlcard_path(rlcard: Any, games: int) -> Path:
    def run(seed: int, scale: float) -> Sample:
        env = rlcard.make("doudizhu", config={"seed": seed})
        rng = random.Random(seed)
        steps = 0
        start = clock()
        for _ in range(max(1, round(games * scale))):
            state, _ = env.reset()
            while not env.is_over():
                legal = list(state["legal_actions"])
                state, _ = env.step(legal[rng.randrange(len(legal))])
                steps += 1
        return steps, clock() - start

    return Path("game", 'RLCard rlcard.make("doudizhu")', run, "peer")


# ---------------------------------------------------------------------------------------------
# ddz.Game with core observations


def game_path(games: int, history: int, *, buffer: bool) -> Path:
    def run(seed: int, scale: float) -> Sample:
        rng = random.Random(seed)
        out = np.empty(ddz.observation_size(history), dtype=np.int8) if buffer else None
        steps = 0
        start = clock()
        for index in range(max(1, round(games * scale))):
            game = ddz.Game(seed=seed + index)
            while not game.is_over:
                game.observation_vector(game.current_player, history=history, out=out)
                legal = game.legal_indices()
                game.step(int(legal[rng.randrange(len(legal))]))
                steps += 1
        return steps, clock() - start

    how = "out= buffer" if buffer else "new array"
    name = f"ddz Game: observation_vector(history={history}, {how}) + legal_indices + step"
    return Path("game", name, run, target=20.0 if not buffer and history else None)


# ---------------------------------------------------------------------------------------------
# PettingZoo AEC


# Three ways to draw a random legal action from an AEC observation's int8 mask. The choice is
# the learner's, not the environment's, yet it costs more than a step: numpy's nonzero runs
# about ten times as fast over a bool array as over an int8 one.


def choose_bool_view(env: Any, agent: str, mask: np.ndarray[Any, Any], rng: random.Random) -> int:
    legal = np.flatnonzero(mask.view(np.bool_))  # the mask's 0/1 bytes read as bools
    return int(legal[rng.randrange(len(legal))])


def choose_int8(env: Any, agent: str, mask: np.ndarray[Any, Any], rng: random.Random) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.randrange(len(legal))])


def choose_sample(env: Any, agent: str, mask: np.ndarray[Any, Any], rng: random.Random) -> int:
    return int(env.action_space(agent).sample(mask))  # PettingZoo's documented loop


def choose_user(env: Any, agent: str, mask: np.ndarray[Any, Any], rng: random.Random) -> int:
    # the user's loop, word for word: numpy's global generator (seeded by aec_loop)
    return np.random.choice(np.flatnonzero(mask))  # type: ignore[no-any-return]


CHOOSERS = {
    "np.random.choice(np.flatnonzero(mask))": choose_user,
    "flatnonzero(mask.view(bool))": choose_bool_view,
    "flatnonzero(mask)": choose_int8,
    "action_space(agent).sample(mask)": choose_sample,
}


def aec_loop(
    make: Callable[[], Any], games: int, choose: Callable[..., int]
) -> Callable[..., Sample]:
    def run(seed: int, scale: float) -> Sample:
        env = make()
        rng = random.Random(seed)
        np.random.seed(seed % (1 << 32))  # for the user's np.random.choice
        for number, agent in enumerate(env.possible_agents):
            env.action_space(agent).seed(seed + number)
        steps = 0
        start = clock()
        for index in range(max(1, round(games * scale))):
            env.reset(seed=seed + index)
            for agent in env.agent_iter():
                observation, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                else:
                    env.step(choose(env, agent, observation["action_mask"], rng))
                    steps += 1
        return steps, clock() - start

    return run


def trivial_aec(turns: int, wrapper: type) -> Callable[[], Any]:
    """ddz's own AEC env class (``ddz.envs.pettingzoo.raw_env``: its reset, observe, step and
    bookkeeping) over a game that is none: three agents take ``turns`` turns in order, every
    observation is the same preallocated pair of arrays (a mask with 30 legal actions, an
    ``ActionMask`` as ddz's env hands out), and
    the game ends with rewards 0. Stepped like ddz's env, its rate is what the AEC API and
    the env's own Python cost by themselves."""
    from ddz.envs import pettingzoo as ddz_pettingzoo

    classic = ddz.envs.make_adapter("classic")
    observation = np.zeros(len(classic.observation_low), dtype=np.int8)
    mask = np.zeros(classic.num_actions, dtype=np.int8).view(ddz.envs.ActionMask)  # as ddz's
    mask[np.random.default_rng(0).choice(classic.num_actions, 30, replace=False)] = 1

    class NoGame:  # the part of ddz.envs.Adapter that raw_env reads, with no game behind it
        forfeit = None

        def __init__(self) -> None:
            self.turn = 0
            self.to_act: int | None = 0

        @property
        def is_over(self) -> bool:
            return self.to_act is None

        def reset(self, seed: int | None = None) -> None:
            self.turn, self.to_act = 0, 0

        def observation(self, seat: int) -> np.ndarray[Any, Any]:
            return observation

        def action_mask(self, seat: int) -> np.ndarray[Any, Any]:
            return mask

        def step(self, action: Any) -> None:
            self.turn += 1
            self.to_act = None if self.turn >= turns else self.turn % 3

        def rewards(self) -> list[float]:
            return [0.0, 0.0, 0.0]

    def make() -> Any:
        env = ddz_pettingzoo.raw_env("classic")  # its spaces are the classic game's
        env.adapter = NoGame()
        return wrapper(env)

    return make


def core_user(seed: int, scale: float) -> Sample:
    """The user's draw without an environment: ``ddz.Game`` with the core observation, the
    action drawn by ``np.random.choice`` from ``legal_indices()``: the core's part of a step
    of the AEC loop, plus numpy's draw (the AEC section's games, 60 a sample)."""
    np.random.seed(seed % (1 << 32))
    steps = 0
    start = clock()
    for index in range(max(1, round(60 * scale))):
        game = ddz.Game(seed=seed + index)
        while not game.is_over:
            game.observation_vector(game.current_player)
            game.step(int(np.random.choice(game.legal_indices())))
            steps += 1
    return steps, clock() - start


def aec_paths(games: int) -> list[Path]:
    pettingzoo = try_import("pettingzoo")
    if pettingzoo is None:
        return []
    import pettingzoo.utils.wrappers  # the trivial env is wrapped as ddz's is

    from ddz.envs import pettingzoo as ddz_pettingzoo

    # the ceiling under PettingZoo's own wrapper, and under the one ddz's env() uses (the
    # same checks, the attributes a step reads as properties: see ddz.envs.pettingzoo)
    stock = trivial_aec(60, pettingzoo.utils.wrappers.OrderEnforcingWrapper)
    trivial = trivial_aec(60, type(ddz_pettingzoo.env("classic")))
    make = lambda: ddz_pettingzoo.env("classic")  # noqa: E731
    paths = []
    for how, choose in CHOOSERS.items():
        paths.append(
            Path(
                "aec",
                f"ddz PettingZoo env('classic'), {how}",
                aec_loop(make, games, choose),
                target={choose_bool_view: 8.0, choose_user: 6.0}.get(choose),
            )
        )
    paths.append(
        Path(
            "aec",
            "ddz PettingZoo raw_env('classic'), flatnonzero(mask.view(bool))",
            aec_loop(lambda: ddz_pettingzoo.raw_env("classic"), games, choose_bool_view),
        )
    )
    paths.append(
        Path(
            "aec",
            "ddz PettingZoo raw_env('classic'), np.random.choice(np.flatnonzero(mask))",
            aec_loop(lambda: ddz_pettingzoo.raw_env("classic"), games, choose_user),
        )
    )
    paths.append(Path("aec", "ddz Game, np.random.choice(legal_indices()) (no env)", core_user))
    for how, choose in CHOOSERS.items():
        paths.append(
            Path(
                "aec",
                f"trivial AEC env, ddz's wrapper (ceiling), {how}",
                aec_loop(trivial, games, choose),
                "ceiling",
            )
        )
    paths.append(
        Path(
            "aec",
            "trivial AEC env, PettingZoo's wrapper, flatnonzero(mask.view(bool))",
            aec_loop(stock, games, choose_bool_view),
            "ceiling",
        )
    )
    return paths


# ---------------------------------------------------------------------------------------------
# OpenSpiel's play phase: the baseline of the vector section


def openspiel_path(pyspiel: Any, starts_count: int, games: int) -> Path:
    game = pyspiel.load_game("dou_dizhu")
    probe = game.new_initial_state()
    auction = {
        action
        for action in range(game.num_distinct_actions())
        if probe.action_to_string(0, action) in ("Pass", "Bid 1", "Bid 2", "Bid 3")
    }
    rng = random.Random(7)
    starts = []
    while len(starts) < starts_count:  # states where the auction is over and play begins
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            legal = state.legal_actions()
            if not set(legal) <= auction:
                starts.append(state)
                break
            state.apply_action(rng.choice(legal))

    def run(seed: int, scale: float) -> Sample:
        choose = random.Random(seed).choice
        steps = 0
        start = clock()
        for index in range(max(1, round(games * scale))):
            state = starts[index % len(starts)].clone()
            while not state.is_terminal():
                state.apply_action(choose(state.legal_actions()))
                steps += 1
        return steps, clock() - start

    return Path("vector", "OpenSpiel play phase: legal_actions + apply_action", run, "peer")


# ---------------------------------------------------------------------------------------------
# VectorGame and the Gymnasium vector env


def random_pick(
    indices: np.ndarray[Any, Any], offsets: np.ndarray[Any, Any], rng: np.random.Generator
) -> np.ndarray[Any, Any]:
    """One random legal index a game from ``legal_indices()``'s runs."""
    counts = offsets[1:] - offsets[:-1]
    return indices[offsets[:-1] + (rng.random(len(counts)) * counts).astype(np.int64)]


def vector_paths(n: int, rounds: int) -> list[Path]:
    def indices_step(seed: int, scale: float) -> Sample:
        games = ddz.VectorGame(n, seed=seed)
        rng = np.random.default_rng(seed)
        count = max(1, round(rounds * scale))
        start = clock()
        for _ in range(count):
            indices, offsets = games.legal_indices()
            games.step(random_pick(indices, offsets, rng))
        return n * count, clock() - start

    def sample_step(seed: int, scale: float) -> Sample:
        games = ddz.VectorGame(n, seed=seed)
        count = max(1, round(rounds * scale))
        start = clock()
        for _ in range(count):
            games.step(games.sample_legal())
        return n * count, clock() - start

    def observations_step(seed: int, scale: float) -> Sample:
        games = ddz.VectorGame(n, seed=seed)
        rng = np.random.default_rng(seed)
        out = np.empty((n, ddz.observation_size()), dtype=np.int8)
        count = max(1, round(rounds * scale))
        start = clock()
        for _ in range(count):
            games.observations(out=out)
            indices, offsets = games.legal_indices()
            games.step(random_pick(indices, offsets, rng))
        return n * count, clock() - start

    paths = [
        Path("vector", f"VectorGame({n}): legal_indices + step", indices_step, target=8.0),
        Path("vector", f"VectorGame({n}): sample_legal + step", sample_step),
        Path(
            "vector",
            f"VectorGame({n}): observations(out=) + legal_indices + step",
            observations_step,
        ),
    ]
    if try_import("gymnasium") is None:
        return paths
    from ddz.envs.vector import DouDizhuVectorEnv

    def gym_indices(seed: int, scale: float) -> Sample:
        envs = DouDizhuVectorEnv(n, seed=seed, mask="indices")
        rng = np.random.default_rng(seed)
        count = max(1, round(rounds * scale))
        start = clock()
        _, info = envs.reset(seed=seed)
        for _ in range(count):
            actions = random_pick(info["legal_indices"], info["legal_offsets"], rng)
            _, _, _, _, info = envs.step(actions)
        return n * count, clock() - start

    def gym_dense(seed: int, scale: float) -> Sample:
        envs = DouDizhuVectorEnv(n, seed=seed)
        count = max(1, round(rounds * scale))
        start = clock()
        envs.reset(seed=seed)
        for _ in range(count):
            envs.step(envs.games.sample_legal())
        return n * count, clock() - start

    return [
        *paths,
        Path("vector", f"DouDizhuVectorEnv({n}, mask='indices'): step", gym_indices),
        Path("vector", f"DouDizhuVectorEnv({n}): sample_legal + step (dense mask)", gym_dense),
    ]


def mask_paths(n: int, calls: int) -> list[Path]:
    """Mask calls timed one by one over the states of random play; the steps between them
    are not timed."""

    def timed(name: str, call: Callable[[ddz.VectorGame], object], target: float | None) -> Path:
        def run(seed: int, scale: float) -> Sample:
            games = ddz.VectorGame(n, seed=seed)
            call(games)  # the first call makes what a variant keeps (its own mask)
            count = max(1, round(calls * scale))
            elapsed = 0.0
            for _ in range(count):
                games.step(games.sample_legal())
                start = clock()
                call(games)
                elapsed += clock() - start
            return n * count, elapsed

        return Path("mask", name, run, target=target)

    out = np.empty((n, ddz.ActionSpace(ddz.CLASSIC).size), dtype=np.bool_)
    packed = np.empty((n, (out.shape[1] + 7) // 8), dtype=np.uint8)
    return [
        timed(f"VectorGame({n}).legal_action_mask()", lambda g: g.legal_action_mask(), 3.0),
        timed(
            f"VectorGame({n}).legal_action_mask(out=)",
            lambda g: g.legal_action_mask(out=out),
            None,
        ),
        timed(
            f"VectorGame({n}).legal_action_mask(copy=False)",
            lambda g: g.legal_action_mask(copy=False),
            None,
        ),
        timed(
            f"VectorGame({n}).packed_action_mask(out=)",
            lambda g: g.packed_action_mask(out=packed),
            None,
        ),
    ]


# ---------------------------------------------------------------------------------------------
# Timing and report


def sample(path: Path, seed: int, scale: float) -> float:
    gc.collect()
    gc.disable()
    try:
        units, seconds = path.run(seed, scale)
    finally:
        gc.enable()
    return units / seconds


def measure(paths: list[Path], repeats: int, seed: int, scale: float) -> None:
    for path in paths:  # warm up: imports, tables, first allocations
        sample(path, seed, 0.1 * scale)
    for repeat in range(repeats):
        shift = repeat % len(paths)
        for path in paths[shift:] + paths[:shift]:
            path.samples.append(sample(path, seed + 1000 * (repeat + 1), scale))


SECTIONS = {
    "game": "ddz.Game with core observations (steps/s; baseline: RLCard's env)",
    "aec": "PettingZoo AEC, random masked actions (steps/s; baseline: RLCard's env)",
    "vector": "VectorGame(256) (steps/s; baseline: OpenSpiel's play phase, per step)",
    "mask": "dense masks (rows/s; target: 3x the 150,000 rows/s recorded before the core masks)",
}


def report(paths: list[Path]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    peers = {path.section: path.median for path in paths if path.role == "peer"}
    peers["aec"] = peers.get("game", float("nan"))
    peers["mask"] = EARLIER_MASK_ROWS  # a recorded figure, not measured here
    for section, title in SECTIONS.items():
        members = [path for path in paths if path.section == section]
        if not members:
            continue
        baseline = peers.get(section, float("nan"))
        print(f"\n{title}")
        header = f"{'path':<72} {'per s':>12} {'ratio':>8} {'target':>7} {'met':>4} {'spread':>7}"
        print(header)
        print("-" * len(header))
        if section == "aec" and "game" in peers:
            print(f"{'(baseline: RLCard, as above)':<72} {baseline:>12,.0f} {1.0:>7.2f}x")
        for path in members:
            ratio = path.median / baseline
            met = None if path.target is None or ratio != ratio else ratio >= path.target
            spread = (max(path.samples) - min(path.samples)) / path.median
            target = "" if path.target is None else f">={path.target:g}x"
            flag = "" if met is None else ("yes" if met else "NO")
            print(
                f"{path.name:<72} {path.median:>12,.0f} {ratio:>7.2f}x {target:>7} {flag:>4} "
                f"{spread:>6.0%}"
            )
            rows.append(
                {
                    "section": section,
                    "path": path.name,
                    "role": path.role,
                    "median_per_s": path.median,
                    "ratio": ratio,
                    "target": path.target,
                    "met": met,
                    "spread": spread,
                    "samples": path.samples,
                }
            )
    return rows


def versions() -> dict[str, str]:
    found = {"python": platform.python_version()}
    for distribution in ("ddz", "rlcard", "open_spiel", "pettingzoo", "gymnasium", "numpy"):
        with contextlib.suppress(importlib.metadata.PackageNotFoundError):
            found[distribution] = importlib.metadata.version(distribution)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=7, help="samples per path (median)")
    parser.add_argument("--scale", type=float, default=1.0, help="work per sample, x default")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--clock",
        choices=("cpu", "wall"),
        default="cpu",
        help="time.process_time (default) or time.perf_counter",
    )
    parser.add_argument("--only", nargs="+", choices=sorted(SECTIONS), default=None)
    parser.add_argument("--json", metavar="PATH", help="also write every sample here")
    args = parser.parse_args(argv)
    if args.repeats < 1 or not args.scale > 0:
        parser.error("need --repeats >= 1 and --scale > 0")
    sections = set(args.only or SECTIONS)
    global clock
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    paths: list[Path] = []
    rlcard = try_import("rlcard") if sections & {"game", "aec"} else None
    if rlcard is not None:
        paths.append(rlcard_path(rlcard, games=10))
    if "game" in sections:
        paths += [
            game_path(300, ddz.HISTORY, buffer=False),
            game_path(300, ddz.HISTORY, buffer=True),
        ]
    if "aec" in sections:
        paths += aec_paths(games=60)
    if "vector" in sections:
        pyspiel = try_import("pyspiel")
        if pyspiel is not None:
            paths.append(openspiel_path(pyspiel, starts_count=500, games=2000))
        paths += vector_paths(256, rounds=3000)
    if "mask" in sections:
        paths += mask_paths(256, calls=300)
    load_before = os.getloadavg()
    print(
        f"median of {args.repeats} samples a path, round-robin, garbage collector paused, "
        f"{args.clock} time; "
        f"load average {load_before[0]:.2f} (1 min) on {os.cpu_count()} CPUs"
    )
    print("versions: " + ", ".join(f"{k} {v}" for k, v in versions().items()))
    measure(paths, args.repeats, args.seed, args.scale)
    rows = report(paths)
    load_after = os.getloadavg()
    print(f"\nload average after: {load_after[0]:.2f} (1 min)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump(
                {
                    "rows": rows,
                    "versions": versions(),
                    "args": vars(args),
                    "load_average": [load_before, load_after],
                    "machine": platform.platform(),
                    "cpus": os.cpu_count(),
                },
                file,
                indent=2,
            )
            file.write("\n")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
