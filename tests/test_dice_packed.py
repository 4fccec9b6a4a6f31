"""The engine's convolutions by one big-integer product (dice._packed), and
folds over a difference (``dice.fold(..., by_difference=True)``).

Every packed convolution is checked against the plain loop it replaces, a
loop over every tuple of drawn values (itertools.product), on drawn counts:
numbers and vectors, negative values, differences and sums, powers (n dice
of one table). Folds over a difference are checked against brute force over
every face and against the same fold over every pair of values (the joint),
fire for effect at its heaviest inputs under the readings that join
successes and 6s included.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction as F
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_py import get
from rules_py import dice as dice_module
from rules_py.combat_hq.fire_for_effect import fire_for_effect
from rules_py.dice import Pool, enumerate_outcomes

from test_dice_fold import SIXES, as_groups, brute_force, counts_table, versus


def looped(terms) -> dict:
    """sum(sign * (x_1 + ... + x_power)) over the terms, by every tuple of draws."""
    draws = [counts for counts, _, power in terms for _ in range(power)]
    signs = [sign for _, sign, power in terms for _ in range(power)]
    out: Counter = Counter()
    for combo in product(*draws):
        total = None
        for (value, _), sign in zip(combo, signs):
            signed = tuple(sign * x for x in value) if isinstance(value, tuple) else sign * value
            total = signed if total is None else (tuple(a + b for a, b in zip(total, signed)) if isinstance(signed, tuple) else total + signed)
        if total is None:  # no draws at all: the sum is 0
            first = terms[0][0][0][0]
            total = tuple(0 for _ in first) if isinstance(first, tuple) else 0
        out[total] += math.prod(ways for _, ways in combo)
    return dict(out)


def counts_of(draw, dims: int) -> tuple:
    values = draw(st.lists(st.integers(-4, 6) if dims == 0 else st.tuples(*[st.integers(-3, 5)] * dims), min_size=1, max_size=5, unique=True))
    return tuple((v, draw(st.integers(1, 40))) for v in values)


@st.composite
def terms(draw):
    dims = draw(st.integers(0, 3))  # 0: plain numbers
    n = draw(st.integers(1, 3))
    return tuple((counts_of(draw, dims), draw(st.sampled_from([1, -1])), draw(st.integers(0, 3))) for _ in range(n))


@settings(max_examples=200, deadline=None)
@given(terms())
def test_packed_is_the_loop_over_every_draw(ts):
    got = dice_module._packed(ts)
    # Its box: per coordinate, 1 + the sum over terms of power * (greatest - least).
    vectors = [[v if isinstance(v, tuple) else (v,) for v, _ in counts] for counts, _, _ in ts]
    box = math.prod(
        1 + sum(power * (max(v[j] for v in vs) - min(v[j] for v in vs)) for (_, _, power), vs in zip(ts, vectors))
        for j in range(len(vectors[0][0]))
    )
    if box > dice_module._PACKED_SLOTS:  # left to the loops
        assert got is None
        return
    assert got is not None
    assert len({v for v, _ in got}) == len(got) and all(w > 0 for _, w in got)
    assert dict(got) == looped(ts)


def test_packed_by_hand():
    # 2D6 read as their faces: 7 in 6 of the 36 rolls, 2 and 12 in 1 each.
    two = dict(dice_module._packed(((tuple((f, 1) for f in range(1, 7)), 1, 2),)))
    assert (two[2], two[7], two[12], sum(two.values())) == (1, 6, 1, 36)
    # A D6 less a D6, as (successes at 4+, 6s) vectors: each side (0,0) x3, (1,0) x2, (1,1) x1.
    # The difference (0, 0): both the same, 9 + 4 + 1 = 14 of 36; (1, 1): a six against a miss,
    # 1 * 3; (0, -1): a 4 or 5 against a six, 2 * 1.
    side = (((0, 0), 3), ((1, 0), 2), ((1, 1), 1))
    diff = dict(dice_module._packed(((side, 1, 1), (side, -1, 1))))
    assert (diff[(0, 0)], diff[(1, 1)], diff[(0, -1)], sum(diff.values())) == (14, 3, 2, 36)
    # Values that are not numbers (bools neither), or a mix of sizes, are left to the loops.
    for counts in ((("a",), 1),), (((1, 2), 1), ((1,), 1)), ((True, 1), (False, 1)):
        assert dice_module._packed(((counts, 1, 2),)) is None


@pytest.mark.parametrize("n", [0, 1, 2, 5, 13, 20])
@pytest.mark.parametrize("table", [(1, 2, 3, 4, 5, 6), counts_table(4), counts_table(2), (-1, 0, 0, 1, 1, 2), (F(1, 2), 0, 0, 1, 1, F(3, 2))])
def test_pool_counts_are_the_repeated_convolution(n, table):
    # The n-th power of one die's counts (packed or looped, whichever is
    # faster; fractions always looped) against adding one die at a time here.
    one = Counter(table)
    counts: Counter = Counter({(0, 0) if isinstance(table[0], tuple) else 0: 1})
    for _ in range(n):
        step: Counter = Counter()
        for a, wa in counts.items():
            for b, wb in one.items():
                step[tuple(x + y for x, y in zip(a, b)) if isinstance(a, tuple) else a + b] += wa * wb
        counts = step
    dice_module._pool_counts.cache_clear()
    assert dict(dice_module._pool_counts(n, 6, table)) == dict(counts)


def test_group_counts_add_their_pools():
    # 12 dice counting (successes at 2+, 6s) and 4 counting successes at 3+ only: packed against the loop.
    pools = ((12, 6, counts_table(2)), (4, 6, tuple((s, 0) for s, _ in counts_table(3))))
    dice_module._group_counts.cache_clear()
    got, total = dice_module._group_counts(pools)
    a, b = dice_module._pool_counts(*pools[0]), dice_module._pool_counts(*pools[1])
    assert total == 6**16
    assert dict(got) == looped(((a, 1, 1), (b, 1, 1)))


def fold_procedure(groups, outcome, reads=None, by_difference=False):
    return lambda dice: dice.fold(groups, outcome, reads, by_difference=by_difference)


@st.composite
def pools(draw, label: str, max_dice: int):
    n = draw(st.integers(0, max_dice))
    tn = draw(st.integers(1, 7))
    adds = draw(st.sampled_from([None, (0,), (1,)]))
    return Pool(n, 6, label, counts_table(tn), SIXES, adds)


@settings(max_examples=30, deadline=None)
@given(a=pools("a", 3), b=pools("b", 2), c=st.one_of(st.none(), pools("c", 2)))
def test_a_fold_over_the_difference_is_brute_force(a, b, c):
    # versus reads hits - saves and sixes against the unit's 6s only: a comparison of the two sides.
    groups = (a, (b,) if c is None else (b, c))
    expected = brute_force(as_groups(groups), versus)
    assert enumerate_outcomes(fold_procedure(groups, versus, by_difference=True)) == expected
    assert enumerate_outcomes(fold_procedure(groups, versus, {"margin": (0,), "suppressed": (1,)}, by_difference=True)) == expected


def test_a_fold_over_the_difference_evaluates_once_per_difference():
    # 8 dice against 8, counting (successes at 4+, 6s): 45 x 45 pairs of values, but
    # the difference (hits - saves, 6s - their 6s) takes each of (-8..8) x (-8..8) at most.
    calls = []

    def outcome(a, b):
        calls.append((a, b))
        return versus(a, b)

    side = Pool(8, 6, "side", counts_table(4), SIXES)
    joint = enumerate_outcomes(fold_procedure((side, side), versus))
    assert enumerate_outcomes(fold_procedure((side, side), outcome, by_difference=True)) == joint
    differences = [a for a, b in calls[1:]]  # the first call only names the outcomes
    assert len(differences) == len(set(differences)) <= 17 * 17
    assert all(b == (0, 0) for _, b in calls[1:])
    # The declaration is taken at its word: an outcome that reads one side alone
    # is not a comparison, and the fold then reads the difference for it.
    alone = enumerate_outcomes(fold_procedure((side, side), lambda a, b: {"hits": a[0]}, by_difference=True))["hits"]
    assert min(alone) == -8 and alone.p(0) != enumerate_outcomes(fold_procedure((side, side), lambda a, b: {"hits": a[0]}))["hits"].p(0)


def test_by_difference_needs_two_groups():
    one = Pool(1, 6, "a", counts_table(4), SIXES)
    with pytest.raises(ValueError, match="two groups"):
        enumerate_outcomes(fold_procedure((one, one, one), lambda a, b, c: {"x": a}, by_difference=True))


class _Joint:
    """The dice of a procedure, its folds over every pair of values instead of the difference."""

    def __init__(self, dice):
        self._dice = dice

    def fold(self, groups, outcome, reads=None, working=None, by_difference=False):
        return self._dice.fold(groups, outcome, reads, working)


FFE = get("chq-fire-for-effect")
HEAVIEST = {"fire_dice": 12, "sheaf": "converged", "reaction_dice": 12, "reaction_target": 2, "cover": "heavy", "partial": True, "extra_dice_target": "3"}


def _both_ways(inputs: dict) -> tuple[dict, dict]:
    args = {f.name: f.default for f in FFE.fields}
    args.update(inputs)
    fast = enumerate_outcomes(lambda dice: fire_for_effect(dice, **args))
    joint = enumerate_outcomes(lambda dice: fire_for_effect(_Joint(dice), **args))
    return fast, joint


@pytest.mark.parametrize("reading", ["unopposed", "one_if_more", "if_suppressed"])
@pytest.mark.parametrize("swd", [False, True])
@pytest.mark.parametrize("sixes", [True, False])
def test_fire_for_effect_at_its_heaviest_is_the_joint_fold(reading, swd, sixes):
    fast, joint = _both_ways({**HEAVIEST, "disruptions": reading, "suppressed_without_disruption": swd, "extra_dice_sixes": sixes})
    assert fast == joint
    assert sum(fast["unopposed"].values()) == 1 and max(fast["unopposed"]) == (1 if reading == "one_if_more" else 13)


@settings(max_examples=40, deadline=None)
@given(
    fire=st.integers(1, 12), reaction=st.integers(0, 12), rt=st.integers(2, 6),
    extra=st.sampled_from(["same", "2", "3", "4", "5", "6"]), sixes=st.booleans(),
    reading=st.sampled_from(["unopposed", "one_if_more", "if_suppressed"]), swd=st.booleans(),
    cover=st.sampled_from([c.name for c in next(f for f in FFE.fields if f.name == "cover").choices]), partial=st.booleans(),
)
def test_fire_for_effect_is_the_joint_fold(fire, reaction, rt, extra, sixes, reading, swd, cover, partial):
    fast, joint = _both_ways({
        "fire_dice": fire, "reaction_dice": reaction, "reaction_target": rt, "extra_dice_target": extra, "extra_dice_sixes": sixes,
        "disruptions": reading, "suppressed_without_disruption": swd, "cover": cover, "partial": partial,
    })
    assert fast == joint
    assert all(isinstance(p, F) for d in fast.values() for p in d.values())
