"""The typed answer: one document per request, made once in Python, rendered by the page.

The CLI's ``odds`` and ``roll`` objects are compact contracts for scripts. A
player needs more from the same numbers: the chance of *at least* and *at
most* each value, a mean that says what it leaves out, a label for every
value, a headline, the cells a map outcome names, and for a roll the dice in
words. All of it is computed here, exactly, from the :class:`Distribution`
the procedure gave, so that the page only renders: no fraction arithmetic,
no label guessing, no re-validation in JavaScript. ``answer.schema.json``
beside this module is its JSON Schema (checked in the tests).

An odds answer (``"kind": "odds"``) lists its outcomes in the calculator's
order, each one of two kinds:

* ``"certain"``: the outcome has one value with probability 1 (a
  deterministic calculator gives only these); it carries ``value`` and
  ``value_label`` (``label`` is always the outcome's own).
* ``"distribution"``: ``values`` in display order, each with its exact
  probability ``p`` and the cumulative ``at_least`` / ``at_most`` (exact
  fractions as strings: ``"n/d"``, ``"0"``, ``"1"``; ``null`` where a value
  is not on the outcome's number scale), their percentages as the page
  prints them, and ``mean``.

Cumulative chances and the mean. For an int outcome with values
``v_1 < ... < v_k``, ``at_least(v_i) = sum_{j >= i} p_j`` and
``at_most(v_i) = sum_{j <= i} p_j``. Some int outcomes also take words
(``Outcome.extra``). Words that mean "past every number" (``"later"``,
``"more"``; ``Outcome.extra_above``) sit at the top of the scale: ``at
least 2 turns`` counts ``more`` in. Other words (``"none"``: the unit did
not retreat at all) are off the scale: their rows have no cumulative
chance and the numbers' cumulative chances do not count them. The mean is
over the numbers only, ``E[X | X is a number] = sum v p_v / sum p_v``, and
the answer names the words it leaves out and their total chance.

A map outcome carries ``draw`` (``kind``: ``"unit"``, ``"path"`` or
``"cells"``) and its cells numbered from 1. A unit outcome also has
``draw.key``, the name the map's legend gives its badges ("modifier": the
same for every unit), ``badge``, the whole text ("modifier \u22121"; empty
when there is nothing worth showing) and ``badge_value``, the text the cell
shows beside the legend ("\u22121").

How it comes about. An odds answer also lists ``steps``: every labelled
roll of the procedure in the order first met, with ``p_rolled``, the exact
chance that it is made at all, and ``values``, the distribution of what it
decided *given that it is made* (so each step's ``p`` sum to 1). They come
from the same enumeration as the outcomes (:func:`rules_py.dice.enumerate_steps`),
generically from the labels the procedure gives its dice. Each roll is
listed as labelled, with no grouping: rolls whose labels differ by a turn or
a count are separate steps, each with its own chance of being made.

A comparison (:func:`compare_answer`, ``"kind": "compare"``) holds two odds
answers, option ``a`` and option ``b`` (a's inputs with the changes in
``vs``), and per outcome they share the differences that decide between them:
for a yes/no outcome the chance of yes, for a number the mean (over the
numbers only, as above), and for every value its chance; each as a, b and
``b - a``, exact (signed fractions as strings) and as text (percentage points
for chances). The page renders them; it does no arithmetic.

A roll answer (``"kind": "roll"``) gives the seed as text (a phrase seed
keeps its phrase, see :mod:`rules_py.seeds`), the command that repeats it,
every die with its face and whether it scored, each pooled result in
words, and each outcome's rolled value with its label.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from .calculator import Calculator, InputError, Odds, Outcome, format_probability, format_value
from .dice import Step
from .seeds import Seed

SCHEMA_ID = "fire-mission/answer/1"


# ---------------------------------------------------------------- words and numbers


def percent(p: Fraction) -> str:
    """A probability as a percentage for reading: rounded, but never "0%" or
    "100%" unless exactly so (1 decimal; 2 below 1% and above 99%)."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    x = p * 100
    if x < Fraction(1, 100):
        return "<0.01%"
    if x > Fraction(9999, 100):
        return ">99.99%"
    digits = 2 if x < 1 or x > 99 else 1
    return f"{_round(x, digits)}%"


def _round(x: Fraction, digits: int) -> str:
    """x to ``digits`` decimals, half away from zero, from the exact value (no float)."""
    scaled = abs(x) * 10**digits
    whole = int(scaled + Fraction(1, 2))
    sign = "\u2212" if x < 0 and whole else ""
    text = str(whole).rjust(digits + 1, "0")
    return f"{sign}{text[:-digits]}.{text[-digits:]}" if digits else f"{sign}{text}"


def number_text(value: Any) -> str:
    """An int or a Fraction as a player reads it: a true minus sign."""
    text = format_value(value)
    return "\u2212" + text[1:] if text.startswith("-") else text


def _humane(word: str) -> str:
    return word.replace("_", " ") if word else "none"


def cells_of(text: str) -> list[list[int]]:
    """The cells of a ``draw`` value ("0.2 1.1", 0-based) as [row, column] from 1, as the page numbers them."""
    out = []
    for cell in text.split():
        row, col = cell.split(".")
        out.append([int(row) + 1, int(col) + 1])
    return out


def cells_label(cells: list[list[int]]) -> str:
    return "; ".join(f"row {r} column {c}" for r, c in cells) or "none"


def value_label(outcome: Outcome, value: Any) -> str:
    """How one value of an outcome reads: yes/no, a true minus sign, words with spaces, cells from 1."""
    if outcome.draw in ("cells", "path"):
        return cells_label(cells_of(value))
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, Fraction)):
        return number_text(value)
    return _humane(str(value))


def _value_doc(outcome: Outcome, value: Any, key: str = "label") -> dict[str, Any]:
    """A value with its label (under ``key``) and, on a map, its cells."""
    doc: dict[str, Any] = {"value": format_value(value), key: value_label(outcome, value)}
    if outcome.draw in ("cells", "path"):
        doc["cells"] = cells_of(value)
    return doc


def _draw(outcome: Outcome) -> dict[str, Any] | None:
    if not outcome.draw:
        return None
    draw: dict[str, Any] = {"kind": outcome.draw}
    if outcome.unit:
        draw["unit"] = outcome.unit
        # The legend's name for this kind of badge: one entry for every unit's "modifier".
        draw["key"] = _short(outcome)
    return draw


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, Fraction)) and not isinstance(value, bool)


# ---------------------------------------------------------------- odds


def outcome_doc(outcome: Outcome, pairs: list[tuple[Any, Fraction]]) -> dict[str, Any]:
    """One outcome of an odds answer, from its (value, p) pairs in display order."""
    doc: dict[str, Any] = {"name": outcome.name, "label": outcome.label, "help": outcome.help, "type": outcome.type}
    draw = _draw(outcome)
    if draw:
        doc["draw"] = draw
    certain = [v for v, p in pairs if p == 1]
    if certain:
        doc["kind"] = "certain"
        doc.update(_value_doc(outcome, certain[0], "value_label"))
        doc["summary"] = f"{outcome.label}: {doc['value_label']}"
        if outcome.draw == "unit":
            _badge(outcome, doc)
        return doc
    doc["kind"] = "distribution"
    numeric = outcome.type == "int"
    scale = [v for v, _ in pairs if _is_number(v)] + (list(w for w in outcome.extra if w in dict(pairs)) if outcome.extra_above else [])
    rank = {v: i for i, v in enumerate(scale)} if numeric else {}
    p_of = dict(pairs)
    values = []
    for value, p in pairs:
        row = _value_doc(outcome, value)
        row["p"] = format_probability(p)
        row["percent"] = percent(p)
        row["bar"] = _round(p * 100, 2)  # the width of its bar, in percent of the row
        if value in rank:
            at_least = sum((p_of[v] for v in scale[rank[value]:]), Fraction(0))
            at_most = sum((p_of[v] for v in scale[: rank[value] + 1]), Fraction(0))
            row.update(at_least=format_probability(at_least), at_least_percent=percent(at_least), at_most=format_probability(at_most), at_most_percent=percent(at_most))
        else:
            row.update(at_least=None, at_least_percent=None, at_most=None, at_most_percent=None)
        values.append(row)
    doc["values"] = values
    likeliest = max(range(len(pairs)), key=lambda i: (pairs[i][1], -i))
    doc["likeliest"] = values[likeliest]["value"]
    doc["mean"] = doc["mean_text"] = None
    doc["mean_leaves_out"] = []
    doc["mean_leaves_out_p"] = "0"
    if numeric:
        numbers = [(v, p) for v, p in pairs if _is_number(v)]
        mass = sum((p for _, p in numbers), Fraction(0))
        if mass:
            mean = sum((v * p for v, p in numbers), Fraction(0)) / mass
            doc["mean"] = format_probability(mean) if mean >= 0 else "-" + format_probability(-mean)
            doc["mean_text"] = _round(mean, 2)
            left = [(v, p) for v, p in pairs if not _is_number(v) and p]
            doc["mean_leaves_out"] = [value_label(outcome, v) for v, _ in left]
            doc["mean_leaves_out_p"] = format_probability(1 - mass)
    doc["summary"] = _summary(outcome, doc, values[likeliest])
    if outcome.draw == "unit":
        _badge(outcome, doc, values[likeliest])
    return doc


def _short(outcome: Outcome) -> str:
    """An outcome's name on a map badge: "isolated" from "Unit a: isolated"."""
    return outcome.label.rsplit(": ", 1)[-1]


def _badge(outcome: Outcome, doc: dict[str, Any], likeliest: dict[str, Any] | None = None) -> None:
    """What a unit's cell on a map shows for this outcome, set on ``doc``:
    ``badge``, the whole text ("modifier \u22121"; "" for nothing worth showing),
    and ``badge_value``, its value alone ("\u22121"), which the map shows on
    the cell beside a legend naming the outcome (``draw.key``, "modifier").
    A certain yes shows the outcome's name and a certain no nothing; a number
    its value; odds the chance of yes, the mean, or the likeliest value."""
    key = _short(outcome)
    if doc["kind"] != "distribution":
        if outcome.type == "bool":
            value = key if doc["value"] == "true" else ""
        else:
            value = "" if doc["value_label"] == "none" else doc["value_label"]
    elif outcome.type == "bool":
        yes = next((v for v in doc["values"] if v["value"] == "true"), None)
        value = yes["percent"] if yes else "0%"
    elif doc["mean_text"] is not None:
        value = f"\u2248{doc['mean_text']}"
    else:
        value = likeliest["label"] if likeliest else ""
    doc["badge_value"] = value
    doc["badge"] = "" if not value else value if value == key else f"{key} {value}"


def _summary(outcome: Outcome, doc: dict[str, Any], likeliest: dict[str, Any]) -> str:
    """The outcome in one line of a player's words: the chance that matters."""
    if outcome.type == "bool":
        yes = next((v for v in doc["values"] if v["value"] == "true"), None)
        return f"{outcome.label}: {yes['percent'] if yes else '0%'} chance"
    most = f"most likely {likeliest['label']} ({likeliest['percent']})"
    if doc["mean_text"] is None:
        return f"{outcome.label}: {most}"
    mean = f"mean {doc['mean_text']}"
    if doc["mean_leaves_out"]:
        mean += f" (leaving out {' and '.join(doc['mean_leaves_out'])}, {percent(Fraction(doc['mean_leaves_out_p']))})"
    return f"{outcome.label}: {mean}, {most}"


def changed_inputs(calc: Calculator, inputs: Mapping[str, Any]) -> dict[str, str]:
    """The inputs that differ from their defaults, as text (what a link or a command needs)."""
    out = {}
    for f in calc.fields:
        text = format_value(inputs[f.name])
        if f.default is None or text != format_value(f.default):
            out[f.name] = text
    return out


def _head(calc: Calculator, inputs: Mapping[str, Any], kind: str) -> dict[str, Any]:
    return {
        "schema": SCHEMA_ID,
        "kind": kind,
        "calculator": calc.id,
        "title": calc.title,
        "rolls_dice": calc.rolls_dice,
        "inputs": {f.name: format_value(inputs[f.name]) for f in calc.fields},
        "changed": changed_inputs(calc, inputs),
    }


def _step_value_label(step: Step, value: Any) -> str:
    """What one value of a step reads: what a pool counted, in words, or the value itself."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        if step.names:
            return ", ".join(_count_words(n, *name) for n, name in zip(value, step.names))
        return ", ".join(number_text(v) for v in value)
    if step.counting:
        return _count_words(value, *(step.names[0] if step.names else ("die scored", "dice scored")))
    if isinstance(value, (int, Fraction)):
        return number_text(value)
    return _humane(str(value))


def step_doc(step: Step) -> dict[str, Any]:
    """One step of "how it comes about": exact chances as text, with their percentages."""
    values = []
    for value, p in step.values:
        text = " ".join(format_value(v) for v in value) if isinstance(value, tuple) else format_value(value)
        values.append({"value": text, "label": _step_value_label(step, value), "p": format_probability(p), "percent": percent(p)})
    return {"label": step.label, "p_rolled": format_probability(step.p_rolled), "p_rolled_percent": percent(step.p_rolled), "values": values}


def odds_answer(calc: Calculator, raw: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The typed odds answer for these inputs (InputError on bad input)."""
    return _odds_doc(calc, calc.odds(raw, with_steps=True))


def _odds_doc(calc: Calculator, odds: Odds) -> dict[str, Any]:
    doc = _head(calc, odds.inputs, "odds")
    doc["outcomes"] = [outcome_doc(o, o.ordered(odds.outcomes[o.name])) for o in calc.outcomes_for(odds.inputs)]
    doc["notes"] = list(odds.notes)
    doc["steps"] = [step_doc(s) for s in odds.steps]
    doc["summary"] = "; ".join(o["summary"] for o in doc["outcomes"])
    return doc


# ---------------------------------------------------------------- compare


def signed(x: Fraction) -> str:
    """An exact signed fraction as text: "-5/32", "0", "3/4", "2"."""
    return "-" + format_probability(-x) if x < 0 else format_probability(x)


def _points(d: Fraction) -> str:
    """A difference of two chances in percentage points, with its sign (never rounded to a bare 0 unless exactly 0)."""
    if d == 0:
        return "no change"
    text = _round(abs(d) * 100, 1)
    if text == "0.0":
        text = "<0.1"
    return f"{'+' if d > 0 else chr(0x2212)}{text} points"


def _plus(d: Fraction) -> str:
    if d == 0:
        return "no change"
    return ("+" if d > 0 else "") + _round(d, 2)


def option_b_inputs(calc: Calculator, raw: Mapping[str, Any] | None, vs: Mapping[str, Any] | None) -> dict[str, Any]:
    """Option b's raw inputs: a's, with the changes in ``vs`` (names checked here, so that
    an error names the ``vs.`` field; values are checked with b's other inputs)."""
    vs = dict(vs or {})
    known = {f.name for f in calc.fields}
    unknown = [name for name in vs if name not in known]
    if unknown:
        raise InputError([(f"vs.{name}", f"unknown input {name!r} for option B: {calc.id} takes " + (", ".join(sorted(known)) or "no inputs")) for name in unknown])
    return {**dict(raw or {}), **vs}


def _difference(a_doc: dict[str, Any], b_doc: dict[str, Any], pa: dict, pb: dict, outcome: Outcome) -> dict[str, Any]:
    doc: dict[str, Any] = {"name": outcome.name, "label": outcome.label, "type": outcome.type, "chance": None, "mean": None}
    parts = []
    if outcome.type == "bool":
        a, b = pa.get(True, Fraction(0)), pb.get(True, Fraction(0))
        doc["chance"] = {"a": format_probability(a), "b": format_probability(b), "b_minus_a": signed(b - a), "a_percent": percent(a), "b_percent": percent(b), "difference": _points(b - a)}
        parts.append(f"{percent(a)} \u2192 {percent(b)} ({_points(b - a)})")
    elif a_doc.get("mean") is not None and b_doc.get("mean") is not None:
        a, b = Fraction(a_doc["mean"]), Fraction(b_doc["mean"])
        doc["mean"] = {"a": a_doc["mean"], "b": b_doc["mean"], "b_minus_a": signed(b - a), "a_text": _round(a, 2), "b_text": _round(b, 2), "difference": _plus(b - a)}
        parts.append(f"mean {_round(a, 2)} \u2192 {_round(b, 2)} ({_plus(b - a)})")
    values = []
    for value in dict.fromkeys([*pa, *pb]):
        a, b = pa.get(value, Fraction(0)), pb.get(value, Fraction(0))
        values.append({"value": format_value(value), "label": value_label(outcome, value), "a": format_probability(a), "b": format_probability(b), "b_minus_a": signed(b - a), "difference": _points(b - a)})
    doc["values"] = values
    if not parts:  # words: the likeliest value of each
        parts.append(f"most likely {_likeliest(a_doc)} \u2192 {_likeliest(b_doc)}")
    doc["summary"] = f"{outcome.label}: " + parts[0]
    return doc


def _likeliest(doc: dict[str, Any]) -> str:
    if doc["kind"] == "certain":
        return doc["value_label"]
    return next(v["label"] for v in doc["values"] if v["value"] == doc["likeliest"])


def compare_answer(calc: Calculator, raw: Mapping[str, Any] | None = None, vs: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Two options side by side: option a's odds answer, option b's (a's inputs
    with the changes in ``vs``) and the differences per outcome they share.
    InputError on bad input, option b's fields named ``vs.<name>``."""
    b_raw = option_b_inputs(calc, raw, vs)
    odds_a = calc.odds(raw, with_steps=True)
    try:
        odds_b = calc.odds(b_raw, with_steps=True)
    except InputError as e:
        raise InputError([(f"vs.{field}" if field else None, message) for field, message in e.errors]) from None
    a, b = _odds_doc(calc, odds_a), _odds_doc(calc, odds_b)
    outcomes_b = {o.name: o for o in calc.outcomes_for(odds_b.inputs)}
    docs_b = {o["name"]: o for o in b["outcomes"]}
    differences = []
    for outcome, a_doc in zip(calc.outcomes_for(odds_a.inputs), a["outcomes"]):
        if outcome.name not in docs_b:
            continue
        pa = dict(outcome.ordered(odds_a.outcomes[outcome.name]))
        pb = dict(outcomes_b[outcome.name].ordered(odds_b.outcomes[outcome.name]))
        differences.append(_difference(a_doc, docs_b[outcome.name], pa, pb, outcome))
    vs_text = {k: v for k, v in b["inputs"].items() if v != a["inputs"][k]}
    return {
        "schema": SCHEMA_ID,
        "kind": "compare",
        "calculator": calc.id,
        "title": calc.title,
        "vs": vs_text,
        "a": a,
        "b": b,
        "differences": differences,
        "summary": "; ".join(d["summary"] for d in differences) or "The two options share no outcome.",
    }


# ---------------------------------------------------------------- rolls


def _count_words(count: int, singular: str, plural: str) -> str:
    if count == 0:
        return f"no {plural}"
    return f"{count} {singular if count == 1 else plural}"


def die_doc(entry: Mapping[str, Any]) -> dict[str, Any]:
    """One entry of a roll's dice log, for reading: each face and whether it
    scored, and what the dice decided in words."""
    result = entry["result"]
    per_face = entry.get("per_face")
    names = entry.get("names")
    faces = []
    for i, face in enumerate(entry["faces"]):
        scored = None
        if per_face is not None:
            v = per_face[i]
            if isinstance(v, tuple):
                scored = any(v)
            elif entry.get("counting"):
                scored = bool(v)
        elif isinstance(result, bool):
            scored = result
        faces.append({"face": face, "scored": scored})
    if isinstance(result, bool):
        words = "yes" if result else "no"
    elif isinstance(result, tuple) and names:
        parts = [_count_words(n, *name) for n, name in zip(result, names)]
        words = ", ".join(parts)
    elif isinstance(result, tuple):
        words = ", ".join(str(v) for v in result)
    elif entry.get("counting") and names:
        words = _count_words(result, *names[0])
    elif entry.get("counting"):
        words = _count_words(result, "die scored", "dice scored")
    elif isinstance(result, int) and per_face is not None and len(entry["faces"]) > 1:
        words = f"total {number_text(result)}"
    elif isinstance(result, (int, Fraction)):
        words = number_text(result)
    else:
        words = _humane(str(result))
    return {"label": entry["label"], "dice": entry["dice"], "faces": faces, "result": words}


NO_DICE = "No dice were rolled: with these inputs every result is certain."
NO_DICE_AT_ALL = "This calculator rolls no dice: its result follows from the inputs."


def roll_answer(calc: Calculator, seed: Seed, raw: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The typed answer for one seeded roll (InputError on bad input)."""
    roll = calc.roll(seed.number, raw)
    doc = _head(calc, roll.inputs, "roll")
    doc["seed"] = seed.text
    doc["seed_number"] = str(seed.number)
    doc["seed_phrase"] = seed.phrase
    args = ["python", "-m", "rules_py", "roll", calc.id, "--seed", seed.text, *(f"{k}={v}" for k, v in doc["changed"].items())]
    doc["command"] = shlex.join(args)
    doc["dice"] = [die_doc(d) for d in roll.dice]
    doc["no_dice"] = None if roll.dice else (NO_DICE if calc.rolls_dice else NO_DICE_AT_ALL)
    outcomes = []
    for o in calc.outcomes_for(roll.inputs):
        entry: dict[str, Any] = {"name": o.name, "label": o.label, "type": o.type, "kind": "rolled"}
        draw = _draw(o)
        if draw:
            entry["draw"] = draw
        entry.update(_value_doc(o, roll.outcomes[o.name], "value_label"))
        entry["summary"] = f"{o.label}: {entry['value_label']}"
        if o.draw == "unit":
            _badge(o, entry)
        outcomes.append(entry)
    doc["outcomes"] = outcomes
    doc["summary"] = f"Rolled with seed {seed.text}: " + "; ".join(o["summary"] for o in outcomes)
    return doc
