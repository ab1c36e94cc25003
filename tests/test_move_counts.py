"""Perft-style: legal-move counts for fixed hands under every preset, stored as data
(tests/data/move_counts.json, written by tests/make_move_counts.py from the reference).
On a mismatch the failure lists the moves, grouped by type."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

import ddz
from ddz._core import moves as core
from ddz.rules import PRESETS

ENTRIES = json.loads((Path(__file__).resolve().parent / "data" / "move_counts.json").read_text())


def table_move(entry: dict[str, object]) -> ddz.Move | None:
    table = entry["table"]
    if table is None:
        return None
    assert isinstance(table, dict)
    code = core.make_move_code(
        ddz.Cards(table["cards"]).mask,
        ddz.MoveType[table["type"]].value,
        table["rank"],
        table["length"],
    )
    return ddz.Move.from_code(code)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_move_counts(preset: str) -> None:
    entries = [e for e in ENTRIES if e["preset"] == preset]
    assert len(entries) == 80
    for entry in entries:
        moves = ddz.legal_moves(entry["hand"], table_move(entry), rules=PRESETS[preset])
        if moves.count() != entry["count"]:
            by_type = Counter(m.type.name for m in moves)
            pytest.fail(
                f"{preset} {entry['hand']} on {entry['table']}: {moves.count()} moves, "
                f"expected {entry['count']}; by type {dict(by_type)}"
            )
