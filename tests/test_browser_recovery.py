"""An engine that recovers: a worker that throws, closes or hangs is replaced, and the page says so.

The misbehaving worker is a test-only wrapper: the page's request for
``assets/calc/worker.mjs`` is answered (through Playwright's routing, never by
the built site) with a module that imports the real worker and then throws,
closes itself or spins forever on cue. Mostly only the first worker is
wrapped: the one the engine starts in its place is the real one, so a test
sees the page recover. The last two tests wrap every worker: one that keeps
dying, and one that dies after each answer. Python's answers are checked
against the CLI's, as everywhere.

A host without the WebAssembly (404) is named as such, at once, not
after the boot's time limit. Time limits are run through with Playwright's
clock (``page.clock``) once the request they guard is with the worker, never
waited for.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from conftest import BOOT_TIMEOUT_MS, cli_odds, open_tab
import pytest
from scripts.support.local_site import StaticServer

pytestmark = [pytest.mark.browser, pytest.mark.site]

CALC = "chq-comms-check"
# Inputs whose answer the build did not embed (the defaults' and the examples' it did):
# the page must ask its engine, which is what these tests are about.
ENGINE_INPUTS = {"nation": "commonwealth"}
START = f"calculators/{CALC}/?nation=commonwealth"
SCOPE = f'.calculator[data-calculator="{CALC}"]'

# The wrapper: the real worker (same script, ?real=1 so that the route lets it
# through), imported statically so that its onmessage is set before any message
# arrives, as in the real one; then MISBEHAVE.
WRAPPER = """// test-only wrapper of worker.mjs (tests/test_browser_recovery.py)
import "./worker.mjs?real=1";
const post = self.postMessage.bind(self);
MISBEHAVE
"""
# After the worker's first answer is out, an uncaught error in the worker.
THROW = """self.postMessage = (message, ...rest) => {
  post(message, ...rest);
  if (message.type === "answer") setTimeout(() => { throw new Error("thrown on purpose by a test"); });
};"""
# After the first answer, the worker closes itself: no event tells the page.
CLOSE = """self.postMessage = (message, ...rest) => {
  post(message, ...rest);
  if (message.type === "answer") setTimeout(() => self.close());
};"""
# A request with boosts=1 never ends.
HANG = """const answer = self.onmessage;
self.onmessage = (event) => {
  if (event.data.request && event.data.request.inputs && event.data.request.inputs.boosts === "1") for (;;) {}
  answer(event);
};"""


def wrap_workers(tab, misbehave: str, every: bool = False) -> list[str]:
    """Serve the first worker.mjs the page asks for wrapped (every=True: every one,
    the replacements too); returns the worker URLs asked for."""
    asked: list[str] = []

    def handle(route):
        url = route.request.url
        asked.append(url)
        if "real=1" in urlsplit(url).query or (len(asked) > 1 and not every):
            route.fallback()
        else:
            route.fulfill(status=200, content_type="text/javascript", body=WRAPPER.replace("MISBEHAVE", misbehave))

    tab.page.route("**/assets/calc/worker.mjs*", handle)
    return asked


def fresh_workers(asked: list[str]) -> int:
    return sum(1 for url in asked if "real=1" not in url)


def note(tab):
    return tab.page.locator(f"{SCOPE} .fm-engine")


def test_a_worker_that_throws_after_its_first_answer_is_replaced_and_the_page_says_so(tab):
    asked = wrap_workers(tab, THROW)
    tab.goto(START)
    tab.calculator(CALC)
    assert tab.odds_cells(CALC) == cli_odds(CALC, ENGINE_INPUTS)
    # The worker throws: the engine starts another, and the page says what happened.
    tab.page.wait_for_function("() => fireMissionEngine.generation === 2 && fireMissionEngine.state === 'ready'", timeout=BOOT_TIMEOUT_MS)
    assert note(tab).is_visible()
    assert "stopped (an error in assets/calc/worker.mjs: Uncaught Error: thrown on purpose by a test) and was started again" in note(tab).inner_text()
    assert fresh_workers(asked) == 2
    # The results shown still answer the inputs shown: not dimmed, still ready.
    assert tab.page.get_attribute(SCOPE, "data-status") == "ready"
    assert "fm-outdated" not in tab.page.get_attribute(SCOPE, "class")
    # The next change is answered by the new worker, and the message goes.
    tab.page.fill(f'{SCOPE} [data-input="boosts"]', "2")
    tab.calculator(CALC)
    assert tab.odds_cells(CALC) == cli_odds(CALC, {**ENGINE_INPUTS, "boosts": "2"})
    assert note(tab).is_hidden()


def test_a_worker_that_closes_itself_is_noticed_and_replaced(tab):
    asked = wrap_workers(tab, CLOSE)
    tab.goto(START)
    tab.calculator(CALC)
    # close() fires no event on the Worker: the engine learns of it from the Web Lock the worker held.
    tab.page.wait_for_function("() => fireMissionEngine.generation === 2 && fireMissionEngine.state === 'ready'", timeout=BOOT_TIMEOUT_MS)
    assert "stopped (it was closed or crashed) and was started again" in note(tab).inner_text()
    assert note(tab).is_visible()
    assert fresh_workers(asked) == 2
    tab.page.fill(f'{SCOPE} [data-input="boosts"]', "2")
    tab.calculator(CALC)
    assert tab.odds_cells(CALC) == cli_odds(CALC, {**ENGINE_INPUTS, "boosts": "2"})
    assert note(tab).is_hidden()
    assert tab.errors == []


def test_a_hung_answer_restarts_the_engine_which_asks_again_on_its_own(tab):
    # Only the first worker hangs on boosts=1: the engine stops it at the answer's time limit
    # and asks the worker it starts instead once more, which answers; no input change needed.
    asked = wrap_workers(tab, HANG)
    tab.page.clock.install()  # the page's timers: the answer's time limit is run through, not waited for
    tab.goto(START)
    tab.calculator(CALC)
    before = tab.odds_cells(CALC)
    assert before == cli_odds(CALC, ENGINE_INPUTS)
    tab.page.fill(f'{SCOPE} [data-input="boosts"]', "1")  # the wrapped worker spins forever on this one
    # The request is with the worker, and its time limit runs: run through it (engine.mjs, ANSWER_TIMEOUT_MS).
    tab.page.wait_for_function("() => fireMissionEngine.current?.request.inputs.boosts === '1' && fireMissionEngine.current.timer !== undefined")
    tab.page.clock.fast_forward(30_000)
    # While the new worker boots the page says so, the old results marked as the other inputs'.
    tab.page.wait_for_function("() => fireMissionEngine.generation === 2")
    tab.calculator(CALC)
    assert tab.odds_cells(CALC) == cli_odds(CALC, {**ENGINE_INPUTS, "boosts": "1"})
    # What happened stays said until this view has an answer of the new worker: it has one.
    assert note(tab).is_hidden()
    assert "fm-outdated" not in tab.page.get_attribute(SCOPE, "class")
    assert fresh_workers(asked) == 2
    assert tab.page.evaluate("fireMissionEngine.generation") == 2


def test_superseded_requests_are_dropped_and_only_the_newest_answered(tab):
    tab.goto(START)
    tab.calculator(CALC)
    outcome = tab.page.evaluate(
        """async () => {
            const e = fireMissionEngine;
            const ask = (boosts) => e.call("odds", { id: "chq-comms-check", inputs: { boosts } }, { key: "test" })
                .then((r) => ["answer", String(r.answer.inputs.boosts)], (error) => [error.kind]);
            const other = e.call("odds", { id: "chq-comms-check", inputs: {} }).then((r) => "answer");
            return [await Promise.all(["0", "1", "2", "3"].map(ask)), await other];
        }"""
    )
    # The first went to the worker at once (its answer is dropped when the
    # second came); the second and third never left the page; the fourth is answered.
    assert outcome == [[["superseded"], ["superseded"], ["superseded"], ["answer", "3"]], "answer"]


def test_a_missing_wasm_is_reported_as_missing(browser, site):
    with StaticServer(site, missing=("/assets/generated/pyodide/pyodide.asm.wasm", "/assets/generated/pyodide/pyodide.asm.wasm.xz")) as host:
        tab = open_tab(browser, host)
        try:
            tab.goto(START)
            root = tab.calculator(CALC, "error")
            message = root.query_selector(".fm-engine").inner_text()
            # The file named is the one the worker asked for: as it is on a fast link, its .xz on a slow one.
            assert re.search(r"pyodide\.asm\.wasm(\.xz)? is missing from the server \(it answered 404\)", message), message
            assert "MIME" not in message and "application/wasm" not in message and "within" not in message
            assert root.query_selector(".fm-engine").is_visible()
        finally:
            tab.close()


# Holds every odds answer in the page until the test lets it through, so that a
# change can land, deterministically, while the previous answer is on its way.
HOLD_ANSWERS = """() => {
    const engine = fireMissionEngine;
    const call = engine.call.bind(engine);
    window.__held = [];
    engine.call = (request, options) => new Promise((resolve, reject) => {
        call(request, options).then((result) => window.__held.push(() => resolve(result)), reject);
    });
}"""


def test_an_answer_for_inputs_no_longer_shown_is_never_marked_ready(tab):
    tab.goto(START)
    tab.calculator(CALC)
    shown = tab.odds_cells(CALC)
    tab.page.evaluate(HOLD_ANSWERS)
    tab.page.fill(f'{SCOPE} [data-input="boosts"]', "1")
    tab.page.wait_for_function("() => window.__held.length === 1")  # the answer for boosts=1 is in, held
    # In one task: the player types 2, then the answer for 1 arrives (before the
    # new request has even left, 150 ms later). It must not be shown as ready.
    status = tab.page.evaluate(
        """async (selector) => {
            const widget = document.querySelector(selector);
            widget.value = "2";
            widget.dispatchEvent(new Event("input", { bubbles: true }));
            window.__held.shift()();
            await new Promise((resolve) => setTimeout(resolve, 0));
            return widget.closest(".calculator").dataset.status;
        }""",
        f'{SCOPE} [data-input="boosts"]',
    )
    assert status == "loading"
    # Still the first inputs' odds, not boosts=1's, marked as the answer to other inputs (test_browser_stale.py).
    assert tab.page.get_attribute(f"{SCOPE} .fm-summary", "data-stale") == "true"
    stale = tab.page.eval_on_selector_all(f"{SCOPE} :is(.fm-summary, .fm-results) [data-p]", "els => els.map(e => [e.dataset.outcome, e.dataset.value, e.dataset.p])")
    assert {(o, v): p for o, v, p in stale} == shown
    tab.page.wait_for_function("() => window.__held.length === 1")  # the answer for boosts=2
    tab.page.evaluate("() => window.__held.shift()()")
    tab.calculator(CALC)
    assert tab.odds_cells(CALC) == cli_odds(CALC, {**ENGINE_INPUTS, "boosts": "2"})


def test_a_worker_that_keeps_dying_is_given_up_with_a_message(tab):
    # Every worker, the replacements too, throws as soon as it is ready and lets
    # no answer out, so after three restarts the engine stops trying and says so.
    # An answer would start the count again (the next test): with answers let
    # out, whether a worker answered before its throw hung on when a request
    # reached it, and once a fifth worker started. Here the page's request dies
    # with the first worker (its own message, "Change an input to try again"),
    # and the engine's last word replaces that once the fourth has stopped.
    wrap_workers(
        tab,
        """self.postMessage = (message, ...rest) => {
  if (message.type === "answer") return;
  post(message, ...rest);
  if (message.type === "ready") setTimeout(() => { throw new Error("thrown on purpose by a test"); });
};""",
        every=True,
    )
    tab.goto(START)
    tab.page.wait_for_function("() => fireMissionEngine.state === 'failed'", timeout=BOOT_TIMEOUT_MS)
    root = tab.calculator(CALC, "error")
    assert note(tab).is_visible()
    assert note(tab).inner_text() == (
        "The calculators' engine stopped 4 times in a row (the last time, an error in assets/calc/worker.mjs: Uncaught Error: thrown on purpose by a test). "
        "Reload the page to try again."
    )
    assert tab.page.evaluate("[fireMissionEngine.state, fireMissionEngine.generation]") == ["failed", 4]
    assert tab.page.is_disabled(f"{SCOPE} .fm-roll-button")
    assert "fm-outdated" in root.get_attribute("class")


def test_an_answer_between_two_stops_starts_the_count_again(tab):
    """A worker that dies after every answer is replaced every time: the engine
    gives up after four stops in a row (the test above), and an answer between
    two stops means they were not in a row. Four workers die here, each after
    answering; counted without the answers, the fourth would fail the engine."""
    wrap_workers(tab, THROW, every=True)
    tab.goto(START)
    tab.calculator(CALC)
    assert tab.odds_cells(CALC) == cli_odds(CALC, ENGINE_INPUTS)
    for generation, boosts in ((2, "2"), (3, "3"), (4, "4"), (5, None)):
        # The worker that answered has thrown; the next is ready before the next change, which it answers.
        tab.page.wait_for_function(
            "g => fireMissionEngine.generation === g && fireMissionEngine.state === 'ready'", arg=generation, timeout=BOOT_TIMEOUT_MS
        )
        assert "stopped (an error in assets/calc/worker.mjs: Uncaught Error: thrown on purpose by a test) and was started again" in note(tab).inner_text()
        if boosts:
            tab.page.fill(f'{SCOPE} [data-input="boosts"]', boosts)
            tab.calculator(CALC)
            assert tab.odds_cells(CALC) == cli_odds(CALC, {**ENGINE_INPUTS, "boosts": boosts})
    assert tab.page.get_attribute(SCOPE, "data-status") == "ready"
