"""Charts: which outcomes a page draws, and each bar's height, worked out exactly.

A number outcome with three or more values has ``chart`` true, and each of
its values ``heights``: its bar in each view (exactly, at least, at most) in
percent of the chart's height, exactly scaled so that the likeliest value
fills it and a cumulative chance of 1 fills it; a comparison's values carry
both options' heights on one scale (the larger likeliest chance of the two
fills it). A value off the number scale has no cumulative bar. The page
draws them as they come.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..formats import decimal
from .outcome_odds import OutcomeOdds

if TYPE_CHECKING:
    from . import shapes


def charted(odds: OutcomeOdds) -> bool:
    """Whether a page draws this outcome's distribution: a number with three or more values."""
    return odds.outcome.type == "int" and not odds.is_certain and len([p for _, p in odds.pairs if p]) >= 3


def top(*odds: OutcomeOdds) -> Fraction:
    """The chance that fills a chart's height in the exactly view: the likeliest value's, of every option drawn."""
    return max(p for o in odds for _, p in o.pairs)


def heights(odds: OutcomeOdds, value: Any, tallest: Fraction | None = None, scale: list[Any] | None = None) -> shapes.Heights:
    """A value's bar in each view of a chart, in percent of the chart's height:
    exactly (scaled so that the likeliest value, or ``tallest``, fills it), at
    least and at most (a chance of 1 fills it; None off the number scale,
    which is ``scale`` if given: see :meth:`OutcomeOdds.cumulative`)."""
    tallest = tallest or top(odds)
    out: shapes.Heights = {"exactly": decimal(odds.p(value) / tallest * 100, 2), "at_least": None, "at_most": None}
    cumulative = odds.cumulative(scale)
    if value in cumulative:
        at_least, at_most = cumulative[value]
        out["at_least"], out["at_most"] = decimal(at_least * 100, 2), decimal(at_most * 100, 2)
    return out
