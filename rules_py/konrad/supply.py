"""Operation Konrad supply: each unit's modifier to morale and REMO from the depot.

The modifier of a unit (tables ``supply_penalties`` and ``depot_move``):

* isolated: the isolated row's modifier (-3), whatever the depot is doing;
* otherwise the row of the distance band its distance d falls in
  (0-5 sectors: 0, 6-8: -1, 9 or more: -2), plus the extra modifier (-1) when
  the depot is not active: moving (within two days of a move), or, under the
  default ``cut_off_depot`` reading, unable to trace a line to a friendly edge.
  So the modifier is never below the isolated one.

With plain inputs, d is ``distance`` and ``isolated``/``depot_moving`` are
given. With a ``map`` (see :mod:`rules_py.konrad.sector_map`), isolation and
lines come from :mod:`rules_py.konrad.isolation` and d is counted

* ``counting = friendly`` (default): the fewest steps from the unit's sector to
  the depot's through friendly sectors, each step to an adjacent sector (the
  depot's own sector is 0 away). A unit with no such line but a line to a
  friendly edge is not isolated, and ``edge_only`` says how far it counts:
  ``farthest`` (default) puts it in the last band, ``straight`` counts the
  straight distance;
* ``counting = straight``: the fewest steps on the grid whoever holds the
  sectors: |dr| + |dc| with side adjacency, max(|dr|, |dc|) with corner
  adjacency.

The depot is active when it is not moving and traces a line to a friendly
edge. The answer is certain (probability 1): no die is rolled.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..calculator import Calculator, Choice, Field, InputError, Outcome
from ..dice import Dice
from ..tables import load
from .isolation import CUT_OFF_DEPOT, LONE_SECTOR, network
from .sector_map import ADJACENCY, Cell, SectorMap, map_field, parse_map, straight_steps

PENALTIES = load("konrad", "supply_penalties")
DEPOT_MOVE = load("konrad", "depot_move")
ISOLATED: int = PENALTIES.lookup("key", "isolated", "modifier")
INACTIVE_EXTRA: int = DEPOT_MOVE.lookup("key", "extra_modifier", "value")
BANDS = tuple(r for r in PENALTIES.rows if r["from_sectors"] is not None)
FARTHEST = max(BANDS, key=lambda r: r["from_sectors"])
MAX_DISTANCE = 99

SUPPLY_EXAMPLE = "W:F*FFFFFFFaFFFE/FFFFFFFFFFFbE/FFeFEEEFFFFEE/FEEFcEEFFFFFdE/FFFEEEEEEEEE"


def band_modifier(distance: int) -> int:
    """The distance band's modifier: the row whose From..To holds the distance."""
    for row in BANDS:
        if row["from_sectors"] <= distance and (row["to_sectors"] is None or distance <= row["to_sectors"]):
            found: int = row["modifier"]
            return found
    raise ValueError(f"no supply band covers {distance} sectors")


def modifier(distance: int | None, isolated: bool, depot_inactive: bool) -> int:
    """A unit's modifier; ``distance`` None puts it in the farthest band."""
    if isolated:
        return ISOLATED
    base: int = FARTHEST["modifier"] if distance is None else band_modifier(distance)
    return base + (INACTIVE_EXTRA if depot_inactive else 0)


def has_map(inputs: dict[str, Any]) -> bool:
    return bool(inputs["map"].strip())


def depot_of(m: SectorMap) -> Cell:
    """The supply depot's sector; a map without one is refused: the penalties are counted from it."""
    if m.depot is None:
        raise InputError("mark the supply depot's sector with * (e.g. F*): the penalties are counted from it", "map")
    return m.depot


@lru_cache(maxsize=64)
def map_supply(text: str, depot_moving: bool, adjacency: str, counting: str, edge_only: str, cut_off_depot: str, lone_sector: str) -> dict[str, Any]:
    """Every map outcome: depot_active, and modifier, isolated, distance and line per unit.

    Cached (a pure function of text inputs): a page rolling or re-asking for the
    same map does not search it again. Callers get a copy, never the cached dict.
    """
    m = parse_map(text)
    depot = depot_of(m)
    net = network(m, adjacency, lone_sector, cut_off_depot)
    cut_off = not net.depot_reaches_edge
    active = not depot_moving and not cut_off
    extra = depot_moving or (cut_off and cut_off_depot == "extra")
    out: dict[str, Any] = {"depot_active": active}
    for label, cell in m.units.items():
        straight = straight_steps(cell, depot, adjacency)
        along = net.from_depot.steps(cell) if net.reaches_depot(cell) else None
        shown = straight if counting == "straight" else along
        if counting == "straight" or along is not None:
            counted = shown
        else:  # a line to a friendly edge but none to the depot
            counted = straight if edge_only == "straight" else None
        isolated = net.isolated(cell)
        out[f"modifier_{label}"] = modifier(counted, isolated, extra)
        out[f"isolated_{label}"] = isolated
        out[f"distance_{label}"] = "none" if shown is None else shown
        out[f"line_{label}"] = net.line_text(cell)
    return out


def supply(dice: Dice, distance: int, isolated: bool, depot_moving: bool, map: str, adjacency: str, counting: str, edge_only: str, cut_off_depot: str, lone_sector: str) -> dict[str, Any]:
    """The supply modifier: of one unit from the plain inputs, or of every unit on the map."""
    if not map.strip():
        return {"modifier": modifier(distance, isolated, depot_moving)}
    return dict(map_supply(map, depot_moving, adjacency, counting, edge_only, cut_off_depot, lone_sector))


def check(inputs: dict[str, Any]) -> None:
    if has_map(inputs):
        depot_of(parse_map(inputs["map"]))


PLAIN = (Outcome("modifier", "int", "Supply modifier", "Added to the unit's normal morale and to its REMO."),)


def outcomes(inputs: dict[str, Any]) -> tuple[Outcome, ...]:
    if not has_map(inputs):
        return PLAIN
    out = [Outcome("depot_active", "bool", "Depot active", "Not moving, and joined to a friendly map edge by friendly sectors.")]
    for label in parse_map(inputs["map"]).units:
        out += [
            Outcome(f"modifier_{label}", "int", f"Unit {label}: modifier", "Added to its normal morale and REMO.", draw="unit", unit=label, key="modifier"),
            Outcome(f"isolated_{label}", "bool", f"Unit {label}: isolated", "No line of friendly sectors to the depot or to a friendly map edge.", draw="unit", unit=label, key="isolated"),
            Outcome(
                f"distance_{label}",
                "int",
                f"Unit {label}: sectors to the depot",
                "As counted by the counting input; none when no line of friendly sectors joins it to the depot.",
                extra=("none",),
                draw="unit",
                unit=label,
                key="sectors to the depot",
            ),
            Outcome(f"line_{label}", "choice", f"Unit {label}: supply line", "To the depot if it can, else to the nearest friendly edge; empty when isolated.", draw="path"),
        ]
    return tuple(out)


def notes(inputs: dict[str, Any]) -> list[str]:
    if not has_map(inputs):
        out = ["Plain inputs: the distance is taken as given."]
        if inputs["isolated"]:
            out.append("An isolated unit takes the isolated modifier whatever the distance or the depot.")
        return out
    side = "sharing a side (4 neighbours)" if inputs["adjacency"] == "side" else "sharing a side or a corner (8 neighbours)"
    out = [
        "A map is given: the distance and isolated inputs are not used.",
        f"Adjacent sectors: {side}.",
        "Distances are counted along friendly sectors." if inputs["counting"] == "friendly" else "Distances are counted straight across the map, whoever holds the sectors.",
    ]
    if inputs["counting"] == "friendly":
        out.append(
            "A unit that reaches a friendly edge but not the depot counts as in the farthest band."
            if inputs["edge_only"] == "farthest"
            else "A unit that reaches a friendly edge but not the depot counts its straight distance."
        )
    out.append(
        "A depot cut off from the friendly edges gives its units the moving depot's extra penalty."
        if inputs["cut_off_depot"] == "extra"
        else "A depot cut off from the friendly edges supplies nobody: units that reach only it are isolated."
    )
    if inputs["lone_sector"] == "isolated":
        out.append("A unit with no friendly sector next to it is isolated even on the depot's sector or a friendly edge.")
    return out


CALCULATORS = (
    Calculator(
        id="konrad-supply",
        rolls_dice=False,
        title="Operation Konrad supply modifier",
        system="konrad",
        procedure=supply,
        headline=("modifier", "depot_active", "modifier_*"),
        page="konrad/supply.md",
        description="The supply modifier to morale and REMO: for one unit from its distance to the depot, or for every unit on a sector map, with isolation and supply lines.",
        fields=(
            map_field("", "The sector map (see the map notation page). Leave it empty to use the three plain inputs below instead."),
            Field("distance", "int", "Sectors to the depot", "Without a map: how many sectors the unit is from the supply depot.", default=0, minimum=0, maximum=MAX_DISTANCE),
            Field("isolated", "bool", "Isolated", "Without a map: the unit cannot trace a line of friendly sectors to the depot or to a friendly map edge.", default=False),
            Field("depot_moving", "bool", "Depot moving", "The depot moved within the last two days and is not working yet.", default=False),
            ADJACENCY,
            Field(
                "counting",
                "choice",
                "Counting sectors",
                "With a map: how the sectors between a unit and the depot are counted.",
                default="friendly",
                choices=(Choice("friendly", "Along friendly sectors"), Choice("straight", "Straight across the map")),
            ),
            Field(
                "edge_only",
                "choice",
                "Line to an edge only",
                "With a map and counting along friendly sectors: how far a unit counts when it reaches a friendly edge but not the depot.",
                default="farthest",
                choices=(Choice("farthest", "In the farthest band"), Choice("straight", "Its straight distance")),
            ),
            CUT_OFF_DEPOT,
            LONE_SECTOR,
        ),
        outcomes=outcomes,
        check=check,
        notes=notes,
        examples=(
            {"distance": "7", "depot_moving": "true"},
            {"map": SUPPLY_EXAMPLE},
            {"map": SUPPLY_EXAMPLE, "adjacency": "corner", "counting": "straight", "depot_moving": "true"},
        ),
    ),
)
