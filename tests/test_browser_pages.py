"""The site's pages in a browser: instant navigation, requests, and an engine that cannot start.

* Instant navigation (mkdocs-material) from the home page to a rules page with
  an embedded calculator and on to a calculator page: each computes, the page
  is never reloaded and the engine boots once.
* A route guard records every request: none leaves 127.0.0.1 on any page, and
  pages without a calculator fetch nothing of the engine.
* A server that never delivers Pyodide gives a clear message, not a spinner.

Time limits are run through with Playwright's clock (``page.clock``), once the
condition they guard is there, never waited for.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest

import rules_py
from scripts.support.local_site import StaticServer
from conftest import BOOT_TIMEOUT_MS, cli_odds, open_tab, record_errors

pytestmark = pytest.mark.browser

CALCS = rules_py.calculators()


def site_pages(site: Path) -> list[tuple[str, bool]]:
    """(path, has a calculator) for every page of the built site."""
    pages = []
    for html in sorted(site.rglob("index.html")):
        path = html.parent.relative_to(site).as_posix()
        path = "" if path == "." else path + "/"
        # A live calculator, not a sheet's printed odds (cells that carry data-calculator too).
        pages.append((path, '<div class="calculator" data-calculator="' in html.read_text(encoding="utf-8")))
    return pages


def click_link(tab, href_suffix: str, scope: str = "") -> None:
    """Click the first visible link whose href ends with href_suffix (a reader's click)."""
    link = tab.page.locator(f'{scope} a[href$="{href_suffix}"]:visible').first
    for e in tab.page.query_selector_all(".calculator"):
        e.evaluate("e => e.dataset.stale = 'true'")
    link.click()
    tab.page.wait_for_function("s => location.pathname.endsWith('/' + s)", arg=href_suffix.lstrip("./"))


def test_instant_navigation_home_to_rules_page_to_calculator_page(tab, site):
    embedded = next((c for c in CALCS if c.page), None)
    if embedded is None:
        pytest.skip("no calculator is embedded in a rules page")
    rules_path = embedded.page.removesuffix(".md").removesuffix("index") + "/"
    rules_path = rules_path.replace("//", "/")
    tab.goto("")
    tab.page.wait_for_load_state("networkidle")
    tab.page.evaluate("window.__sameDocument = true")
    assert tab.requests.pyodide() == []

    # Home -> the rules page, by the navigation sidebar.
    click_link(tab, rules_path, ".md-sidebar--primary")
    tab.calculator(embedded.id)
    assert tab.odds_cells(embedded.id) == cli_odds(embedded.id)
    # The build's answer is shown: a reader of the rule fetches nothing of the engine.
    assert tab.page.get_attribute(f'.calculator[data-calculator="{embedded.id}"]', "data-source") == "prerendered"
    assert tab.requests.pyodide() == []

    # Rules page -> the calculators index -> another calculator's own page.
    other = next((c for c in CALCS if c.id != embedded.id), embedded)
    click_link(tab, "calculators/", ".md-sidebar--primary")
    click_link(tab, f"{other.id}/", ".md-content")
    tab.calculator(other.id)
    assert tab.odds_cells(other.id) == cli_odds(other.id)

    assert tab.page.evaluate("window.__sameDocument") is True  # never a full page load
    # On a calculator's own page the engine starts once the page is idle.
    tab.page.wait_for_function("() => window.fireMissionEngine.state === 'ready'", timeout=BOOT_TIMEOUT_MS)
    paths = [urlsplit(u).path for u in tab.requests.urls]
    assert paths.count("/assets/calc/worker.mjs") == 1
    # The WebAssembly the worker chose (as it is on a fast link, its .xz on a slow one) was downloaded once.
    tab.page.wait_for_function("() => window.fireMissionEngine.files !== undefined", timeout=BOOT_TIMEOUT_MS)
    (wasm,) = [f for f in tab.page.evaluate("fireMissionEngine.files") if f.startswith("pyodide/pyodide.asm.wasm")]
    assert paths.count(f"/assets/generated/{wasm}") == 1
    assert tab.errors == []


def test_pages_without_a_calculator_fetch_nothing_of_the_engine(tab, site):
    pages = [path for path, has_calculator in site_pages(site) if not has_calculator]
    assert "" in pages  # the home page
    # A few at a time, each in a page of its own in the tab's context (whose
    # requests, workers' included, the route guard records): the half second
    # without a request that each waits for (the engine would start after first
    # paint) passes for all of them at once.
    batch_size = 5
    for start in range(0, len(pages), batch_size):
        batch = pages[start:start + batch_size]
        tab.requests.clear()
        opened = []
        for path in batch:
            if opened:
                page = tab.context.new_page()
                record_errors(page, tab.errors)
            else:
                page = tab.page
            page.goto(tab.server.url(path), wait_until="commit")
            opened.append(page)
        for page in opened:
            page.wait_for_load_state("networkidle")
        assert tab.requests.pyodide() == [], batch
        assert tab.requests.outside() == [], batch
        for page in opened[1:]:
            page.close()
    assert tab.errors == []


def test_no_request_leaves_the_site_on_pages_with_a_calculator(tab, site):
    pages = [path for path, has_calculator in site_pages(site) if has_calculator]
    assert pages
    tab.goto(pages[0])
    for path in pages:
        tab.navigate(path)
        shown = tab.page.eval_on_selector_all(".calculator[data-calculator]:not([data-stale])", "els => els.map(e => e.dataset.calculator)")
        assert shown, path  # the new page's calculators, not none because the page had not arrived
        for calc_id in shown:
            tab.calculator(calc_id)
    assert tab.requests.outside() == []
    assert tab.requests.blocked == []
    assert tab.errors == []


def test_engine_that_never_arrives_times_out_with_a_clear_message(browser, site):
    wasm = ("/assets/generated/pyodide/pyodide.asm.wasm", "/assets/generated/pyodide/pyodide.asm.wasm.xz")
    with StaticServer(site, stall=wasm) as stalled:
        tab = open_tab(browser, stalled)
        try:
            tab.page.clock.install()  # the page's timers: the boot's time limit is run through, not waited for
            calc = CALCS[0]
            tab.goto(f"calculators/{calc.id}/?flak_hits=1")  # an answer the build did not embed: the engine must give it
            # The engine is starting and its worker has asked for the WebAssembly, which never comes.
            tab.page.wait_for_function("() => window.fireMissionEngine?.state === 'starting'", timeout=BOOT_TIMEOUT_MS)
            for _ in range(10_000):  # each call lets the server's thread answer the worker's requests
                if set(wasm) & set(stalled.requested):
                    break
                tab.page.evaluate("0")
            assert set(wasm) & set(stalled.requested)
            assert tab.page.get_attribute(f'.calculator[data-calculator="{calc.id}"]', "data-status") == "loading"
            tab.page.clock.fast_forward(60_000)  # the boot's limit (calculator.mjs, BOOT_TIMEOUT_MS)
            root = tab.calculator(calc.id, "error")
            message = root.query_selector(".fm-engine").inner_text()
            assert "did not start within 60 seconds" in message
            assert "its files have not all arrived" in message
            assert tab.odds_cells(calc.id) == {}
        finally:
            tab.close()


def test_a_host_that_sends_the_engine_files_with_other_types_still_answers(browser, site):
    # The worker inflates the .xz files itself and gives the WebAssembly its type:
    # a host that knows neither .xz nor .wasm (or gets them wrong) serves a working engine.
    with StaticServer(site, wrong_types={".xz": "text/plain", ".wasm": "text/plain", ".zip": "text/html"}) as wrong:
        tab = open_tab(browser, wrong)
        try:
            calc = CALCS[0]
            inputs = {"flak_hits": "1"}  # an answer the build did not embed: the engine must give it
            tab.goto(f"calculators/{calc.id}/?flak_hits=1")
            tab.calculator(calc.id)
            assert tab.page.get_attribute(f'.calculator[data-calculator="{calc.id}"]', "data-source") == "engine"
            assert tab.odds_cells(calc.id) == cli_odds(calc.id, inputs)
        finally:
            tab.close()


def test_a_calculator_page_opened_with_inputs_starts_its_engine_from_its_head(tab):
    # Inputs in the address the build did not answer: the page's head starts the
    # engine's worker before calculator.mjs has arrived, and the engine takes it over,
    # with what it said meanwhile, and answers as the CLI does.
    calc = CALCS[0]
    tab.goto(f"calculators/{calc.id}/?flak_hits=1")
    tab.calculator(calc.id)
    assert tab.odds_cells(calc.id) == cli_odds(calc.id, {"flak_hits": "1"})
    assert tab.page.evaluate("fireMissionEngine.startedInHead") is True
    tab.page.wait_for_function("() => fireMissionEngine.state === 'ready'", timeout=BOOT_TIMEOUT_MS)
    # Without inputs the build's answer shows, and the engine starts later, from calculator.mjs.
    tab.goto(f"calculators/{calc.id}/")
    tab.calculator(calc.id)
    tab.page.wait_for_function("() => fireMissionEngine.state === 'ready'", timeout=BOOT_TIMEOUT_MS)
    assert tab.page.evaluate("fireMissionEngine.startedInHead") is False
    assert tab.errors == []


def test_page_opened_from_a_file_says_it_needs_a_server(tab, site):
    calc = CALCS[0]
    tab.page.goto((site / "calculators" / calc.id / "index.html").as_uri())
    placeholder = tab.page.wait_for_selector(f'.calculator[data-calculator="{calc.id}"] .fm-placeholder', timeout=BOOT_TIMEOUT_MS)
    assert "served over HTTP" in placeholder.inner_text()
