"""Ten million calls, resident memory sampled along the way: the core must not grow.

    python benchmarks/memory.py [--calls 10000000]

Each call generates the legal moves of one of 1,000 random 17- or 20-card hands, cycling
through leads and answers and through the object path (``ddz.legal_moves``), the raw path
(``moves_into``) and ``classify``. Prints resident memory (RSS) every tenth of the run and
exits non-zero if it grew by more than 1 MiB after the first tenth.
"""

from __future__ import annotations

import argparse
import random
import resource
import sys

import numpy as np

import ddz
from ddz._core import moves as core

DECK = "3333444455556666777788889999TTTTJJJJQQQQKKKKAAAA2222XD"


def resident_kib() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() // 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=10_000_000)
    args = parser.parse_args()
    rng = random.Random(3)
    deck = list(DECK)
    masks = []
    for i in range(1000):
        rng.shuffle(deck)
        masks.append(ddz.Cards("".join(deck[: 20 if i % 3 == 0 else 17])).mask)
    flags = ddz.CLASSIC.core_flags
    table = ddz.Move.parse("55").code
    out = np.empty(4096, np.uint64)
    step = max(args.calls // 10, 1)
    samples = []
    for call in range(args.calls):
        mask = masks[call % 1000]
        kind = call % 4
        if kind == 0:
            core.moves_into(mask, table if call & 4 else 0, flags, out)
        elif kind == 1:
            core.legal_moves(mask, table if call & 4 else 0, flags)
        elif kind == 2:
            "66" in ddz.legal_moves(ddz.Cards.from_mask(mask), last="55")  # noqa: B015
        else:
            core.classify_cards(mask, flags)
        if (call + 1) % step == 0:
            samples.append(resident_kib())
            print(f"{call + 1:>12,} calls  RSS {samples[-1]:,} KiB", flush=True)
    growth = samples[-1] - samples[0]
    print(f"growth after the first tenth: {growth} KiB")
    return 0 if growth <= 1024 else 1


if __name__ == "__main__":
    sys.exit(main())
