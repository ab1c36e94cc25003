"""PIMCAgent's parameters measured in duplicate matches against RLCard's rule agent.

Each variant is ``NAME`` or ``NAME:key=value,key=value`` (PIMCAgent's parameters; numbers
are read as numbers) and plays its own row on the same deals, with the same agent seeds, as
``python -m ddz arena pimc --against rlcard-rule --rules rlcard`` plays ``pimc``:

    python benchmarks/pimc_duplicate.py pimc pimc-gw1:greedy_weight=1 --deals 100 --seed 5 \
        --no-mixed
    python benchmarks/pimc_duplicate.py pimc-rule:opponent=rlcard-rule --deals 250 --seed 1

Every decision with a choice (more than one legal action) is timed with
``time.perf_counter`` around ``act``: the median, 95th percentile and largest, in ms, a row
each variant, on stderr.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np

import ddz
from ddz.cli.main import ARENA_AGENTS
from ddz.doudizhu.actions import Action
from ddz.doudizhu.observation import Observation
from ddz.play.agents import AnyAgent
from ddz.play.duplicate import run_duplicate
from ddz.search_agents import PIMCAgent

TIMES: dict[str, list[float]] = {}
"""Each variant's decisions with a choice, in seconds."""


class TimedPIMC(PIMCAgent):
    """PIMCAgent noting the time of each decision with a choice in TIMES[name]."""

    def __init__(self, name: str, seed: int | None, **options: Any) -> None:
        super().__init__(seed, **options)
        self.times = TIMES.setdefault(name, [])

    def act(self, observation: Observation) -> Action:
        start = time.perf_counter()
        action = super().act(observation)
        if len(observation.legal_actions) > 1:
            self.times.append(time.perf_counter() - start)
        return action


def number(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def variant(spec: str) -> tuple[str, dict[str, Any]]:
    name, _, options = spec.partition(":")
    pairs = (option.split("=", 1) for option in options.split(",") if option)
    return name, {key: number(value) for key, value in pairs}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="+")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-mixed", action="store_true")
    args = parser.parse_args()
    registry = dict(ARENA_AGENTS)
    names = []
    for spec in args.variants:
        name, options = variant(spec)

        def factory(
            seed: int | None, options: dict[str, Any] = options, name: str = name
        ) -> AnyAgent:
            return TimedPIMC(name, seed, **options)

        registry[name] = factory
        names.append(name)
    start = time.perf_counter()
    result = run_duplicate(
        names,
        "rlcard-rule",
        deals=args.deals,
        seed=args.seed,
        rules=ddz.RLCARD,
        registry=registry,
        mixed=not args.no_mixed,
    )
    print(result)
    for name, times in TIMES.items():
        ms = np.array(times) * 1000
        print(
            f"{name}: {len(ms)} decisions with a choice, ms median {np.median(ms):.1f}, "
            f"p95 {np.percentile(ms, 95):.1f}, max {ms.max():.1f}",
            file=sys.stderr,
        )
    print(f"{time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
