"""Operation Konrad's sector-map notation: what it reads, and what it refuses and why."""

from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT
from rules_py import get
from rules_py.calculator import InputError
from rules_py.grid import MAP_GRID_KEYS, text_limit
from rules_py.konrad.sector_map import GRID, MAX_SIDE, cells_text, friendly_edge_cells, neighbours, parse_map, straight_steps
from konrad_oracle import on_friendly_edge, stack


def test_reads_the_example_from_the_notation_page():
    m = parse_map("W:FF*FE/FaFFE/FFbEE")
    # F, F*, F, E / Fa, F, F, E / F, Fb, E, E: three rows of four sectors.
    assert (m.rows, m.cols) == (3, 4)
    assert m.edges == {"W"}
    assert m.depot == (0, 1)
    assert m.units == {"a": (1, 0), "b": (2, 1)}
    assert m.states == ("FFFE", "FFFE", "FFEE")
    assert on_friendly_edge(m, (2, 0)) and not on_friendly_edge(m, (0, 3))


def test_edges_in_any_order_none_and_several_units_in_a_sector():
    m = parse_map("SN:FabcE/F*E")
    assert m.edges == {"N", "S"} and m.units == {"a": (0, 0), "b": (0, 0), "c": (0, 0)}
    assert stack(m, (0, 0)) == ("a", "b", "c")
    assert parse_map("F").edges == frozenset() and parse_map(":F").edges == frozenset()
    assert parse_map("  W:F*a  ").units == {"a": (0, 0)}  # surrounding blanks of a pasted link are dropped


def test_the_map_bound_is_ours_at_least_100_by_100_and_one_row_more_is_not_read():
    # The rules give no campaign map size: the bound is the calculators', and says so.
    assert GRID["max_rows"] == GRID["max_cols"] == MAX_SIDE >= 100
    full = "/".join(["F" * MAX_SIDE] * MAX_SIDE)
    assert parse_map(full).rows == MAX_SIDE
    # The longest text a full map may have: edges, depot and all 26 units on it.
    longest = "NESW:F*" + "abcdefghijklmnopqrstuvwxyz" + full[1:]
    assert len(longest) == text_limit(GRID) and len(parse_map(longest).units) == 26
    with pytest.raises(InputError, match=f"{MAX_SIDE + 1} rows: at most {MAX_SIDE}, a practical bound") as caught:
        parse_map("/".join(["F"] * (MAX_SIDE + 1)))  # short enough to be read
    assert "rules give no campaign map size" in str(caught.value)
    with pytest.raises(InputError, match=f"{MAX_SIDE + 1} sectors: at most {MAX_SIDE}"):
        parse_map("F" * (MAX_SIDE + 1))
    # A pasted text far longer than any map is refused by its length, before it is read,
    # by the field itself (the page and the engine alike) and by the parser.
    huge = "F" * 200_000
    with pytest.raises(InputError, match=f"at most {text_limit(GRID)}"):
        parse_map(huge)
    with pytest.raises(InputError, match=f"a map of at most {MAX_SIDE} rows of {MAX_SIDE} cells"):
        get("konrad-retreat").validate({"map": huge})


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
        ("F*a F/FF", "unknown character ' '"),  # a blank inside the text is not part of the notation
        ("W:FaFa", "unit 'a' is on the map twice"),
        ("Faa", "unit 'a' is on the map twice"),
        ("F*E*", "two supply depots"),
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


@pytest.mark.parametrize("edges", ["", "N", "S", "W", "E", "WE", "NS", "NESW"])
@pytest.mark.parametrize("shape", ["FFF/FFF/FFF/FFF", "F", "FFFF", "F/F/F"])
def test_friendly_edge_cells_are_every_cell_on_a_friendly_edge_in_reading_order(edges, shape):
    m = parse_map(f"{edges}:{shape}")
    naive = [(r, c) for r in range(m.rows) for c in range(m.cols) if on_friendly_edge(m, (r, c))]
    assert friendly_edge_cells(m) == naive
