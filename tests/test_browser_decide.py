"""Deciding, understanding, proving (issue 15) in the page: how the odds come
about, rolls anyone can check by opening a link, two options side by side."""

from __future__ import annotations

import pytest

import rules_py
from conftest import open_tab

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def scope(calc_id: str) -> str:
    return f'.calculator[data-calculator="{calc_id}"]'


@pytest.fixture(scope="module")
def phone(browser, server):
    tab = open_tab(browser, server, viewport=PHONE, has_touch=True, is_mobile=True)
    yield tab
    tab.close()


def test_how_it_comes_about_shows_every_step_of_the_answer(phone):
    """The air strike over three turns: the chart at turn 1 always rolled (1/6, 1/3, 1/2 from the
    chart), turn 2 rolled 1/3 of the time; the page shows what the engine's steps say, folded away."""
    calc_id = "k47-air-strike"
    phone.errors.clear()
    phone.goto(f"calculators/{calc_id}/?turns=3")
    phone.calculator(calc_id)
    details = phone.page.locator(f"{scope(calc_id)} .fm-steps-details")
    assert details.evaluate("d => !d.open && !d.hidden")
    details.locator("summary").click()
    steps = phone.page.eval_on_selector_all(
        f"{scope(calc_id)} .fm-step-item",
        "els => els.map(e => [e.dataset.label, e.dataset.pRolled, [...e.querySelectorAll('td.fm-frac')].map(c => [c.dataset.value, c.dataset.p])])",
    )
    doc = rules_py.answer(calc_id, {"turns": "3"})
    assert steps == [[s["label"], s["p_rolled"], [[v["value"], v["p"]] for v in s["values"]]] for s in doc["steps"]]
    assert steps[0] == ["air strike chart, start of turn 1", "1", [["rookie", "1/6"], ["empty", "1/3"], ["attack", "1/2"]]]
    assert steps[1][1] == "1/3"
    assert "rolled 33.3% of the time (1/3)" in phone.page.locator(f'{scope(calc_id)} .fm-step-item[data-step="1"] .fm-step-often').text_content()
    # Nothing in it is wider than the phone's screen but for its own scrolling tables.
    assert details.evaluate("d => d.getBoundingClientRect().right") <= PHONE["width"]
    assert phone.errors == []


def test_a_calculator_without_dice_has_no_steps(phone):
    phone.goto("calculators/konrad-supply/")
    phone.calculator("konrad-supply")
    assert phone.page.locator(f"{scope('konrad-supply')} .fm-steps-details").evaluate("d => d.hidden")
