"""Every ``$ python -m ddz ...`` example of the docs prints what the page shows.

A page's ```` ```text ```` block may show a command line (``$ python -m ddz ...``) and its
output. Each is run here as a person would run it, in a shell, and its standard output is
compared line by line with the page: the numbers too (games, win rates, node counts, move
lists), since a number a page prints and no test checks goes stale. Only what depends on the
machine is left out of the comparison: times (``0.136 s``) and rates (``606,652 hands/s``).
A ``...`` line stands for any lines. A transcript of the terminal game types what follows
each ``your move>`` prompt, up to the last ``...``, then ends its input.

docs/solver.md's command-line examples are checked by tests/test_cli_solve.py, which also
plays their puzzle transcript against the solver.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]
CHECKED_ELSEWHERE = {"solver.md"}  # tests/test_cli_solve.py
PROMPT = re.compile(r"^(your move> )(.*)$", re.M)


def machine_free(text: str) -> str:
    """``text`` with the times and rates, which depend on the machine, as placeholders."""
    text = re.sub(r" +[\d,]+(?:\.\d+)? (hands|games|actions|nodes|deals)/s\b", r" N \1/s", text)
    return re.sub(r"\b\d+(?:\.\d+)? s\b", "T s", text)


def matches(expected: str, actual: str) -> bool:
    """``actual`` as ``expected`` says, a ``...`` line standing for any lines."""
    pattern = "".join(
        r"(?:.*\n)*?" if line == "..." else re.escape(line) + r"\n"
        for line in machine_free(expected).rstrip("\n").split("\n")
    )
    return re.fullmatch(pattern, machine_free(actual)) is not None


def examples() -> list[tuple[str, str, str]]:
    """Every ``$ python -m ddz`` example outside solver.md: (page, command, output)."""
    found = []
    for page in PAGES:
        if page.name in CHECKED_ELSEWHERE:
            continue
        for block in re.findall(r"```text\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            for example in re.split(r"(?m)^(?=\$ )", block):
                if example.startswith("$ python -m ddz"):
                    command, _, output = example.partition("\n")
                    found.append((page.name, command[2:], output))
    return found


def test_the_examples_are_found() -> None:
    commands = [command for _, command, _ in examples()]
    for word in ("simulate", "play", "perft", "bench"):
        assert any(command.split()[3] == word for command in commands), word


@pytest.mark.parametrize(
    ("page", "command", "expected"),
    [pytest.param(*example, id=f"{example[0]}: {example[1][14:]}") for example in examples()],
)
def test_the_docs_examples_print_what_they_show(page: str, command: str, expected: str) -> None:
    argv = shlex.split(command)
    assert argv[:3] == ["python", "-m", "ddz"], command
    typed = [answer for _, answer in PROMPT.findall(expected.rsplit("\n...\n", 1)[0])]
    done = subprocess.run(
        [sys.executable, *argv[1:]],
        input="".join(f"{line}\n" for line in typed),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    # a terminal shows what was typed after each prompt; a pipe does not: put it back
    answers = iter(typed)
    out = re.sub(
        r"your move> ",
        lambda _: f"your move> {next(answers, '')}\n",
        done.stdout,
    )
    out = re.sub(r"(?m)^(your move> )\n", r"\1", out)  # the prompt answered by end of input
    assert matches(expected, out), f"{page}: {command}\nprinted:\n{out}"
