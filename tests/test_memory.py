"""No memory growth over many calls (the 10-million-call run is benchmarks/memory.py)."""

from __future__ import annotations

import random
import resource
import sys
import tracemalloc

import numpy as np
import pytest

import ddz
from ddz import batch
from ddz._core import moves as core

from .conftest import DECK


def resident_kib() -> int:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * resource.getpagesize() // 1024


def hands(count: int) -> list[int]:
    rng = random.Random(7)
    deck = list(DECK)
    masks = []
    for _ in range(count):
        rng.shuffle(deck)
        masks.append(ddz.Cards("".join(deck[:20])).mask)
    return masks


def exercise(masks: list[int], rounds: int) -> None:
    flags = ddz.CLASSIC.core_flags
    out = np.empty(4096, np.uint64)
    table = ddz.Move.parse("33").code
    for _ in range(rounds):
        for mask in masks:
            core.legal_moves(mask, 0, flags)
            core.moves_into(mask, table, flags, out)
            moves = ddz.legal_moves(ddz.Cards.from_mask(mask), last="44")
            "55" in moves  # noqa: B015 - the membership path is what is exercised
            core.classify_cards(mask, flags)
        batch.legal_moves_batch(np.array(masks, np.uint64))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_no_growth_over_many_calls() -> None:
    masks = hands(500)
    exercise(masks, 4)  # warm up: freelists, caches, numpy
    tracemalloc.start()
    before_rss = resident_kib()
    before, _ = tracemalloc.get_traced_memory()
    exercise(masks, 40)  # 20,000 calls of each kind
    after, _ = tracemalloc.get_traced_memory()
    after_rss = resident_kib()
    tracemalloc.stop()
    assert after - before < 64 * 1024, f"Python heap grew by {after - before} bytes"
    assert after_rss - before_rss < 2048, f"RSS grew by {after_rss - before_rss} KiB"
