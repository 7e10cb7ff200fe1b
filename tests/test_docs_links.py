"""Every relative link in the README, CONTRIBUTING.md and docs/*.md names a file of the repository (and, with
a ``#fragment``, a heading of that file), so moving a section cannot leave a reader at a dead end."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = sorted([ROOT / "README.md", ROOT / "CONTRIBUTING.md", *(ROOT / "docs").glob("*.md")])
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def relative_links(text: str) -> list[str]:
    """The targets of the Markdown links in ``text`` outside fenced code that are not web or mail addresses."""
    text = FENCE.sub("", text)
    return [t for t in LINK.findall(text) if not re.match(r"[a-z][a-z0-9+.-]*:", t)]


def anchors(text: str) -> set[str]:
    """The fragments GitHub gives the headings of a Markdown file: lower case, punctuation dropped, spaces as
    hyphens, a repeated heading numbered ``-1``, ``-2`` …"""
    seen: dict[str, int] = {}
    out = set()
    for line in FENCE.sub("", text).splitlines():
        heading = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not heading:
            continue
        slug = re.sub(r"[^\w\- ]", "", heading.group(1).lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        out.add(slug if count == 0 else f"{slug}-{count}")
    return out


def test_the_documents_are_found():
    names = {p.relative_to(ROOT).as_posix() for p in DOCUMENTS}
    assert {"README.md", "CONTRIBUTING.md", "docs/players.md", "docs/admins.md"} <= names


def test_the_anchor_rule_matches_githubs():
    assert anchors("# Cómo se juega\n## How to play\n## How to play\n") == {
        "cómo-se-juega", "how-to-play", "how-to-play-1"}


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_points_to_a_file_that_exists(document: Path):
    text = document.read_text(encoding="utf-8")
    broken = []
    for target in relative_links(text):
        path, _, fragment = target.partition("#")
        file = (document.parent / path).resolve() if path else document
        if not file.exists():
            broken.append(target)
        elif fragment and file.suffix == ".md" and fragment not in anchors(file.read_text(encoding="utf-8")):
            broken.append(target)
    assert broken == [], f"{document.name}: {broken}"
