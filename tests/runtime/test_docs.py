"""The README and docs/ link only to what a clone has: files in the repository and headings that exist (a link
to ../shared/DESIGN.md once pointed outside it)."""

import re
from pathlib import Path

import pytest

import cuvil.options

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _anchor(heading: str) -> str:
    """GitHub's id for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    found, fenced = set(), False
    for line in page.read_text().splitlines():
        fenced ^= line.startswith("```")  # a comment in a code block is no heading
        if line.startswith("#") and not fenced:
            found.add(_anchor(line.lstrip("#")))
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_docs_links_stay_inside_the_repository(page):
    broken = []
    for target in LINK.findall(page.read_text()):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.is_relative_to(ROOT) or not linked.exists():
            broken.append(target)
        elif anchor and linked.suffix == ".md" and anchor not in _anchors(linked):
            broken.append(target)
    assert broken == []


def test_semantics_page_covers_every_option():
    text = (ROOT / "docs" / "semantics.md").read_text()
    rows = {line.split("|")[1].strip().strip("`") for line in text.splitlines() if line.startswith("| `")}
    assert {f.name for f in cuvil.options.Options.__dataclass_fields__.values()} <= rows
