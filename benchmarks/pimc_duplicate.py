"""PIMCAgent's parameters measured in duplicate matches against RLCard's rule agent.

Each variant is ``NAME`` or ``NAME:key=value,key=value`` (PIMCAgent's parameters; numbers
are read as numbers) and plays its own row on the same deals, with the same agent seeds, as
``python -m ddz arena pimc --against rlcard-rule --rules rlcard`` plays ``pimc``:

    python benchmarks/pimc_duplicate.py pimc pimc-gw1:greedy_weight=1 --deals 100 --seed 5 \
        --no-mixed
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import ddz
from ddz.cli.main import ARENA_AGENTS
from ddz.play.agents import AnyAgent
from ddz.play.duplicate import run_duplicate
from ddz.search_agents import PIMCAgent


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

        def factory(seed: int | None, options: dict[str, Any] = options) -> AnyAgent:
            return PIMCAgent(seed, **options)

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
    print(f"{time.perf_counter() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
