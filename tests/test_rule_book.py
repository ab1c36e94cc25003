"""The rule book is docs/: nothing cites a rule book outside the project, and every
``docs/<page>.md#<anchor>`` cited in the code, the tests and the docs names a real anchor.

Anchors are the explicit ``<a id="...">`` lines the rule pages put before their sections
(stable when a heading is reworded) and the anchors GitHub makes of headings."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
# Spelled in two parts so that this file does not mention it either.
OUTSIDE_RULE_BOOK = "RULES" + ".md"
TEXT = {".py", ".pyx", ".pxd", ".pyi", ".md", ".txt", ".toml", ".cfg", ".ini", ".json", ".sh"}

EXPLICIT = re.compile(r"""<a\s+(?:id|name)=["']([^"']+)["']""")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
# docs/<page>.md#<anchor> in code and tests; (<page>.md#<anchor>) and (#<anchor>) in links
CITED = re.compile(r"docs/([\w.-]+\.md)#([\w-]+)")
LINKED = re.compile(r"\]\(([\w.-]+\.md)?#([\w-]+)\)")


def text_files(*tops: Path) -> list[Path]:
    found: list[Path] = []
    for top in tops:
        if top.is_file():
            found.append(top)
            continue
        found += sorted(
            path
            for path in top.rglob("*")
            if path.is_file() and path.suffix in TEXT and "__pycache__" not in path.parts
        )
    return found


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: its text without markup, lower case, punctuation
    dropped (letters, digits, '-', '_' and spaces stay), spaces turned into hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").replace("*", "")
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every anchor of a docs page: explicit ids, and heading anchors numbered as GitHub
    numbers repeats (``name``, ``name-1``, ...). Code blocks hold no headings."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    in_code = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            in_code = not in_code
            continue
        if in_code:
            continue
        found.update(EXPLICIT.findall(line))
        heading = HEADING.match(line)
        if heading:
            anchor = github_anchor(heading.group(2))
            count = seen.get(anchor, 0)
            seen[anchor] = count + 1
            found.add(anchor if count == 0 else f"{anchor}-{count}")
    return found


def test_nothing_cites_a_rule_book_outside_the_project() -> None:
    files = text_files(ROOT / "src", ROOT / "tests", DOCS, ROOT / "benchmarks", ROOT / "README.md")
    assert len(files) > 50 and Path(__file__) in files
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if OUTSIDE_RULE_BOOK in line
    ]
    assert offenders == [], "\n".join(offenders)


def test_anchors_are_read_as_github_makes_them() -> None:
    rules = anchors(DOCS / "rules.md")
    assert {"kickers", "comparison", "classic-game", "every-option", "presets"} <= rules
    assert "no-such-anchor" not in rules
    assert github_anchor("`uno.STANDARD` and RLCard's UNO") == "unostandard-and-rlcards-uno"
    assert github_anchor("3.2.1 Points (`Bidding.POINTS`, the default)") == (
        "321-points-biddingpoints-the-default"
    )


def test_every_cited_anchor_exists() -> None:
    """docs/<page>.md#<anchor> in src/, tests/, benchmarks/, the README and the docs, and the
    docs' own links (page.md#anchor, #anchor), each name a page and one of its anchors."""
    cache: dict[Path, set[str]] = {}
    checked = 0
    broken: list[str] = []
    files = text_files(ROOT / "src", ROOT / "tests", ROOT / "benchmarks", ROOT / "README.md", DOCS)
    for path in files:
        text = path.read_text(encoding="utf-8")
        cites = [(DOCS / page, anchor) for page, anchor in CITED.findall(text)]
        if path.suffix == ".md":
            cites += [
                (path.parent / page if page else path, anchor)
                for page, anchor in LINKED.findall(text)
            ]
        for page, anchor in cites:
            checked += 1
            if not page.exists():
                broken.append(f"{path.relative_to(ROOT)}: no page {page.name}")
                continue
            if page not in cache:
                cache[page] = anchors(page)
            if anchor not in cache[page]:
                broken.append(f"{path.relative_to(ROOT)}: {page.name}#{anchor} is no anchor")
    assert checked > 30
    assert broken == [], "\n".join(broken)


def test_each_rule_page_lists_its_anchors_at_the_top() -> None:
    """The rule pages open with a table of their anchors, and each one exists."""
    for name in ["rules.md", "two-player.md", "uno-landlord.md", "uno.md"]:
        page = DOCS / name
        top = page.read_text(encoding="utf-8").split("\n## ", 1)[0]
        listed = re.findall(r"\[`([\w-]+)`\]\(#([\w-]+)\)", top)
        assert len(listed) >= 5, name
        assert all(text == anchor for text, anchor in listed), name
        assert {anchor for _, anchor in listed} <= anchors(page), name
