"""Operation Konrad isolation: which units can trace a supply line, and how far it runs.

A *line* is a chain of friendly sectors, each adjacent to the next (see
``adjacency`` in :mod:`rules_py.konrad.sector_map`), from the unit's own
sector. A unit is **isolated** when no line joins it to the supply depot's
sector or to a sector on a friendly map edge. So a unit standing on the
depot's sector or on a friendly edge sector is never isolated by this rule.

Two readings (Interpretation notes, and inputs of both Konrad calculators):

* ``lone_sector``: the rules also call a unit isolated when no sector next to
  its own is friendly. With ``line`` (the default) the line decides, so this
  only matters on the depot's or an edge sector; with ``isolated`` such a lone
  sector is isolated even there.
* ``cut_off_depot``: a depot that cannot trace a line to a friendly edge is not
  active. With ``extra`` (the default) units that trace a line to it are not
  isolated and take the moving depot's extra penalty; with ``isolated``, a
  cut-off depot supplies nobody, so a unit whose only line is to it is isolated.

Two searches answer everything: one from the depot and one from all friendly
edge sectors, both through friendly sectors only, each O(rows x cols).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..calculator import Choice, Field
from .sector_map import Cell, Reach, SectorMap, friendly_edge_cells, neighbours, search

LONE_SECTOR = Field(
    "lone_sector",
    "choice",
    "A sector with no friendly neighbour",
    "Whether a unit with no friendly sector next to it is isolated even on the depot's sector or a friendly map edge.",
    default="line",
    choices=(
        Choice("line", "Only if it has no line to the depot or a friendly edge"),
        Choice("isolated", "Always isolated"),
    ),
)

CUT_OFF_DEPOT = Field(
    "cut_off_depot",
    "choice",
    "A depot cut off from the friendly edges",
    "What a depot that cannot trace a line to a friendly map edge means for the units that can reach only it.",
    default="extra",
    choices=(
        Choice("extra", "They are supplied, with the moving depot's extra penalty"),
        Choice("isolated", "They are isolated"),
    ),
)


@dataclass(frozen=True)
class Network:
    """The supply lines of one map under one set of readings."""

    map: SectorMap
    adjacency: str
    lone_sector: str
    cut_off_depot: str
    from_depot: Reach  # steps along friendly sectors to the depot, and the way there
    from_edge: Reach  # steps to the nearest friendly edge sector, and the way there

    @property
    def depot_reaches_edge(self) -> bool:
        return self.map.depot is not None and self.map.depot in self.from_edge

    def lone(self, cell: Cell) -> bool:
        return not any(self.map.friendly(n) for n in neighbours(self.map, cell, self.adjacency))

    def reaches_depot(self, cell: Cell) -> bool:
        return cell in self.from_depot

    def reaches_edge(self, cell: Cell) -> bool:
        return cell in self.from_edge

    def isolated(self, cell: Cell) -> bool:
        """Whether a unit in ``cell`` is isolated, under the readings in force."""
        if self.lone_sector == "isolated" and self.lone(cell):
            return True
        if self.reaches_edge(cell):
            return False
        # No line to an edge; a line to the depot then means the depot is cut off too.
        return not (self.reaches_depot(cell) and self.cut_off_depot == "extra")

    def line_text(self, cell: Cell) -> str:
        """The unit's supply line: to the depot if it can, else to the nearest friendly edge.

        Written as the ``path`` drawing hint takes it ("row.col ...", 0-based); "" when isolated.
        """
        if self.reaches_depot(cell):
            return self.from_depot.way_back_text(cell)
        if self.reaches_edge(cell):
            return self.from_edge.way_back_text(cell)
        return ""


def network(m: SectorMap, adjacency: str, lone_sector: str, cut_off_depot: str) -> Network:
    from_depot = search(m, [m.depot] if m.depot else [], adjacency)
    from_edge = search(m, friendly_edge_cells(m), adjacency)
    return Network(m, adjacency, lone_sector, cut_off_depot, from_depot, from_edge)
