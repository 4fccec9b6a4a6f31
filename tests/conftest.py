"""Shared fixtures: the project's paths, the built site, the browser; and the tiers.

Five tiers (markers registered in pyproject.toml):

* unmarked: needs neither a built site nor a browser; ``make check`` runs these
  (``pytest -m "not site and not browser and not firefox and not webkit"``), on a
  fresh clone with only the venv;
* ``site``: reads what ``make site`` built, through the ``site`` fixture
  (``site/``) or the ``generated`` one (``docs/assets/generated/``);
* ``browser``: drives Chromium, through the ``browser`` fixture (``tab`` and
  ``server`` included), against the built site;
* ``firefox`` and ``webkit``: the same site in Debian's Firefox ESR and in
  WebKitGTK, through the ``firefox`` and ``webkit`` fixtures
  (tests/browser_engines.py says how each is driven).

A test that takes one of those fixtures without its marker is a collection
error, so no tier can quietly depend on a build it does not make.
"""

from __future__ import annotations

import functools
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest
from hypothesis import settings

from browser_engines import ARRIVED, INSTANT
from scripts.support.local_site import CHROMIUM, RequestLog, StaticServer, launch
from rules_py.__main__ import _text as cli_text

# Speed is the benchmarks' to measure (scripts/bench/), not a test's: hypothesis's
# 200 ms deadline per example failed test_seeds.py on a busy 2-core machine (347 ms),
# a timed test by another name. Every property test runs without one.
settings.register_profile("fire-mission", deadline=None)
settings.load_profile("fire-mission")

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "site"
SHARED = ROOT.parent / "shared"
GENERATED = ROOT / "docs" / "assets" / "generated"

# fixture -> the markers of which a test that takes it needs one
TIER_FIXTURES = {
    "browser": ("browser",), "firefox": ("firefox",), "webkit": ("webkit",),
    "site": ("site", "browser", "firefox", "webkit"), "generated": ("site", "browser"),
}


def pytest_collection_modifyitems(config, items):
    unmarked = {
        f"{item.nodeid.split('[')[0]} takes the {name!r} fixture: mark it @pytest.mark.{marks[0]}": None
        for item in items
        for name, marks in TIER_FIXTURES.items()
        if name in getattr(item, "fixturenames", ()) and not any(item.get_closest_marker(m) for m in marks)
    }
    if unmarked:
        raise pytest.UsageError("tests outside their tier:\n" + "\n".join(unmarked))


# ---------------------------------------------------------------- each tier's cost
# What a run with --durations reports (make test's do): for each tier, its tests and
# the seconds they took (set-up, call and tear-down), summed over every xdist
# worker, so the sum exceeds the wall time pytest reports below it when the
# workers overlap. A test of two tiers counts in the first of TIERS it has.
TIERS = ("webkit", "firefox", "browser", "site")
_tier_seconds: dict[str, list[float]] = {}


def pytest_runtest_logreport(report):
    tier = next((t for t in TIERS if t in report.keywords), "unmarked")
    count_seconds = _tier_seconds.setdefault(tier, [0, 0.0])
    count_seconds[0] += report.when == "call"
    count_seconds[1] += report.duration


def pytest_terminal_summary(terminalreporter):
    if not _tier_seconds or terminalreporter.config.option.durations is None:  # make test asks for durations
        return
    terminalreporter.section("the cost of each tier")
    for tier in (*TIERS, "unmarked"):
        if tier in _tier_seconds:
            count, seconds = _tier_seconds[tier]
            terminalreporter.write_line(f"{tier}: {count} tests, {seconds:.1f} s in tests")


@pytest.fixture(scope="session")
def site() -> Path:
    """The site as `make site` built it (make test builds it first)."""
    if not (SITE / "index.html").exists():
        pytest.fail("site/ is not built: run `make test`, which builds it first")
    return SITE


@pytest.fixture(scope="session")
def generated() -> Path:
    """docs/assets/generated/ as `make site` built it: the wheel, Pyodide, runtime.json."""
    if not (GENERATED / "runtime.json").exists():
        pytest.fail("docs/assets/generated is not built: run `make site`")
    return GENERATED


# ---------------------------------------------------------------- the browser
# A static server for site/ on a free port and one headless Chromium per
# session (see scripts/support/local_site.py); tests open pages through `Tab`.

# Waiting for the engine: a Pyodide boot takes 3–7 s here, more when the machine is busy.
BOOT_TIMEOUT_MS = 90_000


@pytest.fixture(scope="session")
def server(site):
    with StaticServer(site) as running:
        yield running


@pytest.fixture(scope="session")
def browser():
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"{CHROMIUM} is missing: `make test` installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    chromium = launch(playwright)
    yield chromium
    chromium.close()
    playwright.stop()


@pytest.fixture(scope="session")
def firefox():
    """One Firefox ESR for the session, as a touch screen (tests/browser_engines.py)."""
    from browser_engines import FIREFOX, TOUCH_PREFS, FirefoxEngine

    if not os.access(FIREFOX, os.X_OK):
        pytest.skip(f"{FIREFOX} is missing: `make test` installs Debian's firefox-esr")
    engine = FirefoxEngine(TOUCH_PREFS)
    yield engine
    engine.close()


@pytest.fixture(scope="session")
def webkit():
    """One WebKitGTK MiniBrowser for the session, under xvfb-run (tests/browser_engines.py)."""
    from browser_engines import MINIBROWSER, WEBKIT_DRIVER, WebKitEngine

    for path in (WEBKIT_DRIVER, MINIBROWSER):
        if not os.access(path, os.X_OK):
            pytest.skip(f"{path} is missing: `make test` installs Debian's webkit2gtk-driver and xvfb")
    engine = WebKitEngine()
    yield engine
    engine.close()


@dataclass
class Tab:
    """One browser context and page, with its requests and console errors recorded."""

    context: object
    page: object
    server: StaticServer
    requests: RequestLog
    errors: list[str] = field(default_factory=list)

    def goto(self, path: str, wait_until: str = "domcontentloaded"):
        return self.page.goto(self.server.url(path), wait_until=wait_until)

    def navigate(self, path: str) -> None:
        """Instant navigation: a click on a link to ``path``, which mkdocs-material catches.

        Material ignores a link to the page on show with another query, so
        for one the tab goes by way of the calculators index. Material
        changes the address before it swaps the page's container in, so
        the tab waits for the new container: the old one is marked first
        (browser_engines.INSTANT and ARRIVED, which Firefox's and WebKit's pages run too).

        A tab not on the site yet has nothing to click: it loads the page. A
        module's tests share its tab, and xdist may hand a worker one of them
        without those before it (alone, the roll link tests waited 30 s for a
        page on about:blank).
        """
        url = self.server.url(path)
        if not self.page.url.startswith(self.server.base):
            self.goto(path)
            return
        self.page.wait_for_selector(".md-content")
        here = self.page.evaluate("[location.pathname, location.href]")
        if here[1] == url:
            return
        if here[0] == urlsplit(url).path:
            self.navigate("calculators/")
        self.page.evaluate(INSTANT, url)
        self.page.wait_for_function(ARRIVED, arg=urlsplit(url).path)

    def visit(self, path: str) -> None:
        """Open ``path`` afresh as a reader following a link on the site does: by
        instant navigation once the tab is on the site, so the engine booted on an
        earlier page answers (a page load boots it again: about 6 s of CPU here);
        by a page load otherwise. The page is swapped in anew even when it is the
        one on show (by way of another page), so nothing of a test before carries
        over but what the site itself keeps (its storage, the engine).

        For a test of what a page does given the engine, not of how a page loads."""
        if self.page.url == self.server.url(path):
            self.navigate("calculators/" if urlsplit(self.page.url).path != "/calculators/" else "")
        self.navigate(path)

    def calculator(self, calc_id: str, status: str = "ready"):
        """The calculator's root once its data-status is `status`."""
        selector = f'.calculator[data-calculator="{calc_id}"][data-status="{status}"]:not([data-stale])'
        return self.page.wait_for_selector(selector, timeout=BOOT_TIMEOUT_MS)

    def odds_cells(self, calc_id: str) -> dict[tuple[str, str], str]:
        """(outcome, value) -> data-p of every probability cell; a value shown twice must agree."""
        cells = self.page.eval_on_selector_all(
            f'.calculator[data-calculator="{calc_id}"] :is(.fm-summary, .fm-results):not([data-stale]) [data-p]',
            "els => els.map(e => [e.dataset.outcome, e.dataset.value, e.dataset.p])",
        )
        out: dict[tuple[str, str], str] = {}
        for outcome, value, p in cells:
            assert out.setdefault((outcome, value), p) == p, (outcome, value)
        return out

    def close(self) -> None:
        self.context.close()


# The calculators' browser glue (the page's modules under assets/calc/).
GLUE = re.compile(r"/assets/calc/[^/]+\.mjs(\?.*)?$")


def before_the_glue(tab: "Tab", path: str) -> None:
    """Open ``path`` as a reader sees it before the page's modules arrive: the glue's requests are
    held, never answered (refused, they would be a failure, which the page shows as one:
    docs/assets/head/glue-failed.js), and the page is read once parsed, its head and inline
    scripts run (a module on its way holds DOMContentLoaded and load back)."""
    tab.context.route(GLUE, lambda route: None)
    tab.goto(path, wait_until="commit")
    tab.page.wait_for_function("() => document.readyState !== 'loading'")


def open_tab(browser, server, guard: bool = True, **context_options) -> Tab:
    """A new context: nothing cached, and no service worker unless service_workers="allow"
    (one would answer later tests from its cache). guard=False: see RequestLog."""
    context_options.setdefault("service_workers", "block")
    context = browser.new_context(**context_options)
    requests = RequestLog(context, guard=guard)
    page = context.new_page()
    tab = Tab(context, page, server, requests)
    record_errors(page, tab.errors)
    return tab


def record_errors(page, errors: list[str]) -> None:
    """Append the page's console errors and uncaught errors to ``errors`` as they come."""
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))


@pytest.fixture
def tab(browser, server):
    """A fresh tab for one test."""
    opened = open_tab(browser, server)
    yield opened
    opened.close()


# Every match's box. Playwright's bounding_box() measures one element per call,
# and the page can move between two calls: six face buttons on one row once read
# as two, 0.6 px apart. Measured here in one evaluation, they are one frame's.
RECTS = "els => els.map(e => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height, top: r.top, bottom: r.bottom, left: r.left, right: r.right}; })"


def rects(page, selector: str) -> list[dict]:
    """The box of every element ``selector`` matches, measured at once (RECTS)."""
    return page.eval_on_selector_all(selector, RECTS)


def rect(tab, selector: str) -> dict:
    """The box of the first element ``selector`` matches."""
    found = rects(tab.page, selector)
    assert found, f"nothing matches {selector}"
    return found[0]


# On a phone option A's form folds under its inputs' button (calculator.css, "One screen at
# the table"): a test that changes an input there taps the button first, as a player does.
OPEN_INPUTS = """(root) => {
    const button = document.querySelector(root + ' .fm-inputs-button');
    if (button && button.checkVisibility() && button.getAttribute('aria-expanded') === 'false') button.click();
}"""


def open_inputs(page, root: str) -> None:
    """Opens the form of the calculator ``root`` (a selector) where it is folded under its
    inputs' button, a phone's; elsewhere the form shows already, and nothing is done."""
    page.wait_for_selector(f"{root} .fm-inputs-button", state="attached")
    page.evaluate(OPEN_INPUTS, root)


def cli(*args: str) -> dict:
    """The CLI's JSON answer (python -m rules_py ...), a new copy for each caller."""
    return json.loads(_cli_text(args))


@functools.lru_cache(maxsize=None)
def _cli_text(args: tuple[str, ...]) -> str:
    """The CLI's output, worked out once per session for each set of arguments: the
    same inputs give the same answer. It is the text ``python -m rules_py`` prints
    (its main() writes what _text returns), computed in this process: the browser
    tiers ask for about 130 answers, and a Python start-up each cost a fifth of a
    second of CPU apiece beside the browsers. The command line itself, exit codes
    and errors included, is tested in a process of its own (tests/test_cli.py)."""
    return cli_text(list(args))


def cli_odds(calc_id: str, inputs: dict[str, str] | None = None) -> dict[tuple[str, str], str]:
    """(outcome, value) -> the CLI's exact chance, for every value a player can get
    (the page hides impossible ones): what Tab.odds_cells must read."""
    answer = cli("odds", calc_id, *(f"{k}={v}" for k, v in (inputs or {}).items()))
    return {(o, v): p for o, values in answer["outcomes"].items() for v, p in values.items() if p != "0"}


def query(inputs: dict[str, str]) -> str:
    return "?" + urlencode(inputs) if inputs else ""
