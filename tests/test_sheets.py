"""Quick-reference sheets and printed rules pages: A4 PDFs of at most three pages
holding every table value and every column, the page counts the site promises,
odds equal to the CLI's, and print styles that hide the site's chrome."""

from __future__ import annotations

import json
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
from scripts.build.build_pages import _cell
from rules_py.formats import whole_percent as percent
from scripts.build.sheet_odds import GRIDS, pivot

SHEETS = [s for s in SYSTEMS if (ROOT / "docs" / "sheets" / f"{s.slug}.md").exists()]
IDS = [s.slug for s in SHEETS]


def test_every_system_with_tables_has_a_sheet():
    for s in SYSTEMS:
        if all_tables(s.package):
            assert s in SHEETS, f"{s.title} has tables but no sheet"


# Every printed PDF of a sheet: the sheet itself and its large print (both from the same page).
PRINTS = [(s, large) for s in SHEETS for large in (False, True)]
PRINT_IDS = [f"{s.slug}{'-large-print' if large else ''}" for s, large in PRINTS]
MAX_PAGES = 3  # a sheet grows a page (Combat HQ one, for its notes; Plastic Ostfront two) rather than shrink its type


def sheet_pdf(site, system, large=False):
    return site / "sheets" / pdf_name(system.slug, large)


@pytest.mark.site
@pytest.mark.parametrize("system, large", PRINTS, ids=PRINT_IDS)
def test_pdf_is_a4_at_its_stated_pages(site, system, large):
    pdf = sheet_pdf(site, system, large)
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))
    width, height = map(float, re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info).groups())
    assert pages == sheet_pages(system.slug)["large_print_pages" if large else "pages"]
    assert 1 <= pages <= (2 * MAX_PAGES if large else MAX_PAGES)
    assert abs(width - 595.3) < 2 and abs(height - 841.9) < 2, "not A4"


# Type a player reads at arm's length (issue 26), measured on the PDFs: the
# median size over every printed character, and the share under 7 pt. The
# sheets before it printed their bodies at 6.75 pt (Combat HQ, Plastic
# Ostfront: three quarters of their characters under 7 pt), 7.5 pt and 8.5 pt.
BODY_PT, SMALL_PT, SMALL_SHARE, LARGE_PT = 8.5, 7.0, 0.10, 11.0


@pytest.mark.site
@pytest.mark.parametrize("system, large", PRINTS, ids=PRINT_IDS)
def test_sheet_type_is_read_at_arms_length(site, system, large):
    sizes = type_sizes(sheet_pdf(site, system, large))
    median, small = type_summary(sizes)
    assert median >= (LARGE_PT if large else BODY_PT), f"median type {median} pt"
    assert small <= SMALL_SHARE, f"{small:.0%} of the characters under {SMALL_PT} pt"


def test_type_sizes_read_from_word_boxes(tmp_path):
    # Hand-checked on a PDF of known sizes: the built sheets' own fonts are Liberation Sans, whose
    # descender-to-ascender extent is 905.27 + 211.91 = 1117.2 thousandths of an em; a word box
    # 11.172 pt high is therefore set at 10 pt, one 7.2618 pt high at 6.5 pt (under 7).
    pdf = tmp_path / "fake.pdf"
    pdf.write_bytes(b"<</Type /FontDescriptor /FontName /X /Ascent 905.27344 /Descent -211.91406>>")
    import printed

    boxes = [(0, 0.0, 100.0, 111.172, "Body"), (0, 0.0, 200.0, 207.2618, "note"), (0, 0.0, 300.0, 311.172, "x y")]
    original = printed.words
    printed.words = lambda path: boxes
    try:
        assert printed.type_sizes(pdf) == [10.0] * 4 + [6.5] * 4 + [10.0] * 2  # spaces are not characters
        median, small = printed.type_summary(printed.type_sizes(pdf))
        assert median == 10.0 and small == 4 / 10
    finally:
        printed.words = original


@pytest.mark.site
@pytest.mark.browser
def test_the_type_check_sees_a_sheet_shrunk_to_fit(site, printer, tmp_path):
    # The old print: the Plastic Ostfront sheet scaled to 90% to save a page, as the build did
    # before. Its tables then print under 8.5 pt, and the check says so.
    pdf = tmp_path / "shrunk.pdf"
    pdf.write_bytes(printer("sheets/plastic-ostfront/", scale=0.8))
    median, _ = type_summary(type_sizes(pdf))
    assert median < BODY_PT


@pytest.mark.site
def test_the_konrad_sheet_uses_its_page(site):
    # It printed on one page with its bottom third empty.
    fills = page_fill(site / "sheets" / "konrad.pdf")
    assert len(fills) == 1 and fills[0] > 0.85, fills


@pytest.mark.site
@pytest.mark.parametrize("system, large", PRINTS, ids=PRINT_IDS)
def test_pdf_holds_every_table_value(site, system, large):
    # content order (-raw): a table cell's lines stay together, where reading order may run the
    # next column's cell into a word wrapped at its hyphen ("pre" + "The battery…" + "registered")
    text = " ".join(raw_text(sheet_pdf(site, system, large)).split())
    text = text.replace("\u2013 ", "\u2013")  # a range "4–6" inside prose may wrap after its dash
    text = re.sub(r"(?<=\w)- (?=\w)", "-", text)  # and a word wrapped at its hyphen keeps it in -raw
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


# The words by which a sheet sends its reader to an Interpretation note, and the pages
# that hold notes (issue 44: the sheets sent players to notes on "the cover page" and
# "the rules page" that paper does not carry).
SHEET_NOTE_INCLUDE = re.compile(r'^--8<-- "sheets/note-([\w-]+)\.md"$', re.M)
NOTE_REFERENCE = re.compile(r"Interpretation notes?\b|\bnote on the\b|\b(?:cover|rules) page\b")


@pytest.mark.site
@pytest.mark.parametrize("system, large", PRINTS, ids=PRINT_IDS)
def test_a_sheet_prints_every_interpretation_note_it_refers_to(site, system, large):
    from rules_py.reference import interpretations

    text = " ".join(pdf_text(sheet_pdf(site, system, large).read_bytes()).split())
    notes = {n.id: n for n in interpretations()}
    # The notes the sheet's page includes (tests/test_text_findings.py's SHEET_NOTES holds the four
    # systems' to the letter; a system added by CONTRIBUTING.md has its own page and none of them).
    included = SHEET_NOTE_INCLUDE.findall((ROOT / "docs" / "sheets" / f"{system.slug}.md").read_text(encoding="utf-8"))
    printed = [n for n in included if f"Interpretation: {notes[n].rule}" in text]
    assert printed == included, f"printed {printed} of {included}"
    for n in printed:  # the whole note: what is open, our reading
        assert " ".join(notes[n].reading.split())[-60:] in text.replace("\u2010", "-"), n
    references = [m.group(0) for m in NOTE_REFERENCE.finditer(text)]
    # Every reference is to a note printed on the sheet: none names another page, and a sheet that refers
    # to notes prints some (the note section's own heading is one of the references).
    assert not [r for r in references if r.endswith("page") or r == "note on the"], references
    assert not references or printed, references


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


def two_places(x: Fraction) -> str:
    """``x`` to two decimals as a sheet prints a mean, worked out here apart from
    the engine: the hundredths by integer division of the exact fraction, a
    remainder of half or more rounding away from zero (9/8 is "1.13", where a
    float's format, rounding half to even on 1.125, gives "1.12"), and a true
    minus sign before a number that is not zero once rounded."""
    hundredths, rest = divmod(abs(x.numerator) * 100, x.denominator)
    if 2 * rest >= x.denominator:
        hundredths += 1
    return ("\u2212" if x < 0 and hundredths else "") + f"{hundredths // 100}.{hundredths % 100:02d}"


@pytest.mark.parametrize(
    "x, text",
    [(Fraction(9, 8), "1.13"), (Fraction(-9, 8), "\u22121.13"), (Fraction(1, 8), "0.13"), (Fraction(7, 2), "3.50"),
     (Fraction(1, 3), "0.33"), (Fraction(2, 3), "0.67"), (Fraction(-1, 300), "0.00"), (Fraction(1999, 200), "10.00")],
)
def test_two_places_rounds_a_tie_away_from_zero(x, text):
    # Worked by hand: 9/8 = 1.125, a tie, away from zero 1.13; 1/8 = 0.125 -> 0.13; -1/300 = -0.0033 -> 0.00
    # (no sign on a zero); 1999/200 = 9.995, a tie -> 10.00. The check before this one (a float's format) fails on the ties.
    assert two_places(x) == text


@pytest.mark.site
@pytest.mark.parametrize("system", SHEETS, ids=IDS)
def test_sheet_odds_equal_the_cli(site, system):
    parser = OddsCells()
    parser.feed((site / "sheets" / system.slug / "index.html").read_text(encoding="utf-8"))
    expected_cells = sum(pivot(g)[0].size for g in GRIDS.get(system.slug, ()))
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
            assert text == two_places(mean)
        elif "data-at-least" in attrs:
            p = sum(Fraction(q) for v, q in dist.items() if Fraction(v) >= Fraction(attrs["data-at-least"]))
            assert Fraction(attrs["data-p"]) == p and text == percent(p)
        else:
            assert attrs["data-p"] == dist.get(attrs["data-value"], "0")
            assert text == percent(Fraction(attrs["data-p"]))


@pytest.mark.site
def test_comms_grid_by_hand(site):
    # Soviet 3D with 1 boost = 4D against 3D: exactly 1/2 (Bin(7, 1/2) >= 4), printed 50%.
    parser = OddsCells()  # the attributes as the browser reads them, however the build escaped them
    parser.feed((site / "sheets" / "combat-hq" / "index.html").read_text(encoding="utf-8"))
    cells = [
        text
        for attrs, text in parser.cells
        if attrs["data-calculator"] == "chq-comms-check" and json.loads(attrs["data-inputs"]) == {"air_recon": "false", "boosts": "1", "nation": "soviet"}
    ]
    assert cells == ["50%"]


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
    # No blank trailing page: the document ends within 200 px of the content, or of the first page when
    # the content is shorter than a page (CONTRIBUTING.md's one-table sheet), which the document then fills.
    height, bottom, first_page = page.evaluate(
        "() => [document.documentElement.scrollHeight, document.querySelector('article').getBoundingClientRect().bottom, innerHeight]"
    )
    assert height - max(bottom, first_page) < 200, (height, bottom, first_page)


# ------------------------------------------------- every column reaches paper

from scripts.build.build_pages import pages_text, sheet_meta, sheet_pages, site_url  # noqa: E402
from scripts.build.build_sheets_pdf import WebPageOnPaper, pdf_name, pdf_text, print_pdf  # noqa: E402
from printed import captioned_tables, captions_apart, lost_columns, pdf_text as raw_text, type_sizes, type_summary  # noqa: E402

# Rules pages with captioned tables (the sheets aside), as built.
RULES_PAGES = sorted(
    p.parent.relative_to(ROOT / "site").as_posix() + "/"
    for p in (ROOT / "site").rglob("index.html")
    if "/sheets/" not in p.as_posix() and 'class="table-caption' in p.read_text(encoding="utf-8")
)
# The printed width of an A4 page: 210 mm less the stylesheet's two 10 mm margins, at 96 px an inch.
A4_CONTENT_PX = round(190 / 25.4 * 96)


@pytest.mark.site
@pytest.mark.parametrize("system, large", PRINTS, ids=PRINT_IDS)
def test_every_column_label_is_printed_under_its_caption(site, system, large):
    page = (site / "sheets" / system.slug / "index.html").read_text(encoding="utf-8")
    tables = captioned_tables(page)
    assert len(tables) >= len(all_tables(system.package)), "a table of the sheet has no caption"
    assert lost_columns(page, raw_text(sheet_pdf(site, system, large))) == []


@pytest.fixture(scope="module")
def printer(browser, server):
    context = browser.new_context()
    page = context.new_page()
    yield lambda path, **kw: print_pdf(page, server.url(path), **kw)
    context.close()


@pytest.mark.site
@pytest.mark.browser
def test_the_column_check_names_the_columns_a_narrow_page_cuts_off(site, printer, tmp_path):
    # The issue's own example: on a page too narrow for them, Table 5 loses its AFV
    # columns and Table 7 its last one. On A4 the same check finds nothing lost.
    page = (site / "sheets" / "plastic-ostfront" / "index.html").read_text(encoding="utf-8")
    narrow = tmp_path / "narrow.pdf"
    narrow.write_bytes(printer("sheets/plastic-ostfront/", width="80mm"))
    lost = lost_columns(page, raw_text(narrow))
    assert "Table 5: damage (throw the figure or better): AFV, armour 4+" in lost
    assert "Table 7: cover and its collapse: After collapse if prepared" in lost
    assert "Organisation: what one model stands for: Unit" not in lost  # a narrow table still fits
    a4 = tmp_path / "a4.pdf"
    a4.write_bytes(printer("sheets/plastic-ostfront/"))
    assert lost_columns(page, raw_text(a4)) == []


@pytest.mark.site
@pytest.mark.browser
@pytest.mark.parametrize("path", RULES_PAGES)
def test_rules_pages_print_every_column(site, printer, tmp_path, path):
    pdf = tmp_path / "page.pdf"
    pdf.write_bytes(printer(path))
    page = (site / path / "index.html").read_text(encoding="utf-8")
    assert captioned_tables(page)
    assert lost_columns(page, raw_text(pdf)) == []


@pytest.mark.site
def test_rules_pages_with_tables_are_all_checked(site):
    assert len(RULES_PAGES) >= 12 and "plastic-ostfront/artillery-shoot/" in RULES_PAGES


# ------------------------------------------------- paper carries the sheet alone

# The words of the site's own notices, as docs/assets/offline.mjs writes them (the offline and
# new-version bars and their buttons): never on paper.
NOTICE_TEXT = re.findall(r'textContent = "([^"]+)"', (ROOT / "docs/assets/offline.mjs").read_text(encoding="utf-8"))


def test_the_notices_words_are_read_from_the_page_script():
    assert "Dismiss" in NOTICE_TEXT and any(t.startswith("Fire Mission cannot be kept for offline use") for t in NOTICE_TEXT)


@pytest.mark.site
@pytest.mark.parametrize("system, large", PRINTS, ids=PRINT_IDS)
def test_no_notice_of_the_web_page_is_printed(site, system, large):
    text = " ".join(raw_text(sheet_pdf(site, system, large)).split())
    assert [t for t in NOTICE_TEXT if re.search(rf"(?<!\w){re.escape(t)}(?!\w)", text)] == []


NOTICE = """(text) => {
    const bar = document.createElement("div");
    bar.className = "fm-update fm-offline-failed";
    bar.setAttribute("role", "status");
    const button = document.createElement("button");
    button.textContent = "Dismiss";
    bar.append(text, " ", button);
    document.body.append(bar);
}"""


# The bar shown in print after all, as it was before the print stylesheet hid it.
SHOWN_IN_PRINT = """() => {
    const style = document.createElement("style");
    style.textContent = "@media print { .fm-update { display: block !important; position: static !important; } }";
    document.head.append(style);
}"""


@pytest.mark.site
@pytest.mark.browser
def test_the_print_step_keeps_notices_and_controls_off_paper(site, browser, server):
    # The offline bar, put on the sheet as offline.mjs does, stays off paper; shown in
    # print, the print step refuses the PDF and names what reached paper.
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    try:
        url = server.url("sheets/combat-hq/")
        words = "Fire Mission cannot be kept for offline use here."
        pdf = print_pdf(page, url, before=[(NOTICE, words)])
        assert page.locator(".fm-update").count() == 1
        assert "Table" in (text := " ".join(pdf_text(pdf).split())) and words not in text
        with pytest.raises(WebPageOnPaper, match="Dismiss"):
            print_pdf(page, url, before=[(NOTICE, words), (SHOWN_IN_PRINT, None)])
    finally:
        context.close()


@pytest.fixture(scope="module")
def print_width_page(browser, server):
    context = browser.new_context(viewport={"width": A4_CONTENT_PX, "height": 1100})
    page = context.new_page()
    page.emulate_media(media="print")
    yield server.url().rstrip("/"), page
    context.close()


OVERFLOWING_TABLES = """() => [...document.querySelectorAll('article table')].flatMap((table) => {
  const container = table.parentElement;
  const caption = table.closest('.fm-table')?.querySelector('.table-caption')?.textContent ?? table.rows[0]?.textContent;
  return table.scrollWidth > container.clientWidth || container.scrollWidth > container.clientWidth
    ? [`${caption.trim()}: ${table.scrollWidth} > ${container.clientWidth}`] : [];
})"""


@pytest.mark.site
@pytest.mark.browser
@pytest.mark.parametrize("path", [f"sheets/{s.slug}/" for s in SHEETS] + RULES_PAGES)
def test_in_print_no_table_is_wider_than_its_container(site, print_width_page, path):
    base, page = print_width_page
    page.goto(f"{base}/{path}", wait_until="load")
    assert page.evaluate("document.querySelectorAll('article table').length") > 0
    assert page.evaluate(OVERFLOWING_TABLES) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= A4_CONTENT_PX


@pytest.mark.browser
def test_the_width_check_sees_a_table_too_wide(browser, server):
    # The same check on a page narrower than Table 5's narrowest layout names it.
    context = browser.new_context(viewport={"width": 300, "height": 900})
    page = context.new_page()
    page.emulate_media(media="print")
    page.goto(server.url("plastic-ostfront/artillery-shoot/"), wait_until="load")
    assert any(s.startswith("Table 5: damage") for s in page.evaluate(OVERFLOWING_TABLES))
    context.close()


@pytest.mark.site
@pytest.mark.parametrize("system, large", PRINTS, ids=PRINT_IDS)
def test_captions_stay_with_their_tables(site, system, large):
    page = (site / "sheets" / system.slug / "index.html").read_text(encoding="utf-8")
    # large print is one column: a caption's table may then sit further right than in half a page
    assert captions_apart(page, sheet_pdf(site, system, large), column=520.0 if large else 250.0) == []


@pytest.mark.site
@pytest.mark.browser
def test_the_caption_check_sees_a_caption_left_behind(site, browser, server, tmp_path):
    # Every caption pushed into its own column, away from its table: the check names them.
    page = browser.new_page()
    page.goto(server.url("sheets/konflikt47/"), wait_until="load")
    page.add_style_tag(content=".fm-table { break-inside: auto !important; } .fm-table .table-caption { break-after: column !important; }")
    page.emulate_media(media="print")
    pdf = tmp_path / "split.pdf"
    pdf.write_bytes(page.pdf(format="A4", prefer_css_page_size=True))
    page.close()
    html = (site / "sheets" / "konflikt47" / "index.html").read_text(encoding="utf-8")
    apart = captions_apart(html, pdf)
    assert any(line.startswith("Officer's morale bonus:") for line in apart), apart


# ------------------------------------------------------ pages, as promised

def pdf_pages(path) -> int:
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"Pages:\s+(\d+)", info).group(1))


@pytest.mark.site
@pytest.mark.parametrize("page", ["index.html", "sheets/index.html"])
def test_page_counts_as_promised(site, page):
    html = (site / page).read_text(encoding="utf-8")
    promised = re.findall(r'href="(?:sheets/)?([\w-]+)\.pdf" data-sheet-pages="(\d+)">([^<]*)<', html)
    names = {name for name, _, _ in promised}
    assert {n for n in names if not n.endswith("-large-print")} == set(IDS)
    assert page == "index.html" or names == set(IDS) | {f"{s}-large-print" for s in IDS}
    for name, pages, text in promised:
        assert int(pages) == pdf_pages(site / "sheets" / f"{name}.pdf"), name
        assert text == pages_text(int(pages))
    assert "one A4 page per rule system" not in html


def test_pages_text():
    assert pages_text(1) == "PDF, one A4 page" and pages_text(2) == "PDF, two A4 pages" and pages_text(6) == "PDF, six A4 pages"


def test_page_counts_are_stated_before_anything_is_printed(tmp_path, monkeypatch):
    # Issue 27: the print no longer feeds the pages (it rebuilt them when a count changed); the
    # counts are the sheets' own front matter, read by the page build, and a sheet without them stops it.
    from scripts.build import build_pages

    assert sheet_pages("konrad") == {"pages": 1, "large_print_pages": 2}
    (tmp_path / "docs" / "sheets").mkdir(parents=True)
    (tmp_path / "docs" / "sheets" / "konrad.md").write_text("---\npages: 1\n---\n# Konrad\n", encoding="utf-8")
    monkeypatch.setattr(build_pages, "ROOT", tmp_path)
    with pytest.raises(SystemExit, match="must state large_print_pages"):
        sheet_pages("konrad")
    source = (ROOT / "scripts" / "build" / "build_sheets_pdf.py").read_text(encoding="utf-8")
    assert "mkdocs" not in source.split('"""', 2)[2] and "build_pages.py" not in source.split('"""', 2)[2]


def page_fill(pdf) -> list[float]:
    """How far down each page its lowest word reaches, as a share of the page's height."""
    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    fills = []
    for page in re.findall(r'<page width="[\d.]+" height="([\d.]+)">(.*?)</page>', out, re.S):
        height, body = float(page[0]), page[1]
        bottoms = [float(y) for y in re.findall(r'yMax="([\d.]+)"', body)]
        fills.append(max(bottoms, default=0) / height)
    return fills


@pytest.mark.site
@pytest.mark.parametrize("system, large", PRINTS, ids=PRINT_IDS)
def test_no_page_but_the_last_is_more_than_half_empty(site, system, large):
    fills = page_fill(sheet_pdf(site, system, large))
    assert fills and all(f > 0.5 for f in fills[:-1]), fills


@pytest.mark.site
@pytest.mark.browser
def test_half_empty_check_sees_a_half_empty_page(site, browser, server, tmp_path):
    # The Combat HQ sheet with a page break forced before its tables:
    # page 1 holds a few lines, and the check says so.
    page = browser.new_page()
    page.goto(server.url("sheets/combat-hq/"), wait_until="load")
    page.add_style_tag(content="#tables { break-before: page; }")
    page.emulate_media(media="print")
    pdf = tmp_path / "broken.pdf"
    pdf.write_bytes(page.pdf(format="A4", prefer_css_page_size=True))
    page.close()
    fills = page_fill(pdf)
    assert len(fills) >= 2 and fills[0] < 0.5


# ------------------------------------------------- what a sheet says about itself

@pytest.mark.site
@pytest.mark.parametrize("system, large", PRINTS, ids=PRINT_IDS)
def test_sheet_prints_title_system_publisher_and_rules_date(site, system, large):
    text = " ".join(raw_text(sheet_pdf(site, system, large)).split())
    assert f"{system.title} quick reference" in text
    assert f"{system.title} · {system.credit}" in text
    assert re.search(r"rules as of \d{4}-\d{2}-\d{2}", text)
    assert "download the PDF" not in text and "the full rules" not in text, "web navigation printed"
    if site_url() is None:
        assert "127.0.0.1" not in text and "localhost" not in text


def test_site_address_only_when_not_loopback(tmp_path, monkeypatch):
    from scripts.build import build_pages

    config = tmp_path / "mkdocs.yml"
    monkeypatch.setattr(build_pages, "ROOT", tmp_path)
    for url, expected in [
        ("http://127.0.0.1:8000/", None),
        ("http://localhost:8000", None),
        ("http://[::1]/", None),
        ("https://fire-mission.example.org/rules", "https://fire-mission.example.org/rules/"),
    ]:
        config.write_text(f"site_name: x\nsite_url: {url}\n", encoding="utf-8")
        assert site_url() == expected, url
    config.write_text("site_name: x\n", encoding="utf-8")
    assert site_url() is None
    config.write_text("site_name: x\nsite_url: https://fire-mission.example.org/\n", encoding="utf-8")
    meta = sheet_meta("konrad")
    assert "https://fire-mission.example.org/sheets/konrad/" in meta and "<svg" in meta


# --------------------------------------------------- no grid that says nothing

@pytest.mark.site
@pytest.mark.parametrize("system", SHEETS, ids=IDS)
def test_no_odds_column_says_nothing(site, system):
    html = (site / "sheets" / system.slug / "index.html").read_text(encoding="utf-8")
    for table in re.findall(r'<table class="sheet-odds">(.*?)</table>', html, re.S):
        rows = [re.findall(r"<td [^>]*>([^<]*)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", table, re.S)]
        rows = [r for r in rows if r]
        for column in zip(*rows):
            assert set(column) - {"0%", "0.00"}, f"an all-zero column on {system.slug}"
    assert ">missing<" not in html, "a grid of missing figures"


@pytest.mark.site
def test_the_medic_grid_says_what_it_leaves_out(site):
    html = (site / "sheets" / "konflikt47" / "index.html").read_text(encoding="utf-8")
    assert "Not shown: A casualty from a heavy weapon (cause), 0% in every row." in html


def test_modifier_row_labels_come_from_table_3():
    from rules_py.tables import load

    table = load("plastic_ostfront", "effectiveness_modifiers")
    grid = GRIDS["plastic-ostfront"][0]
    for label, inputs in grid.rows[1]:
        total = sum(table.lookup("modifier", name, "modifier_value") for name in inputs)
        assert label.split(" ")[0].replace("\u2212", "-").lstrip("+") == str(total)
        for name in inputs:
            assert table.lookup("modifier", name, "short") in label


def test_sheets_prose_types_no_modifier():
    # Modifiers are the tables': a signed figure typed into a sheet's steps or
    # the sheets' script would be a second copy.
    for path in sorted((ROOT / "docs" / "sheets").glob("*.md")):
        text = path.read_text(encoding="utf-8").replace('--8<-- "', "")  # snippet includes
        assert not re.search(r"[\u2212+-]\d", text), path.name
    script = (ROOT / "scripts" / "build" / "sheet_odds.py").read_text(encoding="utf-8")
    assert not re.search(r"\u2212\d|\\u2212\d", script)


# --------------------------------------------------- wide tables on screen

def pixel(page, x: float, y: float) -> tuple[int, int, int]:
    """The colour of one screen pixel (a 1x1 PNG screenshot, decoded by hand: no imaging library here)."""
    import struct
    import zlib

    png = page.screenshot(clip={"x": x, "y": y, "width": 1, "height": 1})
    chunks, at = {}, 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at:at + 4])
        kind = png[at + 4:at + 8]
        chunks[kind] = chunks.get(kind, b"") + png[at + 8:at + 8 + length]
        at += 12 + length
    raw = zlib.decompress(chunks[b"IDAT"])
    return tuple(raw[1:4])  # filter byte, then R, G, B of the single pixel


def distance(a, b) -> int:
    return max(abs(x - y) for x, y in zip(a, b))


WIDE = """() => {
  const wrap = document.querySelector('#table-damage').closest('.fm-table').querySelector('.md-typeset__scrollwrap');
  const r = wrap.getBoundingClientRect();
  const first = wrap.querySelector('tbody tr:nth-child(2) > :first-child').getBoundingClientRect();
  const second = wrap.querySelector('tbody tr:nth-child(2) > :nth-child(2)').getBoundingClientRect();
  return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, scroll: wrap.scrollWidth - wrap.clientWidth,
          first: first.left, second: second.left, y: (first.top + first.bottom) / 2};
}"""


@pytest.mark.site
@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", [{"width": 1366, "height": 900}, {"width": 390, "height": 844}], ids=["desktop", "phone"])
def test_a_wide_table_shows_it_scrolls_and_keeps_its_first_column(site, browser, server, viewport, scheme):
    context = browser.new_context(viewport=viewport, color_scheme=scheme)
    page = context.new_page()
    page.goto(server.url("plastic-ostfront/artillery-shoot/"), wait_until="load")
    page.evaluate("document.querySelector('#table-damage').scrollIntoView({block: 'start'})")
    page.wait_for_function("() => document.querySelector('#table-damage').closest('.fm-table').querySelector('.md-typeset__scrollwrap')")
    box = page.evaluate(WIDE)
    assert box["scroll"] > 0, "Table 5 fits: nothing to show"
    background = pixel(page, box["left"] + (box["right"] - box["left"]) / 2, box["y"])  # an empty stretch of a cell
    edge = pixel(page, box["right"] - 2, box["y"])
    assert distance(edge, background) >= 12, f"no shadow at the edge with more columns past it: {edge} on {background}"
    page.evaluate("(n) => { const w = document.querySelector('#table-damage').closest('.fm-table').querySelector('.md-typeset__scrollwrap'); w.scrollLeft = n; }", box["scroll"])
    page.wait_for_function("(n) => document.querySelector('#table-damage').closest('.fm-table').querySelector('.md-typeset__scrollwrap').scrollLeft >= n - 1", arg=box["scroll"])
    scrolled = page.evaluate(WIDE)
    assert abs(scrolled["first"] - box["left"]) < 1, "the first column scrolled away"
    assert scrolled["second"] < box["second"] - box["scroll"] / 2, "the other columns did not scroll"
    end = pixel(page, scrolled["right"] - 2, scrolled["y"])
    assert distance(end, background) <= 3, f"a shadow at the end of the table: {end} on {background}"
    context.close()
