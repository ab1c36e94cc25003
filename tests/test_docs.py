"""The docs agree with the code they describe."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_layout_doc_quotes_the_core_diagram() -> None:
    pxd = ROOT / "src" / "ddz" / "_core" / "layout.pxd"
    doc = ROOT / "docs" / "layout.md"
    if not pxd.exists() or not doc.exists():
        pytest.skip("source tree not available")
    lines = pxd.read_text().splitlines()[2:31]
    from_core = "\n".join(line[2:] if line.startswith("# ") else line[1:] for line in lines)
    quoted = re.search(r"```text\n(.*?)\n```", doc.read_text(), re.S)
    assert quoted is not None
    assert quoted.group(1).rstrip() == from_core.rstrip()
