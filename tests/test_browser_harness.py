"""The tests' Chromium as scripts/support/local_site.py launches it.

Chromium keeps only the last ``--disable-features`` on its command line, so
CHROMIUM_ARGS repeats Playwright's own list before its own: if Playwright's
list grows at an upgrade, or Chromium renames the omnibox popup's features,
these say so (the first would quietly re-enable what Playwright turns off,
the second would bring back a renderer per test's tab).
"""

from __future__ import annotations

import pytest

from scripts.support.local_site import NO_OMNIBOX_POPUP

pytestmark = pytest.mark.browser


def disabled_features(browser) -> list[list[str]]:
    """Each --disable-features of the running Chromium's command line, in order, as chrome://version shows it."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto("chrome://version")
        arguments = page.inner_text("#command_line").split()
    finally:
        context.close()
    return [a.split("=", 1)[1].split(",") for a in arguments if a.startswith("--disable-features=")]


def test_the_last_disabled_features_keep_playwrights_own(browser):
    lists = disabled_features(browser)
    assert len(lists) == 2, lists  # Playwright's, then ours
    playwrights, ours = lists
    assert not set(playwrights) - set(ours), f"Playwright also disables {sorted(set(playwrights) - set(ours))}: add them to PLAYWRIGHT_DISABLED_FEATURES"
    assert set(NO_OMNIBOX_POPUP) <= set(ours)


def test_a_tab_brings_no_browser_page_of_its_own(browser):
    context = browser.new_context()
    try:
        context.new_page().goto("about:blank")
        session = browser.new_browser_cdp_session()
        targets = session.send("Target.getTargets")["targetInfos"]
        session.detach()
    finally:
        context.close()
    assert [t["url"] for t in targets if t["type"] == "browser_ui"] == []
