"""Print each quick-reference sheet of the built site to an A4 PDF.

Serves ``site/`` on a free loopback port, opens ``sheets/<system>/`` in
Debian's headless Chromium through Playwright, and writes
``site/sheets/<system>.pdf`` with ``page.pdf()`` (print media, A4, the site's
print stylesheet). A sheet must fit on at most two pages: one that runs over
is printed again at a slightly smaller scale, down to 75%, like a printer's
"fit to page". Run after ``mkdocs build``: ``python scripts/build_sheets_pdf.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

from local_site import StaticServer, launch
from playwright.sync_api import sync_playwright

from rules_py.systems import SYSTEMS

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "site"
MAX_PAGES = 2
SCALES = (1.0, 0.95, 0.9, 0.85, 0.8, 0.75)


def page_count(pdf: bytes) -> int:
    """Pages in a PDF that Chromium wrote: its page objects, not the /Pages tree."""
    return len(re.findall(rb"/Type\s*/Page(?![a-z])", pdf))


def sheets() -> list[str]:
    return [s.slug for s in SYSTEMS if (SITE / "sheets" / s.slug / "index.html").exists()]


def main() -> None:
    slugs = sheets()
    with StaticServer(SITE) as server, sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page()
        for slug in slugs:
            page.goto(server.url(f"sheets/{slug}/"), wait_until="load")
            page.emulate_media(media="print")
            out = SITE / "sheets" / f"{slug}.pdf"
            for scale in SCALES:
                pdf = page.pdf(format="A4", print_background=False, prefer_css_page_size=True, scale=scale)
                if page_count(pdf) <= MAX_PAGES:
                    break
            else:
                raise SystemExit(f"sheets/{slug}: more than {MAX_PAGES} pages even at {SCALES[-1]:.0%}")
            out.write_bytes(pdf)
            print(f"{out.relative_to(ROOT)}: {page_count(pdf)} pages at {scale:.0%}, {len(pdf)} bytes")
        browser.close()


if __name__ == "__main__":
    main()
