"""Missions in play, on a phone: a resolution kept from "Use my dice" shows on
the In play page with its dice so far in the engine's words, the next roll it
needs (the CLI's) and a link that carries on; it survives a reload and the
network cut; two kept alike are two missions; In play follows a die entered in
another tab, and two tabs never write over each other's dice; a store that is
not what the page wrote is refused with a message and left alone; a mission
whose calculator changed, or whose dice it refuses, says which and can be
removed; export and import, which brings a mission up to the copy with more dice."""

from __future__ import annotations

import json

import pytest

import rules_py
from conftest import BOOT_TIMEOUT_MS, cli, open_tab

pytestmark = [pytest.mark.browser, pytest.mark.site]

PHONE = {"width": 390, "height": 844}
AIR = "k47-air-strike"
KEY = "fm-missions"
FORMAT = "fire-mission missions 1"
RESOLVE = '.calculator[data-calculator="{}"] .fm-own-dice'


def phone_tab(browser, server, **options):
    return open_tab(browser, server, viewport=PHONE, has_touch=True, is_mobile=True, **options)


@pytest.fixture
def phone(browser, server):
    tab = phone_tab(browser, server)
    tab.page.on("dialog", lambda dialog: dialog.accept())  # Remove all asks first
    yield tab
    tab.close()


def tap(locator) -> None:
    """A tap on an element brought to the middle of the screen, the bar a page
    shows at the foot of the screen when the test blocks its service worker
    (assets/offline.mjs) dismissed first, as a player would: it takes taps."""
    locator.page.evaluate("() => document.querySelector('.fm-offline-failed button')?.click()")
    locator.evaluate("e => e.scrollIntoView({block: 'center'})")
    locator.click()


def keep(tab, calc_id: str, faces: list[int], name: str, *, again: bool = False) -> str:
    """On the calculator's page: Use my dice, these faces, Keep in play under this
    name; what the page said. again: on the page as it is, after Start again."""
    root = RESOLVE.format(calc_id)
    if again:
        tap(tab.page.locator(f"{root} .fm-clear"))
        tab.page.wait_for_selector(f'{root}[data-resolve="need"][data-dice=""]:not([data-busy])', timeout=BOOT_TIMEOUT_MS)
    else:
        tab.visit(f"calculators/{calc_id}/")
        tab.calculator(calc_id)
        tab.page.click(f'.calculator[data-calculator="{calc_id}"] .fm-own-dice-button')
    enter(tab, calc_id, faces)
    tab.page.fill(f"{root} .fm-mission-name", name)
    tap(tab.page.locator(f"{root} [data-keep]"))
    tab.page.wait_for_selector(f'{root} .fm-keep-status[data-kept="true"]')
    return tab.page.inner_text(f"{root} .fm-keep-status")


def enter(tab, calc_id: str, faces: list[int]) -> None:
    """One die a face, each answered before the next."""
    root = RESOLVE.format(calc_id)
    text = tab.page.get_attribute(root, "data-dice") or ""
    for face in faces:
        text = f"{text},{face}" if text else str(face)
        tap(tab.page.locator(f"{root} .fm-face-button").nth(face - 1))
        tab.page.wait_for_selector(f'{root}[data-resolve][data-dice="{text}"]:not([data-busy])', timeout=BOOT_TIMEOUT_MS)


def stored(tab) -> list[dict]:
    return json.loads(tab.page.evaluate("key => localStorage.getItem(key)", KEY))["missions"]


def words(calc_id: str, dice: str) -> str:
    """What In play says of these dice: the engine's words for them."""
    said = rules_py.answer(calc_id, dice=dice)["given_words"]
    return f"Dice so far: {'; '.join(said)}." if said else "No dice yet."


def in_play(tab) -> list[dict]:
    """The In play page's missions, once each has its answer."""
    tab.page.wait_for_selector('[data-in-play][data-status="ready"]', timeout=BOOT_TIMEOUT_MS)
    return tab.page.eval_on_selector_all(
        "[data-mission]",
        """els => els.map(e => {
            const link = e.querySelector('.fm-mission-continue');
            return {state: e.dataset.state, name: e.querySelector('.fm-mission-name').value,
                    need: link ? link.dataset.needLabel : null, faces: link ? link.dataset.needFaces : null,
                    href: link ? link.href : null, text: e.textContent, odds: e.querySelectorAll('.fm-chip').length,
                    key: e.dataset.mission, dice: e.querySelector('[data-dice-words]').textContent};
        })""",
    )


def store(tab, text: str) -> None:
    tab.page.evaluate("([key, text]) => localStorage.setItem(key, text)", [KEY, text])


def mission(**changes) -> dict:
    m = {"key": "abc123", "calculator": AIR, "inputs": {}, "dice": "2", "name": "Battery A, turn 3", "kept": "2026-12-01T22:00:00.000Z"}
    return {**m, **changes}


def test_a_kept_mission_is_listed_with_its_next_roll_and_survives_a_reload(phone):
    keep(phone, AIR, [2], "Battery A, turn 3")
    phone.visit("in-play/")
    (m,) = in_play(phone)
    need = cli("resolve", AIR, "--dice", "2")["need"]
    assert m["state"] == "need" and m["name"] == "Battery A, turn 3"
    assert (m["need"], m["faces"]) == (need["label"], "6") == ("air strike chart, start of turn 2", "6")
    assert m["odds"] > 0  # its odds of what happens next, as chips
    assert m["href"].endswith(f"calculators/{AIR}/?dice=2#mission={m['key']}")
    assert m["dice"] == words(AIR, "2") == "Dice so far: air strike chart, start of turn 1: empty."  # not "2", the link's notation
    phone.page.reload(wait_until="domcontentloaded")
    assert [x["name"] for x in in_play(phone)] == ["Battery A, turn 3"]
    # A tap carries on where it stopped: the same trail, the same next roll.
    tap(phone.page.locator(".fm-mission-continue"))
    root = RESOLVE.format(AIR)
    phone.page.wait_for_selector(f'{root}[data-resolve="need"][data-dice="2"]:not([data-busy])', timeout=BOOT_TIMEOUT_MS)
    assert phone.page.get_attribute(f"{root} [data-need-label]", "data-need-label") == need["label"]
    # One more die and Keep again: the same mission, one roll further (not a second one).
    tap(phone.page.locator(f"{root} .fm-face-button").nth(1))
    phone.page.wait_for_selector(f'{root}[data-resolve="need"][data-dice="2,2"]:not([data-busy])', timeout=BOOT_TIMEOUT_MS)
    tap(phone.page.locator(f"{root} [data-keep]"))
    phone.page.wait_for_selector(f'{root} .fm-keep-status[data-kept="true"]')
    phone.visit("in-play/")
    (m,) = in_play(phone)
    assert m["need"] == cli("resolve", AIR, "--dice", "2,2")["need"]["label"]
    assert m["name"] == "Battery A, turn 3"  # kept under its own name
    assert phone.errors == []


DEVIATION = "chq-deviation"


def test_a_kept_mission_follows_each_die_to_its_end_and_can_be_removed(phone):
    # Kept after the deviation die (3, an arrow: the drift is rolled next), then played on
    # where it was kept: its drift die (4, 3 + 4 = 7 inches) finishes it, and In play says
    # so with its outcome, as the CLI resolves those dice. On main, In play still showed
    # the roll where it was kept, and "Kept in play" had no link to it.
    keep(phone, DEVIATION, [3], "Battery B, turn 1")
    root = RESOLVE.format(DEVIATION)
    link = phone.page.locator(f"{root} .fm-keep-status a")
    assert link.inner_text() == "In play" and link.get_attribute("href").endswith("/in-play/")
    tap(phone.page.locator(f"{root} .fm-face-button").nth(3))
    phone.page.wait_for_selector(f'{root}[data-resolve="done"][data-dice="3,4"]:not([data-busy])', timeout=BOOT_TIMEOUT_MS)
    assert "finished" in phone.page.inner_text(f"{root} .fm-keep-status")
    tap(link)  # one tap to In play
    (m,) = in_play(phone)
    assert m["state"] == "done" and m["name"] == "Battery B, turn 1"
    assert m["dice"] == words(DEVIATION, "3,4") and m["dice"].startswith("Dice so far: deviation die: An arrow; drift in inches: ")
    shown = dict(phone.page.eval_on_selector_all("[data-mission] [data-roll-outcome]", "els => els.map(e => [e.dataset.rollOutcome, e.dataset.value])"))
    assert shown == cli("resolve", DEVIATION, "--dice", "3,4")["outcomes"] == {"deviates": "true", "distance": "7"}
    tap(phone.page.locator("[data-mission] [data-remove]"))
    assert in_play(phone) == []
    assert phone.errors == []


def test_missions_show_with_the_network_cut(browser, server):
    tab = phone_tab(browser, server, guard=False, service_workers="allow")
    try:
        keep(tab, AIR, [3], "Offline battery")
        tab.page.wait_for_function("() => document.documentElement.dataset.offline === 'engine'", timeout=BOOT_TIMEOUT_MS)
        tab.context.set_offline(True)
        server.forget()
        tab.goto("in-play/")
        (m,) = in_play(tab)
        assert m["name"] == "Offline battery"
        assert m["need"] == cli("resolve", AIR, "--dice", "3")["need"]["label"]
        tab.page.reload(wait_until="domcontentloaded")
        assert [x["need"] for x in in_play(tab)] == [m["need"]]
    finally:
        tab.context.set_offline(False)
        tab.close()


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('{"format": "fire-mission missions 1", "missions": [', "it is not JSON"),
        (json.dumps({"format": "something else", "missions": []}), "not in this site's format"),
        (json.dumps({"format": FORMAT, "missions": [{**mission(), "script": "alert(1)"}]}), "a mission has the fields"),
        (json.dumps({"format": FORMAT, "missions": [mission(inputs={"turns": 3})]}), "inputs are not names with text values"),
        (json.dumps({"format": FORMAT, "missions": [mission(calculator="../../evil")]}), "names no calculator"),
    ],
)
def test_a_tampered_store_is_refused_with_a_message_and_left_alone(phone, text, why):
    phone.goto("in-play/")
    store(phone, text)
    phone.page.reload(wait_until="domcontentloaded")
    phone.page.wait_for_selector('[data-in-play][data-status="ready"]', timeout=BOOT_TIMEOUT_MS)
    problem = phone.page.inner_text(".fm-in-play-problem")
    assert problem.startswith("The missions kept on this device were not read:") and why in problem, problem
    assert phone.page.locator("[data-mission]").count() == 0
    # Keeping another is refused too, rather than writing over what is there.
    keep_page = RESOLVE.format(AIR)
    phone.visit(f"calculators/{AIR}/")
    phone.calculator(AIR)
    phone.page.click(f'.calculator[data-calculator="{AIR}"] .fm-own-dice-button')
    phone.page.wait_for_selector(f'{keep_page}[data-resolve="need"]:not([data-busy])', timeout=BOOT_TIMEOUT_MS)
    tap(phone.page.locator(f"{keep_page} [data-keep]"))
    assert why in phone.page.inner_text(f"{keep_page} .fm-keep-status")
    assert phone.page.evaluate("key => localStorage.getItem(key)", KEY) == text  # left alone
    # Remove all is the player's way out.
    phone.visit("in-play/")
    tap(phone.page.locator("[data-remove-all]"))
    phone.page.wait_for_selector(".fm-in-play-problem[hidden]", state="attached")
    assert phone.page.evaluate("key => localStorage.getItem(key)", KEY) is None
    assert phone.errors == []


def test_a_name_is_shown_as_text_never_run(phone):
    phone.goto("in-play/")
    store(phone, json.dumps({"format": FORMAT, "missions": [mission(name='<img src=x onerror="window.hacked=1">')]}))
    phone.page.reload(wait_until="domcontentloaded")
    (m,) = in_play(phone)
    assert m["name"] == '<img src=x onerror="window.hacked=1">'
    assert phone.page.locator("[data-in-play] img").count() == 0
    assert phone.page.evaluate("() => window.hacked") is None


def test_a_mission_whose_calculator_changed_says_so_and_can_be_removed(phone):
    phone.goto("in-play/")
    kept = [
        mission(key="renamed", inputs={"old_turns": "3"}, name="Renamed input"),
        mission(key="badface", dice="7", name="Refused dice"),
        mission(key="gone", calculator="k47-no-such-thing", name="Gone calculator"),
        mission(key="good", dice="2", name="Good one"),
    ]
    store(phone, json.dumps({"format": FORMAT, "missions": kept}))
    phone.page.reload(wait_until="domcontentloaded")
    shown = {m["name"]: m for m in in_play(phone)}
    assert shown["Renamed input"]["state"] == "changed" and "The calculator has no input old_turns (renamed or removed" in shown["Renamed input"]["text"]
    # Dice the calculator refuses are said to be refused, not that the calculator changed (issue 44, item 9).
    refused = shown["Refused dice"]
    assert refused["state"] == "invalid" and "The calculator does not take this mission's dice: air strike chart, start of turn 1: 7 is not a face of a D6." in refused["text"]
    assert "changed" not in refused["text"] and refused["dice"] == "Dice as kept: 7"
    assert shown["Gone calculator"]["state"] == "changed" and "This site has no calculator \u201ck47-no-such-thing\u201d" in shown["Gone calculator"]["text"]
    assert shown["Good one"]["state"] == "need"
    tap(phone.page.locator('[data-mission="badface"] [data-remove]'))
    assert sorted(m["name"] for m in in_play(phone)) == ["Gone calculator", "Good one", "Renamed input"]
    stored = json.loads(phone.page.evaluate("key => localStorage.getItem(key)", KEY))
    assert [m["key"] for m in stored["missions"]] == ["renamed", "gone", "good"]
    assert phone.errors == []


def test_missions_export_and_import_as_text(phone):
    phone.goto("in-play/")
    store(phone, json.dumps({"format": FORMAT, "missions": [mission(key="one", name="First"), mission(key="two", dice="2,2", name="Second")]}))
    phone.page.reload(wait_until="domcontentloaded")
    in_play(phone)
    tap(phone.page.locator(".fm-in-play-tools summary"))
    exported = phone.page.input_value(".fm-export-text")
    assert [m["name"] for m in json.loads(exported)["missions"]] == ["First", "Second"]
    tap(phone.page.locator("[data-remove-all]"))
    assert in_play(phone) == []
    phone.page.fill(".fm-import-text", "not a list of missions")
    tap(phone.page.locator("[data-import]"))
    assert "Not imported: it is not JSON" in phone.page.inner_text(".fm-in-play-status")
    # Two missions under one key (a file edited by hand): Rename and Remove find a
    # mission by its key, so the file is refused whole, and nothing is added.
    twins = json.dumps({"format": FORMAT, "missions": [mission(key="twin", name="First twin"), mission(key="twin", dice="2,2", name="Second twin")]})
    phone.page.fill(".fm-import-text", twins)
    tap(phone.page.locator("[data-import]"))
    assert "Not imported: two missions have the key twin." in phone.page.inner_text(".fm-in-play-status")
    assert in_play(phone) == []
    phone.page.fill(".fm-import-text", exported)
    tap(phone.page.locator("[data-import]"))
    assert "2 missions imported" in phone.page.inner_text(".fm-in-play-status")
    assert [m["name"] for m in in_play(phone)] == ["First", "Second"]


SMOKE = "k47-smoke-barrage"


def test_two_batteries_kept_alike_are_two_missions(phone):
    # Issue 44, Data and trust 1: Battery A kept at a 5, Start again, Battery B at a 5. On
    # main the store then held Battery B alone, and the page said "Kept in play as 'Battery B'".
    keep(phone, SMOKE, [5], "Battery A")
    said = keep(phone, SMOKE, [5], "Battery B", again=True)
    assert said.startswith("Kept in play as \u201cBattery B\u201d, beside 1 other mission:"), said
    assert [(m["name"], m["dice"]) for m in stored(phone)] == [("Battery B", "5"), ("Battery A", "5")]
    phone.visit("in-play/")
    shown = {m["name"]: m for m in in_play(phone)}
    assert set(shown) == {"Battery A", "Battery B"}
    assert shown["Battery A"]["dice"] == shown["Battery B"]["dice"] == words(SMOKE, "5") == "Dice so far: smoke barrage chart, start of turn 1: smoke."
    # Each Continue names its own mission: Battery B carried on, Battery A left as it was.
    tap(phone.page.locator(f'[data-mission="{shown["Battery B"]["key"]}"] .fm-mission-continue'))
    root = RESOLVE.format(SMOKE)
    phone.page.wait_for_selector(f'{root}[data-dice="5"] .fm-keep-status[data-kept="true"]', timeout=BOOT_TIMEOUT_MS)
    assert "\u201cBattery B\u201d" in phone.page.inner_text(f"{root} .fm-keep-status")
    enter(phone, SMOKE, [6])
    phone.page.wait_for_function("([key, dice]) => JSON.parse(localStorage.getItem(key)).missions.some(m => m.dice === dice)", arg=[KEY, "5,6"])
    assert {m["name"]: m["dice"] for m in stored(phone)} == {"Battery A": "5", "Battery B": "5,6"}
    assert phone.page.evaluate("() => location.hash") == f"#mission={shown['Battery B']['key']}"
    assert phone.errors == []


def second_page(tab):
    """Another tab of the same browser (one context: one localStorage, storage events between them)."""
    page = tab.context.new_page()
    other = type(tab)(tab.context, page, tab.server, tab.requests)
    page.on("console", lambda m: other.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: other.errors.append(f"page error: {e}"))
    return other


def test_in_play_follows_a_die_entered_in_another_tab(phone):
    # Issue 43, item 5: In play went stale in another tab, and its Continue opened the mission
    # at its old dice, not followed ("Kept in play" gone): the dice entered there were kept nowhere.
    keep(phone, SMOKE, [5], "Battery A")
    table = second_page(phone)
    try:
        table.goto("in-play/")
        (m,) = in_play(table)
        assert m["dice"] == words(SMOKE, "5")
        # A die entered in the calculator's tab shows in the In play tab within 3 s.
        enter(phone, SMOKE, [6])
        table.page.wait_for_function(
            "([key, said]) => document.querySelector(`[data-mission='${key}'] [data-dice-words]`)?.textContent === said",
            arg=[m["key"], words(SMOKE, "5,6")], timeout=3000)
        (m,) = in_play(table)
        assert m["need"] == cli("resolve", SMOKE, "--dice", "5,6")["need"]["label"]
        assert m["href"].endswith(f"?dice=5%2C6#mission={m['key']}")
        # A view that missed a change (written here by the In play tab itself, which hears no
        # storage event of its own): its Continue opens the mission as it now stands.
        table.page.evaluate("([key, dice]) => { const s = JSON.parse(localStorage.getItem(key)); s.missions[0].dice = dice; localStorage.setItem(key, JSON.stringify(s)); }", [KEY, "5,6,4"])
        assert in_play(table)[0]["href"].endswith("?dice=5%2C6#mission=" + m["key"])  # stale
        tap(table.page.locator(".fm-mission-continue"))
        root = RESOLVE.format(SMOKE)
        table.page.wait_for_selector(f'{root}[data-resolve="need"][data-dice="5,6,4"]:not([data-busy]) .fm-keep-status[data-kept="true"]', timeout=BOOT_TIMEOUT_MS)
        assert "Kept in play as \u201cBattery A\u201d" in table.page.inner_text(f"{root} .fm-keep-status")
        assert table.errors == []
    finally:
        table.page.close()
    assert phone.errors == []


def test_two_calculator_tabs_never_write_over_each_other_s_dice(phone):
    # Two tabs on one kept mission: a die entered in one shows in the other, which says so;
    # dice entered in a tab that had not heard of the other's are not written over them.
    keep(phone, SMOKE, [5], "Battery A")
    (key,) = [m["key"] for m in stored(phone)]
    other = second_page(phone)
    root = RESOLVE.format(SMOKE)
    try:
        other.goto(f"calculators/{SMOKE}/?dice=5#mission={key}")
        other.page.wait_for_selector(f'{root}[data-dice="5"]:not([data-busy]) .fm-keep-status[data-kept="true"]', timeout=BOOT_TIMEOUT_MS)
        enter(phone, SMOKE, [6])
        other.page.wait_for_selector(f'{root}[data-resolve="need"][data-dice="5,6"]:not([data-busy])', timeout=BOOT_TIMEOUT_MS)
        status = other.page.inner_text(f"{root} .fm-keep-status")
        assert status.startswith("\u201cBattery A\u201d was carried on in another tab: its dice show here as they now stand. Kept in play as \u201cBattery A\u201d"), status
        assert "dice=5%2C6" in other.page.evaluate("() => location.search")
        # The other tab carries on: the first follows.
        enter(other, SMOKE, [4])
        phone.page.wait_for_selector(f'{root}[data-dice="5,6,4"]:not([data-busy])', timeout=BOOT_TIMEOUT_MS)
        # The store moves on where the first tab does not hear it (written by itself, as a
        # tab that missed the event): a die it enters then is not written over the store's.
        phone.page.evaluate("([key, dice]) => { const s = JSON.parse(localStorage.getItem(key)); s.missions[0].dice = dice; localStorage.setItem(key, JSON.stringify(s)); }", [KEY, "5,6,4,3"])
        tap(phone.page.locator(f"{root} .fm-face-button").nth(0))
        phone.page.wait_for_selector(f'{root}[data-dice="5,6,4,1"]:not([data-busy]) .fm-keep-status[data-kept="false"]', timeout=BOOT_TIMEOUT_MS)
        said = phone.page.inner_text(f"{root} .fm-keep-status")
        assert said.startswith("Not kept: \u201cBattery A\u201d was carried on in another tab (4 dice now)"), said
        assert [m["dice"] for m in stored(phone)] == ["5,6,4,3"]
        # Show it as it now stands: the mission's dice, followed again.
        tap(phone.page.locator(f"{root} [data-take-kept]"))
        phone.page.wait_for_selector(f'{root}[data-dice="5,6,4,3"]:not([data-busy]) .fm-keep-status[data-kept="true"]', timeout=BOOT_TIMEOUT_MS)
        assert other.errors == []
    finally:
        other.page.close()
    assert phone.errors == []


def test_an_import_brings_a_mission_up_to_the_copy_with_more_dice(phone):
    # Issue 44, Data and trust 7: a mission exported, carried on on another device, imported
    # back. On main the older copy here stayed, and the page said "0 missions imported".
    phone.goto("in-play/")
    store(phone, json.dumps({"format": FORMAT, "missions": [mission(key="one", dice="2", name="Battery A")]}))
    phone.page.reload(wait_until="domcontentloaded")
    (m,) = in_play(phone)
    further = json.dumps({"format": FORMAT, "missions": [mission(key="one", dice="2,5", name="Battery A, turn 2", kept="2026-12-02T22:00:00.000Z")]})
    tap(phone.page.locator(".fm-in-play-tools summary"))
    phone.page.fill(".fm-import-text", further)
    tap(phone.page.locator("[data-import]"))
    said = phone.page.inner_text(".fm-in-play-status")
    assert said == "0 missions imported. 1 mission kept here was brought up to the text's copy, which has more dice (or as many, kept later).", said
    (m,) = in_play(phone)
    assert (m["name"], m["dice"]) == ("Battery A, turn 2", words(AIR, "2,5"))
    # The old copy again: the one here is further on, and stays.
    phone.page.fill(".fm-import-text", json.dumps({"format": FORMAT, "missions": [mission(key="one", dice="2")]}))
    tap(phone.page.locator("[data-import]"))
    assert phone.page.inner_text(".fm-in-play-status") == "0 missions imported. 1 mission kept here is as far on as the text's copy or further: left as it is."
    assert [m["dice"] for m in stored(phone)] == ["2,5"]
    assert phone.errors == []
