"""Glossary terms on a touch screen: a tap shows the definition over the text,
under the term, with a link to the full entry, and does not leave the rule; a
mouse keeps the link and its hover tooltip (docs/assets/term-popover.mjs).
Where the definition lies, and that no word moves, is measured in
tests/test_browser_layout.py."""

from __future__ import annotations

import pytest

from conftest import open_tab
from rules_py.reference import glossary

pytestmark = pytest.mark.browser

PHONE = dict(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
DEFINITIONS = {t.id: t.definition for t in glossary()}


def first_term(tab):
    term = tab.page.locator("article a.glossary-term").first
    term.scroll_into_view_if_needed()
    return term, term.get_attribute("href").rsplit("#", 1)[1]


def test_a_tapped_term_shows_its_definition_without_leaving_the_page(browser, server):
    tab = open_tab(browser, server, **PHONE)
    try:
        tab.goto("combat-hq/comms/")
        term, term_id = first_term(tab)
        here = tab.page.url
        term.tap()
        popover = tab.page.wait_for_selector(".fm-term-popover")
        assert tab.page.url == here
        assert popover.query_selector(".fm-term-definition").text_content() == DEFINITIONS[term_id]
        assert term.get_attribute("aria-expanded") == "true"
        # The theme's tooltip does not show an empty box on the term as well.
        assert tab.page.evaluate("() => [...document.querySelectorAll('.md-tooltip2')].every(t => getComputedStyle(t).display === 'none' || !t.classList.contains('md-tooltip2--active'))")
        # A tap elsewhere folds it away; a second tap on the term as well.
        tab.page.locator("article h1").tap()
        tab.page.wait_for_selector(".fm-term-popover", state="detached")
        term.tap()
        tab.page.wait_for_selector(".fm-term-popover")
        term.tap()
        tab.page.wait_for_selector(".fm-term-popover", state="detached")
        # Its link goes to the full entry.
        term.tap()
        tab.page.locator(".fm-term-entry").tap()
        tab.page.wait_for_function("id => location.pathname.endsWith('/glossary/') && location.hash === '#' + id", arg=term_id)
        # Instant navigation to another rule page: terms there work the same.
        tab.navigate("konflikt47/air-strikes/")
        term, term_id = first_term(tab)
        here = tab.page.url
        term.tap()
        popover = tab.page.wait_for_selector(".fm-term-popover")
        assert tab.page.url == here and popover.query_selector(".fm-term-definition").text_content() == DEFINITIONS[term_id]
        assert tab.errors == []
    finally:
        tab.close()


def test_with_a_mouse_a_term_is_a_link_with_a_tooltip(browser, server):
    tab = open_tab(browser, server, viewport={"width": 1280, "height": 900})
    try:
        tab.goto("combat-hq/comms/")
        term, term_id = first_term(tab)
        term.hover()
        tab.page.wait_for_selector(".md-tooltip2--active")
        assert DEFINITIONS[term_id] in tab.page.locator(".md-tooltip2--active").text_content()
        term.click()
        tab.page.wait_for_function("id => location.pathname.endsWith('/glossary/') && location.hash === '#' + id", arg=term_id)
        assert tab.page.locator(".fm-term-popover").count() == 0
    finally:
        tab.close()
