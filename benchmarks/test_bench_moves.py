"""pytest-benchmark suites for ddz's move engine: leads, answers, classify, beats, raw, batch.

Each benchmark round is one pass over a small fixed set of seeded random hands (``HANDS`` of
them; ``extra_info["items"]`` says how many), so the reported time divided by that count is
the time per hand. There are no thresholds: these suites track ddz against its own history
(``--benchmark-autosave``, ``--benchmark-compare``); ``peers.py`` compares it with other
engines. See ``benchmarks/README.md``.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from pytest_benchmark.fixture import BenchmarkFixture

import ddz
from ddz import batch

SEED = 20240601
HANDS = 300

RULES = {"classic": ddz.CLASSIC, "douzero": ddz.DOUZERO}
# Table moves are drawn under the classic rules, so every rule set above can answer them.
TABLE_RULES = ddz.CLASSIC


def _positions(count: int, seed: int) -> tuple[list[ddz.Cards], list[tuple[ddz.Cards, ddz.Move]]]:
    """Lead hands (a third of them the landlord's 20 cards, the rest 17) and answer positions
    (a farmer's 17 cards facing a random lead of the landlord's 20 from the same deal)."""
    rng = random.Random(seed)
    deck = list(str(ddz.CLASSIC.deck))
    leads: list[ddz.Cards] = []
    answers: list[tuple[ddz.Cards, ddz.Move]] = []
    for index in range(count):
        rng.shuffle(deck)
        landlord = ddz.Cards("".join(deck[:20]))
        farmer = ddz.Cards("".join(deck[20:37]))
        leads.append(landlord if index % 3 == 0 else farmer)
        answers.append((farmer, rng.choice(list(ddz.legal_moves(landlord, rules=TABLE_RULES)))))
    return leads, answers


LEADS, ANSWERS = _positions(HANDS, SEED)

# classify: the cards of random legal moves (mostly readable) and random card sets of 2 to 8
# cards (mostly not), half each.
_rng = random.Random(SEED + 1)
CLASSIFY = [_rng.choice(list(ddz.legal_moves(hand))).cards for hand in LEADS[: HANDS // 2]]
CLASSIFY += [
    ddz.Cards("".join(_rng.sample(list(str(hand)), _rng.randint(2, 8))))
    for hand in LEADS[HANDS // 2 :]
]
# beats: pairs of random leads of two hands; most pairs differ in type (False), some compare.
BEATS = [
    (_rng.choice(list(ddz.legal_moves(a))), _rng.choice(list(ddz.legal_moves(b))))
    for a, b in zip(LEADS, LEADS[1:] + LEADS[:1], strict=True)
]

LEAD_MASKS = [hand.mask for hand in LEADS]
ANSWER_MASKS = [hand.mask for hand, _ in ANSWERS]
ANSWER_TABLES = [last.code for _, last in ANSWERS]

rule_sets = pytest.mark.parametrize("rules", list(RULES.values()), ids=list(RULES))


def _per_item(benchmark: BenchmarkFixture, items: int) -> None:
    benchmark.extra_info["items"] = items


@pytest.mark.benchmark(group="leads")
@rule_sets
def test_leads(benchmark: BenchmarkFixture, rules: ddz.Rules) -> None:
    """Leading moves as ``Move`` objects, one hand at a time."""
    legal_moves = ddz.legal_moves

    def run() -> None:
        for hand in LEADS:
            list(legal_moves(hand, rules=rules))

    _per_item(benchmark, len(LEADS))
    benchmark(run)


@pytest.mark.benchmark(group="answers")
@rule_sets
def test_answers(benchmark: BenchmarkFixture, rules: ddz.Rules) -> None:
    """Answers to a move on the table as ``Move`` objects (the pass first)."""
    legal_moves = ddz.legal_moves

    def run() -> None:
        for hand, last in ANSWERS:
            list(legal_moves(hand, last, rules=rules))

    _per_item(benchmark, len(ANSWERS))
    benchmark(run)


@pytest.mark.benchmark(group="classify")
@rule_sets
def test_classify(benchmark: BenchmarkFixture, rules: ddz.Rules) -> None:
    """Every reading of a card set (half of them moves, half mostly not)."""
    classify = ddz.classify

    def run() -> None:
        for cards in CLASSIFY:
            classify(cards, rules=rules)

    _per_item(benchmark, len(CLASSIFY))
    benchmark(run)


@pytest.mark.benchmark(group="beats")
def test_beats(benchmark: BenchmarkFixture) -> None:
    """Does one move beat another (no rules: the comparison is the same under all)."""
    beats = ddz.beats

    def run() -> None:
        for move, other in BEATS:
            beats(move, other)

    _per_item(benchmark, len(BEATS))
    benchmark(run)


@pytest.mark.benchmark(group="raw")
@pytest.mark.parametrize("situation", ["leads", "answers"])
@rule_sets
def test_raw_moves_into(benchmark: BenchmarkFixture, rules: ddz.Rules, situation: str) -> None:
    """Move codes written into one preallocated array, one hand per call."""
    if situation == "leads":
        masks, tables = LEAD_MASKS, [0] * len(LEAD_MASKS)
    else:
        masks, tables = ANSWER_MASKS, ANSWER_TABLES
    # Room for the largest set, so no call comes back asking for more.
    most = max(
        len(ddz.LegalMoves(mask, table, rules)) for mask, table in zip(masks, tables, strict=True)
    )
    out = np.empty(most, dtype=np.uint64)
    moves_into = batch.moves_into

    def run() -> None:
        for mask, table in zip(masks, tables, strict=True):
            moves_into(mask, table, rules, out)

    _per_item(benchmark, len(masks))
    benchmark(run)


@pytest.mark.benchmark(group="batch")
@pytest.mark.parametrize("situation", ["leads", "answers"])
@rule_sets
def test_batch(benchmark: BenchmarkFixture, rules: ddz.Rules, situation: str) -> None:
    """All hands' move codes in one ``legal_moves_batch`` call."""
    if situation == "leads":
        hands, tables = np.array(LEAD_MASKS, np.uint64), None
    else:
        hands, tables = np.array(ANSWER_MASKS, np.uint64), np.array(ANSWER_TABLES, np.uint64)

    _per_item(benchmark, len(hands))
    benchmark(batch.legal_moves_batch, hands, tables, rules=rules)
