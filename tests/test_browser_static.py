"""The calculators in the built HTML (scripts/build/render_calculators.py): a page
shows its default answer with its first paint, before any script and without
one; the live calculator takes over from that copy, keeping what the player
typed there; a page whose address has a query never shows the copy's answer.

The copy's numbers are read as a player reads them (each outcome's title, then
each row's result, percentage and exact fraction) and compared with the CLI's
typed answer (``python -m rules_py answer``) and with the live calculator's.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from conftest import BOOT_TIMEOUT_MS, GLUE, before_the_glue, cli, cli_odds, open_tab
from rules_py import calculators

CALC = "po-counter-battery"
# Attributes of the DOM contract and the glue's state: never on the copy.
CONTRACT = re.compile(r"\sdata-(?!side=)[a-z-]+=")
STATIC = re.compile(r'<div class="fm-static fm-calculator">')


def scope(calc_id: str) -> str:
    return f'.calculator[data-calculator="{calc_id}"]'


class _Copy(HTMLParser):
    """The text of a calculator's copy in a page: its summary lines, and its results tables as
    {outcome title: [[result, percentage, fraction], ...]}."""

    WANTED = {"fm-sum", "fm-outcome-title", "fm-value", "fm-pct", "fm-frac"}

    def __init__(self):
        super().__init__()
        self.depth = 0  # inside <div class="fm-static">: its nesting of elements
        self.own = 0  # inside Use my dice's section: its nesting of elements
        self.open: list[tuple[str, str | None, bool]] = []  # (tag, wanted class, is .fm-results) inside the copy
        self.text = {c: "" for c in self.WANTED}
        self.summary: list[str] = []
        self.tables: dict[str, list[list[str]]] = {}
        self.row: list[str] = []
        self.outcome = None

    VOID = {"input", "br", "img", "meta", "link", "hr", "col", "wbr"}

    def handle_starttag(self, tag, attrs):
        classes = set((dict(attrs).get("class") or "").split())
        if not self.depth:
            if tag == "div" and "fm-static" in classes:
                self.depth = 1
            return
        if tag in self.VOID:
            return
        self.depth += 1
        # Use my dice's first prompt has odds of its own (tests/test_browser_prerendered.py reads them).
        self.own += bool(self.own or "fm-own-dice" in classes)
        wanted = None if self.own else next(iter(classes & self.WANTED), None)
        if wanted:
            self.text[wanted] = ""
        self.open.append((tag, wanted, "fm-results" in classes))

    def handle_endtag(self, tag):
        if not self.depth or tag in self.VOID:
            return
        self.depth -= 1
        if not self.depth:
            return
        _, wanted, _ = self.open.pop()
        if self.own:
            self.own -= 1
            return
        if wanted in ("fm-outcome-title", "fm-value", "fm-pct", "fm-frac") and not any(results for *_, results in self.open):
            return  # the steps' tables have the same cells: only the results' are read
        if wanted == "fm-sum":
            self.summary.append(self.text[wanted])
        elif wanted == "fm-outcome-title":
            self.outcome = self.text[wanted]
            self.tables[self.outcome] = []
        elif wanted in ("fm-value", "fm-pct", "fm-frac"):
            self.row.append(self.text[wanted])
            if wanted == "fm-frac":
                self.tables[self.outcome].append(self.row)
                self.row = []

    def handle_data(self, data):
        for _, wanted, _ in self.open:
            if wanted:
                self.text[wanted] += data


def read_copy(html: str) -> _Copy:
    parser = _Copy()
    parser.feed(html)
    return parser


def expected_tables(answer: dict) -> dict[str, list[list[str]]]:
    """What the results tables show for a typed answer: every possible result's label, percentage, fraction."""
    return {o["label"]: [[v["label"], v["percent"], v["p"]] for v in o["values"] if v["p"] != "0"] for o in answer["outcomes"] if o["kind"] == "distribution"}


# Read in the page: every row of the results tables, by outcome title (the live view and the copy alike).
TABLES = """(box) => {
    const out = {};
    for (const section of box.querySelectorAll(".fm-results .fm-outcome")) {
        const title = section.querySelector(".fm-outcome-title").textContent;
        out[title] = [...section.querySelectorAll("tbody tr")].map((tr) =>
            [tr.querySelector(".fm-value").textContent, tr.querySelector(".fm-pct").textContent, tr.querySelector(".fm-frac").textContent]);
    }
    return out;
}"""


# ---------------------------------------------------------------- the HTML, without a browser


@pytest.mark.site
def test_the_built_page_carries_the_default_answer_as_the_cli_gives_it(site):
    html = (site / "calculators" / CALC / "index.html").read_text(encoding="utf-8")
    assert len(STATIC.findall(html)) == 1
    copy = read_copy(html)
    answer = cli("answer", CALC)
    # The summary's lines, as the engine words them, and every result's percentage and exact fraction.
    assert len(copy.summary) == len(answer["outcomes"])
    for line, outcome in zip(copy.summary, answer["outcomes"]):
        assert line.startswith(outcome["summary"]), line  # then a number's chance of each value
    assert copy.tables == expected_tables(answer)
    assert copy.tables["An enemy battery spotted"] == [["no", "29.6%", "8/27"], ["yes", "70.4%", "19/27"]]  # 1 - (2/3)^3 = 19/27


@pytest.mark.site
def test_no_copy_carries_the_dom_contract(site):
    pages = [p for p in site.rglob("*.html") if 'class="calculator' in p.read_text(encoding="utf-8")]
    assert len(pages) > 12  # the calculators' own pages and the rules pages that embed one
    for page in pages:
        html = page.read_text(encoding="utf-8")
        roots = re.findall(r'<div class="calculator" data-calculator="[^"]+">', html)  # the root as the build wrote it
        assert roots and len(STATIC.findall(html)) == len(roots), page
        assert not any("data-status" in r or "data-source" in r for r in roots), page
        for start in (m.end() for m in STATIC.finditer(html)):
            # The copy ends before the calculator's note (.fm-placeholder), which follows it in the root.
            body = html[start : html.index('<p class="fm-placeholder"', start)]
            assert not CONTRACT.search(body), (page, CONTRACT.search(body).group(0))
            assert 'id="fm-' not in body, page  # its ids are its own: static-fm-...


EXPECT = re.compile(r'<link rel="expect" href="#([^"]+)" blocking="render">')


@pytest.mark.site
def test_a_calculator_s_own_page_is_not_painted_before_its_answer(site):
    # A render-blocking "expect" link in the head names the copy's answer list: the
    # browser paints nothing before it has parsed that list (on a slow phone the first
    # paint otherwise came with the form and no answer). Pages that embed a calculator
    # among the rules are painted as they come.
    own = sorted((site / "calculators").glob("*/index.html"))
    assert len(own) == len(calculators())  # every calculator has a page of its own
    for page in own:
        html = page.read_text(encoding="utf-8")
        head, body = html.split("</head>", 1)
        (target,) = EXPECT.findall(head)
        assert EXPECT.findall(body) == []
        start = STATIC.search(html).start()
        list_at = html.index(f'<ul class="fm-summary-list" id="{target}">')
        assert list_at > start, page  # the copy's own list, the first of the page
        assert html.index('<ul class="fm-summary-list"') == list_at, page
    answer = read_copy((site / "calculators" / CALC / "index.html").read_text(encoding="utf-8"))
    assert answer.summary and answer.summary[0].startswith(cli("answer", CALC)["outcomes"][0]["summary"])
    for page in ("combat-hq/comms/index.html", "index.html"):
        assert not EXPECT.search((site / page).read_text(encoding="utf-8")), page


@pytest.mark.site
def test_pages_with_a_calculator_preload_the_form_code_and_only_they(site):
    from scripts.hooks.calculator_hooks import form_modules

    assert {"view.mjs", "results.mjs", "compare.mjs"} <= set(form_modules())
    for path, preloads in [(f"calculators/{CALC}/index.html", True), ("combat-hq/comms/index.html", True), ("index.html", False)]:
        page = site / path
        hrefs = re.findall(r'<link rel="modulepreload" href="([^"]+)">', page.read_text(encoding="utf-8"))
        assert [h.rsplit("/", 1)[-1] for h in hrefs] == (list(form_modules()) if preloads else []), path
        assert all((page.parent / h).resolve().is_file() for h in hrefs), path


# ---------------------------------------------------------------- before any script


@pytest.mark.browser
@pytest.mark.site
def test_without_javascript_the_page_shows_the_default_answer(browser, server):
    tab = open_tab(browser, server, java_script_enabled=False)
    try:
        tab.goto(f"calculators/{CALC}/")
        summary = tab.page.locator(f"{scope(CALC)} .fm-static .fm-summary .fm-summary-list")
        assert summary.is_visible()
        text = summary.inner_text()
        for outcome in cli("answer", CALC)["outcomes"]:
            assert outcome["summary"].split(": ", 1)[1] in text
        assert tab.page.locator(f"{scope(CALC)} .fm-placeholder").is_visible()  # says what the inputs need
        assert tab.page.locator(f"{scope(CALC)} .fm-static input[name='enemy_batteries']").input_value() == "3"
    finally:
        tab.close()


@pytest.mark.browser
@pytest.mark.site
def test_with_a_query_the_copys_answer_is_never_shown(browser, server):
    tab = open_tab(browser, server)
    try:
        before_the_glue(tab, f"calculators/{CALC}/")
        assert tab.page.locator(f"{scope(CALC)} .fm-static .fm-summary .fm-summary-list").is_visible()
        assert not tab.page.locator(f"{scope(CALC)} .fm-placeholder").is_visible()
        before_the_glue(tab, f"calculators/{CALC}/?enemy_batteries=4")
        assert tab.page.locator(f"{scope(CALC)} .fm-static").count() == 1
        assert not tab.page.locator(f"{scope(CALC)} .fm-static .fm-summary .fm-summary-list").is_visible()
        shown = tab.page.get_by_text("70.4% chance").all()
        assert shown and not any(e.is_visible() for e in shown)
        # Shown with the link's value, or not at all: a seed's roll place shows with the seed
        # (issue 43), a name the copy has not leaves its fields hidden, with words alone.
        assert tab.page.input_value(f"{scope(CALC)} .fm-static [name=enemy_batteries]") == "4"
        assert tab.page.locator(f"{scope(CALC)} .fm-static [name=enemy_batteries]").is_visible()
        before_the_glue(tab, f"calculators/{CALC}/?enemy_batteries=4&seed=5")
        assert tab.page.input_value(f"{scope(CALC)} .fm-static [name=enemy_batteries]") == "4"
        assert tab.page.inner_text(f"{scope(CALC)} .fm-static .fm-roll-log").startswith("Rolling with seed 5")
        assert not tab.page.locator(f"{scope(CALC)} .fm-static .fm-summary .fm-summary-list").is_visible()
        before_the_glue(tab, f"calculators/{CALC}/?enemy_batteries=4&no_such_input=1")
        assert not tab.page.locator(f"{scope(CALC)} .fm-static [name=enemy_batteries]").is_visible()
        assert tab.page.inner_text(f"{scope(CALC)} .fm-static .fm-answer-box .fm-engine").startswith("Working out the answer to this link")
    finally:
        tab.close()


@pytest.mark.browser
@pytest.mark.site
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_copy_alone_has_no_serious_accessibility_violation(browser, server, scheme):
    from test_browser_a11y import violations  # axe-core, as on every page once its calculators have answered

    tab = open_tab(browser, server, color_scheme=scheme)
    try:
        for path in (f"calculators/{CALC}/", "combat-hq/comms/"):
            before_the_glue(tab, path)
            assert tab.page.locator(".fm-static").count() == 1
            assert violations(tab) == [], path
    finally:
        tab.close()


# ---------------------------------------------------------------- the live calculator takes over


@pytest.mark.browser
@pytest.mark.site
@pytest.mark.parametrize("path, calc_id", [(f"calculators/{CALC}/", CALC), ("combat-hq/comms/", "chq-comms-check")])
def test_the_live_calculator_replaces_the_copy_with_the_same_answer(browser, server, path, calc_id):
    tab = open_tab(browser, server)
    try:
        # The copy as the page first shows it: read before the glue arrives.
        before_the_glue(tab, path)
        copy = tab.page.eval_on_selector(f"{scope(calc_id)} .fm-static", TABLES)
        copy_summary = tab.page.inner_text(f"{scope(calc_id)} .fm-static .fm-summary .fm-summary-list")
        tab.context.unroute(GLUE)
        tab.goto(path)
        root = tab.calculator(calc_id)
        assert root.get_attribute("data-source") == "prerendered"
        assert tab.page.locator(f"{scope(calc_id)} .fm-static").count() == 0
        assert tab.page.locator(f"{scope(calc_id)} form.fm-form:not(.fm-compare-form)").count() == 1
        assert tab.page.locator(f"{scope(calc_id)} .fm-intro").count() == (1 if path.startswith("combat-hq") else 0)
        live = tab.page.eval_on_selector(scope(calc_id), TABLES)
        assert live == copy and live == expected_tables(cli("answer", calc_id))
        assert tab.page.inner_text(f"{scope(calc_id)} .fm-summary .fm-summary-list") == copy_summary
        assert tab.odds_cells(calc_id) == cli_odds(calc_id)
        assert tab.page.evaluate("() => new Set([...document.querySelectorAll('[id]')].map((e) => e.id)).size === document.querySelectorAll('[id]').length")
    finally:
        tab.close()


@pytest.mark.browser
@pytest.mark.site
def test_what_the_player_typed_before_the_glue_arrived_is_kept_and_answered(browser, server):
    tab = open_tab(browser, server)
    held = []
    try:
        # The form code is held back until the player has typed in the copy.
        tab.context.route(re.compile(r"/assets/calc/view\.mjs$"), lambda route: held.append(route))
        tab.goto(f"calculators/{CALC}/")
        field = tab.page.locator(f"{scope(CALC)} .fm-static input[name='enemy_batteries']")
        field.fill("4")
        tab.page.locator(f"{scope(CALC)} .fm-static input[name='rockets']").check()
        field.focus()
        assert tab.page.locator(".fm-static").count() == 1  # nothing has taken over yet
        assert held, "view.mjs was asked for"
        for route in held:
            route.continue_()
        root = tab.page.wait_for_selector(f'{scope(CALC)}[data-source="engine"][data-status="ready"]', timeout=BOOT_TIMEOUT_MS)
        assert tab.page.locator(f"{scope(CALC)} .fm-static").count() == 0
        assert tab.page.input_value(f'{scope(CALC)} [data-input="enemy_batteries"]') == "4"
        assert tab.page.is_checked(f'{scope(CALC)} [data-input="rockets"]')
        assert tab.page.evaluate("() => document.activeElement.dataset.input") == "enemy_batteries"
        assert root.get_attribute("data-valid") == "true"
        assert tab.odds_cells(CALC) == cli_odds(CALC, {"enemy_batteries": "4", "rockets": "true"})
        assert tab.page.evaluate("() => location.search") == "?rockets=true&enemy_batteries=4"  # as if typed in the live form
    finally:
        tab.close()


# Each animation frame until the engine's answer: the link's field as shown (if one is), whether
# the calculator says anything (an answer or words of what it does), and whether the live view is in.
FRAMES = """window.__frames = [];
(function tick() {
    const root = document.querySelector('.calculator[data-calculator]');
    if (root) {
        const shown = (e) => e.checkVisibility({visibilityProperty: true});
        // The field's value where the field shows, or where its form is folded (a phone) as the inputs' words say it.
        const words = [...root.querySelectorAll('.fm-inputs-list')].filter(shown).map((e) => (e.textContent.match(/Fire Dice: (\\d+)/) || [null, 'the default'])[1]);
        const fields = [...root.querySelectorAll('[name="fire_dice"], [data-input="fire_dice"]')].filter(shown).map((e) => e.value).concat(words);
        const said = [...root.querySelectorAll('.fm-engine, .fm-summary-list')].filter(shown).some((e) => e.textContent.trim());
        const done = root.dataset.status === 'ready' && root.dataset.source === 'engine';
        window.__frames.push({fields, said, live: !root.querySelector('.fm-static'), done});
        if (done) return;
    }
    requestAnimationFrame(tick);
})();"""
LINK = {"fire_dice": "7", "cover": "light"}


@pytest.mark.browser
@pytest.mark.site
def test_a_links_inputs_show_from_the_first_paint_and_words_until_their_answer(browser, server):
    """A phone with the CPU slowed 4 times opens an opponent's link: the build's copy shows with
    the link's Fire Dice (7, not the default 4) before the form code has come, its answer (for the
    defaults) withdrawn and words in its place; at no frame until the engine's answer is a field
    shown with another value or the calculator silent. On main the copy stayed hidden until the
    form code came, and the live view then stood silent, its answer box empty, for seconds."""
    calc_id = "chq-fire-for-effect"
    tab = open_tab(browser, server, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    held = []
    try:
        tab.page.add_init_script(FRAMES)
        tab.context.new_cdp_session(tab.page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
        tab.context.route(re.compile(r"/assets/calc/view\.mjs$"), lambda route: held.append(route))
        tab.goto(f"calculators/{calc_id}/?fire_dice=7&cover=light")
        copy = f"{scope(calc_id)} .fm-static"
        # On a phone the copy's form is folded under its inputs' button, which says the link's inputs.
        tab.page.wait_for_selector(f"{copy} .fm-inputs-list", state="visible")
        words = tab.page.inner_text(f"{copy} .fm-inputs-list")
        assert "Battery's Fire Dice: 7" in words and "Cover: Light cover (1D)" in words, words
        assert tab.page.input_value(f"{copy} [name=fire_dice]") == "7"
        assert tab.page.input_value(f"{copy} [name=cover]") == "light"
        assert tab.page.inner_text(f"{copy} .fm-engine").startswith("Working out the answer to these inputs")
        assert not tab.page.locator(f"{copy} .fm-summary").is_visible()  # the defaults' answer
        assert not tab.page.locator(f"{copy} .fm-headline").is_visible()  # its first line too
        assert held, "view.mjs was asked for"
        for route in held:
            route.continue_()
        tab.page.wait_for_selector(f'{scope(calc_id)}[data-source="engine"][data-status="ready"]', timeout=BOOT_TIMEOUT_MS)
        frames = tab.page.evaluate("window.__frames")
        shown = [f for f in frames if f["fields"]]
        assert shown and not shown[0]["live"]  # the copy first
        assert {tuple(f["fields"]) for f in shown} == {("7",)}
        assert all(f["said"] for f in shown), [i for i, f in enumerate(frames) if f["fields"] and not f["said"]]
        assert tab.odds_cells(calc_id) == cli_odds(calc_id, LINK)
        # The live view says the inputs in the copy's words (link-inputs.js words them before the
        # form code comes, form.mjs's InputsSummary after: two scripts, one wording).
        assert tab.page.inner_text(f"{scope(calc_id)} .fm-inputs-list:not(.fm-static *)") == words
        assert tab.errors == []
    finally:
        tab.close()


@pytest.mark.browser
@pytest.mark.site
def test_instant_navigation_takes_over_too_and_the_query_mark_follows_the_address(browser, server):
    tab = open_tab(browser, server)
    try:
        tab.goto(f"calculators/{CALC}/?enemy_batteries=4")
        tab.page.wait_for_selector(f"{scope(CALC)} .fm-form")
        assert tab.page.evaluate("() => document.documentElement.classList.contains('fm-query')")
        tab.navigate("combat-hq/comms/")  # <html> is kept: the mark must follow the new address
        root = tab.calculator("chq-comms-check")
        assert root.get_attribute("data-source") == "prerendered"
        assert not tab.page.evaluate("() => document.documentElement.classList.contains('fm-query')")
        assert tab.page.locator(".fm-static").count() == 0
        assert tab.page.locator(f'{scope("chq-comms-check")} form.fm-form:not(.fm-compare-form)').count() == 1
        assert tab.odds_cells("chq-comms-check") == cli_odds("chq-comms-check")
        tab.navigate("calculators/chq-comms-check/?nation=soviet")
        assert tab.page.evaluate("() => document.documentElement.classList.contains('fm-query')")
    finally:
        tab.close()
