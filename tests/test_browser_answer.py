"""What a player sees of an answer, on a phone: the summary in view, values for
certain outcomes, stale rolls marked, a field being typed that keeps the last
answer, and seeds exact past 2**53 (the page's command repeats its dice)."""

from __future__ import annotations

import json
import shlex

import pytest

import rules_py
from conftest import BOOT_TIMEOUT_MS, cli, open_inputs, open_tab

pytestmark = pytest.mark.browser

CALCS = rules_py.calculators()
IDS = [c.id for c in CALCS]
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def phone(browser, server):
    tab = open_tab(browser, server, viewport=PHONE, has_touch=True, is_mobile=True)
    tab.goto(f"calculators/{CALCS[0].id}/")
    tab.calculator(CALCS[0].id)
    yield tab
    tab.close()


def scope(calc_id: str) -> str:
    return f'.calculator[data-calculator="{calc_id}"]'


@pytest.mark.parametrize("calc", CALCS, ids=IDS)
def test_the_summary_is_in_view_on_a_phone_with_a_line_per_outcome(phone, calc):
    phone.errors.clear()
    phone.navigate(f"calculators/{calc.id}/")
    phone.calculator(calc.id)
    doc = rules_py.answer(calc.id)
    lines = phone.page.eval_on_selector_all(f"{scope(calc.id)} .fm-summary-list > li", "els => els.map(e => [e.dataset.outcome, e.querySelector('.fm-sum-text').textContent])")
    assert lines == [[o["name"], o["summary"][len(o["label"]) + 2 :]] for o in doc["outcomes"]]
    # The pinned headline (issue 23: the lines follow in the page) is on the first screen,
    # above the first input (the form opened from its summary); scrolled to the last input, it is still in view.
    open_inputs(phone.page, scope(calc.id))
    phone.page.evaluate("window.scrollTo(0, 0)")
    box = phone.page.locator(f"{scope(calc.id)} .fm-answer-box [data-headline]").bounding_box()
    first_input = phone.page.locator(f"{scope(calc.id)} [data-input]").first.bounding_box()
    assert box["y"] < PHONE["height"] and box["y"] < first_input["y"], (box, first_input)
    last = phone.page.locator(f"{scope(calc.id)} [data-input]").last
    last.scroll_into_view_if_needed()
    top = phone.page.locator(f"{scope(calc.id)} .fm-answer-box [data-headline]").evaluate("e => e.getBoundingClientRect().top")
    assert 0 <= top < PHONE["height"] - 100, top  # on screen
    assert phone.errors == []


@pytest.mark.parametrize("calc", CALCS, ids=IDS)
def test_certain_outcomes_are_values_not_100_percent_tables(phone, calc):
    phone.navigate(f"calculators/{calc.id}/")
    phone.calculator(calc.id)
    doc = rules_py.answer(calc.id)
    for o in doc["outcomes"]:
        table = phone.page.query_selector(f'{scope(calc.id)} .fm-outcome[data-outcome="{o["name"]}"] table')
        if o["kind"] == "certain":
            assert table is None, o["name"]
            shown = phone.page.text_content(f'{scope(calc.id)} .fm-outcome[data-outcome="{o["name"]}"] .fm-certain strong')
            assert shown == o["value_label"]
        else:
            rows = phone.page.eval_on_selector_all(f'{scope(calc.id)} .fm-outcome[data-outcome="{o["name"]}"] td.fm-frac', "els => els.map(e => e.textContent)")
            assert rows == [v["p"] for v in o["values"] if v["p"] != "0"]  # impossible rows hidden
            assert "0" not in rows and "1" not in rows


def test_a_roll_is_marked_stale_when_an_input_changes(phone):
    calc_id = "chq-comms-check"
    phone.navigate(f"calculators/{calc_id}/")
    phone.calculator(calc_id)
    page = phone.page
    open_inputs(page, scope(calc_id))
    page.fill(f"{scope(calc_id)} .fm-seed", "99")
    page.click(f"{scope(calc_id)} .fm-roll-button")
    page.wait_for_selector(f'{scope(calc_id)} .fm-roll-log[data-seed="99"][data-stale="false"]', timeout=BOOT_TIMEOUT_MS)
    assert page.is_hidden(f"{scope(calc_id)} .fm-roll-stale-note")
    page.select_option(f'{scope(calc_id)} [data-input="nation"]', "usa")
    page.wait_for_selector(f'{scope(calc_id)} .fm-roll-log[data-stale="true"]')
    phone.calculator(calc_id)
    assert page.is_visible(f"{scope(calc_id)} .fm-roll-stale-note")
    # Back to the rolled inputs: the roll is current again.
    page.select_option(f'{scope(calc_id)} [data-input="nation"]', "germany")
    page.wait_for_selector(f'{scope(calc_id)} .fm-roll-log[data-stale="false"]')


def test_clearing_a_field_keeps_the_last_answer_dimmed_and_the_error_waits(phone):
    calc_id = "chq-comms-check"
    phone.navigate(f"calculators/{calc_id}/?boosts=1")
    phone.calculator(calc_id)
    page = phone.page
    widget = f'{scope(calc_id)} [data-input="boosts"]'
    open_inputs(page, scope(calc_id))
    before = phone.odds_cells(calc_id)
    page.fill(widget, "")
    page.wait_for_selector(f"{scope(calc_id)}[data-valid='false'] .fm-summary[data-stale='true']")
    phone.calculator(calc_id)
    assert page.is_hidden(f'{scope(calc_id)} [data-field-error="boosts"]')
    assert page.eval_on_selector_all(f"{scope(calc_id)} .fm-summary [data-outcome]", "els => els.length") > 0  # still shown, dimmed
    page.fill(widget, "1")
    page.wait_for_selector(f"{scope(calc_id)}[data-valid='true'] .fm-summary:not([data-stale])")
    phone.calculator(calc_id)
    assert phone.odds_cells(calc_id) == before
    page.fill(widget, "")
    page.press(widget, "Enter")
    page.wait_for_selector(f'{scope(calc_id)} [data-field-error="boosts"]:not([hidden])')


def test_the_switch_reads_chances_at_least_and_at_most(phone):
    calc_id = "chq-comms-check"
    phone.navigate(f"calculators/{calc_id}/?nation=soviet")
    phone.calculator(calc_id)
    doc = rules_py.answer(calc_id, {"nation": "soviet"})
    margin = next(o for o in doc["outcomes"] if o["name"] == "margin")
    chips = f'{scope(calc_id)} .fm-sum[data-outcome="margin"] .fm-chip-p'
    for mode, field in (("at_least", "at_least_percent"), ("at_most", "at_most_percent"), ("exactly", "percent")):
        phone.page.click(f'{scope(calc_id)} .fm-modes label:text-is("{ {"at_least": "At least", "at_most": "At most", "exactly": "Exactly"}[mode] }")')
        shown = phone.page.eval_on_selector_all(chips, "els => els.map(e => e.textContent)")
        assert shown == [v[field] for v in margin["values"]], mode


@pytest.mark.parametrize("seed", ["18014398509481985", "999999999999999999", "18446744073709551615", "Konrad day 3, sector 14"])
def test_seeds_are_exact_and_the_shown_command_repeats_the_dice(phone, seed):
    calc_id = "chq-fire-for-effect"
    phone.navigate(f"calculators/{calc_id}/")
    phone.calculator(calc_id)
    page = phone.page
    page.fill(f"{scope(calc_id)} .fm-seed", seed)
    page.click(f"{scope(calc_id)} .fm-roll-button")
    log = page.wait_for_selector(f'{scope(calc_id)} .fm-roll-log[data-seed="{seed}"]', timeout=BOOT_TIMEOUT_MS)
    assert log.query_selector(".fm-roll-seed").inner_text() == seed
    command = log.query_selector(".fm-roll-command").inner_text()
    repeated = cli(*shlex.split(command)[3:])
    faces = log.eval_on_selector_all("li[data-faces]", "els => els.map(e => e.dataset.faces)")
    assert faces == [" ".join(map(str, d["faces"])) for d in repeated["dice"]]


@pytest.mark.parametrize("seed", ["\u00b2", "18446744073709551616", "-1", "1.5"])
def test_bad_seeds_get_the_engines_message_beside_the_field(phone, seed):
    calc_id = "chq-comms-check"
    phone.navigate(f"calculators/{calc_id}/")
    phone.calculator(calc_id)
    page = phone.page
    page.fill(f"{scope(calc_id)} .fm-seed", seed)
    page.click(f"{scope(calc_id)} .fm-roll-button")
    error = page.wait_for_selector(f'{scope(calc_id)} [data-field-error="seed"]:not([hidden])', timeout=BOOT_TIMEOUT_MS)
    assert "a seed is a whole number from 0 to 18446744073709551615" in error.inner_text()


def test_a_name_given_twice_in_a_link_is_refused_as_the_cli_refuses_it(phone):
    calc_id = "chq-comms-check"
    phone.navigate(f"calculators/{calc_id}/?nation=usa&nation=soviet")
    phone.calculator(calc_id)
    error = phone.page.wait_for_selector(f'{scope(calc_id)} [data-field-error="nation"]:not([hidden])')
    refused = json.loads(rules_py.call_json(json.dumps({"op": "answer", "id": calc_id, "inputs": {"nation": ["usa", "soviet"]}})))
    assert error.inner_text() == refused["fields"][0]["message"]
    assert phone.odds_cells(calc_id) == {}


def test_enter_on_roll_rolls_and_keeps_focus_on_the_button(phone):
    calc_id = "k47-medic"
    phone.navigate(f"calculators/{calc_id}/")
    phone.calculator(calc_id)
    page = phone.page
    page.fill(f"{scope(calc_id)} .fm-seed", "31")
    page.focus(f"{scope(calc_id)} .fm-roll-button")
    page.keyboard.press("Enter")
    page.wait_for_selector(f'{scope(calc_id)} .fm-roll-log[data-seed="31"]', timeout=BOOT_TIMEOUT_MS)
    assert page.evaluate("() => document.activeElement.classList.contains('fm-roll-button')")
    # The focus ring is drawn, and is not the results' highlight colour.
    ring = page.eval_on_selector(f"{scope(calc_id)} .fm-roll-button", "e => getComputedStyle(e).outlineStyle")
    assert ring != "none"
