"""Use my dice, on a phone: the prompt for the next roll (a button per face, at
least 44 px, in one row), each die updating the odds of what happens next to
the CLI's (`python -m rules_py resolve ID --dice ...`), Undo, a pool entered
by its score or its faces, the trail, and a `?dice=` link that shows the same
trail in a fresh browser context. Bad dice get a message, never a number."""

from __future__ import annotations

import pytest

from conftest import BOOT_TIMEOUT_MS, cli, open_inputs, open_tab, rects

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


# Undo, Keep in play and Start again, measured at once in the viewport (what the thumb
# finds): each box, and the gap between Undo and Start again (0 if they touch or overlap).
ACTIONS = """(root) => {
    const own = document.querySelector(root);
    const box = (s) => { const r = own.querySelector(s).getBoundingClientRect(); return {top: r.top, left: r.left, right: r.right, bottom: r.bottom, height: r.height}; };
    const [undo, keep, clear] = [".fm-undo", "[data-keep]", ".fm-clear"].map(box);
    const dx = Math.max(0, clear.left - undo.right, undo.left - clear.right), dy = Math.max(0, clear.top - undo.bottom, undo.top - clear.bottom);
    return {undo, keep, clear, apart: Math.hypot(dx, dy), width: innerWidth};
}"""


def actions(tab, calc_id: str) -> dict:
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
    open_inputs(phone.page, f'.calculator[data-calculator="{AIR}"]')  # on a phone the form is folded
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
        # The address keeps the link's dice (issue 44, item 9: on main it became ?dice=).
        assert phone.page.evaluate("() => new URLSearchParams(location.search).get('dice')") == dice
        assert not phone.page.is_disabled(f"{root} .fm-clear")  # Start again lets them go
        phone.page.click(f"{root} .fm-clear")
        phone.page.wait_for_function("() => new URLSearchParams(location.search).get('dice') === ''")


MISSION = "chq-fire-mission"


def test_undo_stays_where_it_is_tap_after_tap(phone):
    # Issue 43, item 6: Undo moved about 30 px between taps (a pool's "This roll so far" line,
    # then each prompt's own height, above it), and Start again sat 8 px from it. Tapped as a
    # player taps, at the same place on the screen each time, on a 390 x 844 touch phone: a
    # whole fire mission, pools face by face, Undo and Start again between.
    open_own_dice(phone, MISSION)
    root = ROOT.format(MISSION)
    phone.page.evaluate("(root) => document.querySelector(root).scrollIntoView({block: 'start'})", root)
    first = actions(phone, MISSION)
    for box in (first["undo"], first["keep"], first["clear"]):
        assert box["height"] >= 44 and box["right"] <= first["width"] and box["top"] >= 0, first
    assert first["apart"] >= 24, first

    def tap_at(selector: str, nth: int = 0) -> None:
        box = rects(phone.page, f"{root} {selector}")[nth]
        phone.page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    def settled(dice: str) -> None:
        phone.page.wait_for_selector(f'{root}[data-resolve][data-dice="{dice}"]:not([data-busy])', timeout=BOOT_TIMEOUT_MS)
        phone.page.wait_for_function("(root) => document.querySelector(root + ' .fm-pending').hidden", arg=root)

    # What is tapped, and then either the dice once answered or (a pool's face, kept until its
    # last) the pool's faces so far. The comms pool (4D6) face by face, one taken back; the
    # opposing pool (3D6) taken back whole and entered again; the deviation die (4, an arrow);
    # Start again and Undo; the drift die, which finishes it; Undo from the finished mission.
    taps = [("6", "6"), ("5", "6, 5"), ("Undo", "6"), ("4", "6, 4"), ("1", "6, 4, 1"), ("2", "=6,4,1,2"),
            ("3", "3"), ("5", "3, 5"), ("1", "=6,4,1,2,3,5,1"), ("Undo", "=6,4,1,2"), ("2", "2"), ("1", "2, 1"), ("1", "=6,4,1,2,2,1,1"),
            ("4", "=6,4,1,2,2,1,1,4"), ("Start again", "="), ("Undo", "=6,4,1,2,2,1,1,4"), ("3", "=6,4,1,2,2,1,1,4,3"), ("Undo", "=6,4,1,2,2,1,1,4")]
    moved = []
    for what, then in taps:
        before = actions(phone, MISSION)["undo"]["top"]
        if what == "Undo":
            tap_at(".fm-undo")
        elif what == "Start again":
            tap_at(".fm-clear")
        else:
            tap_at(".fm-face-button", int(what) - 1)
        if then.startswith("="):
            settled(then[1:])
        else:
            phone.page.wait_for_function("([root, text]) => document.querySelector(root + ' .fm-pending').textContent === text", arg=[root, f"This roll so far: {then}"])
        moved.append((what, round(actions(phone, MISSION)["undo"]["top"] - before, 1)))
    assert all(abs(dy) < 1 for _, dy in moved), moved
    assert phone.errors == []


def test_start_again_can_be_undone(phone):
    # Issue 43, item 6: Start again asked nothing and could not be undone. Now it says what it
    # did, and Undo brings the dice back (and the kept mission with them, still followed).
    open_own_dice(phone, AIR)
    root = ROOT.format(AIR)
    title = phone.page.input_value(f"{root} .fm-mission-name")  # the calculator's, a new mission's name
    for face, dice in ((2, "2"), (5, "2,5")):
        phone.page.locator(f"{root} .fm-face-button").nth(face - 1).click()
        resolution(phone, AIR, dice)
    phone.page.fill(f"{root} .fm-mission-name", "Battery A")
    phone.page.click(f"{root} [data-keep]")
    phone.page.wait_for_selector(f'{root} .fm-keep-status[data-kept="true"]')
    phone.page.click(f"{root} .fm-clear")
    resolution(phone, AIR, "")
    said = phone.page.inner_text(f"{root} .fm-keep-status")
    assert said == "Started again, as another mission: \u201cBattery A\u201d keeps its dice under In play. Undo brings back the 2 dice before.", said
    assert phone.page.input_value(f"{root} .fm-mission-name") == title != "Battery A"
    assert not phone.page.is_disabled(f"{root} .fm-undo")
    phone.page.click(f"{root} .fm-undo")
    resolution(phone, AIR, "2,5")
    assert [t[1] for t in trail(phone, AIR)] == ["2", "5"]
    phone.page.wait_for_selector(f'{root} .fm-keep-status[data-kept="true"]')
    assert phone.page.input_value(f"{root} .fm-mission-name") == "Battery A"
    # Still the same mission: a die entered now carries it on.
    phone.page.locator(f"{root} .fm-face-button").nth(0).click()
    resolution(phone, AIR, "2,5,1")
    phone.page.wait_for_function("(key) => JSON.parse(localStorage.getItem(key)).missions[0].dice === '2,5,1'", arg="fm-missions")
    assert len(phone.page.evaluate("(key) => JSON.parse(localStorage.getItem(key)).missions", "fm-missions")) == 1
    assert phone.errors == []


def test_closing_use_my_dice_leaves_the_kept_mission_as_it_was(phone):
    # Closed and opened again, Use my dice starts with no dice: that is another mission, and
    # the kept one keeps its dice (followed, it would have been written over with none).
    open_own_dice(phone, AIR)
    root = ROOT.format(AIR)
    phone.page.locator(f"{root} .fm-face-button").nth(1).click()
    resolution(phone, AIR, "2")
    phone.page.click(f"{root} [data-keep]")
    phone.page.wait_for_selector(f'{root} .fm-keep-status[data-kept="true"]')
    button = f'.calculator[data-calculator="{AIR}"] .fm-own-dice-button'
    phone.page.click(button)
    phone.page.click(button)
    resolution(phone, AIR, "")
    phone.page.locator(f"{root} .fm-face-button").nth(3).click()
    resolution(phone, AIR, "4")
    assert [m["dice"] for m in phone.page.evaluate("(key) => JSON.parse(localStorage.getItem(key)).missions", "fm-missions")] == ["2"]
    assert phone.errors == []
