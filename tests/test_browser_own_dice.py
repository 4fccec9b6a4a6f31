"""Use my dice, on a phone: the prompt for the next roll (a button per face, at
least 44 px, in one row), each die updating the odds of what happens next to
the CLI's (`python -m rules_py resolve ID --dice ...`), Undo, a pool entered
by its score or its faces, the trail, and a `?dice=` link that shows the same
trail in a fresh browser context. Bad dice get a message, never a number."""

from __future__ import annotations

import pytest

from conftest import BOOT_TIMEOUT_MS, cli, open_tab, rects

pytestmark = [pytest.mark.browser, pytest.mark.site]

PHONE = {"width": 390, "height": 844}
AIR = "k47-air-strike"
FIRE = "chq-fire-for-effect"
ROOT = '.calculator[data-calculator="{}"] .fm-own-dice'


def phone_tab(browser, server):
    return open_tab(browser, server, viewport=PHONE, has_touch=True, is_mobile=True)


@pytest.fixture
def phone(browser, server):
    tab = phone_tab(browser, server)
    yield tab
    tab.close()


def resolution(tab, calc_id: str, dice: str, status: str = "need"):
    """The resolution's root once it shows the engine's answer for exactly these dice."""
    return tab.page.wait_for_selector(f'{ROOT.format(calc_id)}[data-resolve="{status}"][data-dice="{dice}"]:not([data-busy])', timeout=BOOT_TIMEOUT_MS)


def odds_next(tab, calc_id: str) -> dict[tuple[str, str], str]:
    """(outcome, value) -> data-p of every cell of the odds of what happens next; a value shown twice must agree."""
    cells = tab.page.eval_on_selector_all(f"{ROOT.format(calc_id)} .fm-resolve-odds [data-p]", "els => els.map(e => [e.dataset.outcome, e.dataset.value, e.dataset.p])")
    out: dict[tuple[str, str], str] = {}
    for outcome, value, p in cells:
        assert out.setdefault((outcome, value), p) == p, (outcome, value)
    return out


def cli_next(calc_id: str, dice: str, *inputs: str) -> dict[tuple[str, str], str]:
    """The CLI's odds of what happens next, every value a player can get (the page hides impossible ones)."""
    doc = cli("resolve", calc_id, *inputs, "--dice", dice)
    return {(o, v): p for o, values in doc["odds"].items() for v, p in values.items() if p != "0"}


def trail(tab, calc_id: str) -> list[list[str]]:
    return tab.page.eval_on_selector_all(
        f"{ROOT.format(calc_id)} .fm-trail > li",
        "els => els.map(e => [e.dataset.label, e.dataset.faces, e.querySelector('.fm-die-result').textContent])",
    )


# From the faces' foot (once done, the outcomes') to the top of the lowest of Undo, Start
# again and Keep in play, in px (each at least 44 px tall, on the phone's screen).
ACTIONS = """(root) => {
    const own = document.querySelector(root);
    const done = own.dataset.resolve === "done";
    const faces = own.querySelector(done ? ".fm-resolve-outcomes" : ".fm-face-buttons").getBoundingClientRect();
    const actions = [".fm-undo", ".fm-clear", "[data-keep]"].map((s) => own.querySelector(s).getBoundingClientRect());
    if (actions.some((a) => a.height < 44 || a.right > innerWidth)) return Infinity;
    return Math.max(...actions.map((a) => a.top)) - faces.bottom;
}"""


def actions_below_faces(tab, calc_id: str) -> float:
    return tab.page.evaluate(ACTIONS, ROOT.format(calc_id))


def open_own_dice(tab, calc_id: str):
    tab.goto(f"calculators/{calc_id}/")
    tab.calculator(calc_id)
    tab.page.click(f'.calculator[data-calculator="{calc_id}"] .fm-own-dice-button')
    return resolution(tab, calc_id, "")


def test_the_prompt_is_a_row_of_44px_face_buttons_on_a_phone_and_each_die_updates_the_odds(phone):
    open_own_dice(phone, AIR)
    need = phone.page.locator(f"{ROOT.format(AIR)} [data-need-label]")
    first = cli("resolve", AIR)["need"]
    assert need.get_attribute("data-need-label") == first["label"] == "air strike chart, start of turn 1"
    assert need.get_attribute("data-need-faces") == "6"
    buttons = phone.page.locator(f"{ROOT.format(AIR)} .fm-face-button")
    assert buttons.all_inner_texts() == ["1", "2", "3", "4", "5", "6"]
    boxes = rects(phone.page, f"{ROOT.format(AIR)} .fm-face-button")
    for box in boxes:
        assert box["width"] >= 44 and box["height"] >= 44, box
    assert max(b["y"] for b in boxes) - min(b["y"] for b in boxes) < 1, boxes  # one row
    assert boxes[-1]["x"] + boxes[-1]["width"] <= PHONE["width"], boxes[-1]  # on the screen, not scrolled off
    # No dice yet: the odds of what happens next are the plain odds.
    assert odds_next(phone, AIR) == cli_next(AIR, "")

    # A 2 on the first chart roll: the skies are empty (chart: 1 rookie, 2-3 empty, 4-6 here it comes).
    # Turn 2's chart brings the aircraft on a 1 or 4-6: 4 faces of 6, 2/3; else (1/3)
    # turn 3's does, 1/3 * 2/3 = 2/9; else later, 1/3 * 1/3 = 1/9.
    buttons.nth(1).click()
    resolution(phone, AIR, "2")
    odds = odds_next(phone, AIR)
    assert {v: p for (o, v), p in odds.items() if o == "arrival_turn"} == {"2": "2/3", "3": "2/9", "later": "1/9"}
    assert odds == cli_next(AIR, "2")
    assert need.get_attribute("data-need-label") == cli("resolve", AIR, "--dice", "2")["need"]["label"] == "air strike chart, start of turn 2"
    assert trail(phone, AIR) == [["air strike chart, start of turn 1", "2", "empty"]]
    assert "dice=2" in phone.page.evaluate("() => location.search")

    # Undo, Start again and Keep in play are under the faces, where the thumb is: on main
    # they came after the odds, 600 to 1,000 px down (the faces to Undo measured here).
    assert actions_below_faces(phone, AIR) < 60

    # A 5 on turn 2: here it comes; the next roll is what the CLI says.
    buttons.nth(4).click()
    resolution(phone, AIR, "2,5")
    assert odds_next(phone, AIR) == cli_next(AIR, "2,5")
    assert need.get_attribute("data-need-label") == cli("resolve", AIR, "--dice", "2,5")["need"]["label"]

    # Undo takes the 5 back: the odds are those after the 2 again.
    phone.page.click(f"{ROOT.format(AIR)} .fm-undo")
    resolution(phone, AIR, "2")
    assert odds_next(phone, AIR) == cli_next(AIR, "2")
    assert len(trail(phone, AIR)) == 1
    phone.page.click(f"{ROOT.format(AIR)} .fm-undo")
    resolution(phone, AIR, "")
    assert odds_next(phone, AIR) == cli_next(AIR, "")
    assert trail(phone, AIR) == []
    assert phone.errors == []


def test_a_pool_is_entered_by_its_score_or_its_faces_and_ends_with_the_rolled_outcomes(phone):
    open_own_dice(phone, FIRE)
    root = ROOT.format(FIRE)
    need = cli("resolve", FIRE)["need"]
    assert phone.page.get_attribute(f"{root} [data-need-label]", "data-need-label") == need["label"]
    # The Fire Dice by their score: two successes, one six.
    phone.page.select_option(f"{root} .fm-score-select", "2/1")
    resolution(phone, FIRE, "=2/1")
    assert odds_next(phone, FIRE) == cli_next(FIRE, "=2/1")
    # The Reaction dice by their faces, one button each: nothing is asked until the third.
    faces = phone.page.locator(f"{root} .fm-face-button")
    for face in (6, 3):
        faces.nth(face - 1).click()
    assert phone.page.locator(f"{root} .fm-pending").inner_text() == "This roll so far: 6, 3"
    # Undo takes back one face of a pool being entered.
    phone.page.click(f"{root} .fm-undo")
    assert phone.page.locator(f"{root} .fm-pending").inner_text() == "This roll so far: 6"
    for face in (3, 4):
        faces.nth(face - 1).click()
    resolution(phone, FIRE, "=2/1,6,3,4", "done")
    assert actions_below_faces(phone, FIRE) < 60  # under the outcomes, once done
    done = cli("resolve", FIRE, "--dice", "=2/1,6,3,4")
    shown = dict(phone.page.eval_on_selector_all(f"{root} [data-roll-outcome]", "els => els.map(e => [e.dataset.rollOutcome, e.dataset.value])"))
    assert shown == done["outcomes"]
    assert phone.page.locator(f"{root} [data-need-label]").count() == 0
    assert [t[1] for t in trail(phone, FIRE)] == ["", "6 3 4"]
    assert phone.page.is_disabled(f"{root} [data-keep]")  # nothing left to keep in play
    # Undo after a pool's faces takes the whole roll back.
    phone.page.click(f"{root} .fm-undo")
    resolution(phone, FIRE, "=2/1")
    assert phone.errors == []


def test_a_dice_link_shows_the_same_trail_in_a_fresh_context(browser, server, phone):
    open_own_dice(phone, AIR)
    phone.page.locator(f'.calculator[data-calculator="{AIR}"] [data-field="turns"] .fm-step').nth(1).click()  # one more turn: 4
    for face in (2, 3, 6):
        phone.page.locator(f"{ROOT.format(AIR)} .fm-face-button").nth(face - 1).click()
        phone.page.wait_for_function(f"() => document.querySelector('{ROOT.format(AIR)}').dataset.dice.endsWith('{face}')")
    resolution(phone, AIR, "2,3,6")
    url = phone.page.evaluate("() => location.href")
    assert "turns=4" in url and "dice=2%2C3%2C6" in url
    mine = trail(phone, AIR)
    assert len(mine) == 3
    other = phone_tab(browser, server)
    try:
        other.page.goto(url, wait_until="domcontentloaded")
        resolution(other, AIR, "2,3,6")
        assert trail(other, AIR) == mine
        assert odds_next(other, AIR) == odds_next(phone, AIR) == cli_next(AIR, "2,3,6", "turns=4")
        assert other.errors == []
    finally:
        other.close()


@pytest.mark.parametrize(
    ("dice", "message"),
    [
        ("7", "air strike chart, start of turn 1: 7 is not a face of a D6"),
        ("x", "is not a face"),
        (",".join(["2"] * 201), "Not taken: 201 dice is more than the 200"),
    ],
)
def test_bad_dice_in_a_link_get_a_message_and_no_odds(phone, dice, message):
    phone.goto(f"calculators/{AIR}/?dice={dice}")
    root = ROOT.format(AIR)
    phone.page.wait_for_selector(f"{root} .fm-resolve-message:not([hidden])", timeout=BOOT_TIMEOUT_MS)
    assert message in phone.page.inner_text(f"{root} .fm-resolve-message")
    if dice.startswith("7") or dice == "x":
        assert phone.page.get_attribute(root, "data-resolve") == "error"
    else:  # refused before the engine: the resolution starts from no dice
        resolution(phone, AIR, "")
        assert phone.page.inner_text(f"{root} .fm-resolve-message").startswith("Not taken")
