"""The offline copy when the host or the player does what a phone meets (issue 25, findings 3, 4 and 9).

* A host without one of the sheets' PDFs: the offline copy is made without it,
  and every page and calculator works with the network cut. A host without a
  page (a file the precache needs): no copy can be made, and the page says so.
* A tab closed right after its first answer, before the page has had the
  service worker keep the engine: the service worker keeps what the browser
  holds when it installs, and the next visit answers with the network cut.
  And a first visit closed the moment it answers, the network cut at once:
  the service worker installed while the engine started, and keeps what the
  browser holds with no network; another calculator answers. A file the
  service worker never kept is answered, offline, from the browser's cache.
* A new build whose pages changed: a returning player who accepts the offer
  of the new version sees the new page on that first reload.

Each test has its own browser context (service workers outlive a page) and,
when it changes files, its own copy of the site.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from conftest import BOOT_TIMEOUT_MS, ROOT, Tab, cli_odds, open_tab, query, record_errors
from scripts.support.local_site import CHROMIUM, CHROMIUM_ARGS, RequestLog, StaticServer

pytestmark = [pytest.mark.browser, pytest.mark.site]

CALC = "chq-comms-check"
# Inputs the build did not answer: only the engine can.
INPUTS = {"nation": "soviet"}
ENGINE_PAGE = f"calculators/{CALC}/{query(INPUTS)}"
SETTLED = "() => ['engine', 'failed'].includes(document.documentElement.dataset.offline)"


def offline_tab(browser, server, **options):
    # No route guard: it would turn off the HTTP cache, which the first visit's engine lies in.
    return open_tab(browser, server, guard=False, service_workers="allow", **options)


def engine_cache_paths(tab) -> list[str]:
    return tab.page.evaluate(
        """async () => {
            const names = (await caches.keys()).filter((n) => n.startsWith('fire-mission-engine-'));
            const out = [];
            for (const name of names) for (const r of await (await caches.open(name)).keys()) out.push(new URL(r.url).pathname);
            return out.sort();
        }"""
    )


def test_a_host_without_one_pdf_still_gives_an_offline_copy_without_it(browser, site):
    missing = "/sheets/konrad.pdf"
    with StaticServer(site, missing=(missing,)) as host:
        tab = offline_tab(browser, host)
        try:
            tab.goto(ENGINE_PAGE)
            tab.calculator(CALC)
            tab.page.wait_for_function(SETTLED, timeout=BOOT_TIMEOUT_MS)
            assert tab.page.evaluate("document.documentElement.dataset.offline") == "engine"
            assert not tab.page.is_visible(".fm-offline-failed")
            tab.context.set_offline(True)
            tab.goto("konrad/")
            assert tab.page.locator("article h1").count() == 1
            tab.goto(f"calculators/{CALC}/{query({'nation': 'soviet', 'boosts': '2'})}")
            tab.calculator(CALC)
            assert tab.odds_cells(CALC) == cli_odds(CALC, {"nation": "soviet", "boosts": "2"})
            for pdf in sorted((site / "sheets").glob("*.pdf")):
                path = f"/sheets/{pdf.name}"
                if path == missing:
                    continue
                head = tab.page.evaluate("url => fetch(url).then(r => r.arrayBuffer()).then(b => new TextDecoder().decode(b.slice(0, 5)))", path)
                assert head == "%PDF-", path
            # The one the host never had is not in the copy: asked for offline, it fails.
            assert tab.page.evaluate("url => fetch(url).then(r => r.status, () => 'failed')", missing) == "failed"
        finally:
            tab.close()


def test_a_host_without_a_page_says_no_offline_copy_can_be_made(browser, site):
    with StaticServer(site, missing=("/sources/index.html",)) as host:
        tab = offline_tab(browser, host, viewport={"width": 390, "height": 844})
        try:
            tab.goto("konrad/")
            bar = tab.page.wait_for_selector(".fm-offline-failed", timeout=BOOT_TIMEOUT_MS)
            assert bar.inner_text().startswith("Fire Mission cannot be kept for offline use here: a file of the site did not download.")
            assert tab.page.evaluate("document.documentElement.dataset.offline") == "failed"
            assert bar.is_visible()
            bar.query_selector("button").click()
            assert tab.page.query_selector(".fm-offline-failed") is None
        finally:
            tab.close()


def phone_profile(browser, server, folder) -> Tab:
    """A tab of a browser with a profile on disk, as a phone's is: its HTTP cache
    holds the engine's 9.6 MB WebAssembly, which a test context's cache, in
    memory, does not keep."""
    context = browser.browser_type.launch_persistent_context(str(folder), executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True, service_workers="allow")
    tab = Tab(context, context.pages[0] if context.pages else context.new_page(), server, RequestLog(context, guard=False))
    record_errors(tab.page, tab.errors)
    return tab


def test_a_tab_closed_right_after_its_first_answer_leaves_an_engine_that_answers_offline(browser, site, tmp_path):
    # The service worker's script is held until the tab has closed: it installs
    # with no page left to ask it for the engine.
    with StaticServer(site, held=("/sw.js",)) as host:
        tab = phone_profile(browser, host, tmp_path / "profile")
        try:
            tab.goto(ENGINE_PAGE)
            tab.calculator(CALC)
            assert tab.page.get_attribute(f'.calculator[data-calculator="{CALC}"]', "data-source") == "engine"
            tab.page.wait_for_function("() => window.fireMissionEngine.state === 'ready'")
            assert "/sw.js" in host.requested  # registering, not yet installed
            tab.page.close()
            host.release("/sw.js")
            # The next visit, to a rules page (it starts no engine): the service worker is there.
            tab.page = tab.context.new_page()
            tab.goto("konrad/")
            tab.page.wait_for_function("() => document.documentElement.dataset.offline === 'pages'", timeout=BOOT_TIMEOUT_MS)
            kept = engine_cache_paths(tab)
            for needed in ("/assets/calc/worker.mjs", "/assets/generated/runtime.json", "/assets/generated/pyodide/python_stdlib.zip.xz", "/assets/generated/pyodide/pyodide.mjs"):
                assert needed in kept, kept
            assert {"/assets/generated/pyodide/pyodide.asm.wasm", "/assets/generated/pyodide/pyodide.asm.wasm.xz"} & set(kept), kept
            # With the network cut, a calculator answers inputs only its engine can.
            tab.context.set_offline(True)
            tab.goto(f"calculators/{CALC}/{query({'nation': 'usa', 'boosts': '1'})}")
            tab.calculator(CALC)
            assert tab.page.get_attribute(f'.calculator[data-calculator="{CALC}"]', "data-source") == "engine"
            assert tab.odds_cells(CALC) == cli_odds(CALC, {"nation": "usa", "boosts": "1"})
        finally:
            tab.close()


def another_calculator_answers_offline(tab, host, inputs: dict[str, str]) -> None:
    """The tab closed and the host gone (the network cut): a new tab's air strike, with
    inputs only its engine can answer, answers as the CLI does, from the engine."""
    tab.page.close()
    host.stop()
    tab.page = tab.context.new_page()
    record_errors(tab.page, tab.errors)
    other = "k47-air-strike"
    tab.goto(f"calculators/{other}/{query(inputs)}")
    tab.page.wait_for_function(
        "(id) => ['ready', 'error'].includes(document.querySelector(`.calculator[data-calculator=\"${id}\"]`)?.dataset.status)", arg=other, timeout=BOOT_TIMEOUT_MS
    )
    # What the player sees, should it fail: the engine's state and message, the offline copy's.
    seen = tab.page.evaluate("() => [window.fireMissionEngine?.state, document.querySelector('.fm-engine')?.textContent, document.documentElement.dataset.offline]")
    assert tab.page.get_attribute(f'.calculator[data-calculator="{other}"]', "data-status") == "ready", (seen, tab.errors)
    assert tab.page.get_attribute(f'.calculator[data-calculator="{other}"]', "data-source") == "engine"
    assert tab.odds_cells(other) == cli_odds(other, inputs)


def test_a_first_visit_closed_at_its_first_answer_then_offline_leaves_a_site_that_answers(browser, site, tmp_path):
    # A player's first visit is a calculator page; they close it the moment it
    # answers and lose the network at once: nothing is fetched after the close.
    # The page registers the service worker while Python starts, so it is
    # installed by the first answer; the engine's files the browser holds are
    # kept without the network. The wheel is held until the precache is in: a
    # start as slow as a phone's (on a fast machine Python's start from the
    # snapshot can be quicker than the precache; registered only once the
    # engine had answered, the service worker was never in time). The host
    # answers the wheel once, the worker's download: any later request for it
    # (the service worker's, which had to revalidate it with the host, as the
    # host asks, and lost the race with the cut on a fast machine) never
    # comes back, as with a network cut the moment the engine has its files.
    wheel = "/assets/generated/" + json.loads((site / "assets/generated/runtime.json").read_text())["wheel"]
    with StaticServer(site, held=(wheel,), once=(wheel,)) as host:
        tab = phone_profile(browser, host, tmp_path / "profile")
        try:
            tab.goto(ENGINE_PAGE)
            tab.page.wait_for_function("() => document.documentElement.dataset.offline === 'pages'", timeout=BOOT_TIMEOUT_MS)
            # Installed while the engine starts: no answer yet, and the engine still on its way.
            assert tab.page.get_attribute(f'.calculator[data-calculator="{CALC}"]', "data-source") != "engine"
            assert tab.page.evaluate("() => window.fireMissionEngine.state") == "starting"
            host.release(wheel)
            tab.page.wait_for_selector(f'.calculator[data-calculator="{CALC}"][data-source="engine"][data-status="ready"]', timeout=BOOT_TIMEOUT_MS)
            another_calculator_answers_offline(tab, host, {"turns": "5", "flak_shots": "3"})
            assert tab.errors == []
        finally:
            tab.close()


def test_an_engine_file_the_service_worker_missed_comes_from_the_browser_s_cache_offline(browser, site, tmp_path):
    # A tab closed after its worker downloaded a file and before the page asked
    # the service worker to keep it leaves the file in the browser's HTTP cache
    # only: the next visit, offline, is answered from there. Made here by
    # taking the wheel out of a kept engine; the host then goes: every request
    # that reaches it fails (it asks for revalidation, so the HTTP cache alone
    # answers no ordinary fetch).
    wheel = "/assets/generated/" + json.loads((site / "assets/generated/runtime.json").read_text())["wheel"]
    with StaticServer(site) as host:
        tab = phone_profile(browser, host, tmp_path / "profile")
        try:
            tab.goto(ENGINE_PAGE)
            tab.page.wait_for_function("() => document.documentElement.dataset.offline === 'engine'", timeout=BOOT_TIMEOUT_MS)
            taken = tab.page.evaluate(
                """async (path) => {
                    let taken = 0;
                    for (const name of (await caches.keys()).filter((n) => n.startsWith('fire-mission-engine-'))) {
                        const cache = await caches.open(name);
                        for (const request of await cache.keys()) if (new URL(request.url).pathname === path && await cache.delete(request)) taken += 1;
                    }
                    return taken;
                }""",
                wheel,
            )
            assert taken == 1
            assert wheel not in engine_cache_paths(tab)
            another_calculator_answers_offline(tab, host, {"turns": "4", "flak_shots": "2"})
            # Kept from then on, for when the browser's HTTP cache lets it go.
            assert wheel in engine_cache_paths(tab)
            assert tab.errors == []
        finally:
            tab.close()


def rebuild(copy, page, original: str, mark: str) -> None:
    """A new build of the site in ``copy``: ``page`` (``original`` before) has its title say ``mark``, and the service worker lists it."""
    page.write_text(re.sub(r"</h1>", f" ({mark})</h1>", original, count=1), encoding="utf-8")
    out = subprocess.run(["node", str(ROOT / "scripts/build/build_sw.mjs"), str(copy)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


def title(tab) -> str:
    # The heading's text but its permalink's (the build's marks go after it).
    return tab.page.eval_on_selector("article h1", "h => [...h.childNodes].filter((n) => !n.matches?.('a.headerlink')).map((n) => n.textContent).join('')")


def test_a_new_build_reaches_a_returning_player_on_the_first_reload_after_they_accept(browser, site, tmp_path):
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    page = copy / "konrad" / "index.html"
    original = page.read_text(encoding="utf-8")
    with StaticServer(copy) as host:
        tab = offline_tab(browser, host)
        try:
            tab.goto("konrad/")
            tab.page.wait_for_function("() => document.documentElement.dataset.offline === 'pages'", timeout=BOOT_TIMEOUT_MS)
            first = title(tab)
            # A second build: its service worker installs and waits; the player lets the offer be.
            rebuild(copy, page, original, "second build")
            tab.page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
            tab.page.wait_for_selector(".fm-update", timeout=BOOT_TIMEOUT_MS)
            # A third build is published; the player comes back to the page: the offline copy's, and the offer.
            rebuild(copy, page, original, "third build")
            tab.page.reload()
            assert title(tab) == first
            bar = tab.page.wait_for_selector(".fm-update", timeout=BOOT_TIMEOUT_MS)
            assert "new version" in bar.text_content()
            with tab.page.expect_navigation():
                bar.query_selector("button").click()
            # The first reload after accepting: the host's newest page, not the second build's that waited.
            tab.page.wait_for_selector("article h1")
            assert title(tab) == f"{first} (third build)"
            assert tab.page.query_selector(".fm-update") is None
            # And it is the offline copy now.
            tab.context.set_offline(True)
            tab.goto("konrad/")
            assert title(tab) == f"{first} (third build)"
        finally:
            tab.close()
