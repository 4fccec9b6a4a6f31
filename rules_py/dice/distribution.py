"""Exact finite distributions, and those of dice: one die, a chart, a pool.

A :class:`Distribution` maps each value to its exact probability (a
:class:`fractions.Fraction`), the probabilities summing to 1. The dice's are
built from integer counts (:mod:`.convolve`): ``n`` dice read through a face
table ``t`` give ``P(v) = c(v) / sides**n``, ``c(v)`` the number of the
``sides**n`` equally likely rolls whose entries add up to ``v``. A chart
(one die read through a table) gives each distinct entry its share of the
faces.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any, cast

from .convolve import _pool_counts
from .faces import FaceTable, at_least, face_table, faces


def _sort_key(value: Any) -> tuple[int, Any, str]:
    """Numbers first in numeric order, then anything else by its text."""
    if isinstance(value, bool):
        return (0, int(value), "")
    if isinstance(value, (int, Fraction)):
        return (0, value, "")
    return (1, 0, str(value))


class Distribution(Mapping[Hashable, Fraction]):
    """An immutable finite distribution: value -> exact probability.

    Values with probability zero are dropped. The probabilities are
    ``Fraction`` and sum to exactly 1. Iteration is in ascending value order
    (numbers first, then other values by their text).
    """

    __slots__ = ("_p", "_items", "_weights")

    def __init__(self, weights: Mapping[Hashable, int | Fraction] | Iterable[tuple[Hashable, int | Fraction]]):
        pairs = weights.items() if isinstance(weights, Mapping) else weights
        merged: dict[Hashable, Fraction] = {}
        for value, weight in pairs:
            # Fraction arithmetic dominates the odds of the larger calculators:
            # no conversion of what is a Fraction already, no addition of a first weight.
            if type(weight) is not Fraction:
                weight = Fraction(weight)
            if weight < 0:
                raise ValueError(f"negative weight {weight} for {value!r}")
            if weight:
                before = merged.get(value)
                merged[value] = weight if before is None else before + weight
        total = sum(merged.values(), Fraction(0))
        if total == 0:
            raise ValueError("a distribution needs at least one value of positive weight")
        # Exact weights from an enumeration sum to 1 already: no division then.
        scaled = merged.items() if total == 1 else ((v, w / total) for v, w in merged.items())
        self._set(sorted(scaled, key=lambda vw: _sort_key(vw[0])))

    def _set(self, items: list[tuple[Hashable, Fraction]]) -> None:
        self._items: tuple[tuple[Hashable, Fraction], ...] = tuple(items)
        self._p = dict(items)
        # (value, numerator, denominator): what odds mode multiplies along a path.
        self._weights = tuple((v, p.numerator, p.denominator) for v, p in items)

    @classmethod
    def _exact(cls, probabilities: Mapping[Hashable, Fraction]) -> "Distribution":
        """From positive Fractions already known to sum to exactly 1 (an
        enumeration's, see _summed): no conversion, no sum, no division."""
        self = cls.__new__(cls)
        self._set(sorted(probabilities.items(), key=lambda vw: _sort_key(vw[0])))
        return self

    # Mapping protocol
    def __getitem__(self, value: Hashable) -> Fraction:
        return self._p[value]

    def __iter__(self) -> Iterator[Hashable]:
        return (v for v, _ in self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Distribution):
            return self._p == other._p
        if isinstance(other, Mapping):
            return self._p == {k: Fraction(v) for k, v in other.items() if v}
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._items)

    def __repr__(self) -> str:
        body = ", ".join(f"{v!r}: {p}" for v, p in self._items)
        return f"Distribution({{{body}}})"

    def pairs(self) -> tuple[tuple[Hashable, Fraction], ...]:
        """The (value, probability) pairs in order."""
        return self._items

    def p(self, value: Hashable) -> Fraction:
        """P(X = value); zero for a value never produced."""
        return self._p.get(value, Fraction(0))

    def mean(self) -> Fraction:
        """E[X] = sum of value * P(value); numeric values only."""
        # Numbers only (see above), which the type checker knows only as Hashable.
        return sum((Fraction(cast("int | Fraction", v)) * p for v, p in self._items), Fraction(0))


@lru_cache(maxsize=None)
def die(sides: int) -> Distribution:
    """One fair die numbered 1..sides: P(k) = 1/sides."""
    if sides < 1:
        raise ValueError("a die needs at least one side")
    weights: dict[Hashable, int] = {k: 1 for k in range(1, sides + 1)}
    return Distribution(weights)


def pool(n: int, sides: int, key: Callable[[int], Hashable] | FaceTable) -> Distribution:
    """The sum over n independent dice of key(face), by repeated convolution.

    ``key`` (a face table, or a function of the face) gives a number or a
    tuple of numbers (added element-wise), so one pass can count successes
    and sixes together. With zero dice the sum is 0 (or the zero tuple).
    Cost: O(n * values * sides), never sides**n; cached by the table's value.

    Args:
        n: how many dice.
        sides: each die's faces.
        key: what each face reads.

    Returns:
        P(sum = v) = c(v) / sides**n for every sum v the dice can make.
    """
    return _pool(n, sides, face_table(sides, key))


@lru_cache(maxsize=None)
def _pool(n: int, sides: int, table: FaceTable) -> Distribution:
    return Distribution({value: Fraction(ways, sides**n) for value, ways in _pool_counts(n, sides, table)})


def sum_of(n: int, sides: int) -> Distribution:
    """The total of n dice of the given sides (3D6: values 3..18)."""
    return _pool(n, sides, faces(sides))


def successes(n: int, target: int, sides: int = 6) -> Distribution:
    """How many of n dice show target or more: Binomial(n, (sides-target+1)/sides)."""
    return _pool(n, sides, at_least(target, sides))


@lru_cache(maxsize=None)
def _chart(sides: int, table: FaceTable) -> Distribution:
    """One die read through a face table: each distinct entry with its share of the faces."""
    return Distribution((entry, 1) for entry in face_table(sides, table))


def zero_of(sides: int, table: FaceTable) -> Any:
    """The sum of no dice read through ``table``: 0, or the zero vector."""
    return next(iter(_pool(0, sides, table)))
