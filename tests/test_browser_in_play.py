"""Missions in play, on a phone: a resolution kept from "Use my dice" shows on
the In play page with the next roll it needs (the CLI's) and a link that
carries on; it survives a reload and the network cut; a store that is not what
the page wrote is refused with a message and left alone; a mission whose
calculator changed says so and can be removed; export and import."""

from __future__ import annotations

import json

import pytest

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


def keep(tab, calc_id: str, faces: list[int], name: str) -> None:
    """On the calculator's page: Use my dice, these faces, Keep in play under this name."""
    tab.visit(f"calculators/{calc_id}/")
    tab.calculator(calc_id)
    root = RESOLVE.format(calc_id)
    tab.page.click(f'.calculator[data-calculator="{calc_id}"] .fm-own-dice-button')
    text = ""
    for face in faces:
        text = f"{text},{face}" if text else str(face)
        tap(tab.page.locator(f"{root} .fm-face-button").nth(face - 1))
        tab.page.wait_for_selector(f'{root}[data-resolve="need"][data-dice="{text}"]:not([data-busy])', timeout=BOOT_TIMEOUT_MS)
    tab.page.fill(f"{root} .fm-mission-name", name)
    tap(tab.page.locator(f"{root} [data-keep]"))
    tab.page.wait_for_selector(f'{root} .fm-keep-status[data-kept="true"]')


def in_play(tab) -> list[dict]:
    """The In play page's missions, once each has its answer."""
    tab.page.wait_for_selector('[data-in-play][data-status="ready"]', timeout=BOOT_TIMEOUT_MS)
    return tab.page.eval_on_selector_all(
        "[data-mission]",
        """els => els.map(e => {
            const link = e.querySelector('.fm-mission-continue');
            return {state: e.dataset.state, name: e.querySelector('.fm-mission-name').value,
                    need: link ? link.dataset.needLabel : null, faces: link ? link.dataset.needFaces : null,
                    href: link ? link.href : null, text: e.textContent, odds: e.querySelectorAll('.fm-chip').length};
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
    assert m["href"].endswith(f"calculators/{AIR}/?dice=2")
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
    assert m["state"] == "done" and m["name"] == "Battery B, turn 1" and "dice so far: 3,4" in m["text"]
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
    assert shown["Renamed input"]["state"] == "changed" and "has no input old_turns any more" in shown["Renamed input"]["text"]
    assert shown["Refused dice"]["state"] == "changed" and "7 is not a face of a D6" in shown["Refused dice"]["text"]
    assert shown["Gone calculator"]["state"] == "changed" and "no calculator" in shown["Gone calculator"]["text"]
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
