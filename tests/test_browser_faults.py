"""Faults a phone meets, and what the player sees then (issue 25, findings 1, 6 and 8).

* The page glue fails to load (the calculators' list or the form code answers
  404 or 500): the build's copy of the calculator, which the HTML carries,
  never shows a number for inputs it does not answer. Its controls come
  disabled, so with scripts off it takes no input; once the glue runs they
  work, the copy's answer goes at the player's first change, and when the
  list or the form code fails the copy is back at its defaults, disabled,
  with the message first in its answer box, in view on a phone.
* A roll history read from storage is data: at most twelve rolls, each a
  history entry as the page writes them, shown as its link's seed and inputs
  (a result text stored beside it, edited by hand, is never shown); nine
  thousand tampered entries and entries of other types are not rendered.
* A value longer than any a field takes (a pasted megabyte) is refused beside
  the field and never reaches the address or the link.

Each test holds a request (Playwright's routing) until the test has done what
a player would have done meanwhile: no test waits on a clock.
"""

from __future__ import annotations

import json

import pytest

import rules_py
from conftest import open_tab

pytestmark = [pytest.mark.browser, pytest.mark.site]

CALC = "chq-comms-check"
PAGE = f"calculators/{CALC}/"
ROOT = f'.calculator[data-calculator="{CALC}"]'
COPY = f"{ROOT} > .fm-static"
PHONE = {"width": 390, "height": 844}
DEFAULTS = rules_py.answer(CALC, {})
# The defaults' headline, as the engine words it and the page shows it (rules_py.answer, outcome summaries).
DEFAULT_LINE = DEFAULTS["outcomes"][0]["summary"]


def in_view(tab, selector: str) -> bool:
    return tab.page.eval_on_selector(
        selector, "e => { const r = e.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }"
    )


def copy_line(tab) -> str:
    return tab.page.eval_on_selector(f"{COPY} .fm-summary-list li", "li => li.querySelector('.fm-sum-label').textContent + li.querySelector('.fm-sum-text').textContent")


@pytest.fixture
def phone(browser, server):
    opened = open_tab(browser, server, viewport=PHONE, is_mobile=True, has_touch=True)
    yield opened
    opened.close()


def test_with_scripts_off_the_copy_takes_no_input_and_answers_the_inputs_it_shows(browser, server):
    tab = open_tab(browser, server, java_script_enabled=False, viewport=PHONE)
    try:
        tab.goto(PAGE)
        assert copy_line(tab) == DEFAULT_LINE
        controls = tab.page.eval_on_selector_all(f"{COPY} :is(input, select, textarea, button)", "els => els.map(e => e.disabled)")
        assert controls and all(controls)
        # The note that the calculator needs JavaScript shows beside it.
        assert tab.page.is_visible(f"{ROOT} .fm-placeholder")
    finally:
        tab.close()


@pytest.mark.parametrize(
    "path,status,cause",
    [
        ("assets/generated/calculators.json", 404, "the calculators' list answered 404"),
        ("assets/generated/calculators.json", 500, "the calculators' list answered 500"),
        ("assets/calc/view.mjs", 404, ""),
    ],
)
def test_when_the_glue_fails_the_copy_shows_no_number_for_inputs_it_does_not_answer(phone, path, status, cause):
    held = []
    phone.page.route(f"**/{path}", lambda route: held.append(route))  # answered below, once the player has changed inputs
    phone.goto(PAGE)
    phone.page.wait_for_function("() => window.fireMissionEngine !== undefined")  # calculator.mjs has run
    assert copy_line(phone) == DEFAULT_LINE
    # The player changes inputs of the copy before the glue has taken over, as on a slow link
    # (on a phone, in its form opened from its inputs' button).
    phone.page.click(f"{COPY} .fm-inputs-button")
    phone.page.select_option(f'{COPY} select[name="nation"]', "soviet")
    phone.page.fill(f'{COPY} input[name="boosts"]', "5")
    # The copy answers only its defaults: its answer goes; its note says why.
    assert not phone.page.is_visible(f"{COPY} .fm-summary")
    assert not phone.page.is_visible(f"{COPY} .fm-details")
    assert phone.page.inner_text(f"{COPY} .fm-answer-box .fm-engine") == "The calculator is still loading: its answer to these inputs shows once it has."
    # The file fails.
    for _ in range(1000):  # each call lets Playwright hand over the routed request
        if held:
            break
        phone.page.evaluate("0")
    assert held, f"{path} was never asked for"
    for route in held:
        route.fulfill(status=status, body="broken on purpose by a test")
    phone.calculator(CALC, "error")
    # Back at the inputs the copy answers, which can no longer be changed, and its answer to them.
    assert phone.page.input_value(f'{COPY} select[name="nation"]') == "germany"
    assert phone.page.input_value(f'{COPY} input[name="boosts"]') == "0"
    assert phone.page.is_disabled(f'{COPY} select[name="nation"]') and phone.page.is_disabled(f'{COPY} input[name="boosts"]')
    assert phone.page.is_disabled(f"{COPY} .fm-roll-button")
    assert phone.page.is_visible(f"{COPY} .fm-summary") and copy_line(phone) == DEFAULT_LINE
    # The message, first in the answer box, in view on a phone.
    message = phone.page.inner_text(f"{COPY} .fm-answer-box .fm-errors")
    assert message.startswith("The calculator could not load: ")
    assert cause in message
    assert message.endswith("It shows its answer to its default inputs, and cannot answer others: reload the page to try again.")
    assert in_view(phone, f"{COPY} .fm-answer-box .fm-errors")
    assert not phone.page.is_visible(f"{COPY} .fm-answer-box .fm-engine")


def test_when_the_glue_fails_on_a_link_with_inputs_the_copy_says_its_answer_is_not_the_links(phone):
    phone.page.route("**/assets/generated/calculators.json", lambda route: route.fulfill(status=404, body=""))
    phone.goto(f"{PAGE}?nation=soviet&boosts=5")
    phone.calculator(CALC, "error")
    # The copy was hidden (the address asks for other inputs): shown now, under its message.
    assert phone.page.is_visible(f"{COPY} .fm-summary") and copy_line(phone) == DEFAULT_LINE
    message = phone.page.inner_text(f"{COPY} .fm-answer-box .fm-errors")
    assert "It shows its answer to its default inputs, not those in the address, and cannot answer others" in message
    assert in_view(phone, f"{COPY} .fm-answer-box .fm-errors")


# ---------------------------------------------------------------- the calculators' own script (issue 44, items 4 and 9)

DAMAGED_MODULE = "$.broken = true;\n"  # put first in a module, its evaluation throws a ReferenceError: "$ is not defined"


@pytest.mark.parametrize(
    "path,answer,said",
    [
        ("assets/calc/calculator.mjs", 404, "its script assets/calc/calculator.mjs did not load (the server answered 404)"),
        ("assets/calc/engine.mjs", 404, "its script assets/calc/engine.mjs did not load (the server answered 404)"),
        ("assets/calc/static-copy.mjs", DAMAGED_MODULE, "its script assets/calc/static-copy.mjs failed as it ran (Uncaught ReferenceError: $ is not defined)"),
    ],
    ids=["calculator-404", "engine-404", "static-copy-damaged"],
)
def test_when_the_calculators_own_script_fails_the_calculator_says_which_file_and_what_to_do(phone, path, answer, said):
    # Before: "the calculator is loading" for ever, beside controls that did nothing.
    def handle(route):
        if answer == 404:
            route.fulfill(status=404, body="lost on purpose by a test")
        else:  # the module as built, damaged at its start: its imports and exports still link
            route.fulfill(status=200, body=answer + route.fetch().text(), headers={"Content-Type": "text/javascript"})

    phone.page.route(f"**/{path}", handle)
    phone.goto(f"{PAGE}?nation=soviet")
    phone.calculator(CALC, "error")
    message = " ".join(phone.page.inner_text(f"{COPY} .fm-answer-box .fm-errors").split())
    assert message.startswith(f"The calculator cannot start: {said}. Reload the page to try again"), message
    assert in_view(phone, f"{COPY} .fm-answer-box .fm-errors")
    # The build's copy, at the inputs its answer is for, shown under the message; no control takes input.
    assert phone.page.is_visible(f"{COPY} .fm-summary") and copy_line(phone) == DEFAULT_LINE
    assert phone.page.input_value(f'{COPY} select[name="nation"]') == "germany"
    assert phone.page.is_disabled(f'{COPY} select[name="nation"]')
    assert phone.page.locator(f"{COPY} .fm-errors button", has_text="Reload").is_visible()


def test_offline_mid_load_the_calculator_says_so_and_recovers_once_back_online(phone):
    # The network is cut as the page's scripts load: calculator.mjs cannot be fetched.
    cut = []

    def handle(route):
        if not cut:
            cut.append(route.request.url)
            phone.context.set_offline(True)
            route.abort("internetdisconnected")
        else:
            route.fallback()

    phone.page.route("**/assets/calc/calculator.mjs", handle)
    phone.goto(f"{PAGE}?nation=soviet")
    phone.calculator(CALC, "error")
    message = " ".join(phone.page.inner_text(f"{COPY} .fm-answer-box .fm-errors").split())
    assert "its script assets/calc/calculator.mjs could not be fetched (offline)" in message, message
    assert "it reloads by itself once you are back online" in message
    # Back online: the page reloads by itself and the calculator answers the link's inputs.
    phone.context.set_offline(False)
    phone.page.wait_for_function("() => !document.querySelector('[data-glue-failed]') && window.fireMissionEngine !== undefined", timeout=60_000)
    phone.calculator(CALC)
    assert phone.page.input_value(f'{ROOT} [data-input="nation"]') == "soviet"
    assert len(cut) == 1


# ---------------------------------------------------------------- the roll history


def test_a_tampered_roll_history_renders_only_history_entries_and_at_most_twelve(tab, server):
    # An entry holds the roll's link alone: its seed and inputs are read from it, and
    # a result stored beside it (an older page's entry, or one edited by hand) is never shown.
    good = [{"id": CALC, "url": f"/calculators/{CALC}/?seed={n}"} for n in range(9000)]
    edited = {"id": CALC, "url": f"/calculators/{CALC}/?nation=usa&seed=7", "seed": "8", "inputs": "nation=soviet", "result": "Check succeeds: yes (99.9 %)"}
    odd = [
        {"id": CALC, "url": {"a": 1}},
        {"id": ["x"], "url": f"/calculators/{CALC}/?seed=2"},
        {"id": CALC, "url": f"/calculators/{CALC}/?nation=usa"},
        {"id": CALC, "url": f"/calculators/{CALC}/?seed=3&seed=4"},
        {"id": CALC, "url": f"https://example.org/calculators/{CALC}/?seed=4"},
        {"id": CALC, "url": "/konrad/?seed=5"},
        {"id": CALC, "url": "http://[::1"},
        None, 7, "a string", [CALC],
    ]
    history = [edited] + odd + good
    tab.page.add_init_script(f"sessionStorage.setItem('fm-roll-history', {json.dumps(json.dumps(history))})")
    tab.goto(PAGE)
    tab.calculator(CALC)
    items = tab.page.eval_on_selector_all(f"{ROOT} .fm-history-item", "els => els.map(e => e.textContent)")
    # The first twelve history entries, in order, each as its link says; nothing of the odd ones.
    assert items == ["Seed 7, nation=usa"] + [f"Seed {n}, default inputs" for n in range(11)]
    assert not any("[object Object]" in item or "99.9" in item for item in items)
    # A roll keeps twelve, the new one first, in storage as the page writes them.
    tab.page.click(f"{ROOT} .fm-roll-button")
    tab.page.wait_for_function(f"() => document.querySelectorAll('{ROOT} .fm-history-item').length === 12 && !document.querySelector('{ROOT} .fm-history-item').textContent.startsWith('Seed 7,')")
    stored = json.loads(tab.page.evaluate("sessionStorage.getItem('fm-roll-history')"))
    assert len(stored) == 12 and stored[1]["url"].endswith("?nation=usa&seed=7") and stored[-1]["url"].endswith("?seed=9")
    assert all(set(e) == {"id", "url"} and all(isinstance(v, str) for v in e.values()) for e in stored)


def test_a_history_that_is_not_json_renders_nothing(tab):
    tab.page.add_init_script("sessionStorage.setItem('fm-roll-history', '[{\"id\": ')")
    tab.goto(PAGE)
    tab.calculator(CALC)
    assert tab.page.eval_on_selector_all(f"{ROOT} .fm-history-item", "els => els.length") == 0
    assert tab.page.is_hidden(f"{ROOT} .fm-history")
    assert tab.errors == []


# ---------------------------------------------------------------- over-long values


MEGABYTE = "1" * (1 << 20)


def paste(tab, selector: str, text: str) -> None:
    tab.page.eval_on_selector(selector, "(e, text) => { e.value = text; e.dispatchEvent(new Event('input', {bubbles: true})); }", text)


def test_a_pasted_megabyte_is_refused_beside_the_field_and_never_reaches_the_address(tab):
    tab.goto(PAGE)
    tab.calculator(CALC)
    tab.page.fill(f'{ROOT} [data-input="boosts"]', "2")
    tab.page.wait_for_function("() => location.search === '?boosts=2'")
    paste(tab, f'{ROOT} [data-input="boosts"]', MEGABYTE)
    refused = f'{ROOT} [data-field-refused="boosts"]'
    assert tab.page.is_visible(refused)
    assert tab.page.inner_text(refused) == f"Not taken: {len(MEGABYTE)} characters is longer than any value of Boosts, which keeps its last value."
    assert tab.page.input_value(f'{ROOT} [data-input="boosts"]') == "2"
    assert tab.page.evaluate("location.search") == "?boosts=2"
    assert tab.page.get_attribute(f"{ROOT} .fm-link", "href").endswith(f"/{PAGE}?boosts=2")
    # Option B's fields are held to the same: its changes go in links too.
    tab.page.click(f"{ROOT} .fm-compare-button")
    paste(tab, f'{ROOT} [data-vs-input="boosts"]', MEGABYTE)
    assert tab.page.is_visible(f'{ROOT} [data-field-refused="vs.boosts"]')
    assert tab.page.input_value(f'{ROOT} [data-vs-input="boosts"]') == "2"
    assert len(tab.page.evaluate("location.href")) < 200
    assert len(tab.page.get_attribute(f"{ROOT} .fm-link", "href")) < 200
    # The next value the field takes clears the message.
    tab.page.fill(f'{ROOT} [data-input="boosts"]', "3")
    tab.page.wait_for_function("() => location.search.startsWith('?boosts=3')")
    assert tab.page.is_hidden(refused)
    tab.calculator(CALC)
    assert tab.errors == []
