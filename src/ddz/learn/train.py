"""Deep Monte-Carlo training as DouZero arranges it, with lockstep actors.

:func:`train` starts ``num_actors`` actor processes (``torch.multiprocessing``, spawned)
that play into shared-memory buffers (:mod:`ddz.learn.buffers`) through free and full
queues (or, with ``ray``, actors on a Ray cluster: :mod:`ddz.learn.remote`), and
``num_threads`` learner threads a position in this process, each taking a batch of its
position and stepping its model (:mod:`ddz.learn.learner`). Frames are counted as DouZero
counts them: ``T * B`` a learner step, so frames per second are decisions learned from per
second. Checkpoints are DouZero's: ``SAVEDIR/XPID/model.tar`` (models, optimizers,
statistics, flags, frames; resumes in either trainer) and
``SAVEDIR/XPID/{position}_weights_{frames}.ckpt`` (a model's state dict, as DouZero's
evaluation loads it).
"""

from __future__ import annotations

import os
import queue
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import torch
from torch import multiprocessing as mp

from ddz.learn.actor import PHASES, act
from ddz.learn.buffers import create_buffers, get_batch
from ddz.learn.flags import TrainFlags
from ddz.learn.learner import STAT_KEYS, Learner
from ddz.learn.models import POSITIONS, new_models
from ddz.learn.remote import feed

__all__ = [
    "ActorStopped",
    "TrainResult",
    "checkpoint_path",
    "load_checkpoint",
    "save_checkpoint",
    "train",
]


@dataclass
class TrainResult:
    """What a run did: frames (in total, per position; ``start_frames`` of them were the
    resumed checkpoint's), seconds, and the actors' counters."""

    frames: int
    start_frames: int
    position_frames: dict[str, int]
    seconds: float
    stats: dict[str, float]
    decisions: int = 0
    episodes: int = 0
    phase_seconds: dict[str, float] = field(default_factory=dict)
    interrupted: bool = False

    @property
    def frames_this_run(self) -> int:
        """The frames this run learned from (not counting the resumed checkpoint's)."""
        return self.frames - self.start_frames


def checkpoint_path(flags: TrainFlags) -> Path:
    """``SAVEDIR/XPID/model.tar``, DouZero's place for the checkpoint that resumes."""
    return Path(os.path.expandvars(os.path.expanduser(flags.savedir))) / flags.xpid / "model.tar"


def save_checkpoint(
    flags: TrainFlags, learner: Learner, frames: int, position_frames: dict[str, int]
) -> Path:
    """Write ``model.tar`` and the three ``{position}_weights_{frames}.ckpt`` files."""
    path = checkpoint_path(flags)
    path.parent.mkdir(parents=True, exist_ok=True)
    saved = {
        "model_state_dict": {p: learner.models[p].state_dict() for p in POSITIONS},
        "optimizer_state_dict": {p: learner.optimizers[p].state_dict() for p in POSITIONS},
        "stats": dict(learner.stats),
        "flags": flags.as_dict(),
        "frames": frames,
        "position_frames": dict(position_frames),
    }
    # written beside and renamed, so an interrupted save never leaves half a checkpoint
    partial = path.with_name(path.name + ".partial")
    torch.save(saved, partial)
    os.replace(partial, path)
    for p in POSITIONS:
        torch.save(learner.models[p].state_dict(), path.parent / f"{p}_weights_{frames}.ckpt")
    return path


def load_checkpoint(path: Path, learner: Learner) -> tuple[int, dict[str, int]]:
    """Load a ``model.tar`` (ours or DouZero's) into the learner: models, optimizers and
    statistics; returns ``(frames, position_frames)``."""
    # weights_only: a checkpoint is tensors, numbers and strings; nothing else is unpickled
    state = torch.load(path, map_location=learner.device, weights_only=True)
    for p in POSITIONS:
        learner.models[p].load_state_dict(state["model_state_dict"][p])
        learner.optimizers[p].load_state_dict(state["optimizer_state_dict"][p])
    learner.stats.update(state.get("stats", {}))
    position_frames = {p: int(state["position_frames"][p]) for p in POSITIONS}
    return int(state["frames"]), position_frames


def _progress(
    frames: int,
    position_frames: dict[str, int],
    rate: float,
    stats: dict[str, float],
    elapsed: float,
) -> str:
    short = {"landlord": "L", "landlord_up": "U", "landlord_down": "D"}
    per = " ".join(f"{short[p]} {position_frames[p]:,}" for p in POSITIONS)
    loss = " ".join(f"{short[p]} {stats[f'loss_{p}']:.4f}" for p in POSITIONS)
    ret = " ".join(f"{short[p]} {stats[f'mean_episode_return_{p}']:+.3f}" for p in POSITIONS)
    return (
        f"[{elapsed:7.1f}s] frames {frames:,} ({per}) {rate:,.0f} frames/s"
        f" | loss {loss} | return {ret}"
    )


def train(flags: TrainFlags, out: TextIO | None = None) -> TrainResult:
    """Train until ``flags.total_frames`` (or Ctrl-C), printing progress to ``out``
    (standard output by default); saves a checkpoint every ``save_interval`` minutes and
    at the end (unless ``disable_checkpoint``)."""
    out = sys.stdout if out is None else out
    device = torch.device(flags.training_device)
    if device.type == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"device {flags.training_device}: CUDA is not available here")
    t, b = flags.unroll_length, flags.batch_size

    actor_models = new_models("cpu")
    for model in actor_models.values():
        model.share_memory()
        model.eval()
    # Ray actors get the weights with their calls; local ones share these models' memory
    learner = Learner(flags, new_models(device), actor_models if flags.ray is None else None)
    frames, position_frames = 0, dict.fromkeys(POSITIONS, 0)
    path = checkpoint_path(flags)
    if flags.load_model and path.exists():
        frames, position_frames = load_checkpoint(path, learner)
        print(f"resuming {path} at {frames:,} frames", file=out, flush=True)
    start_frames = frames
    for p in POSITIONS:
        actor_models[p].load_state_dict(learner.models[p].state_dict())

    buffers = create_buffers(flags.num_buffers, t)
    counters = torch.zeros((flags.num_actors, 2 + len(PHASES)), dtype=torch.float64)
    counters.share_memory_()  # type: ignore[no-untyped-call]
    if flags.ray is None:
        ctx = mp.get_context("spawn")
        free_queue: dict[str, Any] = {p: ctx.SimpleQueue() for p in POSITIONS}
        full_queue: dict[str, Any] = {p: ctx.SimpleQueue() for p in POSITIONS}
        stop: Any = ctx.Event()
    else:
        # the feeder thread fills the slots: queues and an event between threads
        free_queue = {p: queue.SimpleQueue() for p in POSITIONS}
        full_queue = {p: queue.SimpleQueue() for p in POSITIONS}
        stop = threading.Event()
    for p in POSITIONS:
        for m in range(flags.num_buffers):
            free_queue[p].put(m)
    actors: list[Any] = []
    ray_started = False
    if flags.ray is None:
        actors = [
            ctx.Process(
                target=act,
                args=(i, free_queue, full_queue, actor_models, buffers, flags, counters, stop),
                daemon=True,
            )
            for i in range(flags.num_actors)
        ]
    else:
        ray_started = _start_ray(flags.ray)

        def weights() -> dict[str, dict[str, torch.Tensor]]:
            current = {}
            for p in POSITIONS:
                with learner.locks[p]:
                    state = learner.models[p].state_dict()
                    current[p] = {k: v.detach().to("cpu", copy=True) for k, v in state.items()}
            return current

        actors = [
            threading.Thread(
                target=feed,
                args=(flags, weights, free_queue, full_queue, buffers, counters, stop),
                name="ray-feeder",
                daemon=True,
            )
        ]
    for actor in actors:
        actor.start()

    count_lock = threading.Lock()
    batch_locks = {p: threading.Lock() for p in POSITIONS}

    def batch_and_learn(position: str) -> None:
        nonlocal frames
        while frames < flags.total_frames:
            batch = get_batch(
                free_queue[position], full_queue[position], buffers[position], b,
                batch_locks[position],
            )  # fmt: skip
            if batch is None:
                return
            learner.learn(position, batch)
            with count_lock:
                frames += t * b
                position_frames[position] += t * b

    threads = [
        threading.Thread(target=batch_and_learn, args=(p,), name=f"learn-{p}-{k}", daemon=True)
        for k in range(flags.num_threads)
        for p in POSITIONS
    ]
    for thread in threads:
        thread.start()

    def checkpoint() -> None:
        if flags.disable_checkpoint:
            return
        for p in POSITIONS:  # no model is half-way through a step while it is saved
            learner.locks[p].acquire()
        try:
            with count_lock:
                saved_frames, saved_position_frames = frames, dict(position_frames)
            save_checkpoint(flags, learner, saved_frames, saved_position_frames)
        finally:
            for p in POSITIONS:
                learner.locks[p].release()

    start = time.perf_counter()
    last_save = start
    interrupted = False
    failure = ""
    try:
        last_frames, last_time = frames, start
        while frames < flags.total_frames:
            time.sleep(min(flags.log_interval, 0.05))
            now = time.perf_counter()
            failure = _failed_actor(actors)
            if failure:
                break
            if now - last_save >= flags.save_interval * 60:
                checkpoint()
                last_save = now
            if now - last_time >= flags.log_interval:
                rate = (frames - last_frames) / (now - last_time)
                line = _progress(frames, position_frames, rate, learner.stats, now - start)
                print(line, file=out, flush=True)
                last_frames, last_time = frames, now
    except KeyboardInterrupt:
        interrupted = True
    finally:
        seconds = time.perf_counter() - start
        stop.set()
        _stop(actors, free_queue, full_queue, threads, flags)
        if ray_started:
            import ray  # type: ignore[import-not-found, unused-ignore]

            ray.shutdown()
    checkpoint()
    if failure:
        saved = "" if flags.disable_checkpoint else f"; the run so far is saved in {path}"
        raise ActorStopped(f"{failure}{saved}")
    totals = counters.numpy().sum(axis=0)
    return TrainResult(
        frames=frames,
        start_frames=start_frames,
        position_frames=dict(position_frames),
        seconds=seconds,
        stats={k: learner.stats[k] for k in STAT_KEYS},
        decisions=int(totals[0]),
        episodes=int(totals[1]),
        phase_seconds={phase: float(totals[2 + k]) for k, phase in enumerate(PHASES)},
        interrupted=interrupted,
    )


class ActorStopped(RuntimeError):
    """An actor stopped before the run ended (its own error, if it had one, is on stderr
    above): :func:`train` saves the checkpoint, then raises this."""


def _failed_actor(actors: list[Any]) -> str:
    """What stopped an actor that is no longer running ("" while all run): a local actor
    process's signal or exit code (it stops by itself only when it fails: an error, or
    killed, as by the kernel when memory runs out), or the stop of Ray's feeder thread. An
    actor that ended cleanly (status 0: Ctrl-C reaches the actors too, and they return) is
    a failure only once every actor has."""
    for index, actor in enumerate(actors):
        code = getattr(actor, "exitcode", None)
        if actor.is_alive() or not code:
            continue
        if code > 0:
            return f"actor {index} stopped with exit code {code} (its error is above)"
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"actor {index} was killed by {name}" + (
            " (out of memory?)" if name == "SIGKILL" else ""
        )
    if not any(actor.is_alive() for actor in actors):
        return "every actor has stopped (see the errors above)"
    return ""


def _start_ray(address: str) -> bool:
    """Connect to the Ray cluster at ``address`` unless this process already is; True when
    this call did (and the trainer shuts Ray down at the end)."""
    try:
        import ray  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise ValueError("--ray needs Ray: pip install ray (the distributed extra)") from None
    if ray.is_initialized():
        return False
    ray.init(address=address, include_dashboard=False, log_to_driver=False)
    return True


def _stop(
    actors: list[Any],
    free_queue: dict[str, Any],
    full_queue: dict[str, Any],
    threads: list[threading.Thread],
    flags: TrainFlags,
) -> None:
    """Stop the actors (the stop event is set; None on the free queues wakes those waiting
    for a slot), then the learner threads (None on the full queues)."""
    for p in POSITIONS:
        for _ in actors:
            free_queue[p].put(None)
    deadline = time.monotonic() + 10.0
    for actor in actors:
        actor.join(timeout=max(0.0, deadline - time.monotonic()))
    for actor in actors:
        if actor.is_alive() and hasattr(actor, "terminate"):
            actor.terminate()  # stuck past the deadline: the process goes, its data with it
            actor.join()
    for p in POSITIONS:
        for _ in range(flags.num_threads * flags.batch_size):
            full_queue[p].put(None)
    for thread in threads:
        thread.join(timeout=10.0)
