"""The engine's operations as the page asks for them (Engine.call, docs/assets/calc/protocol.mjs).

Each operation is named after the kind of typed answer it gives and is sent to
rules_py.call_json as the request written out by hand here: its answer in the
page is call_json's for that request, field for field, and of the kind asked
for. An answer of another kind than asked is the engine's fault, and the page
is given a refusal that says so instead (engine.mjs, answers()), never an
answer of the wrong shape. tsc holds the callers to the same contract
(tests/types/engine_calls.mjs).
"""

from __future__ import annotations

import json

import pytest

import rules_py

pytestmark = [pytest.mark.browser, pytest.mark.site]

CALC = "chq-comms-check"
INPUTS = {"nation": "soviet", "boosts": "1"}


def call_json(**request) -> dict:
    return json.loads(rules_py.call_json(json.dumps(request)))


def test_each_operation_is_call_jsons_answer_of_its_own_kind(tab):
    tab.goto(f"calculators/{CALC}/")
    tab.calculator(CALC)
    got = tab.page.evaluate(
        """async ([id, inputs]) => {
            const e = fireMissionEngine;
            const asked = [
                ["odds", { id, inputs }],
                ["roll", { id, inputs, seed: "7" }],
                ["resolve", { id, inputs, dice: "4,5,6,1" }],
                ["sweep", { id, inputs: { nation: "soviet" }, sweep: "boosts", sweep_of: "success" }],
                ["compare", { id, inputs, vs: { nation: "germany" } }],
            ];
            const out = [];
            for (const [op, options] of asked) out.push((await e.call(op, options)).answer);
            return out;
        }""",
        [CALC, INPUTS],
    )
    want = [
        call_json(op="answer", id=CALC, inputs=INPUTS),
        call_json(op="answer", id=CALC, inputs=INPUTS, seed="7"),
        call_json(op="answer", id=CALC, inputs=INPUTS, dice="4,5,6,1"),
        call_json(op="answer", id=CALC, inputs={"nation": "soviet"}, sweep="boosts", sweep_of="success"),
        call_json(op="compare", id=CALC, inputs=INPUTS, vs={"nation": "germany"}),
    ]
    assert [w["kind"] for w in want] == ["odds", "roll", "resolve", "sweep", "compare"]
    assert got == want


def test_a_refusal_comes_as_the_engines_and_an_answer_of_another_kind_as_its_fault(tab):
    tab.goto(f"calculators/{CALC}/")
    tab.calculator(CALC)
    got = tab.page.evaluate(
        """async (id) => {
            const e = fireMissionEngine;
            return [
                (await e.call("roll", { id, inputs: {}, seed: "" })).answer,
                // a sweep of no input, with no outcome named: call_json gives the odds, not a sweep
                (await e.call("sweep", { id, inputs: {}, sweep: null })).answer,
            ];
        }""",
        CALC,
    )
    assert got[0] == call_json(op="answer", id=CALC, inputs={}, seed="") and "error" in got[0]
    assert call_json(op="answer", id=CALC, inputs={}, sweep=None)["kind"] == "odds"
    assert got[1] == {"error": "the engine answered a request for sweep with something else", "fields": [], "internal": True}
