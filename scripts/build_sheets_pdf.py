"""Print each quick-reference sheet of the built site to an A4 PDF.

Serves ``site/`` on a free loopback port, opens ``sheets/<system>/`` in
Debian's headless Chromium through Playwright, and writes
``site/sheets/<system>.pdf`` with ``page.pdf()`` (print media, A4, the site's
print stylesheet). Like a printer's "fit to page", a sheet is printed at the
scale, from 100% down to 80%, that gives it the fewest pages (the largest such
scale); more than two pages even at 80% fails the build.

The pages say how many pages each PDF has (the home page and the sheets
index, see ``scripts/build_pages.py``), and those counts are measured here:
they are written to ``build/sheet-pages.json``, and when they differ from
the ones the site was built with, the pages and the site are built again
before the PDFs are written (the sheets themselves do not quote their page
counts, so a second print is never needed). Run after ``mkdocs build``:
``python scripts/build_sheets_pdf.py``.

The sheet is printed from a temporary local server, whose address must not end
up in the PDF: before printing, every link to the site is pointed at the
site's own address (the page's canonical link, there when the site was built
with SITE_URL), or, without one, is made plain text.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from local_site import StaticServer, launch
from playwright.sync_api import sync_playwright

from rules_py.systems import SYSTEMS

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "site"
SHEET_PAGES = ROOT / "build" / "sheet-pages.json"
MAX_PAGES = 2
SCALES = (1.0, 0.95, 0.9, 0.85, 0.8)


# Links to the temporary server: onto the site's address, or plain text without one.
UNLINK_LOCAL = """([local, site]) => {
    for (const a of document.querySelectorAll("a[href]")) {
        if (!a.href.startsWith(local)) continue;
        if (site) a.href = site + a.href.slice(local.length);
        else a.removeAttribute("href");
    }
}"""


def site_address(site: Path, slug: str) -> str | None:
    """The address the site was built for (SITE_URL), from the sheet page's canonical link."""
    html = (site / "sheets" / slug / "index.html").read_text(encoding="utf-8")
    match = re.search(r'<link rel="canonical" href="([^"]+)"', html)
    return match.group(1).removesuffix(f"sheets/{slug}/") if match else None


def page_count(pdf: bytes) -> int:
    """Pages in a PDF that Chromium wrote: its page objects, not the /Pages tree."""
    return len(re.findall(rb"/Type\s*/Page(?![a-z])", pdf))


def sheets(site: Path = SITE) -> list[str]:
    return [s.slug for s in SYSTEMS if (site / "sheets" / s.slug / "index.html").exists()]


def print_pdf(page, url: str, scale: float = 1.0, width: str | None = None, links: tuple[str, str | None] | None = None) -> bytes:
    """One page of the site printed as Chromium prints it: print media, A4 unless ``width`` is given.

    ``links``: (the temporary server's address, the site's address or None),
    to point the page's links away from the temporary server first."""
    page.goto(url, wait_until="load")
    if links:
        page.evaluate(UNLINK_LOCAL, list(links))
    page.emulate_media(media="print")
    if width:
        # The stylesheet's @page size decides the layout (Chromium would lay an A4 page out and
        # shrink it onto narrower paper), so a narrower page is asked for there.
        page.add_style_tag(content=f"@page {{ size: {width} 297mm; }}")
    return page.pdf(format="A4", print_background=False, prefer_css_page_size=True, scale=scale)


def fit(page, url: str, links: tuple[str, str | None] | None = None) -> tuple[bytes, float]:
    """The sheet at the largest scale that gives it its fewest pages."""
    printed = [(print_pdf(page, url, scale, links=links), scale) for scale in SCALES]
    fewest = min(page_count(pdf) for pdf, _ in printed)
    return next((pdf, scale) for pdf, scale in printed if page_count(pdf) == fewest)


def pages_built_with() -> dict[str, int]:
    """The page counts the built sheets index quotes (data-sheet-pages on each PDF link)."""
    index = SITE / "sheets" / "index.html"
    found = re.findall(r'href="([\w-]+)\.pdf" data-sheet-pages="(\d*)"', index.read_text(encoding="utf-8"))
    return {slug: int(n) for slug, n in found if n}


def rebuild_pages() -> None:
    """The generated pages and the site again, as the Makefile builds them (mkdocs empties site/ first)."""
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build_pages.py")], cwd=ROOT, check=True)
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet"], cwd=ROOT, check=True)


def main(site: Path = SITE, slugs: list[str] | None = None) -> None:
    """Print the sheets of the site built in ``site`` (all of them, or ``slugs``).

    Only the whole default build has its page counts checked against the pages."""
    whole = site == SITE and slugs is None
    slugs = sheets(site) if slugs is None else slugs
    printed: dict[str, bytes] = {}
    with StaticServer(site) as server, sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page()
        for slug in slugs:
            pdf, scale = fit(page, server.url(f"sheets/{slug}/"), (server.base, site_address(site, slug)))
            if page_count(pdf) > MAX_PAGES:
                raise SystemExit(f"sheets/{slug}: more than {MAX_PAGES} pages even at {SCALES[-1]:.0%}")
            printed[slug] = pdf
            print(f"sheets/{slug}.pdf: {page_count(pdf)} pages at {scale:.0%}, {len(pdf)} bytes")
        browser.close()
    if whole:
        counts = {slug: page_count(pdf) for slug, pdf in printed.items()}
        SHEET_PAGES.parent.mkdir(parents=True, exist_ok=True)
        SHEET_PAGES.write_text(json.dumps(counts, indent=1) + "\n", encoding="utf-8")
        if counts != pages_built_with():
            print(f"page counts {counts} differ from the ones the pages quote: building the pages again")
            rebuild_pages()
    for slug, pdf in printed.items():
        (site / "sheets" / f"{slug}.pdf").write_bytes(pdf)


if __name__ == "__main__":
    # python scripts/build_sheets_pdf.py [SITE_DIR [SLUG...]]
    main(Path(sys.argv[1]), sys.argv[2:] or None) if len(sys.argv) > 1 else main()
