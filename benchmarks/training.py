#!/usr/bin/env python3
"""DouZero's trainer (``douzero.dmc``, on its own env) against ``python -m ddz train``.

``trainers``  both trainers as their users run them, one subprocess at a time, round-robin
              (``--rounds`` rounds, the order alternated each round): CPU actors
              (``--num-actors``, default 2), the learner on the CPU, DouZero's defaults
              otherwise (4 learner threads a position, the same networks), T and B
              from ``--unroll-length`` and ``--batch-size`` (DouZero's 100 and 32 by
              default; a learner step adds T * B frames, so a smaller B shows the rate
              of a slow run in finer steps), no checkpoints, ``OMP_NUM_THREADS=1`` for
              both. Each run lasts ``--seconds``; the script stamps
              each progress line (both print one every 5 s) as it reads it and takes
              frames/s between the first line with frames and the last line; then the run
              is interrupted (SIGINT to its process group, as Ctrl-C). ddz's run prints
              where its actors' time went (``PHASES`` of ``ddz.learn.actor``). Frames are
              DouZero's: decisions learned from (T * B a learner step).
``actors``    one actor's loop in this process, on the process's CPU time (a busy
              machine's waits do not count): DouZero's (its ``Environment`` wrapper, one
              ``Model.forward`` a decision on that decision's rows, ``_cards2tensor`` of
              the action, as ``douzero.dmc.utils.act`` does) against ``LockstepActor`` with
              ``--tables`` tables (one forward pass a position a step, the records
              included); decisions per CPU second, median of ``--repeats`` samples, and
              the share of each phase.

The script installs nothing. DouZero's trainer needs ``douzero`` 1.1.0 and GitPython
(``pip install --no-deps douzero==1.1.0 gitpython``); ddz needs its ``learn`` extra.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

DOUZERO = """
import sys
from douzero.dmc import parser, train
flags = parser.parse_args(sys.argv[1:])
train(flags)
"""


def _douzero_command(savedir: str, actors: int, t: int, b: int) -> list[str]:
    return [
        sys.executable,
        "-c",
        DOUZERO,
        "--actor_device_cpu",
        "--training_device",
        "cpu",
        "--num_actors",
        str(actors),
        "--savedir",
        savedir,
        "--xpid",
        "bench",
        "--disable_checkpoint",
        "--unroll_length",
        str(t),
        "--batch_size",
        str(b),
    ]


def _ddz_command(savedir: str, actors: int, tables: int, t: int, b: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "ddz",
        "train",
        "--num-actors",
        str(actors),
        "--tables-per-actor",
        str(tables),
        "--savedir",
        savedir,
        "--xpid",
        "bench",
        "--disable-checkpoint",
        "--unroll-length",
        str(t),
        "--batch-size",
        str(b),
    ]


FRAMES = {
    "douzero": re.compile(r"After (\d+) \("),
    "ddz": re.compile(r"\] frames ([\d,]+) \("),
}


def run_trainer(name: str, command: list[str], seconds: float) -> dict[str, Any]:
    """Run one trainer for ``seconds``, interrupt it; frames/s between its progress lines."""
    # one torch thread a process, for both: with torch's default threads the actors and the
    # learner threads oversubscribe the cores (docs/performance.md measured DouZero's trainer
    # that way too)
    env = dict(os.environ, PYTHONUNBUFFERED="1", OMP_NUM_THREADS="1")
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
        env=env,
    )
    points: list[tuple[float, int]] = []
    lines: list[str] = []

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            now = time.monotonic()
            lines.append(line.rstrip())
            match = FRAMES[name].search(line)
            if match:
                points.append((now, int(match.group(1).replace(",", ""))))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    time.sleep(seconds)
    os.killpg(process.pid, signal.SIGINT)
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:  # DouZero's learner threads never end on Ctrl-C
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    reader.join(timeout=5)
    started = [(t, f) for t, f in points if f > 0]
    rate = None
    if len(started) >= 2:
        (t0, f0), (t1, f1) = started[0], started[-1]
        rate = (f1 - f0) / (t1 - t0)
    breakdown = next((line for line in lines if line.startswith("actors: ")), None)
    return {"trainer": name, "frames_per_s": rate, "points": points, "actors": breakdown}


def actors(tables: int, repeats: int, decisions: int) -> dict[str, Any]:
    """Decisions per CPU second of one DouZero actor loop and one lockstep actor."""
    import numpy as np
    import torch

    torch.set_num_threads(1)
    from douzero.dmc.env_utils import Environment
    from douzero.dmc.models import Model
    from douzero.dmc.utils import _cards2tensor
    from douzero.env.env import Env as DouZeroEnv

    from ddz.learn.actor import PHASES, LockstepActor
    from ddz.learn.models import new_models

    class Flags:
        exp_epsilon = 0.01

    np.random.seed(0)
    torch.manual_seed(0)
    model = Model(device="cpu")
    env = Environment(DouZeroEnv("adp"), "cpu")
    position, obs, _ = env.initial()

    def douzero_sample() -> float:
        nonlocal position, obs
        start = time.process_time()
        for _ in range(decisions):
            with torch.no_grad():
                out = model.forward(position, obs["z_batch"], obs["x_batch"], flags=Flags)
            action = obs["legal_actions"][int(out["action"].cpu().detach().numpy())]
            _cards2tensor(action)
            position, obs, _ = env.step(action)
        return decisions / (time.process_time() - start)

    actor = LockstepActor(tables, new_models(), seed=0)
    for _ in range(3):
        actor.step()
    steps = max(1, decisions // tables)

    def ddz_sample() -> float:
        before = actor.decisions
        start = time.process_time()
        for _ in range(steps):
            actor.step()
        return (actor.decisions - before) / (time.process_time() - start)

    theirs, ours = [], []
    actor.timing[:] = 0
    for _ in range(repeats):
        theirs.append(douzero_sample())
        ours.append(ddz_sample())
    total = float(actor.timing.sum())
    shares = {p: float(actor.timing[k]) / total for k, p in enumerate(PHASES)}
    return {
        "douzero_decisions_per_cpu_s": statistics.median(theirs),
        "ddz_decisions_per_cpu_s": statistics.median(ours),
        "ratio": statistics.median(ours) / statistics.median(theirs),
        "ddz_phase_shares": shares,
        "samples": {"douzero": theirs, "ddz": ours},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="+", choices=("trainers", "actors"), default=None)
    parser.add_argument("--rounds", type=int, default=3, help="runs of each trainer (3)")
    parser.add_argument("--seconds", type=float, default=150.0, help="each run's length (150)")
    parser.add_argument("--num-actors", type=int, default=2, help="actor processes (2)")
    parser.add_argument("--unroll-length", dest="t", type=int, default=100, help="T (100)")
    parser.add_argument("--batch-size", dest="b", type=int, default=32, help="B (32)")
    parser.add_argument("--tables", type=int, default=256, help="ddz's tables an actor (256)")
    parser.add_argument("--repeats", type=int, default=5, help="actor samples (5)")
    parser.add_argument("--decisions", type=int, default=640, help="decisions a sample (640)")
    parser.add_argument("--json", metavar="PATH", help="write every sample there")
    args = parser.parse_args()
    only = set(args.only or ("trainers", "actors"))
    report: dict[str, Any] = {}
    if "actors" in only:
        result = actors(args.tables, args.repeats, args.decisions)
        report["actors"] = result
        print(
            f"one actor, decisions per CPU second (median of {args.repeats}): "
            f"DouZero {result['douzero_decisions_per_cpu_s']:,.0f}, "
            f"ddz lockstep x{args.tables} {result['ddz_decisions_per_cpu_s']:,.0f}, "
            f"ratio {result['ratio']:.2f}",
            flush=True,
        )
        shares = ", ".join(f"{p} {100 * s:.1f}%" for p, s in result["ddz_phase_shares"].items())
        print(f"  ddz actor's time: {shares}", flush=True)
    if "trainers" in only:
        runs: dict[str, list[dict[str, Any]]] = {"douzero": [], "ddz": []}
        with tempfile.TemporaryDirectory() as savedir:
            commands = {
                "douzero": _douzero_command(savedir, args.num_actors, args.t, args.b),
                "ddz": _ddz_command(savedir, args.num_actors, args.tables, args.t, args.b),
            }
            for k in range(args.rounds):
                order = ["douzero", "ddz"] if k % 2 == 0 else ["ddz", "douzero"]
                for name in order:
                    run = run_trainer(name, commands[name], args.seconds)
                    runs[name].append(run)
                    rate = run["frames_per_s"]
                    shown = "no frames" if rate is None else f"{rate:,.0f} frames/s"
                    print(f"round {k + 1} {name}: {shown}", flush=True)
                    if run["actors"]:
                        print(f"  {run['actors']}", flush=True)
        medians = {}
        for name, done in runs.items():
            rates = [r["frames_per_s"] for r in done if r["frames_per_s"] is not None]
            medians[name] = statistics.median(rates) if rates else None
        report["trainers"] = {"runs": runs, "medians": medians}
        if medians["douzero"] and medians["ddz"]:
            print(
                f"trainers, {args.num_actors} actors, median frames/s: DouZero "
                f"{medians['douzero']:,.0f}, ddz {medians['ddz']:,.0f}, ratio "
                f"{medians['ddz'] / medians['douzero']:.2f}"
            )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump(report, file, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
