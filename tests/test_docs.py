"""The docs agree with the code they describe."""

from __future__ import annotations

import re
import subprocess
import sys
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


# --- what a newcomer reads first: the README's opening commands ------------------------------

# Every module a test skips without, and how the README says to install it (the test extra's
# own packages are installed by the README's first command).
INSTALLS = {
    "gymnasium": '".[test]"',
    "pettingzoo": '".[test]"',
    "scikit_build_core": '".[test]"',
    "douzero": "douzero==1.1.0",
    "rlcard": "rlcard==1.2.0",
    "ray": '".[distributed]"',
    "selenium": "selenium",
    "chromium": "chromium chromium-driver",
    "torch": "torch",
    "git": "GitPython",
}


def _opening() -> str:
    """The README up to its first section: the two commands and what is said beside them."""
    return (ROOT / "README.md").read_text(encoding="utf-8").split("\n## ", 1)[0]


def test_the_readme_opens_with_the_two_commands_ci_runs() -> None:
    commands = re.search(r"```sh\n(.*?)```", _opening(), re.S)
    assert commands is not None
    assert commands.group(1) == (
        'pip install ".[test]" && python -m ddz simulate --games 600 --agents random,greedy '
        "--seed 1\npytest -n auto\n"
    )


def test_the_readme_says_how_long_the_build_and_the_tests_take() -> None:
    text = " ".join(_opening().split())
    assert "for about two minutes on two cores" in text  # the build
    assert "The whole suite takes about 5 minutes on two cores (258 s in the last CI run" in text


def test_the_readme_says_why_tests_skip_and_how_to_run_them_all() -> None:
    text = " ".join(_opening().split())
    assert "tests skip, and the run ends with the reason of each" in text
    skipped_without = set()
    for path in (ROOT / "tests").glob("*.py"):
        for name in re.findall(r'importorskip\(\s*"([\w.]+)"', path.read_text(encoding="utf-8")):
            skipped_without.add(name.split(".")[0])
    assert {"douzero", "rlcard", "ray", "selenium"} <= skipped_without
    skipped_without |= {"chromium", "torch", "git"}  # the browser; DouZero's trainer
    unknown = skipped_without - INSTALLS.keys()
    assert not unknown, f"say in the README how to install {unknown}, and add it here"
    for module in sorted(skipped_without):
        assert INSTALLS[module] in text, module


def test_pytest_says_why_each_test_skipped(tmp_path: Path) -> None:
    """The project's pytest options report skip reasons without -rs on the command line,
    and the summary still lists the failures (pytest's default, -rfE)."""
    config = ROOT / "pyproject.toml"
    if not config.exists():
        pytest.skip("source tree not available")
    (tmp_path / "test_one.py").write_text(
        "import pytest\n\n\ndef test_skips() -> None:\n    pytest.skip('needs the moon')\n"
        "\n\ndef test_fails() -> None:\n    assert 1 == 2\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(config), "--rootdir", str(tmp_path),
         str(tmp_path / "test_one.py")],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr  # the one failure
    assert re.search(r"^SKIPPED \[1\] .*test_one\.py:\d+: needs the moon$", done.stdout, re.M), (
        done.stdout
    )
    assert re.search(r"^FAILED .*test_one\.py::test_fails\b", done.stdout, re.M), done.stdout


def test_the_one_call_game_is_taught_with_a_checked_example() -> None:
    """docs/agents.md and the tutorial show ``ddz.arena.play_game`` in a doctest, beside the
    loop they teach, and agents.md prints an arena result as its table."""
    import doctest

    def examples(page: str) -> list[doctest.Example]:
        text = (ROOT / "docs" / page).read_text(encoding="utf-8")
        blocks = re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)
        parser = doctest.DocTestParser()
        return [example for block in blocks for example in parser.get_examples(block)]

    for page in ("agents.md", "tutorial.md"):
        assert any("play_game(ddz.Game(" in e.source and not e.want for e in examples(page))
    printed = [e.want for e in examples("agents.md") if e.source.startswith("print(result)")]
    assert printed and printed[0].startswith("classic rules, seed 3: 5 deals x 6 seatings")
