"""The generic map grid: the notation of a calculator input of type ``map``.

A map field carries a ``grid`` (keys: :data:`MAP_GRID_KEYS`) saying which
characters the notation uses; what they mean stays with the procedure (see
:mod:`rules_py.konrad.sector_map`). The grammar::

    text  = [EDGES edge_sep] ROW (row_sep ROW)*        top row first
    EDGES = edge codes, each at most once (only if the grid has "edges")
    ROW   = CELL+                  every row has as many cells as the first
    CELL  = state mark* label*     one state code, then its marks, then its labels

* Blanks (space, tab, line breaks) around the text are dropped, as a pasted
  link may bring them; inside it a blank is an unknown character, like any
  character the grid does not name.
* A cell carries each mark at most once, and all its marks before its labels;
  a mark with a ``max`` is on at most that many cells of the map.
* A label names one thing: each label character is on the map at most once.
* At most ``max_rows`` rows of ``max_cols`` cells, and so at most
  :func:`text_limit` characters: a longer text is refused before it is read.

An edge may name its ``side`` of the drawn map (``top``, ``right``, ``bottom``
or ``left``): the grammar ignores it; the page draws a given edge along that side.

**The rules above are data, once:** :data:`GRAMMAR` says what a character may
follow (``read``), how often a character may be given and where (``counts``),
what size a text, its rows and their cells may be (``sizes``), the blanks, and
every refusal's words (``messages``). Two parsers read it: :func:`parse_grid`
here, and the page's map editor (``docs/assets/calc/grid.mjs``, which reads the
map as the player types, on a first visit before the engine has arrived) from
``docs/assets/calc/grid-grammar.mjs``, which ``scripts/build/schema_types.py``
generates from :data:`GRAMMAR` (``make check`` fails when it differs). Neither
parser holds a rule of its own: each knows only the shape above (the edges
before ``edge_sep``, rows split at ``row_sep``, cells) and what a character it
takes builds (and the page writes a map its editor changed back as text in an
order the grammar takes). Change a rule here and both follow: tests/test_grid.py changes
rules and sees the two parsers still agree, and ``tests/map_grid_cases.json``
holds the cases both must read as written there.

Errors are :class:`GridError`, reported in reading order (the length, then the
number of rows, then each row from the top, character by character); rows and
columns in errors count from 1.

Example grid (Konrad's, in :mod:`rules_py.konrad.sector_map`)::

    {"edge_sep": ":", "row_sep": "/", "edges": [{"code": "W", "label": ...}],
     "states": [{"code": "F", "label": ...}], "marks": [{"code": "*", "label": ..., "max": 1}],
     "labels": {"chars": "abc...", "label": ...}, "max_rows": 100, "max_cols": 100}
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict

if TYPE_CHECKING:  # a grid's type, generated from rules_py/data/calculator.schema.json
    from .calculator_shapes import Grid as GridSpec

MAP_GRID_KEYS = frozenset({"edge_sep", "row_sep", "edges", "states", "marks", "labels", "max_rows", "max_cols"})
# Where the page draws a given edge (an edge's optional "side").
EDGE_SIDES = ("top", "right", "bottom", "left")

Cell = tuple[int, int]  # (row, column), from 0 at the top left
Part = Literal["edges", "row"]
Kind = Literal["edge", "state", "mark", "label", "other"]


class SizeRule(TypedDict):
    """A size the text (before and after its blanks are dropped), the rows, a row's
    characters or its cells must keep to: ``count`` against ``bound`` (a number, or
    one of :data:`BOUNDS`), else ``refusal``."""

    of: Literal["text", "body", "rows", "row", "cells"]
    count: Literal["at_most", "at_least", "equal"]
    bound: int | Literal["text_limit", "max_rows", "max_cols", "first_row"]
    refusal: str


class CountRule(TypedDict):
    """How often one character of a ``kind`` may be given ``within`` a cell or the
    whole map: at most ``most`` times (a number, or "max": the mark's own ``max`` in the
    grid, no limit without one), else ``refusal`` (``same_cell`` when the earlier one
    is in the same cell)."""

    kind: Literal["edge", "mark", "label"]
    within: Literal["cell", "map"]
    most: int | Literal["max"]
    refusal: str
    same_cell: NotRequired[str]


class Grammar(TypedDict):
    blanks: str
    read: dict[Part, dict[str, dict[Kind, str | Literal[True]]]]
    counts: list[CountRule]
    sizes: list[SizeRule]
    messages: dict[str, str]


# The kinds of character in each part of a text: those the grid names, and "other".
PART_KINDS: dict[Part, tuple[Kind, ...]] = {"edges": ("edge", "other"), "row": ("state", "mark", "label", "other")}
BOUNDS = ("text_limit", "max_rows", "max_cols", "first_row")  # first_row: the first row's cells
TAKE: Literal[True] = True  # in GRAMMAR["read"]: the character is taken

GRAMMAR: Grammar = {
    # Only these count as blanks around a text; "str.strip()" would also drop other
    # Unicode spaces, which the page's parser would not.
    "blanks": " \t\n\r\f\v",
    # What a character of each part does, by the kind of the one before it in that part
    # ("" for none) and its own kind: taken (true), or refused with the message named.
    "read": {
        "edges": {
            "": {"edge": TAKE, "other": "edge_unknown"},
            "edge": {"edge": TAKE, "other": "edge_unknown"},
        },
        "row": {
            "": {"state": TAKE, "mark": "no_state", "label": "no_state", "other": "unknown_char"},
            "state": {"state": TAKE, "mark": TAKE, "label": TAKE, "other": "unknown_char"},
            "mark": {"state": TAKE, "mark": TAKE, "label": TAKE, "other": "unknown_char"},
            "label": {"state": TAKE, "mark": "mark_after_label", "label": TAKE, "other": "unknown_char"},
        },
    },
    # Checked in this order as each character is taken.
    "counts": [
        {"kind": "edge", "within": "map", "most": 1, "refusal": "edge_twice"},
        {"kind": "mark", "within": "cell", "most": 1, "refusal": "mark_twice"},
        {"kind": "mark", "within": "map", "most": "max", "refusal": "mark_max"},
        {"kind": "label", "within": "map", "most": 1, "refusal": "label_twice", "same_cell": "label_twice.same_cell"},
    ],
    # Checked in this order where the reading comes to each: the whole text first.
    "sizes": [
        {"of": "text", "count": "at_most", "bound": "text_limit", "refusal": "too_long"},
        {"of": "body", "count": "at_least", "bound": 1, "refusal": "empty"},
        {"of": "rows", "count": "at_most", "bound": "max_rows", "refusal": "too_many_rows"},
        {"of": "row", "count": "at_least", "bound": 1, "refusal": "row_empty"},
        {"of": "cells", "count": "at_most", "bound": "max_cols", "refusal": "too_many_cols"},
        {"of": "cells", "count": "equal", "bound": "first_row", "refusal": "ragged"},
    ],
    # Every refusal's message, by name (the error's code, or the code and a variant after
    # a dot), its {words} filled in where it is refused: char and sep a character as show()
    # writes it; row, col, other_row, other_col places counted from 1; count and limit
    # sizes; s the plural's "s" or ""; edges the edge codes, joined.
    "messages": {
        "too_long": "the map text has {count} characters: the largest map it may hold ({max_rows} rows of {max_cols} cells) takes at most {limit}",
        "empty": "the map is empty",
        "edge_unknown": "{char} is not a map edge: the edges before {sep} are {edges}",
        "edge_twice": "map edge {char} is given twice",
        "too_many_rows": "the map has {count} rows: at most {limit}",
        "row_empty": "row {row} is empty: every row needs at least one cell",
        "no_state": "row {row} starts with {char}: a cell starts with its state",
        "mark_after_label": "in row {row}, column {col} the mark {char} comes after a label: marks come first",
        "mark_twice": "row {row}, column {col} has the mark {char} twice",
        "mark_max": "the mark {char} is on more than {limit} cell{s}: in row {other_row}, column {other_col} and in row {row}, column {col}",
        "label_twice": "the label {char} is on the map twice (row {other_row}, column {other_col} and row {row}, column {col}): each label names one thing",
        "label_twice.same_cell": "the label {char} is on the map twice in row {row}, column {col}: each label names one thing",
        "unknown_char": "unknown character {char} in row {row}",
        "too_many_cols": "row {row} has {count} cells: at most {limit}",
        "ragged": "row {row} has {count} cells but row 1 has {limit}: every row needs the same number",
    },
}
BLANKS = GRAMMAR["blanks"]
MESSAGES = GRAMMAR["messages"]
# The words any message may use, from the grid: the rest are its place's (check_grammar).
# Both parsers fill them in (_Reading.refusal, and grid.mjs's).
GRID_WORDS = frozenset({"sep", "edges", "max_rows", "max_cols"})


def check_grammar(grammar: Grammar) -> None:
    """Refuse a grammar the parsers cannot follow (raises ValueError): checked on load,
    and by the tests on the grammars they make from it. A refusal's message may use
    only the words its place has (a count within a cell has no other cell, a size of
    the whole text no row), wherever the grammar refuses with it."""
    has: dict[str, set[str]] = {}  # refusal -> the words every place that refuses with it has

    def refused(name: str, words: set[str]) -> None:
        has[name] = has[name] & words if name in has else words

    for part, table in grammar["read"].items():
        kinds = PART_KINDS[part]
        if set(table) != {""} | set(kinds[:-1]):
            raise ValueError(f"read[{part}] needs a row for the start and for each kind of {kinds[:-1]}, not {sorted(table)}")
        for after, actions in table.items():
            if tuple(actions) != kinds:
                raise ValueError(f"read[{part}][{after!r}] says what each of {kinds} does, in that order")
            if actions["other"] is TAKE:
                raise ValueError(f"read[{part}][{after!r}]: a character the grid does not name cannot be taken")
            place = set() if part == "edges" else {"row", "col"} if after else {"row"}
            for action in actions.values():
                if action is not TAKE:
                    refused(action, {"char"} | place)
    if any(grammar["read"]["row"][""][k] is TAKE for k in ("mark", "label")):
        raise ValueError("read[row]: a mark or a label is taken onto a cell, so not before a row's first state")
    if not any(rule["kind"] == "label" and rule["within"] == "map" and rule["most"] == 1 for rule in grammar["counts"]):
        raise ValueError("counts: a label is on the map at most once: a parsed map gives each label its one cell (Grid.labels)")
    for rule in grammar["counts"]:
        if rule["kind"] not in ("edge", "mark", "label") or rule["within"] not in ("cell", "map"):
            raise ValueError(f"counts: {rule}: an edge, a mark or a label is counted within a cell or the map")
        if (rule["most"] == "max" and rule["kind"] != "mark") or (isinstance(rule["most"], int) and rule["most"] < 1):
            raise ValueError(f"counts: {rule}: most is a number of at least 1, or max (a mark's own)")
        place = set() if rule["kind"] == "edge" else {"row", "col"} | ({"other_row", "other_col"} if rule["within"] == "map" else set())
        for name in [rule["refusal"]] + ([rule["same_cell"]] if "same_cell" in rule else []):
            refused(name, {"char", "limit", "s"} | place)
    for size in grammar["sizes"]:
        if size["of"] not in ("text", "body", "rows", "row", "cells") or size["count"] not in ("at_most", "at_least", "equal"):
            raise ValueError(f"sizes: {size}: the size of the text, body, rows, a row or its cells, at most, at least or equal to its bound")
        if not isinstance(size["bound"], int) and size["bound"] not in BOUNDS:
            raise ValueError(f"sizes: {size}: bound is a number or one of {BOUNDS}")
        refused(size["refusal"], {"count", "limit", "s"} | ({"row"} if size["of"] in ("row", "cells") else set()))
    messages = grammar["messages"]
    if set(has) != set(messages):
        raise ValueError(f"every refusal has a message and every message is a refusal: {sorted(has)} against {sorted(messages)}")
    for name, text in messages.items():
        words = re.findall(r"\{(\w+)\}", text)
        if not set(words) <= has[name] | GRID_WORDS or text.count("{") != len(words) or text.count("}") != len(words):
            raise ValueError(f"grid message {name!r}: its words are {words}, of {sorted(has[name] | GRID_WORDS)}, and no other brace")


check_grammar(GRAMMAR)


def check_spec(grid: GridSpec) -> None:
    """Refuse a grid the grammar cannot read unambiguously (raises ValueError)."""
    unknown = set(grid) - MAP_GRID_KEYS
    if unknown:
        raise ValueError(f"unknown grid keys {sorted(unknown)}")
    codes: list[str] = [grid["edge_sep"], grid["row_sep"]]
    codes += [s["code"] for s in grid["states"]] + [m["code"] for m in grid.get("marks", [])]
    codes += list(_label_chars(grid))
    if not grid["states"]:
        raise ValueError("a grid needs at least one state")
    if any(len(c) != 1 or c in BLANKS for c in codes) or len(set(codes)) != len(codes):
        raise ValueError("separators, states, marks and labels must be distinct single non-blank characters")
    edge_codes = [e["code"] for e in grid.get("edges", [])]
    if any(len(c) != 1 or c in BLANKS or c == grid["edge_sep"] for c in edge_codes) or len(set(edge_codes)) != len(edge_codes):
        raise ValueError("edge codes must be distinct single characters other than the edge separator")
    if any(e.get("side", "top") not in EDGE_SIDES for e in grid.get("edges", [])):
        raise ValueError(f"an edge's side is one of {', '.join(EDGE_SIDES)}")
    for key in ("max_rows", "max_cols"):
        if not isinstance(grid[key], int) or grid[key] < 1:
            raise ValueError(f"{key} must be a whole number of at least 1")


def _label_chars(grid: GridSpec) -> str:
    """The grid's label characters ("" when it has no labels)."""
    labels = grid.get("labels")
    return labels.get("chars", "") if labels else ""


def text_limit(grid: GridSpec) -> int:
    """The length of the longest text the grid can take (before blanks are dropped).

    Edges and their separator, every cell's state, the row separators, each
    mark on as many cells as it may be, and every label once. A map field's
    schema gives it as ``max_length``, which the page reads.
    """
    rows, cols = grid["max_rows"], grid["max_cols"]
    edges = len(grid.get("edges", []))
    marks = sum(min(m.get("max") or rows * cols, rows * cols) for m in grid.get("marks", []))
    labels = len(set(_label_chars(grid)))
    return (edges + 1 if edges else 0) + rows * cols + (rows - 1) + marks + labels


class GridError(ValueError):
    """Text the grammar refuses. ``code`` names the mistake; the other fields place it.

    ``row`` and ``col`` count from 1; ``other`` is the earlier (row, col) of a
    mark or label given twice; ``count`` and ``limit`` are sizes.
    """

    def __init__(self, code: str, message: str, **detail: Any):
        super().__init__(message)
        self.code = code
        self.message = message
        self.detail = {k: v for k, v in detail.items() if v is not None}

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        out.update({k: list(v) if isinstance(v, tuple) else v for k, v in self.detail.items()})
        return out


@dataclass(frozen=True)
class Grid:
    """A parsed grid. Cells are (row, column) from 0; only marked or labelled cells are listed."""

    edges: tuple[str, ...]  # in the order written
    states: tuple[str, ...]  # one string of state codes per row
    marks: dict[Cell, tuple[str, ...]]  # cell -> its marks, in the order written
    labels: dict[str, Cell]  # label -> its cell, in the order written

    @property
    def rows(self) -> int:
        return len(self.states)

    @property
    def cols(self) -> int:
        return len(self.states[0])

    def to_dict(self) -> dict[str, Any]:
        """The nested form the page's parser returns: {"edges", "rows": [[{state, marks, labels}]]}."""
        labels: dict[Cell, list[str]] = {}
        for label, cell in self.labels.items():
            labels.setdefault(cell, []).append(label)
        return {
            "edges": list(self.edges),
            "rows": [
                [{"state": s, "marks": list(self.marks.get((r, c), ())), "labels": labels.get((r, c), [])} for c, s in enumerate(row)]
                for r, row in enumerate(self.states)
            ],
        }


def show(ch: str) -> str:
    """A character for a message: in quotes, or as U+XXXX when it would not show (a blank, a control)."""
    n = ord(ch)
    return f"U+{n:04X}" if n <= 0x20 or 0x7F <= n <= 0xA0 else f'"{ch}"'



def parse_grid(grid: GridSpec, text: str, grammar: Grammar = GRAMMAR) -> Grid:
    """Read ``text`` in the notation of ``grid`` by the rules of ``grammar`` (the
    tests give others), or raise :class:`GridError`."""
    reading = _Reading(grid, grammar)
    reading.size("text", len(text))
    body = text.strip(grammar["blanks"])
    reading.size("body", len(body))
    sep = grid["edge_sep"]
    if grid.get("edges") and sep in body:
        head, body = body.split(sep, 1)
        reading.read("edges", head)
    rows = body.split(grid["row_sep"])
    reading.size("rows", len(rows))
    states: list[str] = []
    for r, row in enumerate(rows):
        reading.size("row", len(row), r)
        # The usual row holds states only, which a grammar takes one by one as cells (plain_rows).
        cells = row if reading.plain_rows and reading.states.issuperset(row) else reading.read("row", row, r)
        reading.size("cells", len(cells), r)
        states.append(cells)
        reading.bounds["first_row"] = len(states[0])
    return Grid(tuple(reading.edges), tuple(states), reading.marks, reading.labels)


_KEPT: dict[str, Callable[[int, int], bool]] = {"at_most": operator.le, "at_least": operator.ge, "equal": operator.eq}


class _Reading:
    """One text read under one grid: a grammar's rules, the places they count, and what is read."""

    def __init__(self, grid: GridSpec, grammar: Grammar):
        self.grid = grid
        self.grammar = grammar
        # Whether a row of states alone is its cells, one each (true of GRAMMAR): parse_grid
        # then reads it without taking it character by character (a 100 by 100 map is 10,000).
        self.plain_rows = all(actions["state"] is TAKE for actions in grammar["read"]["row"].values())
        marks = grid.get("marks", [])
        self.kind_of: dict[Part, dict[str, Kind]] = {
            "edges": {e["code"]: "edge" for e in grid.get("edges", [])},
            "row": {
                **{s["code"]: "state" for s in grid["states"]},
                **{m["code"]: "mark" for m in marks},
                **{ch: "label" for ch in _label_chars(grid)},
            },
        }
        self.states = frozenset(s["code"] for s in grid["states"])
        self.mark_max = {m["code"]: m.get("max") or 0 for m in marks}
        self.bounds: dict[str, int | None] = {"text_limit": text_limit(grid), "max_rows": grid["max_rows"], "max_cols": grid["max_cols"], "first_row": None}
        # of -> its rules, in order: the bound (a number, or a name in self.bounds), the
        # comparison the count must pass against it, and the refusal.
        self.sizes: dict[str, list[tuple[int | str, Callable[[int, int], bool], str]]] = {}
        for size in grammar["sizes"]:
            self.sizes.setdefault(size["of"], []).append((size["bound"], _KEPT[size["count"]], size["refusal"]))
        self.counts: dict[str, list[tuple[int, CountRule]]] = {}  # kind -> its rules, numbered, in order
        for i, rule in enumerate(grammar["counts"]):
            self.counts.setdefault(rule["kind"], []).append((i, rule))
        self.held: dict[tuple[int, str, Cell | None], list[Cell | None]] = {}  # (rule, character, cell or map) -> where given
        self.edges: list[str] = []
        self.marks: dict[Cell, tuple[str, ...]] = {}
        self.labels: dict[str, Cell] = {}

    def size(self, of: str, count: int, r: int | None = None) -> None:
        for bound, kept, refusal in self.sizes.get(of, ()):
            limit = self.bounds[bound] if isinstance(bound, str) else bound
            if limit is not None and not kept(count, limit):
                raise self.refusal(refusal, row=r, count=count, limit=limit)

    def read(self, part: Part, chars: str, r: int | None = None) -> str:
        """Take ``chars``, a part of the text (the edges, or row ``r``): a row's states."""
        table = self.grammar["read"][part]
        kind_of = self.kind_of[part].get
        cells: list[str] = []
        after = ""
        for ch in chars:
            kind = kind_of(ch, "other")
            action = table[after][kind]
            if kind == "state" and action is TAKE:  # the usual one: a new cell (nothing counts states)
                cells.append(ch)
                after = kind
                continue
            cell = (r, len(cells) - 1) if r is not None and cells else None  # the one a mark or label is on
            if action is not TAKE:
                raise self.refusal(action, row=r, cell=cell, char=ch)
            if kind in self.counts:
                self.count(kind, ch, cell, r)
            if kind == "edge":
                self.edges.append(ch)
            elif kind == "state":
                cells.append(ch)
            elif kind == "mark" and cell:
                self.marks[cell] = (*self.marks.get(cell, ()), ch)
            elif kind == "label" and cell:
                self.labels[ch] = cell
            after = kind
        return "".join(cells)

    def count(self, kind: Kind, ch: str, cell: Cell | None, r: int | None) -> None:
        """Refuse ``ch`` given once too often (the grammar's counts), else count it where it is."""
        # Each rule's places for this character: where it is given in this cell, or on the map.
        places = [(rule, self.held.setdefault((i, ch, cell if rule["within"] == "cell" else None), [])) for i, rule in self.counts[kind]]
        for rule, held in places:
            most = self.mark_max.get(ch, 0) if rule["most"] == "max" else rule["most"]
            if most and len(held) >= most:
                other = held[0] if rule["within"] == "map" else None
                name = rule["same_cell"] if "same_cell" in rule and other == cell else rule["refusal"]
                raise self.refusal(name, row=r, cell=cell, char=ch, other=other, limit=most)
        for _, held in places:
            held.append(cell)

    def refusal(
        self, name: str, *, row: int | None = None, cell: Cell | None = None, char: str | None = None,
        other: Cell | None = None, count: int | None = None, limit: int | None = None,
    ) -> GridError:
        """The GridError ``name`` (a message of the grammar's), placed: rows and columns from 1."""
        place = {
            "row": None if row is None else row + 1,
            "col": None if cell is None else cell[1] + 1,
            "char": char,
            "other": None if other is None else (other[0] + 1, other[1] + 1),
            "count": count,
            "limit": limit,
        }
        words: dict[str, Any] = {k: v for k, v in place.items() if v is not None and k not in ("char", "other")}
        words.update(
            sep=show(self.grid["edge_sep"]), edges=", ".join(e["code"] for e in self.grid.get("edges", [])),
            max_rows=self.grid["max_rows"], max_cols=self.grid["max_cols"], s="s" if limit and limit > 1 else "",
        )
        if char is not None:
            words["char"] = show(char)
        if other is not None:
            words.update(other_row=other[0] + 1, other_col=other[1] + 1)
        return GridError(name.split(".")[0], self.grammar["messages"][name].format(**words), **place)
