"""Print each quick-reference sheet of the built site to A4 PDFs: the sheet and its large print.

Serves ``site/`` on a free loopback port, opens ``sheets/<system>/`` in
Debian's headless Chromium through Playwright, and writes
``site/sheets/<system>.pdf`` and ``site/sheets/<system>-large-print.pdf`` with
``page.pdf()`` (print media, A4, the site's print stylesheet, always at 100%:
a sheet grows a page rather than shrink its type). The large print is the same
page with the ``fm-large-print`` class on its root element, which raises the
stylesheet's one sheet type size (``docs/assets/fire-mission.css``).

One way, with explicit inputs: the page counts the site quotes (the home page
and the sheets index, ``scripts/build/build_pages.py``) are not measured from an
earlier print but stated in each sheet's front matter (``pages`` and
``large_print_pages`` in ``docs/sheets/<system>.md``), which the page build
reads before any PDF exists. This step checks every PDF against its stated
count and fails, naming the sheet and both counts, when they differ: a change
to a sheet or to its print styles that moves a page break says so at the
build, and the front matter is corrected by hand. Nothing earlier is run
again. Run after ``mkdocs build``: ``python -m scripts.build.build_sheets_pdf``.

The sheet is printed from a temporary local server, whose address must not end
up in the PDF: before printing, every link to the site is pointed at the
site's own address (the page's canonical link, there when the site was built
with SITE_URL), or, without one, is made plain text.

Paper carries the sheet alone. The print stylesheet hides the web page's
chrome, notices and controls (``docs/assets/fire-mission.css``), and this step
checks it: the text of every notice and control on the page as it is printed
(the offline and new-version bars, the theme's banner and dialogs, buttons,
status lines) must not be in the PDF's text (``pdftotext``), or the build
fails naming the PDF and the text. The print runs with service workers
blocked: it serves the site before its service worker is built
(``scripts/build/build_sw.mjs`` comes last), so a page registering one there found
no ``sw.js`` and said, on every page of every PDF, that no offline copy could
be made.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

from scripts.build.build_pages import sheet_pages
from scripts.build.html_elements import elements
from scripts.support.local_site import StaticServer, launch
from scripts.support.page_functions import page_function
from playwright.sync_api import Page, sync_playwright

from rules_py.systems import SYSTEMS

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "site"
LARGE = "fm-large-print"  # the class that gives a sheet its large print (fire-mission.css)


# What the build runs in a sheet's page, each in its own checked file (scripts/build/page/).
PAGE = Path(__file__).resolve().parent / "page"
UNLINK_LOCAL = page_function(PAGE / "unlink_local.mjs")  # links to the temporary server: onto the site, or plain text
LARGE_PRINT = page_function(PAGE / "large_print.mjs")  # the large print's class on the root element
WEB_ONLY = page_function(PAGE / "web_only_texts.mjs")  # what of the web page must never reach paper



def site_address(site: Path, slug: str) -> str | None:
    """The address the site was built for (SITE_URL), from the sheet page's canonical link."""
    html = (site / "sheets" / slug / "index.html").read_text(encoding="utf-8")
    hrefs = [e.attrs.get("href") for e in elements(html) if e.tag == "link" and e.attrs.get("rel") == "canonical"]
    return hrefs[0].removesuffix(f"sheets/{slug}/") if hrefs and hrefs[0] else None


# The dates Chromium writes into a PDF's document information: the time it printed.
PRINT_DATES = re.compile(rb"/(?:CreationDate|ModDate)\s*\((?:[^()\\]|\\.)*\)")


def undated(pdf: bytes) -> bytes:
    """The PDF without the dates it was printed at, so the same sheet prints to the
    same bytes on every build (guides/publishing.md). Each date is overwritten with
    spaces (whitespace within its dictionary), so no object moves and the
    cross-reference table stays true. Not the commit's date: a sheet that did not
    change would then change with every commit, and every returning player's
    offline copy would fetch the eight PDFs again."""
    out, count = PRINT_DATES.subn(lambda m: b" " * len(m.group(0)), pdf)
    if count != 2:
        raise SystemExit(f"build_sheets_pdf: expected Chromium's CreationDate and ModDate in a PDF, found {count} dates")
    return out


def page_count(pdf: bytes) -> int:
    """Pages in a PDF that Chromium wrote: its page objects, not the /Pages tree."""
    return len(re.findall(rb"/Type\s*/Page(?![a-z])", pdf))


def pdf_text(pdf: bytes) -> str:
    """The PDF's text as pdftotext reads it, its whitespace collapsed (a notice wraps over lines)."""
    out = subprocess.run(["pdftotext", "-raw", "-", "-"], input=pdf, capture_output=True, check=True).stdout
    return " ".join(out.decode("utf-8").split())


def web_page_on_paper(pdf: bytes, web_only: list[str]) -> list[str]:
    """The texts of the page's notices and controls (``web_only``) that the PDF carries."""
    text = pdf_text(pdf)
    return [t for t in web_only if re.search(rf"(?<!\w){re.escape(t)}(?!\w)", text)]


class WebPageOnPaper(ValueError):
    """A page printed with some of its notices or controls on paper."""


def sheets(site: Path = SITE) -> list[str]:
    return [s.slug for s in SYSTEMS if (site / "sheets" / s.slug / "index.html").exists()]


def pdf_name(slug: str, large: bool = False) -> str:
    return f"{slug}-large-print.pdf" if large else f"{slug}.pdf"


def print_pdf(
    page: Page,
    url: str,
    scale: float = 1.0,
    width: str | None = None,
    links: tuple[str, str | None] | None = None,
    large: bool = False,
    before: Iterable[tuple[str, object]] = (),
) -> bytes:
    """One page of the site printed as Chromium prints it, less its dates (:func:`undated`): print media, A4 unless ``width`` is given.

    ``links``: (the temporary server's address, the site's address or None),
    to point the page's links away from the temporary server first; ``large``:
    the sheet's large print; ``before``: (function, argument) pairs evaluated on the
    page once it has loaded (the tests put things on it). Raises WebPageOnPaper if the PDF carries any of the
    web page's notices or controls."""
    page.goto(url, wait_until="load")
    for function, argument in before:
        page.evaluate(function, argument)
    if links:
        page.evaluate(UNLINK_LOCAL, list(links))
    if large:
        page.evaluate(LARGE_PRINT, LARGE)
    page.emulate_media(media="print")
    web_only = page.evaluate(WEB_ONLY)  # read as the page is printed
    if width:
        # The stylesheet's @page size decides the layout (Chromium would lay an A4 page out and
        # shrink it onto narrower paper), so a narrower page is asked for there.
        page.add_style_tag(content=f"@page {{ size: {width} 297mm; }}")
    pdf = undated(page.pdf(format="A4", print_background=False, prefer_css_page_size=True, scale=scale))
    found = web_page_on_paper(pdf, web_only)
    if found:
        raise WebPageOnPaper(f"{url} prints the web page's own notices or controls: {found}")
    return pdf


def main(site: Path = SITE, slugs: list[str] | None = None) -> None:
    """Print the sheets of the site built in ``site`` (all of them, or ``slugs``), each at its
    stated page count; a sheet that prints at another count fails the build."""
    slugs = sheets(site) if slugs is None else slugs
    printed: dict[str, bytes] = {}
    wrong = []
    with StaticServer(site) as server, sync_playwright() as p:
        browser = launch(p)
        # No service worker: sw.js is built after this step (see the docstring).
        page = browser.new_context(service_workers="block").new_page()
        for slug in slugs:
            stated = sheet_pages(slug)
            for large, key in ((False, "pages"), (True, "large_print_pages")):
                name = pdf_name(slug, large)
                try:
                    pdf = print_pdf(page, server.url(f"sheets/{slug}/"), links=(server.base, site_address(site, slug)), large=large)
                except WebPageOnPaper as error:
                    wrong.append(f"sheets/{name}: {error}")
                    continue
                printed[name] = pdf
                print(f"sheets/{name}: {page_count(pdf)} pages, {len(pdf)} bytes")
                if page_count(pdf) != stated[key]:
                    n = page_count(pdf)
                    wrong.append(f"sheets/{name} prints on {n} page{'s' if n != 1 else ''}, but docs/sheets/{slug}.md states {key}: {stated[key]}")
        browser.close()
    if wrong:
        raise SystemExit("\n".join(wrong) + "\ncorrect the front matter (the pages quote it), the sheet, or the print stylesheet")
    for name, pdf in printed.items():
        (site / "sheets" / name).write_bytes(pdf)


if __name__ == "__main__":
    # python -m scripts.build.build_sheets_pdf [SITE_DIR [SLUG...]]
    main(Path(sys.argv[1]), sys.argv[2:] or None) if len(sys.argv) > 1 else main()
