"""What a calculator's link carries, as the engine reads it (issue 34, the attack run's items 2, 4, 5 and 7).

* A comparison where an outcome is certain in one option (the medic at close
  quarters, no casualties against two, rockets against a locator, a deviation
  die of six hit faces against none) shows both options and their chart, each
  bar's text the engine's (a certain option's answer has no values to read it from).
* ``dice=`` takes exactly what ``--dice`` takes: an empty entry (``6,,3``,
  ``2,``, ``,2``, ``2, ,3``) gets the engine's message beside the dice, and the
  address keeps what the player gave.
* Undo after a link whose dice went through a pool of no dice takes back the
  last roll the player gave, not one face of it.
* A parameter given twice (``vs.nation``, ``seed``, ``dice``, ``sweep``) is
  refused in the engine's words beside what it sets, as the CLI refuses it;
  never one of its values taken silently.

One phone tab for the module: each link is reached by instant navigation, so
the engine starts once.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest

import rules_py
from conftest import BOOT_TIMEOUT_MS, open_tab

pytestmark = [pytest.mark.browser, pytest.mark.site]

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def phone(browser, server):
    tab = open_tab(browser, server, viewport=PHONE, has_touch=True, is_mobile=True)
    tab.goto("calculators/")
    yield tab
    tab.close()


def scope(calc_id: str) -> str:
    return f'.calculator[data-calculator="{calc_id}"]'


def query_of(tab) -> dict[str, list[str]]:
    return parse_qs(urlsplit(tab.page.url).query, keep_blank_values=True)


# ---------------------------------------------------------------- a certain option


@pytest.mark.parametrize(
    ("calc_id", "inputs", "vs"),
    [
        ("k47-medic", {}, {"cause": "close_quarters"}),
        ("k47-medic", {"casualties": "0"}, {"casualties": "2"}),
        ("po-counter-battery", {"rockets": "true"}, {"locator": "true"}),
        ("chq-deviation", {"hit_faces": "6"}, {"hit_faces": "0"}),
    ],
)
def test_a_comparison_with_a_certain_option_shows_both_and_their_chart(phone, calc_id, inputs, vs):
    link = "&".join([*(f"{k}={v}" for k, v in inputs.items()), *(f"vs.{k}={v}" for k, v in vs.items())])
    phone.visit(f"calculators/{calc_id}/?{link}")
    phone.page.wait_for_selector(f'{scope(calc_id)}[data-compare-status="ready"]', timeout=BOOT_TIMEOUT_MS)
    doc = rules_py.compare(calc_id, inputs, vs)
    assert phone.page.inner_text(f'{scope(calc_id)} .fm-compare-option[data-option="b"] .fm-summary-title').startswith("Option B: ")
    shown = phone.page.eval_on_selector_all(f"{scope(calc_id)} .fm-compare-table tbody tr", "rs => rs.map(r => r.dataset.outcome)")
    assert shown == [d["name"] for d in doc["differences"]]
    charted = [d for d in doc["differences"] if d["chart"]]
    for d in charted:
        bars = phone.page.eval_on_selector_all(
            f'{scope(calc_id)} .fm-compare-charts svg[data-chart="{d["name"]}"] rect',
            "rs => rs.map(r => [r.dataset.value, r.dataset.option, r.dataset.height, r.querySelector('title').textContent])",
        )
        want = [
            [v["value"], option, v["heights"][option]["exactly"], f"{v['label']}: {option.upper()} {v['texts'][option]['exactly']}"]
            for v in d["values"]
            if v["a"] != "0" or v["b"] != "0"
            for option in ("a", "b")
        ]
        assert bars == want, d["name"]
    if calc_id == "k47-medic" and vs == {"cause": "close_quarters"}:
        # By hand: at close quarters the medic has no roll, so B saves none for certain:
        # B's bar at 0 fills the chart and says 100%; A's is (5/6)^3 = 57.9% of it.
        saved = phone.page.eval_on_selector_all(f'{scope(calc_id)} .fm-compare-charts svg[data-chart="saved"] rect[data-value="0"]', "rs => rs.map(r => r.querySelector('title').textContent)")
        assert saved == ["0: A 57.9%", "0: B 100%"]
    assert phone.errors == []


# ---------------------------------------------------------------- dice=


@pytest.mark.parametrize("dice", ["6,,3", "2,", ",2", "2, ,3"])
def test_a_dice_link_with_an_empty_entry_gets_the_engines_message_and_keeps_its_address(phone, dice):
    calc_id = "k47-air-strike"
    phone.visit(f"calculators/{calc_id}/?turns=4&dice={dice}")
    root = f"{scope(calc_id)} .fm-own-dice"
    phone.page.wait_for_selector(f'{root}[data-resolve="error"]:not([data-busy])', timeout=BOOT_TIMEOUT_MS)
    # The engine's message for these dice, the CLI's (tests/test_resolve.py: resolve ... --dice 6,,3).
    refused = json.loads(rules_py.call_json(json.dumps({"op": "answer", "id": calc_id, "inputs": {"turns": "4"}, "dice": dice})))
    (message,) = [f["message"] for f in refused["fields"] if f["field"] == "dice"]
    assert "'' is not a face" in message
    # The engine's message, then what the player can do, as two sentences (the
    # message has no full stop of its own: it is the CLI's error line too).
    assert phone.page.inner_text(f"{root} .fm-resolve-message") == f"{message}. Undo it, or start again."
    assert query_of(phone)["dice"] == [dice]
    assert phone.errors == []


def test_undo_after_a_pool_of_no_dice_takes_back_the_last_roll_given(phone):
    calc_id = "chq-fire-for-effect"
    inputs = "sheaf=converged&reaction_dice=0&extra_dice_target=3&disruptions=one_if_more"
    phone.visit(f"calculators/{calc_id}/?{inputs}&dice=2,1,6,2,1")
    root = f"{scope(calc_id)} .fm-own-dice"
    phone.page.wait_for_selector(f'{root}[data-resolve="done"][data-dice="2,1,6,2,1"]:not([data-busy])', timeout=BOOT_TIMEOUT_MS)
    # The battery's 5D6 read all five faces; the unit's 0D6 read none: Undo takes the five back.
    phone.page.click(f"{root} .fm-undo")
    phone.page.wait_for_selector(f'{root}[data-resolve="need"][data-dice=""]:not([data-busy])', timeout=BOOT_TIMEOUT_MS)
    need = rules_py.answer(calc_id, dict(p.split("=") for p in inputs.split("&")), dice="")["need"]
    assert phone.page.get_attribute(f"{root} .fm-need", "data-need-label") == need["label"] and need["dice"] == "5D6"
    assert phone.page.is_hidden(f"{root} .fm-resolve-message")
    assert query_of(phone)["dice"] == [""]
    assert phone.errors == []


# ---------------------------------------------------------------- a parameter given twice


def test_option_b_given_twice_is_refused_beside_its_field(phone):
    calc_id = "chq-comms-check"
    phone.visit(f"calculators/{calc_id}/?vs.nation=soviet&vs.nation=usa")
    phone.page.wait_for_selector(f'{scope(calc_id)}[data-compare-status="error"]', timeout=BOOT_TIMEOUT_MS)
    # The CLI: odds chq-comms-check --vs nation=soviet nation=usa -> "error: vs.nation: given 2 times: give nation once".
    error = phone.page.inner_text(f'{scope(calc_id)} .fm-compare-form [data-field-error="vs.nation"]')
    assert error == "given 2 times: give nation once"
    assert "Option B has no answer: Nation: given 2 times: give nation once" in phone.page.inner_text(f"{scope(calc_id)} .fm-answer-box .fm-headline")
    assert phone.errors == []


def test_a_seed_given_twice_is_refused_beside_the_seed(phone):
    calc_id = "chq-comms-check"
    phone.visit(f"calculators/{calc_id}/?seed=1&seed=2")
    error = phone.page.wait_for_selector(f'{scope(calc_id)} [data-field-error="seed"]:not([hidden])', timeout=BOOT_TIMEOUT_MS)
    assert error.inner_text() == "given 2 times: give seed once"
    assert phone.page.is_hidden(f"{scope(calc_id)} .fm-roll-log")  # no roll of either seed
    assert phone.errors == []


def test_dice_given_twice_are_refused_beside_the_dice(phone):
    calc_id = "k47-air-strike"
    phone.visit(f"calculators/{calc_id}/?dice=2&dice=3")
    root = f"{scope(calc_id)} .fm-own-dice"
    phone.page.wait_for_selector(f'{root}[data-resolve="error"]:not([data-busy])', timeout=BOOT_TIMEOUT_MS)
    assert phone.page.inner_text(f"{root} .fm-resolve-message").startswith("given 2 times: give dice once")
    # Start again: the player's own dice from none.
    phone.page.click(f"{root} .fm-clear")
    phone.page.wait_for_selector(f'{root}[data-resolve="need"][data-dice=""]:not([data-busy])', timeout=BOOT_TIMEOUT_MS)
    assert phone.page.is_hidden(f"{root} .fm-resolve-message")
    assert phone.errors == []


# ---------------------------------------------------------------- every link kind from the first paint

# Every animation frame from the page's first paint until the link is answered (its
# headline, option B's comparison and How it changes, all the engine's): whether the
# calculator's box is blank, and what each field the link names shows where it is shown.
# "Blank": not one form field shown in the box (an input or a drop-down, checkVisibility
# with visibility counted) and no words in it (its innerText, which leaves out what is
# hidden, visibility included, is empty). Option A's fields are named (the build's copy)
# or data-input (the live form); option B's have ids ending in -vs-<name> in both.
LINK_SAMPLER = """window.__frames = [];
(function tick() {
    const root = document.querySelector('.calculator[data-calculator]');
    if (root) {
        const shown = (e) => e.checkVisibility({visibilityProperty: true});
        const values = (sel) => [...root.querySelectorAll(sel)].filter(shown).map((e) => e.value);
        const fields = [...root.querySelectorAll('input:not([type=hidden]), select')].filter(shown);
        const done = Boolean(root.dataset.firstAnswerAt) && root.dataset.compareStatus === 'ready'
            && root.querySelector('.fm-sweep-details')?.dataset.sweepStatus === 'ready';
        window.__frames.push({
            t: performance.now(), blank: fields.length === 0 && root.innerText.trim() === '',
            a: {flak_shots: values('[name=flak_shots], [data-input=flak_shots]'), friendly_flak: values('[name=friendly_flak], [data-input=friendly_flak]')},
            b: {friendly_experience: values('[id$="-vs-friendly_experience"]'), flak_shots: values('[id$="-vs-flak_shots"]')},
            sweep: values('.fm-sweep-select:not(.fm-sweep-of)'), answered: Boolean(root.dataset.firstAnswerAt), done,
        });
        if (done) return;
    }
    requestAnimationFrame(tick);
})();"""
COMPARE_AND_SWEEP = "flak_shots=4&friendly_flak=2&vs.friendly_experience=veteran&sweep=friendly_flak"


def test_a_compare_and_sweep_link_shows_its_own_inputs_and_words_from_the_first_paint(browser, server):
    """Issue 43's link, on a phone with the CPU slowed 4 times, second visit (the engine's
    files in the browser's cache): the box is never blank for more than 0.5 s in all, and
    at no frame does a field the link names show another value (option B's experience is
    veteran whenever it is shown: before, the page's first-paint script gave up on vs. and
    sweep, the box stood blank about 1.5 s, and option B showed Inexperienced for 0.3 s
    before the live form put the link's veteran there)."""
    calc_id = "k47-air-strike"
    tab = open_tab(browser, server, guard=False, service_workers="allow", viewport=PHONE, has_touch=True, is_mobile=True, bypass_csp=True)
    try:
        path = f"calculators/{calc_id}/?{COMPARE_AND_SWEEP}"
        tab.goto(path)  # the first visit: the engine's files into the browser's cache
        tab.page.wait_for_selector(f'{scope(calc_id)}[data-source="engine"][data-status="ready"]', timeout=BOOT_TIMEOUT_MS)
        tab.page.wait_for_function("() => fireMissionEngine.snapshotPrefetched !== undefined", timeout=BOOT_TIMEOUT_MS)
        tab.page.add_init_script(LINK_SAMPLER)
        tab.context.new_cdp_session(tab.page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
        tab.goto(path)
        tab.page.wait_for_function("() => window.__frames && window.__frames.some((f) => f.done)", timeout=BOOT_TIMEOUT_MS)
        frames = tab.page.evaluate("window.__frames")
        blank = sum(b["t"] - a["t"] for a, b in zip(frames, frames[1:]) if a["blank"])
        assert blank <= 500, " ".join(f"{f['t']:.0f}{'B' if f['blank'] else ''}{f['b']['friendly_experience']}{'A' if f['answered'] else ''}" for f in frames)
        for f in frames:
            assert set(f["a"]["flak_shots"]) <= {"4"} and set(f["a"]["friendly_flak"]) <= {"2"}, f
            assert set(f["b"]["friendly_experience"]) <= {"veteran"} and set(f["b"]["flak_shots"]) <= {"4"}, f
            assert set(f["sweep"]) <= {"friendly_flak"}, f
        # Option B and the sweep were shown, with the link's values, before the answer came.
        before = [f for f in frames if not f["answered"]]
        assert any(f["b"]["friendly_experience"] == ["veteran"] for f in before), before[-1:]
        assert any(f["sweep"] == ["friendly_flak"] for f in before), before[-1:]
        # The answer is the engine's for the link (worked out by rules_py here).
        headline = rules_py.compare(calc_id, {"flak_shots": "4", "friendly_flak": "2"}, {"friendly_experience": "veteran"})
        b = [p["b"] for p in headline["headline_parts"] if "b" in p]
        shown = tab.page.eval_on_selector_all(f'{scope(calc_id)} .fm-answer-box [data-headline] [data-option="b"]', "es => es.map(e => e.textContent)")
        assert shown == b
        assert tab.errors == []
    finally:
        tab.close()
