"""The generic map grid (rules_py/grid.py) against the cases it shares with the page.

tests/map_grid_cases.json lists texts, each read under one of its grids, with
the structure they parse to or the error they are refused with (code, place
and message). tests/grid.test.mjs runs the same file against the page's parser
(docs/assets/calc/grid.mjs) under `node --test`; the expectations were worked
out by hand from the grammar in rules_py/grid.py's docstring. Both parsers take
their rules from grid.py's GRAMMAR: test_both_parsers_follow_a_changed_grammar
changes one rule at a time and sees them read 400 drawn texts alike.
"""

from __future__ import annotations

import copy
import json
import random
import re
import subprocess

import pytest

from conftest import ROOT
from rules_py.grid import GRAMMAR, MESSAGES, Grammar, GridError, check_grammar, check_spec, parse_grid, text_limit
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


# Grammars changed from grid.py's, one rule each: both parsers must follow the change,
# for they hold no rule of their own (grid.py's docstring). Each is a player's
# plausible other notation.
def _labels_before_marks(g: Grammar) -> None:
    g["read"]["row"]["label"]["mark"] = True
    del g["messages"]["mark_after_label"]


def _marks_after_labels(g: Grammar) -> None:
    g["read"]["row"]["label"]["mark"] = True
    g["read"]["row"]["mark"]["label"] = "label_after_mark"
    del g["messages"]["mark_after_label"]
    g["messages"]["label_after_mark"] = "in row {row}, column {col} the label {char} comes after a mark: labels come first"


def _a_mark_twice_in_a_cell(g: Grammar) -> None:
    g["counts"] = [rule for rule in g["counts"] if rule["refusal"] != "mark_twice"]
    del g["messages"]["mark_twice"]


def _rows_of_any_length(g: Grammar) -> None:
    g["sizes"] = [size for size in g["sizes"] if size["refusal"] != "ragged"]
    del g["messages"]["ragged"]


def _every_mark_on_two_cells_at_most(g: Grammar) -> None:
    (rule,) = [rule for rule in g["counts"] if rule["most"] == "max"]
    rule["most"] = 2


def _at_most_two_rows(g: Grammar) -> None:
    (size,) = [size for size in g["sizes"] if size["of"] == "rows"]
    size["bound"] = 2


def _tabs_are_not_blanks(g: Grammar) -> None:
    g["blanks"] = g["blanks"].replace("\t", "")


CHANGES = [None, _labels_before_marks, _marks_after_labels, _a_mark_twice_in_a_cell, _rows_of_any_length, _every_mark_on_two_cells_at_most, _at_most_two_rows, _tabs_are_not_blanks]


def _texts(grid) -> list[str]:
    """The shared cases' texts and 400 more drawn (seeded) from the grid's own characters,
    its separators, a blank, a tab and a character it does not name."""
    chars = [grid["edge_sep"], grid["row_sep"], " ", "\t", "?"]
    chars += [code["code"] for key in ("edges", "states", "marks") for code in grid.get(key, [])]
    chars += list(grid["labels"]["chars"][:3]) if grid.get("labels") else []
    rng = random.Random(46)
    drawn = ["".join(rng.choice(chars) for _ in range(rng.randint(0, 14))) for _ in range(400)]
    return [c["text"] for c in CASES["cases"]] + drawn


def _python(grid, text: str, grammar: Grammar) -> dict:
    try:
        return {"parsed": parse_grid(grid, text, grammar).to_dict()}
    except GridError as e:
        return {"error": json.loads(json.dumps(e.to_dict()))}


def test_both_parsers_follow_a_changed_grammar():
    # One run of the page's parser under Node for every grammar and grid (tests/grid_parse.mjs).
    jobs, expected = [], []
    for change in CHANGES:
        grammar = copy.deepcopy(GRAMMAR)
        if change:
            change(grammar)
        check_grammar(grammar)
        seen = False  # the change is seen: some text reads otherwise than by the built grammar
        for grid in CASES["grids"].values():
            texts = _texts(grid)
            ours = [_python(grid, t, grammar) for t in texts]
            seen = seen or ours != [_python(grid, t, GRAMMAR) for t in texts]
            jobs.append({"grammar": grammar, "grid": grid, "max_text": text_limit(grid), "texts": texts})
            expected.append((change.__name__ if change else "as built", texts, ours))
        assert seen or not change, f"{change.__name__} changes nothing the texts show"
    ran = subprocess.run(["node", str(ROOT / "tests" / "grid_parse.mjs")], input=json.dumps(jobs), capture_output=True, text=True, check=True)
    for (name, texts, ours), theirs in zip(expected, json.loads(ran.stdout), strict=True):
        for text, mine, page in zip(texts, ours, theirs, strict=True):
            # What the page writes for a map it read (its editor's text) reads as the same map,
            # a cell's marks and labels in the grid's order.
            again = page.pop("again", None)
            assert page == mine, f"{name}: {text!r}"
            if again is not None:
                assert _cells(again) == _cells(page["parsed"]), f"{name}: {text!r} written again"


def _cells(parsed: dict) -> tuple:
    return (sorted(parsed["edges"]), [[(c["state"], sorted(c["marks"]), sorted(c["labels"])) for c in row] for row in parsed["rows"]])


def test_a_grammar_the_parsers_cannot_follow_is_refused():
    for change, says in [
        (lambda g: g["read"]["row"][""].update(mark=True), "not before a row's first state"),
        (lambda g: g["read"]["row"]["state"].update(other=True), "does not name"),
        (lambda g: g["messages"].pop("ragged"), "every refusal has a message"),
        (lambda g: g["messages"].update(spare="never said"), "every refusal has a message"),
        (lambda g: g["messages"].update(empty="the map is {blank}"), "its words"),
        (lambda g: g["messages"].update(too_many_rows="row {row} is one too many"), "its words"),
        (lambda g: g["counts"][3].update(within="cell"), "at most once"),
        (lambda g: g["counts"][2].update(within="cell"), "its words"),
        (lambda g: g["counts"][0].update(most="max"), "a mark's own"),
        (lambda g: g["sizes"][0].update(bound="max_cells"), "bound is a number"),
    ]:
        grammar = copy.deepcopy(GRAMMAR)
        change(grammar)
        with pytest.raises(ValueError, match=says):
            check_grammar(grammar)
