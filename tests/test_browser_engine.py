"""What the browser's engine is given: call_json's typed answers.

The Python side of the contract that docs/assets/calc/ relies on, checked in
CPython on every registered calculator; it needs neither a built site nor a
browser (the wheel the browser unpacks is checked in test_wheel.py).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import jsonschema
import pytest

import rules_py

CALCS = rules_py.calculators()
IDS = [c.id for c in CALCS]
VALIDATOR = jsonschema.Draft202012Validator(json.loads((Path(rules_py.__file__).parent / "data" / "answer.schema.json").read_text()))


def call(**request) -> dict:
    return json.loads(rules_py.call_json(json.dumps(request)))


@pytest.mark.parametrize("calc", CALCS, ids=IDS)
def test_the_worker_gets_whole_typed_answers(calc):
    # Through call_json, as the worker calls it: every answer meets the schema,
    # each outcome's chances add up to exactly 1 (by Fraction arithmetic here),
    # and a roll names the seed it was given (tests/test_answer.py checks the numbers).
    for raw in ({}, *calc.examples):
        doc = call(op="answer", id=calc.id, inputs=raw)
        VALIDATOR.validate(doc)
        assert doc["kind"] == "odds" and doc["inputs"] == {k: v for k, v in doc["inputs"].items() if k in {f.name for f in calc.fields}}
        for o in doc["outcomes"]:
            if o["kind"] == "distribution":
                assert sum(Fraction(v["p"]) for v in o["values"]) == 1, (calc.id, raw, o["name"])
        rolled = call(op="answer", id=calc.id, inputs=raw, seed="7")
        VALIDATOR.validate(rolled)
        assert rolled["kind"] == "roll" and rolled["seed"] == "7" and "--seed 7" in rolled["command"]


def test_the_worker_gets_hand_worked_odds():
    # Soviet comms: 3 comms dice against 3 opposing dice, each on 4+ (1/2): the
    # check succeeds when the comms dice score more, P = (1 - P(tie)) / 2 with
    # P(tie) = sum_k C(3,k)^2 / 64 = 20/64, so (44/64) / 2 = 11/32.
    doc = call(op="answer", id="chq-comms-check", inputs={"nation": "soviet"})
    success = next(o for o in doc["outcomes"] if o["name"] == "success")
    yes = next(v for v in success["values"] if v["value"] == "true")
    assert (yes["p"], yes["percent"]) == ("11/32", "34.4%")


def test_a_roll_through_the_worker_follows_its_faces():
    # Whatever the seed, the outcome is what the faces shown decide: successes
    # are the faces of 4 or more, and the check succeeds when the comms dice
    # have more of them than the opposing dice (margin: the difference, signed).
    for seed in range(20):
        doc = call(op="answer", id="chq-comms-check", inputs={"nation": "soviet"}, seed=str(seed))
        comms, opposing = ([f["face"] for f in die["faces"]] for die in doc["dice"])
        hits = sum(f >= 4 for f in comms) - sum(f >= 4 for f in opposing)
        outcome = {o["name"]: o["value"] for o in doc["outcomes"]}
        assert outcome == {"success": "true" if hits > 0 else "false", "margin": str(hits)}, (seed, comms, opposing)


def test_errors_name_their_field():
    answer = call(op="answer", id="chq-comms-check", inputs={"boosts": "-1"})
    assert set(answer) == {"error", "fields"}
    assert answer["fields"][0]["field"] == "boosts"
