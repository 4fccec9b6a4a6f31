"""Answers at first paint: the build's answers for each calculator's defaults
and examples are shown before (and without) the engine; other inputs wait for
it; a rules page fetches nothing of the engine until its calculator is used."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

import rules_py
from conftest import BOOT_TIMEOUT_MS, cli_odds, open_tab, query

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
