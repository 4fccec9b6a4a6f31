"""The built site: every rules table appears on a page with the data's values,
the pages cite their rule system, the Sources page credits each system from
the data; and (needing no build) no prose is copied from the sources."""

from __future__ import annotations

import html
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import ROOT, SHARED
from rules_py.systems import SYSTEMS
from rules_py.tables import all_tables
from scripts.build.build_pages import _cell, embed_anchor, table_anchor


class TableAfterCaption(HTMLParser):
    """Collects the cell texts of the first <table> after an element with a given id."""

    def __init__(self, anchor: str):
        super().__init__()
        self.anchor, self.seen, self.depth, self.done = anchor, False, 0, False
        self.rows: list[list[str]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if dict(attrs).get("id") == self.anchor:
            self.seen = True
        if not self.seen or self.done:
            return
        if tag == "table":
            self.depth += 1
        elif tag == "tr" and self.depth:
            self.rows.append([])
        elif tag in ("td", "th") and self.depth:
            self._cell = []

    def handle_endtag(self, tag):
        if not self.seen or self.done:
            return
        if tag in ("td", "th") and self._cell is not None:
            self.rows[-1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "table" and self.depth:
            self.depth -= 1
            self.done = self.depth == 0

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def built_pages(site: Path) -> dict[Path, str]:
    return {p: p.read_text(encoding="utf-8") for p in site.rglob("*.html")}


TABLES = [t for s in SYSTEMS for t in all_tables(s.package)]


@pytest.mark.site
@pytest.mark.parametrize("table", TABLES, ids=[f"{t.system}/{t.id}" for t in TABLES])
def test_every_table_is_on_a_rules_page_with_the_datas_values(site, table):
    anchor = table_anchor(table)
    pages = {p: text for p, text in built_pages(site).items() if f'id="{anchor}"' in text and "/sheets/" not in str(p)}
    assert pages, f"no rules page shows table {table.system}/{table.id}"
    for page, text in pages.items():
        parser = TableAfterCaption(anchor)
        parser.feed(text)
        shown = [c for c in table.columns if c.show]
        expected = [[_cell(c.label) for c in shown]] + [[_cell(row[c.name]) for c in shown] for row in table.rows]
        got = [[html.unescape(cell).replace("\\|", "|") for cell in row] for row in parser.rows]
        assert got == [[cell.replace("\\|", "|") for cell in row] for row in expected], page


@pytest.mark.site
def test_comms_page_shows_comms_dice_and_embeds_its_calculator(site):
    text = (site / "combat-hq" / "comms" / "index.html").read_text()
    assert 'data-calculator="chq-comms-check"' in text
    assert "Combat HQ" in text
    assert re.search(r'Soviet Union</td>\s*<td[^>]*>(<span class="nowrap">)?3<', text)


@pytest.mark.site
def test_every_system_page_cites_its_system(site):
    for s in SYSTEMS:
        folder = site / s.slug
        if not folder.exists():
            continue
        for page in folder.rglob("index.html"):
            assert s.title.replace("'", "&#39;") in page.read_text() or s.title in page.read_text(), page


@pytest.mark.site
def test_no_external_resources_in_pages(site):
    # Scripts, styles, fonts and images must all come from the site itself.
    pattern = re.compile(r'<(?:script|link|img|iframe|source)[^>]+(?:src|href)="(https?:)?//', re.I)
    for page, text in built_pages(site).items():
        for match in pattern.finditer(text):
            tag = text[match.start() : text.index(">", match.start()) + 1]
            assert 'rel="canonical"' in tag, f"{page}: {tag}"


def test_no_prose_copied_from_the_sources():
    tool = SHARED / "tools" / "prose_overlap.py"
    if not tool.exists():
        pytest.skip("../shared is not beside this clone, so the source texts are not here to compare with")
    out = subprocess.run([sys.executable, str(tool)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.site
def test_sources_page_credits_every_system_from_the_data(site):
    # docs/sources.md includes the table that scripts/build/build_pages.py makes from rules_py/systems.py.
    parser = TableAfterCaption("sources")
    parser.feed((site / "sources" / "index.html").read_text(encoding="utf-8"))
    got = [[html.unescape(cell) for cell in row] for row in parser.rows]
    assert got == [["Rule system", "Author or publisher", "What we cover"]] + [[s.title, s.credit, s.covers] for s in SYSTEMS]


@pytest.mark.site
def test_a_rules_page_links_to_its_embedded_calculators_from_its_top_line(site):
    """Each rules page that embeds a calculator names it in the line under its title, and
    that link goes to the calculator on the page (on main it left for the calculator's own
    page, ten screens of reading away from the one on /combat-hq/artillery/)."""
    checked = 0
    for path, text in built_pages(site).items():
        embedded = re.findall(r'<div class="calculator" data-calculator="([a-z0-9-]+)">', text)
        if not embedded or "/calculators/" in path.as_posix():
            continue
        top = re.search(r"</h1>\s*<p>(.*?)</p>", text, re.S)
        assert top, path
        for calc_id in embedded:
            assert f'href="#{embed_anchor(calc_id)}"' in top.group(1), (path, calc_id)
            anchor = re.search(rf'<div class="fm-embed-anchor" id="{embed_anchor(calc_id)}"></div>\s*<div class="calculator" data-calculator="{calc_id}">', text)
            assert anchor, (path, calc_id)
        checked += 1
    assert checked >= 10
