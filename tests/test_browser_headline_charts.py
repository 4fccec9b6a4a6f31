"""The answer on a phone (issue 23 items 1-3) and "How it changes" (issue 24, the page).

Measured in Chromium on a 390 x 844 phone and a 1440 x 900 desktop, with
getBoundingClientRect:

* the headline (``[data-headline]``) is the engine's ``headline``, first in the
  answer and in view at first paint, in the build's copy too (scripts off);
* the pinned answer is at most 30 % of the phone's height and never scrolls
  inside itself, stays in view down the form, and never covers the field typed in;
* every outcome with ``chart: true`` has an SVG chart (role="img",
  data-chart=OUTCOME, named by the outcome's summary) whose bars' heights are
  the typed answer's, in the view the switch chose; a comparison draws A and B
  in one chart, and its headline reads A -> B with B's part marked;
* a link with ``sweep=NAME`` opens "How it changes" on that input, its chart's
  bars and table the typed sweep's, with what it takes marked; with
  ``sweep_of=OUTCOME`` about that outcome (issue 43 item 7: the air strike's
  hits on the target by friendly flak, its average and its chance of at least
  1), which the player can pick, Back and Forward follow, and a name the engine
  refuses (``sweep_of=unknown``, ``sweep=unknown``, ``sweep=``) is the engine's
  message beside the pickers, never a chart;
* axe-core finds nothing serious with the charts, the comparison and the sweep open.
"""

from __future__ import annotations

import json

import pytest

import rules_py
from conftest import BOOT_TIMEOUT_MS, open_inputs, open_tab, rect, rects
from test_browser_a11y import violations

pytestmark = [pytest.mark.browser, pytest.mark.site]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1440, "height": 900}
CALCS = ["k47-air-strike", "chq-fire-for-effect"]


def scope(calc_id: str) -> str:
    return f'.calculator[data-calculator="{calc_id}"]'


def call(request: dict) -> dict:
    return json.loads(rules_py.call_json(json.dumps(request)))


def answer(calc_id: str, inputs: dict | None = None) -> dict:
    return call({"op": "answer", "id": calc_id, "inputs": inputs or {}})


def charted(doc: dict) -> list[dict]:
    return [o for o in doc["outcomes"] if o.get("chart")]


def bars(tab, selector: str) -> list[list[str]]:
    """[data-value, data-option or "", data-height] of every bar of the chart at `selector`."""
    return tab.page.eval_on_selector_all(f"{selector} rect.fm-chart-bar", "els => els.map(e => [e.dataset.value, e.dataset.option || '', e.dataset.height])")


def expected_bars(outcome: dict, mode: str) -> list[list[str]]:
    return [[v["value"], "", v["heights"][mode]] for v in outcome["values"] if v["p"] != "0" and v["heights"][mode] is not None]


@pytest.fixture(scope="module", params=["phone", "desktop"])
def sized(request, browser, server):
    tab = open_tab(browser, server, viewport=PHONE if request.param == "phone" else DESKTOP)
    tab.size = request.param
    yield tab
    tab.close()


@pytest.fixture(scope="module")
def phone(browser, server):
    tab = open_tab(browser, server, viewport=PHONE)
    yield tab
    tab.close()


@pytest.fixture(scope="module")
def scriptless(browser, server):
    """The build's copy alone: scripts off, so no engine and no glue."""
    tab = open_tab(browser, server, viewport=PHONE, java_script_enabled=False)
    yield tab
    tab.close()


# ---------------------------------------------------------------- headline


@pytest.mark.parametrize("calc_id", CALCS)
def test_the_headline_is_first_and_in_view(sized, calc_id):
    sized.visit(f"calculators/{calc_id}/")
    sized.calculator(calc_id)
    line = f"{scope(calc_id)} .fm-answer-box [data-headline]"
    assert sized.page.get_attribute(line, "data-headline") == answer(calc_id)["headline"]
    assert sized.page.inner_text(line) == answer(calc_id)["headline"]
    box = rect(sized, line)
    height = DESKTOP["height"] if sized.size == "desktop" else PHONE["height"]
    assert 0 <= box["top"] and box["bottom"] <= height, box
    # First in the answer: nothing of the answer box shows above it.
    first = sized.page.eval_on_selector(f"{scope(calc_id)} .fm-answer-box", "b => [...b.children].find(c => c.offsetParent !== null)")
    assert first is not None
    assert sized.page.eval_on_selector(f"{scope(calc_id)} .fm-answer-box", "b => [...b.children].find(c => c.offsetParent !== null).matches('[data-headline]')")


@pytest.mark.parametrize("calc_id", CALCS)
def test_the_builds_copy_has_the_headline_and_charts_in_view(scriptless, calc_id):
    # Laid out once its style sheets have loaded: with scripts off nothing else
    # waits for them, and an unstyled page puts the headline thousands of pixels down.
    scriptless.goto(f"calculators/{calc_id}/", wait_until="load")
    copy = f"{scope(calc_id)} > .fm-static"
    doc = answer(calc_id)
    assert scriptless.page.inner_text(f"{copy} .fm-answer-box .fm-headline") == doc["headline"]
    box = rect(scriptless, f"{copy} .fm-answer-box .fm-headline")
    assert 0 <= box["top"] and box["bottom"] <= PHONE["height"], box
    charts = scriptless.page.eval_on_selector_all(f"{copy} svg.fm-chart[role=img]", "els => els.map(e => e.getAttribute('aria-label'))")
    assert len(charts) == len(charted(doc)) > 0
    for outcome, label in zip(charted(doc), charts):
        assert label.startswith(outcome["summary"])
    # The copy keeps no data-* attribute (render_calculators.py): its bars' heights are read as drawn.
    first = charted(doc)[0]
    heights = scriptless.page.eval_on_selector(f"{copy} svg.fm-chart", "s => [...s.querySelectorAll('rect')].map(r => r.getAttribute('height'))")
    assert heights == [h for _, _, h in expected_bars(first, "exactly")]


# ---------------------------------------------------------------- pinned answer


@pytest.mark.parametrize("calc_id", [c.id for c in rules_py.calculators()])
def test_the_pinned_answer_leaves_room_on_a_phone(phone, calc_id):
    phone.visit(f"calculators/{calc_id}/")
    phone.calculator(calc_id)
    pinned = f"{scope(calc_id)} .fm-answer-box"
    box = rect(phone, pinned)
    assert box["height"] <= 0.3 * PHONE["height"], box
    assert phone.page.eval_on_selector(pinned, "b => b.scrollHeight <= b.clientHeight && getComputedStyle(b).overflowY !== 'auto' && getComputedStyle(b).overflowY !== 'scroll'")
    # Down the form (opened from its summary), the headline stays pinned in view.
    open_inputs(phone.page, scope(calc_id))
    phone.page.eval_on_selector(f"{scope(calc_id)} .fm-form", "f => f.lastElementChild.scrollIntoView({block: 'end'})")
    line = rect(phone, f"{pinned} [data-headline]")
    assert 0 <= line["top"] and line["bottom"] <= PHONE["height"], line


@pytest.mark.parametrize("calc_id", CALCS)
def test_the_field_typed_in_is_never_under_the_answer(phone, calc_id):
    """Back up the form with Shift+Tab from its last field: each field the focus
    reaches scrolls into view below the pinned answer (its scroll margin), never under it."""
    phone.visit(f"calculators/{calc_id}/")
    phone.calculator(calc_id)
    form = f"{scope(calc_id)} .fm-form"
    open_inputs(phone.page, scope(calc_id))
    phone.page.eval_on_selector(form, "f => { const w = [...f.querySelectorAll('[data-input]')].at(-1); w.scrollIntoView({block: 'end'}); w.focus(); }")
    seen = 0
    while phone.page.eval_on_selector(form, "f => f.contains(document.activeElement)"):
        field = phone.page.evaluate("() => { const r = document.activeElement.getBoundingClientRect(); return {top: r.top, bottom: r.bottom}; }")
        pinned = rect(phone, f"{scope(calc_id)} .fm-answer-box")
        assert field["top"] >= pinned["bottom"] - 0.5 and field["bottom"] <= PHONE["height"] + 1, (seen, field, pinned)
        seen += 1
        phone.page.keyboard.press("Shift+Tab")
    assert seen >= len(rules_py.get(calc_id).fields)


# ---------------------------------------------------------------- charts


@pytest.mark.parametrize("calc_id", CALCS)
def test_every_chart_is_the_typed_answers_in_each_view(sized, calc_id):
    sized.visit(f"calculators/{calc_id}/")
    sized.calculator(calc_id)
    doc = answer(calc_id)
    assert charted(doc)
    for mode in ["exactly", "at_least", "at_most"]:
        if mode != "exactly":
            sized.page.click(f'{scope(calc_id)} .fm-modes label[for$="-mode-{mode}"]')
        for outcome in charted(doc):
            chart = f'{scope(calc_id)} .fm-summary svg[data-chart="{outcome["name"]}"]'
            sized.page.wait_for_selector(f"{chart}[role=img]")
            assert bars(sized, chart) == expected_bars(outcome, mode), (outcome["name"], mode)
            label = sized.page.get_attribute(chart, "aria-label")
            assert label.startswith(outcome["summary"])
            texts = sized.page.eval_on_selector(chart, "s => [...s.closest('figure').querySelectorAll('table tbody tr')].map(r => [...r.cells].map(c => c.textContent))")
            field = {"exactly": "percent", "at_least": "at_least_percent", "at_most": "at_most_percent"}[mode]
            assert texts == [[v["label"], v[field] or v["percent"]] for v in outcome["values"] if v["p"] != "0"]
    assert not [o["name"] for o in doc["outcomes"] if not o.get("chart") and sized.page.query_selector(f'{scope(calc_id)} svg[data-chart="{o["name"]}"]')]


def test_a_comparison_reads_a_to_b_and_draws_both(sized):
    calc_id, vs = "k47-air-strike", {"flak_shots": "6"}
    sized.goto(f"calculators/{calc_id}/?vs.flak_shots=6")
    root = sized.calculator(calc_id)
    sized.page.wait_for_selector(f'{scope(calc_id)}[data-compare-status="ready"]', timeout=BOOT_TIMEOUT_MS)
    assert root is not None
    doc = call({"op": "compare", "id": calc_id, "inputs": {}, "vs": vs})
    line = f"{scope(calc_id)} .fm-answer-box [data-headline]"
    assert sized.page.inner_text(line) == doc["headline"]
    assert sized.page.eval_on_selector_all(f'{line} [data-option="b"]', "els => els.map(e => e.textContent)") == [p["b"] for p in doc["headline_parts"]]
    box = rect(sized, f'{line} [data-option="b"]')
    assert 0 <= box["top"] and box["bottom"] <= (PHONE if sized.size == "phone" else DESKTOP)["height"], box
    for d in [d for d in doc["differences"] if d.get("chart")]:
        chart = f'{scope(calc_id)} .fm-compare-charts svg[data-chart="{d["name"]}"]'
        want = []
        for v in d["values"]:
            if v["a"] == "0" and v["b"] == "0":
                continue
            want += [[v["value"], option, v["heights"][option]["exactly"]] for option in ("a", "b") if v["heights"][option]["exactly"] is not None]
        assert bars(sized, chart) == want, d["name"]
    # Stop comparing: the headline is option A's again.
    sized.page.click(f"{scope(calc_id)} .fm-compare-button")
    sized.page.wait_for_function("([sel, text]) => document.querySelector(sel).textContent === text", arg=[line, answer(calc_id)["headline"]])


# ---------------------------------------------------------------- how it changes


def test_a_sweep_link_opens_how_it_changes(sized):
    calc_id, name = "chq-fire-for-effect", "fire_dice"
    sized.goto(f"calculators/{calc_id}/?sweep={name}")
    sized.calculator(calc_id)
    box = f"{scope(calc_id)} .fm-sweep-details"
    sized.page.wait_for_selector(f'{box}[open][data-sweep-status="ready"]', timeout=BOOT_TIMEOUT_MS)
    doc = call({"op": "answer", "id": calc_id, "inputs": {}, "sweep": name})
    chart = f'{box} svg[data-chart="sweep"][role=img]'
    assert sized.page.get_attribute(chart, "aria-label") == doc["summary"]
    assert bars(sized, chart) == [[v["value"], "", v["bar"]] for v in doc["values"] if v["bar"] is not None]
    rows = sized.page.eval_on_selector_all(f"{box} table.fm-sweep-table tbody tr", "rs => rs.map(r => [...r.cells].map(c => c.textContent))")
    assert [r[:2] for r in rows] == [[v["label"], v["text"]] for v in doc["values"]]
    reached = {r["value"] for r in doc["reaches"] if r["value"] is not None}
    assert {v["value"] for v, r in zip(doc["values"], rows) if r[2]} == reached and reached
    assert sized.page.eval_on_selector_all(f"{box} .fm-sweep-reaches li", "els => els.map(e => e.textContent)") == [r["text"] for r in doc["reaches"]]
    # The inputs change: the sweep follows them; the link keeps sweep=NAME.
    open_inputs(sized.page, scope(calc_id))
    sized.page.fill(f'{scope(calc_id)} .fm-form [data-input="reaction_dice"]', "6")
    doc = call({"op": "answer", "id": calc_id, "inputs": {"reaction_dice": "6"}, "sweep": name})
    sized.page.wait_for_function("([sel, text]) => document.querySelector(sel)?.getAttribute('aria-label') === text", arg=[chart, doc["summary"]], timeout=BOOT_TIMEOUT_MS)
    assert f"sweep={name}" in sized.page.evaluate("() => location.search")
    assert f"sweep={name}" in sized.page.get_attribute(f"{scope(calc_id)} .fm-link", "href")


def test_choosing_an_input_to_sweep_puts_it_in_the_link(tab):
    calc_id = "k47-air-strike"
    tab.goto(f"calculators/{calc_id}/")
    tab.calculator(calc_id)
    box = f"{scope(calc_id)} .fm-sweep-details"
    tab.page.click(f"{box} > summary")
    tab.page.select_option(f"{box} select", "target")
    tab.page.wait_for_selector(f'{box}[data-sweep-status="ready"] svg[data-chart="sweep"]', timeout=BOOT_TIMEOUT_MS)
    assert "sweep=target" in tab.page.evaluate("() => location.search")
    doc = call({"op": "answer", "id": calc_id, "inputs": {}, "sweep": "target"})
    assert bars(tab, f'{box} svg[data-chart="sweep"]') == [[v["value"], "", v["bar"]] for v in doc["values"] if v["bar"] is not None]


SWEEP_OF = "k47-air-strike", {"flak_shots": "4"}, "friendly_flak", "hits"


def sweep_rows(tab, box: str) -> list[list[str]]:
    return tab.page.eval_on_selector_all(f"{box} table.fm-sweep-table tbody tr", "rs => rs.map(r => [...r.cells].map(c => c.textContent))")


def test_a_sweep_of_link_shows_hits_on_the_target(sized):
    # Acceptance of issue 43 item 7: ?flak_shots=4&sweep=friendly_flak&sweep_of=hits.
    calc_id, inputs, name, of = SWEEP_OF
    sized.goto(f"calculators/{calc_id}/?flak_shots=4&sweep={name}&sweep_of={of}")
    sized.calculator(calc_id)
    box = f"{scope(calc_id)} .fm-sweep-details"
    sized.page.wait_for_selector(f'{box}[open][data-sweep-status="ready"] .fm-sweep-out[data-sweep-of="{of}"]', timeout=BOOT_TIMEOUT_MS)
    doc = call({"op": "answer", "id": calc_id, "inputs": inputs, "sweep": name, "sweep_of": of})
    assert doc["outcome"]["label"] == "Hits on the target" and doc["at_least_one"] == "At least 1"
    chart = f'{box} svg[data-chart="sweep"][role=img]'
    assert sized.page.get_attribute(chart, "aria-label") == doc["summary"]
    assert bars(sized, chart) == [[v["value"], "", v["bar"]] for v in doc["values"] if v["bar"] is not None]
    # The table: each value, the average, the chance of at least 1 hit, what it takes.
    heads = sized.page.eval_on_selector_all(f"{box} table.fm-sweep-table thead th", "els => els.map(e => e.textContent)")
    assert heads == ["Friendly flak units testing", "Mean", "At least 1", "What it takes"]
    rows = sweep_rows(sized, box)
    assert [r[:3] for r in rows] == [[v["label"], v["text"], v["at_least_one"]["text"]] for v in doc["values"]]
    assert rows[0][:3] == ["0", "8.00", "99.34%"] and rows[-1][:3] == ["10", "6.19", "90.8%"]
    assert sized.page.eval_on_selector_all(f"{box} .fm-sweep-reaches li", "els => els.map(e => e.textContent)") == [r["text"] for r in doc["reaches"]]
    assert sized.page.eval_on_selector(f"{box} select.fm-sweep-of", "s => [s.value, s.selectedOptions[0].textContent]") == ["hits", "Hits on the target"]
    assert f"sweep_of={of}" in sized.page.get_attribute(f"{scope(calc_id)} .fm-link", "href")
    assert sized.page.inner_text(f"{box} .fm-sweep-status") == ""


def test_the_outcome_picked_is_in_the_link_and_back_and_forward_follow_it(tab):
    calc_id = "k47-air-strike"
    tab.goto(f"calculators/{calc_id}/?flak_shots=4&sweep=friendly_flak")
    tab.calculator(calc_id)
    box = f"{scope(calc_id)} .fm-sweep-details"
    out = f"{box} .fm-sweep-out"
    # Without sweep_of, the headline's outcome, which the picker then names.
    tab.page.wait_for_selector(f'{box}[data-sweep-status="ready"] .fm-sweep-out[data-sweep-of="aborted"]', timeout=BOOT_TIMEOUT_MS)
    assert tab.page.eval_on_selector(f"{box} select.fm-sweep-of", "s => [s.value, s.selectedOptions[0].textContent]") == ["", "The headline: Driven off"]
    tab.page.select_option(f"{box} select.fm-sweep-of", "hits")
    tab.page.wait_for_selector(f'{box}[data-sweep-status="ready"] .fm-sweep-out[data-sweep-of="hits"]', timeout=BOOT_TIMEOUT_MS)
    assert tab.page.evaluate("() => location.search") == "?flak_shots=4&sweep=friendly_flak&sweep_of=hits"
    doc = call({"op": "answer", "id": calc_id, "inputs": {"flak_shots": "4"}, "sweep": "friendly_flak", "sweep_of": "hits"})
    assert [r[1] for r in sweep_rows(tab, box)] == [v["text"] for v in doc["values"]]
    # Two entries of this page: Back to one without sweep_of, Forward to one of pins.
    tab.page.evaluate("() => { history.pushState(null, '', '?flak_shots=4&sweep=friendly_flak'); history.pushState(null, '', '?flak_shots=4&sweep=friendly_flak&sweep_of=pins'); }")
    tab.page.evaluate("() => history.back()")
    tab.page.wait_for_selector(f'{box}[data-sweep-status="ready"] .fm-sweep-out[data-sweep-of="aborted"]', timeout=BOOT_TIMEOUT_MS)
    assert tab.page.eval_on_selector(f"{box} select.fm-sweep-of", "s => s.value") == ""
    tab.page.evaluate("() => history.forward()")
    tab.page.wait_for_selector(f'{box}[data-sweep-status="ready"] .fm-sweep-out[data-sweep-of="pins"]', timeout=BOOT_TIMEOUT_MS)
    assert tab.page.eval_on_selector(f"{box} select.fm-sweep-of", "s => s.value") == "pins"
    assert tab.page.get_attribute(out, "data-sweep") == "friendly_flak"
    assert tab.errors == []


@pytest.mark.parametrize(
    "query, request_",
    [
        ("sweep=friendly_flak&sweep_of=unknown", {"sweep": "friendly_flak", "sweep_of": "unknown"}),
        ("sweep_of=unknown", {"sweep_of": "unknown"}),
        ("sweep=friendly_flak&sweep_of=hits&sweep_of=pins", {"sweep": "friendly_flak", "sweep_of": ["hits", "pins"]}),
        ("sweep=friendly_flak&sweep=flak_shots", {"sweep": ["friendly_flak", "flak_shots"]}),
        ("sweep=unknown", {"sweep": "unknown"}),
        ("sweep=", {"sweep": ""}),
    ],
)
def test_a_sweep_the_engine_refuses_says_so_beside_the_pickers(phone, query, request_):
    # Issue 44 item 9: these were ignored where the CLI refuses them; now the engine's own message.
    calc_id = "k47-air-strike"
    phone.visit(f"calculators/{calc_id}/?{query}")
    box = f"{scope(calc_id)} .fm-sweep-details"
    phone.page.wait_for_selector(f'{box}[open][data-sweep-status="error"]', timeout=BOOT_TIMEOUT_MS)
    said = call({"op": "answer", "id": calc_id, "inputs": {}, **request_})["error"]
    assert phone.page.inner_text(f"{box} .fm-sweep-status") == said
    assert phone.page.locator(f"{box} svg, {box} table").count() == 0  # never a chart of something else
    assert phone.errors == []


def test_the_pickers_fit_a_phone_and_a_finger(phone):
    calc_id = "k47-air-strike"
    phone.visit(f"calculators/{calc_id}/?flak_shots=4&sweep=friendly_flak&sweep_of=hits")
    box = f"{scope(calc_id)} .fm-sweep-details"
    phone.page.wait_for_selector(f'{box}[data-sweep-status="ready"]', timeout=BOOT_TIMEOUT_MS)
    width = phone.page.evaluate("() => document.documentElement.clientWidth")
    pickers = rects(phone.page, f"{box} select")
    assert len(pickers) == 2  # the input to change and the outcome to follow
    for r in pickers:
        assert r["height"] >= 44 and r["left"] >= 0 and r["right"] <= width, r
    assert phone.page.evaluate("() => document.documentElement.scrollWidth") <= width


# ---------------------------------------------------------------- accessibility


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_with_charts_compare_and_sweep_open(browser, server, scheme):
    tab = open_tab(browser, server, viewport=PHONE, color_scheme=scheme)
    try:
        calc_id = "k47-air-strike"
        tab.goto(f"calculators/{calc_id}/?vs.flak_shots=6&sweep=flak_shots")
        tab.calculator(calc_id)
        tab.page.wait_for_selector(f'{scope(calc_id)}[data-compare-status="ready"] .fm-sweep-details[data-sweep-status="ready"]', timeout=BOOT_TIMEOUT_MS)
        assert violations(tab) == []
    finally:
        tab.close()
