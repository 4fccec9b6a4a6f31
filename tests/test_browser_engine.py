"""What the browser's engine is given: call_json's typed answers.

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


@pytest.mark.parametrize("calc", CALCS, ids=IDS)
def test_the_worker_gets_the_typed_answer(calc):
    # The page renders the typed answer as it comes (tests/test_answer.py checks its numbers).
    for raw in ({}, *calc.examples):
        assert call(op="answer", id=calc.id, inputs=raw) == rules_py.answer(calc.id, raw)
        assert call(op="answer", id=calc.id, inputs=raw, seed="7") == rules_py.answer(calc.id, raw, 7)


def test_errors_name_their_field():
    answer = call(op="answer", id="chq-comms-check", inputs={"boosts": "-1"})
    assert set(answer) == {"error", "fields"}
    assert answer["fields"][0]["field"] == "boosts"
