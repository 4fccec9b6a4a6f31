"""The supply calculator's per-unit table in the typed answer, worked out by hand.

The map (friendly west edge; rows from the top, sectors from the left, from 1)::

    W:F*FFFFFFFa/FEEEEEEE/FbEFcEEEEE

    row 1:  F*  F  F  F  F  F  F  Fa      the depot in sector 1, unit a in sector 8
    row 2:  F   E  E  E  E  E  E  E
    row 3:  Fb  E  Fc E  E  E  E  E       unit b in sector 1, unit c in sector 3

Counted along friendly sectors, side adjacency (the defaults):

* a: along row 1 from sector 8 to sector 1, 7 steps; the band 6-8 gives -1.
  Not isolated (the line runs to the depot, which is on the west edge).
* b: row 3 sector 1, up two rows to the depot: 2 steps; band 0-5: 0. Not isolated.
* c: row 3 sector 3 has enemy sectors on its left (sector 2), right (sector 4)
  and above (row 2 sector 3), no row below, and is not on the west edge: no
  line at all, so isolated, -3, and no distance ("none").

With the depot moving (depot_moving=true), every unit not isolated takes one
more point off (a -2, b -1); c stays at -3.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

import rules_py
from rules_py.answer import units_table

MAP = "W:F*FFFFFFFa/FEEEEEEE/FbEFcEEEEE"
SCHEMA = json.loads((Path(rules_py.__file__).parent / "data" / "answer.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)

# unit -> (modifier, isolated, sectors to the depot), as the table says them (the minus is U+2212).
BY_HAND = {"a": ("\u22121", "no", "7"), "b": ("0", "no", "2"), "c": ("\u22123", "yes", "none")}
BY_HAND_MOVING = {"a": ("\u22122", "no", "7"), "b": ("\u22121", "no", "2"), "c": ("\u22123", "yes", "none")}


def table(doc: dict) -> dict[str, tuple[str, ...]]:
    """unit -> the texts of its row, in the columns' order."""
    return {row["unit"]: tuple(cell["text"] for cell in row["cells"]) for row in doc["units"]["rows"]}


@pytest.mark.parametrize("moving, expected", [("false", BY_HAND), ("true", BY_HAND_MOVING)])
def test_the_table_has_a_row_per_unit_with_the_values_worked_out_by_hand(moving, expected):
    doc = rules_py.answer("konrad-supply", {"map": MAP, "depot_moving": moving})
    assert [c["label"] for c in doc["units"]["columns"]] == ["Modifier", "Isolated", "Sectors to the depot"]
    assert table(doc) == expected


def test_the_typed_answer_carries_the_table_and_it_agrees_with_the_outcomes():
    doc = rules_py.answer("konrad-supply", {"map": MAP})
    assert not list(VALIDATOR.iter_errors(doc))
    outcomes = {o["name"]: o for o in doc["outcomes"]}
    for row in doc["units"]["rows"]:
        for column, cell in zip(doc["units"]["columns"], row["cells"]):
            o = outcomes[cell["outcome"]]
            # Each cell is its unit's outcome of that column's kind, in the outcome's own words.
            assert (o["draw"]["unit"], o["draw"]["key"]) == (row["unit"], column["key"])
            assert (cell["value"], cell["text"]) == (o["value"], o["value_label"])
    # The table and the map's lines stand for every per-unit outcome; only the depot's line is left.
    assert sorted(set(outcomes) - set(doc["units"]["replaces"])) == ["depot_active"]
    assert {"line_a", "line_b", "line_c"} <= set(doc["units"]["replaces"])
    # The answer's one-line summary (a screen reader's) says each unit's row, and no line's sectors.
    assert doc["summary"] == (
        "Depot active: yes; Unit a: modifier \u22121, isolated no, sectors to the depot 7; "
        "Unit b: modifier 0, isolated no, sectors to the depot 2; Unit c: modifier \u22123, isolated yes, sectors to the depot none"
    )
    # A comparison's options each carry theirs; the table of option B is the moving depot's.
    compared = rules_py.compare("konrad-supply", {"map": MAP}, {"depot_moving": "true"})
    assert (table(compared["a"]), table(compared["b"])) == (BY_HAND, BY_HAND_MOVING)


def test_no_map_no_table_and_the_schema_refuses_a_bad_one():
    plain = rules_py.answer("konrad-supply", {"distance": "7"})
    assert plain["units"] is None and not list(VALIDATOR.iter_errors(plain))
    assert rules_py.answer("chq-comms-check")["units"] is None
    assert units_table([]) is None
    # The schema check can fail: a row without its cells.
    broken = rules_py.answer("konrad-supply", {"map": MAP})
    del broken["units"]["rows"][0]["cells"]
    assert list(VALIDATOR.iter_errors(broken))
