"""Every registered calculator in a real browser: odds, rolls, links and errors.

One tab boots the engine once; the tests move between calculator pages with
mkdocs-material's instant navigation, as a reader clicking links does, so the
worker (and Pyodide) is reused. Every number is checked against the CLI
(``python -m rules_py``) for the same inputs.
"""

from __future__ import annotations

from urllib.parse import parse_qsl

import pytest

import rules_py
from conftest import BOOT_TIMEOUT_MS, cli, cli_odds, open_tab, query
from rules_py.calculator import InputError
from rules_py.formats import format_value

pytestmark = pytest.mark.browser

CALCS = rules_py.calculators()
IDS = [c.id for c in CALCS]


def example_inputs(calc) -> dict[str, str]:
    """Non-default inputs: the calculator's first example (less any value that is
    the default, which the address leaves out), else one field changed."""
    if calc.examples:
        return {k: v for k, v in calc.examples[0].items() if calc.field(k).parse(v) != calc.field(k).default}
    for f in calc.fields:
        if f.type == "choice" and len(f.choices) > 1:
            other = next(c.name for c in f.choices if c.name != f.default)
            return {f.name: other}
        if f.type == "bool":
            return {f.name: format_value(not f.default)}
        if f.type == "int" and f.default is not None:
            for value in (f.default + 1, f.default - 1):
                if (f.minimum is None or value >= f.minimum) and (f.maximum is None or value <= f.maximum):
                    return {f.name: str(value)}
    return {}


def bad_value(field) -> str | None:
    """A value the field's own parser refuses, by type (None: no generic one)."""
    return {"int": "two", "number": "lots", "choice": "no-such-choice", "bool": "maybe"}.get(field.type)


def engine_message(calc, name: str, raw: str) -> str:
    with pytest.raises(InputError) as caught:
        calc.validate({name: raw})
    messages = [m for f, m in caught.value.errors if f == name]
    assert messages, caught.value.errors
    return " ".join(messages)


@pytest.fixture(scope="module")
def shared(browser, server):
    """One tab for the module, its engine booted on the first calculator page."""
    tab = open_tab(browser, server, permissions=["clipboard-read", "clipboard-write"])
    tab.goto(f"calculators/{CALCS[0].id}/")
    tab.calculator(CALCS[0].id)
    yield tab
    tab.close()


@pytest.fixture
def page_of(shared):
    """Open a calculator page (with a query) in the shared tab; return the tab."""

    def go(calc_id: str, inputs: dict[str, str] | None = None, status: str = "ready"):
        shared.errors.clear()
        shared.navigate(f"calculators/{calc_id}/{query(inputs or {})}")
        shared.calculator(calc_id, status)
        return shared

    return go


def split_link(url: str) -> tuple[str, dict[str, str]]:
    """A link as (address without query, inputs): URLSearchParams and urlencode escape differently."""
    base, _, q = url.partition("?")
    return base, dict(parse_qsl(q, keep_blank_values=True))


def address_inputs(tab) -> dict[str, str]:
    return dict(parse_qsl(tab.page.evaluate("location.search").lstrip("?"), keep_blank_values=True))


@pytest.mark.parametrize("calc", CALCS, ids=IDS)
def test_page_opened_with_a_query_shows_the_clis_odds(page_of, calc):
    inputs = example_inputs(calc)
    tab = page_of(calc.id, inputs)
    root = tab.calculator(calc.id)
    assert root.get_attribute("data-valid") == "true"
    assert tab.odds_cells(calc.id) == cli_odds(calc.id, inputs)
    # The form shows the link's values, and the address keeps them.
    for name, value in inputs.items():
        shown = tab.page.eval_on_selector(
            f'.calculator[data-calculator="{calc.id}"] [data-input="{name}"]',
            "e => e.type === 'checkbox' ? String(e.checked) : e.value",
        )
        assert shown == value, name
    assert address_inputs(tab) == inputs
    assert tab.errors == []


@pytest.mark.parametrize("calc", [c for c in CALCS if c.rolls_dice], ids=[c.id for c in CALCS if c.rolls_dice])
def test_seeded_roll_in_the_page_equals_the_clis_roll(page_of, calc):
    inputs = example_inputs(calc)
    tab = page_of(calc.id, inputs)
    page = tab.page
    scope = f'.calculator[data-calculator="{calc.id}"]'
    page.fill(f"{scope} .fm-seed", "4242")
    page.click(f"{scope} .fm-roll-button")
    log = page.wait_for_selector(f'{scope} .fm-roll-log[data-seed="4242"]', timeout=BOOT_TIMEOUT_MS)
    expected = cli("roll", calc.id, "--seed", "4242", *(f"{k}={v}" for k, v in inputs.items()))
    dice = log.eval_on_selector_all("li[data-label]", "els => els.map(e => [e.dataset.label, e.dataset.dice, e.dataset.faces, e.querySelector('.fm-die-result').textContent])")
    typed = rules_py.answer(calc.id, inputs, "4242")
    assert dice == [[d["label"], d["dice"], " ".join(map(str, d["faces"])), t["result"]] for d, t in zip(expected["dice"], typed["dice"], strict=True)]
    outcomes = dict(log.eval_on_selector_all("dd[data-roll-outcome]", "els => els.map(e => [e.dataset.rollOutcome, e.dataset.value])"))
    assert outcomes == expected["outcomes"]
    assert log.query_selector(".fm-roll-command").inner_text() == typed["command"]
    if not typed["dice"]:
        assert log.query_selector(".fm-roll-nodice").inner_text() == typed["no_dice"]
    # The seed box holds the seed of the roll shown, as the log does (Roll again draws a new one).
    assert page.input_value(f"{scope} .fm-seed") == "4242"
    assert tab.errors == []


@pytest.mark.parametrize("calc", CALCS, ids=IDS)
def test_changing_an_input_recomputes_and_updates_the_address(page_of, calc):
    tab = page_of(calc.id)
    inputs = example_inputs(calc)
    page = tab.page
    scope = f'.calculator[data-calculator="{calc.id}"]'
    for name, value in inputs.items():
        widget = f'{scope} [data-input="{name}"]'
        kind = page.eval_on_selector(widget, "e => e.tagName + ':' + e.type")
        if kind == "INPUT:checkbox":
            page.set_checked(widget, value == "true")
        elif kind.startswith("SELECT"):
            page.select_option(widget, value)
        else:
            page.fill(widget, value)
    tab.calculator(calc.id)
    assert address_inputs(tab) == inputs
    assert tab.odds_cells(calc.id) == cli_odds(calc.id, inputs)
    assert tab.errors == []


@pytest.mark.parametrize("calc", CALCS, ids=IDS)
def test_bad_value_in_the_address_shows_the_fields_message_and_no_result(page_of, calc):
    field = next((f for f in calc.fields if bad_value(f) is not None), None)
    if field is None:
        pytest.skip("no field with a generic bad value")
    raw = bad_value(field)
    tab = page_of(calc.id, {field.name: raw})
    scope = f'.calculator[data-calculator="{calc.id}"]'
    error = tab.page.wait_for_selector(f'{scope} [data-field-error="{field.name}"]:not([hidden])')
    assert error.inner_text() == engine_message(calc, field.name, raw)
    assert tab.page.get_attribute(f'{scope} [data-input="{field.name}"]', "aria-invalid") == "true"
    assert tab.page.get_attribute(scope, "data-valid") == "false"
    assert tab.odds_cells(calc.id) == {}
    if calc.rolls_dice:
        assert tab.page.is_disabled(f"{scope} .fm-roll-button")
    else:
        assert tab.page.query_selector(f"{scope} .fm-roll-button") is None
    assert tab.errors == []


TYPED_IN = ("int", "number", "map", "text")  # the fields a player types into; choices and yes/no are picked
MISTYPABLE = [c for c in CALCS if any(f.type in TYPED_IN for f in c.fields)]


def field_to_mistype(calc) -> tuple:
    """A field a player types into, and a value it refuses: a number out of
    bounds, or else text that the map or text field cannot read."""
    number = next((f for f in calc.fields if f.type in ("int", "number")), None)
    if number is not None:
        return number, str(number.maximum + 1) if number.maximum is not None else "1.5.5"
    text = next(f for f in calc.fields if f.type in ("map", "text"))
    return text, "!!!"


# A calculator whose fields are all picked from (CONTRIBUTING.md's morale check) has nothing to mistype.
@pytest.mark.parametrize("calc", MISTYPABLE, ids=[c.id for c in MISTYPABLE])
def test_bad_value_typed_in_a_field_shows_its_message_then_clears(page_of, calc):
    field, bad = field_to_mistype(calc)
    tab = page_of(calc.id)
    page = tab.page
    scope = f'.calculator[data-calculator="{calc.id}"]'
    widget = f'{scope} [data-input="{field.name}"]'
    page.fill(widget, bad)
    tab.calculator(calc.id)
    page.wait_for_selector(f"{scope}[data-valid='false']")
    # While the player is still in the field the message waits and the last answer stays, dimmed.
    assert page.is_hidden(f'{scope} [data-field-error="{field.name}"]')
    assert page.get_attribute(f"{scope} .fm-summary", "data-stale") == "true"
    page.press(widget, "Tab")  # leaving the field shows the message
    error = page.wait_for_selector(f'{scope} [data-field-error="{field.name}"]:not([hidden])')
    assert error.inner_text() == engine_message(calc, field.name, bad)
    assert tab.odds_cells(calc.id) == {}
    # Typing the default back brings the result back and clears the message.
    page.fill(widget, format_value(field.default))
    tab.calculator(calc.id)
    page.wait_for_selector(f"{scope}[data-valid='true']")
    page.wait_for_selector(f'{scope} [data-field-error="{field.name}"][hidden]', state="attached")
    assert tab.odds_cells(calc.id) == cli_odds(calc.id, {})
    assert tab.errors == []


def test_unknown_link_parameters_are_ignored_and_said_so(page_of):
    calc = CALCS[0]
    tab = page_of(calc.id, {"no_such_input": "3", "h": "search words"})
    scope = f'.calculator[data-calculator="{calc.id}"]'
    assert tab.page.inner_text(f"{scope} .fm-notice") == "Not an input of this calculator, so ignored: no_such_input."
    assert tab.odds_cells(calc.id) == cli_odds(calc.id, {})


def test_a_link_of_thousands_of_unknown_names_lists_a_few_and_counts_them(page_of):
    """Issue 44: 3,000 unknown keys were all listed in the notice. The first eight are named,
    with how many there are in all."""
    calc = CALCS[0]
    tab = page_of(calc.id, {f"x{i}": "1" for i in range(3000)})
    scope = f'.calculator[data-calculator="{calc.id}"]'
    named = ", ".join(f"x{i}" for i in range(8))
    assert tab.page.inner_text(f"{scope} .fm-notice") == f"Not an input of this calculator, so ignored: {named}\u2026 (3000 names in all)."
    assert tab.odds_cells(calc.id) == cli_odds(calc.id, {})


def test_copy_link_copies_the_calculator_page_with_its_inputs(page_of, server):
    calc = CALCS[0]
    inputs = example_inputs(calc)
    tab = page_of(calc.id, inputs)
    scope = f'.calculator[data-calculator="{calc.id}"]'
    tab.page.click(f"{scope} .fm-copy-button")
    tab.page.wait_for_selector(f"{scope}[data-copied]")
    expected = (server.url(f"calculators/{calc.id}/"), inputs)
    assert split_link(tab.page.evaluate("navigator.clipboard.readText()")) == expected
    assert split_link(tab.page.get_attribute(f"{scope} .fm-link", "href")) == expected


def test_odds_table_has_percent_fraction_at_least_and_mean(page_of):
    # chq-comms-check, Soviet (3D) with one boost: 4 comms dice against 3, margin = Bin(7, 1/2) - 3
    # (see rules_py/combat_hq/comms.py), so P(margin = k) = C(7, k+3)/128 and the mean is 7/2 - 3 = 1/2.
    tab = page_of("chq-comms-check", {"nation": "soviet", "boosts": "1"})
    scope = '.calculator[data-calculator="chq-comms-check"]'
    row = tab.page.eval_on_selector(
        f'{scope} td.fm-pct[data-outcome="margin"][data-value="1"]',
        "td => [...td.parentElement.children].map(c => c.textContent)",
    )
    # P(margin >= 1) = (35+21+7+1)/128 = 1/2; P(margin <= 1) = 1 - (21+7+1)/128 = 99/128 = 77.3%
    assert row == ["1", "27.3%", "", "35/128", "50.0%", "77.3%"]
    at_least_minus_2 = tab.page.get_attribute(f'{scope} [data-p-at-least][data-value="-2"]', "data-p-at-least")
    assert at_least_minus_2 == "127/128"  # everything but margin -3 (1/128)
    assert tab.page.get_attribute(f'{scope} .fm-mean[data-outcome="margin"]', "data-mean") == "1/2"
    success = tab.page.eval_on_selector_all(f'{scope} td.fm-frac[data-outcome="success"]', "els => els.map(e => e.dataset.value + '=' + e.textContent)")
    assert success == ["false=1/2", "true=1/2"]


def test_the_engine_in_the_page_gives_every_calculators_typed_answer(page_of):
    # Pages show the build's answers for defaults and examples without the engine
    # (test_browser_prerendered.py), so the engine itself is asked here, for every
    # calculator: its answer in the browser is rules_py.answer's, field for field.
    # How fast is for scripts/bench/bench_browser.py to measure, not for a test.
    tab = page_of(CALCS[0].id)
    for calc in CALCS:
        for inputs in (example_inputs(calc), {}):
            got = tab.page.evaluate(
                "async ([id, inputs]) => (await window.fireMissionEngine.call('odds', {id, inputs})).answer",
                [calc.id, inputs],
            )
            assert got == rules_py.answer(calc.id, inputs), (calc.id, inputs)
