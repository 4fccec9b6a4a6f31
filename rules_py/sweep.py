"""How the odds change: one input swept over every value it allows, the others as given.

``sweep(calculator_id, inputs, name)`` gives, for each value of input
``name`` in the schema's order (a whole number over its range, every choice,
a yes/no as false then true), the outcomes exactly as ``odds`` prints them at
that value. It is what ``python -m rules_py odds ID [name=value ...] --sweep
NAME`` prints::

    {"calculator": ID, "sweep": NAME, "inputs": {the other inputs},
     "values": [{"value": "1", "outcomes": {...}}, ...]}

Only inputs with a finite list of values can be swept: an int with both
bounds, a choice, a bool. A map (or any other input) is refused, as is a name
the calculator does not take. A value the calculator refuses together with
the other inputs (its own check) is listed with that ``error`` instead of
outcomes, so the list still has every value.
"""

from __future__ import annotations

from typing import Any, Mapping

from .answer import OddsAnswer
from .calculator import Field, InputError, quoted
from .formats import format_value
from .registry import get


def values_of(field: Field) -> list[str]:
    """Every value an input allows, in the schema's order, as text."""
    if field.type == "bool":
        return ["false", "true"]
    if field.type == "choice":
        return [c.name for c in field.choices]
    if field.type == "int" and field.minimum is not None and field.maximum is not None:
        return [str(n) for n in range(int(field.minimum), int(field.maximum) + 1)]
    what = "a map" if field.type == "map" else f"a {field.type} without a finite range"
    raise InputError(f"cannot sweep {quoted(field.name)}: it is {what}; sweep a whole number with bounds, a choice or a yes/no", "sweep")


def sweep(calculator_id: str, inputs: Mapping[str, Any] | None, name: str) -> dict[str, Any]:
    """The odds at every value of input ``name``, the other inputs as given."""
    calc = get(calculator_id)
    raw = dict(inputs or {})
    try:
        field = calc.field(name)
    except KeyError:
        known = ", ".join(f.name for f in calc.fields) or "no inputs"
        raise InputError(f"cannot sweep {quoted(name)}: {calc.id} takes {known}", "sweep") from None
    if name in raw:
        raise InputError(f"{name} is swept: give the other inputs only", name)
    values = values_of(field)
    # The other inputs' errors, once, before any odds: refused with every
    # value, they are the inputs' own; refused with some, the rows say so.
    others, refused = None, None
    for value in values:
        try:
            others = calc.validate({**raw, name: value})
            break
        except InputError as e:
            refused = refused or e
    if others is None:
        raise refused
    rows = []
    for value in values:
        try:
            outcomes = OddsAnswer.of(calc, {**raw, name: value}).cli()["outcomes"]
        except InputError as e:
            rows.append({"value": value, "error": str(e)})
            continue
        rows.append({"value": value, "outcomes": outcomes})
    return {
        "calculator": calc.id,
        "sweep": name,
        "inputs": {k: format_value(v) for k, v in others.items() if k != name},
        "values": rows,
    }


def split_sweep(args: list[str]) -> tuple[str | None, list[str]]:
    """``--sweep NAME`` (or ``--sweep=NAME``, at most once) and the other arguments."""
    name: str | None = None
    others: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--sweep" or arg.startswith("--sweep="):
            if arg == "--sweep":
                if i + 1 >= len(args) or args[i + 1].startswith("--"):
                    raise InputError("--sweep needs an input's name", "sweep")
                value = args[i + 1]
                i += 1
            else:
                value = arg.split("=", 1)[1]
            if name is not None:
                raise InputError("--sweep given twice: sweep one input", "sweep")
            if not value:
                raise InputError("--sweep needs an input's name", "sweep")
            name = value
        else:
            others.append(arg)
        i += 1
    return name, others
