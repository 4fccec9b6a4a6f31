"""The built-in search works offline and finds terms, table names and calculator titles.

Runs Material's own search (its web worker and the prebuilt index) in headless
Chromium against the built site, typing as a user would.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from rules_py import calculators
from rules_py.reference import glossary
from rules_py.systems import SYSTEMS
from rules_py.tables import all_tables

pytestmark = pytest.mark.browser


def _queries() -> list[tuple[str, tuple[str, ...]]]:
    """(query, paths one of which some result must point into)."""
    out = [(c.title, (f"/calculators/{c.id}/",)) for c in calculators()]
    for s in SYSTEMS:
        tables = all_tables(s.package)
        if tables:
            out.append((tables[0].title, (f"/{s.slug}/",)))
    for term in glossary()[:3]:
        # the term's own entry on the glossary page, or the page that defines it
        out.append((term.term, ("/glossary/", "/" + term.page.replace("index.md", "").replace(".md", "/"))))
    return out


@pytest.fixture(scope="module")
def search_page(browser, server):
    context = browser.new_context()
    page = context.new_page()
    base = server.url().rstrip("/")
    outside = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(base) else None)
    page.goto(f"{base}/", wait_until="networkidle")
    yield base, page, outside
    context.close()


@pytest.mark.parametrize("query,where", _queries())
def test_search_finds(search_page, query, where):
    base, page, outside = search_page
    box = page.locator("input.md-search__input")
    box.fill("")
    box.focus()
    page.keyboard.type(query, delay=5)
    # Playwright waits (up to 10 s) for a result that points where it should.
    found = page.locator(", ".join(f'.md-search-result__item a[href*="{w}"]' for w in where))
    expect(found.first, f"searching {query!r} found nothing in {where}").to_be_attached(timeout=10_000)
    assert not outside, f"search requested {outside}"


def test_hovering_a_term_shows_its_definition(search_page):
    base, page, outside = search_page
    page.goto(f"{base}/combat-hq/comms/", wait_until="networkidle")
    term = page.locator("a.glossary-term").first
    term_id = term.get_attribute("href").split("#")[1]
    definition = next(t.definition for t in glossary() if t.id == term_id)
    term.hover()
    tip = page.locator(".md-tooltip2--active")
    tip.wait_for(state="visible", timeout=5000)
    assert tip.inner_text().strip() == definition
    assert not outside
