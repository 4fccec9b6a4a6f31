"""The generic map-grid editor, on every calculator that has a map input.

The expected texts come from this file's own reading of the notation (see
rules_py/grid.py), not from the page's: a click on a
cell, an edge box, a mark, a label or a row/column button must change the text
exactly as the notation says, the address must carry the same text, and the
answer must be the CLI's for it. Results with drawing hints must be drawn.
The Konrad calculators have map inputs; a registry with none fails here
rather than skipping every test.
"""

from __future__ import annotations

import re

from dataclasses import dataclass, field
from urllib.parse import parse_qsl

import pytest
from playwright.sync_api import expect

import rules_py
from conftest import cli_odds, open_tab, query
from test_browser_a11y import violations
from rules_py.calculator import InputError

pytestmark = pytest.mark.browser

MAP_CASES = [(c, f) for c in rules_py.calculators() for f in c.fields if f.type == "map"]
IDS = [f"{c.id}.{f.name}" for c, f in MAP_CASES]


@dataclass
class Cell:
    state: str
    marks: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)


class Notation:
    """The map-grid text, read and written as the schema's comment says."""

    def __init__(self, grid: dict):
        self.edge_sep = grid.get("edge_sep", ":")
        self.row_sep = grid.get("row_sep", "/")
        self.edges = [e["code"] for e in grid.get("edges", [])]
        self.states = [s["code"] for s in grid["states"]]
        self.marks = grid.get("marks", [])
        self.mark_codes = [m["code"] for m in self.marks]
        self.labels = (grid.get("labels") or {}).get("chars", "")
        self.max_rows = grid.get("max_rows", 40)
        self.max_cols = grid.get("max_cols", 40)

    def read(self, text: str) -> tuple[list[str], list[list[Cell]]]:
        edges: list[str] = []
        body = "".join(text.split())
        if self.edges and self.edge_sep in body:
            head, body = body.split(self.edge_sep, 1)
            edges = list(head)
        rows = []
        for row_text in body.split(self.row_sep):
            row: list[Cell] = []
            for ch in row_text:
                if ch in self.states:
                    row.append(Cell(ch))
                elif ch in self.mark_codes:
                    row[-1].marks.append(ch)
                else:
                    assert ch in self.labels, ch
                    row[-1].labels.append(ch)
            rows.append(row)
        return edges, rows

    def write(self, edges: list[str], rows: list[list[Cell]]) -> str:
        head = "".join(e for e in self.edges if e in edges)
        body = self.row_sep.join(
            "".join(
                c.state + "".join(m for m in self.mark_codes if m in c.marks) + "".join(label for label in self.labels if label in c.labels)
                for c in row
            )
            for row in rows
        )
        return (head + self.edge_sep if head else "") + body


def start_text(calc, map_field) -> dict[str, str]:
    for example in calc.examples:
        if map_field.name in example:
            return dict(example)
    return {map_field.name: map_field.default or ""}


@pytest.fixture(scope="module")
def tab(browser, server):
    assert MAP_CASES, "no calculator has a map input: these tests would check nothing"
    opened = open_tab(browser, server)
    opened.goto(f"calculators/{MAP_CASES[0][0].id}/")
    opened.calculator(MAP_CASES[0][0].id)
    yield opened
    opened.close()


class MapPage:
    def __init__(self, tab, calc, map_field):
        self.tab, self.calc, self.field = tab, calc, map_field
        self.scope = f'.calculator[data-calculator="{calc.id}"]'
        self.box = f'{self.scope} [data-field="{map_field.name}"]'
        self.notation = Notation(map_field.grid)

    def text(self) -> str:
        return self.tab.page.input_value(f'{self.box} textarea[data-input="{self.field.name}"]')

    def settle(self) -> str:
        """Wait for the answer to the current text; check the address and the answer against the CLI."""
        self.tab.calculator(self.calc.id)
        text = self.text()
        inputs = dict(parse_qsl(self.tab.page.evaluate("location.search").lstrip("?"), keep_blank_values=True))
        default = self.field.default or ""
        assert inputs.get(self.field.name, default) == text
        try:
            self.calc.validate(inputs)
        except InputError as e:
            # A message waits while the player is in the field: leave it, as a player would.
            self.tab.page.evaluate("document.activeElement && document.activeElement.blur()")
            assert self.tab.odds_cells(self.calc.id) == {}
            shown = self.tab.page.inner_text(f'{self.scope} [data-field-error="{self.field.name}"]')
            assert shown == " ".join(m for f, m in e.errors if f == self.field.name)
            return text
        assert self.tab.odds_cells(self.calc.id) == cli_odds(self.calc.id, inputs)
        return text

    def cell(self, r: int, c: int) -> str:
        return f'{self.box} .fm-map-cell[data-cell="{r}.{c}"]'

    def cells(self) -> int:
        # Counted in the page: a handle per cell (query_selector_all) cost 9 s for the largest map.
        return self.tab.page.locator(f"{self.box} .fm-map-cell").count()


@pytest.mark.parametrize("calc,map_field", MAP_CASES, ids=IDS)
def test_clicks_edit_the_map_text_the_address_and_the_answer(tab, calc, map_field):
    tab.errors.clear()
    tab.navigate(f"calculators/{calc.id}/{query(start_text(calc, map_field))}")
    page = MapPage(tab, calc, map_field)
    n = page.notation
    text = page.settle()
    edges, rows = n.read(text)
    assert page.cells() == sum(len(r) for r in rows)

    # State tool: a click moves cell 0.0 to the next state.
    tab.page.click(page.cell(0, 0))
    rows[0][0].state = n.states[(n.states.index(rows[0][0].state) + 1) % len(n.states)]
    assert page.settle() == n.write(edges, rows)

    # Rows and columns: added with the first state, removed from the bottom and the right.
    before = n.write(edges, rows)
    if len(rows) < n.max_rows:
        tab.page.click(f'{page.box} [data-map-action="add-row"]')
        assert page.settle() == n.write(edges, rows + [[Cell(n.states[0]) for _ in rows[0]]])
        tab.page.click(f'{page.box} [data-map-action="remove-row"]')
        assert page.settle() == before
    if len(rows[0]) < n.max_cols:
        tab.page.click(f'{page.box} [data-map-action="add-col"]')
        assert page.settle() == n.write(edges, [row + [Cell(n.states[0])] for row in rows])
        tab.page.click(f'{page.box} [data-map-action="remove-col"]')
        assert page.settle() == before

    # Edges: a box per map side.
    if n.edges:
        code = n.edges[0]
        tab.page.click(f'{page.box} input[data-edge="{code}"]')
        flipped = [e for e in edges if e != code] if code in edges else edges + [code]
        assert page.settle() == n.write(flipped, rows)
        tab.page.click(f'{page.box} input[data-edge="{code}"]')
        assert page.settle() == before

    # Marks: put on a cell without it; with a max of 1, it moves there.
    if n.marks:
        mark = n.marks[0]
        target = next((r, c) for r, row in enumerate(rows) for c, cell in enumerate(row) if mark["code"] not in cell.marks)
        holders = [cell for row in rows for cell in row if mark["code"] in cell.marks]
        tab.page.check(f'{page.box} input[value="mark:{mark["code"]}"]')
        tab.page.click(page.cell(*target))
        if mark.get("max") == 1:
            for cell in holders:
                cell.marks.remove(mark["code"])
        if not mark.get("max") or mark.get("max") == 1 or len(holders) < mark["max"]:
            rows[target[0]][target[1]].marks.append(mark["code"])
        assert page.settle() == n.write(edges, rows)

    # Labels: a label not on the map, put on cell 0.0.
    used = {label for row in rows for cell in row for label in cell.labels}
    free = next((label for label in n.labels if label not in used), None)
    if free:
        tab.page.check(f'{page.box} input[value="label"]')
        tab.page.select_option(f"{page.box} select.fm-map-label-char", free)
        tab.page.click(page.cell(0, 0))
        rows[0][0].labels.append(free)
        assert page.settle() == n.write(edges, rows)

    # Typing text redraws the grid.
    start = start_text(calc, map_field)[map_field.name]
    tab.page.fill(f'{page.box} textarea[data-input="{map_field.name}"]', start)
    assert page.settle() == start
    assert page.cells() == sum(len(r) for r in n.read(start)[1])
    assert tab.errors == []


@pytest.mark.parametrize("calc,map_field", MAP_CASES, ids=IDS)
def test_results_with_drawing_hints_are_drawn_on_the_map(tab, calc, map_field):
    inputs = start_text(calc, map_field)
    tab.navigate(f"calculators/{calc.id}/{query(inputs)}")
    page = MapPage(tab, calc, map_field)
    page.settle()
    answer = rules_py.odds(calc.id, inputs)
    outcomes = {o.name: o for o in calc.outcomes_for(calc.validate(inputs))}
    _, rows = page.notation.read(inputs[map_field.name])
    on_map = {label for row in rows for cell in row for label in cell.labels}
    for name, values in answer["outcomes"].items():
        o = outcomes[name]
        drawn = f'{page.box} [data-outcome="{name}"]'
        if o.draw == "unit" and o.unit in on_map:
            badge = tab.page.query_selector(f"{page.box} .fm-map-badge[data-outcome=\"{name}\"]")
            if o.type == "bool" and values == {"false": "1", "true": "0"}:
                assert badge is None, f"{name}: a certain no needs no badge"
            elif o.type == "bool" and values == {"false": "0", "true": "1"}:
                assert badge, name
                # A row out of view is not rendered (content-visibility): scroll to it, as a player would.
                badge.scroll_into_view_if_needed()
                shown = tab.page.locator(f'{page.box} .fm-map-badge[data-outcome="{name}"]')
                expect(shown).to_have_text(o.label.split(": ")[-1], use_inner_text=True)  # "isolated"
            elif values.get("none") == "1":
                assert badge is None, f"{name}: a certain none needs no badge"
            else:
                typed = next(t for t in rules_py.answer(calc.id, inputs)["outcomes"] if t["name"] == name)
                assert badge, name
                badge.scroll_into_view_if_needed()
                shown = tab.page.locator(f'{page.box} .fm-map-badge[data-outcome="{name}"]')
                expect(shown).to_have_text(typed["badge_value"], use_inner_text=True)  # "−1", keyed "modifier" in the legend
                # The cell's name carries the whole badge: "modifier −1".
                note = tab.page.locator(f'{page.box} .fm-map-cell .fm-map-note[data-outcome="{name}"]')
                expect(note).to_have_text(f"; {typed['badge']}")
        elif o.draw == "path" and any(v[:1].isdigit() and p != "0" for v, p in values.items()):
            assert tab.page.query_selector(f"{drawn}.fm-map-path"), name
        elif o.draw == "cells" and any(v[:1].isdigit() and p != "0" for v, p in values.items()):
            assert tab.page.query_selector(f'{page.box} [data-shade~="{name}"]'), name
    # These calculators roll no dice: the page offers no Seed and Roll.
    assert not calc.rolls_dice
    assert tab.page.query_selector(f"{page.scope} .fm-roll-button") is None


@pytest.mark.parametrize("calc,map_field", MAP_CASES, ids=IDS)
def test_an_empty_map_is_started_from_the_grid(tab, calc, map_field):
    if map_field.required:
        pytest.skip("this map input cannot be empty")
    tab.errors.clear()
    tab.goto(f"calculators/{calc.id}/" + query({map_field.name: ""}))
    page = MapPage(tab, calc, map_field)
    tab.page.wait_for_selector(f'{page.box} [data-map-action="add-row"]')
    first = page.notation.states[0]
    assert page.cells() == 0
    assert not tab.page.is_disabled(f'{page.box} [data-map-action="add-row"]')
    assert tab.page.is_disabled(f'{page.box} [data-map-action="remove-row"]')
    tab.page.click(f'{page.box} [data-map-action="add-row"]')
    assert page.text() == first and page.cells() == 1
    tab.page.click(f'{page.box} [data-map-action="add-col"]')
    assert page.text() == first * 2 and page.cells() == 2
    page.settle()
    assert tab.errors == []


# ------------------------------------------------------------ oversized maps
# The editor refuses a map larger than the engine takes before drawing it: by
# link (the map is not drawn, and says why) and by paste (the text is not
# taken: the box, the address and the grid keep the map that was there).


def largest(grid: dict) -> tuple[int, int]:
    return grid["max_rows"], grid["max_cols"]


@pytest.mark.parametrize("calc,map_field", MAP_CASES[:1], ids=IDS[:1])
def test_an_oversized_map_by_link_is_not_drawn_and_the_page_keeps_working(tab, calc, map_field):
    tab.errors.clear()
    rows, cols = largest(map_field.grid)
    states = [s["code"] for s in map_field.grid["states"]]
    page = MapPage(tab, calc, map_field)
    message = f"{page.box} .fm-map-message"
    # 50,000 cells (224 rows of 224): far longer than any map's text.
    huge = "/".join([states[0] * 224] * 224)
    tab.navigate(f"calculators/{calc.id}/{query({map_field.name: huge})}")
    expect(tab.page.locator(message)).to_contain_text(f"larger than this calculator takes ({rows} rows of {cols} cells)")
    assert page.cells() == 0
    # One row too many, in a short text: refused by the same rule, not drawn either.
    tall = "/".join([states[0]] * (rows + 1))
    tab.page.fill(f'{page.box} textarea[data-input="{map_field.name}"]', tall)
    expect(tab.page.locator(message)).to_contain_text(f"the map has {rows + 1} rows: at most {rows}")
    assert page.cells() == 0
    # The page still answers: a map of the largest size is drawn whole.
    full = "/".join([states[0] * cols] * rows)
    tab.page.fill(f'{page.box} textarea[data-input="{map_field.name}"]', full)
    tab.calculator(calc.id)
    assert page.cells() == rows * cols
    assert tab.errors == []


@pytest.mark.parametrize("calc,map_field", MAP_CASES[:1], ids=IDS[:1])
def test_an_oversized_paste_is_not_taken(tab, calc, map_field):
    tab.errors.clear()
    rows, cols = largest(map_field.grid)
    inputs = start_text(calc, map_field)
    tab.navigate(f"calculators/{calc.id}/{query(inputs)}")
    page = MapPage(tab, calc, map_field)
    before = page.settle()
    drawn = page.cells()
    box = f'{page.box} textarea[data-input="{map_field.name}"]'
    tab.page.focus(box)
    tab.page.keyboard.press("Control+A")
    tab.page.keyboard.insert_text("F" * 200_000)  # as a paste: one input event with all of it
    expect(tab.page.locator(f"{page.box} .fm-map-message")).to_contain_text(
        f"Not taken: that text has 200000 characters, more than the largest map this calculator takes ({rows} rows of {cols} cells"
    )
    assert page.text() == before
    assert page.cells() == drawn <= rows * cols
    assert len(tab.page.evaluate("location.href")) < 2 * len(before) + 500  # no 200 KB address
    # Still at work: a click edits the map as before.
    tab.page.click(page.cell(0, 0))
    assert page.settle() != before
    assert tab.errors == []


# ------------------------------------------------------------ a readable map
# The legend, the styles of lines and shadings, the cells' names and the
# keyboard (issue 12, items 6 to 8). Expected entries come from the schema and
# the typed answer, never from the page.


def answer_of(calc, inputs) -> list[dict]:
    return rules_py.answer(calc.id, inputs)["outcomes"]


def legend(tab, page) -> list[tuple[str, str]]:
    return [tuple(entry) for entry in tab.page.eval_on_selector_all(
        f"{page.box} .fm-map-legend > li",
        "els => els.map(e => [e.dataset.legend, e.querySelector('.fm-map-legend-text').textContent])",
    )]


@pytest.mark.parametrize("calc,map_field", MAP_CASES, ids=IDS)
def test_the_legend_names_what_the_map_shows(tab, calc, map_field):
    inputs = start_text(calc, map_field)
    tab.navigate(f"calculators/{calc.id}/{query(inputs)}")
    page = MapPage(tab, calc, map_field)
    page.settle()
    grid = map_field.grid
    edges, rows = page.notation.read(inputs[map_field.name])
    on_map = {label for row in rows for cell in row for label in cell.labels}
    expected = [("state", s["label"]) for s in grid["states"]]
    expected += [("mark", m["label"]) for m in grid.get("marks", [])]
    if grid.get("labels"):
        expected.append(("label", grid["labels"]["label"]))
    expected += [("edge", e["label"]) for e in grid["edges"] if e["code"] in edges]
    keys: list[str] = []
    drawn: list[tuple[str, str]] = []
    for o in answer_of(calc, inputs):
        kind = (o.get("draw") or {}).get("kind")
        if kind == "unit" and o["draw"]["unit"] in on_map and o["badge"] and o["draw"]["key"] not in keys:
            keys.append(o["draw"]["key"])
            drawn.append(("badge", o["draw"]["key"]))
        elif kind in ("path", "cells"):
            drawn.append((kind, o["label"] + ("" if o["cells"] else f": {o['value_label']}")))
    assert edges and drawn, "the example shows edges and drawn outcomes"
    assert legend(tab, page) == expected + drawn
    # "none" where a drawn list is empty (unit c of the supply example has no line).
    empties = [text for kind, text in drawn if text.endswith(": none")]
    assert calc.id != "konrad-supply" or empties == ["Unit c: supply line: none"]


def computed(tab, selector: str, props: list[str]) -> list[str]:
    return tab.page.eval_on_selector(selector, "(e, props) => props.map(p => getComputedStyle(e).getPropertyValue(p))", props)


def test_two_units_lines_are_told_apart(tab):
    calc = rules_py.get("konrad-supply")
    inputs = {"map": next(e["map"] for e in calc.examples if "map" in e)}
    tab.navigate(f"calculators/{calc.id}/{query(inputs)}")
    page = MapPage(tab, calc, calc.field("map"))
    page.settle()
    lines = [o["name"] for o in answer_of(calc, inputs) if o.get("draw", {}).get("kind") == "path" and o["cells"]]
    assert len(lines) >= 2
    styles = [tuple(computed(tab, f'{page.box} g.fm-map-path[data-outcome="{name}"]', ["stroke", "stroke-dasharray"])) for name in lines]
    assert len(set(styles)) == len(styles), styles
    shifts = [tab.page.get_attribute(f'{page.box} g.fm-map-path[data-outcome="{name}"]', "transform") for name in lines]
    assert len(set(shifts)) == len(shifts), shifts
    # The legend's sample of each line has the line's own style.
    for name, style in zip(lines, styles):
        assert tuple(computed(tab, f'{page.box} .fm-map-legend [data-outcome="{name}"] g.fm-map-path', ["stroke", "stroke-dasharray"])) == style


def test_ends_and_morale_checks_are_drawn_differently(tab):
    calc = rules_py.get("konrad-retreat")
    inputs = {"map": calc.field("map").default}
    tab.navigate(f"calculators/{calc.id}/{query(inputs)}")
    page = MapPage(tab, calc, calc.field("map"))
    page.settle()
    outcomes = {o["name"]: o for o in answer_of(calc, inputs)}
    looks = {}
    for name in ("destinations", "morale_checks"):
        cells = outcomes[name]["cells"]
        assert cells, name
        for r, c in cells:
            selector = page.cell(r - 1, c - 1)
            assert name in tab.page.get_attribute(selector, "data-shade").split()
            looks.setdefault(name, set()).add(tuple(computed(tab, selector, ["box-shadow", "background-image"])))
        assert len(looks[name]) == 1, looks[name]
    assert looks["destinations"] != looks["morale_checks"]


def test_cells_are_named_from_1_and_the_arrow_keys_move_between_them(tab):
    calc = rules_py.get("konrad-retreat")
    inputs = {"map": calc.field("map").default}
    tab.navigate(f"calculators/{calc.id}/{query(inputs)}")
    page = MapPage(tab, calc, calc.field("map"))
    page.settle()
    _, rows = page.notation.read(inputs["map"])
    grid = tab.page.get_by_role("grid", name=calc.field("map").label)
    # The depot's cell (row 2, column 1 of the default map) reads its place from 1, its state and its mark.
    # (The browser puts a space between a cell's parts: "sector ; Supply depot".)
    expect(grid.get_by_role("gridcell", name=re.compile(r"^Row 2, column 1: Friendly sector ?; Supply depot$"))).to_have_count(1)
    expect(grid.get_by_role("gridcell", name="Row 1, column 1: Friendly sector", exact=True)).to_have_count(1)
    # Every text on a cell is in its name (axe: label-content-name-mismatch): "bc" and its place.
    expect(grid.get_by_role("gridcell", name=re.compile(r"^Row 2, column 3: Friendly sector ?; Divisional units \(DSUs\) bc ?; Sectors that test morale$"))).to_have_count(1)
    # One cell in the tab order; the arrows, Home and End move it.
    assert len(tab.page.query_selector_all(f'{page.box} .fm-map-cell[tabindex="0"]')) == 1
    tab.page.focus(page.cell(0, 0))
    focused = lambda: tab.page.evaluate("() => document.activeElement.dataset.cell")  # noqa: E731
    for key, cell in [("ArrowRight", "0.1"), ("ArrowDown", "1.1"), ("End", f"1.{len(rows[0]) - 1}"), ("ArrowRight", f"1.{len(rows[0]) - 1}"), ("Home", "1.0"), ("ArrowUp", "0.0"), ("ArrowUp", "0.0"), ("Control+End", f"{len(rows) - 1}.{len(rows[0]) - 1}"), ("Control+Home", "0.0")]:
        tab.page.keyboard.press(key)
        assert focused() == cell, key
    tab.page.keyboard.press("ArrowDown")
    assert tab.page.eval_on_selector_all(f'{page.box} .fm-map-cell[tabindex="0"]', "els => els.map(e => e.dataset.cell)") == ["1.0"]
    # Enter clicks the cell in focus: the state tool moves it to the next state.
    before = page.text()
    tab.page.keyboard.press("Enter")
    assert page.settle() != before


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("calc,map_field", MAP_CASES, ids=IDS)
def test_axe_finds_no_serious_violation_on_the_map(browser, server, scheme, calc, map_field):
    opened = open_tab(browser, server, color_scheme=scheme)
    try:
        opened.goto(f"calculators/{calc.id}/{query(start_text(calc, map_field))}")
        opened.calculator(calc.id)
        assert violations(opened, ".fm-map") == []
        # The check bites: a cell whose label hides its text is found.
        opened.page.evaluate("() => document.querySelector('.fm-map-cell').setAttribute('aria-label', 'cell')")
        opened.page.eval_on_selector(".fm-map-cell", "e => e.querySelector('.fm-map-labels').append('zz')")
        found = opened.page.evaluate("async () => (await axe.run(document.querySelector('.fm-map'))).violations.map((v) => v.id)")
        assert "label-content-name-mismatch" in found
    finally:
        opened.close()
