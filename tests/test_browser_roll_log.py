"""The roll log in full on a phone: each roll's arithmetic and a link to its rule.

Two page loads, one per log: a seeded roll's link, and an own-dice link
(the trail). Each line shows the engine's working and meaning word for
word, fits the 390 px screen, and links to the rule section it applies;
following one lands on that section.
"""

from __future__ import annotations

import pytest

import rules_py
from conftest import BOOT_TIMEOUT_MS, open_tab

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
AIR = "k47-air-strike"
SCOPE = f'.calculator[data-calculator="{AIR}"]'
# Down artillery, 2 flak hits so far and 4 shots: with seed 5 the flak brings 5 hits and the
# ground attack's 3D6 (10) loses them: 10 - 5 = 5 (worked out in tests/test_roll_log.py's way).
INPUTS = {"flak_hits": "2", "flak_shots": "4", "down": "true", "target": "artillery"}
SEED = "5"


@pytest.fixture
def phone(browser, server):
    tab = open_tab(browser, server, viewport=PHONE, has_touch=True, is_mobile=True)
    yield tab
    tab.close()


def shown(log) -> list[dict]:
    return log.eval_on_selector_all(
        "li[data-label]",
        """els => els.map(e => {
            const a = e.querySelector('a.fm-die-rule');
            const box = e.getBoundingClientRect();
            return {label: e.dataset.label, working: e.querySelector('.fm-die-working')?.textContent,
                    means: e.querySelector('.fm-die-means')?.textContent ?? null,
                    href: a && a.getAttribute('href'), rule: a && a.dataset.rule, link: a && a.textContent,
                    right: Math.max(box.right, a ? a.getBoundingClientRect().right : 0)};
        })""",
    )


def test_a_seeded_roll_link_shows_each_rolls_arithmetic_and_links_to_its_rule(phone, server):
    query = "&".join(f"{k}={v}" for k, v in INPUTS.items())
    phone.goto(f"calculators/{AIR}/?{query}&seed={SEED}")
    log = phone.page.wait_for_selector(f'{SCOPE} .fm-roll-log[data-seed="{SEED}"]:not([hidden])', timeout=BOOT_TIMEOUT_MS)
    typed = rules_py.answer(AIR, INPUTS, SEED)["dice"]
    lines = shown(log)
    assert [(d["label"], d["working"], d["means"], d["rule"]) for d in lines] == [(t["label"], t["working"], t["means"], t["rule"]["href"]) for t in typed]
    assert lines[-1]["working"] == "3D6 = 5 + 1 + 4 = 10, less 5 for flak = 5"
    assert lines[2]["working"] == "4D6 = 3 successes, plus 2 hits already = 5"
    for line, t in zip(lines, typed, strict=True):
        assert line["href"] == server.url(t["rule"]["href"]), line
        assert line["link"] == f"Rule: {t['rule']['title']}"
        assert line["right"] <= PHONE["width"], line  # nothing off a phone's screen
    # Following the hits' link lands on the resolution table's section.
    phone.page.locator(f"{SCOPE} .fm-roll-log li").last.locator("a.fm-die-rule").click()
    phone.page.wait_for_function("() => location.hash === '#table-air-strike-resolution'")
    target = phone.page.wait_for_selector("#table-air-strike-resolution")
    assert phone.page.evaluate("() => location.pathname").endswith("/konflikt47/air-strikes/")
    target.wait_for_element_state("visible")
    assert phone.errors == []


def test_an_own_dice_link_shows_the_trail_in_the_same_words(phone, server):
    """A 1 on the chart: a rookie pilot, whose target is one of the caller's own units."""
    phone.goto(f"calculators/{AIR}/?dice=1")
    root = phone.page.wait_for_selector(f'{SCOPE} .fm-own-dice[data-resolve="need"][data-dice="1"]:not([data-busy])', timeout=BOOT_TIMEOUT_MS)
    (line,) = shown(root)
    (typed,) = rules_py.answer(AIR, {}, dice="1")["given"]
    assert line["working"] == typed["working"] == "D6 = 1: rookie"
    assert line["means"] == typed["means"] and "one of the calling player's own units" in line["means"]
    assert line["href"] == server.url("konflikt47/air-strikes/#table-air-strike-chart")
    assert line["right"] <= PHONE["width"]
    assert phone.errors == []
