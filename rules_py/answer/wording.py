"""The answer in a player's words: its headline, each outcome's summary, how often a roll is made.

The headline. Every answer begins with ``headline``: one line on the outcome
or two a player decides on (``Calculator.headline``), its parts in
``headline_parts``, joined by a middle dot. A yes/no outcome gives its chance
of yes; a number its average and, where it says something, its median ``k``
(the largest number with ``P(X >= k) >= 1/2``) with that chance ("Saved:
1.00 on average, 1 or more 66.5%"); a number that may be a word ("later") or
a choice its likeliest value; a certain or rolled outcome its value. In a
comparison each part also has ``lead``, ``a``, ``b`` and ``tail`` (text =
lead + a + " \u2192 " + b + tail), so that a page can mark option b's.

A summary says an outcome in one line: its label, then what it is
(:func:`said`); the answer's ``summary`` joins them (what a screen reader is
told). Each text is made once, from the numbers, and never read back.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..calculator import Outcome
from ..formats import decimal, format_probability, number_text, percent, value_label
from .outcome_odds import OutcomeOdds

if TYPE_CHECKING:
    from . import shapes

HEADLINE_SEP = " \u00b7 "  # between the headline's parts: "Driven off 1.2% · Hits on the target: 5.83 on average"
ARROW = " \u2192 "  # from option a to option b


def labelled(label: str, said: str) -> str:
    """An outcome's label and what it is, as a summary or a headline says them: "Saved: 1"."""
    return f"{label}: {said}"


def value_headline(outcome: Outcome, value: Any) -> str:
    """A certain or rolled outcome in the headline: its label and its value's
    ("Driven off: no"; a label that has its own colon takes a space: "Unit a: isolated yes")."""
    label = outcome.label
    return f"{label}{' ' if ': ' in label else ': '}{value_label(outcome, value)}"


def odds_headline(odds: OutcomeOdds) -> str:
    """An outcome's odds in the headline: the chance of yes, the average and
    the median's chance, the likeliest value, or the certain value."""
    outcome = odds.outcome
    label = outcome.label
    if odds.is_certain:
        return value_headline(outcome, odds.certain)
    if outcome.type == "bool":
        return f"{label} {percent(odds.p(True))}"
    if odds.mean is not None and not odds.leaves_out:
        text = labelled(label, f"{decimal(odds.mean, 2)} on average")
        k = odds.median()
        return text if k is None else f"{text}, {number_text(k)} or more {percent(odds.at_least(k))}"
    return labelled(label, f"most likely {likeliest_label(odds)} ({percent(odds.p(odds.likeliest()))})")


def headline_text(parts: Iterable[shapes.HeadlinePart] | Iterable[shapes.CompareHeadlinePart]) -> str:
    """The headline's line: its parts' texts joined by a middle dot."""
    return HEADLINE_SEP.join(p["text"] for p in parts)


def likeliest_label(odds: OutcomeOdds) -> str:
    """The likeliest value's label."""
    return value_label(odds.outcome, odds.likeliest())


def mean_leaves_out(odds: OutcomeOdds) -> list[str]:
    """The words a mean over the numbers leaves out, as their labels."""
    return [value_label(odds.outcome, v) for v in odds.leaves_out]


def said(odds: OutcomeOdds) -> str:
    """What an outcome's odds are, in a player's words, after its label: the
    certain value, the chance of yes, or the mean and the likeliest value."""
    outcome = odds.outcome
    if odds.is_certain:
        return value_label(outcome, odds.certain)
    if outcome.type == "bool":
        return f"{percent(odds.p(True))} chance"
    likeliest = odds.likeliest()
    most = f"most likely {value_label(outcome, likeliest)} ({percent(odds.p(likeliest))})"
    if odds.mean is None:
        return most
    mean = f"mean {decimal(odds.mean, 2)}"
    if odds.leaves_out:
        mean += f" (leaving out {' and '.join(mean_leaves_out(odds))}, {percent(odds.leaves_out_p)})"
    return f"{mean}, {most}"


def cumulative_labels(odds: OutcomeOdds, value: Any, label: str) -> tuple[str, str]:
    """How a value on the number scale reads as at least and at most: "\u22652" and
    "\u22642"; a word past every number ("later") is itself at least (nothing
    lies beyond it), and at most it is every value on the scale."""
    if value in odds.above:
        return label, f"any, {label} included"
    return f"\u2265{label}", f"\u2264{label}"


def how_often(p: Fraction) -> str:
    """How often a roll is made, in words: "always rolled", "rolled 33.3% of the time (1/3)"."""
    return "always rolled" if p == 1 else f"rolled {percent(p)} of the time ({format_probability(p)})"
