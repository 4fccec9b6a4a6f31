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

from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, Mapping

from .answer import SCHEMA_ID, OddsAnswer
from .answer.wording import odds_headline
from .calculator import Calculator, Field, InputError, quoted
from .formats import decimal, format_probability, format_value, input_label, percent, signed
from .registry import get

if TYPE_CHECKING:
    from .answer import shapes


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


def _field(calc: Calculator, name: str) -> Field:
    try:
        return calc.field(name)
    except KeyError:
        known = ", ".join(f.name for f in calc.fields) or "no inputs"
        raise InputError(f"cannot sweep {quoted(name)}: {calc.id} takes {known}", "sweep") from None


def sweep_odds(calc: Calculator, raw: Mapping[str, Any] | None, name: str, values: list[str] | None = None) -> tuple[dict[str, Any], list[tuple[str, OddsAnswer | InputError]]]:
    """The core of every sweep: the other inputs (validated) and, for each
    value of ``name`` (every value it allows, or the ``values`` given, in that
    order), the answer at that value, or the InputError its own check gives.
    The CLI's sweep, the typed sweep and the sheets' grids are made from it."""
    raw = dict(raw or {})
    field = _field(calc, name)
    if name in raw:
        raise InputError(f"{name} is swept: give the other inputs only", name)
    values = values_of(field) if values is None else [format_value(field.parse(v)) for v in values]
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
        assert refused is not None  # every value refused: the first refusal says why
        raise refused
    rows: list[tuple[str, OddsAnswer | InputError]] = []
    for value in values:
        try:
            rows.append((value, OddsAnswer.of(calc, {**raw, name: value})))
        except InputError as e:
            rows.append((value, e))
    return {k: v for k, v in others.items() if k != name}, rows


def sweep(calculator_id: str, inputs: Mapping[str, Any] | None, name: str) -> dict[str, Any]:
    """The odds at every value of input ``name``, the other inputs as given."""
    calc = get(calculator_id)
    others, rows = sweep_odds(calc, inputs, name)
    return {
        "calculator": calc.id,
        "sweep": name,
        "inputs": {k: format_value(v) for k, v in others.items()},
        "values": [{"value": v, "error": str(a)} if isinstance(a, InputError) else {"value": v, "outcomes": a.cli()["outcomes"]} for v, a in rows],
    }


TARGETS = (Fraction(1, 2), Fraction(3, 4), Fraction(9, 10))  # the chances "what it takes" names


def sweep_answer(calculator_id: str, inputs: Mapping[str, Any] | None, name: str) -> shapes.SweepAnswer:
    """The typed sweep the page draws ("How it changes"): the calculator's
    headline outcome at every value of ``name`` (its chance of yes, or for a
    number its average), each row's text and bar, and ``reaches``: for a
    chance, for 50 %, 75 % and 90 %, the first value in the schema's order at
    which the chance reaches it (its value None if none does), so that a page
    can say what it takes; None for an average or a likeliest value, which
    reach no chance."""
    calc = get(calculator_id)
    field = _field(calc, name)
    others, rows = sweep_odds(calc, inputs, name)
    answers = [a for _, a in rows if not isinstance(a, InputError)]
    if not answers:
        raise InputError(f"no value of {name} is allowed with these inputs", "sweep")
    heads = answers[0].headline()
    chosen = next((h for h in heads if h.outcome.type == "bool"), heads[0])
    outcome = chosen.outcome
    measure: Literal["chance", "mean", "likeliest"] = "chance" if outcome.type == "bool" else "mean" if outcome.type == "int" else "likeliest"
    numbers: list[Fraction | None] = []
    for _, a in rows:
        if isinstance(a, InputError):
            numbers.append(None)
            continue
        odds = a.outcome(outcome.name)
        numbers.append(odds.p(True) if measure == "chance" else odds.mean if measure == "mean" else None)
    # Bars: a chance on its own scale of 0-100 %, an average on the largest one's.
    top = 1 if measure == "chance" else max((abs(x) for x in numbers if x is not None), default=0)
    points: list[shapes.SweepRow] = []
    for (value, a), x in zip(rows, numbers):
        label = input_label(field, field.parse(value))
        bar = None if x is None or not top else decimal(abs(x) / top * 100, 2)
        if isinstance(a, InputError):
            points.append({"value": value, "label": label, "error": str(a), "number": None, "text": None, "bar": bar})
        elif x is None:
            points.append({"value": value, "label": label, "number": None, "text": odds_headline(a.outcome(outcome.name)), "bar": bar})
        elif measure == "chance":
            points.append({"value": value, "label": label, "number": format_probability(x), "text": percent(x), "bar": bar})
        else:
            points.append({"value": value, "label": label, "number": signed(x), "text": decimal(x, 2), "bar": bar})
    reaches: list[shapes.Reach] | None = None
    if measure == "chance":
        reaches = []
        for target in TARGETS:
            first = next((row for row, x in zip(points, numbers) if x is not None and x >= target), None)
            reaches.append({
                "target": format_probability(target), "target_percent": percent(target),
                "value": first["value"] if first else None, "label": first["label"] if first else None,
                "text": f"{percent(target)} {outcome.label.lower()}: {field.label} {first['label']}" if first
                else f"{percent(target)} {outcome.label.lower()}: no value of {field.label.lower()} reaches it",
            })  # fmt: skip
    return {
        "schema": SCHEMA_ID,
        "kind": "sweep",
        "calculator": calc.id,
        "title": calc.title,
        "sweep": name,
        "sweep_label": field.label,
        "inputs": {k: format_value(v) for k, v in others.items()},
        "outcome": {"name": outcome.name, "label": outcome.label, "type": outcome.type},
        "measure": measure,
        "values": points,
        "reaches": reaches,
        "summary": f"{outcome.label} by {field.label.lower()}: " + "; ".join(f"{r['label']} {r['text']}" for r in points if r["text"]),
    }
