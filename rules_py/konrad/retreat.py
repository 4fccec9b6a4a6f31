"""Operation Konrad retreats: where a DSU made to retreat may end up.

On a sector map (see :mod:`rules_py.konrad.sector_map`), with the unit's label:

1. An isolated unit (see :mod:`rules_py.konrad.isolation`, same readings)
   cannot retreat: it surrenders.
2. It retreats one sector, to an adjacent friendly sector. A sector has room
   when it holds fewer DSUs than the stacking limit (2), not counting the
   retreating unit. Every adjacent friendly sector with room is a possible
   end: the rules prefer the one behind the unit, which the map cannot show,
   so all are listed and the player picks.
3. When every adjacent friendly sector is full, it goes on through full
   friendly sectors until it reaches one with room, by the fewest sectors:
   a breadth-first search that passes only through full sectors. The ends are
   the sectors with room at the least depth d; the full sectors on some
   shortest route there are where morale checks may fall (the units of each
   full sector it actually passes through check, so the route the player picks
   decides which).
4. With no sector with room within reach (or no adjacent friendly sector at
   all), it retreats as far as it can and is eliminated: every full sector it
   can reach may be on its way.

Leaving the map, even across a friendly edge, is not a retreat. The answer is
certain (probability 1): no die is rolled.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..calculator import Calculator, Choice, Field, InputError, Outcome
from ..dice import Dice
from ..tables import load
from .isolation import CUT_OFF_DEPOT, LONE_SECTOR, network
from .sector_map import ADJACENCY, LABELS, Cell, SectorMap, cells_text, map_field, neighbours, parse_map

STACKING = load("konrad", "stacking")
STACK_LIMIT: int = STACKING.lookup("key", "stack_limit", "value")

# Unit a must go on through the full sectors holding b, c and d, e.
RETREAT_EXAMPLE = "W:FFFEE/F*FFbcFaE/FFFFdeE/FFFEE"
RESULTS = ("retreat", "eliminated", "surrender")


def _count(m: SectorMap, unit: str) -> dict[Cell, int]:
    """DSUs per sector, the retreating one left out."""
    counts: dict[Cell, int] = {}
    for label, cell in m.units.items():
        if label != unit:
            counts[cell] = counts.get(cell, 0) + 1
    return counts


def retreat_routes(m: SectorMap, unit: str, adjacency: str) -> tuple[str, list[Cell], set[Cell], int | None]:
    """(result, ends, full sectors on the way, sectors moved) for a unit that is not isolated."""
    start = m.units[unit]
    counts = _count(m, unit)

    def full(cell: Cell) -> bool:
        return counts.get(cell, 0) >= STACK_LIMIT

    depth = {start: 0}
    layer = [start]
    steps = 1  # sectors moved so far, counting the one being entered
    while layer:
        ends: set[Cell] = set()
        onward: list[Cell] = []
        for cell in layer:
            for n in neighbours(m, cell, adjacency):
                if n in depth or not m.friendly(n):
                    continue
                if full(n):
                    depth[n] = steps
                    onward.append(n)
                else:
                    ends.add(n)
        if ends:
            return "retreat", sorted(ends), _on_shortest_routes(m, depth, ends, steps, adjacency), steps
        layer = onward
        steps += 1
    return "eliminated", [], {c for c in depth if c != start}, None


def _on_shortest_routes(m: SectorMap, depth: dict[Cell, int], ends: set[Cell], steps: int, adjacency: str) -> set[Cell]:
    """The full sectors that lie on some shortest route from the unit to one of the ends."""
    on_route: set[Cell] = set()
    current = set(ends)
    for k in range(steps - 1, 0, -1):
        current = {c for c, d in depth.items() if d == k and any(n in current for n in neighbours(m, c, adjacency))}
        on_route |= current
    return on_route


def retreat(dice: Dice, map: str, unit: str, adjacency: str, lone_sector: str, cut_off_depot: str) -> dict[str, Any]:
    """Where the unit may end its retreat, and whose morale it may test on the way."""
    return dict(_retreat(map, unit, adjacency, lone_sector, cut_off_depot))


@lru_cache(maxsize=64)
def _retreat(map: str, unit: str, adjacency: str, lone_sector: str, cut_off_depot: str) -> dict[str, Any]:
    """The retreat's outcomes, cached by their text inputs (callers copy the dict)."""
    m = parse_map(map)
    net = network(m, adjacency, lone_sector, cut_off_depot)
    ends: list[Cell]
    checks: set[Cell]
    moved: int | None
    if net.isolated(m.units[unit]):
        result, ends, checks, moved = "surrender", [], set(), None
    else:
        result, ends, checks, moved = retreat_routes(m, unit, adjacency)
    checking = sorted(label for label, cell in m.units.items() if cell in checks)
    return {
        "result": result,
        "destinations": cells_text(ends),
        "morale_checks": cells_text(checks),
        "checking_units": " ".join(checking) or "none",
        "sectors": "none" if moved is None else moved,
    }


def check(inputs: dict[str, Any]) -> None:
    m = parse_map(inputs["map"])
    if inputs["unit"] not in m.units:
        on_map = ", ".join(m.units) or "none"
        raise InputError(f"there is no unit {inputs['unit']!r} on the map (units on it: {on_map})", "unit")


def notes(inputs: dict[str, Any]) -> list[str]:
    side = "sharing a side (4 neighbours)" if inputs["adjacency"] == "side" else "sharing a side or a corner (8 neighbours)"
    return [
        f"Adjacent sectors: {side}.",
        f"A sector is full with {STACK_LIMIT} DSUs, not counting the retreating one.",
        "Every legal end is listed: the rules prefer the sector behind the unit, which the map does not show.",
        "The units of each full sector the unit actually passes through take morale checks.",
    ]


CALCULATORS = (
    Calculator(
        id="konrad-retreat",
        rolls_dice=False,
        title="Operation Konrad retreat",
        system="konrad",
        procedure=retreat,
        headline=("result", "sectors"),
        page="konrad/retreats.md",
        description="Where a retreating DSU may end up on a sector map, which overstacked sectors' units must test morale on the way, or whether it is eliminated or surrenders.",
        fields=(
            map_field(RETREAT_EXAMPLE, "The sector map (see the map notation page), with the retreating unit on it."),
            Field(
                "unit",
                "choice",
                "Retreating unit",
                "The letter of the unit that must retreat.",
                default="a",
                choices=tuple(Choice(ch, f"Unit {ch}") for ch in LABELS),
            ),
            ADJACENCY,
            LONE_SECTOR,
            CUT_OFF_DEPOT,
        ),
        outcomes=(
            Outcome("result", "choice", "Result", "Retreats, is eliminated for want of a legal sector, or surrenders because it is isolated.", values=RESULTS),
            Outcome("destinations", "choice", "Sectors it may end in", "Each a sector with room, at the fewest sectors' retreat; empty if it does not survive.", draw="cells"),
            Outcome("morale_checks", "choice", "Sectors that test morale", "Full sectors it may pass through; the units of each one it passes through take morale checks.", draw="cells"),
            Outcome("checking_units", "choice", "Units that may test morale", "The units in those sectors."),
            Outcome("sectors", "int", "Sectors retreated", "How far it goes; none when it does not survive.", extra=("none",)),
        ),
        check=check,
        notes=notes,
        examples=(
            {"map": "W:FFFEE/F*FFbFaE/FFFFcE/FFFEE", "unit": "a"},
            {"map": "W:EEEE/FfgFbcFaE/EEEE", "unit": "a", "adjacency": "corner"},
            {"map": "W:FFEEE/FFEFaE/FFEEE", "unit": "a"},
        ),
    ),
)
