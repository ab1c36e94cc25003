"""The solver benchmark (benchmarks/solver.py) and its shipped position sets
(benchmarks/positions/): every file parses, the stored values of the small positions are
re-solved (and checked against the slow reference minimax), and the benchmark runs."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import ddz
from tests import solver_reference as reference

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "solver.py"
POSITIONS = ROOT / "benchmarks" / "positions"


def _load_benchmark() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ddz_benchmark_solver", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench = _load_benchmark()


def test_random_positions_are_seeded_and_sized() -> None:
    one = bench.random_positions(2, 14, 5, seed=3)
    assert [str(p) for p in one] == [str(p) for p in bench.random_positions(2, 14, 5, seed=3)]
    assert [str(p) for p in one] != [str(p) for p in bench.random_positions(2, 14, 5, seed=4)]
    for position in one:
        assert position.rules == ddz.ENDGAME
        assert [len(hand) for hand in position.hands] == [7, 7]
        assert position.landlord == 0 and position.to_act == 0 and position.table is None
    for position in bench.random_positions(3, 20, 3, seed=0):
        assert position.rules == ddz.CLASSIC
        assert [len(hand) for hand in position.hands] == [8, 6, 6]


def test_read_positions_reports_bad_lines(tmp_path: Path) -> None:
    good = tmp_path / "good.txt"
    good.write_text("# a comment\n\n+1 KK/3 landlord=0  # the source\n-1 3/KK landlord=0\n")
    entries = bench.read_positions(good)
    assert [(value, str(position), comment) for value, position, comment in entries] == [
        (1, "KK/3 landlord=0 turn=0 rules=endgame", "the source"),
        (-1, "3/KK landlord=0 turn=0 rules=endgame", ""),
    ]
    bad_value = tmp_path / "value.txt"
    bad_value.write_text("1 KK/3 landlord=0\n")
    with pytest.raises(ValueError, match=r"value.txt:1: the value must be \+1 or -1"):
        bench.read_positions(bad_value)
    bad_position = tmp_path / "position.txt"
    bad_position.write_text("+1 KK/3 landlord=0\n+1 KK/3\n")
    with pytest.raises(ValueError, match=r"position.txt:2: "):
        bench.read_positions(bad_position)


def test_benchmark_runs_and_prints_a_table() -> None:
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--seats", "2", "3", "--sizes", "6", "--count", "3"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout
    lines = out.splitlines()
    assert lines[0].startswith("| position | n |")
    assert lines[2].startswith("| 2 seats, 6 cards (3 v 3) | 3 |")
    assert lines[3].startswith("| 3 seats, 6 cards (2 v 2 v 2) | 3 |")


def test_benchmark_checks_stored_values(tmp_path: Path) -> None:
    """--from-files fails when a stored value is wrong."""
    (tmp_path / "set.txt").write_text("+1 KK/3 landlord=0\n+1 34/KK landlord=0\n")
    child = subprocess.run(
        [sys.executable, str(SCRIPT), "--from-files", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert child.returncode == 1
    assert "WRONG: 34/KK landlord=0 turn=0 rules=endgame stored +1, solved -1" in child.stdout
    assert reference.value_for_side_to_act(ddz.Position.parse("34/KK landlord=0").game()) == -1
