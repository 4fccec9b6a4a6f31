"""The generic map grid (rules_py/grid.py) against the cases it shares with the page.

tests/map_grid_cases.json lists texts, each read under one of its grids, with
the structure they parse to or the error they are refused with (code, place
and message). tests/grid.test.mjs runs the same file against the page's parser
(docs/assets/calc/grid.mjs) under `node --test`; the expectations were worked
out by hand from the grammar in rules_py/grid.py's docstring.
"""

from __future__ import annotations

import json
import re

import pytest

from conftest import ROOT
from rules_py.grid import MESSAGES, GridError, check_spec, parse_grid, text_limit
from scripts.build.schema_types import GRID_GRAMMAR, grid_grammar

CASES = json.loads((ROOT / "tests" / "map_grid_cases.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES["cases"], ids=[f"{c['grid']}:{c['text'][:24]!r}" for c in CASES["cases"]])
def test_shared_case(case):
    grid = CASES["grids"][case["grid"]]
    if "error" in case:
        with pytest.raises(GridError) as caught:
            parse_grid(grid, case["text"])
        assert caught.value.to_dict() == case["error"]
    else:
        assert parse_grid(grid, case["text"]).to_dict() == case["parsed"]


def test_the_pages_grammar_is_grid_pys():
    # The page's parser (grid.mjs) takes its blanks and every message from grid-grammar.mjs,
    # generated from grid.py (make check runs schema_types --check too): the words live there
    # once. Every message is said by some shared case, so both parsers are seen to say it.
    assert GRID_GRAMMAR.read_text(encoding="utf-8") == grid_grammar()
    said = {c["error"]["message"] for c in CASES["cases"] if "error" in c}
    for name, text in MESSAGES.items():
        pattern = re.compile("".join(".+?" if i % 2 else re.escape(part) for i, part in enumerate(re.split(r"\{(\w+)\}", text))))
        assert any(pattern.fullmatch(m) for m in said), name


def test_text_limits_and_grids():
    for name, grid in CASES["grids"].items():
        check_spec(grid)
        assert text_limit(grid) == CASES["text_limits"][name]


def test_every_error_code_and_both_outcomes_are_covered():
    codes = {c["error"]["code"] for c in CASES["cases"] if "error" in c}
    assert codes == {
        "too_long", "empty", "edge_unknown", "edge_twice", "too_many_rows", "row_empty", "no_state",
        "mark_after_label", "mark_twice", "mark_max", "label_twice", "unknown_char", "too_many_cols", "ragged",
    }  # fmt: skip
    assert any("parsed" in c for c in CASES["cases"])


@pytest.mark.parametrize(
    "change, says",
    [
        (lambda g: g.update(colour="red"), "unknown grid keys"),
        (lambda g: g["states"].append({"code": "*", "label": "twice"}), "distinct"),
        (lambda g: g["states"].append({"code": " ", "label": "blank"}), "distinct"),
        (lambda g: g.update(max_rows=0), "max_rows"),
        (lambda g: g["edges"].append({"code": ":", "label": "sep"}), "edge codes"),
    ],
)
def test_a_grid_the_grammar_cannot_read_is_refused(change, says):
    grid = json.loads(json.dumps(CASES["grids"]["sectors"]))
    change(grid)
    with pytest.raises(ValueError, match=says):
        check_spec(grid)
