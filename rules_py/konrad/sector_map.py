"""Operation Konrad's sector map as text: the notation, its parser and its geometry.

The notation is the project's generic map grid (:mod:`rules_py.grid`, which
reads it), filled in for Konrad by :data:`GRID`::

    [EDGES:]ROW/ROW/...            top row first, e.g.  W:FF*FE/FaFFE/FFbEE

* ``EDGES``: the friendly map edges, any of ``N E S W``, each at most once
  (no prefix: no friendly edge);
* a ``ROW`` is a run of cells; every row has the same number of cells;
* a cell is one state letter, ``F`` (friendly sector) or ``E`` (enemy
  sector), then optionally ``*`` (the supply depot: at most one on the map,
  and only on a friendly sector), then the labels of the units
  (DSUs) in it: lower-case letters, each used once on the whole map. A
  sector may hold any number of labels, so an overstacked sector can be drawn.
  A unit stands only in a friendly sector (the side holding a sector is the
  side whose units are in it). The grid reads cells, marks and labels; the
  last rule is Konrad's meaning, checked here on top of it.

At most :data:`MAX_SIDE` rows and columns: a practical bound of ours, since
the rules give no campaign map size.
Cells are named ``row.col`` counting from 0 at the top left, the form the
drawing hints of the calculators' outcomes use. Error messages count from 1.

:func:`neighbours` gives the sectors adjacent to a cell: the four sharing a
side, or the eight sharing a side or a corner (the ``adjacency`` reading).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..calculator import Choice, Field, InputError
from ..grid import GridError, parse_grid

if TYPE_CHECKING:  # a grid's type, generated from rules_py/data/calculator.schema.json
    from ..calculator_shapes import Grid as GridSpec

# The largest map the calculators take, rows and columns. The rules give no size
# for the campaign map (the 40x40 of the source is one sector's own battle map):
# this is a practical bound of ours, large enough for any campaign, small enough
# that a map's text stays a usable link and both calculators answer in well under
# 100 ms (scripts/bench/bench_konrad_map.py).
MAX_SIDE = 100

FRIENDLY, ENEMY, DEPOT = "F", "E", "*"
EDGES = ("N", "E", "S", "W")
LABELS = "abcdefghijklmnopqrstuvwxyz"

GRID: GridSpec = {
    "edge_sep": ":",
    "row_sep": "/",
    "edges": [
        {"code": "N", "label": "North (top) edge is friendly", "side": "top"},
        {"code": "E", "label": "East (right) edge is friendly", "side": "right"},
        {"code": "S", "label": "South (bottom) edge is friendly", "side": "bottom"},
        {"code": "W", "label": "West (left) edge is friendly", "side": "left"},
    ],
    "states": [
        {"code": FRIENDLY, "label": "Friendly sector"},
        {"code": ENEMY, "label": "Enemy sector"},
    ],
    "marks": [{"code": DEPOT, "label": "Supply depot", "max": 1}],
    "labels": {"chars": LABELS, "label": "Divisional units (DSUs)"},
    "max_rows": MAX_SIDE,
    "max_cols": MAX_SIDE,
}

Cell = tuple[int, int]

# Steps to the neighbours, sides first (N E S W) and then corners, so that
# searches, and the supply lines they draw, break ties the same way every time.
SIDE_STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))
CORNER_STEPS = SIDE_STEPS + ((-1, 1), (1, 1), (1, -1), (-1, -1))

ADJACENCY = Field(
    "adjacency",
    "choice",
    "Adjacent sectors",
    "Which sectors count as next to each other, for supply lines, isolation and retreats.",
    default="side",
    choices=(
        Choice("side", "Sharing a side (4 neighbours)"),
        Choice("corner", "Sharing a side or a corner (8 neighbours)"),
    ),
)


def map_field(default: str, help_text: str) -> Field:
    """The ``map`` input: text in the notation above, drawn by the site's map editor."""
    return Field("map", "map", "Sector map", help_text, default=default, grid=GRID)


@dataclass(frozen=True)
class SectorMap:
    """A parsed map. ``states[r][c]`` is "F" or "E"; ``units`` maps label -> cell."""

    rows: int
    cols: int
    states: tuple[str, ...]  # one string of state letters per row
    edges: frozenset[str]
    depot: Cell | None
    units: dict[str, Cell]

    def friendly(self, cell: Cell) -> bool:
        return self.states[cell[0]][cell[1]] == FRIENDLY



def where(r: int, c: int) -> str:
    """A cell as a player counts it, for messages: from 1, top left."""
    return f"row {r + 1}, sector {c + 1}"


def cell_name(cell: Cell) -> str:
    """A cell as the drawing hints name it: ``row.col`` from 0."""
    return f"{cell[0]}.{cell[1]}"


def cells_text(cells: Iterable[Cell]) -> str:
    """A set of cells, in reading order, as the ``cells`` drawing hint takes it ("" for none)."""
    return " ".join(cell_name(c) for c in sorted(set(cells)))


def _unknown(ch: str, r: int) -> str:
    return (
        f"unknown character {ch!r} in row {r}: a sector is F (friendly) or E (enemy), "
        f"then * for the supply depot, then unit letters a-z; rows are separated by /"
    )


def _message(e: GridError) -> str:
    """The generic grammar's refusal in Konrad's words (rows and sectors from 1)."""
    d = e.detail
    # Each is there for the codes that place a mistake (see GridError), which are the codes that read it.
    r: Any = d.get("row")
    c: Any = d.get("col")
    ch: Any = d.get("char")
    bound = f"a practical bound of the calculators ({MAX_SIDE} by {MAX_SIDE} sectors), as the rules give no campaign map size"
    if e.code == "too_long":
        return f"the map text has {d['count']} characters: at most {d['limit']}, {bound}"
    if e.code == "too_many_rows":
        return f"the map has {d['count']} rows: at most {d['limit']}, {bound}"
    if e.code == "too_many_cols":
        return f"row {r} has {d['count']} sectors: at most {d['limit']}, {bound}"
    if e.code == "empty":
        return "the map is empty: draw at least one sector, e.g. W:F*a"
    if e.code == "edge_unknown":
        return f"{ch!r} is not a map edge: the friendly edges before ':' are letters from N, E, S, W"
    if e.code == "edge_twice":
        return f"map edge {ch} is given twice before ':'"
    if e.code == "row_empty":
        return f"row {r} is empty: every row needs at least one sector"
    if e.code == "ragged":
        return f"row {r} has {d['count']} sectors but row 1 has {d['limit']}: every row needs the same number"
    if e.code == "no_state" and ch == DEPOT:
        return f"row {r} starts with '*': a sector starts with F or E, and the depot mark follows it (F*)"
    if e.code == "no_state":
        return f"row {r} starts with unit {ch!r}: a sector starts with F or E, then its units (Fa)"
    if e.code == "mark_after_label":
        return f"in {where(r - 1, c - 1)} the depot mark '*' comes after a unit letter: write it straight after F (F*a)"
    if e.code == "mark_twice":
        return f"{where(r - 1, c - 1)} has the depot mark '*' twice"
    if e.code == "mark_max":
        return f"two supply depots (*): in {where(d['other'][0] - 1, d['other'][1] - 1)} and in {where(r - 1, c - 1)}; a side has only one"
    if e.code == "label_twice" and d["other"] == (r, c):
        return f"unit {ch!r} is on the map twice in {where(r - 1, c - 1)}: give each unit its own letter"
    if e.code == "label_twice":
        return f"unit {ch!r} is on the map twice ({where(d['other'][0] - 1, d['other'][1] - 1)} and {where(r - 1, c - 1)}): give each unit its own letter"
    if e.code == "unknown_char":
        return _unknown(ch, r)
    return e.message  # a mistake the grammar learnt after this list: its own words


@lru_cache(maxsize=256)
def parse_map(text: str) -> SectorMap:
    """Read a map, or raise InputError on the ``map`` field saying what is wrong and where.

    The generic grammar (:func:`rules_py.grid.parse_grid`) reads the cells; this
    adds Konrad's meaning: the depot and the units stand on friendly sectors.
    """
    try:
        g = parse_grid(GRID, text)
    except GridError as e:
        raise InputError(_message(e), "map") from None
    if g.marks:
        (depot,) = g.marks  # the grid allows one mark, on one cell
        if g.states[depot[0]][depot[1]] != FRIENDLY:
            raise InputError(f"the supply depot (*) in {where(*depot)} is on an enemy sector: it can only be in a friendly one", "map")
    else:
        depot = None
    for label, (r, c) in g.labels.items():
        if g.states[r][c] != FRIENDLY:
            raise InputError(f"unit {label!r} in {where(r, c)} stands on an enemy sector: a sector your unit holds is friendly, so mark it F", "map")
    return SectorMap(g.rows, g.cols, g.states, frozenset(g.edges), depot, dict(sorted(g.labels.items())))


def neighbours(m: SectorMap, cell: Cell, adjacency: str) -> list[Cell]:
    """The cells adjacent to ``cell`` on the map, in a fixed order."""
    steps = SIDE_STEPS if adjacency == "side" else CORNER_STEPS
    r, c = cell
    return [(r + dr, c + dc) for dr, dc in steps if 0 <= r + dr < m.rows and 0 <= c + dc < m.cols]


class Reach:
    """The result of :func:`search`: which cells it reached, how far, and the way back.

    Kept as flat lists over the map padded with a border of impassable cells
    (index ``(r + 1) * (cols + 2) + c + 1``), so the search needs no bounds
    checks and no tuple per cell. The ways back of several units share their
    ends (they run along one tree of shortest ways), so each cell is walked
    once and the rest is copied: on a 100 x 100 map, 26 lines of thousands of
    sectors each cost a few ms.
    """

    def __init__(self, cols: int, dist: list[int], prev: list[int]):
        self._width = cols + 2
        self._dist = dist  # steps from the nearest start; -1 where not reached (and on the border)
        self._prev = prev  # the previous cell's index on one shortest way back; -1 for a start
        self._walked: list[tuple[list[int], int] | None] | None = None  # index -> (a way back through it, its place in that way)
        self._names: list[str] | None = None

    def _index(self, cell: Cell) -> int:
        i = (cell[0] + 1) * self._width + cell[1] + 1
        if self._dist[i] < 0:
            raise KeyError(cell)
        return i

    def __contains__(self, cell: Cell) -> bool:
        return self._dist[(cell[0] + 1) * self._width + cell[1] + 1] >= 0

    def steps(self, cell: Cell) -> int:
        """Sectors moved from the nearest start to ``cell`` (which must be reached)."""
        return self._dist[self._index(cell)]

    def _way_back(self, cell: Cell) -> list[int]:
        if self._walked is None:
            self._walked = [None] * len(self._dist)
        walked, prev = self._walked, self._prev
        i = self._index(cell)
        own: list[int] = []
        while i >= 0 and walked[i] is None:
            own.append(i)
            i = prev[i]
        joined = walked[i] if i >= 0 else None
        if joined is not None:  # joins a way walked before: the rest of it is the same
            way, at = joined
            path = own + way[at:]
        else:
            path = own
        for at, j in enumerate(own):
            walked[j] = (path, at)
        return path

    def way_back_text(self, cell: Cell) -> str:
        """The cells from ``cell`` back to the start it was reached from, both ends included,
        as the ``path`` drawing hint writes them: "row.col row.col ..." (0-based)."""
        if self._names is None:
            w = self._width
            self._names = [f"{i // w - 1}.{i % w - 1}" for i in range(len(self._dist))]
        return " ".join(map(self._names.__getitem__, self._way_back(cell)))


def search(m: SectorMap, starts: Iterable[Cell], adjacency: str) -> Reach:
    """Breadth-first search from ``starts`` through friendly sectors.

    Every reached cell gets its steps from the nearest start and the previous
    cell on one shortest way back to it. Starts count only if friendly. Each
    step is to an adjacent cell, so steps are sectors moved. Ties break the
    same way every time: starts in the order given, first in first out, and
    neighbours in the order of ``SIDE_STEPS``/``CORNER_STEPS``.
    """
    width = m.cols + 2
    size = (m.rows + 2) * width
    passable = bytearray(size)
    for r, row in enumerate(m.states):
        base = (r + 1) * width + 1
        for c, state in enumerate(row):
            if state == FRIENDLY:
                passable[base + c] = 1
    steps = SIDE_STEPS if adjacency == "side" else CORNER_STEPS
    offsets = tuple(dr * width + dc for dr, dc in steps)
    dist = [-1] * size
    prev = [-1] * size
    queue: list[int] = []
    for r, c in starts:
        i = (r + 1) * width + c + 1
        if dist[i] < 0 and passable[i]:
            dist[i] = 0
            queue.append(i)
    for i in queue:  # the list grows as it is read: first in, first out
        d = dist[i] + 1
        for o in offsets:
            j = i + o
            if dist[j] < 0 and passable[j]:
                dist[j] = d
                prev[j] = i
                queue.append(j)
    return Reach(m.cols, dist, prev)


def friendly_edge_cells(m: SectorMap) -> list[Cell]:
    """The cells on a friendly map edge, in reading order (top row first, left to right)."""
    last_r, last_c = m.rows - 1, m.cols - 1
    out: list[Cell] = []
    for r in range(m.rows):
        if ("N" in m.edges and r == 0) or ("S" in m.edges and r == last_r):
            out += [(r, c) for c in range(m.cols)]
            continue
        if "W" in m.edges:
            out.append((r, 0))
        if "E" in m.edges and (last_c > 0 or "W" not in m.edges):
            out.append((r, last_c))
    return out


def straight_steps(a: Cell, b: Cell, adjacency: str) -> int:
    """Sectors between two cells ignoring who holds them: the fewest steps on an empty map.

    With side adjacency that is |dr| + |dc|; with corner adjacency a diagonal
    step counts one, so it is max(|dr|, |dc|).
    """
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    return dr + dc if adjacency == "side" else max(dr, dc)
