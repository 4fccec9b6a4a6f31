"""Hypothesis strategies for calculator inputs, drawn from each input schema.

``valid_inputs(calc)`` draws a value for every field within its declared
type and bounds; ``invalid_inputs(calc)`` draws inputs with exactly one thing
wrong (unknown name, wrong type, out of bounds, unknown choice). A field type
with structure of its own (the map grid) registers its strategies in
``FIELD_STRATEGIES`` below, by type.
"""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import strategies as st

from rules_py.calculator import Calculator, Field

# type -> (valid strategy factory, invalid strategy factory); extended by rule systems' tests.
FIELD_STRATEGIES: dict[str, tuple] = {}


# The map-grid field (see rules_py.grid), drawn from its ``grid``
# alone. The grid says nothing of which state a mark or a label may sit on, so valid
# maps put them only on cells of the first state listed (the side the map is drawn
# for: Konrad's friendly sectors), which every map calculator must accept. The cells
# come from a drawn seed, so a full-size map costs hypothesis one integer, not 1,600.


def _grid_cells(rng: random.Random, grid: dict, rows: int, cols: int, label_share: float, with_marks: bool) -> list[list[str]]:
    states = [s["code"] for s in grid["states"]]
    own = states[0]
    cells = [[rng.choice(states) for _ in range(cols)] for _ in range(rows)]
    if not any(own in row for row in cells):
        cells[rng.randrange(rows)][rng.randrange(cols)] = own
    owned = [(r, c) for r in range(rows) for c in range(cols) if cells[r][c] == own]
    if with_marks:
        for mark in grid.get("marks", []):
            for _ in range(mark.get("max", 1)):
                r, c = rng.choice(owned)
                if mark["code"] not in cells[r][c]:
                    cells[r][c] += mark["code"]
    for ch in grid["labels"]["chars"]:
        if rng.random() < label_share:
            r, c = rng.choice(owned)
            cells[r][c] += ch
    return cells


def _grid_text(grid: dict, edges: str, cells: list[list[str]]) -> str:
    body = grid["row_sep"].join("".join(row) for row in cells)
    return f"{edges}{grid['edge_sep']}{body}" if edges else body


@st.composite
def valid_map(draw, f: Field) -> str:
    grid = f.grid
    rows = draw(st.one_of(st.integers(1, 8), st.just(grid["max_rows"])))
    cols = draw(st.one_of(st.integers(1, 8), st.just(grid["max_cols"])))
    edges = draw(st.lists(st.sampled_from([e["code"] for e in grid["edges"]]), unique=True))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    # Most maps hold most labels and every mark, so a calculator that needs a
    # particular unit or the depot finds it; the others test their absence.
    share = draw(st.sampled_from([1.0, 0.9, 0.6, 0.2]))
    with_marks = draw(st.integers(0, 9)) > 0
    return _grid_text(grid, "".join(edges), _grid_cells(rng, grid, rows, cols, share, with_marks))


@st.composite
def invalid_map(draw, f: Field):
    """A map with exactly one thing wrong that the grid itself forbids."""
    grid = f.grid
    states = [s["code"] for s in grid["states"]]
    own = states[0]
    labels = grid["labels"]["chars"]
    marks = [m for m in grid.get("marks", []) if m.get("max")]
    edge_codes = [e["code"] for e in grid["edges"]]
    used = set(labels) | set(states) | {m["code"] for m in grid.get("marks", [])} | set(edge_codes)
    used |= {grid["row_sep"], grid["edge_sep"]}
    strange = [ch for ch in "#?!1.-+Q%&" if ch not in used]
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    rows, cols = draw(st.integers(2, 6)), draw(st.integers(2, 6))
    cells = _grid_cells(rng, grid, rows, cols, 0.0, False)
    owned = [(r, c) for r in range(rows) for c in range(cols) if cells[r][c].startswith(own)]
    kinds = ["ragged", "twice", "strange", "rows", "cols", "edge_unknown", "empty_row", "no_state", "not_text", "too_long"]
    kinds += ["marks"] if marks else []
    kinds += ["edge_twice"] if edge_codes else []
    kind = draw(st.sampled_from(kinds))
    edges = edge_codes[0] if edge_codes else ""
    if kind == "ragged":
        cells[draw(st.integers(0, rows - 1))].append(own)
    elif kind == "twice":
        ch = draw(st.sampled_from(labels))
        for r, c in (owned[0], owned[-1]):
            cells[r][c] += ch
    elif kind == "strange":
        r, c = rng.choice(owned)
        cells[r][c] += draw(st.sampled_from(strange))
    elif kind == "rows":
        cells = [[own] for _ in range(grid["max_rows"] + 1)]
    elif kind == "cols":
        cells = [[own] * (grid["max_cols"] + 1) for _ in range(2)]
    elif kind == "edge_twice":
        edges = edge_codes[0] * 2
    elif kind == "edge_unknown":
        edges = draw(st.sampled_from([ch for ch in "QXZ" if ch not in edge_codes]))
    elif kind == "empty_row":
        cells.insert(draw(st.integers(1, rows - 1)), [])
    elif kind == "no_state":
        cells[0][0] = cells[0][0][1:] + labels[0]
    elif kind == "not_text":
        return draw(st.one_of(st.integers(), st.none()))
    elif kind == "too_long":
        return own * 4001
    elif kind == "marks":
        mark = draw(st.sampled_from(marks))
        cells = [[own + mark["code"]] * (mark["max"] + 1)]
    return _grid_text(grid, edges, cells)


FIELD_STRATEGIES["map"] = (valid_map, invalid_map)

# Unbounded int fields are drawn up to this far above their minimum, so odds stay quick.
INT_SPAN = 12


def valid_value(f: Field) -> st.SearchStrategy:
    if f.type in FIELD_STRATEGIES:
        return FIELD_STRATEGIES[f.type][0](f)
    if f.type == "bool":
        return st.booleans()
    if f.type == "choice":
        return st.sampled_from([c.name for c in f.choices])
    if f.type == "int":
        lo = f.minimum if f.minimum is not None else -INT_SPAN
        hi = f.maximum if f.maximum is not None else lo + INT_SPAN
        return st.integers(lo, hi)
    if f.type == "number":
        lo = f.minimum if f.minimum is not None else Fraction(-INT_SPAN)
        hi = f.maximum if f.maximum is not None else lo + INT_SPAN
        return st.fractions(lo, hi, max_denominator=100)
    return st.text(max_size=40)


def as_text(value) -> str:
    """A value as a command line or URL would carry it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{float(value):.6f}"
    return str(value)


@st.composite
def valid_inputs(draw, calc: Calculator, as_strings: bool | None = None):
    values = {f.name: draw(valid_value(f)) for f in calc.fields}
    strings = draw(st.booleans()) if as_strings is None else as_strings
    if strings:
        values = {k: as_text(v) for k, v in values.items()}
    return values


def invalid_value(f: Field) -> st.SearchStrategy:
    if f.type in FIELD_STRATEGIES:
        return FIELD_STRATEGIES[f.type][1](f)
    wrong_type = st.sampled_from(["", "abc", "1.5x", "null", "[]", "{}", "__import__('os')"])
    if f.type == "bool":
        return st.one_of(wrong_type, st.integers(), st.just("yes"))
    if f.type == "choice":
        names = {c.name for c in f.choices}
        return st.one_of(wrong_type, st.text(min_size=1, max_size=12).filter(lambda s: s.strip() not in names), st.integers())
    if f.type in ("int", "number"):
        options = [wrong_type, st.booleans(), st.just(None)]
        if f.minimum is not None:
            options.append(st.integers(max_value=int(f.minimum) - 1))
        if f.maximum is not None:
            options.append(st.integers(min_value=int(f.maximum) + 1))
        if f.type == "int":
            options.append(st.just("2.5"))
        return st.one_of(*options)
    return st.one_of(st.integers(), st.none(), st.text(min_size=4001, max_size=4100))


@st.composite
def invalid_inputs(draw, calc: Calculator):
    values = draw(valid_inputs(calc))
    if not calc.fields or draw(st.booleans()):
        values[draw(st.sampled_from(["bogus", "x", "__class__", "seed_"]))] = "1"
        return values
    f = draw(st.sampled_from(calc.fields))
    values[f.name] = draw(invalid_value(f))
    return values


def certain_outcomes(calc: Calculator, raw: dict) -> dict:
    """The outcomes of a deterministic calculation: each must have one value, of probability 1."""
    odds = calc.odds(raw)
    out = {}
    for name, dist in odds.outcomes.items():
        assert list(dist.values()) == [Fraction(1)], (name, dict(dist))
        out[name] = next(iter(dist))
    return out


def invalid_seeds() -> st.SearchStrategy:
    """Seeds that rules_py.seeds refuses: past 2**64 - 1, signed, decimal, non-ASCII
    digits, text with no letter, over-long phrases, and values of the wrong type."""
    no_letter = st.text(alphabet=st.sampled_from(list("0123456789 -+.,/\u00b2\u00b3\u0663\u0967!?")), min_size=1, max_size=24).filter(
        lambda s: not (s.strip() and set(s.strip()) <= set("0123456789") and int(s.strip()) < 2**64)
    )
    return st.one_of(
        st.integers(min_value=2**64, max_value=2**80).map(str),
        st.integers(max_value=-1),
        st.integers(min_value=2**64),
        no_letter,
        st.text(min_size=201, max_size=260).filter(lambda s: len(s.strip()) > 200 and any(ch.isalpha() for ch in s)),
        st.none(),
        st.booleans(),
        st.floats(),
    )
