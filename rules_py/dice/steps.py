"""How the outcomes come about: the steps of :func:`enumerate_steps`.

Every kind of step a procedure asks for (a die, a chart, a pool, a pool of a
fold, a stage of a chain, the rolls inside a sub-procedure or a part) is
recorded here, in one way: each roll is known by its *place* (a tuple saying
where it is made, so that it is made at most once on any path) and gets, per
value ``v`` it decides, the exact weight ``w * q``: ``w`` the chance of
reaching the roll along one edge of the tree of choices, ``q`` the chance of
``v`` there. Summed over the edges, a roll's weights total ``p_rolled``, the
chance that it is made at all, and ``v``'s share of that is
``P(v | rolled)``. The rolls of a part enumerated on its own come as its
*edges* (:meth:`_StepLog.edges`, exact within the part) and are added with
the chance of reaching the part (:meth:`_StepLog.add_edges`).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from fractions import Fraction

from .distribution import _sort_key
from .faces import Counts

Place = tuple[Hashable, ...]
"""Where a roll is made: (label, times met before), or a part's (fn, times
reached before) followed by the roll's place within the part."""
Order = tuple[Hashable, ...]
"""The order a player reads a chart's values in (its faces')."""
Weights = list[tuple[Hashable, Fraction]]
"""Per value a roll decides, its exact weight."""
Edge = tuple[Place, str, Order | None, Counts | None, bool, Weights]
"""One roll of a part, as :meth:`_StepLog.edges` gives it: (place, label,
order, names, counting, weights)."""
_ByValue = dict[Hashable, dict[int, int]]  # value -> {unreduced denominator: numerator}

def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


class Step:
    """One labelled roll of a procedure: ``label``; ``p_rolled``, the chance
    that it is rolled at all; ``values``, ((value, P(value | rolled)), ...)
    in the order a player reads them (a chart's in the order of its faces);
    and for labelling those values, ``names`` (what a pool counts, as
    :meth:`Dice.pool` takes them) and ``counting`` (a pool that counts
    scoring dice rather than adding faces)."""

    __slots__ = ("label", "p_rolled", "values", "names", "counting")

    def __init__(self, label: str, p_rolled: Fraction, values: tuple[tuple[Hashable, Fraction], ...], names: Counts | None, counting: bool) -> None:
        self.label, self.p_rolled, self.values, self.names, self.counting = label, p_rolled, values, names, counting

    def __repr__(self) -> str:
        body = ", ".join(f"{v!r}: {p}" for v, p in self.values)
        return f"Step({self.label!r}, rolled {self.p_rolled}, {{{body}}})"


class _StepLog:
    """Per roll, the exact weight of each value taken: integer numerators per
    unreduced denominator (as in _summed), made Fractions once at the end.

    A roll is known by where it is made, so that it is made at most once on
    any path: (label, how many times the label was met before on the path)
    in the procedure itself, and inside a part, (the part's function, how
    many times it was reached before) followed by the roll's place within
    the part."""

    def __init__(self) -> None:
        self._rolls: dict[Place, tuple[str, Order | None, Counts | None, bool, _ByValue]] = {}  # place -> (label, order, names, counting, {value: {den: num}})

    def _entry(self, place: Place, label: str, order: Order | None, names: Counts | None, counting: bool) -> _ByValue:
        entry = self._rolls.get(place)
        if entry is None:
            entry = self._rolls[place] = (label, order, names, counting, {})
        return entry[4]

    def add(self, place: Place, label: str, order: Order | None, names: Counts | None, counting: bool, value: Hashable, num: int, den: int) -> None:
        by_den = self._entry(place, label, order, names, counting).setdefault(value, {})
        by_den[den] = by_den.get(den, 0) + num

    def add_edges(self, prefix: Place, edges: Iterable[Edge], num: int, den: int) -> None:
        """A part's rolls (see :meth:`edges`), each weight times ``num/den``,
        the chance of reaching the part, each place behind ``prefix``."""
        for place, label, order, names, counting, weights in edges:
            values = self._entry(prefix + place, label, order, names, counting)
            for value, p in weights:
                by_den = values.setdefault(value, {})
                d = den * p.denominator
                by_den[d] = by_den.get(d, 0) + num * p.numerator

    def register(self, prefix: Place, edges: Iterable[Edge]) -> None:
        """A part's rolls in the order they are met, their weights to come (see _chain_steps)."""
        for place, label, order, names, counting, _ in edges:
            self._entry(prefix + place, label, order, names, counting)

    def edges(self) -> list[Edge]:
        """Each roll with the exact weight of each value (within this enumeration)."""
        out: list[Edge] = []
        for place, (label, order, names, counting, values) in self._rolls.items():
            weights: Weights = []
            for value, by_den in values.items():
                common = math.lcm(*by_den)
                weights.append((value, Fraction(sum(n * (common // d) for d, n in by_den.items()), common)))
            out.append((place, label, order, names, counting, weights))
        return out

    def steps(self) -> list[Step]:
        """The rolls in the order first met. Rolls that share a label (made at
        different places) are told apart by their order: "(2nd roll)"."""
        out: list[Step] = []
        met: dict[str, int] = {}
        for _place, label, order, names, counting, weights in self.edges():
            weights = [(v, w) for v, w in weights if w]
            rolled = sum((w for _, w in weights), Fraction(0))
            if not rolled:
                continue
            met[label] = met.get(label, 0) + 1
            shown = label if met[label] == 1 else f"{label} ({_ordinal(met[label])} roll)"
            out.append(Step(shown, rolled, tuple((v, w / rolled) for v, w in _in_order(weights, order)), names, counting))
        return out


def _in_order(weights: Weights, order: Order | None) -> Weights:
    """A roll's values in the order a player reads them: a chart's in the
    order of its faces, any other's by value."""
    if order:
        rank = {v: i for i, v in enumerate(order)}
        return sorted(weights, key=lambda vw: rank[vw[0]])
    return sorted(weights, key=lambda vw: _sort_key(vw[0]))
