"""Simulation spread over Ray tasks: chunks merge to exactly the run one process plays."""

from __future__ import annotations

import itertools
import pickle
import sys

import numpy as np
import pytest

import ddz
from ddz.distributed import merge, simulate_distributed
from ddz.play.distributed import _rule_fields


def test_merge_concatenates_the_slices_of_a_run() -> None:
    whole = ddz.simulate(1000, seed=7)
    bounds = [0, 1, 250, 250, 999, 1000]  # a one-game slice and an empty one included
    parts = [
        ddz.simulate(stop - start, seed=7, first_game=start)
        for start, stop in itertools.pairwise(bounds)
    ]
    merged = merge(parts)
    assert merged == whole
    assert merged.payoffs.dtype == np.int64 and merged.winners.dtype == np.int8
    assert merge([whole]) == whole


def test_merge_keeps_the_players_of_the_rules() -> None:
    rules = ddz.TWO_PLAYER
    parts = [ddz.simulate(300, rules=rules, seed=1, first_game=start) for start in (0, 300)]
    merged = merge(parts)
    assert merged.payoffs.shape == (600, 2)
    assert merged == ddz.simulate(600, rules=rules, seed=1)


def test_merge_refuses_nothing_and_mixed_players() -> None:
    with pytest.raises(ValueError, match="at least one"):
        merge([])
    with pytest.raises(ValueError, match="player counts"):
        merge([ddz.simulate(5), ddz.simulate(5, rules=ddz.TWO_PLAYER)])


@pytest.mark.parametrize("rules", [ddz.CLASSIC, ddz.TWO_PLAYER, ddz.UNO_LANDLORD, ddz.DOUZERO])
def test_rules_travel_to_workers_intact(rules: ddz.Rules) -> None:
    # what a task receives: the constructor fields, rebuilt (and packed again) on the worker
    rebuilt = ddz.Rules(**pickle.loads(pickle.dumps(_rule_fields(rules))))
    assert rebuilt == rules and rebuilt.core_flags == rules.core_flags
    assert pickle.loads(pickle.dumps(rules)).core_flags == rules.core_flags


def test_simulate_distributed_checks_its_arguments() -> None:
    with pytest.raises(ValueError, match="chunk >= 1"):
        simulate_distributed(10, chunk=0)
    with pytest.raises(ValueError, match="threads_per_task >= 1"):
        simulate_distributed(10, threads_per_task=0)
    with pytest.raises(ValueError, match="first_game >= 0"):
        simulate_distributed(10, first_game=-1)


def test_simulate_distributed_names_the_extra_without_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # makes `import ray` fail
    # a command that works however ddz was installed (it is not on the package index yet)
    with pytest.raises(ImportError, match=r"distributed extra: pip install ray$"):
        simulate_distributed(10)


def test_simulate_distributed_equals_one_process() -> None:
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        pytest.skip("Ray is already initialized in this process")
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        assert simulate_distributed(3000, chunk=1000) == ddz.simulate(3000)
        # other rules, another seed, and a last chunk shorter than the others
        rules = ddz.TWO_PLAYER
        assert simulate_distributed(2500, rules=rules, seed=4, chunk=1000) == ddz.simulate(
            2500, rules=rules, seed=4
        )
        # a later slice of a run, as a driver that batches a very long run would ask for it
        assert simulate_distributed(700, seed=2, chunk=300, first_game=900) == ddz.simulate(
            700, seed=2, first_game=900
        )
        assert simulate_distributed(0).payoffs.shape == (0, 3)
    finally:
        ray.shutdown()
