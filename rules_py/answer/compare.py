"""The comparison (``"kind": "compare"``): two options, and the differences that decide between them.

A comparison holds two odds answers, option ``a`` and option ``b`` (a's
inputs with the changes in ``vs``), and per outcome they share the
differences that decide between them: for a yes/no outcome the chance of
yes, for a number the mean (over the numbers only; a certain number is its
own mean), and for every value its chance; each as a, b and ``b - a``, exact
(signed fractions as strings) and as text (percentage points for chances).
Its headline gives each headline outcome in parts (``lead`` + ``a`` + " \u2192 "
+ ``b`` + ``tail``), so that a page can mark option b's. The page renders
them; it does no arithmetic. :meth:`Comparison.cli` is what ``python -m
rules_py odds ... --vs ...`` prints.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..calculator import Calculator, InputError, quoted
from ..formats import decimal, format_probability, format_value, is_number, percent, plus, points, signed, value_label
from .charts import heights, top
from .odds import SCHEMA_ID, OddsAnswer, inputs_text
from .outcome_odds import OutcomeOdds
from .wording import ARROW, headline_text, labelled, likeliest_label

_QUOTED = 80  # the longest name an error quotes whole

if TYPE_CHECKING:
    from . import shapes


def option_b_inputs(calc: Calculator, raw: Mapping[str, Any] | None, vs: Mapping[str, Any] | None) -> dict[str, Any]:
    """Option b's raw inputs: a's, with the changes in ``vs`` (names checked here, so that
    an error names the ``vs.`` field; values are checked with b's other inputs)."""
    vs = dict(vs or {})
    known = {f.name for f in calc.fields}
    unknown = [name for name in vs if name not in known]
    if unknown:
        # A name is quoted short (calculator.quoted), and one too long to quote whole names no field: no field has it.
        raise InputError(
            [(f"vs.{name}" if len(name) <= _QUOTED else None, f"unknown input {quoted(name, _QUOTED)} for option B: {calc.id} takes " + (", ".join(sorted(known)) or "no inputs")) for name in unknown]
        )
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

    def headline(self) -> shapes.CompareHeadlinePart:
        """This outcome in the comparison's first line, in parts, so that a page
        can mark option b's: ``lead`` + ``a`` + " → " + ``b`` + ``tail``."""
        a, b, label = self.a, self.b, self.outcome.label
        if self.outcome.type == "bool":
            pa, pb = a.p(True), b.p(True)
            lead, said_a, said_b, tail = f"{label} ", percent(pa), percent(pb), f", {points(pb - pa)}"
        elif self.has_mean and a.mean is not None and b.mean is not None and not a.leaves_out and not b.leaves_out:
            lead, said_a, said_b, tail = f"{label}: ", decimal(a.mean, 2), decimal(b.mean, 2), f" on average, {plus(b.mean - a.mean)}"
        else:
            lead, said_a, said_b, tail = f"{label}: most likely ", likeliest_label(a), likeliest_label(b), ""
        return {"outcome": self.outcome.name, "lead": lead, "a": said_a, "b": said_b, "tail": tail, "text": f"{lead}{said_a}{ARROW}{said_b}{tail}"}

    def cli(self) -> dict[str, Any]:
        a, b = self.a, self.b
        entry: dict[str, Any] = {}
        if self.outcome.type == "bool":
            pa, pb = a.p(True), b.p(True)
            entry["chance_of_yes"] = {"a": format_probability(pa), "b": format_probability(pb), "b_minus_a": signed(pb - pa)}
        if self.has_mean and a.mean is not None and b.mean is not None:
            leaves_out = {"a": [format_value(v) for v in a.leaves_out], "b": [format_value(v) for v in b.leaves_out]}
            entry["mean"] = {"a": signed(a.mean), "b": signed(b.mean), "b_minus_a": signed(b.mean - a.mean), "leaves_out": leaves_out}
        entry["values"] = {format_value(v): {"a": format_probability(a.p(v)), "b": format_probability(b.p(v)), "b_minus_a": signed(b.p(v) - a.p(v))} for v in self.values}
        return entry

    def doc(self) -> shapes.Difference:
        a, b, outcome = self.a, self.b, self.outcome
        chance: shapes.ChanceDifference | None = None
        mean: shapes.MeanDifference | None = None
        if outcome.type == "bool":
            pa, pb = a.p(True), b.p(True)
            chance = {"a": format_probability(pa), "b": format_probability(pb), "b_minus_a": signed(pb - pa), "a_percent": percent(pa), "b_percent": percent(pb), "difference": points(pb - pa)}
            said = f"{percent(pa)}{ARROW}{percent(pb)} ({points(pb - pa)})"
        elif self.has_mean and a.mean is not None and b.mean is not None:
            d = b.mean - a.mean
            mean = {
                "a": signed(a.mean), "b": signed(b.mean), "b_minus_a": signed(d),
                "a_text": decimal(a.mean, 2), "b_text": decimal(b.mean, 2), "difference": plus(d),
                "leaves_out": {"a": [value_label(outcome, v) for v in a.leaves_out], "b": [value_label(outcome, v) for v in b.leaves_out]},
            }  # fmt: skip
            said = f"mean {decimal(a.mean, 2)}{ARROW}{decimal(b.mean, 2)} ({plus(d)})"
        else:  # words: the likeliest value of each, once when it is the same
            la, lb = likeliest_label(a), likeliest_label(b)
            said = f"most likely {la} in both" if la == lb else f"most likely {la}{ARROW}{lb}"
        tallest = top(a, b)  # one chart for both: exactly on the larger top, at least and at most on both options' scale
        values: list[shapes.ValueDifference] = [
            {
                "value": format_value(v), "label": value_label(outcome, v), "a": format_probability(a.p(v)), "b": format_probability(b.p(v)),
                "b_minus_a": signed(b.p(v) - a.p(v)), "difference": points(b.p(v) - a.p(v)),
                "heights": {"a": heights(a, v, tallest, self.scale), "b": heights(b, v, tallest, self.scale)},
                "texts": {"a": self._texts(a, v), "b": self._texts(b, v)},
            }  # fmt: skip
            for v in self.values
        ]
        return {
            "name": outcome.name,
            "label": outcome.label,
            "type": outcome.type,
            "chance": chance,
            "mean": mean,
            "values": values,
            "chart": outcome.type == "int" and len(self.values) >= 3,
            "summary": labelled(outcome.label, said),
        }

    def _texts(self, odds: OutcomeOdds, value: Any) -> shapes.BarTexts:
        """One option's chance of a value in each view of the chart, as its bar's text
        says it (an option certain of its value has no values list of its own to read):
        at least and at most on both options' scale; off it, the chance of the value itself."""
        exactly = percent(odds.p(value))
        cumulative = odds.cumulative(self.scale).get(value)
        if cumulative is None:
            return {"exactly": exactly, "at_least": exactly, "at_most": exactly}
        return {"exactly": exactly, "at_least": percent(cumulative[0]), "at_most": percent(cumulative[1])}


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
        a_text, b_text = inputs_text(calc, self.a.odds.inputs), inputs_text(calc, self.b.odds.inputs)
        self.vs = {k: v for k, v in b_text.items() if v != a_text[k]}

    def cli(self) -> dict[str, Any]:
        return {"calculator": self.calc.id, "vs": self.vs, "a": self.a.cli(), "b": self.b.cli(), "differences": {d.outcome.name: d.cli() for d in self.differences}}

    def doc(self) -> shapes.CompareAnswer:
        differences = [d.doc() for d in self.differences]
        by_name = {d.outcome.name: d for d in self.differences}
        shared = [o for o in self.calc.headline_outcomes([o.outcome for o in self.a.outcomes]) if o.name in by_name]
        parts = [by_name[o.name].headline() for o in shared]
        return {
            "schema": SCHEMA_ID,
            "kind": "compare",
            "calculator": self.calc.id,
            "title": self.calc.title,
            "headline": headline_text(parts) or "The two options share no headline outcome.",
            "headline_parts": parts,
            "vs": self.vs,
            "a": self.a.doc(),
            "b": self.b.doc(),
            "differences": differences,
            "summary": "; ".join(d["summary"] for d in differences) or "The two options share no outcome.",
        }


def compare_answer(calc: Calculator, raw: Mapping[str, Any] | None = None, vs: Mapping[str, Any] | None = None) -> shapes.CompareAnswer:
    """Two options side by side, as the page renders them (see :class:`Comparison`)."""
    return Comparison(calc, raw, vs, with_steps=True).doc()
