"""CONTRIBUTING.md's steps, carried out on a tree as a newcomer would carry them out.

The guide adds a toy rule system, *Skirmish*, in code blocks: each block titled
with a file (```` ```python title="rules_py/skirmish/morale.py" ````) is that
file's text, except three that are additions to a file the project has:
``rules_py/systems.py`` (an entry for ``SYSTEMS``), ``scripts/build/sheet_odds.py``
(an entry for ``GRIDS``) and ``mkdocs.yml`` (the system's pages in ``nav``,
before ``Calculators``). The sheet's line in ``nav`` is given in the guide's
text ("Add it to `nav` under Sheets (`- Skirmish: sheets/skirmish.md`)").
tests/test_contributing.py follows the Python steps in a copy of ``rules_py``;
tests/test_contributing_site.py follows every step in a copy of the project,
builds its site and runs the site tier on it.
"""

from __future__ import annotations

import re
from pathlib import Path

from conftest import ROOT

GUIDE = ROOT / "CONTRIBUTING.md"
BLOCK = re.compile(r'^```(?P<lang>\w*)(?: title="(?P<title>[^"]+)")?\n(?P<body>.*?)^```\n', re.M | re.S)
SHEET_NAV = re.compile(r"Add\s+it\s+to\s+`nav`\s+under\s+Sheets\s+\(`(?P<line>- [^`]+)`\)")

# The files the guide adds to, each with where its addition goes: the text it is put in
# before (in the file once, or its first after the text given third), and what it adds to.
ADDITIONS = {
    "rules_py/systems.py": ("\n)\n\nBY_SLUG", "SYSTEMS", ""),  # the end of SYSTEMS
    "scripts/build/sheet_odds.py": ("\n}\n", "GRIDS", "\nGRIDS: "),  # the first brace at the margin after GRIDS opens
    "mkdocs.yml": ("  - Calculators: calculators/index.md\n", "mkdocs.yml's nav", ""),
}
NAV_SHEETS = "  - Sheets:\n      - sheets/index.md\n"


def blocks() -> list[tuple[str, str | None, str]]:
    """(language, title, text) of every fenced block of the guide, in order."""
    return [(m["lang"], m["title"], m["body"]) for m in BLOCK.finditer(GUIDE.read_text(encoding="utf-8"))]


def _insert(text: str, before: str, addition: str, what: str, after: str = "") -> str:
    """``text`` with ``addition`` put in before ``before``: its one occurrence, or its first after ``after``'s.
    Unchanged if the text holds the addition already (a tree where the guide was followed)."""
    if addition.strip("\n") in text:
        return text
    if after:
        assert text.count(after) == 1, f"{what}: {after!r} is not in the file once"
        at = text.find(before, text.index(after))
    else:
        assert text.count(before) == 1, f"{what} no longer reads as the guide expects: {before!r} is not in it once"
        at = text.index(before)
    assert at >= 0, f"{what} no longer reads as the guide expects: no {before!r}"
    # Whole lines: after the line that ends where ``before`` starts with its newline, else before its line.
    lines = "\n" + addition.rstrip("\n") if before.startswith("\n") else addition.rstrip("\n") + "\n"
    return text[:at] + lines + text[at:]


def _after_sheets(text: str, line: str) -> str:
    """mkdocs.yml with the sheet's ``nav`` line as the last of the Sheets section's."""
    if line in text:
        return text
    assert text.count(NAV_SHEETS) == 1, "mkdocs.yml's nav no longer has the Sheets section the guide names"
    start = text.index(NAV_SHEETS) + len(NAV_SHEETS)
    end = start
    for existing in text[start:].splitlines(keepends=True):
        if not existing.startswith("      - "):
            break
        end += len(existing)
    return text[:end] + f"      {line}\n" + text[end:]


def follow(tree: Path, only: tuple[str, ...] = ()) -> list[str]:
    """Carry out the guide's steps in ``tree`` (those under the folders in ``only``, if given); the files written, in order."""
    titled = [(title, body) for _, title, body in blocks() if title and (not only or title.startswith(only))]
    written = []
    for title, body in titled:
        path = tree / title
        if title in ADDITIONS:
            before, what, after = ADDITIONS[title]
            text = _insert(path.read_text(encoding="utf-8"), before, body, what, after)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            text = body
        path.write_text(text, encoding="utf-8")
        written.append(title)
    if not only or "mkdocs.yml" in only:
        sheet = SHEET_NAV.search(GUIDE.read_text(encoding="utf-8"))
        assert sheet, "the guide no longer says which line puts the sheet in nav"
        nav = tree / "mkdocs.yml"
        nav.write_text(_after_sheets(nav.read_text(encoding="utf-8"), sheet["line"]), encoding="utf-8")
    return written
