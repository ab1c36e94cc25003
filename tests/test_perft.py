"""Perft: the number of game-tree nodes at depths 1..D from fixed positions, counted by
``ddz.perft``, against tests/data/perft.json (written by tests/make_perft.py, checked there
against an independent walk over the reference move generator). On a mismatch the failure
lists, per legal action of the position, the counts that differ at depth D, as python-chess's
perft runner does."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import ddz
from ddz.perft import divide, perft

DATA = Path(__file__).resolve().parent / "data" / "perft.json"
RULES = {
    "classic": ddz.CLASSIC,
    "call-grab": ddz.CLASSIC.replace(bidding=ddz.Bidding.CALL_GRAB),
    "douzero": ddz.DOUZERO,
    "two-player": ddz.TWO_PLAYER,
    "uno-landlord": ddz.UNO_LANDLORD,
}
ENTRIES: list[dict[str, Any]] = json.loads(DATA.read_text())


def position(entry: dict[str, Any]) -> ddz.Game:
    game = ddz.Game(
        RULES[entry["preset"]],
        deal=(entry["hands"], entry["kitty"]),
        first_player=entry["first_player"],
    )
    for action in entry["actions"]:
        game.step(action)
    return game


def breakdown(game: ddz.Game, entry: dict[str, Any]) -> str:
    depth = len(entry["counts"])
    found, stored = divide(game, depth), entry["divide"]
    lines = [f"per action at depth {depth} (action: stored -> now):"]
    for action in sorted(set(found) | set(stored)):
        if found.get(action) != stored.get(action):
            lines.append(
                f"  {action}: {stored.get(action, 'absent')} -> {found.get(action, 'absent')}"
            )
    return "\n".join(lines)


def test_the_data_covers_every_bidding_system_and_play() -> None:
    assert {entry["preset"] for entry in ENTRIES} == set(RULES)
    phases = {position(entry).phase for entry in ENTRIES}
    assert phases == {"bidding", "play"}
    assert sum(len(entry["counts"]) for entry in ENTRIES) >= 50
    for entry in ENTRIES:
        assert sum(entry["divide"].values()) == entry["counts"][-1]


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry["name"] for entry in ENTRIES])
def test_perft(entry: dict[str, Any]) -> None:
    game = position(entry)
    before = game.state_bytes()
    counts = perft(game, len(entry["counts"]))
    assert game.state_bytes() == before, "the walk undid every action"
    if counts != entry["counts"]:
        depth = next(
            d for d, (a, b) in enumerate(zip(counts, entry["counts"], strict=True), 1) if a != b
        )
        pytest.fail(
            f"{entry['name']}: counts {counts} != stored {entry['counts']} "
            f"(first at depth {depth})\n{breakdown(game, entry)}"
        )
