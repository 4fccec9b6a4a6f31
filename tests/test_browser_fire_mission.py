"""The whole fire mission in the page (chq-fire-mission), on a phone: the rules
page that embeds it shows the CLI's headline; a call whose comms check fails
is kept in play waiting for its deviation die, and carried on next turn
across the stages (the deviation die, then the two sides' pools) to the
CLI's outcomes; a seeded roll labels every die by its stage as the CLI does."""

from __future__ import annotations

import pytest

import rules_py
from conftest import BOOT_TIMEOUT_MS, cli, open_tab

pytestmark = [pytest.mark.browser, pytest.mark.site]

PHONE = {"width": 390, "height": 844}
MISSION = "chq-fire-mission"
CALC = f'.calculator[data-calculator="{MISSION}"]'
ROOT = f"{CALC} .fm-own-dice"
DELAYED = "1,2,3,1,4,5,6"  # Germany's 4 comms dice score 0 against the 3 opposing dice's 2: delayed


@pytest.fixture(scope="module")
def phone(browser, server):
    tab = open_tab(browser, server, viewport=PHONE, has_touch=True, is_mobile=True)
    tab.page.on("dialog", lambda dialog: dialog.accept())
    yield tab
    tab.close()


def resolution(tab, dice: str, status: str = "need"):
    return tab.page.wait_for_selector(f'{ROOT}[data-resolve="{status}"][data-dice="{dice}"]:not([data-busy])', timeout=BOOT_TIMEOUT_MS)


def tap(tab, selector: str, nth: int = 0) -> None:
    tab.page.evaluate("() => document.querySelector('.fm-offline-failed button')?.click()")
    locator = tab.page.locator(selector).nth(nth)
    locator.evaluate("e => e.scrollIntoView({block: 'center'})")
    locator.click()


def test_the_rules_page_shows_the_chance_it_suppresses_this_turn(phone):
    phone.goto("combat-hq/fire-missions/")
    cell = f'{CALC} [data-outcome="suppressed_this_turn"][data-value="true"][data-p]'
    phone.page.wait_for_selector(cell, state="attached")
    shown = set(phone.page.eval_on_selector_all(cell, "els => els.map(e => e.dataset.p)"))
    assert shown == {cli("odds", MISSION)["outcomes"]["suppressed_this_turn"]["true"]} == {"23879/186624"}
    assert phone.page.inner_text(f"{CALC} .fm-answer-box [data-headline]") == rules_py.answer(MISSION)["headline"]
    assert phone.errors == []


def test_a_delayed_call_is_kept_in_play_and_carried_on_next_turn(phone):
    phone.goto(f"calculators/{MISSION}/?dice={DELAYED}")
    resolution(phone, DELAYED)
    need = cli("resolve", MISSION, "--dice", DELAYED)["need"]
    assert phone.page.get_attribute(f"{ROOT} [data-need-label]", "data-need-label") == need["label"]
    assert need["label"].startswith("deviation die")
    phone.page.fill(f"{ROOT} .fm-mission-name", "Battery A, next turn")
    tap(phone, f"{ROOT} [data-keep]")
    phone.page.wait_for_selector(f'{ROOT} .fm-keep-status[data-kept="true"]')
    phone.visit("in-play/")
    phone.page.wait_for_selector('[data-in-play][data-status="ready"]', timeout=BOOT_TIMEOUT_MS)
    link = phone.page.locator(".fm-mission-continue")
    assert link.count() == 1 and link.get_attribute("data-need-label") == need["label"]
    assert phone.page.locator("[data-mission] .fm-mission-name").input_value() == "Battery A, next turn"
    # Next turn: carry on where it stopped. A Hit (face 1) on the deviation die,
    # then the battery's 4 Fire Dice and the unit's 3 dice by their faces.
    tap(phone, ".fm-mission-continue")
    resolution(phone, DELAYED)
    tap(phone, f"{ROOT} .fm-face-button", 0)
    dice = f"{DELAYED},1"
    resolution(phone, dice)
    assert phone.page.get_attribute(f"{ROOT} [data-need-label]", "data-need-label") == cli("resolve", MISSION, "--dice", dice)["need"]["label"]
    for face in (6, 5, 2, 1, 4, 3, 3):
        tap(phone, f"{ROOT} .fm-face-button", face - 1)
    dice += ",6,5,2,1,4,3,3"
    resolution(phone, dice, "done")
    done = cli("resolve", MISSION, "--dice", dice)
    shown = dict(phone.page.eval_on_selector_all(f"{ROOT} [data-roll-outcome]", "els => els.map(e => [e.dataset.rollOutcome, e.dataset.value])"))
    assert shown == done["outcomes"]
    assert done["outcomes"]["fires"] == "next_turn" and done["outcomes"]["suppressed"] == "true"
    assert done["outcomes"]["suppressed_this_turn"] == "false"
    labels = phone.page.eval_on_selector_all(f"{ROOT} .fm-trail > li", "els => els.map(e => e.dataset.label)")
    assert labels == [g["label"] for g in done["given"]]
    phone.page.evaluate("() => localStorage.clear()")
    assert phone.errors == []


def test_a_seeded_roll_labels_every_die_by_its_stage_and_links_its_rule(phone):
    phone.goto(f"calculators/{MISSION}/?seed=7")
    log = phone.page.wait_for_selector(f'{CALC} .fm-roll-log[data-seed="7"]:not([hidden])', timeout=BOOT_TIMEOUT_MS)
    lines = log.eval_on_selector_all(
        "li[data-label]", "els => els.map(e => [e.dataset.label, e.querySelector('a.fm-die-rule')?.dataset.rule ?? null])"
    )
    typed = rules_py.answer(MISSION, {}, "7")["dice"]
    assert lines == [[t["label"], t["rule"]["href"]] for t in typed]
    assert [label for label, _ in lines[:3]] == ["comms dice", "opposing dice", "deviation die (Hit on 1-2, an arrow otherwise)"]
    # Each stage's rule is on its own page: the comms check's, the deviation die's.
    assert lines[0][1] == "combat-hq/comms/#table-comms-check"
    assert lines[2][1] == "combat-hq/artillery/#table-deviation-die"
    assert phone.errors == []
