"""Operation Konrad's sector map as text: the notation, its parser and its geometry.

The notation is the project's generic map grid (``MAP_GRID_KEYS`` in
:mod:`rules_py.calculator`), filled in for Konrad by :data:`GRID`::

    [EDGES:]ROW/ROW/...            top row first, e.g.  W:FF*FE/FaFFE/FFbEE

* ``EDGES``: the friendly map edges, any of ``N E S W``, each at most once
  (no prefix: no friendly edge);
* a ``ROW`` is a run of cells; every row has the same number of cells;
* a cell is one state letter, ``F`` (friendly sector) or ``E`` (enemy
  sector), then optionally ``*`` (the supply depot: at most one on the map,
  and only on a friendly sector), then the labels of the divisional units
  (DSUs) in it: lower-case letters, each used once on the whole map. A
  sector may hold any number of labels, so an overstacked sector can be drawn.
  A unit stands only in a friendly sector (the side holding a sector is the
  side whose units are in it).

At most 40 rows and 40 columns: the campaign map table's side length.
Cells are named ``row.col`` counting from 0 at the top left, the form the
drawing hints of the calculators' outcomes use. Error messages count from 1.

:func:`neighbours` gives the sectors adjacent to a cell: the four sharing a
side, or the eight sharing a side or a corner (the ``adjacency`` reading).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from ..calculator import Choice, Field, InputError
from ..tables import load

MAP_TABLE = load("konrad", "campaign_map")
MAP_SIDE = MAP_TABLE.lookup("key", "map_side", "value")

FRIENDLY, ENEMY, DEPOT = "F", "E", "*"
EDGES = ("N", "E", "S", "W")
LABELS = "abcdefghijklmnopqrstuvwxyz"

GRID = {
    "edge_sep": ":",
    "row_sep": "/",
    "edges": [
        {"code": "N", "label": "North (top) edge is friendly"},
        {"code": "E", "label": "East (right) edge is friendly"},
        {"code": "S", "label": "South (bottom) edge is friendly"},
        {"code": "W", "label": "West (left) edge is friendly"},
    ],
    "states": [
        {"code": FRIENDLY, "label": "Friendly sector"},
        {"code": ENEMY, "label": "Enemy sector"},
    ],
    "marks": [{"code": DEPOT, "label": "Supply depot", "max": 1}],
    "labels": {"chars": LABELS, "label": "Divisional units (DSUs)"},
    "max_rows": MAP_SIDE,
    "max_cols": MAP_SIDE,
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

    def on_friendly_edge(self, cell: Cell) -> bool:
        r, c = cell
        return (
            ("N" in self.edges and r == 0)
            or ("S" in self.edges and r == self.rows - 1)
            or ("W" in self.edges and c == 0)
            or ("E" in self.edges and c == self.cols - 1)
        )

    def stack(self, cell: Cell) -> tuple[str, ...]:
        """The labels of the units in a sector, in alphabetical order."""
        return tuple(label for label, at in sorted(self.units.items()) if at == cell)


def where(r: int, c: int) -> str:
    """A cell as a player counts it, for messages: from 1, top left."""
    return f"row {r + 1}, sector {c + 1}"


def cell_name(cell: Cell) -> str:
    """A cell as the drawing hints name it: ``row.col`` from 0."""
    return f"{cell[0]}.{cell[1]}"


def cells_text(cells: Iterable[Cell]) -> str:
    """A set of cells, in reading order, as the ``cells`` drawing hint takes it ("" for none)."""
    return " ".join(cell_name(c) for c in sorted(set(cells)))


def _unknown(ch: str, r: int) -> InputError:
    return InputError(
        f"unknown character {ch!r} in row {r + 1}: a sector is F (friendly) or E (enemy), "
        f"then * for the supply depot, then unit letters a-z; rows are separated by /",
        "map",
    )


@lru_cache(maxsize=256)
def parse_map(text: str) -> SectorMap:
    """Read a map, or raise InputError on the ``map`` field saying what is wrong and where."""
    text = text.strip()
    if not text:
        raise InputError("the map is empty: draw at least one sector, e.g. W:F*a", "map")
    edges: set[str] = set()
    body = text
    if GRID["edge_sep"] in text:
        head, body = text.split(GRID["edge_sep"], 1)
        for ch in head:
            if ch not in EDGES:
                raise InputError(f"{ch!r} is not a map edge: the friendly edges before ':' are letters from N, E, S, W", "map")
            if ch in edges:
                raise InputError(f"map edge {ch} is given twice before ':'", "map")
            edges.add(ch)
    rows = body.split(GRID["row_sep"])
    if len(rows) > GRID["max_rows"]:
        raise InputError(f"the map has {len(rows)} rows: at most {GRID['max_rows']}", "map")
    states: list[str] = []
    units: dict[str, Cell] = {}
    depot: Cell | None = None
    for r, row in enumerate(rows):
        if not row:
            raise InputError(f"row {r + 1} is empty: every row needs at least one sector", "map")
        cells = ""
        after = "start"  # what the last character was, to keep the order state, mark, labels
        for ch in row:
            if ch in (FRIENDLY, ENEMY):
                cells += ch
                after = "state"
                continue
            c = len(cells) - 1
            if ch == DEPOT:
                if after == "start":
                    raise InputError(f"row {r + 1} starts with '*': a sector starts with F or E, and the depot mark follows it (F*)", "map")
                if after == "label":
                    raise InputError(f"in {where(r, c)} the depot mark '*' comes after a unit letter: write it straight after F (F*a)", "map")
                if after == "mark":
                    raise InputError(f"{where(r, c)} has the depot mark '*' twice", "map")
                if depot is not None:
                    raise InputError(f"two supply depots (*): in {where(*depot)} and in {where(r, c)}; a side has only one", "map")
                if cells[c] != FRIENDLY:
                    raise InputError(f"the supply depot (*) in {where(r, c)} is on an enemy sector: it can only be in a friendly one", "map")
                depot = (r, c)
                after = "mark"
                continue
            if ch in LABELS:
                if after == "start":
                    raise InputError(f"row {r + 1} starts with unit {ch!r}: a sector starts with F or E, then its units (Fa)", "map")
                if ch in units:
                    raise InputError(f"unit {ch!r} is on the map twice ({where(*units[ch])} and {where(r, c)}): give each unit its own letter", "map")
                if cells[c] != FRIENDLY:
                    raise InputError(
                        f"unit {ch!r} in {where(r, c)} stands on an enemy sector: a sector your unit holds is friendly, so mark it F", "map"
                    )
                units[ch] = (r, c)
                after = "label"
                continue
            raise _unknown(ch, r)
        if len(cells) > GRID["max_cols"]:
            raise InputError(f"row {r + 1} has {len(cells)} sectors: at most {GRID['max_cols']}", "map")
        if states and len(cells) != len(states[0]):
            raise InputError(
                f"row {r + 1} has {len(cells)} sectors but row 1 has {len(states[0])}: every row needs the same number", "map"
            )
        states.append(cells)
    return SectorMap(len(states), len(states[0]), tuple(states), frozenset(edges), depot, dict(sorted(units.items())))


def neighbours(m: SectorMap, cell: Cell, adjacency: str) -> list[Cell]:
    """The cells adjacent to ``cell`` on the map, in a fixed order."""
    steps = SIDE_STEPS if adjacency == "side" else CORNER_STEPS
    r, c = cell
    return [(r + dr, c + dc) for dr, dc in steps if 0 <= r + dr < m.rows and 0 <= c + dc < m.cols]


def search(m: SectorMap, starts: Iterable[Cell], adjacency: str, passable) -> dict[Cell, tuple[int, Cell | None]]:
    """Breadth-first search from ``starts`` through cells where ``passable(cell)``.

    Returns cell -> (steps from the nearest start, the previous cell on one
    shortest way back to it, None for a start). Starts are included only if
    passable. Each step is to an adjacent cell, so steps are sectors moved.
    """
    found: dict[Cell, tuple[int, Cell | None]] = {}
    queue: deque[Cell] = deque()
    for s in starts:
        if s not in found and passable(s):
            found[s] = (0, None)
            queue.append(s)
    while queue:
        cell = queue.popleft()
        steps = found[cell][0]
        for n in neighbours(m, cell, adjacency):
            if n not in found and passable(n):
                found[n] = (steps + 1, cell)
                queue.append(n)
    return found


def way_back(found: dict[Cell, tuple[int, Cell | None]], cell: Cell) -> list[Cell]:
    """The cells from ``cell`` back to the start it was reached from, both ends included."""
    path = [cell]
    while (prev := found[path[-1]][1]) is not None:
        path.append(prev)
    return path


def straight_steps(a: Cell, b: Cell, adjacency: str) -> int:
    """Sectors between two cells ignoring who holds them: the fewest steps on an empty map.

    With side adjacency that is |dr| + |dc|; with corner adjacency a diagonal
    step counts one, so it is max(|dr|, |dc|).
    """
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    return dr + dc if adjacency == "side" else max(dr, dc)
