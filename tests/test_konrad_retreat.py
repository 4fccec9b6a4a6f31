"""Operation Konrad retreats, worked out by hand on small maps.

Cells are row.col from 0 at the top left. A sector is full with 2 DSUs (the
stacking table), the retreating unit not counted. Each map is drawn in a
comment with the reasoning.
"""

from __future__ import annotations


import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules_py import get
from rules_py.calculator import InputError
from rules_py.konrad.sector_map import neighbours, parse_map
from konrad_oracle import stack
from strategies import certain_outcomes, valid_map

CALC = get("konrad-retreat")


def certain(raw: dict) -> dict:
    return certain_outcomes(CALC, raw)


def test_one_sector_into_any_friendly_sector_with_room():
    # Row 0: F   F   E        a at 1.1. Its side neighbours: 0.1 friendly, empty;
    # Row 1: E   Fa  Fb       1.2 friendly with b alone (room for one more);
    # Row 2: F   E   E        1.0 and 2.1 enemy. Both friendly ones are possible ends.
    out = certain({"map": "W:FFE/EFaFb/FEE", "unit": "a"})
    assert out == {"result": "retreat", "destinations": "0.1 1.2", "morale_checks": "", "checking_units": "none", "sectors": 1}
    # With diagonals 0.0 and 2.0 also touch 1.1 (0.2 is enemy).
    corner = certain({"map": "W:FFE/EFaFb/FEE", "unit": "a", "adjacency": "corner"})
    assert corner["destinations"] == "0.0 0.1 1.2 2.0"


def test_retreat_through_an_overstacked_sector():
    # Row 0: F   Fcd  Fefg  Fa       a at 0.3 can only go west, into 0.2, which holds
    # Row 1: E   E    E     E        three (overstacked); beyond it 0.1 holds two (full);
    # beyond that 0.0 is empty. So a crosses 0.2 and 0.1 and ends in 0.0, 3 sectors on;
    # the units of both sectors crossed test morale.
    out = certain({"map": "W:FFcdFefgFa/EEEE", "unit": "a"})
    assert out == {
        "result": "retreat",
        "destinations": "0.0",
        "morale_checks": "0.1 0.2",
        "checking_units": "c d e f g",
        "sectors": 3,
    }


def test_two_full_sectors_to_choose_from():
    # The retreats page's example (the default map):
    # Row 0: F   F    F    E    E
    # Row 1: F*  F    Fbc  Fa   E      a at 1.3: north 0.3 and east 1.4 enemy; west 1.2
    # Row 2: F   F    F    Fde  E      (b, c) and south 2.3 (d, e) full. Through 1.2 it
    # Row 3: F   F    F    E    E      reaches 0.2 or 1.1 or 2.2; through 2.3 it reaches
    # 2.2. All at 2 sectors; either full sector may be crossed.
    out = certain({})
    assert out == {"result": "retreat", "destinations": "0.2 1.1 2.2", "morale_checks": "1.2 2.3", "checking_units": "b c d e", "sectors": 2}


def test_only_full_sectors_on_a_shortest_route_are_listed():
    # Row 0: Fa   Fbc  F        a at 0.0 (west edge friendly). Both neighbours are full:
    # Row 1: Fde  Ffg  E        0.1 (b, c) and 1.0 (d, e). Past 0.1 lies 0.2, empty:
    # Row 2: Fhi  F    E        2 sectors. Past 1.0 lie only full 2.0 (h, i) and 1.1
    # (f, g), so its nearest room, 2.1, is 3 sectors off. The end is 0.2, and only 0.1,
    # on the one shortest route, is listed for morale checks.
    out = certain({"map": "W:FaFbcF/FdeFfgE/FhiFE", "unit": "a"})
    assert out["destinations"] == "0.2"
    assert out["morale_checks"] == "0.1"
    assert out["checking_units"] == "b c"
    assert out["sectors"] == 2


def test_retreat_with_no_way_out():
    # Row 0: E    E    E    E       a at 1.2 (west edge friendly, so not isolated).
    # Row 1: Ffg  Fbc  Fa   E       West is 1.1, full (b, c); beyond it 1.0, full (f, g),
    # Row 2: E    E    E    E       on the map's edge. No sector with room: eliminated,
    # after going as far as it can through both full sectors.
    out = certain({"map": "W:EEEE/FfgFbcFaE/EEEE", "unit": "a"})
    assert out == {"result": "eliminated", "destinations": "", "morale_checks": "1.0 1.1", "checking_units": "b c f g", "sectors": "none"}


def test_no_friendly_neighbour_at_all():
    # a alone at 0.0 on the friendly west edge, enemy all round: not isolated (it is on the
    # edge) but with nowhere to go: eliminated where it stands, nobody tests morale.
    out = certain({"map": "W:FaE/EE", "unit": "a"})
    assert out == {"result": "eliminated", "destinations": "", "morale_checks": "", "checking_units": "none", "sectors": "none"}
    # Read a lone sector as isolated, and it surrenders instead.
    assert certain({"map": "W:FaE/EE", "unit": "a", "lone_sector": "isolated"})["result"] == "surrender"


def test_an_isolated_unit_surrenders():
    # Row 0: F   F   E   E   E       a at 1.3 has enemy sectors on all four sides: no line
    # Row 1: F   F   E   Fa  E       to the west edge. It surrenders however much room
    # Row 2: F   F   E   E   E       there is elsewhere.
    out = certain({"map": "W:FFEEE/FFEFaE/FFEEE", "unit": "a"})
    assert out == {"result": "surrender", "destinations": "", "morale_checks": "", "checking_units": "none", "sectors": "none"}


def test_a_pocket_around_a_cut_off_depot():
    # Row 0: F*  Fa  E   F       East edge friendly. a (0.1) reaches only the depot.
    # Row 1: F   F   E   F       By default it is not isolated and may fall back to the
    # depot's sector 0.0 or to 1.1; read a cut-off depot as supplying nobody and it is
    # isolated, so it surrenders.
    out = certain({"map": "E:F*FaEF/FFEF", "unit": "a"})
    assert (out["result"], out["destinations"]) == ("retreat", "0.0 1.1")
    assert certain({"map": "E:F*FaEF/FFEF", "unit": "a", "cut_off_depot": "isolated"})["result"] == "surrender"


def test_the_unit_must_be_on_the_map():
    with pytest.raises(InputError, match=r"no unit 'c' on the map \(units on it: a, b\)") as caught:
        CALC.odds(map="W:FaFb", unit="c")
    assert caught.value.errors[0][0] == "unit"
    with pytest.raises(InputError, match="empty"):
        CALC.odds(map="", unit="a")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(text=valid_map(CALC.field("map")), adjacency=st.sampled_from(["side", "corner"]), data=st.data())
def test_random_retreats_end_legally(text, adjacency, data):
    m = parse_map(text)
    assume(m.units)
    unit = data.draw(st.sampled_from(sorted(m.units)))
    out = certain({"map": text, "unit": unit, "adjacency": adjacency})
    start = m.units[unit]
    ends = [tuple(map(int, c.split("."))) for c in out["destinations"].split()]
    checks = [tuple(map(int, c.split("."))) for c in out["morale_checks"].split()]
    others = {cell: len([u for u in stack(m, cell) if u != unit]) for cell in [*ends, *checks]}
    if out["result"] == "retreat":
        assert ends and out["sectors"] >= 1
        # Every end is a friendly sector with room; every checked sector is full and friendly.
        assert all(m.friendly(c) and others[c] < 2 and c != start for c in ends)
        assert all(m.friendly(c) and others[c] >= 2 for c in checks)
        # One sector only when a neighbour has room, and then nobody tests morale.
        assert (out["sectors"] == 1) == (not checks) == any(e in neighbours(m, start, adjacency) for e in ends)
    else:
        assert not ends and out["sectors"] == "none"
        if out["result"] == "surrender":
            assert not checks
