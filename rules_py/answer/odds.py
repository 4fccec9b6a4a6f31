"""The odds answer (``"kind": "odds"``): every outcome's exact odds for one set of inputs, and how they come about.

It lists its outcomes in the calculator's order, each one of two kinds:

* ``"certain"``: the outcome has one value with probability 1 (a
  deterministic calculator gives only these); it carries ``value`` and
  ``value_label`` (``label`` is always the outcome's own).
* ``"distribution"``: ``values`` in display order, each with its exact
  probability ``p`` and the cumulative ``at_least`` / ``at_most`` (exact
  fractions as strings: ``"n/d"``, ``"0"``, ``"1"``; ``null`` where a value
  is not on the outcome's number scale), their percentages as the page
  prints them, and ``mean`` (see :mod:`.outcome_odds`).

How it comes about. An odds answer also lists ``steps``: every labelled
roll of the procedure in the order first met, with ``p_rolled``, the exact
chance that it is made at all, and ``values``, the distribution of what it
decided *given that it is made* (so each step's ``p`` sum to 1). They come
from the same enumeration as the outcomes (:func:`rules_py.dice.enumerate_steps`),
generically from the labels the procedure gives its dice. Rolls that decide
the same values with the same chances (the chart at each turn start) are one
step, at the place of the first, whose ``rolls`` list each of them with its
own chance of being made and whose ``same`` says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, Literal, TypedDict, TypeVar

from ..calculator import Calculator, Odds
from ..dice import Step
from ..formats import (
    decimal,
    dice_words,
    format_probability,
    format_value,
    percent,
    signed,
    value_label,
)
from .charts import charted, heights
from .outcome_odds import OutcomeOdds
from .units import Said, badged, drawn, in_cells, units_table
from .wording import (
    cumulative_labels,
    headline_text,
    how_often,
    labelled,
    mean_leaves_out,
    odds_headline,
    said,
)

if TYPE_CHECKING:
    from . import shapes

SCHEMA_ID: Literal["fire-mission/answer/1"] = "fire-mission/answer/1"


Kind = TypeVar("Kind", Literal["odds"], Literal["roll"], Literal["resolve"])


class _Head(TypedDict, Generic[Kind]):
    """The keys every answer but a comparison and a sweep begins with, in their order."""

    schema: Literal["fire-mission/answer/1"]
    kind: Kind
    calculator: str
    title: str
    rolls_dice: bool
    inputs: dict[str, str]
    changed: dict[str, str]


def changed_inputs(calc: Calculator, inputs: Mapping[str, Any]) -> dict[str, str]:
    """The inputs that differ from their defaults, as text (what a link or a command needs)."""
    out = {}
    for f in calc.fields:
        text = format_value(inputs[f.name])
        if f.default is None or text != format_value(f.default):
            out[f.name] = text
    return out


def inputs_text(calc: Calculator, inputs: Mapping[str, Any]) -> dict[str, str]:
    """Every input's value as text."""
    return {f.name: format_value(inputs[f.name]) for f in calc.fields}


def head(calc: Calculator, inputs: Mapping[str, Any], kind: Kind) -> _Head[Kind]:
    """The calculator and its inputs, as an answer of this ``kind`` begins."""
    return {
        "schema": SCHEMA_ID,
        "kind": kind,
        "calculator": calc.id,
        "title": calc.title,
        "rolls_dice": calc.rolls_dice,
        "inputs": inputs_text(calc, inputs),
        "changed": changed_inputs(calc, inputs),
    }


def value_row(odds: OutcomeOdds, value: Any, p: Any, cumulative: Mapping[Any, tuple[Any, Any]]) -> shapes.Value:
    """One value of a distribution: its chance, its cumulative chances on the number scale, its bars."""
    outcome = odds.outcome
    label = value_label(outcome, value)
    at_least = at_most = at_least_label = at_most_label = None
    if value in cumulative:
        at_least, at_most = cumulative[value]
        at_least_label, at_most_label = cumulative_labels(odds, value, label)
    return {
        "value": format_value(value),
        "label": label,
        **in_cells(outcome, value),
        "p": format_probability(p),
        "percent": percent(p),
        "bar": decimal(p * 100, 2),  # the width of its bar, in percent of the row
        "at_least": None if at_least is None else format_probability(at_least),
        "at_least_percent": None if at_least is None else percent(at_least),
        "at_most": None if at_most is None else format_probability(at_most),
        "at_most_percent": None if at_most is None else percent(at_most),
        "at_least_label": at_least_label,
        "at_most_label": at_most_label,
        "heights": heights(odds, value),
    }


def outcome_doc(odds: OutcomeOdds) -> shapes.OddsOutcome:
    """One outcome's odds in the typed answer: certain, or a distribution."""
    outcome = odds.outcome
    if odds.is_certain:
        return {
            "name": outcome.name,
            "label": outcome.label,
            "help": outcome.help,
            "type": outcome.type,
            **drawn(outcome),
            "kind": "certain",
            "value": format_value(odds.certain),
            "value_label": value_label(outcome, odds.certain),
            **in_cells(outcome, odds.certain),
            "summary": labelled(outcome.label, said(odds)),
            **badged(outcome, odds=odds),
        }
    cumulative = odds.cumulative()
    values = [value_row(odds, value, p, cumulative) for value, p in odds.pairs]
    mean = odds.mean
    return {
        "name": outcome.name,
        "label": outcome.label,
        "help": outcome.help,
        "type": outcome.type,
        **drawn(outcome),
        "kind": "distribution",
        "values": values,
        "chart": charted(odds),
        "likeliest": values[odds.likeliest_index()]["value"],
        "mean": None if mean is None else signed(mean),
        "mean_text": None if mean is None else decimal(mean, 2),
        "mean_leaves_out": mean_leaves_out(odds) if mean is not None else [],
        "mean_leaves_out_p": format_probability(odds.leaves_out_p) if mean is not None else "0",
        "summary": labelled(outcome.label, said(odds)),
        **badged(outcome, odds=odds),
    }


def step_roll(step: Step) -> shapes.StepRoll:
    return {
        "label": step.label,
        "p_rolled": format_probability(step.p_rolled),
        "p_rolled_percent": percent(step.p_rolled),
        "often": how_often(step.p_rolled),
    }


def step_doc(step: Step, same: Sequence[Step] | None = None) -> shapes.Step:
    """One step of "how it comes about": exact chances as text, with their
    percentages. ``same`` lists the rolls that read the very same table
    (``step`` first): the step stands for them all, each with how often it
    is made (``rolls``), and ``same`` says so in words."""
    values: list[shapes.StepValue] = []
    for value, p in step.values:
        text = " ".join(format_value(v) for v in value) if isinstance(value, tuple) else format_value(value)
        values.append(
            {
                "value": text,
                "label": dice_words(value, step.names, step.counting),
                "p": format_probability(p),
                "percent": percent(p),
            }
        )
    rolls = list(same or [step])
    return {
        **step_roll(step),
        "values": values,
        "rolls": [step_roll(s) for s in rolls],
        "same": f"The same table, for {len(rolls)} rolls:" if len(rolls) > 1 else None,
    }


def step_docs(steps: Sequence[Step]) -> list[shapes.Step]:
    """The steps, identical rolls grouped: rolls that decide the same values
    with the same chances, read the same way (the air strike chart at each
    turn start, two attacks' 3D6 hits), are one step at the place of the
    first, listing every roll it stands for."""
    groups: dict[tuple[Any, ...], list[Step]] = {}
    for step in steps:
        groups.setdefault((step.values, step.names, step.counting), []).append(step)
    return [step_doc(same[0], same) for same in groups.values()]


def answer_summary(
    outcomes: Sequence[shapes.CertainOutcome | shapes.DistributionOutcome],
    units: shapes.Units | None,
) -> str:
    """The answer in one line of text (what a screen reader is told): each outcome's
    summary, those a table of units stands for as one phrase per unit."""
    if not units:
        return "; ".join(o["summary"] for o in outcomes)
    replaced = set(units["replaces"])
    return "; ".join([o["summary"] for o in outcomes if o["name"] not in replaced] + [row["summary"] for row in units["rows"]])


class OddsAnswer:
    """The odds of every outcome for one set of inputs, enumerated once:
    :meth:`doc` is the typed answer, :meth:`cli` what ``python -m rules_py
    odds`` prints."""

    def __init__(self, calc: Calculator, odds: Odds):
        self.calc = calc
        self.odds = odds
        self.outcomes = [OutcomeOdds(o, odds.outcomes[o.name]) for o in calc.outcomes_for(odds.inputs)]

    @classmethod
    def of(
        cls,
        calc: Calculator,
        raw: Mapping[str, Any] | None = None,
        *,
        with_steps: bool = False,
    ) -> OddsAnswer:
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
        """The outcomes of the headline, in its order."""
        return [self.outcome(o.name) for o in self.calc.headline_outcomes([o.outcome for o in self.outcomes])]

    def headline_parts(self) -> list[shapes.HeadlinePart]:
        return [{"outcome": o.outcome.name, "text": odds_headline(o)} for o in self.headline()]

    def outcome_docs(
        self,
    ) -> tuple[list[shapes.CertainOutcome | shapes.DistributionOutcome], shapes.Units | None]:
        """Every outcome's odds, and the units' table they make on a map."""
        docs = [outcome_doc(o) for o in self.outcomes]
        units = units_table(
            [
                Said(
                    o.outcome,
                    format_value(o.certain) if o.is_certain else None,
                    said(o),
                )
                for o in self.outcomes
            ]
        )
        return docs, units

    def doc(self) -> shapes.OddsAnswer:
        parts = self.headline_parts()
        outcomes, units = self.outcome_docs()
        return {
            **head(self.calc, self.odds.inputs, "odds"),
            "headline": headline_text(parts),
            "headline_parts": parts,
            "outcomes": outcomes,
            "units": units,
            "notes": list(self.odds.notes),
            "steps": step_docs(self.odds.steps),
            "summary": answer_summary(outcomes, units),
        }


def odds_answer(calc: Calculator, raw: Mapping[str, Any] | None = None) -> shapes.OddsAnswer:
    """The typed odds answer for these inputs (InputError on bad input)."""
    return OddsAnswer.of(calc, raw, with_steps=True).doc()
