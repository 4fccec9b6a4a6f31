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
generically from the labels the procedure gives its dice. Rolls that decide
the same values with the same chances (the chart at each turn start) are one
step, at the place of the first, whose ``rolls`` list each of them with its
own chance of being made and whose ``same`` says so.

The headline. Every answer begins with ``headline``: one line on the outcome
or two a player decides on (``Calculator.headline``), its parts in
``headline_parts``. A yes/no outcome gives its chance of yes; a number its
average and, where it says something, its median ``k``, the largest number
with ``P(X >= k) >= 1/2``, with that chance ("Saved: 1.00 on average, 1 or
more 66.5%"); a number that may be a word ("later") or a choice its likeliest
value; a certain outcome its value. In a comparison each part also has
``lead``, ``a``, ``b`` and ``tail`` (text = lead + a + " \u2192 " + b + tail),
so that a page can mark option b's; in a roll it is what was rolled.

Charts. A number outcome with three or more values has ``chart`` true, and
each of its values ``heights``: its bar in each view (exactly, at least, at
most) in percent of the chart's height, exactly scaled so that the likeliest
value fills it and a cumulative chance of 1 fills it; a comparison's values
carry both options' heights on one scale. The page draws them as they come.

A map's units. An answer whose outcomes include unit outcomes (``draw.kind``
``"unit"``: a supply modifier per unit) also carries ``units``, the same
values as one table, so that a page shows a row per unit instead of a line
per outcome: ``columns`` (one per kind of unit outcome, ``draw.key``, in the
order first met, each with its heading), ``rows`` (one per unit, in the
order first met: its letter, its ``label`` ("Unit a") and one cell per
column, with the outcome's name
and its value in words, or ``null`` where the unit has no such outcome, and
the row in one phrase, ``summary``, which the answer's own ``summary`` says
instead of each of those outcomes and its line's sectors) and
``replaces``, the outcomes the table and the map's drawing stand for in a
one-line-per-outcome summary: the unit outcomes and the lines (``"path"``)
drawn on the map. Without unit outcomes ``units`` is ``null``.

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
words, and each outcome's rolled value with its label. Each roll also has
its ``working``, the arithmetic from the dice to what the procedure made of
them ("2D6 = 5 + 4 = 9, less 4 for flak = 5", from ``dice.then``), what its
result ``means`` where that rests on a rule (a chart's row), and the
``rule`` section it applies (see :mod:`rules_py.rule_refs`). A resolution's
trail (``given``) is the same log.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from .calculator import Calculator, InputError, Odds, Outcome, Roll
from .dice import Counted, Distribution, Given, GivenError, NeedRoll, Step, enumerate_given
from .formats import (
    decimal,
    dice_words,
    format_probability,
    format_value,
    is_number,
    number_text,
    percent,
    plus,
    points,
    signed,
    value_label,
    working_text,
    cells_of,
)
from .rule_refs import rule_doc
from .given import dice_text, entries_by_roll
from .seeds import Seed

SCHEMA_ID = "fire-mission/answer/1"
HEADLINE_SEP = " \u00b7 "  # between the headline's parts: "Driven off 1.2% · Hits on the target: 5.83 on average"


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


# ---------------------------------------------------------------- odds


def display_order(outcome: Outcome, dist: Distribution) -> list[tuple[Any, Fraction]]:
    """(value, p) in display order; bool and choice list every value, even at 0;
    an int outcome its numbers, then its words (``Outcome.extra``) in their order."""
    if outcome.type == "bool":
        return [(False, dist.p(False)), (True, dist.p(True))]
    if outcome.type == "choice":
        names = list(outcome.values) + [v for v in dist if v not in outcome.values]
        return [(v, dist.p(v)) for v in names]
    numbers = [(v, p) for v, p in dist.pairs() if not isinstance(v, str)]
    found = [(v, dist.p(v)) for v in outcome.extra if dist.p(v)]
    return numbers + found


class OutcomeOdds:
    """One outcome's exact odds and all that is derived from them: the
    cumulative chances on its number scale, its mean and what the mean leaves
    out. The typed answer, the CLI's object and a sheet's cell are each a
    projection of it (:meth:`doc`, :meth:`cli`; a sheet reads the fractions)."""

    def __init__(self, outcome: Outcome, dist: Distribution):
        self.outcome = outcome
        self.pairs = display_order(outcome, dist)
        self._p = dict(self.pairs)
        certain = [v for v, p in self.pairs if p == 1]
        self.is_certain = bool(certain)
        self.certain = certain[0] if certain else None
        numeric = outcome.type == "int"
        # The number scale: the numbers, then the words that mean "past every number".
        above = [w for w in outcome.extra if w in self._p] if outcome.extra_above else []
        self.scale = [v for v, _ in self.pairs if is_number(v)] + above if numeric else []
        self._above = frozenset(above)
        numbers = [(v, p) for v, p in self.pairs if is_number(v)]
        mass = sum((p for _, p in numbers), Fraction(0))
        self.mean: Fraction | None = None
        self.leaves_out: list[Any] = []
        self.leaves_out_p = Fraction(0)
        if numeric and mass:
            self.mean = sum((v * p for v, p in numbers), Fraction(0)) / mass
            self.leaves_out = [v for v, p in self.pairs if not is_number(v) and p]
            self.leaves_out_p = 1 - mass

    def p(self, value: Any) -> Fraction:
        return self._p.get(value, Fraction(0))

    def at_least(self, threshold: int | Fraction) -> Fraction:
        """P(X >= threshold) on the number scale: the words above every number count in, other words never."""
        return sum((p for v, p in self.pairs if v in self._above or (is_number(v) and v >= threshold)), Fraction(0))

    def cumulative(self, scale: list[Any] | None = None) -> dict[Any, tuple[Fraction, Fraction]]:
        """(at least, at most) for each value on the number scale (or on ``scale``,
        a comparison's scale of both options, where a value this one never takes has 0)."""
        scale = self.scale if scale is None else scale
        out = {}
        below = Fraction(0)
        total = sum((self.p(v) for v in scale), Fraction(0))
        for v in scale:
            out[v] = (total - below, below + self.p(v))
            below += self.p(v)
        return out

    def median(self) -> Any | None:
        """The largest number k with P(X >= k) >= 1/2, or None when that is the
        smallest number (every roll reaches it: nothing worth saying)."""
        numbers = [v for v in self.scale if is_number(v)]
        reached = [v for v in numbers if self.at_least(v) * 2 >= 1]
        return reached[-1] if reached and reached[-1] != numbers[0] else None

    def headline(self) -> str:
        """This outcome in the answer's first line: the chance of yes, the
        average and the median's chance, the likeliest value, or the value."""
        label = self.outcome.label
        if self.is_certain:
            return f"{label}{' ' if ': ' in label else ': '}{value_label(self.outcome, self.certain)}"
        if self.outcome.type == "bool":
            return f"{label} {percent(self.p(True))}"
        if self.mean is not None and not self.leaves_out:
            text = f"{label}: {decimal(self.mean, 2)} on average"
            k = self.median()
            return text if k is None else f"{text}, {number_text(k)} or more {percent(self.at_least(k))}"
        return f"{label}: most likely {_likeliest(self)} ({percent(self.p(_likeliest_value(self)))})"

    def charted(self) -> bool:
        """Whether a page draws this outcome's distribution: a number with three or more values."""
        return self.outcome.type == "int" and not self.is_certain and len([p for _, p in self.pairs if p]) >= 3

    def heights(self, value: Any, top: Fraction | None = None, scale: list[Any] | None = None) -> dict[str, str | None]:
        """A value's bar in each view of a chart, in percent of the chart's height:
        exactly (scaled so that the likeliest value, or ``top``, fills it), at
        least and at most (a chance of 1 fills it; None off the number scale,
        which is ``scale`` if given: see :meth:`cumulative`)."""
        top = top or max(p for _, p in self.pairs)
        out: dict[str, str | None] = {"exactly": decimal(self.p(value) / top * 100, 2), "at_least": None, "at_most": None}
        cumulative = self.cumulative(scale)
        if value in cumulative:
            at_least, at_most = cumulative[value]
            out["at_least"], out["at_most"] = decimal(at_least * 100, 2), decimal(at_most * 100, 2)
        return out

    def cumulative_labels(self, value: Any, label: str) -> dict[str, str]:
        """How a value on the number scale reads as at least and at most: "\u22652" and
        "\u22642"; a word past every number ("later") is itself at least (nothing
        lies beyond it), and at most it is every value on the scale."""
        if value in self._above:
            return {"at_least_label": label, "at_most_label": f"any, {label} included"}
        return {"at_least_label": f"\u2265{label}", "at_most_label": f"\u2264{label}"}

    def cli(self) -> dict[str, str]:
        """The CLI's odds of this outcome: value -> exact chance, in display order."""
        return {format_value(v): format_probability(p) for v, p in self.pairs}

    def doc(self) -> dict[str, Any]:
        """This outcome in the typed answer."""
        outcome = self.outcome
        doc: dict[str, Any] = {"name": outcome.name, "label": outcome.label, "help": outcome.help, "type": outcome.type}
        draw = _draw(outcome)
        if draw:
            doc["draw"] = draw
        if self.is_certain:
            doc["kind"] = "certain"
            doc.update(_value_doc(outcome, self.certain, "value_label"))
            doc["summary"] = f"{outcome.label}: {doc['value_label']}"
            if outcome.draw == "unit":
                _badge(outcome, doc)
            return doc
        doc["kind"] = "distribution"
        cumulative = self.cumulative()
        values = []
        for value, p in self.pairs:
            row = _value_doc(outcome, value)
            row["p"] = format_probability(p)
            row["percent"] = percent(p)
            row["bar"] = decimal(p * 100, 2)  # the width of its bar, in percent of the row
            if value in cumulative:
                at_least, at_most = cumulative[value]
                row.update(at_least=format_probability(at_least), at_least_percent=percent(at_least), at_most=format_probability(at_most), at_most_percent=percent(at_most))
                row.update(self.cumulative_labels(value, row["label"]))
            else:
                row.update(at_least=None, at_least_percent=None, at_most=None, at_most_percent=None, at_least_label=None, at_most_label=None)
            row["heights"] = self.heights(value)
            values.append(row)
        doc["values"] = values
        doc["chart"] = self.charted()
        likeliest = max(range(len(self.pairs)), key=lambda i: (self.pairs[i][1], -i))
        doc["likeliest"] = values[likeliest]["value"]
        doc["mean"] = doc["mean_text"] = None
        doc["mean_leaves_out"] = []
        doc["mean_leaves_out_p"] = "0"
        if self.mean is not None:
            doc["mean"] = signed(self.mean)
            doc["mean_text"] = decimal(self.mean, 2)
            doc["mean_leaves_out"] = [value_label(outcome, v) for v in self.leaves_out]
            doc["mean_leaves_out_p"] = format_probability(self.leaves_out_p)
        doc["summary"] = self._summary(doc, values[likeliest])
        if outcome.draw == "unit":
            _badge(outcome, doc, values[likeliest])
        return doc

    def _summary(self, doc: dict[str, Any], likeliest: dict[str, Any]) -> str:
        """The outcome in one line of a player's words: the chance that matters."""
        label = self.outcome.label
        if self.outcome.type == "bool":
            return f"{label}: {percent(self.p(True))} chance"
        most = f"most likely {likeliest['label']} ({likeliest['percent']})"
        if self.mean is None:
            return f"{label}: {most}"
        mean = f"mean {doc['mean_text']}"
        if self.leaves_out:
            mean += f" (leaving out {' and '.join(doc['mean_leaves_out'])}, {percent(self.leaves_out_p)})"
        return f"{label}: {mean}, {most}"


def units_table(outcomes: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The unit outcomes of an answer's ``outcomes`` as one table (see the module's
    docstring, "A map's units"); None when there are none. A cell says the value
    in words: a certain or rolled outcome its value's label, odds their summary."""
    units = [o for o in outcomes if (o.get("draw") or {}).get("kind") == "unit"]
    if not units:
        return None
    keys = list(dict.fromkeys(o["draw"]["key"] for o in units))
    by_unit: dict[str, dict[str, dict[str, Any]]] = {}
    names: dict[str, str] = {}
    for o in units:
        if o["kind"] == "distribution":
            text = o["summary"][len(o["label"]) + 2 :]  # "Unit a: modifier: ..." -> "..."
            cell = {"outcome": o["name"], "value": None, "text": text}
        else:
            cell = {"outcome": o["name"], "value": o["value"], "text": o["value_label"]}
        by_unit.setdefault(o["draw"]["unit"], {})[o["draw"]["key"]] = cell
        names.setdefault(o["draw"]["unit"], o["label"].rsplit(": ", 1)[0])  # "Unit a: modifier" -> "Unit a"
    rows = []
    for unit, cells in by_unit.items():
        said = ", ".join(f"{k} {cells[k]['text']}" for k in keys if k in cells)
        rows.append({"unit": unit, "label": names[unit], "cells": [cells.get(k) for k in keys], "summary": f"{names[unit]}: {said}"})
    return {
        "columns": [{"key": k, "label": k[:1].upper() + k[1:]} for k in keys],
        "rows": rows,
        "replaces": [o["name"] for o in outcomes if (o.get("draw") or {}).get("kind") in ("unit", "path")],
    }


def _summary(outcomes: list[dict[str, Any]], units: dict[str, Any] | None) -> str:
    """The answer in one line of text (what a screen reader is told): each outcome's
    summary, those a table of units stands for as one phrase per unit."""
    if not units:
        return "; ".join(o["summary"] for o in outcomes)
    replaced = set(units["replaces"])
    return "; ".join([o["summary"] for o in outcomes if o["name"] not in replaced] + [row["summary"] for row in units["rows"]])


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


def changed_inputs(calc: Calculator, inputs: Mapping[str, Any]) -> dict[str, str]:
    """The inputs that differ from their defaults, as text (what a link or a command needs)."""
    out = {}
    for f in calc.fields:
        text = format_value(inputs[f.name])
        if f.default is None or text != format_value(f.default):
            out[f.name] = text
    return out


def _inputs_text(calc: Calculator, inputs: Mapping[str, Any]) -> dict[str, str]:
    return {f.name: format_value(inputs[f.name]) for f in calc.fields}


def _head(calc: Calculator, inputs: Mapping[str, Any], kind: str) -> dict[str, Any]:
    return {
        "schema": SCHEMA_ID,
        "kind": kind,
        "calculator": calc.id,
        "title": calc.title,
        "rolls_dice": calc.rolls_dice,
        "inputs": _inputs_text(calc, inputs),
        "changed": changed_inputs(calc, inputs),
    }


def how_often(p: Fraction) -> str:
    """How often a roll is made, in words: "always rolled", "rolled 33.3% of the time (1/3)"."""
    return "always rolled" if p == 1 else f"rolled {percent(p)} of the time ({format_probability(p)})"


def _roll_doc(step: Step) -> dict[str, str]:
    return {"label": step.label, "p_rolled": format_probability(step.p_rolled), "p_rolled_percent": percent(step.p_rolled), "often": how_often(step.p_rolled)}


def step_doc(step: Step, same: list[Step] | None = None) -> dict[str, Any]:
    """One step of "how it comes about": exact chances as text, with their
    percentages. ``same`` lists the rolls that read the very same table
    (``step`` first): the step stands for them all, each with how often it
    is made (``rolls``), and ``same`` says so in words."""
    values = []
    for value, p in step.values:
        text = " ".join(format_value(v) for v in value) if isinstance(value, tuple) else format_value(value)
        values.append({"value": text, "label": dice_words(value, step.names, step.counting), "p": format_probability(p), "percent": percent(p)})
    rolls = same or [step]
    return {
        **_roll_doc(step),
        "values": values,
        "rolls": [_roll_doc(s) for s in rolls],
        "same": f"The same table, for {len(rolls)} rolls:" if len(rolls) > 1 else None,
    }


def step_docs(steps: list[Step]) -> list[dict[str, Any]]:
    """The steps, identical rolls grouped: rolls that decide the same values
    with the same chances, read the same way (the air strike chart at each
    turn start, two attacks' 3D6 hits), are one step at the place of the
    first, listing every roll it stands for."""
    groups: dict[tuple, list[Step]] = {}
    for step in steps:
        groups.setdefault((step.values, step.names, step.counting), []).append(step)
    return [step_doc(same[0], same) for same in groups.values()]


class OddsAnswer:
    """The odds of every outcome for one set of inputs, enumerated once:
    :meth:`doc` is the typed answer, :meth:`cli` what ``python -m rules_py
    odds`` prints."""

    def __init__(self, calc: Calculator, odds: Odds):
        self.calc = calc
        self.odds = odds
        self.outcomes = [OutcomeOdds(o, odds.outcomes[o.name]) for o in calc.outcomes_for(odds.inputs)]

    @classmethod
    def of(cls, calc: Calculator, raw: Mapping[str, Any] | None = None, *, with_steps: bool = False) -> "OddsAnswer":
        """Validate, enumerate (with the steps if asked) and wrap (InputError on bad input)."""
        return cls(calc, calc.odds(raw, with_steps=with_steps))

    def outcome(self, name: str) -> OutcomeOdds:
        return next(o for o in self.outcomes if o.outcome.name == name)

    def cli(self) -> dict[str, Any]:
        return {
            "calculator": self.calc.id,
            "inputs": {k: format_value(v) for k, v in self.odds.inputs.items()},
            "outcomes": {o.outcome.name: o.cli() for o in self.outcomes},
            "notes": list(self.odds.notes),
        }

    def headline(self) -> list[OutcomeOdds]:
        return [self.outcome(o.name) for o in self.calc.headline_outcomes([o.outcome for o in self.outcomes])]

    def doc(self) -> dict[str, Any]:
        doc = _head(self.calc, self.odds.inputs, "odds")
        parts = [{"outcome": o.outcome.name, "text": o.headline()} for o in self.headline()]
        doc["headline"] = HEADLINE_SEP.join(p["text"] for p in parts)
        doc["headline_parts"] = parts
        doc["outcomes"] = [o.doc() for o in self.outcomes]
        doc["units"] = units_table(doc["outcomes"])
        doc["notes"] = list(self.odds.notes)
        doc["steps"] = step_docs(self.odds.steps)
        doc["summary"] = _summary(doc["outcomes"], doc["units"])
        return doc


def odds_answer(calc: Calculator, raw: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The typed odds answer for these inputs (InputError on bad input)."""
    return OddsAnswer.of(calc, raw, with_steps=True).doc()


# ---------------------------------------------------------------- compare


def option_b_inputs(calc: Calculator, raw: Mapping[str, Any] | None, vs: Mapping[str, Any] | None) -> dict[str, Any]:
    """Option b's raw inputs: a's, with the changes in ``vs`` (names checked here, so that
    an error names the ``vs.`` field; values are checked with b's other inputs)."""
    vs = dict(vs or {})
    known = {f.name for f in calc.fields}
    unknown = [name for name in vs if name not in known]
    if unknown:
        raise InputError([(f"vs.{name}", f"unknown input {name!r} for option B: {calc.id} takes " + (", ".join(sorted(known)) or "no inputs")) for name in unknown])
    return {**dict(raw or {}), **vs}


class Difference:
    """One outcome both options have, from their exact odds: the chance of yes
    (a yes/no outcome), the mean (a number outcome, over the numbers only; a
    certain number is its own mean) and each value's chance, as a, b and b - a."""

    def __init__(self, a: OutcomeOdds, b: OutcomeOdds):
        self.a, self.b = a, b
        self.outcome = a.outcome
        values = list(dict.fromkeys([v for v, _ in a.pairs] + [v for v, _ in b.pairs]))
        self.scale: list[Any] = []  # the number scale of both options, which one chart of both is drawn on
        if self.outcome.type == "int":
            # One order for both: the numbers, then the words in the outcome's order (b may
            # take numbers a never does, and a certain option has one value alone).
            numbers = sorted(v for v in values if is_number(v))
            words = [w for w in self.outcome.extra if w in values]
            values = numbers + words
            self.scale = numbers + (words if self.outcome.extra_above else [])
        self.values = values
        self.has_mean = self.outcome.type != "bool" and a.mean is not None and b.mean is not None

    def _leaves_out(self) -> dict[str, list[str]]:
        return {"a": [format_value(v) for v in self.a.leaves_out], "b": [format_value(v) for v in self.b.leaves_out]}

    def headline(self) -> dict[str, str]:
        """This outcome in the comparison's first line, in parts, so that a page
        can mark option b's: ``lead`` + ``a`` + " → " + ``b`` + ``tail``."""
        a, b, label = self.a, self.b, self.outcome.label
        if self.outcome.type == "bool":
            pa, pb = a.p(True), b.p(True)
            part = {"lead": f"{label} ", "a": percent(pa), "b": percent(pb), "tail": f", {points(pb - pa)}"}
        elif self.has_mean and not a.leaves_out and not b.leaves_out:
            part = {"lead": f"{label}: ", "a": decimal(a.mean, 2), "b": decimal(b.mean, 2), "tail": f" on average, {plus(b.mean - a.mean)}"}
        else:
            part = {"lead": f"{label}: most likely ", "a": _likeliest(a), "b": _likeliest(b), "tail": ""}
        part["text"] = f"{part['lead']}{part['a']} → {part['b']}{part['tail']}"
        return {"outcome": self.outcome.name, **part}

    def cli(self) -> dict[str, Any]:
        a, b = self.a, self.b
        entry: dict[str, Any] = {}
        if self.outcome.type == "bool":
            pa, pb = a.p(True), b.p(True)
            entry["chance_of_yes"] = {"a": format_probability(pa), "b": format_probability(pb), "b_minus_a": signed(pb - pa)}
        if self.has_mean:
            entry["mean"] = {"a": signed(a.mean), "b": signed(b.mean), "b_minus_a": signed(b.mean - a.mean), "leaves_out": self._leaves_out()}
        entry["values"] = {format_value(v): {"a": format_probability(a.p(v)), "b": format_probability(b.p(v)), "b_minus_a": signed(b.p(v) - a.p(v))} for v in self.values}
        return entry

    def doc(self) -> dict[str, Any]:
        a, b, outcome = self.a, self.b, self.outcome
        doc: dict[str, Any] = {"name": outcome.name, "label": outcome.label, "type": outcome.type, "chance": None, "mean": None}
        if outcome.type == "bool":
            pa, pb = a.p(True), b.p(True)
            doc["chance"] = {"a": format_probability(pa), "b": format_probability(pb), "b_minus_a": signed(pb - pa), "a_percent": percent(pa), "b_percent": percent(pb), "difference": points(pb - pa)}
            said = f"{percent(pa)} \u2192 {percent(pb)} ({points(pb - pa)})"
        elif self.has_mean:
            d = b.mean - a.mean
            doc["mean"] = {
                "a": signed(a.mean), "b": signed(b.mean), "b_minus_a": signed(d),
                "a_text": decimal(a.mean, 2), "b_text": decimal(b.mean, 2), "difference": plus(d),
                "leaves_out": {"a": [value_label(outcome, v) for v in a.leaves_out], "b": [value_label(outcome, v) for v in b.leaves_out]},
            }
            said = f"mean {decimal(a.mean, 2)} \u2192 {decimal(b.mean, 2)} ({plus(d)})"
        else:  # words: the likeliest value of each, once when it is the same
            said = f"most likely {_likeliest(a)} in both" if _likeliest(a) == _likeliest(b) else f"most likely {_likeliest(a)} \u2192 {_likeliest(b)}"
        top = max([p for _, p in a.pairs] + [p for _, p in b.pairs])
        doc["values"] = [
            {
                "value": format_value(v), "label": value_label(outcome, v), "a": format_probability(a.p(v)), "b": format_probability(b.p(v)),
                "b_minus_a": signed(b.p(v) - a.p(v)), "difference": points(b.p(v) - a.p(v)),
                # One chart for both: exactly on the larger top, at least and at most on both options' scale.
                "heights": {"a": a.heights(v, top, self.scale), "b": b.heights(v, top, self.scale)},
                "texts": {"a": self._texts(a, v), "b": self._texts(b, v)},
            }
            for v in self.values
        ]
        doc["chart"] = outcome.type == "int" and len(self.values) >= 3
        doc["summary"] = f"{outcome.label}: {said}"
        return doc


    def _texts(self, odds: OutcomeOdds, value: Any) -> dict[str, str]:
        """One option's chance of a value in each view of the chart, as its bar's text
        says it (an option certain of its value has no values list of its own to read):
        at least and at most on both options' scale; off it, the chance of the value itself."""
        exactly = percent(odds.p(value))
        cumulative = odds.cumulative(self.scale).get(value)
        if cumulative is None:
            return {"exactly": exactly, "at_least": exactly, "at_most": exactly}
        return {"exactly": exactly, "at_least": percent(cumulative[0]), "at_most": percent(cumulative[1])}


def _likeliest_value(odds: OutcomeOdds) -> Any:
    """The likeliest value (the first in display order on a tie)."""
    pairs = odds.pairs
    return pairs[max(range(len(pairs)), key=lambda i: (pairs[i][1], -i))][0]


def _likeliest(odds: OutcomeOdds) -> str:
    """The likeliest value's label."""
    return value_label(odds.outcome, _likeliest_value(odds))


class Comparison:
    """Two options, each enumerated once: option a with ``raw``, option b with
    ``vs`` changed from it (InputError on bad input, option b's fields named
    ``vs.<name>``). :meth:`doc` is the typed comparison, :meth:`cli` what
    ``odds ... --vs ...`` prints."""

    def __init__(self, calc: Calculator, raw: Mapping[str, Any] | None, vs: Mapping[str, Any] | None, *, with_steps: bool = False):
        b_raw = option_b_inputs(calc, raw, vs)
        self.calc = calc
        self.a = OddsAnswer.of(calc, raw, with_steps=with_steps)
        try:
            self.b = OddsAnswer.of(calc, b_raw, with_steps=with_steps)
        except InputError as e:
            raise InputError([(f"vs.{field}" if field else None, message) for field, message in e.errors]) from None
        b_outcomes = {o.outcome.name: o for o in self.b.outcomes}
        self.differences = [Difference(a, b_outcomes[a.outcome.name]) for a in self.a.outcomes if a.outcome.name in b_outcomes]
        a_text, b_text = _inputs_text(calc, self.a.odds.inputs), _inputs_text(calc, self.b.odds.inputs)
        self.vs = {k: v for k, v in b_text.items() if v != a_text[k]}

    def cli(self) -> dict[str, Any]:
        return {"calculator": self.calc.id, "vs": self.vs, "a": self.a.cli(), "b": self.b.cli(), "differences": {d.outcome.name: d.cli() for d in self.differences}}

    def doc(self) -> dict[str, Any]:
        differences = [d.doc() for d in self.differences]
        by_name = {d.outcome.name: d for d in self.differences}
        shared = [o for o in self.calc.headline_outcomes([o.outcome for o in self.a.outcomes]) if o.name in by_name]
        parts = [by_name[o.name].headline() for o in shared]
        return {
            "schema": SCHEMA_ID,
            "kind": "compare",
            "calculator": self.calc.id,
            "title": self.calc.title,
            "headline": HEADLINE_SEP.join(p["text"] for p in parts) or "The two options share no headline outcome.",
            "headline_parts": parts,
            "vs": self.vs,
            "a": self.a.doc(),
            "b": self.b.doc(),
            "differences": differences,
            "summary": "; ".join(d["summary"] for d in differences) or "The two options share no outcome.",
        }


def compare_answer(calc: Calculator, raw: Mapping[str, Any] | None = None, vs: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Two options side by side, as the page renders them (see :class:`Comparison`)."""
    return Comparison(calc, raw, vs, with_steps=True).doc()


# ---------------------------------------------------------------- rolls


def _jsonable(value: Any) -> Any:
    if isinstance(value, bool) or isinstance(value, (int, str)) or value is None:
        return value
    if isinstance(value, Fraction):
        return format_value(value)
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return str(value)


def die_doc(entry: Mapping[str, Any], page: str = "") -> dict[str, Any]:
    """One entry of a roll's dice log, for reading: each face and whether it
    scored, what the dice decided in words (``result``), the arithmetic from
    the dice to what the procedure made of them (``working``), what the
    result means where that rests on a rule (``means``, or None), and the
    rule section the roll applies (``rule``, on ``page`` unless it names
    another; None for a roll that names none)."""
    result = entry["result"]
    per_face = entry.get("per_face")
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
    counting = bool(entry.get("counting"))
    adds = is_number(result) and not counting and per_face is not None
    if is_number(result) and not counting and per_face is not None and len(entry["faces"]) > 1:
        said = f"total {number_text(result)}"
    else:
        said = dice_words(result, entry.get("names"), counting)
    label = entry["label"]
    means = getattr(label, "means", None)
    rule = getattr(label, "rule", None)
    decided = dice_words(result, entry.get("names"), counting)
    return {
        "label": str(label),
        "dice": entry["dice"],
        "faces": faces,
        "result": said,
        "working": working_text(entry["dice"], entry["faces"], decided, adds, entry.get("then", ())),
        "means": means.get(result) if means else None,
        "rule": rule_doc(rule, page) if rule is not None else None,
    }


def _cli_die(entry: Mapping[str, Any]) -> dict[str, Any]:
    """One die of a roll's log as ``roll`` prints it: its label, dice, faces and
    result (the typed answer's ``die_doc`` adds the working, its meaning and its rule)."""
    return {"label": str(entry["label"]), "dice": entry["dice"], "faces": list(entry["faces"]), "result": _jsonable(entry["result"])}


NO_DICE = "No dice were rolled: with these inputs every result is certain."
NO_DICE_AT_ALL = "This calculator rolls no dice: its result follows from the inputs."


class RollAnswer:
    """One seeded roll: :meth:`doc` is the typed answer, :meth:`cli` what
    ``python -m rules_py roll`` prints."""

    def __init__(self, calc: Calculator, seed: Seed, raw: Mapping[str, Any] | None = None):
        self.calc = calc
        self.seed = seed
        self.roll: Roll = calc.roll(seed.number, raw)

    def cli(self) -> dict[str, Any]:
        roll = self.roll
        out = {
            "calculator": self.calc.id,
            "inputs": {k: format_value(v) for k, v in roll.inputs.items()},
            "seed": roll.seed,
            "dice": [_cli_die(d) for d in roll.dice],
            "outcomes": {o.name: format_value(roll.outcomes[o.name]) for o in self.calc.outcomes_for(roll.inputs)},
        }
        if self.seed.phrase is not None:
            out["seed_phrase"] = self.seed.phrase
        return out

    def doc(self) -> dict[str, Any]:
        calc, roll, seed = self.calc, self.roll, self.seed
        doc = _head(calc, roll.inputs, "roll")
        doc["seed"] = seed.text
        doc["seed_number"] = str(seed.number)
        doc["seed_phrase"] = seed.phrase
        args = ["python", "-m", "rules_py", "roll", calc.id, "--seed", seed.text, *(f"{k}={v}" for k, v in doc["changed"].items())]
        doc["command"] = shlex.join(args)
        doc["dice"] = [die_doc(d, calc.page) for d in roll.dice]
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
        doc["units"] = units_table(outcomes)
        first = calc.headline_outcomes(calc.outcomes_for(roll.inputs))
        parts = [{"outcome": o.name, "text": f"{o.label}{' ' if ': ' in o.label else ': '}{value_label(o, roll.outcomes[o.name])}"} for o in first]
        doc["headline"] = HEADLINE_SEP.join(p["text"] for p in parts)
        doc["headline_parts"] = parts
        doc["summary"] = f"Rolled with seed {seed.text}: " + "; ".join(o["summary"] for o in outcomes)
        return doc


def roll_answer(calc: Calculator, seed: Seed, raw: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The typed answer for one seeded roll (InputError on bad input)."""
    return RollAnswer(calc, seed, raw).doc()


# ---------------------------------------------------------------- given dice


def _rolled_docs(calc: Calculator, inputs: Mapping[str, Any], values: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each outcome's rolled value, as a roll answer lists it."""
    out = []
    for o in calc.outcomes_for(inputs):
        entry: dict[str, Any] = {"name": o.name, "label": o.label, "type": o.type, "kind": "rolled"}
        draw = _draw(o)
        if draw:
            entry["draw"] = draw
        entry.update(_value_doc(o, values[o.name], "value_label"))
        entry["summary"] = f"{o.label}: {entry['value_label']}"
        if o.draw == "unit":
            _badge(o, entry)
        out.append(entry)
    return out


def _rolled_headline(calc: Calculator, inputs: Mapping[str, Any], values: Mapping[str, Any]) -> list[dict[str, str]]:
    return [
        {"outcome": o.name, "text": f"{o.label}{' ' if ': ' in o.label else ': '}{value_label(o, values[o.name])}"}
        for o in calc.headline_outcomes(calc.outcomes_for(inputs))
    ]


class Resolution:
    """A procedure resolved with the dice a player rolled (:class:`rules_py.dice.Given`):
    either the first roll it still needs, with the exact odds of every outcome
    given the dice so far, or, every roll given, the outcomes as a seeded roll
    gives them. :meth:`cli` is what ``python -m rules_py resolve`` prints,
    :meth:`doc` the typed answer (InputError on bad input or dice, on ``dice``)."""

    def __init__(self, calc: Calculator, raw: Mapping[str, Any] | None, entries: list[int | Counted]):
        self.calc = calc
        self.inputs = calc.validate(raw)
        self.entries = list(entries)
        items = tuple(sorted(self.inputs.items()))
        given = Given(self.entries)
        self.need: NeedRoll | None = None
        result: Mapping[str, Any] | None = None
        try:
            result = calc._run(given, items)
        except NeedRoll as need:
            self.need = need
        except GivenError as e:
            raise InputError(str(e), "dice") from None
        if result is not None and given.used < len(self.entries):
            extra = len(self.entries) - given.used
            raise InputError(
                f"the procedure ended after {given.used} {'die' if given.used == 1 else 'dice'}; {extra} more {'was' if extra == 1 else 'were'} given", "dice"
            )
        self.given = given
        self.result = dict(result) if result is not None else None
        if self.result is not None:
            outcomes = {name: Distribution({value: 1}) for name, value in self.result.items()}
        else:
            outcomes = enumerate_given(calc._run, (items,), given.values)
        calc._check_outcomes(self.inputs, outcomes)
        self.odds = OddsAnswer(calc, Odds(calc, self.inputs, outcomes, calc.notes(self.inputs) if calc.notes else []))

    @property
    def status(self) -> str:
        return "need" if self.need else "done"

    def _need_doc(self, typed: bool) -> dict[str, Any] | None:
        need = self.need
        if need is None:
            return None
        doc: dict[str, Any] = {"label": need.label, "dice": need.dice, "faces": need.sides, "count": need.count}
        counting = need.table is not None and need.table != tuple(range(1, need.sides + 1))
        if counting and need.count > 1:
            # A pool that counts what it scored may be given by those counts instead of its faces.
            doc["counts"] = [list(n) for n in need.names] if need.names else None
            if typed:
                from .dice import _pool  # the pool's values: what its dice can score

                table = need.table
                names = need.names
                scoring = not isinstance(table[0], tuple)
                doc["scores"] = [
                    {"value": "/".join(map(str, v)) if isinstance(v, tuple) else str(v), "label": dice_words(v, names, scoring)}
                    for v in _pool(need.count, need.sides, table)
                ]
        return doc

    def cli(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "calculator": self.calc.id,
            "inputs": {k: format_value(v) for k, v in self.inputs.items()},
            "status": self.status,
            "given": [_cli_die(d) for d in self.given.log],
        }
        if self.need:
            out["need"] = self._need_doc(False)
        out["odds"] = self.odds.cli()["outcomes"]
        if self.result is not None:
            out["outcomes"] = {o.name: format_value(self.result[o.name]) for o in self.calc.outcomes_for(self.inputs)}
        return out

    def doc(self) -> dict[str, Any]:
        calc = self.calc
        doc = _head(calc, self.inputs, "resolve")
        doc["status"] = self.status
        doc["dice_text"] = dice_text(self.entries)
        args = ["python", "-m", "rules_py", "resolve", calc.id, *(f"{k}={v}" for k, v in doc["changed"].items())]
        if self.entries:
            args += ["--dice", doc["dice_text"]]
        doc["command"] = shlex.join(args)
        # Each roll with the entries it read (a pool of no dice read none): what Undo takes back.
        read = entries_by_roll(self.entries, self.given.log)
        doc["given"] = [{**die_doc(d, calc.page), "entries": e} for d, e in zip(self.given.log, read, strict=True)]
        doc["need"] = self._need_doc(True)
        odds = self.odds.doc()
        doc["outcomes"] = odds["outcomes"]
        doc["notes"] = odds["notes"]
        if self.result is not None:
            doc["rolled"] = _rolled_docs(calc, self.inputs, self.result)
            parts = _rolled_headline(calc, self.inputs, self.result)
        else:
            doc["rolled"] = None
            parts = odds["headline_parts"]
        doc["headline"] = HEADLINE_SEP.join(p["text"] for p in parts)
        doc["headline_parts"] = parts
        if self.need:
            doc["summary"] = f"Next: {self.need.label} ({self.need.dice}). " + odds["summary"]
        else:
            doc["summary"] = "Resolved with the dice given: " + "; ".join(o["summary"] for o in doc["rolled"])
        return doc
