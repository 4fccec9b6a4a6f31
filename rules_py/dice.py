"""Exact dice distributions, and the dice object that runs a procedure two ways.

A rules procedure is an ordinary Python function ``procedure(dice, **inputs)``
that asks ``dice`` for every random number it needs and returns a dict of its
outcomes. It is written once and run in one of two modes:

* **Odds** (:func:`enumerate_outcomes`): ``dice`` is an :class:`Enumerating`
  object. Every *choice point* (one call such as ``dice.d6(...)`` or
  ``dice.sum_of(3, 6, ...)``) is a finite distribution. The procedure is
  replayed once per path through the tree of choice points, depth first: on
  each replay the choice points up to the last branching one repeat the choices
  of the previous path, the last one advances to its next value, and any later
  one takes its first value. A path's weight is the product of the exact
  probabilities (:class:`fractions.Fraction`) of the values chosen along it, so
  the weights of all paths sum to exactly 1.
* **Roll** (:class:`Rolling`): ``dice`` draws real dice from
  ``random.Random(seed)`` and records every die shown to the player with what
  it decided. Only ``randrange`` is used, whose output for an integer seed is
  the same on CPython 3.11 and on the Python 3.14 inside Pyodide.

Keeping the tree small
----------------------
Replay costs one run of the procedure per leaf, so aggregates are single
choice points: ``sum_of(n, sides)`` is the n-fold convolution of one die and
has ``n*(sides-1)+1`` values instead of ``sides**n`` paths; ``successes(n,
target)`` is a binomial with ``n+1`` values; ``pool(n, sides, key)`` sums
``key``'s entry for each face (a number or a vector, for instance successes
and sixes together) over n dice by convolution. A *chart* roll (``d6(label, chart=...)``) branches once per
distinct chart result, not per face.

Charts and pool keys are data: a tuple whose i-th entry is what face i + 1
reads (:func:`face_table` builds one from a function). The engine's caches
(the pool distributions, a chart's distribution) are keyed on that tuple, so
two calls that read the dice the same way share one distribution, whoever
built the tuple and however. A function is still accepted and turned into its
table at the call.

``dice.sub(fn, *args, **labels)`` runs a self-contained part of a procedure;
in odds mode the part is enumerated on its own (once per distinct ``fn`` and
``args``, cached) and becomes one choice point over its distinct return
values. Keyword arguments are passed on to ``fn`` but are not part of the
cache key: they are for what a roll shows (labels) and must not change the
part's distribution. That turns a
product of independent stages into a sum of their sizes *inside* each stage;
the replays of the procedure itself still number the product of the stages'
distinct results.

``return dice.parts((fn, *args), ...)`` goes one step further for a procedure
that is wholly made of independent parts, each ``fn(dice, *args)`` returning a
dict of its own outcomes: a roll runs the parts in order and merges their
dicts; the odds enumerate each part's marginals on its own, so the cost is
the sum of the parts' sizes, never their product. Its result must be returned
untouched (the odds-mode value is an opaque token, so reading or extending it
fails loudly rather than giving wrong odds); after other dice, or inside a
sub, it falls back to the exact product.

``return dice.fold(groups, outcome, reads)`` is the common ending of a
procedure: independent pools (:class:`Pool`; a group is one pool, or several
whose values add up), then ``outcome``, a pure function of the groups'
values, giving the outcomes. A roll rolls every pool once, in order; the
odds are no replay at all but one loop over the groups' values, with integer
counts of equally likely rolls over one common denominator (the product of
the pools' ``sides**n``) and one Fraction per value at the end. An outcome
that ``reads`` names reads only some coordinates of vector values (the
successes but not the 6s, say): it is folded over those marginals alone,
the other coordinates set to 0, which is exact because the odds report each
outcome's own distribution. An outcome that only compares two groups (a
margin, who shows more 6s) is declared so (``by_difference=True``) and is
folded over the distribution of their difference, one evaluation per
distinct difference rather than one per pair of values. Its result must be
returned untouched, like ``parts``; after other dice, or inside a sub, it
is the exact product of one choice point per pool.

Convolutions (n dice of one table, the pools of a group, the difference of
two groups) are one product of big integers when the values are integer
vectors (see _packed): the pairs of values are added in C, not one by one.

``return dice.chain(start, stages, outcome)`` is for a procedure whose
stages depend on one another (how many hit sets how many damage dice are
rolled): from the state ``start`` each :class:`Stage` rolls a part with
arguments read off the state and moves to the next state, and ``outcome``
of the last state gives the outcomes. A roll rolls each stage in order; the
odds are a forward pass: the distribution of the state after each stage, as
integer weights over one common denominator, each stage enumerated once per
distinct arguments and states that meet again merged, so the cost is the
sum of the stages' sizes times the states that reach them, not the product
of every path. Its result must be returned untouched, like ``parts``;
after other dice, or inside a sub, it is the exact product of one ``sub``
choice point per stage. Given dice (:func:`enumerate_given`) decide the
stages they cover, and the chain goes on from the state they reach.

A procedure must be deterministic given its choices: no clocks, no global
random state, and the same sequence of choice points for the same choices.
"""

from __future__ import annotations

import itertools
import math
import operator
import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any, NamedTuple

__all__ = [
    "face_table",
    "Distribution",
    "Dice",
    "Enumerating",
    "Rolling",
    "Given",
    "Counted",
    "NeedRoll",
    "GivenError",
    "enumerate_given",
    "die",
    "sum_of",
    "successes",
    "pool",
    "Pool",
    "Stage",
    "enumerate_outcomes",
    "enumerate_steps",
    "enumerate_values",
    "Step",
    "Label",
]


def _sort_key(value: Any) -> tuple:
    """Numbers first in numeric order, then anything else by its text."""
    if isinstance(value, bool):
        return (0, int(value), "")
    if isinstance(value, (int, Fraction)):
        return (0, value, "")
    return (1, 0, str(value))


class Distribution(Mapping):
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
        return sum((Fraction(v) * p for v, p in self._items), Fraction(0))


def _add(a: Any, b: Any) -> Any:
    if isinstance(a, tuple):
        return tuple(map(operator.add, a, b))
    return a + b


# Convolution by one big-integer product (Kronecker substitution). A box of
# slots larger than this is left to the loops, which visit only the values
# there are.
_PACKED_SLOTS = 1 << 16
# When the plain loops are faster: a loop adds one pair of values in about
# 0.15 us for numbers and 0.6 us for vectors (a tuple each); a packed
# product costs about 16 us however small, and 0.19 us per slot of its box,
# empty or not, to read back (measured in CPython: 63 pairs of numbers loop
# in 9 us against 20 packed, 150 pairs of 2-vectors in 81 against 39; 6 dice
# read as one of 4 one-hot vectors loop in 311 us against 452 packed, a box
# of 2,401 slots for 84 values). The first packed product of a process
# costs some 40 us more (its code not yet warm: 3D6 in a fresh process took
# 0.22 ms packed against 0.18 looped), so a product is left to the loops
# unless it saves about that much. In units of 0.25 us:
_LOOP_PAIR = {False: 0.6, True: 2.5}  # a pair of numbers, a pair of vectors
_PACKED_FIXED, _PACKED_SLOT = 160, 0.75


def _loop_cost(pairs: int, value: Any) -> float:
    """What adding ``pairs`` pairs of values like ``value`` one by one costs (units above)."""
    return pairs * _LOOP_PAIR[type(value) is tuple]


def _packed(terms: tuple[tuple[tuple[tuple[Hashable, int], ...], int, int], ...], budget: float | None = None) -> tuple[tuple[Hashable, int], ...] | None:
    """The counts of ``sum(sign * (x_1 + ... + x_power))`` over the terms
    ``(counts, sign, power)``, every x independent and drawn from its term's
    ``counts`` (value -> number of equally likely rolls), element-wise for
    vectors; None when the values are not all ints or tuples of ints of one
    length, or their box is too large: larger than _PACKED_SLOTS, or costing
    more than ``budget`` (what the loops would, see _loop_cost) to read back.

    Each term is a polynomial in one variable per coordinate: count(x) times
    z**(x - lo) (or z**(hi - x) for sign -1, lo and hi the term's least and
    greatest coordinate), so that every exponent is at least 0. The product
    of the polynomials, each raised to its power, holds at z**e the number of
    rolls whose result is e plus a fixed offset. Flattened with the strides
    of the box of results (the last coordinate fastest) and packed into one
    big integer of W-bit slots, W enough for the product of the terms' totals
    (the most a coefficient can hold, so that no slot carries into the next),
    the product of the polynomials is a product of big integers: every pair
    of values is added in C, not one by one here.
    """
    if budget is not None and budget < _PACKED_FIXED:
        return None
    dims = -1
    boxes = []
    for counts, _, _ in terms:
        vectors = [v if type(v) is tuple else (v,) for v, _ in counts]
        if dims < 0:
            dims = len(vectors[0])
        if any(len(v) != dims or any(type(x) is not int for x in v) for v in vectors):
            return None
        columns = list(zip(*vectors)) if dims else []
        boxes.append((vectors, [min(c) for c in columns], [max(c) for c in columns]))
    spans = [1 + sum(power * (hi[j] - lo[j]) for (_, _, power), (_, lo, hi) in zip(terms, boxes)) for j in range(dims)]
    slots = math.prod(spans)
    if slots > _PACKED_SLOTS or (budget is not None and _PACKED_FIXED + _PACKED_SLOT * slots > budget):
        return None
    strides = [1] * dims
    for j in range(dims - 2, -1, -1):
        strides[j] = strides[j + 1] * spans[j + 1]
    total = math.prod(sum(w for _, w in counts) ** power for counts, _, power in terms)
    width = (total.bit_length() + 7) // 8  # bytes per slot
    start = [0] * dims  # the result at slot 0
    product = 1
    for (counts, sign, power), (vectors, lo, hi) in zip(terms, boxes):
        anchor = lo if sign > 0 else hi
        start = [s + sign * power * a for s, a in zip(start, anchor)]
        shift = sum(map(operator.mul, anchor, strides))
        span = sum((top - bottom) * k for bottom, top, k in zip(lo, hi, strides)) + 1
        buffer = bytearray(span * width)
        for v, (_, ways) in zip(vectors, counts):
            at = sign * (sum(map(operator.mul, v, strides)) - shift) * width
            buffer[at : at + width] = ways.to_bytes(width, "little")
        product *= int.from_bytes(buffer, "little") ** power
    packed = product.to_bytes(slots * width, "little")
    ways = [int.from_bytes(packed[at : at + width], "little") for at in range(0, slots * width, width)]
    if type(terms[0][0][0][0]) is tuple:
        values: Iterable = itertools.product(*(range(s, s + span) for s, span in zip(start, spans)))
    else:
        values = range(start[0], start[0] + spans[0])
    return tuple((v, w) for v, w in zip(values, ways) if w)


@lru_cache(maxsize=None)
def die(sides: int) -> Distribution:
    """One fair die numbered 1..sides: P(k) = 1/sides."""
    if sides < 1:
        raise ValueError("a die needs at least one side")
    return Distribution({k: 1 for k in range(1, sides + 1)})


FaceTable = tuple  # entry i: what face i + 1 reads
Counts = tuple  # what a pool key counts, for a roll in words: ((singular, plural), ...)
SUCCESSES: Counts = (("success", "successes"),)


def face_table(sides: int, read: Callable[[int], Hashable] | FaceTable) -> FaceTable:
    """What each face of a die reads, as data: (read(1), ..., read(sides)).

    A table already (a tuple of ``sides`` entries) is returned as it is."""
    if isinstance(read, tuple):
        if len(read) != sides:
            raise ValueError(f"a table for a {sides}-sided die needs {sides} entries, not {len(read)}")
        return read
    return tuple(read(face) for face in range(1, sides + 1))


def pool(n: int, sides: int, key: Callable[[int], Hashable] | FaceTable) -> Distribution:
    """The sum over n independent dice of key(face), by repeated convolution.

    ``key`` (a face table, or a function of the face) gives a number or a
    tuple of numbers (added element-wise), so one pass can count successes
    and sixes together. With zero dice the sum is 0 (or the zero tuple).
    Cost: O(n * values * sides), never sides**n; cached by the table's value.
    """
    return _pool(n, sides, face_table(sides, key))


@lru_cache(maxsize=None)
def _pool(n: int, sides: int, table: FaceTable) -> Distribution:
    return Distribution({value: Fraction(ways, sides**n) for value, ways in _pool_counts(n, sides, table)})


@lru_cache(maxsize=None)
def _pool_counts(n: int, sides: int, table: FaceTable) -> tuple[tuple[Hashable, int], ...]:
    """The pool's values, each with how many of the sides**n equally likely rolls give it."""
    if n < 0:
        raise ValueError("cannot roll a negative number of dice")
    face_table(sides, table)  # checks its length
    # Convolve integer counts of faces (every die is fair, so each of the
    # sides**n rolls is equally likely) and divide once at the end: Fraction
    # arithmetic at every step made large pools slow.
    one: dict[Hashable, int] = {}
    for value in table:
        one[value] = one.get(value, 0) + 1
    # n dice at once: the one die's counts to the n-th power (see _packed),
    # unless the loop below costs less: with m distinct entries, after k dice
    # it holds at most C(k + m - 1, m - 1) values (the multisets of k
    # entries), each added to the m entries, so in all at most
    # m * C(n + m - 1, m) pairs.
    m = len(one)
    if n > 1 and m > 1 and (budget := _loop_cost(m * math.comb(n + m - 1, m), table[0])) > _PACKED_FIXED:
        found = _packed(((tuple(one.items()), 1, n),), budget)
        if found is not None:
            return found
    first = next(iter(one))
    zero = tuple(0 for _ in first) if isinstance(first, tuple) else 0
    counts: dict[Hashable, int] = {zero: 1}
    for _ in range(n):
        step: dict[Hashable, int] = {}
        for a, ways_a in counts.items():
            for b, ways_b in one.items():
                total = _add(a, b)
                step[total] = step.get(total, 0) + ways_a * ways_b
        counts = step
    return tuple(counts.items())


@lru_cache(maxsize=None)
def faces(sides: int) -> FaceTable:
    """The table of a die read as its own number: (1, 2, ..., sides)."""
    return tuple(range(1, sides + 1))


@lru_cache(maxsize=None)
def at_least(target: int, sides: int = 6) -> FaceTable:
    """The table of a die that counts 1 when it shows ``target`` or more, else 0."""
    return tuple(1 if face >= target else 0 for face in range(1, sides + 1))


def sum_of(n: int, sides: int) -> Distribution:
    """The total of n dice of the given sides (3D6: values 3..18)."""
    return _pool(n, sides, faces(sides))


def successes(n: int, target: int, sides: int = 6) -> Distribution:
    """How many of n dice show target or more: Binomial(n, (sides-target+1)/sides)."""
    return _pool(n, sides, at_least(target, sides))


# ---------------------------------------------------------------------------
# Folds: independent pools, then a pure function of their results


class Pool(NamedTuple):
    """What :meth:`Dice.fold` rolls: ``n`` dice of ``sides`` under ``label``,
    each face read through ``key`` and ``counts`` naming what it counts (as
    :meth:`Dice.pool` takes them). ``adds``, when given, lists the
    coordinates of a vector key that count toward the pool's group (the
    others are still rolled and shown, but add 0): a die that shows its 6s
    but whose 6s do not count, say."""

    n: int
    sides: int
    label: str
    key: FaceTable | Callable[[int], Hashable]
    counts: Counts | None = None
    adds: tuple[int, ...] | None = None


Reads = tuple  # the coordinates of the groups' vector values an outcome reads


def _kept(keep: Reads | None, also: Reads | None) -> Reads | None:
    """The coordinates both keep (None keeps every coordinate)."""
    if keep is None:
        return also
    if also is None:
        return keep
    return tuple(i for i in keep if i in also)


def _masked(value: Any, keep: Reads | None) -> Any:
    """A vector value with the coordinates outside ``keep`` set to 0; a number as it is."""
    if keep is None or not isinstance(value, tuple):
        return value
    return tuple(x if i in keep else 0 for i, x in enumerate(value))


@lru_cache(maxsize=None)
def _masked_table(table: FaceTable, keep: Reads | None) -> FaceTable:
    return table if keep is None else tuple(_masked(entry, keep) for entry in table)


@lru_cache(maxsize=None)
def _group_counts(pools: tuple[tuple[int, int, FaceTable], ...]) -> tuple[tuple[tuple[Hashable, int], ...], int]:
    """The sum of independent pools ``(n, sides, table)``: each value with its
    number of equally likely rolls, and the number of rolls (the product of
    the pools' ``sides**n``), by convolution of the pools' integer counts."""
    (n, sides, table), *rest = pools
    total = math.prod(sides**n for n, sides, _ in pools)
    if rest:
        # Every pool at once (see _packed), unless the loop below costs less
        # (about the product of the pools' numbers of values, in pairs); each
        # pool's counts are cached for its own steps and marginals already.
        parts = tuple(_pool_counts(n, sides, table) for n, sides, table in pools)
        found = _packed(tuple((part, 1, 1) for part in parts), _loop_cost(math.prod(map(len, parts)), parts[0][0][0]))
        if found is not None:
            return found, total
    counts = dict(_pool_counts(n, sides, table))
    for n, sides, table in rest:
        step: dict[Hashable, int] = {}
        other = _pool_counts(n, sides, table)
        for a, ways_a in counts.items():
            for b, ways_b in other:
                value = _add(a, b)
                step[value] = step.get(value, 0) + ways_a * ways_b
        counts = step
    return tuple(counts.items()), total


def _sub(a: Any, b: Any) -> Any:
    if isinstance(a, tuple):
        return tuple(map(operator.sub, a, b))
    return a - b


@lru_cache(maxsize=None)
def _difference_counts(first: tuple, second: tuple) -> tuple[tuple[Hashable, int], ...]:
    """The distribution of ``a - b`` (element-wise for vectors), a and b
    independent with the integer counts ``first`` and ``second`` (groups'
    counts, see _group_counts): each difference with its number of rolls.

    For values that are ints or tuples of ints, the pairs are added by one
    product of two big integers (see _packed), the second group's counts
    mirrored (sign -1); other values, and few pairs, by a loop over the pairs.
    """
    found = _packed(((first, 1, 1), (second, -1, 1)), _loop_cost(len(first) * len(second), first[0][0]))
    if found is not None:
        return found
    out: dict[Hashable, int] = {}
    for a, wa in first:
        for b, wb in second:
            d = _sub(a, b)
            out[d] = out.get(d, 0) + wa * wb
    return tuple(out.items())


class _Fold:
    """Odds mode's answer to ``dice.fold(...)`` at the top of a procedure: a
    token ``enumerate_outcomes`` recognises (see _fold_outcomes). Like
    _Parts, deliberately not a mapping."""

    __slots__ = ("groups", "outcome", "reads", "by_difference")

    def __init__(
        self, groups: tuple[tuple[Pool, ...], ...], outcome: Callable[..., Mapping[str, Hashable]], reads: Mapping[str, Reads] | None,
        by_difference: bool = False,
    ):
        self.groups, self.outcome, self.reads = groups, outcome, dict(reads or {})
        if by_difference and len(groups) != 2:
            raise ValueError(f"fold: by_difference needs two groups, not {len(groups)}")
        self.by_difference = by_difference


def _groups(groups: Iterable[Pool | Iterable[Pool]]) -> tuple[tuple[Pool, ...], ...]:
    """Each group as a tuple of pools with face tables for keys."""
    out = []
    for group in groups:
        pools = (group,) if isinstance(group, Pool) else tuple(group)
        if not pools:
            raise ValueError("fold: a group needs at least one pool")
        out.append(tuple(p._replace(key=face_table(p.sides, p.key)) for p in pools))
    return tuple(out)


def _fold_outcomes(fold: _Fold, steps: "_StepLog | None") -> dict[str, Distribution]:
    """Each outcome's exact distribution from one loop over the groups' values.

    An outcome listed in ``reads`` is folded over the groups' marginals on
    the coordinates it reads (the others set to 0 in every pool): exact for
    its own distribution, which is all the odds report, when it depends on
    those coordinates only. The others are folded over the whole of each
    group. Weights are integer counts of equally likely rolls over one
    common denominator, the product of every pool's ``sides**n``; each value
    becomes one Fraction at the end.
    """
    groups, outcome = fold.groups, fold.outcome
    if steps is not None:
        seen: dict[str, int] = {}
        for pool in (p for group in groups for p in group):
            k = seen.get(pool.label, 0)
            seen[pool.label] = k + 1
            counting = pool.key != faces(pool.sides) and not isinstance(pool.key[0], tuple)
            rolls = pool.sides**pool.n
            for value, ways in _pool_counts(pool.n, pool.sides, pool.key):
                steps.add((pool.label, k), pool.label, None, pool.counts, counting, value, ways, rolls)

    def counts(keep: Reads | None) -> list[tuple[tuple[Hashable, int], ...]]:
        return [_group_counts(tuple((p.n, p.sides, _masked_table(p.key, _kept(keep, p.adds))) for p in group))[0] for group in groups]

    total = 1
    for group in groups:
        for p in group:
            total *= p.sides**p.n
    # The outcome names, from one evaluation; then the outcomes by what they read.
    some = next(iter(fold.reads.values()), None)
    names = list(outcome(*(values[0][0] for values in counts(some))))
    plan: dict[Reads | None, list[str]] = {}
    for name in fold.reads:
        if name not in names:
            raise ValueError(f"fold: reads names outcome {name!r}, which the procedure does not return")
    for name in names:
        plan.setdefault(fold.reads.get(name), []).append(name)
    out: dict[str, Distribution] = {}
    for keep, wanted in plan.items():
        tallies: dict[str, dict[Hashable, int]] = {name: {} for name in wanted}
        pairs = [(name, tallies[name]) for name in wanted]
        weighted = counts(keep)
        if fold.by_difference:
            # One evaluation per distinct difference (see Dice.fold), the
            # second group's value zero: the pairs are added up in
            # _difference_counts, not here.
            first, second = weighted
            zero = _sub(second[0][0], second[0][0])
            for d, ways in _difference_counts(first, second):
                result = outcome(d, zero)
                for name, tally in pairs:
                    value = result[name]
                    tally[value] = tally.get(value, 0) + ways
        elif len(weighted) == 2:
            # The common case, two sides, as plain nested loops (the fold's
            # whole cost is this loop): for each value of the first side, the
            # second side's ways are summed per result, small integers, and
            # multiplied by the first side's ways once per distinct result.
            first, second = weighted
            get = operator.itemgetter(*wanted)
            single = len(wanted) == 1
            for a, wa in first:
                inner: dict[Hashable, int] = {}
                for b, wb in second:
                    key = get(outcome(a, b))
                    inner[key] = inner.get(key, 0) + wb
                for key, ways in inner.items():
                    ways *= wa
                    for (_, tally), value in zip(pairs, (key,) if single else key):
                        tally[value] = tally.get(value, 0) + ways
        else:
            for combo in itertools.product(*weighted):
                result = outcome(*(v for v, _ in combo))
                ways = math.prod(w for _, w in combo)
                for name, tally in pairs:
                    value = result[name]
                    tally[value] = tally.get(value, 0) + ways
        for name, tally in tallies.items():
            if sum(tally.values()) != total:
                raise ValueError(f"outcome {name} does not sum to 1")
            out[name] = Distribution._exact({value: Fraction(ways, total) for value, ways in tally.items() if ways})
    return {name: out[name] for name in names}


# ---------------------------------------------------------------------------
# What a roll's record says beside its dice


class Label(str):
    """A roll's label, with what its record says beside the dice: ``rule``,
    the rule section the roll applies (a :class:`rules_py.rule_refs.Rule`),
    and ``means``, what each result the roll can decide means in words, where
    that rests on a rule (a mapping from the result to its words: a chart's
    row, say). It is the label's own text everywhere else (a key, a step's
    name, the ``need`` of a resolution), so the odds never see the rest."""

    def __new__(cls, text: str, rule: Any = None, means: Mapping[Hashable, str] | None = None) -> "Label":
        self = super().__new__(cls, text)
        self.rule = rule
        self.means = means or None
        return self


# ---------------------------------------------------------------------------
# Chains: stages that depend on one another, carried forward as a distribution


class Stage(NamedTuple):
    """One stage of :meth:`Dice.chain`: ``args(state)`` gives what the stage
    rolls with (a tuple of hashable arguments, or None when it rolls nothing
    and the state carries on as it is), ``roll(dice, *args)`` rolls it (a
    self-contained part, as :meth:`Dice.sub` runs one) and ``then(state,
    value)`` is the state after it. ``args`` and ``then`` are pure functions
    of the state; ``roll`` should be one function for every call (a module's),
    since what it gives is worked out once per distinct ``(roll, args)``."""

    roll: Callable[..., Hashable]
    args: Callable[[Hashable], tuple | None]
    then: Callable[[Hashable, Any], Hashable]


class _Chain:
    """Odds mode's answer to ``dice.chain(...)`` at the top of a procedure: a
    token ``enumerate_outcomes`` recognises (see _chain_outcomes). Like
    _Parts, deliberately not a mapping."""

    __slots__ = ("start", "stages", "outcome")

    def __init__(self, start: Hashable, stages: tuple[Stage, ...], outcome: Callable[[Hashable], Mapping[str, Hashable]]):
        self.start, self.stages, self.outcome = start, stages, outcome


def _part(fn: Callable[..., Any], args: tuple, cache: dict, with_steps: bool, labels: Mapping[str, Any] | None = None) -> tuple[Distribution, list | None]:
    """A self-contained part enumerated on its own and cached, for
    ``Enumerating.sub`` and for a chain's stages: its distribution over packed
    results (see _Freeze), cached by ``fn`` and ``args`` (``labels`` are for
    the record only), and, with steps, the exact weight of each of its rolls
    (``_StepLog.edges``), cached by its labels too, since its rolls' labels
    may depend on them."""
    labels = labels or {}
    if with_steps:
        key = ("steps", fn, args, tuple(sorted(labels.items())))
        found = cache.get(key)
        if found is None:
            inner = _StepLog()
            paths = ((_Freeze.pack(result), num, den) for result, num, den in _raw_paths(fn, args, cache, labels, inner))
            found = (_summed(paths, f"part {getattr(fn, '__name__', fn)!s}"), inner.edges())
            cache[key] = found
            cache.setdefault((fn, args), found[0])
        return found
    dist = cache.get((fn, args))
    if dist is None:
        paths = ((_Freeze.pack(result), num, den) for result, num, den in _raw_paths(fn, args, cache, labels))
        dist = cache[(fn, args)] = _summed(paths, f"part {getattr(fn, '__name__', fn)!s}")
    return dist, None


def _chain_outcomes(chain: _Chain, steps: "_StepLog | None") -> dict[str, Distribution]:
    """Each outcome's exact distribution by a forward pass over the stages.

    The distribution over the state after each stage is kept as integer
    weights over one common denominator D (the state s with weight w(s)/D).
    A stage is enumerated once per distinct ``args(s)`` (a part of its own,
    its values v with P(v | args)); the next state ``then(s, v)`` gets
    ``w(s) * P(v | args)``, brought over the least common multiple L of those
    parts' denominators (D becomes D * L, all weights reduced by their gcd).
    States that meet again are one state, so the cost is the sum over stages
    of (distinct states x the values of their stage), never the product of
    every stage's paths. Each outcome is then tallied over the last states,
    one Fraction per value.

    With ``steps``, each stage's rolls (from its part's enumeration) are added
    per distinct ``args``, times the chance of the states that roll with
    them. They are listed in the order a replay meets them first: the states
    are visited depth first, each stage's values in their distribution's
    order, each (stage, state) once (what follows it depends on nothing else).
    """
    cache: dict = {}
    stages = chain.stages
    with_steps = steps is not None
    states: dict[Hashable, int] = {chain.start: 1}
    den = 1
    plans: list[dict[Hashable, tuple | None]] = []  # per stage: each state's args
    parts: list[dict[tuple, tuple[Distribution, list | None]]] = []  # per stage: each args' part
    weights_at: list[tuple[dict[Hashable, int], int]] = []  # per stage: the states it starts from
    for stage in stages:
        by_args: dict[tuple, tuple[Distribution, list | None]] = {}
        plan: dict[Hashable, tuple | None] = {}
        for state in states:
            args = stage.args(state)
            if args is not None:
                args = tuple(args)
                if args not in by_args:
                    by_args[args] = _part(stage.roll, args, cache, with_steps)
            plan[state] = args
        common = math.lcm(1, *(d for dist, _ in by_args.values() for _, _, d in dist._weights))
        scaled = {args: [(_Freeze.unpack(v), n * (common // d)) for v, n, d in dist._weights] for args, (dist, _) in by_args.items()}
        then = stage.then
        after: dict[Hashable, int] = {}
        for state, w in states.items():
            args = plan[state]
            if args is None:
                after[state] = after.get(state, 0) + w * common
                continue
            for value, ways in scaled[args]:
                nxt = then(state, value)
                after[nxt] = after.get(nxt, 0) + w * ways
        if with_steps:
            plans.append(plan)
            parts.append(by_args)
            weights_at.append((states, den))
        den *= common
        g = math.gcd(den, *after.values())
        if g > 1:
            after = {s: w // g for s, w in after.items()}
            den //= g
        states = after
    if with_steps:
        _chain_steps(chain, steps, plans, parts, weights_at)
    names: tuple[str, ...] | None = None
    tallies: dict[str, dict[Hashable, int]] = {}
    for state, w in states.items():
        result = chain.outcome(state)
        if names is None:
            names = tuple(result)
            tallies = {name: {} for name in names}
        elif result.keys() != tallies.keys():
            raise ValueError(f"chain: outcomes {sorted(result)} for one state and {sorted(tallies)} for another")
        for name, value in result.items():
            tally = tallies[name]
            tally[value] = tally.get(value, 0) + w
    out: dict[str, Distribution] = {}
    for name, tally in tallies.items():
        if sum(tally.values()) != den:
            raise ValueError(f"outcome {name} does not sum to 1")
        out[name] = Distribution._exact({value: Fraction(w, den) for value, w in tally.items() if w})
    return out


def _chain_steps(chain: _Chain, steps: "_StepLog", plans: list, parts: list, weights_at: list) -> None:
    """The chain's rolls into ``steps`` (see _chain_outcomes): first each
    place in the order a depth-first replay meets it, then the weights. A
    stage's rolls are known by the stage's index and their place in its part."""
    stages = chain.stages
    seen: set[tuple[int, Hashable]] = set()

    def visit(k: int, state: Hashable) -> None:
        while k < len(stages):
            if (k, state) in seen:
                return
            seen.add((k, state))
            args = plans[k][state]
            if args is not None:
                dist, edges = parts[k][args]
                for place, label, order, names, counting, _ in edges:
                    steps._entry((k, *place), label, order, names, counting)
                for value in dist:
                    visit(k + 1, stages[k].then(state, _Freeze.unpack(value)))
                return
            k += 1

    visit(0, chain.start)
    for k, (states, den) in enumerate(weights_at):
        reaching: dict[tuple, int] = {}
        for state, w in states.items():
            args = plans[k][state]
            if args is not None:
                reaching[args] = reaching.get(args, 0) + w
        for args, w in reaching.items():
            steps.add_part(k, parts[k][args][1], w, den)


# ---------------------------------------------------------------------------
# The dice object


class Dice:
    """What a procedure asks for its randomness. Subclasses decide how: each
    implements the two kinds of choice point, ``die`` and ``pool``."""

    def die(self, sides: int, label: str, chart: FaceTable | Callable[[int], Hashable] | None = None) -> Any:
        """Roll one die. With ``chart`` (a face table) the face is looked up and the result returned."""
        raise NotImplementedError

    def d6(self, label: str, chart: FaceTable | Callable[[int], Hashable] | None = None) -> Any:
        return self.die(6, label, chart)

    def d3(self, label: str, chart: FaceTable | Callable[[int], Hashable] | None = None) -> Any:
        return self.die(3, label, chart)

    def pool(self, n: int, sides: int, label: str, key: FaceTable | Callable[[int], Hashable], counts: Counts | None = None) -> Any:
        """Roll n dice and return the sum of key's entry for each face (one choice point).

        ``counts`` names what the key counts, for a roll shown in words: one
        (singular, plural) pair per number the key gives, e.g. (("success",
        "successes"), ("six", "sixes")). It never changes the odds."""
        raise NotImplementedError

    def sum_of(self, n: int, sides: int, label: str) -> int:
        """Roll n dice and return their total."""
        return self.pool(n, sides, label, faces(sides))

    def successes(self, n: int, target: int, label: str, sides: int = 6) -> int:
        """Roll n dice and return how many show ``target`` or more."""
        return self.pool(n, sides, label, at_least(target, sides), SUCCESSES)

    def sub(self, fn: Callable[..., Any], *args: Hashable, **labels: Any) -> Any:
        """Run ``fn(dice, *args, **labels)``, a self-contained part of a procedure.
        ``labels`` are for the roll's record only: they are not part of the cache key."""
        raise NotImplementedError

    def parts(self, *parts: tuple) -> Any:
        """The merged outcomes of independent parts, each ``(fn, *args)`` with
        ``fn(dice, *args) -> dict`` of outcome names no other part returns."""
        raise NotImplementedError

    def then(self, how: str, value: Any) -> Any:
        """``value``, worked out from the last roll by ``how`` ("less 4 for
        flak", "halved, rounding down"): a roll's record shows the arithmetic
        as "2D6 = 9, less 4 for flak = 5". It changes nothing else, and in
        odds mode it records nothing."""
        return value

    def fold(
        self,
        groups: Iterable[Pool | Iterable[Pool]],
        outcome: Callable[..., Mapping[str, Hashable]],
        reads: Mapping[str, Reads] | None = None,
        working: Callable[..., Iterable[tuple[str, Any]]] | None = None,
        by_difference: bool = False,
    ) -> Any:
        """The outcomes of independent pools: ``outcome(*values)``, a pure
        function of each group's value (a group is a Pool, or several pools
        whose values add up, element-wise for vector keys, through their
        ``adds``), returning a dict of outcomes.

        The pools are rolled in order, each once, like :meth:`pool`. In odds
        mode at the top of a procedure, the odds are folded instead of
        replayed (see _fold_outcomes), and ``reads`` may name, per outcome,
        the coordinates of the groups' vector values that outcome depends on:
        it is then folded over those marginals only. A name left out reads
        everything (the joint). Its result must be returned untouched (the
        odds-mode value is a token); anywhere else it is an exact product of
        choice points, one per pool.

        ``working``, a function of the groups' values like ``outcome``, gives
        the arithmetic a roll's record shows after the last pool, as
        (how, value) pairs (see :meth:`then`); only a roll calls it.

        ``by_difference`` declares that ``outcome`` of two groups depends on
        their values only through ``a - b`` (element-wise for vectors: a
        comparison, a margin, who shows more 6s), so that ``outcome(a, b)``
        is ``outcome(a - b, 0)``. The odds then fold over the distribution
        of that difference, one evaluation per distinct difference instead
        of one per pair of values (see _difference_counts). A roll and given
        dice still call ``outcome(a, b)`` with the values rolled."""
        values = []
        for group in _groups(groups):
            total = None
            for p in group:
                value = _masked(self.pool(p.n, p.sides, p.label, p.key, p.counts), p.adds)
                total = value if total is None else _add(total, value)
            values.append(total)
        if working is not None and isinstance(self, Rolling):
            for how, value in working(*values):
                self.then(how, value)
        return dict(outcome(*values))

    def chain(self, start: Hashable, stages: Iterable[Stage], outcome: Callable[[Hashable], Mapping[str, Hashable]]) -> Any:
        """The outcomes of stages that depend on one another: from the state
        ``start``, each :class:`Stage` in turn rolls ``roll(dice, *args(state))``
        (nothing when its args are None) and moves to ``then(state, value)``;
        ``outcome(state)`` of the last state gives the outcomes (a dict).

        The stages are rolled in order, each roll as :meth:`sub` runs a part.
        In odds mode at the top of a procedure the odds are a forward pass
        over the distribution of the state after each stage (see
        _chain_outcomes), not a replay per path; its result must be returned
        untouched (the odds-mode value is a token). Anywhere else each stage
        is one ``sub`` choice point, the exact product."""
        state = start
        for stage in stages:
            args = stage.args(state)
            if args is not None:
                state = stage.then(state, self.sub(stage.roll, *args))
        return dict(outcome(state))


class Rolling(Dice):
    """Roll mode: real dice from ``random.Random(seed)``, every die recorded.

    ``log`` lists, in the order rolled, one dict per choice point:
    ``{"label", "dice" (such as "3D6"), "faces" (each die shown), "result"}``,
    and ``then``, the (how, value) steps the procedure worked out from it
    (:meth:`Dice.then`), when there are any.
    """

    def __init__(self, seed: int):
        self.seed = seed
        self.rng = random.Random(seed)
        self.log: list[dict[str, Any]] = []

    def die(self, sides, label, chart=None):
        face = self.rng.randrange(sides) + 1
        return self._shown(label, f"D{sides}", [face], face if chart is None else face_table(sides, chart)[face - 1])

    def pool(self, n, sides, label, key, counts=None):
        table = face_table(sides, key)
        shown = [self.rng.randrange(sides) + 1 for _ in range(n)]
        value = next(iter(_pool(0, sides, table)))  # the zero of key's type
        for face in shown:
            value = _add(value, table[face - 1])
        # What each die counted, for a roll in words (rules_py.answer): a key
        # other than the faces themselves counts something on each die.
        counted = {"per_face": [table[face - 1] for face in shown], "counting": table != faces(sides) and not isinstance(value, tuple), "names": counts}
        return self._shown(label, f"{n}D{sides}", shown, value, counted)

    def _shown(self, label: str, spec: str, faces: list[int], value: Any, counted: dict | None = None) -> Any:
        self.log.append({"label": label, "dice": spec, "faces": faces, "result": value, **(counted or {})})
        return value

    def then(self, how, value):
        # The arithmetic that follows the last roll, in its record ("then").
        if self.log:
            self.log[-1].setdefault("then", []).append((how, value))
        return value

    def sub(self, fn, *args, **labels):
        return fn(self, *args, **labels)

    def parts(self, *parts):
        merged: dict[str, Any] = {}
        for fn, *args in parts:
            result = fn(self, *args)
            _check_disjoint(merged, result, fn)
            merged.update(result)
        return merged


class Counted(NamedTuple):
    """A pool given by what it scored (its key's sum: successes, or successes
    and sixes) rather than by its faces: quicker at the table, the same result."""

    value: Hashable


class NeedRoll(Exception):
    """Given dice ran out: the first roll the procedure still needs. ``dice``
    reads as the roll log writes it ("D6", "3D6"); ``count`` dice of ``sides``
    faces; ``table`` the pool's face table (None for one die read by a chart or
    as itself), ``names`` what a pool counts (as :meth:`Dice.pool` takes them)."""

    def __init__(self, label: str, sides: int, count: int, table: FaceTable | None, names: Counts | None):
        super().__init__(label)
        self.label, self.sides, self.count, self.table, self.names = label, sides, count, table, names
        self.dice = f"{count}D{sides}" if table is not None else f"D{sides}"


class GivenError(ValueError):
    """A given die that the roll it is given for cannot show (its label, and why)."""


class Given(Rolling):
    """Given mode, the third: the dice a player rolled at the table, in the
    order the procedure asks for them, each roll logged as :class:`Rolling`
    logs it. A die takes one face; a pool takes its ``n`` faces, or one
    :class:`Counted` value that ``n`` dice can score. When the entries run out
    the first roll still needed raises :class:`NeedRoll`; ``values`` lists
    what each roll decided, in order, which :func:`enumerate_given` holds fixed."""

    def __init__(self, entries: Iterable[int | Counted]):
        self.entries = list(entries)
        self.used = 0  # entries read
        self.log: list[dict[str, Any]] = []
        self.values: list[Any] = []

    def _face(self, sides: int, label: str) -> int:
        entry = self.entries[self.used]
        if isinstance(entry, Counted) or isinstance(entry, bool) or not isinstance(entry, int) or not 1 <= entry <= sides:
            shown = f"={'/'.join(map(str, entry.value)) if isinstance(entry.value, tuple) else entry.value}" if isinstance(entry, Counted) else repr(entry)
            raise GivenError(f"{label}: {shown} is not a face of a D{sides}")
        self.used += 1
        return entry

    def die(self, sides, label, chart=None):
        if self.used >= len(self.entries):
            raise NeedRoll(label, sides, 1, None, None)
        face = self._face(sides, label)
        value = face if chart is None else face_table(sides, chart)[face - 1]
        self.values.append(value)
        return self._shown(label, f"D{sides}", [face], value)

    def pool(self, n, sides, label, key, counts=None):
        table = face_table(sides, key)
        left = len(self.entries) - self.used
        if n and not left:
            raise NeedRoll(label, sides, n, table, counts)
        entry = self.entries[self.used] if n else None
        if isinstance(entry, Counted):
            if entry.value not in _pool(n, sides, table):
                shown = "/".join(map(str, entry.value)) if isinstance(entry.value, tuple) else str(entry.value)
                raise GivenError(f"{label}: {n}D{sides} cannot score ={shown}")
            self.used += 1
            self.values.append(entry.value)
            self.log.append({"label": label, "dice": f"{n}D{sides}", "faces": [], "result": entry.value, "given_as": "counts",
                             "counting": table != faces(sides) and not isinstance(entry.value, tuple), "names": counts})
            return entry.value
        if left < n:
            raise GivenError(f"{label}: {n}D{sides} needs {n} faces, and {left} {'is' if left == 1 else 'are'} given")
        shown = [self._face(sides, label) for _ in range(n)]
        value = next(iter(_pool(0, sides, table)))  # the zero of key's type
        for face in shown:
            value = _add(value, table[face - 1])
        self.values.append(value)
        counted = {"per_face": [table[face - 1] for face in shown], "counting": table != faces(sides) and not isinstance(value, tuple), "names": counts}
        return self._shown(label, f"{n}D{sides}", shown, value, counted)


class _OutOfForced(Exception):
    """A part asked for a roll past the fixed ones (see _Forced.sub)."""


class _Exhausted(Dice):
    """The dice behind a probe of a part: any roll at all is past the fixed ones."""

    def die(self, sides, label, chart=None):
        raise _OutOfForced

    def pool(self, n, sides, label, key, counts=None):
        raise _OutOfForced

    def sub(self, fn, *args, **labels):
        raise _OutOfForced


class _PartsProbe(_Exhausted):
    """Finds whether a procedure is wholly made of ``dice.parts``: any other use of dice says no."""

    def fold(self, groups, outcome, reads=None, working=None, by_difference=False):
        raise _OutOfForced

    def parts(self, *parts):
        return _Parts(parts)


class _Forced(Dice):
    """Odds mode with the first rolls fixed: each of the first ``len(values)``
    choice points returns its given value, with weight 1; later ones are the
    replay's (``inner``). Choice points come in the order of a roll, so parts
    run in order; a fold is its exact product of pools. A sub reached with
    fixed rolls left is tried on those alone: if it finishes within them its
    result is known; if not, it takes them all and is enumerated once, given
    them, as one choice point of the replay (a part of its own, cached)."""

    def __init__(self, inner: Dice, values: list[Any]):
        self.inner, self.values, self.used = inner, values, 0

    def _next(self) -> tuple[bool, Any]:
        if self.used < len(self.values):
            self.used += 1
            return True, self.values[self.used - 1]
        return False, None

    def die(self, sides, label, chart=None):
        fixed, value = self._next()
        return value if fixed else self.inner.die(sides, label, chart)

    def pool(self, n, sides, label, key, counts=None):
        fixed, value = self._next()
        return value if fixed else self.inner.pool(n, sides, label, key, counts)

    def sub(self, fn, *args, **labels):
        rest = tuple(self.values[self.used:])
        if not rest:
            return self.inner.sub(fn, *args, **labels)
        probe = _Forced(_Exhausted(), list(rest))
        try:
            result = fn(probe, *args, **labels)
        except _OutOfForced:
            self.used = len(self.values)
            return self.inner.sub(_given_part, fn, rest, args, tuple(sorted(labels.items())))
        self.used += probe.used
        return result

    def chain(self, start, stages, outcome):
        """The stages the fixed rolls decide are run on them; the rest is the
        inner dice's chain from the state reached (a forward pass at the top
        of an enumeration). A stage the fixed rolls run out in becomes that
        chain's first stage: enumerated given its share of them, as a sub."""
        stages = tuple(stages)
        state = start
        for i, stage in enumerate(stages):
            rest = tuple(self.values[self.used:])
            if not rest:
                return self.inner.chain(state, stages[i:], outcome)
            args = stage.args(state)
            if args is None:
                continue
            probe = _Forced(_Exhausted(), list(rest))
            try:
                value = stage.roll(probe, *args)
            except _OutOfForced:
                self.used = len(self.values)
                given = (stage.roll, rest, tuple(args), ())
                first = Stage(_given_part, lambda _state, given=given: given, stage.then)
                return self.inner.chain(state, (first, *stages[i + 1:]), outcome)
            self.used += probe.used
            state = stage.then(state, value)
        return dict(outcome(state))

    def parts(self, *parts):
        return Rolling.parts(self, *parts)  # type: ignore[arg-type]  # in order, merged


def _given_part(dice, fn: Callable[..., Any], values: tuple, args: tuple, labels: tuple) -> Any:
    """A sub-procedure with its first rolls fixed (see _Forced.sub)."""
    return fn(_Forced(dice, list(values)), *args, **dict(labels))


def enumerate_given(procedure: Callable[..., Mapping[str, Hashable]], args: tuple, values: list[Any]) -> dict[str, Distribution]:
    """Each outcome's exact distribution given that the first rolls decided
    ``values`` (a :class:`Given` run's): P(outcome | those rolls). Each fixed
    roll has weight 1 on every path, so the paths' weights sum to 1 over
    what is still to be rolled. With no values these are the plain odds.

    A procedure wholly made of ``dice.parts`` keeps its marginals: the parts
    take the fixed rolls in turn (as a roll makes them), a part that finishes
    within them is certain, the part they run out in is enumerated given its
    share, and the parts after it are enumerated as plain odds."""
    if not values:
        return enumerate_outcomes(procedure, *args)
    try:
        token = procedure(_PartsProbe(), *args)
    except _OutOfForced:
        token = None
    if isinstance(token, _Parts):
        merged: dict[str, Distribution] = {}
        rest = list(values)
        for fn, *part_args in token.parts:
            if not rest:
                found = enumerate_outcomes(fn, *part_args)
            else:
                probe = _Forced(_Exhausted(), rest)
                try:
                    result = fn(probe, *part_args)
                    found = {name: Distribution({value: 1}) for name, value in result.items()}
                    rest = rest[probe.used:]
                except _OutOfForced:
                    found = enumerate_given(fn, tuple(part_args), rest)
                    rest = []
            _check_disjoint(merged, found, fn)
            merged.update(found)
        return merged

    def given(dice, *inner_args):
        return procedure(_Forced(dice, values), *inner_args)

    given.__name__ = getattr(procedure, "__name__", "procedure")
    return enumerate_outcomes(given, *args)


def _check_disjoint(merged: Mapping[str, Any], result: Mapping[str, Any], fn: Callable[..., Any]) -> None:
    shared = set(merged) & set(result)
    if shared:
        raise ValueError(f"parts: {getattr(fn, '__name__', 'part')} returns outcomes {sorted(shared)} that another part returns too")


class _Parts:
    """Odds mode's answer to ``dice.parts(...)``: a token ``enumerate_outcomes``
    recognises. Deliberately not a mapping, so a procedure that reads or
    extends it instead of returning it fails at once."""

    __slots__ = ("parts",)

    def __init__(self, parts: tuple[tuple, ...]):
        self.parts = parts


class _Freeze:
    """Dict results of a sub-procedure, made hashable for a Distribution."""

    @staticmethod
    def pack(value: Any) -> Hashable:
        if isinstance(value, dict):
            return ("__dict__", tuple(value.items()))
        return value

    @staticmethod
    def unpack(value: Any) -> Any:
        if isinstance(value, tuple) and len(value) == 2 and value[0] == "__dict__":
            return dict(value[1])
        return value


class Enumerating(Dice):
    """Odds mode: one replay of the procedure along a given path of choices."""

    def __init__(self, path: list[int], cache: dict, top: bool = False, steps: "_StepLog | None" = None, changed: int = -1):
        self._path = path
        self._sizes: list[int] = []
        self._cache = cache
        self._top = top  # the probe run of enumerate_outcomes, where parts() may answer with a token
        # With ``steps`` (enumerate_steps), each labelled choice is also
        # recorded, once per edge of the tree of choices: on this replay the
        # choice points from depth ``changed`` on took values no earlier replay
        # took along this prefix (see _StepLog).
        self._steps = steps
        self._changed = changed
        self._seen: dict[Hashable, int] = {}  # labels and parts met so far on this path
        # The path's weight as an unreduced numerator and denominator: integer
        # products are far cheaper than a Fraction normalised at every step.
        self._num = 1
        self._den = 1

    def _pick(self, dist: Distribution) -> Any:
        """This path's value at the next choice point, its weight multiplied in."""
        weights = dist._weights
        depth = len(self._sizes)
        if depth == len(self._path):
            self._path.append(0)
        self._sizes.append(len(weights))
        value, num, den = weights[self._path[depth]]
        self._num *= num
        self._den *= den
        return value

    # The procedure runs once per path: a choice point only looks its
    # distribution up (labels are for rolls).
    # A table's length is checked once, when its distribution is first built.
    def die(self, sides, label, chart=None):
        if chart is None:
            chart = faces(sides)
        elif type(chart) is not tuple:
            chart = face_table(sides, chart)
        if self._steps is None:
            return self._pick(_chart(sides, chart))
        # A chart's results read best in the order of the faces that give them.
        order = tuple(dict.fromkeys(chart)) if chart != faces(sides) else None
        return self._pick_step(_chart(sides, chart), label, order, None, False)

    def pool(self, n, sides, label, key, counts=None):
        table = key if type(key) is tuple else face_table(sides, key)
        if self._steps is None:
            return self._pick(_pool(n, sides, table))
        counting = table != faces(sides) and not isinstance(table[0], tuple)
        return self._pick_step(_pool(n, sides, table), label, None, counts, counting)

    def _pick_step(self, dist: Distribution, label: str, order: tuple | None, names: Counts | None, counting: bool) -> Any:
        """_pick, and the edge it takes recorded under its label when it is new on this replay.

        A label met again on the same path is a roll of its own ("2nd roll"),
        so that each step's chance of being rolled is a probability."""
        depth = len(self._sizes)
        value = self._pick(dist)
        seen = self._seen.get(label, 0)
        self._seen[label] = seen + 1
        if depth >= self._changed:
            self._steps.add((label, seen), label, order, names, counting, value, self._num, self._den)
        return value

    def sub(self, fn, *args, **labels):
        if self._steps is not None:
            return self._sub_steps(fn, args, labels)
        dist, _ = _part(fn, args, self._cache, False, labels)
        return _Freeze.unpack(self._pick(dist))

    def _sub_steps(self, fn, args, labels):
        """sub() when steps are recorded: the part is enumerated once per
        distinct fn, args and labels (its rolls' labels may depend on them),
        its steps kept as exact chances within the part; each new path that
        reaches the part adds them, times the chance of reaching it."""
        dist, edges = _part(fn, args, self._cache, True, labels)
        # A part's rolls are known by the part's function and how many times
        # it was reached before on this path, not by its arguments: the same
        # roll made with other arguments (fewer dice, say) on other paths is
        # the same step, and each step is still made at most once per path.
        seen = self._seen.get(fn, 0)
        self._seen[fn] = seen + 1
        if len(self._sizes) > self._changed:  # this replay reaches the part along a new path
            self._steps.add_part((fn, seen), edges, self._num, self._den)
        return _Freeze.unpack(self._pick(dist))

    def fold(self, groups, outcome, reads=None, working=None, by_difference=False):
        if self._top and not self._sizes:
            return _Fold(_groups(groups), outcome, reads, by_difference)
        return super().fold(groups, outcome, reads)

    def chain(self, start, stages, outcome):
        if self._top and not self._sizes:
            return _Chain(start, tuple(stages), outcome)
        return super().chain(start, stages, outcome)

    def parts(self, *parts):
        if self._top and not self._sizes:
            return _Parts(parts)
        # Not the whole of an outcome enumeration (inside a sub, say): still
        # exact, as a product of the parts, each one choice point.
        merged: dict[str, Any] = {}
        for fn, *args in parts:
            result = self.sub(fn, *args)
            _check_disjoint(merged, result, fn)
            merged.update(result)
        return merged


@lru_cache(maxsize=None)
def _chart(sides: int, table: FaceTable) -> Distribution:
    """One die read through a face table: each distinct entry with its share of the faces."""
    return Distribution((entry, 1) for entry in face_table(sides, table))


def _paths(fn: Callable[..., Any], args: tuple, cache: dict) -> Iterator[tuple[Any, Fraction]]:
    """Every path through fn's choice points: (return value, exact weight)."""
    for result, num, den in _raw_paths(fn, args, cache):
        yield result, Fraction(num, den)


def _raw_paths(fn: Callable[..., Any], args: tuple, cache: dict, labels: Mapping[str, Any] | None = None, steps: "_StepLog | None" = None) -> Iterator[tuple[Any, int, int]]:
    """Every path: (return value, weight numerator, weight denominator), unreduced.

    With ``steps``, every labelled choice is recorded in it as well."""
    path: list[int] = []
    labels = labels or {}
    changed = -1  # the first replay: every choice point on it is new
    while True:
        dice = Enumerating(path, cache, steps=steps, changed=changed)
        result = fn(dice, *args, **labels)
        yield result, dice._num, dice._den
        sizes = dice._sizes
        del path[len(sizes):]
        # Advance the deepest choice point that still has an untried value.
        i = len(sizes) - 1
        while i >= 0 and path[i] + 1 >= sizes[i]:
            i -= 1
        if i < 0:
            return
        path[i] += 1
        del path[i + 1:]
        changed = i


def _summed(weighted: Iterable[tuple[Hashable, int, int]], what: str) -> Distribution:
    """The exact distribution of an enumeration's (value, numerator, denominator) paths.

    Numerators are added as integers per (unreduced) denominator, then brought
    over one least common denominator L of them all, making one Fraction per
    value: a Fraction addition per path would otherwise dominate the cost of
    the odds. The paths' weights must sum to exactly 1 (integer numerators
    summing to L), which is checked rather than normalised away.
    """
    sums: dict[Hashable, dict[int, int]] = {}
    for value, num, den in weighted:
        by_den = sums.setdefault(value, {})
        by_den[den] = by_den.get(den, 0) + num
    common = math.lcm(*(d for by_den in sums.values() for d in by_den))
    numerators = {value: sum(n * (common // d) for d, n in by_den.items()) for value, by_den in sums.items()}
    if sum(numerators.values()) != common:
        raise ValueError(f"{what} does not sum to 1")
    return Distribution._exact({value: Fraction(n, common) for value, n in numerators.items() if n})


def enumerate_values(fn: Callable[..., Hashable], *args: Any) -> Distribution:
    """The exact distribution of fn(dice, *args) over every path (hashable results)."""
    return Distribution(_paths(fn, args, {}))


def enumerate_outcomes(procedure: Callable[..., Mapping[str, Hashable]], *args: Any) -> dict[str, Distribution]:
    """The exact marginal distribution of each outcome a procedure returns.

    Every path must return the same outcome names; the weights of each
    outcome's values then sum to exactly 1, which is checked rather than
    normalised away.
    """
    return _enumerate(procedure, args, None)


def enumerate_steps(procedure: Callable[..., Mapping[str, Hashable]], *args: Any) -> tuple[dict[str, Distribution], list["Step"]]:
    """The outcomes of :func:`enumerate_outcomes` and how they come about: one
    :class:`Step` per label the procedure gives its dice, in the order first met.

    A step's ``p_rolled`` is the chance that a roll with that label is made at
    all, and ``values`` the exact distribution of what it decided, given that
    it is made. Both come from the same replay as the outcomes: a choice point
    reached by the prefix of choices ``c_1 .. c_k`` (weight ``w``) and taking
    value ``v`` (chance ``q``) adds ``w * q`` to its label's value ``v``, once
    per edge of the tree of choices; so per label, the sum over ``v`` is the
    chance of reaching such a choice point, ``p_rolled``, and each ``v``'s
    share of it is ``P(v | rolled)``. The rolls inside a ``dice.sub`` part
    come from the part's own enumeration (once per part), weighted by the
    chance of reaching the part; ``dice.parts`` lists each part's steps in turn.
    A label met twice on one path is reported as a roll of its own ("2nd roll").
    """
    steps = _StepLog()
    outcomes = _enumerate(procedure, args, steps)
    return outcomes, steps.steps()


def _enumerate(procedure: Callable[..., Mapping[str, Hashable]], args: tuple, steps: "_StepLog | None") -> dict[str, Distribution]:
    cache: dict = {}
    probe = Enumerating([], cache, top=True)
    first = procedure(probe, *args)
    if isinstance(first, _Fold):
        if probe._sizes:
            raise ValueError(f"{procedure.__name__}: dice.fold(...) must be the procedure's only use of dice")
        return _fold_outcomes(first, steps)
    if isinstance(first, _Chain):
        if probe._sizes:
            raise ValueError(f"{procedure.__name__}: dice.chain(...) must be the procedure's only use of dice")
        return _chain_outcomes(first, steps)
    if isinstance(first, _Parts):
        if probe._sizes:
            raise ValueError(f"{procedure.__name__}: dice.parts(...) must be the procedure's only use of dice")
        merged: dict[str, Distribution] = {}
        for fn, *part_args in first.parts:
            found = _enumerate(fn, tuple(part_args), steps)
            _check_disjoint(merged, found, fn)
            merged.update(found)
        return merged
    # Paths are gathered per outcome as (value, numerator, denominator) and
    # summed exactly once at the end (see _summed).
    weighted: dict[str, list[tuple[Hashable, int, int]]] = {}
    names: frozenset[str] | None = None
    for result, num, den in _raw_paths(procedure, args, cache, None, steps):
        if names is None:
            names = frozenset(result)
            weighted = {name: [] for name in result}
        elif result.keys() != names:
            raise ValueError(f"{procedure.__name__} returned outcomes {sorted(result)} on one path and {sorted(names)} on another")
        for name, value in result.items():
            weighted[name].append((value, num, den))
    marginals: dict[str, Distribution] = {}
    for name, triples in weighted.items():
        marginals[name] = _summed(triples, f"outcome {name}")
    return marginals


# ---------------------------------------------------------------------------
# How the outcomes come about (enumerate_steps)


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

    def __init__(self, label: str, p_rolled: Fraction, values: tuple, names: Counts | None, counting: bool):
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
        self._rolls: dict[tuple, list] = {}  # place -> [label, order, names, counting, {value: {den: num}}]

    def _entry(self, place: tuple, label: str, order: tuple | None, names: Counts | None, counting: bool) -> dict:
        entry = self._rolls.get(place)
        if entry is None:
            entry = self._rolls[place] = [label, order, names, counting, {}]
        return entry[4]

    def add(self, place: tuple, label: str, order: tuple | None, names: Counts | None, counting: bool, value: Hashable, num: int, den: int) -> None:
        by_den = self._entry(place, label, order, names, counting).setdefault(value, {})
        by_den[den] = by_den.get(den, 0) + num

    def add_part(self, part: tuple, edges: list, num: int, den: int) -> None:
        """A part's rolls (see edges()), each weight times num/den, the chance of reaching the part."""
        for place, label, order, names, counting, weights in edges:
            values = self._entry((part, *place), label, order, names, counting)
            for value, p in weights:
                by_den = values.setdefault(value, {})
                d = den * p.denominator
                by_den[d] = by_den.get(d, 0) + num * p.numerator

    def edges(self) -> list:
        """Each roll with the exact weight of each value (within this enumeration)."""
        out = []
        for place, (label, order, names, counting, values) in self._rolls.items():
            weights = []
            for value, by_den in values.items():
                common = math.lcm(*by_den)
                weights.append((value, Fraction(sum(n * (common // d) for d, n in by_den.items()), common)))
            out.append((place, label, order, names, counting, weights))
        return out

    def steps(self) -> list[Step]:
        """The rolls in the order first met. Rolls that share a label (made at
        different places) are told apart by their order: "(2nd roll)"."""
        out = []
        met: dict[str, int] = {}
        for _place, label, order, names, counting, weights in self.edges():
            weights = [(v, w) for v, w in weights if w]
            rolled = sum((w for _, w in weights), Fraction(0))
            if not rolled:
                continue
            met[label] = met.get(label, 0) + 1
            shown = label if met[label] == 1 else f"{label} ({_ordinal(met[label])} roll)"
            if order:
                rank = {v: i for i, v in enumerate(order)}
                weights.sort(key=lambda vw, rank=rank: rank[vw[0]])
            else:
                weights.sort(key=lambda vw: _sort_key(vw[0]))
            out.append(Step(shown, rolled, tuple((v, w / rolled) for v, w in weights), names, counting))
        return out
