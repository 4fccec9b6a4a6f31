"""The generic map-grid editor, on every calculator that has a map input.

The expected texts come from this file's own reading of the notation (see
rules_py/grid.py), not from the page's: a click on a
cell, an edge box, a mark, a label or a row/column button must change the text
exactly as the notation says, the address must carry the same text, and the
answer must be the CLI's for it. Results with drawing hints must be drawn.
No calculator has a map input until the Konrad calculators arrive; then these run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import parse_qsl

import pytest
from playwright.sync_api import expect

import rules_py
from conftest import cli, open_tab, query
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
    if not MAP_CASES:
        pytest.skip("no calculator has a map input yet")
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
        answer = cli("odds", self.calc.id, *(f"{k}={v}" for k, v in inputs.items()))
        expected = {(o, v): p for o, values in answer["outcomes"].items() for v, p in values.items() if p != "0"}
        assert self.tab.odds_cells(self.calc.id) == expected
        return text

    def cell(self, r: int, c: int) -> str:
        return f'{self.box} .fm-map-cell[data-cell="{r}.{c}"]'

    def cells(self) -> int:
        return len(self.tab.page.query_selector_all(f"{self.box} .fm-map-cell"))


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
                expect(shown).to_have_text(typed["badge"], use_inner_text=True)  # "modifier −1": labelled
        elif o.draw == "path" and any(v[:1].isdigit() and p != "0" for v, p in values.items()):
            assert tab.page.query_selector(f"{drawn}.fm-map-path"), name
        elif o.draw == "cells" and any(v[:1].isdigit() and p != "0" for v, p in values.items()):
            assert tab.page.query_selector(f'{page.box} [data-shade="{name}"]'), name
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
