"""The typed answer's types are generated from its one declaration, the schema.

scripts/build/answer_types.py writes rules_py/answer/shapes.py (Python) and
types/answer.d.ts (TypeScript) from rules_py/data/answer.schema.json; make
check runs it with --check, mypy and tsc. Here: the files are what the schema
gives, a schema keyword the generator does not read is refused (so nothing in
the schema goes untyped), and an optional key is optional on both sides.
"""

from __future__ import annotations

import json

import pytest
from scripts.build.answer_types import PYTHON, SCHEMA, TYPESCRIPT, generate


def test_the_generated_types_are_what_the_schema_gives():
    python, typescript = generate(json.loads(SCHEMA.read_text(encoding="utf-8")))
    assert PYTHON.read_text(encoding="utf-8") == python, "run python -m scripts.build.answer_types"
    assert TYPESCRIPT.read_text(encoding="utf-8") == typescript, "run python -m scripts.build.answer_types"


def _schema(**node):
    return {"$id": "x", "$defs": {"thing": {"type": "object", "required": ["a"], "properties": {"a": {"type": "string"}, **node}, "additionalProperties": False}}}


def test_a_key_outside_required_is_optional_on_both_sides():
    python, typescript = generate(_schema(b={"oneOf": [{"type": "null"}, {"type": "integer"}]}))
    assert "    a: str\n    b: NotRequired[int | None]\n" in python
    assert "  a: string;\n  b?: number | null;\n" in typescript


@pytest.mark.parametrize("node", [{"b": {"anyOf": [{"type": "string"}]}}, {"b": {"type": "object", "properties": {"c": {"type": "string"}}}}, {"b": {"$ref": "#/$defs/nowhere"}}])
def test_what_the_generator_cannot_type_is_refused(node):
    with pytest.raises(SystemExit):
        generate(_schema(**node))
