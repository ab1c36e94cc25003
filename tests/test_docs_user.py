"""Every example in the docs and the README type-checks under ``mypy --strict``.

The ``>>>`` blocks of one page run as one doctest session, so they become one module; a
plain block is a script of its own. mypy checks them against the installed package (its
``py.typed`` and stubs), as a user's editor would. Third-party packages that ship no types
(PettingZoo, Ray) are let through; everything of ddz is checked.
"""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)

CONFIG = """\
[mypy]
strict = True
# A doctest session may give a name a value of another type later on, as a notebook does.
allow_redefinition = True

[mypy-pettingzoo.*,ray.*,gymnasium.*]
ignore_missing_imports = True
"""


def modules(page: Path) -> dict[str, str]:
    """The page's examples as modules: its doctest session, then each plain block.

    An example whose expected output is an exception shows what ddz refuses (``Rules(
    min_straight=6.5)`` raising ``TypeError``); such a call is often one a type checker
    refuses too, so it is left out: it is there to fail."""
    name = "doc_" + re.sub(r"\W", "_", page.stem.lower())
    session: list[str] = []
    found: dict[str, str] = {}
    parser = doctest.DocTestParser()
    for number, block in enumerate(BLOCK.findall(page.read_text(encoding="utf-8"))):
        if ">>>" not in block:
            found[f"{name}_{number}"] = block
            continue
        for example in parser.get_examples(block):
            if example.exc_msg is None:
                session.append(example.source)
        session.append("")
    if any(line.strip() for line in session):
        found[name] = "\n".join(session)
    return found


def test_the_examples_are_found() -> None:
    found = {name: code for page in PAGES for name, code in modules(page).items()}
    assert "doc_readme" in found and "doc_agents" in found and "doc_tutorial" in found
    assert "class Cautious:" in found["doc_agents"]
    assert any("SingleAgentEnv" in code for code in found.values())  # a plain block


def test_every_example_type_checks_strictly(tmp_path: Path) -> None:
    for page in PAGES:
        for name, code in modules(page).items():
            (tmp_path / f"{name}.py").write_text(code + "\n", encoding="utf-8")
    (tmp_path / "mypy.ini").write_text(CONFIG)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--no-incremental", "."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    listing = "\n".join(
        f"{path.name}:\n{path.read_text()}"
        for path in sorted(tmp_path.glob("doc_*.py"))
        if path.name.split(".")[0] in result.stdout
    )
    assert result.returncode == 0, f"{result.stdout}{result.stderr}\n{listing}"


LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
OUTSIDE = re.compile(r"shared/|\.\./|RULES\.md|PEERS\.md|DESIGN\.md|STYLE\.md|the issue|issue's")


def test_the_docs_point_only_inside_the_repository() -> None:
    """Links go to files of the repository (or the web); no page cites files a user does
    not have, or the project's internal tickets."""
    for page in [*PAGES, ROOT / "benchmarks" / "README.md"]:
        text = page.read_text(encoding="utf-8")
        for number, line in enumerate(text.splitlines(), start=1):
            found = OUTSIDE.search(line)
            assert found is None, f"{page.name}:{number}: {line.strip()}"
        for target in LINK.findall(text):
            if target.startswith(("http://", "https://", "mailto:")):
                continue
            assert (page.parent / target).resolve().exists(), f"{page.name}: broken link {target}"


def test_install_commands_work_from_a_checkout() -> None:
    """ddz is not on the package index yet: extras install from the checkout."""
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"pip install ['\"]?ddz\[", text), page.name
