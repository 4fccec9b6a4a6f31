"""Operation Konrad supply modifiers, worked out by hand on small maps.

The bands (supply_penalties): 0-5 sectors 0, 6-8 -1, 9 or more -2, isolated -3;
while the depot is moving (depot_move) every unit not isolated takes -1 more.
On a map, a unit's distance is the fewest steps from its sector to the depot's
through friendly sectors (side adjacency unless a test says otherwise), the
depot's own sector being 0 away. Each test says how its figures were counted.
"""

from __future__ import annotations


import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules_py import get
from rules_py.calculator import InputError
from rules_py.konrad.sector_map import neighbours, parse_map
from konrad_oracle import on_friendly_edge
from strategies import certain_outcomes, valid_map

CALC = get("konrad-supply")


def certain(raw: dict) -> dict:
    return certain_outcomes(CALC, raw)


# Plain inputs -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "distance, expected",
    # Read off the band table: 0 to 5 -> 0, 6 to 8 -> -1, 9 and beyond -> -2.
    [(0, 0), (1, 0), (5, 0), (6, -1), (7, -1), (8, -1), (9, -2), (40, -2), (99, -2)],
)
def test_plain_distance_bands(distance, expected):
    assert certain({"distance": distance}) == {"modifier": expected}


@pytest.mark.parametrize(
    "distance, expected",
    # Moving depot: the band's modifier, one worse: 0-1, -1-1, -2-1.
    [(3, -1), (6, -2), (12, -3)],
)
def test_plain_moving_depot_is_one_worse(distance, expected):
    assert certain({"distance": distance, "depot_moving": True}) == {"modifier": expected}


@pytest.mark.parametrize("distance", [0, 5, 9, 99])
@pytest.mark.parametrize("moving", [False, True])
def test_plain_isolated_is_always_minus_three(distance, moving):
    # Isolated beats every band, and a moving depot does not make it worse.
    assert certain({"distance": distance, "isolated": True, "depot_moving": moving}) == {"modifier": -3}


def test_plain_inputs_are_bounded():
    with pytest.raises(InputError, match="distance"):
        CALC.odds(distance=100)
    with pytest.raises(InputError, match="distance"):
        CALC.odds(distance=-1)


# Straight lines ------------------------------------------------------------------------


def line_map(steps: int) -> str:
    """One row: the depot in the west edge sector, unit a ``steps`` sectors east of it."""
    return "W:F*" + "F" * (steps - 1) + "Fa" if steps else "W:F*a"


@pytest.mark.parametrize(
    "steps, expected",
    # A unit 5 sectors along the row is in the first band (0); 6 and 8 are in the
    # second (-1); 9 is in the third (-2). 0: the unit shares the depot's sector.
    [(0, 0), (5, 0), (6, -1), (8, -1), (9, -2)],
)
def test_straight_lines(steps, expected):
    out = certain({"map": line_map(steps)})
    assert out["modifier_a"] == expected
    assert out["distance_a"] == steps
    assert out["isolated_a"] is False
    assert out["depot_active"] is True  # not moving, and it stands on the friendly west edge
    # The line runs from the unit back to the depot, one sector at a time.
    assert out["line_a"] == " ".join(f"0.{c}" for c in range(steps, -1, -1))
    # Counted straight the answer is the same: the row is all friendly.
    assert certain({"map": line_map(steps), "counting": "straight"})["modifier_a"] == expected


def test_map_outcomes_are_named_per_unit_and_drawn_on_the_map():
    names = {o.name: o for o in CALC.outcomes_for(CALC.validate({"map": "W:F*FbFa"}))}
    assert set(names) == {"depot_active"} | {f"{k}_{u}" for k in ("modifier", "isolated", "distance", "line") for u in "ab"}
    assert (names["modifier_a"].draw, names["modifier_a"].unit) == ("unit", "a")
    assert (names["isolated_b"].draw, names["isolated_b"].unit) == ("unit", "b")
    assert names["line_a"].draw == "path"
    assert [o.name for o in CALC.outcomes_for(CALC.validate({}))] == ["modifier"]


def test_a_map_overrides_the_plain_inputs():
    # distance 12 and isolated would give -3; the map puts unit a 2 sectors away: 0.
    out = certain({"map": "W:F*FFa", "distance": 12, "isolated": True})
    assert out["modifier_a"] == 0 and "modifier" not in out
    assert "the distance and isolated inputs are not used" in " ".join(CALC.odds(map="W:F*FFa").notes)


# Cut off -------------------------------------------------------------------------------

# Row 0: F*  F   F   E   Fa  E        a at 0.4 has enemy sectors west (0.3), east (0.5)
# Row 1: F   F   F   E   E   E        and south (1.4): no line to the depot or the west edge.
CUT_OFF = "W:F*FFEFaE/FFFEEE"


def test_a_unit_cut_off_by_enemy_sectors():
    out = certain({"map": CUT_OFF})
    assert out["isolated_a"] is True
    assert out["modifier_a"] == -3
    assert out["distance_a"] == "none" and out["line_a"] == ""
    assert out["depot_active"] is True
    # Counted straight it is 4 sectors from the depot, yet still isolated: -3.
    straight = certain({"map": CUT_OFF, "counting": "straight"})
    assert (straight["distance_a"], straight["modifier_a"]) == (4, -3)
    # Diagonals do not help: 1.3 and 1.5 are enemy too.
    assert certain({"map": CUT_OFF, "adjacency": "corner"})["modifier_a"] == -3


def test_friendly_sectors_can_be_isolated_together():
    # a (0.3) and b (0.4) are next to each other, but enemy sectors part them from
    # the depot and the west edge: both isolated, though neither is alone.
    out = certain({"map": "W:F*FEFaFbE/FFEEEE"})
    assert (out["isolated_a"], out["isolated_b"]) == (True, True)
    assert (out["modifier_a"], out["modifier_b"]) == (-3, -3)


# Row 0: F*  E   Fa       Along friendly sectors a is 6 steps from the depot:
# Row 1: F   E   F        0.0 1.0 2.0 2.1 2.2 1.2 0.2 (-1); straight it is 2 (0).
# Row 2: F   F   F        With diagonals: 0.0 1.0 2.1 1.2 0.2 = 4 steps (0).
HOOK = "W:F*EFa/FEF/FFF"


def test_counting_along_friendly_sectors_or_straight():
    along = certain({"map": HOOK})
    assert (along["distance_a"], along["modifier_a"]) == (6, -1)
    assert along["line_a"] == "0.2 1.2 2.2 2.1 2.0 1.0 0.0"
    straight = certain({"map": HOOK, "counting": "straight"})
    assert (straight["distance_a"], straight["modifier_a"]) == (2, 0)
    corner = certain({"map": HOOK, "adjacency": "corner"})
    assert (corner["distance_a"], corner["modifier_a"]) == (4, 0)


# Depot cut off -------------------------------------------------------------------------

# Row 0: F*  Fa  E   F        The friendly edge is the east one. The depot and a (0.1)
# Row 1: F   F   E   Fb       form a pocket that cannot reach it; b (1.3) stands on it.
POCKET = "E:F*FaEF/FFEFb"


def test_a_depot_that_cannot_reach_a_friendly_edge():
    out = certain({"map": POCKET})
    assert out["depot_active"] is False
    # a traces a line to the depot: not isolated; 1 sector away (0), one worse for the
    # inactive depot: -1.
    assert (out["isolated_a"], out["distance_a"], out["modifier_a"]) == (False, 1, -1)
    # b reaches the east edge but not the depot: the farthest band (-2), one worse: -3,
    # but it is not isolated.
    assert (out["isolated_b"], out["distance_b"], out["modifier_b"]) == (False, "none", -3)
    assert out["line_b"] == "1.3"  # it is on the edge already


def test_cut_off_depot_read_as_supplying_nobody():
    out = certain({"map": POCKET, "cut_off_depot": "isolated"})
    # a's only line is to the cut-off depot: isolated, -3. b keeps its band (-2), with
    # no extra penalty under this reading.
    assert (out["isolated_a"], out["modifier_a"]) == (True, -3)
    assert (out["isolated_b"], out["modifier_b"]) == (False, -2)


def test_edge_only_unit_counted_straight():
    # b is 1 row and 3 columns from the depot: 4 steps straight, band 0, one worse for
    # the cut-off depot: -1.
    out = certain({"map": POCKET, "edge_only": "straight"})
    assert out["modifier_b"] == -1
    assert out["distance_b"] == "none"  # the shown distance is still along friendly sectors


def test_no_friendly_edge_at_all():
    # Without a friendly edge the depot is never active; a, 2 sectors away, takes 0 - 1.
    out = certain({"map": "F*FFa"})
    assert (out["depot_active"], out["isolated_a"], out["modifier_a"]) == (False, False, -1)


# Moving depot --------------------------------------------------------------------------

# Row 0: F*  F  F  F  F  F  F  Fa    a: 7 sectors along the row.
# Row 1: F   Fb E  E  E  F  F  F     b: 2 sectors (1.0 then 1.1).
# Row 2: F   F  E  Fc E  E  E  E     c at 2.3 is boxed in by enemy sectors.
MOVING = "W:F*FFFFFFFa/FFbEEEFFF/FFEFcEEEE"


def test_a_moving_depot():
    still = certain({"map": MOVING})
    assert (still["modifier_a"], still["modifier_b"], still["modifier_c"]) == (-1, 0, -3)
    assert still["depot_active"] is True
    moving = certain({"map": MOVING, "depot_moving": True})
    # Every unit not isolated takes -1 more; the isolated one stays at -3.
    assert (moving["modifier_a"], moving["modifier_b"], moving["modifier_c"]) == (-2, -1, -3)
    assert moving["depot_active"] is False
    # Distances are still counted from the (new) depot sector.
    assert (moving["distance_a"], moving["distance_b"]) == (7, 2)


# Lone sectors --------------------------------------------------------------------------

# a stands alone on the friendly west edge (enemy east and south of it); the depot is on
# the friendly east edge, so it is active.
LONE = "EW:FaEFF*/EEEF"


def test_a_lone_sector_on_a_friendly_edge():
    line = certain({"map": LONE})
    # The line reading: a is on the edge, not isolated; no line to the depot: farthest band.
    assert (line["isolated_a"], line["modifier_a"]) == (False, -2)
    lone = certain({"map": LONE, "lone_sector": "isolated"})
    assert (lone["isolated_a"], lone["modifier_a"]) == (True, -3)


# Errors ---------------------------------------------------------------------------------


def test_a_map_needs_the_depot():
    with pytest.raises(InputError, match=r"mark the supply depot") as caught:
        CALC.odds(map="W:FFa")
    assert caught.value.errors == [("map", caught.value.errors[0][1])]


def test_a_unit_on_an_enemy_sector_is_refused():
    with pytest.raises(InputError, match="enemy sector"):
        CALC.odds(map="W:F*Ea")


# Random maps ----------------------------------------------------------------------------

TABLE_MODIFIERS = {0, -1, -2, -3}  # every value the bands, the isolated row and the extra -1 can give


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(
    text=valid_map(CALC.field("map")),
    adjacency=st.sampled_from(["side", "corner"]),
    counting=st.sampled_from(["friendly", "straight"]),
    edge_only=st.sampled_from(["farthest", "straight"]),
    cut_off_depot=st.sampled_from(["extra", "isolated"]),
    lone_sector=st.sampled_from(["line", "isolated"]),
    depot_moving=st.booleans(),
)
def test_random_maps(text, adjacency, counting, edge_only, cut_off_depot, lone_sector, depot_moving):
    m = parse_map(text)
    assume(m.depot is not None)
    raw = dict(map=text, adjacency=adjacency, counting=counting, edge_only=edge_only, cut_off_depot=cut_off_depot, lone_sector=lone_sector, depot_moving=depot_moving)
    out = certain(raw)  # never crashes, and every outcome is certain
    # Every unit on the map gets exactly one modifier, and no other unit does.
    assert {k[len("modifier_"):] for k in out if k.startswith("modifier_")} == set(m.units)
    for label, cell in m.units.items():
        assert out[f"modifier_{label}"] in TABLE_MODIFIERS
        if out[f"isolated_{label}"]:
            assert out[f"modifier_{label}"] == -3
            assert counting == "straight" or lone_sector == "isolated" or cut_off_depot == "isolated" or out[f"distance_{label}"] == "none"
        line = [tuple(map(int, c.split("."))) for c in out[f"line_{label}"].split()]
        if line:
            # A line starts at the unit, runs through adjacent friendly sectors, and
            # ends at the depot or on a friendly edge.
            assert line[0] == cell
            assert all(m.friendly(c) for c in line)
            assert all(b in neighbours(m, a, adjacency) for a, b in zip(line, line[1:]))
            assert line[-1] == m.depot or on_friendly_edge(m, line[-1])
        else:
            assert out[f"isolated_{label}"]
    assert out["depot_active"] == (not depot_moving and any(on_friendly_edge(m, c) for c in _reachable(m, m.depot, adjacency)))


def _reachable(m, start, adjacency):
    """Friendly cells joined to start, by a plain depth-first walk (independent of the code's search)."""
    seen, todo = {start}, [start]
    while todo:
        for n in neighbours(m, todo.pop(), adjacency):
            if n not in seen and m.friendly(n):
                seen.add(n)
                todo.append(n)
    return seen
