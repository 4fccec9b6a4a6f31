"""Naive per-sector definitions of the Konrad map, the oracle the map tests check
the calculators against (the procedures compute the same things their own,
faster way, in rules_py.konrad)."""

from __future__ import annotations

from rules_py.konrad.sector_map import Cell, SectorMap


def on_friendly_edge(m: SectorMap, cell: Cell) -> bool:
    """Whether a sector lies on one of the map's friendly edges."""
    r, c = cell
    return ("N" in m.edges and r == 0) or ("S" in m.edges and r == m.rows - 1) or ("W" in m.edges and c == 0) or ("E" in m.edges and c == m.cols - 1)


def stack(m: SectorMap, cell: Cell) -> tuple[str, ...]:
    """The labels of the units in a sector, in alphabetical order."""
    return tuple(label for label, at in sorted(m.units.items()) if at == cell)
