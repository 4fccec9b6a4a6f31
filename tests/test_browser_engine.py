"""What the browser's engine is given: call_json's "describe" answers.

The Python side of the contract that docs/assets/calc/ relies on, checked in
CPython on every registered calculator; it needs neither a built site nor a
browser (the wheel the browser unpacks is checked in test_wheel.py).
"""

from __future__ import annotations

import json

import pytest

import rules_py

CALCS = rules_py.calculators()
IDS = [c.id for c in CALCS]


def call(**request) -> dict:
    return json.loads(rules_py.call_json(json.dumps(request)))


def test_describe_keeps_the_clis_order_that_javascript_objects_lose():
    # Soviet Union, no boosts: 3 comms dice against 3, margin from -3 to 3. JSON.parse would
    # put "0", "1", "2", "3" (array-index keys) before "-3", "-2", "-1"; "order" keeps the CLI's.
    answer = call(op="odds", id="chq-comms-check", inputs={"nation": "soviet"}, describe=True)
    margin = next(d for d in answer["described"] if d["name"] == "margin")
    assert margin["order"] == ["-3", "-2", "-1", "0", "1", "2", "3"]
    assert margin["type"] == "int" and margin["label"] == "Margin"
    success = next(d for d in answer["described"] if d["name"] == "success")
    assert success["order"] == ["false", "true"]
    # P(success) = P(Bin(3,1/2) > Bin(3,1/2)) = (1 - P(tie)) / 2 = (1 - 20/64) / 2 = 11/32
    assert answer["outcomes"]["success"] == {"false": "21/32", "true": "11/32"}


def test_without_describe_the_answer_is_the_clis():
    assert "described" not in call(op="odds", id="chq-comms-check")
    assert call(op="odds", id="chq-comms-check") == rules_py.odds("chq-comms-check")


@pytest.mark.parametrize("calc", CALCS, ids=IDS)
def test_describe_lists_every_outcome_and_value_in_order(calc):
    for raw in ({}, *calc.examples):
        answer = call(op="odds", id=calc.id, inputs=raw, describe=True)
        assert [d["name"] for d in answer["described"]] == list(answer["outcomes"])
        for d in answer["described"]:
            assert d["order"] == list(answer["outcomes"][d["name"]])
        rolled = call(op="roll", id=calc.id, inputs=raw, seed=7, describe=True)
        assert [d["name"] for d in rolled["described"]] == list(rolled["outcomes"])
        assert all(d["order"] == [rolled["outcomes"][d["name"]]] for d in rolled["described"])


def test_errors_are_not_described():
    answer = call(op="odds", id="chq-comms-check", inputs={"boosts": "-1"}, describe=True)
    assert set(answer) == {"error", "fields"}
    assert answer["fields"][0]["field"] == "boosts"
