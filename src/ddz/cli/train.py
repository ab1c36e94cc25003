"""``python -m ddz train``: DouZero's Deep Monte-Carlo training on the DouZero drop-in.

The flags are DouZero's (``--xpid``, ``--savedir``, ``--num-actors``, ``--total-frames``,
``--objective``, ``--load-model``, ...), with dashes; ``--tables-per-actor`` is the number of
games each actor steps in lockstep. PyTorch is needed (``pip install "ddz[learn]"``): it is
imported only when the command runs, so the rest of the command line works without it.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ddz.base.errors import shorten

if TYPE_CHECKING:
    from ddz.learn.flags import TrainFlags

__all__ = ["EXAMPLES", "add_arguments", "run"]

EXAMPLES = """examples:
  python -m ddz train --xpid first --num-actors 2                train, progress every 5 s
  python -m ddz train --xpid first --num-actors 2 --load-model   resume SAVEDIR/first/model.tar
  python -m ddz train --total-frames 3000 --unroll-length 10 --batch-size 4

Checkpoints are DouZero's: SAVEDIR/XPID/model.tar resumes here or in DouZero's trainer,
SAVEDIR/XPID/{position}_weights_{frames}.ckpt load as DouZero's evaluation loads them.
Ctrl-C saves a checkpoint and stops."""


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be 0 to 1, not {value}")
    return value


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not (value > 0.0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"must be a positive number, not {value}")
    return value


def _device(text: str) -> str:
    if text == "cpu" or (text.startswith("cuda:") and text[5:].isdigit()):
        return text
    raise argparse.ArgumentTypeError(f"must be cpu or cuda:N, not {text!r}")


def add_arguments(
    parser: argparse.ArgumentParser, integer: Callable[..., Callable[[str], int]]
) -> None:
    """The ``train`` command's arguments (``integer`` is the command line's integer type)."""
    add = parser.add_argument
    add("--xpid", default="douzero", help="the experiment's name (default douzero)")
    add("--savedir", default="douzero_checkpoints", help="where experiments are saved")
    add("--objective", choices=("adp", "wp", "logadp"), default="adp", help="the reward")
    add("--num-actors", type=integer(1, 1024), default=5, help="actor processes (default 5)")
    add(
        "--tables-per-actor",
        type=integer(1, 4096),
        default=256,
        help="games each actor steps in lockstep, one forward pass a position a step, at "
        "most 4096 (each holds about 0.9 MB: its game and staged decisions; default 256)",
    )
    add(
        "--total-frames",
        type=integer(1),
        default=100_000_000_000,
        help="stop after this many frames (decisions learned from; default 10**11)",
    )
    add("--load-model", action="store_true", help="resume from SAVEDIR/XPID/model.tar")
    add("--disable-checkpoint", action="store_true", help="save nothing")
    add(
        "--save-interval",
        type=_positive,
        default=30.0,
        metavar="MINUTES",
        help="minutes between checkpoints (default 30; one more at the end)",
    )
    add(
        "--device",
        type=_device,
        default="cpu",
        help="the learner's device: cpu or cuda:N (actors run on the CPU; default cpu)",
    )
    add("--batch-size", type=integer(1), default=32, help="learner batch size (default 32)")
    add("--unroll-length", type=integer(1), default=100, help="T, decisions a slot (100)")
    add("--num-buffers", type=integer(1), default=50, help="shared slots a position (50)")
    add("--num-threads", type=integer(1, 64), default=4, help="learner threads a position (4)")
    add("--exp-epsilon", type=_fraction, default=0.01, help="exploration (default 0.01)")
    add("--max-grad-norm", type=_positive, default=40.0, help="gradient clip (default 40)")
    add("--learning-rate", type=_positive, default=0.0001, help="RMSprop lr (default 0.0001)")
    add("--alpha", type=_fraction, default=0.99, help="RMSprop smoothing (default 0.99)")
    add("--momentum", type=_fraction, default=0.0, help="RMSprop momentum (default 0)")
    add("--epsilon", type=_positive, default=1e-5, help="RMSprop epsilon (default 1e-5)")
    add(
        "--log-interval",
        type=_positive,
        default=5.0,
        metavar="SECONDS",
        help="seconds between progress lines (default 5)",
    )
    add(
        "--seed",
        type=integer(0, (1 << 63) - 1 - 1024, bounds="0..2**63-1025"),
        default=None,
        help="deals and exploration from this seed (actor i: seed + i); default: fresh",
    )
    add(
        "--ray",
        metavar="ADDRESS",
        default=None,
        help="run the actors on a Ray cluster: auto, local, or ray://HOST:10001 (needs ray)",
    )


def run(args: argparse.Namespace) -> int:
    """Train as the arguments say; a summary when it ends (frames, time, actors' time)."""
    try:
        from ddz.learn.flags import TrainFlags
        from ddz.learn.train import ActorStopped, train
    except ImportError as error:
        raise ValueError(
            f'training needs PyTorch: pip install "ddz[learn]" ({error.name} is missing)'
        ) from None
    flags = TrainFlags(
        xpid=args.xpid,
        savedir=args.savedir,
        save_interval=args.save_interval,
        objective=args.objective,
        num_actors=args.num_actors,
        tables_per_actor=args.tables_per_actor,
        training_device=args.device,
        load_model=args.load_model,
        disable_checkpoint=args.disable_checkpoint,
        total_frames=args.total_frames,
        exp_epsilon=args.exp_epsilon,
        batch_size=args.batch_size,
        unroll_length=args.unroll_length,
        num_buffers=max(args.num_buffers, args.batch_size),
        num_threads=args.num_threads,
        max_grad_norm=args.max_grad_norm,
        learning_rate=args.learning_rate,
        alpha=args.alpha,
        momentum=args.momentum,
        epsilon=args.epsilon,
        log_interval=args.log_interval,
        seed=args.seed,
        ray=args.ray,
    )
    _refuse_early(flags)
    try:
        result = train(flags)
    except ActorStopped as error:  # the actor's own traceback, if any, is above
        print(f"error: {error}", file=sys.stderr)
        return 1
    rate = result.frames_this_run / result.seconds if result.seconds > 0 else 0.0
    how = "interrupted" if result.interrupted else "done"
    print(f"{how}: {result.frames:,} frames, {result.seconds:.1f} s, {rate:,.0f} frames/s")
    busy = sum(result.phase_seconds.values())
    if busy > 0:
        shares = ", ".join(
            f"{phase} {100 * seconds / busy:.0f}%"
            for phase, seconds in result.phase_seconds.items()
        )
        print(f"actors: {result.decisions:,} decisions, {result.episodes:,} games; time: {shares}")
    if not flags.disable_checkpoint:
        from ddz.learn.train import checkpoint_path

        print(f"saved {checkpoint_path(flags)}")
    return 130 if result.interrupted else 0


def _refuse_early(flags: TrainFlags) -> None:
    """What would end a run with a traceback, said in one line before it trains rather than
    after: checkpoints that cannot be saved (found at the first save, after the training),
    a ``--load-model`` checkpoint that is not one, buffers larger than the machine."""
    from ddz.learn.train import checkpoint_path

    path = checkpoint_path(flags)
    if not flags.disable_checkpoint:
        where = shorten(str(path.parent))
        try:
            path.parent.mkdir(parents=True, exist_ok=True)  # DouZero's trainer makes it first too
        except (OSError, ValueError) as error:  # ValueError: a NUL in the path
            why = getattr(error, "strerror", None) or str(error)
            raise ValueError(f"cannot save checkpoints in {where}: {why}") from None
        if not os.access(path.parent, os.W_OK):
            raise ValueError(f"cannot save checkpoints in {where}: it is not writable")
        if path.exists() and not path.is_file():
            raise ValueError(f"cannot save checkpoints: {shorten(str(path))} is not a file")
    if flags.load_model and path.exists():
        _check_resume(path)
    _check_memory(flags)


def _check_resume(path: Path) -> None:
    """Refuse a ``model.tar`` the trainer could not resume from (read here once more, in
    full: a few tens of megabytes, next to a training run)."""
    import torch

    from ddz.learn.models import POSITIONS, new_models

    where = shorten(str(path))
    if not path.is_file():
        raise ValueError(f"--load-model: {where} is not a file")
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # torch raises several kinds for a file it cannot read
        raise ValueError(
            f"--load-model: {where} is not a checkpoint torch.load reads as weights "
            f"({type(error).__name__})"
        ) from None
    models = new_models("cpu")
    try:
        for position in POSITIONS:
            models[position].load_state_dict(state["model_state_dict"][position])
            if position not in state["optimizer_state_dict"]:
                raise KeyError(f"optimizer_state_dict[{position!r}]")
            int(state["position_frames"][position])
        int(state["frames"])
    except (KeyError, IndexError, TypeError, ValueError, RuntimeError) as error:
        raise ValueError(
            f"--load-model: {where} is not a trainer checkpoint (model.tar: models, "
            f"optimizers and frames of landlord, landlord_up and landlord_down): "
            f"{type(error).__name__} {shorten(str(error), 80)}"
        ) from None


def _check_memory(flags: TrainFlags) -> None:
    """Refuse a run whose experience buffers and local actors' tables need more than this
    machine's memory: torch would fail to allocate the buffers with a RuntimeError, and an
    actor that runs out is killed mid-run."""
    from ddz.learn.actor import actor_bytes
    from ddz.learn.models import HISTORY_WIDTH, POSITIONS, X_WIDTH

    # a decision of every position, as ddz.learn.buffers lays it out: done (bool), return and
    # target (float32), the x row and 5 history rows (int8)
    frame = sum(1 + 4 + 4 + X_WIDTH[p] + 5 * HISTORY_WIDTH for p in POSITIONS)
    slots = flags.num_buffers + flags.num_threads * flags.batch_size  # and each thread's batch
    buffers = slots * flags.unroll_length * frame
    # Ray's actors run where the cluster puts them; local ones here
    actors = 0 if flags.ray is not None else flags.num_actors
    tables = actors * actor_bytes(flags.tables_per_actor, flags.unroll_length)
    try:
        limit = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # no sysconf (Windows): a terabyte
        limit = 1 << 40
    if buffers + tables > limit:
        raise ValueError(
            f"the experience buffers ({buffers / 2**30:,.1f} GB: (num-buffers + num-threads x "
            f"batch-size) x unroll-length decisions) and the actors' tables "
            f"({tables / 2**30:,.1f} GB: num-actors x tables-per-actor, about 0.9 MB a table) "
            f"would take more than this machine's {limit / 2**30:,.1f} GB: ask for fewer"
        )
