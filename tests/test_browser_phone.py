"""A calculator at the table, on a 390 x 844 touch screen (issue 43):

* one screen: once a calculator has answered, its first screen (the page's first
  844 px) holds the answer's headline, its inputs (a summary in words that opens
  the form) and Use my dice, for every calculator; a Konrad map calculator's
  map, which is its input and shows its answer, starts on that screen too;
* the inputs' summary is a real button, at least 44 px tall, with aria-expanded,
  that the keyboard opens and closes; its words are the schema's labels and the
  options' labels (worked out here from rules_py); a bad value in a link opens
  the form with its message beside its field, and never leaves it folded;
* the air strike's comparison table fits the phone: no table wider than its
  box, every cell's text whole;
* every control a player taps is at least 44 px tall, the theme's menu and
  search buttons included;
* Link to these inputs offers the system share sheet (navigator.share, stubbed
  here, recording what it was given) with the headline as its text, on a phone;
  a desktop follows the link.

Positions are measured with getBoundingClientRect in the page's coordinates
(its top at 0), at the page's first scroll position.
"""

from __future__ import annotations

from urllib.parse import parse_qsl

import pytest

import rules_py
from rules_py.registry import get
from conftest import BOOT_TIMEOUT_MS, before_the_glue, open_tab

pytestmark = [pytest.mark.browser, pytest.mark.site]

PHONE = dict(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
DESKTOP = dict(viewport={"width": 1280, "height": 800})
SCREEN = 844
CALCS = rules_py.calculators()
AIR_COMPARE = "calculators/k47-air-strike/?flak_shots=4&friendly_flak=2&vs.friendly_experience=veteran"


def scope(calc_id: str) -> str:
    return f'.calculator[data-calculator="{calc_id}"]:not([data-stale])'


@pytest.fixture(scope="module")
def phone(browser, server):
    tab = open_tab(browser, server, **PHONE)
    yield tab
    tab.close()


# Where each part starts and ends in the page (not the window): its box plus the scroll.
PLACES = """(sel) => {
  const root = document.querySelector(sel);
  const at = (e) => { if (!e || !e.checkVisibility()) return null; const r = e.getBoundingClientRect(); return {top: r.top + scrollY, bottom: r.bottom + scrollY, height: r.height}; };
  return {
    headline: at(root.querySelector('.fm-answer-box .fm-headline')),
    inputs: at(root.querySelector('.fm-inputs-button')),
    dice: at(root.querySelector('.fm-own-dice-button')),
    map: at(root.querySelector('.fm-map-board')),
    page: document.documentElement.scrollHeight,
  };
}"""


def first_screen(tab, path: str, calc_id: str) -> dict:
    tab.visit(path)
    tab.calculator(calc_id)
    tab.page.evaluate("() => window.scrollTo(0, 0)")
    return tab.page.evaluate(PLACES, scope(calc_id))


@pytest.mark.parametrize("calc", CALCS, ids=[c.id for c in CALCS])
def test_the_first_screen_holds_the_headline_the_inputs_and_use_my_dice(phone, calc):
    path = f"calculators/{calc.id}/" + ("?nation=soviet" if calc.id == "chq-fire-mission" else "")
    places = first_screen(phone, path, calc.id)
    parts = ["headline"] + (["dice"] if calc.rolls_dice else []) + (["map"] if any(f.type == "map" for f in calc.fields) else []) + ["inputs"]
    for part in parts:
        assert places[part] is not None, (part, places)
        # Each part starts on the first screen; the headline, the inputs' button and Use my dice end on it too.
        assert places[part]["top"] < SCREEN, (part, places)
        if part != "map":
            assert places[part]["bottom"] <= SCREEN, (part, places)


def choice_label(calc, name: str, value: str) -> str:
    return next(c.label for c in calc.field(name).choices if c.name == value)


def test_the_inputs_summary_is_a_button_in_words_that_opens_the_form(phone):
    calc = get("chq-fire-mission")
    first_screen(phone, "calculators/chq-fire-mission/?nation=soviet&fire_dice=5", calc.id)
    button = phone.page.locator(f"{scope(calc.id)} .fm-inputs-button")
    text = button.inner_text()
    # The changed inputs in words: the field's label, the option's label, the number.
    assert f"{calc.field('nation').label}: {choice_label(calc, 'nation', 'soviet')}" in text, text
    assert f"{calc.field('fire_dice').label}: 5" in text, text
    assert "soviet" not in text  # the option's name is not a player's word
    assert button.evaluate("b => b.tagName") == "BUTTON"
    assert button.bounding_box()["height"] >= 44
    assert button.get_attribute("aria-expanded") == "false"
    nation = phone.page.locator(f'{scope(calc.id)} select[data-input="nation"]')
    assert not nation.is_visible()
    # The keyboard opens it (Enter) and closes it (Space); the form follows aria-expanded.
    button.focus()
    phone.page.keyboard.press("Enter")
    phone.page.wait_for_function("(sel) => document.querySelector(sel).getAttribute('aria-expanded') === 'true'", arg=f"{scope(calc.id)} .fm-inputs-button")
    assert nation.is_visible()
    assert button.get_attribute("aria-controls") == phone.page.eval_on_selector(f"{scope(calc.id)} .fm-layout > .fm-form", "f => f.id")
    # A change in the open form shows in the summary's words, and the form stays open.
    nation.select_option("usa")
    phone.page.wait_for_function(
        "([sel, want]) => document.querySelector(sel).textContent.includes(want)",
        arg=[f"{scope(calc.id)} .fm-inputs-button", f"{calc.field('nation').label}: {choice_label(calc, 'nation', 'usa')}"],
    )
    assert nation.is_visible()
    button.focus()
    phone.page.keyboard.press(" ")
    phone.page.wait_for_function("(sel) => document.querySelector(sel).getAttribute('aria-expanded') === 'false'", arg=f"{scope(calc.id)} .fm-inputs-button")
    assert not nation.is_visible()


def test_the_form_is_laid_out_whole_as_it_unfolds(phone):
    """A drop-down whose chosen label it cuts writes the label out under it (form.mjs): on a
    phone's folded form that is done as the form unfolds, so a field scrolled to in the same
    moment (by a player's focus, or the page's own scroll to a field with a problem) stays
    where it was put. Fitted only by the drop-downs' ResizeObserver, the labels came a frame
    later and pushed the form's last field 38 px below the screen (fire for effect, whose
    readings' labels are long)."""
    calc_id = "chq-fire-for-effect"
    phone.visit(f"calculators/{calc_id}/")
    phone.calculator(calc_id)
    before, after = phone.page.evaluate(
        """(sel) => new Promise((done) => {
            const root = document.querySelector(sel);
            root.querySelector('.fm-inputs-button').click();
            const last = [...root.querySelectorAll('.fm-layout > .fm-form [data-input]')].at(-1);
            last.scrollIntoView({block: 'end'});
            const at = () => last.getBoundingClientRect().top;
            const first = at();
            requestAnimationFrame(() => requestAnimationFrame(() => done([first, at()])));
        })""",
        scope(calc_id),
    )
    assert abs(after - before) <= 1, (before, after)  # a pixel of rounding as the page settles
    assert phone.page.eval_on_selector_all(f"{scope(calc_id)} .fm-layout > .fm-form .fm-choice-full:not([hidden])", "els => els.length") > 0  # the case: labels written out
    phone.page.click(f"{scope(calc_id)} .fm-inputs-button")  # folded again for the module's next test


def test_a_bad_value_in_a_link_opens_the_form_with_its_message(phone):
    calc_id = "chq-fire-mission"
    phone.visit(f"calculators/{calc_id}/?fire_dice=banana")
    error = phone.page.locator(f'{scope(calc_id)} .fm-layout > .fm-form [data-field-error="fire_dice"]')
    error.wait_for(state="visible", timeout=BOOT_TIMEOUT_MS)
    assert error.inner_text().strip()
    assert phone.page.locator(f'{scope(calc_id)} input[data-input="fire_dice"]').is_visible()
    assert phone.page.get_attribute(f"{scope(calc_id)} .fm-inputs-button", "aria-expanded") == "true"
    # Mended, it answers; the form stays open where the player is (it folds at their tap).
    phone.page.fill(f'{scope(calc_id)} input[data-input="fire_dice"]', "4")
    phone.page.keyboard.press("Enter")
    phone.calculator(calc_id)
    error.wait_for(state="hidden")
    assert phone.page.get_attribute(f"{scope(calc_id)} .fm-inputs-button", "aria-expanded") == "true"


# Every table of the comparison a player sees (a chart's table for a screen reader is not drawn):
# its box against its container's, and each cell's text against its box.
TABLES = """(sel) => [...document.querySelectorAll(sel)].filter((t) => t.checkVisibility() && !t.closest('.fm-sr')).map((t) => {
  const box = t.parentElement.getBoundingClientRect();
  const r = t.getBoundingClientRect();
  const cut = [...t.querySelectorAll('th, td')].filter((c) => c.scrollWidth > c.clientWidth + 1 || c.getBoundingClientRect().right > box.right + 0.5)
    .map((c) => c.textContent);
  return {width: r.width, room: box.width, right: r.right, scroll: t.parentElement.scrollWidth - t.parentElement.clientWidth, cut};
})"""


def test_the_comparison_tables_fit_a_phone(phone):
    calc_id = "k47-air-strike"
    phone.visit(AIR_COMPARE)
    phone.calculator(calc_id)
    phone.page.wait_for_selector(f'{scope(calc_id)}[data-compare-status="ready"]', timeout=BOOT_TIMEOUT_MS)
    for details in phone.page.query_selector_all(f"{scope(calc_id)} .fm-compare details"):
        details.evaluate("d => d.open = true")
    tables = phone.page.evaluate(TABLES, f"{scope(calc_id)} .fm-compare table")
    assert len(tables) >= 3, tables  # the difference, and option A's and B's full results
    for table in tables:
        assert table["width"] <= table["room"] + 0.5 and table["right"] <= 390 and table["scroll"] <= 0, table
        assert table["cut"] == [], table
    # The difference's B − A column is read whole: "no change" where the options agree.
    diffs = phone.page.eval_on_selector_all(f"{scope(calc_id)} .fm-compare-diffs td.fm-diff", "cs => cs.map((c) => c.textContent)")
    assert diffs and all(d.strip() for d in diffs), diffs


# Each calculator's All results at inputs with long fractions where it has them (fire for
# effect at 7 Fire Dice in medium cover: 271305181/362797056), else at its defaults.
ALL_RESULTS = {"chq-fire-for-effect": "?fire_dice=7&cover=medium"}


def test_every_calculators_all_results_fit_a_phone(phone):
    """Every column of the answer's own tables in view, with no sideways scroll: at least and
    at most were behind one (a fire-for-effect table 431 px wide in 298), long fractions cut."""
    checked = 0
    for calc in CALCS:
        phone.visit(f"calculators/{calc.id}/{ALL_RESULTS.get(calc.id, '')}")
        phone.calculator(calc.id)
        own = f"{scope(calc.id)} details.fm-details:not(.fm-compare details):has(> .fm-results)"
        phone.page.eval_on_selector(own, "d => d.open = true")
        tables = phone.page.evaluate(TABLES, f"{own} table")
        for table in tables:
            assert table["width"] <= table["room"] + 0.5 and table["right"] <= 390 and table["scroll"] <= 0, (calc.id, table)
            assert table["cut"] == [], (calc.id, table)
        # A table for every outcome that is not certain (officer morale's is, at its defaults).
        inputs = dict(parse_qsl(ALL_RESULTS.get(calc.id, "").lstrip("?")))
        assert len(tables) == sum(o["kind"] != "certain" for o in rules_py.answer(calc.id, inputs)["outcomes"]), calc.id
        checked += bool(tables)
    assert checked >= len(CALCS) - 3


# Every control a player can tap that shows, with its height: the theme's header buttons, the
# calculator's buttons, fields, drop-downs, summaries, links styled as controls and the labels
# that stand for a checkbox or a radio button (the box itself is inside its label's target).
CONTROLS = """() => {
  const sel = ['.md-header label.md-header__button', '.md-header .md-header__button', '.fm-calculator:not(.fm-static) button',
    '.fm-calculator:not(.fm-static) select', '.fm-calculator:not(.fm-static) input[type=text]', '.fm-calculator:not(.fm-static) summary',
    '.fm-calculator:not(.fm-static) a.fm-link', '.fm-calculator:not(.fm-static) .fm-check', '.fm-calculator:not(.fm-static) .fm-mode label'].join(', ');
  return [...document.querySelectorAll(sel)].filter((e) => e.checkVisibility({visibilityProperty: true}) && e.getBoundingClientRect().width > 0)
    .filter((e) => !e.closest('.fm-map-cells'))
    .map((e) => ({what: `${e.tagName.toLowerCase()}.${[...e.classList].join('.')} ${(e.getAttribute('aria-label') || e.textContent || e.getAttribute('for') || '').trim().slice(0, 30)}`, height: e.getBoundingClientRect().height}));
}"""


def test_every_control_on_a_phone_is_44_px_tall(phone):
    calc_id = "chq-fire-mission"
    phone.visit(f"calculators/{calc_id}/?nation=soviet&vs.cover=medium")
    phone.calculator(calc_id)
    phone.page.wait_for_selector(f'{scope(calc_id)}[data-compare-status="ready"]', timeout=BOOT_TIMEOUT_MS)
    phone.page.click(f"{scope(calc_id)} .fm-inputs-button")
    phone.page.click(f"{scope(calc_id)} .fm-own-dice-button")
    phone.page.wait_for_selector(f"{scope(calc_id)} .fm-own-dice .fm-face-button")
    controls = phone.page.evaluate(CONTROLS)
    header = [c for c in controls if "md-header__button" in c["what"]]
    assert len(header) >= 2, header  # the menu and the search
    assert len(controls) > 40, controls
    short = [c for c in controls if c["height"] < 44 - 0.5]
    assert short == [], short


SHARE_STUB = """
window.__shared = [];
Object.defineProperty(navigator, 'share', {configurable: true, value: (data) => { window.__shared.push(JSON.parse(JSON.stringify(data))); return Promise.resolve(); }});
Object.defineProperty(navigator, 'canShare', {configurable: true, value: () => true});
"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_link_to_these_inputs_offers_the_share_sheet_on_a_phone(browser, server, size):
    calc_id = "chq-fire-mission"
    tab = open_tab(browser, server, bypass_csp=True, **(PHONE if size == "phone" else DESKTOP))
    try:
        tab.context.add_init_script(SHARE_STUB)
        tab.goto(f"calculators/{calc_id}/?nation=soviet")
        tab.calculator(calc_id)
        link = tab.page.locator(f"{scope(calc_id)} a.fm-link")
        href = link.get_attribute("href")
        assert href.endswith(f"/calculators/{calc_id}/?nation=soviet"), href
        headline = tab.page.inner_text(f"{scope(calc_id)} .fm-answer-box .fm-headline").strip()
        assert headline
        if size == "phone":
            assert link.bounding_box()["height"] >= 44
            link.click()
            tab.page.wait_for_function("() => window.__shared.length > 0")
            shared = tab.page.evaluate("() => window.__shared")
            assert len(shared) == 1 and shared[0]["url"] == href and shared[0]["text"] == headline, (shared, headline)
            assert tab.page.evaluate("() => location.href") == href  # the page stays as it is
        else:
            with tab.page.expect_navigation():
                link.click()
            assert tab.page.evaluate("() => window.__shared") == []
    finally:
        tab.close()




@pytest.mark.parametrize("calc_id", ["chq-fire-mission", "konrad-retreat"])
def test_the_builds_copy_is_laid_out_as_the_live_calculator_on_a_phone(browser, server, calc_id):
    """The copy is folded as the live calculator is: the headline, the inputs' button, Use my
    dice and the map stand where the live ones will, so nothing moves when the glue takes over."""
    copy_tab = open_tab(browser, server, **PHONE)
    try:
        before_the_glue(copy_tab, f"calculators/{calc_id}/")
        copy_tab.page.wait_for_selector(f'.calculator[data-calculator="{calc_id}"] > .fm-static .fm-headline')
        copy = copy_tab.page.evaluate(PLACES, f'.calculator[data-calculator="{calc_id}"] > .fm-static')
    finally:
        copy_tab.close()
    live_tab = open_tab(browser, server, **PHONE)
    try:
        live_tab.goto(f"calculators/{calc_id}/")
        live_tab.calculator(calc_id)
        # Once the engine's note (under the headline, absent from the copy) has gone.
        live_tab.page.wait_for_selector(f"{scope(calc_id)} .fm-answer-box .fm-engine[hidden]", state="attached", timeout=BOOT_TIMEOUT_MS)
        live = live_tab.page.evaluate(PLACES, scope(calc_id))
    finally:
        live_tab.close()
    assert copy["inputs"] is not None and copy["headline"] is not None, copy
    for part in ("headline", "inputs", "dice", "map"):
        if live[part] is None:
            assert copy[part] is None, (part, copy)
            continue
        assert copy[part]["top"] == pytest.approx(live[part]["top"], abs=1), (part, copy, live)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_on_a_phone_with_the_inputs_folded_and_open(browser, server, scheme):
    """The calculator, its inputs' button and its folded form included, passes axe (run as
    tests/test_browser_a11y.py runs it, on the calculator), light and dark."""
    from test_browser_a11y import violations

    tab = open_tab(browser, server, color_scheme=scheme, **PHONE)
    try:
        calc_id = "chq-fire-mission"
        tab.goto(f"calculators/{calc_id}/?nation=soviet&vs.cover=medium")
        tab.calculator(calc_id)
        tab.page.wait_for_selector(f'{scope(calc_id)}[data-compare-status="ready"]', timeout=BOOT_TIMEOUT_MS)
        assert violations(tab, scope(calc_id)) == []
        tab.page.click(f"{scope(calc_id)} .fm-inputs-button")
        tab.page.wait_for_selector(f'{scope(calc_id)} .fm-inputs-button[aria-expanded="true"]')
        assert violations(tab, scope(calc_id)) == []
    finally:
        tab.close()
