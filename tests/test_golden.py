"""DouZero 1.1.0 and RLCard 1.2.0, move for move: the DOUZERO and RLCARD presets offer exactly
the distinct moves those engines offer for 1,200 leading hands and 900 answers
(tests/data/golden-*.jsonl.gz, golden files made by running the engines)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

import ddz

DATA = Path(__file__).resolve().parent / "data"
ENGINES = {"douzero": ddz.DOUZERO, "rlcard": ddz.RLCARD}


def golden_lines(name: str) -> list[dict[str, object]]:
    with gzip.open(DATA / f"golden-{name}.jsonl.gz", "rt") as lines:
        return [json.loads(line) for line in lines]


def table_reading(cards: str, rules: ddz.Rules) -> ddz.Move:
    """How the engine reads the move on the table: the reading a multiset keeps when only one
    may stand (bombs and plain chains first; DouZero's get_move_type)."""
    readings = ddz.classify(cards, rules=rules.replace(multiple_readings=False))
    assert readings, f"{cards} is no move under the preset"
    return readings[0]


@pytest.mark.parametrize("engine", sorted(ENGINES))
@pytest.mark.parametrize("name", ["random", "rich"])
def test_golden_move_sets(name: str, engine: str) -> None:
    rules = ENGINES[engine]
    lines = golden_lines(name)
    assert len(lines) == {"random": 1500, "rich": 600}[name]
    mismatches = []
    for number, line in enumerate(lines, 1):
        last = None if line["last"] is None else table_reading(str(line["last"]), rules)
        offered = {
            str(move.cards)
            for move in ddz.legal_moves(str(line["hand"]), last, rules=rules)
            if not move.is_pass
        }
        expected = set(line[engine])  # type: ignore[call-overload]
        if offered != expected:
            mismatches.append(
                f"line {number}: {line['hand']} on {line['last']}: "
                f"only ddz {sorted(offered - expected)}, only {engine} {sorted(expected - offered)}"
            )
    assert not mismatches, "\n".join(mismatches[:10])
