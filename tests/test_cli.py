"""The command line, run as a user runs it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ddz.cli import main


def test_moves_lists_leads_by_type(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "33344456"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("33344456 (8 cards), classic rules: ")
    assert "airplane_singles  333444+56" in out


def test_moves_answers_with_other_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "3SV", "--last", "2", "--rules", "uno-landlord"]) == 0
    out = capsys.readouterr().out
    assert "3 answers to 2" in out
    assert [line.split() for line in out.splitlines()[1:]] == [
        ["pass", "pass"],
        ["skip", "S"],
        ["reverse", "V"],
    ]


def test_classify_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["classify", "33334455"]) == 0
    assert "3333+4455  four_two_pairs, rank 3, length 1" in capsys.readouterr().out
    assert main(["classify", "3456"]) == 1
    assert main(["moves", "33Z"]) == 2
    assert "unknown card 'Z'" in capsys.readouterr().err


def test_python_dash_m_runs_bench() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ddz", "bench", "--positions", "50", "--repeats", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "leads as Move objects" in result.stdout and "hands/s" in result.stdout
