"""How the odds change: one input swept over every value it allows, the others as given.

``sweep(calculator_id, inputs, name)`` gives, for each value of input
``name`` in the schema's order (a whole number over its range, every choice,
a yes/no as false then true), the outcomes exactly as ``odds`` prints them at
that value. It is what ``python -m rules_py odds ID [name=value ...] --sweep
NAME`` prints::

    {"calculator": ID, "sweep": NAME, "inputs": {the other inputs},
     "values": [{"value": "1", "outcomes": {...}}, ...]}

With ``of=OUTCOME`` (``--sweep NAME --of OUTCOME``; ``sweep_of`` in a link
and in a request) the sweep is about that outcome alone: ``"of": OUTCOME``
follows ``"sweep"`` and each value's ``outcomes`` holds that outcome only.
Without it, every outcome (the CLI's sweep) or the headline's (the typed
sweep, :func:`sweep_answer`), as before ``of`` existed.

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
from .calculator import Calculator, Field, InputError, Outcome, quoted
from .formats import decimal, format_probability, format_value, input_label, percent, signed
from .registry import get

if TYPE_CHECKING:
    from .answer import shapes
    from .answer.outcome_odds import OutcomeOdds


def values_of(field: Field) -> list[str]:
    """Every value an input allows, in the schema's order, as text: only an input
    with a finite list of them (Field.sweepable, which the schema tells the page)."""
    if not field.sweepable:
        what = "a map" if field.type == "map" else f"a {field.type} without a finite range"
        raise InputError(f"cannot sweep {quoted(field.name)}: it is {what}; sweep a whole number with bounds, a choice or a yes/no", "sweep")
    if field.type == "bool":
        return ["false", "true"]
    if field.type == "choice":
        return [c.name for c in field.choices]
    assert field.minimum is not None and field.maximum is not None  # a sweepable int has both bounds
    return [str(n) for n in range(int(field.minimum), int(field.maximum) + 1)]


def _field(calc: Calculator, name: str) -> Field:
    try:
        return calc.field(name)
    except KeyError:
        known = ", ".join(f.name for f in calc.fields) or "no inputs"
        what = f"cannot sweep {quoted(name)}" if name else "a sweep needs an input's name"
        raise InputError(f"{what}: {calc.id} takes {known}", "sweep") from None


def outcome_named(calc: Calculator, answer: OddsAnswer | None, of: str) -> Outcome:
    """The outcome ``of`` names: one of the calculator's (for a calculator
    whose outcomes depend on its inputs, one of ``answer``'s, which it then
    needs), else an InputError on ``sweep_of`` that names them all."""
    known = [o.outcome for o in answer.outcomes] if answer is not None else [] if callable(calc.outcomes) else list(calc.outcomes)
    found = next((o for o in known if o.name == of), None)
    if found is None:
        names = ", ".join(o.name for o in known) or "none"
        raise InputError(f"cannot sweep the odds of {quoted(of)}: the outcomes of {calc.id} are {names}", "sweep_of")
    return found


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


def _of(answer: OddsAnswer, name: str) -> OutcomeOdds | None:
    """The odds of outcome ``name`` in one row's answer (None where the row has no such outcome)."""
    return next((o for o in answer.outcomes if o.outcome.name == name), None)


def sweep(calculator_id: str, inputs: Mapping[str, Any] | None, name: str, of: str | None = None) -> dict[str, Any]:
    """The odds at every value of input ``name``, the other inputs as given:
    of every outcome, or with ``of`` of that outcome only."""
    calc = get(calculator_id)
    if of is not None and not callable(calc.outcomes):
        outcome_named(calc, None, of)  # refused before any odds are worked out
    others, rows = sweep_odds(calc, inputs, name)
    answers = [a for _, a in rows if not isinstance(a, InputError)]
    if of is not None and answers:
        outcome_named(calc, answers[0], of)

    def outcomes(a: OddsAnswer) -> dict[str, Any]:
        every: dict[str, Any] = a.cli()["outcomes"]
        return every if of is None else {of: every[of]} if of in every else {}

    return {
        "calculator": calc.id,
        "sweep": name,
        **({} if of is None else {"of": of}),
        "inputs": {k: format_value(v) for k, v in others.items()},
        "values": [{"value": v, "error": str(a)} if isinstance(a, InputError) else {"value": v, "outcomes": outcomes(a)} for v, a in rows],
    }


TARGETS = (Fraction(1, 2), Fraction(3, 4), Fraction(9, 10))  # the chances "what it takes" names


def sweep_answer(calculator_id: str, inputs: Mapping[str, Any] | None, name: str, of: str | None = None) -> shapes.SweepAnswer:
    """The typed sweep the page draws ("How it changes"): one outcome at
    every value of ``name``, each row's text and bar, and what it takes.

    The outcome is ``of`` (``--of``, ``sweep_of``), or else the calculator's
    headline: its first yes/no outcome, or its first outcome. What is swept of
    it is what a player asks of that kind of outcome:

    * a yes/no: its chance of yes ("Driven off 0.14%");
    * a number: its average, the row's number, text and bar (on the largest
      average's scale), as "how many hits, on average" is the first question;
      and, where the number can be 0 or less in some row, its chance of at
      least 1 (``at_least_one``: "will the strike hit at all"), as an average
      cannot tell a sure 2 from a 1 in 5 chance of 10. A number that is at
      least 1 in every row (a morale score, a turn) has no such chance: it
      would read 100% throughout (``at_least_one`` null);
    * a choice: its likeliest value (no number, no bar).

    ``reaches`` says what it takes, for 50 %, 75 % and 90 %: the first value
    in the schema's order at which the chance (of yes, or of at least 1)
    reaches it (its value None if none does); None for a choice and for a
    number without a chance of at least 1, which reach no chance. Where the
    chance falls as the value goes on (never rising, and lower at the end: more
    cover, fewer suppressed), every value up to some point reaches a target,
    and the first would always be the first value: what it takes is then the
    last value at which the chance still reaches it ("Cover up to Light
    cover (1D)")."""
    calc = get(calculator_id)
    field = _field(calc, name)
    if of is not None and not callable(calc.outcomes):
        outcome_named(calc, None, of)  # refused before any odds are worked out
    others, rows = sweep_odds(calc, inputs, name)
    answers = [a for _, a in rows if not isinstance(a, InputError)]
    if not answers:
        raise InputError(f"no value of {name} is allowed with these inputs", "sweep")
    if of is None:
        heads = answers[0].headline()
        outcome = next((h for h in heads if h.outcome.type == "bool"), heads[0]).outcome
    else:
        outcome = outcome_named(calc, answers[0], of)
    measure: Literal["chance", "mean", "likeliest"] = "chance" if outcome.type == "bool" else "mean" if outcome.type == "int" else "likeliest"
    found: list[OutcomeOdds | None] = [None if isinstance(a, InputError) else _of(a, outcome.name) for _, a in rows]
    numbers = [None if odds is None else odds.p(True) if measure == "chance" else odds.mean if measure == "mean" else None for odds in found]
    # A number's chance of at least 1, kept only where some row can fall short of 1.
    at_least = [None if odds is None else odds.at_least(1) for odds in found] if measure == "mean" else []
    if not any(x is not None and x < 1 for x in at_least):
        at_least = []
    chances = numbers if measure == "chance" else at_least
    # Bars: a chance on its own scale of 0-100 %, an average on the largest one's.
    top = 1 if measure == "chance" else max((abs(x) for x in numbers if x is not None), default=0)
    points: list[shapes.SweepRow] = []
    for i, ((value, a), x, odds) in enumerate(zip(rows, numbers, found)):
        label = input_label(field, field.parse(value))
        bar = None if x is None or not top else decimal(abs(x) / top * 100, 2)
        if isinstance(a, InputError) or odds is None:
            error = str(a) if isinstance(a, InputError) else f"no {outcome.label.lower()} with {field.label.lower()} {label}"
            point: shapes.SweepRow = {"value": value, "label": label, "error": error, "number": None, "text": None, "bar": bar}
        elif x is None:
            point = {"value": value, "label": label, "number": None, "text": odds_headline(odds), "bar": bar}
        elif measure == "chance":
            point = {"value": value, "label": label, "number": format_probability(x), "text": percent(x), "bar": bar}
        else:
            point = {"value": value, "label": label, "number": signed(x), "text": decimal(x, 2), "bar": bar}
        if at_least:
            chance = at_least[i]
            point["at_least_one"] = None if chance is None else {"number": format_probability(chance), "text": percent(chance)}
        points.append(point)
    what = outcome.label.lower() if measure == "chance" else f"{outcome.label.lower()} at least 1"
    reaches: list[shapes.Reach] | None = None
    if chances:
        reaches = []
        known = [x for x in chances if x is not None]
        falling = bool(known) and known[0] > known[-1] and all(a >= b for a, b in zip(known, known[1:]))
        order = list(zip(points, chances))
        for target in TARGETS:
            found_at = next((row for row, x in (reversed(order) if falling else order) if x is not None and x >= target), None)
            reaches.append({
                "target": format_probability(target), "target_percent": percent(target),
                "value": found_at["value"] if found_at else None, "label": found_at["label"] if found_at else None,
                "text": f"{percent(target)} {what}: {field.label} {'up to ' if falling else ''}{found_at['label']}" if found_at
                else f"{percent(target)} {what}: no value of {field.label.lower()} reaches it",
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
        "at_least_one": "At least 1" if at_least else None,  # the table's column: the chart's title names the outcome
        "values": points,
        "reaches": reaches,
        "summary": f"{outcome.label} by {field.label.lower()}: " + "; ".join(f"{r['label']} {r['text']}" for r in points if r["text"]),
    }
