"""Deciding, understanding, proving (issue 15) in the page: how the odds come
about, rolls anyone can check by opening a link, two options side by side."""

from __future__ import annotations

import hashlib
from urllib.parse import parse_qs, urlsplit

import pytest

import rules_py
from conftest import cli, open_inputs, open_tab, query

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
    # The chart is one table for the three turns' rolls (identical rolls are one step), each listed with how often it is made.
    turn2 = phone.page.locator(f'{scope(calc_id)} .fm-step-item[data-step="0"] .fm-step-rolls li[data-label="air strike chart, start of turn 2"]')
    assert turn2.get_attribute("data-p-rolled") == "1/3"
    assert "rolled 33.3% of the time (1/3)" in turn2.locator(".fm-step-often").text_content()
    # Nothing in it is wider than the phone's screen but for its own scrolling tables.
    assert details.evaluate("d => d.getBoundingClientRect().right") <= PHONE["width"]
    assert phone.errors == []


def test_a_calculator_without_dice_has_no_steps(phone):
    phone.visit("calculators/konrad-supply/")
    phone.calculator("konrad-supply")
    assert phone.page.locator(f"{scope('konrad-supply')} .fm-steps-details").evaluate("d => d.hidden")


# ---------------------------------------------------------------- rolls anyone can check

ROLL_CASES = [
    ("chq-comms-check", {"nation": "usa", "boosts": "1"}),
    ("k47-air-strike", {"turns": "4", "flak_shots": "4", "down": "true"}),
    ("po-artillery-shoot", {"mission": "concentration", "batteries": "2", "to_hit": "3"}),
]
SEEDS = ["0", "7", "1234", "987654321", "18446744073709551615"]


def page_roll(tab, calc_id: str, seed: str):
    """The roll the page made and shows: its dice (label, faces) and each outcome's rolled value."""
    log = tab.page.wait_for_selector(f'{scope(calc_id)} .fm-roll-log[data-seed="{seed}"]:not([hidden])', timeout=60_000)
    dice = log.eval_on_selector_all(".fm-dice > li", "els => els.map(e => [e.dataset.label, e.dataset.faces])")
    outcomes = dict(log.eval_on_selector_all("[data-roll-outcome]", "els => els.map(e => [e.dataset.rollOutcome, e.dataset.value])"))
    return dice, outcomes


def cli_roll(calc_id: str, seed: str, inputs: dict[str, str]):
    out = cli("roll", calc_id, "--seed", seed, *(f"{k}={v}" for k, v in inputs.items()))
    return [[d["label"], " ".join(map(str, d["faces"]))] for d in out["dice"]], out["outcomes"]


@pytest.mark.parametrize(("calc_id", "inputs"), ROLL_CASES, ids=[c for c, _ in ROLL_CASES])
def test_a_roll_link_shows_the_same_roll_as_the_command_line(phone, calc_id, inputs):
    """Five seeds, from 0 to 2**64 - 1: opening ?seed=N with the inputs rolls in the page the
    dice and outcomes that `python -m rules_py roll` gives."""
    phone.errors.clear()
    for seed in SEEDS:
        phone.navigate(f"calculators/{calc_id}/{query({**inputs, 'seed': seed})}")
        dice, outcomes = page_roll(phone, calc_id, seed)
        want_dice, want_outcomes = cli_roll(calc_id, seed, inputs)
        assert dice and dice == want_dice, seed
        assert outcomes == want_outcomes, seed
        # The log says how to see it again: the same inputs and seed.
        link = phone.page.locator(f"{scope(calc_id)} .fm-roll-link")
        assert "Open this link to see the same roll" in link.text_content()
        changed = rules_py.answer(calc_id, inputs, seed)["changed"]  # the inputs that differ from their defaults
        assert parse_qs(urlsplit(link.get_attribute("data-roll-link")).query) == {**{k: [v] for k, v in changed.items()}, "seed": [seed]}
        assert not phone.page.locator(f"{scope(calc_id)} .fm-notice").is_visible()  # seed is not "ignored"
    assert phone.errors == []


def test_a_phrase_seed_rolls_as_the_number_it_hashes_to(phone):
    """SHA-256 of the phrase's UTF-8, first 8 bytes big-endian: the page sends the phrase as typed,
    and its roll is the CLI's roll with that number (and with the phrase)."""
    calc_id, inputs, phrase = "chq-comms-check", {"nation": "soviet"}, "Konrad day 3, sector 14"
    number = str(int.from_bytes(hashlib.sha256(phrase.encode()).digest()[:8], "big"))
    phone.navigate(f"calculators/{calc_id}/{query({**inputs, 'seed': phrase})}")
    dice, outcomes = page_roll(phone, calc_id, phrase)
    assert (dice, outcomes) == tuple(cli_roll(calc_id, number, inputs)) == tuple(cli_roll(calc_id, phrase, inputs))
    assert number in phone.page.locator(f"{scope(calc_id)} .fm-roll-head").text_content()


def test_copy_link_after_a_roll_carries_its_seed_and_the_tab_keeps_a_history(browser, server):
    """Roll with a typed seed: Copy link and the address carry it; the tab's history lists the
    roll with its link; a changed input drops the seed from the link (that roll was for other inputs)."""
    tab = open_tab(browser, server, viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        calc_id = "chq-comms-check"
        tab.goto(f"calculators/{calc_id}/?nation=usa")
        root = tab.calculator(calc_id)
        for seed in ("41", "supper at Minsk"):
            tab.page.fill(f"{scope(calc_id)} .fm-seed", seed)
            tab.page.click(f"{scope(calc_id)} .fm-roll-button")
            page_roll(tab, calc_id, seed)
            tab.page.click(f"{scope(calc_id)} .fm-copy-button")
            tab.page.wait_for_function("() => document.querySelector('.calculator').dataset.copied !== undefined")
            copied = root.get_attribute("data-copied")
            assert parse_qs(urlsplit(copied).query) == {"nation": ["usa"], "seed": [seed]}
            assert parse_qs(urlsplit(tab.page.url).query) == {"nation": ["usa"], "seed": [seed]}
            root.evaluate("r => delete r.dataset.copied")
        items = tab.page.eval_on_selector_all(f"{scope(calc_id)} .fm-history-item", "els => els.map(e => [e.dataset.seed, e.querySelector('a').href])")
        assert [s for s, _ in items] == ["supper at Minsk", "41"]  # newest first
        assert all(parse_qs(urlsplit(href).query)["seed"] == [s] for s, href in items)
        # Another input: the roll shown is not one of these inputs, so the link has no seed.
        open_inputs(tab.page, scope(calc_id))
        tab.page.select_option(f'{scope(calc_id)} [data-input="nation"]', "soviet")
        tab.page.wait_for_function("() => !new URLSearchParams(location.search).has('seed') && new URLSearchParams(location.search).get('nation') === 'soviet'")
        assert "seed=" not in root.query_selector(".fm-link").get_attribute("href")
        # The history survives a reload of the tab (sessionStorage).
        tab.page.reload()
        tab.calculator(calc_id)
        assert tab.page.locator(f"{scope(calc_id)} .fm-history-item").count() == 2
        assert tab.errors == []
    finally:
        tab.close()


# ---------------------------------------------------------------- compare


def option_cells(tab, calc_id: str, option: str) -> dict[tuple[str, str], str]:
    return {
        (o, v): p
        for o, v, p in tab.page.eval_on_selector_all(
            f'{scope(calc_id)} .fm-compare-option[data-option="{option}"] [data-p]', "els => els.map(e => [e.dataset.outcome, e.dataset.value, e.dataset.p])"
        )
    }


def test_a_compare_link_shows_both_options_and_their_difference(phone):
    """Comms, Germany against the Soviets (hand-worked in tests/test_compare.py): success 1/2 and 11/32,
    b - a = -5/32; the mean margin 1/2 and 0. Stacked on a phone: B under A."""
    calc_id = "chq-comms-check"
    phone.errors.clear()
    phone.goto(f"calculators/{calc_id}/?nation=germany&vs.nation=soviet")
    root = phone.calculator(calc_id)
    phone.page.wait_for_selector(f'{scope(calc_id)}[data-compare-status="ready"]')
    a, b = option_cells(phone, calc_id, "a"), option_cells(phone, calc_id, "b")
    assert a[("success", "true")] == "1/2" and b[("success", "true")] == "11/32"
    assert a[("margin", "4")] == "1/128" and ("margin", "4") not in b  # the Soviets' 3 dice cannot beat 3 by 4
    diffs = dict(phone.page.eval_on_selector_all(f"{scope(calc_id)} .fm-compare-table tbody tr", "els => els.map(e => [e.dataset.outcome, e.querySelector('[data-diff]').dataset.diff])"))
    assert diffs == {"success": "-5/32", "margin": "-1/2"}
    assert phone.page.locator(f'{scope(calc_id)} .fm-compare-table tr[data-outcome="success"] .fm-diff').text_content() == "\u221215.6 points"
    box_a = phone.page.locator(f'{scope(calc_id)} .fm-compare-option[data-option="a"]').bounding_box()
    box_b = phone.page.locator(f'{scope(calc_id)} .fm-compare-option[data-option="b"]').bounding_box()
    assert box_b["y"] >= box_a["y"] + box_a["height"]  # stacked
    assert not root.query_selector(".fm-notice").is_visible()  # vs. parameters are not "ignored"
    assert phone.errors == []


def test_compare_side_by_side_on_a_desktop_and_its_state_in_the_address(browser, server):
    """Open option B, change its boosts: the address carries vs.boosts; B follows A where it has no
    change; Stop comparing drops vs. from the address. Soviet + 1 boost (4 dice) against + 2 (5 dice):
    Bin(7) >= 4 = 1/2 against Bin(8) >= 4 = 163/256."""
    tab = open_tab(browser, server, viewport={"width": 1280, "height": 900})
    try:
        calc_id = "chq-comms-check"
        tab.goto(f"calculators/{calc_id}/?nation=soviet&boosts=1")
        tab.calculator(calc_id)
        tab.page.click(f"{scope(calc_id)} .fm-compare-button")
        tab.page.fill(f'{scope(calc_id)} [data-vs-input="boosts"]', "2")
        tab.page.wait_for_function("() => new URLSearchParams(location.search).get('vs.boosts') === '2'")
        tab.page.wait_for_selector(f'{scope(calc_id)}[data-compare-status="ready"] .fm-compare-option[data-option="b"] [data-outcome="success"][data-value="true"][data-p="163/256"]', state="attached")
        assert option_cells(tab, calc_id, "a")[("success", "true")] == "1/2"
        box_a = tab.page.locator(f'{scope(calc_id)} .fm-compare-option[data-option="a"]').bounding_box()
        box_b = tab.page.locator(f'{scope(calc_id)} .fm-compare-option[data-option="b"]').bounding_box()
        assert abs(box_a["y"] - box_b["y"]) < 1 and box_b["x"] > box_a["x"]  # side by side
        # A's nation changes: B, which did not change its nation, follows (Germany + 2 boosts: 6 dice, Bin(9) >= 4 = 191/256).
        tab.page.select_option(f'{scope(calc_id)} [data-input="nation"]', "germany")
        tab.page.wait_for_selector(f'{scope(calc_id)} .fm-compare-option[data-option="b"] [data-outcome="success"][data-value="true"][data-p="191/256"]', state="attached")
        assert tab.page.locator(f'{scope(calc_id)} [data-vs-input="nation"]').input_value() == "germany"
        tab.page.click(f"{scope(calc_id)} .fm-compare-button")
        tab.page.wait_for_function("() => ![...new URLSearchParams(location.search).keys()].some(k => k.startsWith('vs.'))")
        assert tab.page.locator(f"{scope(calc_id)} .fm-compare").is_hidden()
        assert tab.errors == []
    finally:
        tab.close()


def test_a_bad_option_b_input_is_said_beside_its_field(phone):
    calc_id = "chq-comms-check"
    phone.goto(f"calculators/{calc_id}/?vs.boosts=-1")
    phone.calculator(calc_id)
    error = phone.page.wait_for_selector(f'{scope(calc_id)} [data-field-error="vs.boosts"]:not([hidden])')
    assert "boosts" in error.text_content() or "-1" in error.text_content()
