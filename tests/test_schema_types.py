"""The engine's contracts with the page are declared once each, and their types generated.

scripts/build/schema_types.py writes, from rules_py/data/answer.schema.json, the
typed answer's types (rules_py/answer/shapes.py and types/answer.d.ts), and from
rules_py/data/calculator.schema.json those of calculators.json and the engine's
refusals (rules_py/calculator_shapes.py and types/calculator.d.ts); make check
runs it with --check, mypy and tsc. Here: the files are what their schemas give,
a schema keyword the generator does not read is refused (so nothing in a schema
goes untyped), an optional key is optional on both sides; and what the engine
really gives, every calculator's schema (calculators.json as the build writes
it) and its refusals, is what calculator.schema.json declares.
"""

from __future__ import annotations

import json

import jsonschema
import pytest
from scripts.build.schema_types import CALCULATORS, CONTRACTS, generate

import rules_py
from rules_py import calculators
from rules_py.calculator import FIELD_TYPES, OUTCOME_TYPES

CALCULATOR_SCHEMA = json.loads(CALCULATORS.schema.read_text(encoding="utf-8"))


def _validator(definition: str) -> jsonschema.Draft202012Validator:
    """A validator of one $defs entry of calculator.schema.json."""
    return jsonschema.Draft202012Validator({**CALCULATOR_SCHEMA, "$ref": f"#/$defs/{definition}"})


@pytest.mark.parametrize("contract", CONTRACTS, ids=lambda c: c.schema.name)
def test_the_generated_types_are_what_the_schema_gives(contract):
    python, typescript = contract.generate()
    assert contract.python.read_text(encoding="utf-8") == python, "run python -m scripts.build.schema_types"
    assert contract.typescript.read_text(encoding="utf-8") == typescript, "run python -m scripts.build.schema_types"


def _schema(**node):
    return {"$id": "x", "$defs": {"thing": {"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}, **node}, "additionalProperties": False}}}


def test_a_key_outside_required_is_optional_on_both_sides():
    python, typescript = generate(_schema(b={"oneOf": [{"type": "null"}, {"type": "integer"}]}))
    assert "    a: str\n    b: NotRequired[int | None]\n" in python
    assert "  a: string;\n  b?: number | null;\n" in typescript


def test_a_constant_true_is_pythons_true_and_javascripts_true():
    python, typescript = generate(_schema(b={"const": True}))
    assert "    b: NotRequired[Literal[True]]\n" in python
    assert "  b?: true;\n" in typescript


@pytest.mark.parametrize("node", [{"b": {"anyOf": [{"type": "string"}]}}, {"b": {"type": "object", "properties": {"c": {"type": "string"}}}}, {"b": {"$ref": "#/$defs/nowhere"}}])
def test_what_the_generator_cannot_type_is_refused(node):
    with pytest.raises(SystemExit):
        generate(_schema(**node))


def test_the_schemas_are_json_schemas():
    for contract in CONTRACTS:
        jsonschema.Draft202012Validator.check_schema(json.loads(contract.schema.read_text(encoding="utf-8")))


def test_calculators_json_is_what_the_schema_declares():
    """calculators.json as scripts/build/build_pages.py writes it: every calculator's Calculator.schema()."""
    written = json.loads(json.dumps([c.schema() for c in calculators()]))
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in _validator("calculators").iter_errors(written)]
    assert not errors, errors
    # The kinds of field and outcome it declares are the ones rules_py.calculator takes.
    assert tuple(CALCULATOR_SCHEMA["$defs"]["field_schema"]["properties"]["type"]["enum"]) == FIELD_TYPES
    assert tuple(CALCULATOR_SCHEMA["$defs"]["outcome_schema"]["properties"]["type"]["enum"]) == OUTCOME_TYPES


def test_a_key_the_schema_does_not_declare_is_refused():
    """The check above can fail: one more key on a field, or a field without its help, breaks it."""
    entry = json.loads(json.dumps(calculators()[0].schema()))
    entry["fields"][0]["hint"] = "not declared"
    assert not _validator("calculator_schema").is_valid(entry)
    del entry["fields"][0]["hint"], entry["fields"][0]["help"]
    assert not _validator("calculator_schema").is_valid(entry)


@pytest.mark.parametrize(
    "request_",
    [
        "{",  # not JSON
        "[]",  # not an object
        {"op": "odds", "id": "chq-comms-check", "inputs": {"nation": "atlantis"}},  # one input's refusal
        {"op": "odds", "id": "chq-comms-check", "inputs": {"nation": "soviet", "nonsense": "1"}},
        {"op": "odds", "id": "no-such-calculator"},
        {"op": "answer", "id": "chq-comms-check", "seed": "1", "dice": "1"},
        {"op": "no-such-op", "id": "chq-comms-check"},
    ],
)
def test_every_refusal_is_an_engine_error(request_):
    text = request_ if isinstance(request_, str) else json.dumps(request_)
    answer = json.loads(rules_py.call_json(text))
    assert "error" in answer, answer
    errors = [e.message for e in _validator("engine_error").iter_errors(answer)]
    assert not errors, (answer, errors)
