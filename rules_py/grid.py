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

Errors are :class:`GridError`, reported in reading order (the length, then the
number of rows, then each row from the top, character by character); rows and
columns in errors count from 1. The site's map editor
(``docs/assets/calc/grid.mjs``) reads the same grammar, character by
character, in the page; what both must say is data here, once: the blanks
(:data:`BLANKS`) and every refusal's message (:data:`MESSAGES`), which
``scripts/build/schema_types.py`` writes into ``docs/assets/calc/grid-grammar.mjs``
for it (``make check`` fails when that module is not what this one gives).
``tests/map_grid_cases.json`` holds the cases both parsers must agree on.

Example grid (Konrad's, in :mod:`rules_py.konrad.sector_map`)::

    {"edge_sep": ":", "row_sep": "/", "edges": [{"code": "W", "label": ...}],
     "states": [{"code": "F", "label": ...}], "marks": [{"code": "*", "label": ..., "max": 1}],
     "labels": {"chars": "abc...", "label": ...}, "max_rows": 100, "max_cols": 100}
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # a grid's type, generated from rules_py/data/calculator.schema.json
    from .calculator_shapes import Grid as GridSpec

MAP_GRID_KEYS = frozenset({"edge_sep", "row_sep", "edges", "states", "marks", "labels", "max_rows", "max_cols"})
# Only these count as blanks around a text; "str.strip()" would also drop other
# Unicode spaces, which the page's parser would not.
BLANKS = " \t\n\r\f\v"
# Where the page draws a given edge (an edge's optional "side").
EDGE_SIDES = ("top", "right", "bottom", "left")

Cell = tuple[int, int]  # (row, column), from 0 at the top left

# Every refusal's message, by name (the error's code, or the code and a variant after a
# dot), its {words} filled in where it is refused: char and sep a character as show()
# writes it; row, col, other_row, other_col places counted from 1; count and limit sizes;
# s the plural's "s" or ""; edges the edge codes, joined. The page's parser (grid.mjs)
# fills in the same messages, from docs/assets/calc/grid-grammar.mjs, generated from these.
MESSAGES: dict[str, str] = {
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
}
_WORDS = frozenset({"char", "sep", "edges", "row", "col", "other_row", "other_col", "count", "limit", "max_rows", "max_cols", "s"})


def _check_messages() -> None:
    """Checked on load: each message's {words} are among those the parsers fill in,
    and it has no other brace (the page fills them in by name: grid.mjs, message)."""
    for name, text in MESSAGES.items():
        words = re.findall(r"\{(\w+)\}", text)
        if not set(words) <= _WORDS or text.count("{") != len(words) or text.count("}") != len(words):
            raise ValueError(f"grid message {name!r}: its words are {words}, of {sorted(_WORDS)}, and no other brace")


_check_messages()


def _message(name: str, **words: Any) -> str:
    """Message ``name`` (:data:`MESSAGES`) with its words filled in."""
    return MESSAGES[name].format(**words)


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
    mark on as many cells as it may be, and every label once.
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


def _strip(text: str) -> str:
    return text.strip(BLANKS)


def show(ch: str) -> str:
    """A character for a message: in quotes, or as U+XXXX when it would not show (a blank, a control)."""
    n = ord(ch)
    return f"U+{n:04X}" if n <= 0x20 or 0x7F <= n <= 0xA0 else f'"{ch}"'


def parse_grid(grid: GridSpec, text: str) -> Grid:
    """Read ``text`` in the notation of ``grid``, or raise :class:`GridError`."""
    limit = text_limit(grid)
    if len(text) > limit:
        raise GridError(
            "too_long",
            _message("too_long", count=len(text), max_rows=grid["max_rows"], max_cols=grid["max_cols"], limit=limit),
            count=len(text),
            limit=limit,
        )
    body = _strip(text)
    if not body:
        raise GridError("empty", _message("empty"))
    edge_codes = [e["code"] for e in grid.get("edges", [])]
    edges: list[str] = []
    sep = grid["edge_sep"]
    if edge_codes and sep in body:
        head, body = body.split(sep, 1)
        for ch in head:
            if ch not in edge_codes:
                raise GridError("edge_unknown", _message("edge_unknown", char=show(ch), sep=show(sep), edges=", ".join(edge_codes)), char=ch)
            if ch in edges:
                raise GridError("edge_twice", _message("edge_twice", char=show(ch)), char=ch)
            edges.append(ch)
    rows = body.split(grid["row_sep"])
    if len(rows) > grid["max_rows"]:
        raise GridError("too_many_rows", _message("too_many_rows", count=len(rows), limit=grid["max_rows"]), count=len(rows), limit=grid["max_rows"])
    state_codes = frozenset(s["code"] for s in grid["states"])
    mark_max = {m["code"]: m.get("max") for m in grid.get("marks", [])}
    label_chars = frozenset(_label_chars(grid))
    max_cols = grid["max_cols"]
    states: list[str] = []
    marks: dict[Cell, tuple[str, ...]] = {}
    labels: dict[str, Cell] = {}
    holders: dict[str, list[Cell]] = {code: [] for code in mark_max}
    for r, row in enumerate(rows):
        if not row:
            raise GridError("row_empty", _message("row_empty", row=r + 1), row=r + 1)
        if state_codes.issuperset(row):
            cells = row  # the usual row: states only
        else:
            cells = _read_row(row, r, state_codes, mark_max, label_chars, marks, labels, holders)
        if len(cells) > max_cols:
            raise GridError("too_many_cols", _message("too_many_cols", row=r + 1, count=len(cells), limit=max_cols), row=r + 1, count=len(cells), limit=max_cols)
        if states and len(cells) != len(states[0]):
            raise GridError(
                "ragged",
                _message("ragged", row=r + 1, count=len(cells), limit=len(states[0])),
                row=r + 1,
                count=len(cells),
                limit=len(states[0]),
            )
        states.append(cells)
    return Grid(tuple(edges), tuple(states), marks, labels)


def _read_row(
    row: str, r: int, state_codes: frozenset[str], mark_max: dict[str, int | None], label_chars: frozenset[str],
    marks: dict[Cell, tuple[str, ...]], labels: dict[str, Cell], holders: dict[str, list[Cell]],
) -> str:
    """One row with marks or labels: its states, filling in ``marks``, ``labels`` and ``holders``."""
    cells: list[str] = []
    cell_marks: list[str] = []
    after = ""  # "", "state", "mark" or "label": what came last in this row
    for ch in row:
        if ch in state_codes:
            if cell_marks:
                marks[(r, len(cells) - 1)] = tuple(cell_marks)
                cell_marks = []
            cells.append(ch)
            after = "state"
            continue
        c = len(cells) - 1
        known = ch in mark_max or ch in label_chars
        if known and not cells:
            raise GridError("no_state", _message("no_state", row=r + 1, char=show(ch)), row=r + 1, char=ch)
        if ch in mark_max:
            if after == "label":
                raise GridError("mark_after_label", _message("mark_after_label", row=r + 1, col=c + 1, char=show(ch)), row=r + 1, col=c + 1, char=ch)
            if ch in cell_marks:
                raise GridError("mark_twice", _message("mark_twice", row=r + 1, col=c + 1, char=show(ch)), row=r + 1, col=c + 1, char=ch)
            most = mark_max[ch]
            if most and len(holders[ch]) >= most:
                first = holders[ch][0]
                raise GridError(
                    "mark_max",
                    _message("mark_max", char=show(ch), limit=most, s="s" if most > 1 else "", other_row=first[0] + 1, other_col=first[1] + 1, row=r + 1, col=c + 1),
                    row=r + 1,
                    col=c + 1,
                    char=ch,
                    other=(first[0] + 1, first[1] + 1),
                    limit=most,
                )
            holders[ch].append((r, c))
            cell_marks.append(ch)
            after = "mark"
            continue
        if ch in label_chars:
            if ch in labels:
                first = labels[ch]
                raise GridError(
                    "label_twice",
                    _message("label_twice.same_cell" if first == (r, c) else "label_twice", char=show(ch), other_row=first[0] + 1, other_col=first[1] + 1, row=r + 1, col=c + 1),
                    row=r + 1,
                    col=c + 1,
                    char=ch,
                    other=(first[0] + 1, first[1] + 1),
                )
            labels[ch] = (r, c)
            after = "label"
            continue
        raise GridError("unknown_char", _message("unknown_char", char=show(ch), row=r + 1), row=r + 1, char=ch)
    if cell_marks:
        marks[(r, len(cells) - 1)] = tuple(cell_marks)
    return "".join(cells)
