"""Accessibility of every page's content, light and dark, checked by axe-core.

axe-core (npm, pinned in package.json's devDependencies, tests only) runs
inside Chromium on `.md-content` of every built page, once its calculators
have answered. No violation of serious or critical impact may remain. In
the dark scheme only the rules colour decides run (`COLOUR_RULES`). The
last test shows the check biting: help text faded to Material's <small>
opacity again is found as a contrast failure.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import BOOT_TIMEOUT_MS, ROOT, open_tab

pytestmark = [pytest.mark.browser, pytest.mark.site]

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")


def pages(site: Path) -> list[str]:
    return sorted(
        "" if p.parent == site else p.parent.relative_to(site).as_posix() + "/"
        for p in site.rglob("index.html")
        if "assets" not in p.relative_to(site).parts
    )


# The page as a player meets it: rendered. A wide table that scrolls becomes a focusable
# region two frames after Material mounts the content (docs/assets/scroll-regions.mjs);
# axe run in the frame of an instant navigation's arrival found one not yet marked
# (scrollable-region-focusable, once in a run of the whole tier). Two frames asked for
# after the arrival come after the page's own.
RENDERED = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


# What the dark scheme changes is colour: the page's elements, names and order are the light
# scheme's, which every test that runs axe in dark also checks in light. In dark, axe runs
# the rules colour decides alone (a calculator's page: 0.5 s against 1.4 s for every rule).
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


def violations(tab, root: str = ".md-content") -> list[str]:
    """axe's serious and critical findings in the page's element ``root`` (a selector), as it is
    rendered: every rule in the light scheme, the rules colour decides in the dark one."""
    tab.page.evaluate(RENDERED)
    if not tab.page.evaluate("() => typeof window.axe === 'object'"):
        tab.page.evaluate(AXE.read_text(encoding="utf-8"))
    dark = tab.page.evaluate("() => matchMedia('(prefers-color-scheme: dark)').matches")
    options = {"resultTypes": ["violations"], **({"runOnly": {"type": "rule", "values": COLOUR_RULES}} if dark else {})}
    found = tab.page.evaluate(
        """async ([root, serious, options]) => {
            const result = await axe.run(document.querySelector(root), options);
            return result.violations.filter((v) => serious.includes(v.impact))
                .map((v) => `${v.id} (${v.impact}): ${v.nodes.length} elements, e.g. ${v.nodes[0].target.join(' ')}`);
        }""",
        [root, list(SERIOUS), options],
    )
    return found


@pytest.fixture(scope="module", params=["light", "dark"])
def scheme_tab(request, browser, server):
    tab = open_tab(browser, server, color_scheme=request.param)
    yield tab
    tab.close()


def test_axe_is_installed():
    assert AXE.exists(), "npm ci installs axe-core (package.json devDependencies)"


def test_no_serious_violation_on_any_page(scheme_tab, site):
    found = {}
    scheme_tab.goto("")
    for path in pages(site):
        scheme_tab.navigate(path)  # instant navigation, as a reader goes: axe and the engine load once
        for root in scheme_tab.page.query_selector_all(".calculator[data-calculator]"):
            scheme_tab.page.wait_for_selector(f'.calculator[data-calculator="{root.get_attribute("data-calculator")}"][data-status="ready"]', timeout=BOOT_TIMEOUT_MS)
        scheme_tab.page.wait_for_function("() => document.querySelector('.md-content') !== null")
        problems = violations(scheme_tab)
        if problems:
            found[path or "home"] = problems
    assert not found, found


def test_the_check_finds_faint_help_text(scheme_tab):
    scheme_tab.goto("calculators/chq-comms-check/")
    scheme_tab.calculator("chq-comms-check")
    assert violations(scheme_tab) == []
    scheme_tab.page.add_style_tag(content=".md-typeset .fm-help { opacity: 0.5 !important; }")
    assert any(v.startswith("color-contrast") for v in violations(scheme_tab))
