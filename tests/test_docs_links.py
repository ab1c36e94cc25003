"""Every link between the project's pages leads somewhere: the file exists, and the section
it names is a heading (or an ``<a id>``) of that file.

Pages move: measurements go to the developer pages, sections are renamed. A link to a section
that is gone still opens the page, at its top, so nothing looks broken until a reader follows
it; this test reads the links the way GitHub renders them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#+ (.*)")
EXPLICIT = re.compile(r'<a id="([^"]+)"')


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation but hyphens dropped, spaces to
    hyphens (so ``python -m ddz simulate`` becomes ``python--m-ddz-simulate``)."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found: set[str] = set()
    for line in page.read_text(encoding="utf-8").splitlines():
        heading = HEADING.match(line)
        if heading:
            found.add(slug(heading.group(1)))
        found.update(EXPLICIT.findall(line))
    return found


def links(page: Path) -> list[tuple[int, str]]:
    found = []
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        for match in LINK.finditer(line):
            target = match.group(1)
            if not target.startswith(("http://", "https://", "mailto:")):
                found.append((number, target))
    return found


def test_slug_follows_github() -> None:
    assert slug("`python -m ddz simulate`") == "python--m-ddz-simulate"
    assert slug("PIMC told whom it plays: `pimc:rlcard-rule`") == (
        "pimc-told-whom-it-plays-pimcrlcard-rule"
    )
    assert slug("Against RLCard's rule agent") == "against-rlcards-rule-agent"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_link_leads_to_a_file_and_a_section(page: Path) -> None:
    broken = []
    for number, target in links(page):
        path, _, section = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"line {number}: {target} (no such file)")
        elif section and file.suffix == ".md" and section not in anchors(file):
            broken.append(f"line {number}: {target} (no such section)")
    assert not broken, "\n".join(broken)


def test_a_broken_section_is_caught(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Title\n\nSee [there](#elsewhere) and [here](#title).\n", encoding="utf-8")
    assert [target for _, target in links(page) if target[1:] not in anchors(page)] == [
        "#elsewhere"
    ]
