"""What every browser engine must show, checked the same way in Firefox and WebKit.

tests/test_firefox.py and tests/test_webkit.py call these with their engine's
page (tests/browser_engines.py). Every number is the CLI's (``python -m
rules_py``) for the same inputs; every roll the CLI's for the same seed.
"""

from __future__ import annotations

import json
import unicodedata

import pytest

import rules_py
from conftest import cli, cli_odds
from rules_py.calculator import InputError, format_value
from rules_py.reference import glossary
from rules_py.seeds import parse_seed

CALCS = rules_py.calculators()
DEFINITIONS = {t.id: t.definition for t in glossary()}


def scope(calc_id: str) -> str:
    return f'.calculator[data-calculator="{calc_id}"]'


def engine_only_change(calc) -> tuple[object, str]:
    """One field and a value other than its default, for which the build wrote no answer
    into the page (so the engine in this browser must work it out)."""
    built = [rules_py.answer(calc.id, example)["inputs"] for example in ({}, *calc.examples)]
    for f in calc.fields:
        if f.type == "choice":
            candidates = [c.name for c in f.choices if c.name != f.default]
        elif f.type == "bool":
            candidates = [format_value(not f.default)]
        elif f.type == "int" and f.default is not None:
            candidates = [str(v) for v in (f.default + 1, f.default - 1) if (f.minimum is None or v >= f.minimum) and (f.maximum is None or v <= f.maximum)]
        else:
            continue
        for value in candidates:
            if rules_py.answer(calc.id, {f.name: value})["inputs"] not in built:
                return f, value
    raise AssertionError(f"{calc.id}: no input to change")


def wait_for_odds(page, calc_id: str, expected: dict[tuple[str, str], str], source: str | None = None) -> None:
    """Wait until the calculator is ready and shows exactly ``expected``; then check it."""
    want = sorted([o, v, p] for (o, v), p in expected.items())
    shown = """([sel, want, source]) => {
        const root = document.querySelector(sel);
        if (!root || root.dataset.status !== 'ready' || (source && root.dataset.source !== source)) return false;
        const cells = [...root.querySelectorAll(':is(.fm-summary, .fm-results):not([data-stale]) [data-p]')];
        const seen = [...new Set(cells.map(e => JSON.stringify([e.dataset.outcome, e.dataset.value, e.dataset.p])))].map(s => JSON.parse(s));
        seen.sort((a, b) => (a.join('\\u0000') < b.join('\\u0000') ? -1 : 1));
        return JSON.stringify(seen) === JSON.stringify(want);
    }"""
    try:
        page.wait(shown, [f"{scope(calc_id)}:not([data-stale])", want, source])
    except AssertionError:
        pass  # the assertion below says what is on show instead
    assert page.odds_cells(calc_id) == expected, calc_id
    if source:
        assert page.eval("sel => document.querySelector(sel).dataset.source", scope(calc_id)) == source


def assert_no_errors(page, *where: str) -> None:
    """No console error nor uncaught error since the last look, naming any there were
    (this module is not one pytest rewrites, so a bare assert would not show them)."""
    errors = page.errors()
    assert errors == [], (*where, errors)


def change_input(page, calc_id: str, field, value: str) -> None:
    widget = f'{scope(calc_id)} [data-input="{field.name}"]'
    # The build's copy keeps its controls inert until the page's glue takes over (a
    # player cannot type into it before then either): wait for the live field.
    page.wait("sel => { const w = document.querySelector(sel); return !!w && !w.disabled && w.getClientRects().length > 0; }", widget)
    if field.type == "choice":
        page.select(widget, value)
    elif field.type == "bool":
        page.click(widget)
    else:
        page.fill(widget, value)


def check_every_calculator(page) -> None:
    """Each calculator page, by instant navigation (one engine boot for all): its
    default answer, then one input changed in the form, answered by the engine."""
    page.goto(f"calculators/{CALCS[0].id}/")
    for calc in CALCS:
        page.navigate(f"calculators/{calc.id}/")
        wait_for_odds(page, calc.id, cli_odds(calc.id))
        field, value = engine_only_change(calc)
        change_input(page, calc.id, field, value)
        wait_for_odds(page, calc.id, cli_odds(calc.id, {field.name: value}), source="engine")
        assert_no_errors(page, calc.id)


def roll_log(page, calc_id: str, seed: str) -> dict:
    sel = f'{scope(calc_id)} .fm-roll-log[data-seed="{seed}"]'
    page.wait_for(sel)
    return page.eval(
        """sel => { const log = document.querySelector(sel); return {
            dice: [...log.querySelectorAll('li[data-label]')].map(e => [e.dataset.label, e.dataset.dice, e.dataset.faces]),
            outcomes: Object.fromEntries([...log.querySelectorAll('dd[data-roll-outcome]')].map(e => [e.dataset.rollOutcome, e.dataset.value])),
        }; }""",
        sel,
    )


def set_seed(page, calc_id: str, seed: str) -> None:
    """The seed field's text, as typed (set whole, with an input event: typing 5,000 digits one key at a time tests nothing more)."""
    page.eval(
        "(sel, seed) => { const e = document.querySelector(sel); e.value = seed; e.dispatchEvent(new Event('input', {bubbles: true})); return true; }",
        f"{scope(calc_id)} .fm-seed", seed,
    )


def check_seeded_roll(page) -> None:
    """A roll with a number seed, then with a phrase typed in decomposed form (e + combining
    accent): both the CLI's dice, the phrase written back in NFC."""
    calc_id, inputs = "chq-comms-check", {"nation": "usa"}
    page.visit(f"calculators/{calc_id}/?nation=usa")
    page.calculator(calc_id)
    for typed in ("4242", "Cafe\u0301 Konrad"):
        normal = unicodedata.normalize("NFC", typed)
        set_seed(page, calc_id, typed)
        page.click(f"{scope(calc_id)} .fm-roll-button")
        shown = roll_log(page, calc_id, normal)
        expected = cli("roll", calc_id, "--seed", normal, *(f"{k}={v}" for k, v in inputs.items()))
        assert shown["dice"] == [[d["label"], d["dice"], " ".join(map(str, d["faces"]))] for d in expected["dice"]]
        assert shown["outcomes"] == expected["outcomes"]
    assert_no_errors(page)


def seed_message(raw: str) -> str:
    with pytest.raises(InputError) as caught:
        parse_seed(raw)
    return caught.value.errors[0][1]


def check_bad_seeds_get_a_message_at_the_field(page) -> None:
    """A 5,000-digit seed and a phrase with a zero-width space: the engine's message under the seed field, no roll."""
    calc_id = "chq-comms-check"
    page.visit(f"calculators/{calc_id}/?nation=soviet")
    page.calculator(calc_id)
    for raw in ("9" * 5000, "Konrad\u200bday 3"):
        set_seed(page, calc_id, raw)
        page.click(f"{scope(calc_id)} .fm-roll-button")
        error = f'{scope(calc_id)} [data-field-error="seed"]:not([hidden])'
        page.wait("(sel, text) => { const e = document.querySelector(sel); return e !== null && e.textContent === text; }", error, seed_message(raw))
        assert page.eval("sel => document.querySelector(sel) === null", f"{scope(calc_id)} .fm-roll-log[data-seed]")
    assert_no_errors(page)


def check_comparison(page) -> None:
    """Germany against the Soviets (tests/test_compare.py works it by hand): both options' odds and the differences, as the CLI's;
    then a comparison whose option B is certain of its outcome, with its chart."""
    calc_id = "chq-comms-check"
    page.visit(f"calculators/{calc_id}/?nation=germany&vs.nation=soviet")
    page.wait_for(f'{scope(calc_id)}[data-compare-status="ready"]')
    expected = cli("odds", calc_id, "nation=germany", "--vs", "nation=soviet")
    for option in ("a", "b"):
        shown = page.eval(
            "sel => [...document.querySelectorAll(sel)].map(e => [e.dataset.outcome, e.dataset.value, e.dataset.p])",
            f'{scope(calc_id)} .fm-compare-option[data-option="{option}"] [data-p]',
        )
        want = {(o, v): p for o, values in expected[option]["outcomes"].items() for v, p in values.items() if p != "0"}
        assert {(o, v): p for o, v, p in shown} == want, option
    assert expected["differences"]["success"]["chance_of_yes"]["b_minus_a"] == "-5/32"
    diffs = dict(page.eval("sel => [...document.querySelectorAll(sel)].map(e => [e.dataset.outcome, e.querySelector('[data-diff]').dataset.diff])", f"{scope(calc_id)} .fm-compare-table tbody tr"))
    assert diffs["success"] == json.dumps(expected["differences"]["success"]["chance_of_yes"]["b_minus_a"]).strip('"')
    # An option certain of its outcome (issue 34, attack run item 2): at close quarters the
    # medic has no roll, so B saves none for certain; A saves none with (5/6)^3 = 57.9%.
    # Both options, their chart, and each bar's text, the engine's.
    calc_id = "k47-medic"
    page.visit(f"calculators/{calc_id}/?vs.cause=close_quarters")
    page.wait_for(f'{scope(calc_id)}[data-compare-status="ready"]')
    bars = page.eval("sel => [...document.querySelectorAll(sel)].map(r => r.querySelector('title').textContent)", f'{scope(calc_id)} .fm-compare-charts svg[data-chart="saved"] rect[data-value="0"]')
    assert bars == ["0: A 57.9%", "0: B 100%"]
    assert_no_errors(page)


def first_term(page) -> str:
    return page.eval("() => document.querySelector('article a.glossary-term').getAttribute('href').split('#').pop()")


def check_term_popover(page) -> None:
    """On a touch screen, a tap on a glossary term shows its definition in place."""
    page.visit("combat-hq/comms/")
    term_id = first_term(page)
    here = page.eval("() => location.href")
    page.click("article a.glossary-term")
    page.wait_for(".fm-term-popover .fm-term-definition")
    assert page.eval("() => document.querySelector('.fm-term-popover .fm-term-definition').textContent") == DEFINITIONS[term_id]
    assert page.eval("() => location.href") == here
    assert page.eval("() => document.querySelector('article a.glossary-term').getAttribute('aria-expanded')") == "true"
    assert_no_errors(page)


def check_term_tooltip(page) -> None:
    """With a mouse, a glossary term is a link with the theme's tooltip holding its definition."""
    page.visit("combat-hq/comms/")
    term_id = first_term(page)
    page.hover("article a.glossary-term")
    page.wait("text => { const t = document.querySelector('.md-tooltip2--active'); return t !== null && t.textContent.includes(text); }", DEFINITIONS[term_id])
    assert page.eval("() => document.querySelector('.fm-term-popover')") is None
    assert_no_errors(page)


def check_offline_after_one_visit(page, server) -> None:
    """One calculator page answers and the service worker caches the engine; with
    the host gone, another calculator page opens and its engine answers the CLI's odds."""
    page.goto("calculators/chq-comms-check/?nation=soviet")
    page.calculator("chq-comms-check")
    page.wait("() => document.documentElement.dataset.offline === 'engine'")
    server.stop()  # the host is gone: only the service worker can answer
    calc = next(c for c in CALCS if c.id == "k47-medic")
    field, value = engine_only_change(calc)
    page.goto(f"calculators/{calc.id}/?{field.name}={value}")
    wait_for_odds(page, calc.id, cli_odds(calc.id, {field.name: value}), source="engine")
    assert_no_errors(page)


def check_a_kept_mission_shows_in_play(page) -> None:
    """Use my dice, one die, Keep in play: the In play page lists the mission with the
    engine's words for its dice and the next roll it needs, the CLI's (tests/test_browser_in_play.py
    checks the rest in Chromium). Then the mission is removed, leaving the store as found."""
    calc_id = "k47-air-strike"
    own = f"{scope(calc_id)} .fm-own-dice"
    page.visit(f"calculators/{calc_id}/")
    page.calculator(calc_id)
    page.click(f"{scope(calc_id)} .fm-own-dice-button")
    page.wait_for(f'{own}[data-resolve="need"]:not([data-busy])')
    # The face 2, tapped as a player does (the buttons run 1 to 6).
    page.eval("sel => document.querySelectorAll(sel)[1].click()", f"{own} .fm-face-button")
    page.wait_for(f'{own}[data-resolve="need"][data-dice="2"]:not([data-busy])')
    page.fill(f"{own} .fm-mission-name", "Battery A, turn 3")
    page.click(f"{own} [data-keep]")
    page.wait_for(f'{own} .fm-keep-status[data-kept="true"]')
    page.visit("in-play/")
    page.wait_for('[data-in-play][data-status="ready"] [data-mission]')
    shown = page.eval(
        """() => [...document.querySelectorAll('[data-mission]')].map((e) => ({
            name: e.querySelector('.fm-mission-name').value,
            need: e.querySelector('.fm-mission-continue')?.dataset.needLabel ?? null,
            dice: e.querySelector('[data-dice-words]').textContent}))"""
    )
    said = rules_py.answer(calc_id, dice="2")["given_words"]
    need = cli("resolve", calc_id, "--dice", "2")["need"]["label"]
    assert shown == [{"name": "Battery A, turn 3", "need": need, "dice": f"Dice so far: {'; '.join(said)}."}], shown
    page.eval("() => localStorage.removeItem('fm-missions')")
    assert_no_errors(page)


# The calculator's width in rem and whether its answer stands beside its inputs
# (two columns) or above them.
LAYOUT = """sel => {
  const root = document.querySelector(sel);
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
  const form = root.querySelector('.fm-form').getBoundingClientRect();
  const answer = root.querySelector('.fm-answer-box').getBoundingClientRect();
  return {rem: root.getBoundingClientRect().width / rem, columns: answer.left >= form.right - 1 ? 2 : 1};
}"""


def check_columns_by_the_calculators_own_width(page) -> list[dict]:
    """Two columns exactly where the calculator itself is 44rem wide or more (calculator.css's
    container query), on its own page and on a rules page, whatever the window's width."""
    calc_id = "k47-air-strike"
    seen = []
    for path in (f"calculators/{calc_id}/", "konflikt47/air-strikes/"):
        page.visit(path)
        page.wait_for(f'{scope(calc_id)}[data-status="ready"]:not([data-stale])')
        layout = page.eval(LAYOUT, f"{scope(calc_id)}:not([data-stale])")
        assert layout["columns"] == (2 if layout["rem"] >= 44 else 1), (path, layout)
        seen.append({"path": path, **layout})
    assert_no_errors(page)
    return seen
