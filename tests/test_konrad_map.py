"""Operation Konrad's sector-map notation: what it reads, and what it refuses and why."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT
from rules_py import get
from rules_py.calculator import MAP_GRID_KEYS, InputError
from rules_py.konrad.sector_map import GRID, cells_text, neighbours, parse_map, straight_steps
from rules_py.tables import load


def test_reads_the_example_from_the_notation_page():
    m = parse_map("W:FF*FE/FaFFE/FFbEE")
    # F, F*, F, E / Fa, F, F, E / F, Fb, E, E: three rows of four sectors.
    assert (m.rows, m.cols) == (3, 4)
    assert m.edges == {"W"}
    assert m.depot == (0, 1)
    assert m.units == {"a": (1, 0), "b": (2, 1)}
    assert m.states == ("FFFE", "FFFE", "FFEE")
    assert m.on_friendly_edge((2, 0)) and not m.on_friendly_edge((0, 3))


def test_edges_in_any_order_none_and_several_units_in_a_sector():
    m = parse_map("SN:FabcE/F*E")
    assert m.edges == {"N", "S"} and m.units == {"a": (0, 0), "b": (0, 0), "c": (0, 0)}
    assert m.stack((0, 0)) == ("a", "b", "c")
    assert parse_map("F").edges == frozenset() and parse_map(":F").edges == frozenset()
    assert parse_map("  W:F*a  ").units == {"a": (0, 0)}  # surrounding blanks of a pasted link are dropped


def test_a_full_size_map_is_read_and_one_row_more_is_not():
    side = load("konrad", "campaign_map").lookup("key", "map_side", "value")
    assert side == 40 and GRID["max_rows"] == GRID["max_cols"] == side
    full = "/".join(["F" * side] * side)
    assert parse_map(full).rows == 40
    with pytest.raises(InputError, match="41 rows"):
        parse_map(full + "/" + "F" * side)
    with pytest.raises(InputError, match="41 sectors"):
        parse_map("F" * (side + 1))


@pytest.mark.parametrize(
    "text, says",
    [
        ("", "empty"),
        ("FFF/FF", "row 2 has 2 sectors but row 1 has 3"),
        ("F*F*", "two supply depots"),
        ("F*/E*", "two supply depots"),
        ("FE*", "enemy sector"),
        ("FaFa", "unit 'a' is on the map twice"),
        ("FEa", "stands on an enemy sector"),
        ("FxF", None),  # x is a unit letter: fine
        ("FXF", "unknown character 'X'"),
        ("Ff F", "unknown character ' '"),
        ("F**", "twice"),
        ("Fa*", "after a unit letter"),
        ("*F", "starts with '*'"),
        ("aF", "starts with unit 'a'"),
        ("F//F", "row 2 is empty"),
        ("WW:F", "edge W is given twice"),
        ("X:F", "'X' is not a map edge"),
        ("W:F:F", "unknown character ':'"),
        ("fe", "starts with unit 'f'"),
    ],
)
def test_mistakes_are_named_with_their_place(text, says):
    if says is None:
        parse_map(text)
        return
    with pytest.raises(InputError, match=says) as caught:
        parse_map(text)
    assert caught.value.errors[0][0] == "map"


def test_messages_count_rows_and_sectors_from_one():
    with pytest.raises(InputError, match=r"row 2, sector 3"):
        parse_map("FFF/FFEa")
    with pytest.raises(InputError, match=r"row 1, sector 2 and row 2, sector 1"):
        parse_map("FFa/Fa")


def test_neighbours_and_straight_steps():
    m = parse_map("FFF/FFF/FFF")
    assert neighbours(m, (1, 1), "side") == [(0, 1), (1, 2), (2, 1), (1, 0)]
    assert len(neighbours(m, (1, 1), "corner")) == 8
    assert neighbours(m, (0, 0), "side") == [(0, 1), (1, 0)]  # the map's border cuts them off
    assert sorted(neighbours(m, (0, 0), "corner")) == [(0, 1), (1, 0), (1, 1)]
    # From (0, 0) to (3, 5): 3 + 5 = 8 steps on sides; max(3, 5) = 5 when diagonals count one.
    assert straight_steps((0, 0), (3, 5), "side") == 8
    assert straight_steps((0, 0), (3, 5), "corner") == 5
    assert cells_text([(2, 0), (0, 10), (0, 2), (2, 0)]) == "0.2 0.10 2.0"


def test_the_grid_follows_the_generic_contract():
    assert set(GRID) <= MAP_GRID_KEYS
    for calc_id in ("konrad-supply", "konrad-retreat"):
        field = get(calc_id).field("map")
        assert field.type == "map" and field.grid == GRID
        assert get(calc_id).schema()["fields"][0]["grid"]["marks"] == [{"code": "*", "label": "Supply depot", "max": 1}]


def test_command_line_takes_a_map_and_refuses_a_bad_one_in_one_line():
    ok = subprocess.run(
        [sys.executable, "-m", "rules_py", "odds", "konrad-supply", "map=W:F*Fa"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert ok.returncode == 0, ok.stderr
    bad = subprocess.run(
        [sys.executable, "-m", "rules_py", "odds", "konrad-supply", "map=W:F*Fa/F"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("error: map: row 2 has 1 sectors but row 1 has 2") and len(bad.stderr.splitlines()) == 1
