"""Answers at first paint: the build's answers for each calculator's defaults
and examples are shown before (and without) the engine; other inputs wait for
it; a rules page fetches nothing of the engine until its calculator is used.
Use my dice's first prompt is in the build's copy of every calculator that
rolls dice, works before the glue and the engine have come, and never shows
odds for dice the engine has not answered."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

import rules_py
from conftest import BOOT_TIMEOUT_MS, cli, cli_odds, open_tab, query, rects

pytestmark = [pytest.mark.browser, pytest.mark.site]

# Everything the engine is made of: its worker, Pyodide, the snapshot and the wheel.
ENGINE = re.compile(r"/assets/calc/worker\.mjs|/assets/generated/(pyodide/|runtime\.json|.*\.whl|.*snapshot)")


@pytest.fixture(scope="module")
def engineless(browser, server):
    """A tab in which every request for the engine's files fails, shared by the
    module's tests: each loads its page in full (goto), and no engine file ever
    arrives, so none can leave the next test an engine in the browser's cache."""
    tab = open_tab(browser, server)
    tab.context.route(ENGINE, lambda route: route.abort())
    yield tab
    tab.close()


def scope(calc_id: str) -> str:
    return f'.calculator[data-calculator="{calc_id}"]'


def test_the_default_answer_shows_without_the_engine(engineless):
    calc_id = "po-counter-battery"
    engineless.goto(f"calculators/{calc_id}/")
    root = engineless.calculator(calc_id)
    assert root.get_attribute("data-source") == "prerendered"
    assert engineless.odds_cells(calc_id) == cli_odds(calc_id, {})
    summary = engineless.page.inner_text(f"{scope(calc_id)} .fm-summary-list")
    for outcome in rules_py.answer(calc_id)["outcomes"]:
        assert outcome["label"] in summary


@pytest.mark.parametrize("calc", rules_py.calculators(), ids=[c.id for c in rules_py.calculators()])
def test_every_example_shows_without_the_engine(engineless, calc):
    for inputs in calc.examples:
        shown = {k: v for k, v in inputs.items() if calc.field(k).parse(v) != calc.field(k).default}
        canonical = rules_py.answer(calc.id, inputs)["changed"]
        if shown != canonical:
            continue  # a link must carry exactly the answer's inputs as text to be shown without the engine
        engineless.goto(f"calculators/{calc.id}/{query(shown)}")
        root = engineless.calculator(calc.id)
        assert root.get_attribute("data-source") == "prerendered", inputs
        assert engineless.odds_cells(calc.id) == cli_odds(calc.id, inputs)


def test_other_inputs_wait_for_the_engine(engineless, browser, server):
    calc_id = "po-counter-battery"
    engineless.goto(f"calculators/{calc_id}/?enemy_batteries=4")
    engineless.page.wait_for_selector(f"{scope(calc_id)}[data-status]")
    engineless.page.wait_for_selector(f"{scope(calc_id)} .fm-form")
    # The engine cannot start here: once it has given up, the page still claims no answer for these inputs.
    engineless.page.wait_for_function("() => window.fireMissionEngine.state === 'failed'", timeout=BOOT_TIMEOUT_MS)
    assert engineless.page.get_attribute(scope(calc_id), "data-status") != "ready"
    assert engineless.page.get_attribute(scope(calc_id), "data-source") is None
    assert engineless.odds_cells(calc_id) == {}
    # With the engine, the same link is answered by it.
    tab = open_tab(browser, server)
    try:
        tab.goto(f"calculators/{calc_id}/?enemy_batteries=4")
        root = tab.calculator(calc_id)
        assert root.get_attribute("data-source") == "engine"
        assert tab.odds_cells(calc_id) == cli_odds(calc_id, {"enemy_batteries": "4"})
    finally:
        tab.close()


def test_a_rules_page_fetches_the_engine_only_when_its_calculator_is_used(browser, server):
    tab = open_tab(browser, server)
    try:
        tab.goto("combat-hq/comms/")
        tab.calculator("chq-comms-check")
        assert tab.page.get_attribute(scope("chq-comms-check"), "data-source") == "prerendered"
        tab.page.wait_for_load_state("networkidle")
        assert tab.requests.pyodide() == []
        tab.page.select_option(f'{scope("chq-comms-check")} [data-input="nation"]', "soviet")
        tab.page.wait_for_selector(f'{scope("chq-comms-check")}[data-source="engine"][data-status="ready"]', timeout=BOOT_TIMEOUT_MS)
        assert tab.odds_cells("chq-comms-check") == cli_odds("chq-comms-check", {"nation": "soviet"})
        assert tab.requests.pyodide() != []
    finally:
        tab.close()


def test_the_embedded_answers_are_the_engines(site):
    # What the build embeds is rules_py.answer for the defaults and each example, nothing else.
    html = (site / "calculators" / "chq-comms-check" / "index.html").read_text(encoding="utf-8")
    block = re.search(r'<div class="fm-prerendered" hidden data-answers="([^"]*)"', html).group(1)
    embedded = json.loads(unescape(block))
    calc = rules_py.get("chq-comms-check")
    expected = {json.dumps(rules_py.answer(calc.id, i)["inputs"], sort_keys=True): rules_py.answer(calc.id, i) for i in ({}, *calc.examples)}
    assert embedded == list(expected.values())


# ------------------------------------------------------------ Use my dice's first prompt

COPY_START = '<div class="fm-static fm-calculator">'
PROMPT = re.compile(r'<section class="fm-own-dice".*?</section>', re.S)
LABEL = re.compile(r'<strong class="fm-need-label">([^<]*)</strong> <span class="fm-need-dice">\(([^)]*)')
FACE = re.compile(r'<(?:label|button type="button") class="fm-face-button"[^>]*>(?:<input type="radio" name="fm-[a-z0-9-]+-first-face" value="(\d+)" disabled="" class="fm-sr fm-inert">)?(\d+)<')


def copy_of(html: str) -> str:
    """The build's copy of the page's calculator: its markup up to the embedded answers."""
    start = html.index(COPY_START)
    return html[start : html.index('<div class="fm-prerendered"', start)]


@pytest.mark.parametrize("calc", [c for c in rules_py.calculators() if c.rolls_dice], ids=lambda c: c.id)
def test_the_copy_holds_the_first_prompt_of_every_calculator_that_rolls_dice(site, calc):
    # In the HTML itself, so at first paint: the label, dice and faces the CLI's resolve asks for
    # first, a face each (a single die's as radio buttons that work before the glue, a pool's as
    # buttons that wait for it), and Use my dice as a checkbox that opens it.
    copy = copy_of((site / "calculators" / calc.id / "index.html").read_text(encoding="utf-8"))
    need = cli("resolve", calc.id)["need"]
    prompt = PROMPT.search(copy)
    assert prompt, "no first prompt in the copy"
    label, dice = LABEL.search(prompt.group(0)).groups()
    assert (unescape(label), dice.split(":")[0]) == (need["label"], need["dice"])
    faces = FACE.findall(prompt.group(0))
    assert [shown for _, shown in faces] == [str(f) for f in range(1, need["faces"] + 1)]
    assert [radio for radio, _ in faces] == ([shown for _, shown in faces] if need["count"] == 1 else [""] * need["faces"])
    assert re.search(r'<label class="md-button fm-own-dice-button fm-own-dice-toggle"><input type="checkbox" class="fm-sr fm-inert fm-own-dice-open" disabled="">Use my dice</label>', copy)
    assert "data-resolve" not in copy and "data-need" not in copy  # nothing in the copy may pass for a live resolution


@pytest.fixture
def stalled(browser, server):
    """A phone tab whose form code (view.mjs) and engine worker are held until the test lets them go."""
    tab = open_tab(browser, server, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    held: dict[str, list] = {"view": [], "worker": []}
    tab.context.route(re.compile(r"/assets/calc/view\.mjs"), lambda route: held["view"].append(route))
    tab.context.route(re.compile(r"/assets/calc/worker\.mjs"), lambda route: held["worker"].append(route))
    tab.held = held
    yield tab
    for routes in held.values():
        for route in routes:
            try:
                route.abort()
            except Exception:
                pass  # the page has gone
    tab.close()


def test_the_first_prompt_is_tapped_before_the_glue_and_the_engine_and_never_shows_a_wrong_number(stalled):
    calc_id = "k47-air-strike"
    page = stalled.page
    copy = f"{scope(calc_id)} > .fm-static"
    own = f"{scope(calc_id)} .fm-own-dice"
    first = cli("resolve", calc_id)
    stalled.goto(f"calculators/{calc_id}/")
    # The form code has not come: the copy is all there is. Its Use my dice opens the first prompt.
    page.wait_for_selector(f"{copy} .fm-own-dice-open:not([disabled])")  # woken by calculator.mjs
    assert not page.is_visible(f"{copy} .fm-own-dice")
    page.click(f"{copy} .fm-own-dice-toggle")
    assert page.is_visible(f"{copy} .fm-own-dice .fm-need")
    assert page.inner_text(f"{copy} .fm-need-label") == first["need"]["label"] == "air strike chart, start of turn 1"
    assert page.locator(f"{copy} .fm-face-button").all_inner_texts() == ["1", "2", "3", "4", "5", "6"]
    boxes = rects(page, f"{copy} .fm-face-button")
    assert all(b["width"] >= 44 and b["height"] >= 44 for b in boxes) and max(b["y"] for b in boxes) - min(b["y"] for b in boxes) < 1, boxes
    # The plain odds, the copy's own answer, are the odds of what happens next with no dice.
    odds = page.inner_text(f"{copy} .fm-own-dice .fm-resolve-summary")
    assert odds and odds == page.inner_text(f"{copy} .fm-summary-list")
    # A 2 tapped there: the odds, which were for no dice, go; the copy says it waits.
    page.click(f"{copy} .fm-face-button:nth-child(2)")
    assert page.is_visible(f"{copy} .fm-copy-wait")
    for gone in (".fm-resolve-headline", ".fm-resolve-odds", ".fm-resolve-check"):
        assert not page.is_visible(f"{copy} .fm-own-dice {gone}"), gone
    assert page.is_visible(f"{copy} .fm-summary-list")  # the calculator's own answer stays: no input changed

    # The form code comes; the engine is still held. The 2 is taken over and waits for the engine.
    for route in stalled.held["view"]:
        route.continue_()
    page.wait_for_selector(f'{own}[data-resolve="waiting"][data-busy]')
    assert page.locator(f"{scope(calc_id)} > .fm-static").count() == 0
    assert "dice=2" in page.evaluate("() => location.search")
    assert "2" in page.inner_text(f"{own} .fm-resolve-headline") and "starting" in page.inner_text(f"{own} .fm-resolve-headline")
    assert page.locator(f"{own} [data-need-label]").count() == 0
    assert page.locator(f"{own} .fm-resolve-odds").is_hidden() and page.locator(f"{own} .fm-resolve-check").is_hidden()
    # Undo: back to no dice, which the build answered, so the first prompt is back without the engine.
    page.click(f"{own} .fm-undo")
    page.wait_for_selector(f'{own}[data-resolve="need"][data-dice=""]:not([data-busy])')
    assert page.get_attribute(f"{own} [data-need-label]", "data-need-label") == first["need"]["label"]
    shown = page.eval_on_selector_all(f"{own} .fm-resolve-odds [data-p]", "els => els.map(e => [e.dataset.outcome, e.dataset.value, e.dataset.p])")
    assert {(o, v): p for o, v, p in shown} == {(o, v): p for o, values in first["odds"].items() for v, p in values.items() if p != "0"}
    # A 6 now, and the engine fails to load: a message, still no odds.
    page.click(f"{own} .fm-face-button >> nth=5")
    page.wait_for_selector(f'{own}[data-resolve="waiting"]')
    page.wait_for_function("() => window.fireMissionEngine.state === 'starting'")
    for route in stalled.held["worker"]:
        route.abort()
    stalled.held["worker"].clear()
    page.wait_for_selector(f'{own}[data-resolve="error"]:not([data-busy])', timeout=BOOT_TIMEOUT_MS)
    assert "could not start" in page.inner_text(f"{own} .fm-resolve-message")
    assert page.locator(f"{own} .fm-resolve-odds").is_hidden() and page.locator(f"{own} [data-need-label]").count() == 0
    assert [e for e in stalled.errors if "worker" not in e.lower() and "net::" not in e] == []


def test_when_the_glue_fails_the_copys_first_prompt_is_withdrawn(stalled):
    calc_id = "k47-air-strike"
    page = stalled.page
    copy = f"{scope(calc_id)} > .fm-static"
    stalled.goto(f"calculators/{calc_id}/")
    page.wait_for_selector(f"{copy} .fm-own-dice-open:not([disabled])")
    page.click(f"{copy} .fm-own-dice-toggle")
    page.click(f"{copy} .fm-face-button:nth-child(2)")
    assert page.is_visible(f"{copy} .fm-copy-wait")
    for route in stalled.held["view"]:
        route.abort()  # the form code never comes: the copy goes back to its defaults, disabled
    stalled.held["view"].clear()
    page.wait_for_selector(f"{copy}.fm-static-failed")
    assert not page.is_visible(f"{copy} .fm-own-dice")
    assert page.is_disabled(f"{copy} .fm-own-dice-open") and not page.is_checked(f"{copy} .fm-own-dice-open")
    assert page.eval_on_selector_all(f"{copy} .fm-face-button input", "els => els.filter((e) => e.checked || !e.disabled).length") == 0
    assert page.is_visible(f"{copy} .fm-summary")  # the copy's own answer, for the inputs it shows
