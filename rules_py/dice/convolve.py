"""Convolution: the distribution of a sum of independent dice, as integer counts.

Every die is fair, so each of the ``sides**n`` rolls of n dice is equally
likely, and a distribution is carried as integer *counts* (value -> how many
of those rolls give it) over that one denominator; Fractions come at the end
(:mod:`.distribution`). The counts of a sum ``X + Y`` of independent parts
are ``c(s) = sum over x + y = s of a(x) * b(y)`` (a convolution), vectors
added coordinate by coordinate.

Two ways to convolve, whichever costs less: a loop over the pairs of values,
or, when the values are integers or integer vectors, one product of big
integers (Kronecker substitution, :func:`_packed`): each part is a polynomial
whose coefficients are its counts, packed into one integer, and the product
of the integers holds the counts of the sum.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Hashable, Iterable
from functools import lru_cache
from typing import Any

from .faces import FaceTable, face_table

def _add(a: Any, b: Any) -> Any:
    """a + b, element-wise for vectors."""
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
    coefficients = [int.from_bytes(packed[at : at + width], "little") for at in range(0, slots * width, width)]
    if type(terms[0][0][0][0]) is tuple:
        values: Iterable[Hashable] = itertools.product(*(range(s, s + span) for s, span in zip(start, spans)))
    else:
        values = range(start[0], start[0] + spans[0])
    return tuple((v, w) for v, w in zip(values, coefficients) if w)



def _sub(a: Any, b: Any) -> Any:
    """a - b, element-wise for vectors."""
    if isinstance(a, tuple):
        return tuple(map(operator.sub, a, b))
    return a - b


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


@lru_cache(maxsize=None)
def _difference_counts(first: tuple[tuple[Hashable, int], ...], second: tuple[tuple[Hashable, int], ...]) -> tuple[tuple[Hashable, int], ...]:
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
