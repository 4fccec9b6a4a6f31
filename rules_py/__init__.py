"""Fire Mission's rules engine: exact odds and seeded rolls for WWII wargame rules.

Standard library only; runs on CPython 3.11+ and on Pyodide.

    >>> import rules_py
    >>> rules_py.odds("chq-comms-check", {"nation": "soviet"})["outcomes"]["success"]["true"]
    '11/32'

The three JSON-shaped functions below are what the CLI prints and what any
other front end (the site's Web Worker included) calls; they take raw string
or Python values and raise :class:`InputError` on bad input.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from .calculator import Calculator, InputError
from .registry import calculators, get

__all__ = ["Calculator", "InputError", "calculators", "get", "odds", "roll", "schema", "describe", "call_json"]


def odds(calculator_id: str, inputs: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Exact odds of every outcome, as the CLI's ``odds`` prints them."""
    return get(calculator_id).odds(inputs).to_dict()


def roll(calculator_id: str, seed: int, inputs: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """One seeded roll with every die shown, as the CLI's ``roll`` prints it."""
    return get(calculator_id).roll(seed, inputs).to_dict()


def describe(answer: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The outcomes of an odds or roll answer, as in the schema, in order.

    Each has ``"order"``: the values of an odds answer in the CLI's display
    order (for a roll, the one value rolled).
    """
    calc = get(answer["calculator"])
    inputs = calc.validate(answer["inputs"])
    out = []
    for outcome in calc.outcomes_for(inputs):
        entry = outcome.schema()
        got = answer["outcomes"][outcome.name]
        entry["order"] = list(got) if isinstance(got, Mapping) else [got]
        out.append(entry)
    return out


def schema() -> list[dict[str, Any]]:
    """Every calculator's input schema and outcomes."""
    return [c.schema() for c in calculators()]


def call_json(request: str) -> str:
    """One JSON request in, one JSON answer out; never raises.

    Request: ``{"op": "odds"|"roll"|"schema", "id": ..., "inputs": {...}, "seed": N}``.
    Answer: the CLI's object, or ``{"error": ..., "fields": [{"field", "message"}]}``.

    With ``"describe": true`` an odds or roll answer also carries
    ``"described"``: the outcomes for these inputs (they may depend on them),
    each as in the schema plus ``"order"``, its values in display order. A JSON
    parser that does not keep key order (JavaScript puts "0" before "-1") can
    rebuild the CLI's order from it.
    """
    try:
        req = json.loads(request)
        if not isinstance(req, dict):
            raise InputError("a request must be a JSON object")
        op = req.get("op")
        inputs = req.get("inputs") or {}
        if not isinstance(inputs, dict):
            raise InputError("inputs must be an object")
        if op == "odds":
            answer: Any = odds(str(req.get("id")), inputs)
        elif op == "roll":
            answer = roll(str(req.get("id")), _seed(req.get("seed")), inputs)
        elif op == "schema":
            answer = schema()
        else:
            raise InputError(f"unknown op {op!r}")
        if req.get("describe") is True and op in ("odds", "roll"):
            answer["described"] = describe(answer)
    except InputError as e:
        answer = e.to_dict()
    except json.JSONDecodeError as e:
        answer = {"error": f"not JSON: {e}", "fields": []}
    return json.dumps(answer)


def _seed(raw: Any) -> int:
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and raw.strip().isdigit() and len(raw.strip()) <= 19:
        return int(raw)
    raise InputError(f"{raw!r} is not allowed: expected a whole number of at least 0", "seed")
