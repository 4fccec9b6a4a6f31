"""Print each quick-reference sheet of the built site to an A4 PDF.

Serves ``site/`` on a free loopback port, opens ``sheets/<system>/`` in
Debian's headless Chromium through Playwright, and writes
``site/sheets/<system>.pdf`` with ``page.pdf()`` (print media, A4, the site's
print stylesheet). A sheet must fit on at most two pages: one that runs over
is printed again at a slightly smaller scale, down to 75%, like a printer's
"fit to page". Run after ``mkdocs build``: ``python scripts/build_sheets_pdf.py``.

The sheet is printed from a temporary local server, whose address must not end
up in the PDF: before printing, every link to the site is pointed at the
site's own address (the page's canonical link, there when the site was built
with SITE_URL), or, without one, is made plain text.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from playwright.sync_api import sync_playwright  # noqa: E402

from rules_py.systems import SYSTEMS  # noqa: E402
from local_site import StaticServer, launch  # noqa: E402

SITE = ROOT / "site"
MAX_PAGES = 2
SCALES = (1.0, 0.95, 0.9, 0.85, 0.8, 0.75)


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


def main(site: Path = SITE, slugs: list[str] | None = None) -> None:
    """Print the sheets of the site built in ``site`` (all of them, or ``slugs``)."""
    slugs = sheets(site) if slugs is None else slugs
    with StaticServer(site) as server, sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page()
        for slug in slugs:
            page.goto(server.url(f"sheets/{slug}/"), wait_until="load")
            page.evaluate(UNLINK_LOCAL, [server.base, site_address(site, slug)])
            page.emulate_media(media="print")
            out = site / "sheets" / f"{slug}.pdf"
            for scale in SCALES:
                pdf = page.pdf(format="A4", print_background=False, prefer_css_page_size=True, scale=scale)
                if page_count(pdf) <= MAX_PAGES:
                    break
            else:
                raise SystemExit(f"sheets/{slug}: more than {MAX_PAGES} pages even at {SCALES[-1]:.0%}")
            out.write_bytes(pdf)
            print(f"{out}: {page_count(pdf)} pages at {scale:.0%}, {len(pdf)} bytes")
        browser.close()


if __name__ == "__main__":
    # python scripts/build_sheets_pdf.py [SITE_DIR [SLUG...]]
    main(Path(sys.argv[1]), sys.argv[2:] or None) if len(sys.argv) > 1 else main()
