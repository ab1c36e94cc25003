"""Simulation over many machines: one run of ``ddz.simulate`` cut into chunks, played as Ray
tasks, and merged back in order.

Game ``i`` of a run depends only on the run's seed and on ``i`` (``simulate``'s
``first_game``), so chunks played anywhere concatenate to exactly the run one machine would
play. ``merge`` does the concatenating and needs only numpy:

>>> import ddz
>>> from ddz.play.distributed import merge
>>> parts = [ddz.simulate(200, seed=3, first_game=start) for start in (0, 200, 400)]
>>> merge(parts) == ddz.simulate(600, seed=3)
True

``simulate_distributed`` needs Ray (``pip install ".[distributed]"`` in a checkout, or
``pip install ray``); see docs/scaling.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np

from ddz.doudizhu.rules import CLASSIC, Rules
from ddz.play.simulation import SimulationResult, simulate

__all__ = ["merge", "simulate_distributed"]


def merge(results: Sequence[SimulationResult]) -> SimulationResult:
    """Concatenate results game by game, in the order given: the chunks of one run, in
    ``first_game`` order, merge to the whole run. Raises ``ValueError`` for no results or
    results with different numbers of players."""
    if not results:
        raise ValueError("merge needs at least one SimulationResult")
    players = {part.payoffs.shape[1] for part in results}
    if len(players) != 1:
        raise ValueError(f"cannot merge results of different player counts: {sorted(players)}")
    return SimulationResult(
        **{
            field.name: np.concatenate([getattr(part, field.name) for part in results])
            for field in dataclasses.fields(SimulationResult)
        }
    )


def _rule_fields(rules: Rules) -> dict[str, Any]:
    """The constructor arguments of ``rules`` (``core_flags`` is derived, not sent)."""
    return {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules) if f.init}


def _play_chunk(
    fields: dict[str, Any], seed: int, first_game: int, n: int, threads: int
) -> SimulationResult:
    """One Ray task: games ``first_game .. first_game + n - 1`` of the run. The rules are
    rebuilt from their fields on the worker, so ``core_flags`` is packed by the worker's own
    build of ddz."""
    return simulate(n, rules=Rules(**fields), seed=seed, threads=threads, first_game=first_game)


def simulate_distributed(
    n: int,
    *,
    rules: Rules = CLASSIC,
    seed: int = 0,
    chunk: int = 100_000,
    threads_per_task: int = 1,
    address: str | None = None,
    first_game: int = 0,
) -> SimulationResult:
    """Play ``n`` games as Ray tasks of ``chunk`` games each and return the same result as
    ``ddz.simulate(n, rules=rules, seed=seed, first_game=first_game)``, exactly.

    Each task runs ``ddz.simulate(..., first_game=start, threads=threads_per_task)`` and
    reserves ``threads_per_task`` CPUs; results come back in game order whatever order the
    tasks finish in. Every machine of the cluster needs ddz (the same version) installed.

    If Ray is not initialized in this process yet, ``ray.init(address=address)`` is called
    (and the connection is left open for later calls; ``ray.shutdown()`` closes it):

    * ``None``: join the cluster named by ``RAY_ADDRESS`` or one started with ``ray start`` on
      this machine, else start a local cluster (this machine's CPUs);
    * ``"local"``: always start a new local cluster;
    * ``"auto"``: join an existing cluster, failing if there is none;
    * ``"host:port"`` or ``"ray://host:port"``: join that cluster (``ray://`` through Ray
      Client, from outside the cluster).

    If Ray is already initialized, ``address`` is ignored and that cluster is used.
    """
    if n < 0 or chunk < 1 or threads_per_task < 1 or first_game < 0:
        raise ValueError("need n >= 0 games, chunk >= 1, threads_per_task >= 1 and first_game >= 0")
    try:
        # Ray ships its own types; the ignore is for checking ddz where Ray is not installed.
        import ray  # type: ignore[import-not-found, unused-ignore]
    except ImportError as error:
        raise ImportError(
            "simulate_distributed needs Ray, ddz's distributed extra: pip install ray"
        ) from error
    if n == 0:
        return simulate(0, rules=rules, seed=seed, first_game=first_game)
    if not ray.is_initialized():
        ray.init(address=address, ignore_reinit_error=True)
    task = ray.remote(_play_chunk).options(num_cpus=threads_per_task)
    fields = _rule_fields(rules)
    refs = [
        task.remote(fields, seed, first_game + start, min(chunk, n - start), threads_per_task)
        for start in range(0, n, chunk)
    ]
    parts: list[SimulationResult] = ray.get(refs)
    return merge(parts)
