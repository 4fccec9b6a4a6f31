"""Quick-reference sheets: A4 PDFs of at most two pages holding every table
value, odds equal to the CLI's, and print styles that hide the site's chrome."""

from __future__ import annotations

import re
import subprocess
import sys
from fractions import Fraction
from html.parser import HTMLParser

import pytest

from conftest import ROOT
import rules_py
from rules_py.systems import SYSTEMS
from rules_py.tables import all_tables
from build_pages import _cell
from sheet_odds import GRIDS, percent

SHEETS = [s for s in SYSTEMS if (ROOT / "docs" / "sheets" / f"{s.slug}.md").exists()]
IDS = [s.slug for s in SHEETS]


def pdf_text(path) -> str:
    # reading order (not -layout), so the two printed columns do not interleave
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


def test_every_system_with_tables_has_a_sheet():
    for s in SYSTEMS:
        if all_tables(s.package):
            assert s in SHEETS, f"{s.title} has tables but no sheet"


@pytest.mark.site
@pytest.mark.parametrize("system", SHEETS, ids=IDS)
def test_pdf_is_a4_and_at_most_two_pages(site, system):
    pdf = site / "sheets" / f"{system.slug}.pdf"
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))
    width, height = map(float, re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info).groups())
    assert 1 <= pages <= 2
    assert abs(width - 595.3) < 2 and abs(height - 841.9) < 2, "not A4"


@pytest.mark.site
@pytest.mark.parametrize("system", SHEETS, ids=IDS)
def test_pdf_holds_every_table_value(site, system):
    text = " ".join(pdf_text(site / "sheets" / f"{system.slug}.pdf").split())
    text = text.replace("\u2013 ", "\u2013")  # a range "4–6" inside prose may wrap after its dash
    # pdftotext drops the hyphen of a word wrapped at it ("pre-registered" reads
    # "preregistered"), so words with letters are also compared without hyphens
    bare = text.replace("-", "")
    assert "Loading" not in text
    for table in all_tables(system.package):
        for row in table.rows:
            for col in table.columns:
                if col.show:
                    value = " ".join(_cell(row[col.name]).split())
                    # long cells may wrap across lines in the PDF: compare word by word
                    for word in value.split():
                        found = word in text or (any(c.isalpha() for c in word) and word.replace("-", "") in bare)
                        assert found, f"{table.id}.{col.name}: {value!r} not in the PDF"


class OddsCells(HTMLParser):
    def __init__(self):
        super().__init__()
        self.cells: list[tuple[dict, str]] = []
        self._open: dict | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "td" and "data-calculator" in attrs:
            self._open = attrs
            self._text = ""

    def handle_data(self, data):
        if self._open is not None:
            self._text += data

    def handle_endtag(self, tag):
        if tag == "td" and self._open is not None:
            self.cells.append((self._open, self._text.strip()))
            self._open = None


@pytest.mark.site
@pytest.mark.parametrize("system", SHEETS, ids=IDS)
def test_sheet_odds_equal_the_cli(site, system):
    import json

    parser = OddsCells()
    parser.feed((site / "sheets" / system.slug / "index.html").read_text(encoding="utf-8"))
    expected_cells = sum(len(g.rows[1]) * len(g.cols[1]) for g in GRIDS.get(system.slug, ()))
    assert len(parser.cells) == expected_cells
    checked_by_cli = set()
    for attrs, text in parser.cells:
        inputs = json.loads(attrs["data-inputs"])
        if attrs["data-calculator"] not in checked_by_cli:
            # once per calculator through the CLI itself; the rest through the same function in-process
            checked_by_cli.add(attrs["data-calculator"])
            out = subprocess.run(
                [sys.executable, "-m", "rules_py", "odds", attrs["data-calculator"], *(f"{k}={v}" for k, v in inputs.items())],
                cwd=ROOT, capture_output=True, text=True, check=True,
            )
            report = json.loads(out.stdout)
        else:
            report = rules_py.odds(attrs["data-calculator"], inputs)
        dist = report["outcomes"][attrs["data-outcome"]]
        if attrs.get("data-show") == "value":
            assert dist == {attrs["data-value"]: "1"}, "a value cell needs a certain answer"
            assert text.replace("\u2212", "-").lstrip("+") == attrs["data-value"].lstrip("+")
        elif "data-mean" in attrs:
            mean = sum(Fraction(v) * Fraction(p) for v, p in dist.items())
            assert Fraction(attrs["data-mean"]) == mean
            assert text == f"{float(mean):.2f}"
        elif "data-at-least" in attrs:
            p = sum(Fraction(q) for v, q in dist.items() if Fraction(v) >= Fraction(attrs["data-at-least"]))
            assert Fraction(attrs["data-p"]) == p and text == percent(p)
        else:
            assert attrs["data-p"] == dist.get(attrs["data-value"], "0")
            assert text == percent(Fraction(attrs["data-p"]))


@pytest.mark.site
def test_comms_grid_by_hand(site):
    # Soviet 3D with 1 boost = 4D against 3D: exactly 1/2 (Bin(7, 1/2) >= 4), printed 50%.
    html = (site / "sheets" / "combat-hq" / "index.html").read_text(encoding="utf-8")
    cell = re.search(r'<td [^>]*data-inputs="[^"]*&quot;boosts&quot;: &quot;1&quot;, &quot;nation&quot;: &quot;soviet&quot;[^>]*>([^<]*)</td>', html)
    assert cell and cell.group(1) == "50%"


@pytest.fixture(scope="module")
def print_page(browser, server):
    context = browser.new_context()
    page = context.new_page()
    page.emulate_media(media="print")
    yield server.url().rstrip("/"), page
    context.close()


@pytest.mark.browser
@pytest.mark.parametrize("path", [f"sheets/{s.slug}/" for s in SHEETS] + ["combat-hq/comms/"])
def test_print_hides_navigation_header_and_footer(site, print_page, path):
    base, page = print_page
    page.goto(f"{base}/{path}", wait_until="load")
    for selector in (".md-header", ".md-sidebar--primary", ".md-sidebar--secondary", ".md-footer", ".md-search"):
        for element in page.query_selector_all(selector):
            assert not element.is_visible(), f"{selector} is visible in print on {path}"
    assert page.locator("article h1").first.is_visible()
    # no blank trailing page: the content ends within the printed height
    heights = page.evaluate("[document.documentElement.scrollHeight, document.querySelector('article').getBoundingClientRect().bottom]")
    assert heights[0] - heights[1] < 200
