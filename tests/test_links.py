"""Every internal link and anchor of the built site resolves.

mkdocs --strict (with validation.anchors) already checks Markdown links; this
also covers links written as HTML (table captions, glossary term links, the
calculator embeds) and the anchors of headings and tables.
"""

from __future__ import annotations

import functools
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urldefrag, urlparse

import pytest

pytestmark = pytest.mark.site


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: set[str] = set()
        self.hrefs: list[str] = []
        self.headings_without_id: list[str] = []
        self._heading = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if "name" in attrs and tag == "a":
            self.ids.add(attrs["name"])
        if tag in ("a", "link") and attrs.get("href"):
            self.hrefs.append(attrs["href"])
        if tag in ("h2", "h3", "h4") and "id" not in attrs:
            self.headings_without_id.append(tag)


@functools.cache
def parse(path: Path) -> Links:
    """A page's links, ids and headings, parsed once per run (the built site does not change under the tests)."""
    parser = Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def resolve(site: Path, page: Path, href: str) -> tuple[Path, str] | None:
    parsed = urlparse(href)
    if parsed.scheme or parsed.netloc or href.startswith(("mailto:", "javascript:")):
        return None
    target, fragment = urldefrag(href)
    base = page.parent
    if target.startswith("/"):  # the 404 page links from the site root
        path = (site / unquote(target).lstrip("/")).resolve()
    else:
        path = (base / unquote(target)).resolve() if target else page
    if path.is_dir():
        path = path / "index.html"
    return path, fragment


def pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if "assets" not in p.relative_to(site).parts)


def test_every_internal_link_and_anchor_resolves(site):
    broken = []
    for page in pages(site):
        links = parse(page)
        for href in links.hrefs:
            resolved = resolve(site, page, href)
            if resolved is None:
                continue
            path, fragment = resolved
            if not path.exists():
                broken.append(f"{page.relative_to(site)}: {href} (no such file)")
                continue
            if fragment and path.suffix == ".html":
                ids = parse(path).ids
                if unquote(fragment) not in ids:
                    broken.append(f"{page.relative_to(site)}: {href} (no #{fragment})")
    assert not broken, "\n".join(broken)


def test_no_link_leaves_the_site_except_credits(site):
    outside = []
    for page in pages(site):
        for href in parse(page).hrefs:
            parsed = urlparse(href)
            if parsed.scheme in ("http", "https") and parsed.hostname not in ("127.0.0.1", "squidfunk.github.io", "www.mkdocs.org"):
                outside.append(f"{page.relative_to(site)}: {href}")
    assert not outside, "\n".join(outside)


def test_every_heading_has_an_anchor(site):
    for page in pages(site):
        assert not parse(page).headings_without_id, page
