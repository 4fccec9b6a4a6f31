"""One outcome's exact odds and what follows from them: display order, cumulative chances, mean, median.

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

The median a headline quotes is the largest number ``k`` with
``P(X >= k) >= 1/2``; the likeliest value is the first in display order on
a tie.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..calculator import Outcome
from ..dice import Distribution
from ..formats import format_probability, format_value, is_number


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
    projection of it (:func:`rules_py.answer.odds.outcome_doc`, :meth:`cli`;
    a sheet reads the fractions)."""

    def __init__(self, outcome: Outcome, dist: Distribution):
        self.outcome = outcome
        self.pairs = display_order(outcome, dist)
        self._p: dict[Any, Fraction] = dict(self.pairs)
        certain = [v for v, p in self.pairs if p == 1]
        self.is_certain = bool(certain)
        self.certain = certain[0] if certain else None
        numeric = outcome.type == "int"
        # The number scale: the numbers, then the words that mean "past every number".
        above = [w for w in outcome.extra if w in self._p] if outcome.extra_above else []
        self.scale = [v for v, _ in self.pairs if is_number(v)] + above if numeric else []
        self.above = frozenset(above)
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
        return sum((p for v, p in self.pairs if v in self.above or (is_number(v) and v >= threshold)), Fraction(0))

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

    def likeliest_index(self) -> int:
        """The likeliest value's place in display order (the first on a tie)."""
        pairs = self.pairs
        return max(range(len(pairs)), key=lambda i: (pairs[i][1], -i))

    def likeliest(self) -> Any:
        """The likeliest value (the first in display order on a tie)."""
        return self.pairs[self.likeliest_index()][0]

    def cli(self) -> dict[str, str]:
        """The CLI's odds of this outcome: value -> exact chance, in display order."""
        return {format_value(v): format_probability(p) for v, p in self.pairs}
