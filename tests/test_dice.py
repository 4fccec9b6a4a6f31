"""The exact distribution core, against fractions worked out by hand."""

from __future__ import annotations

import itertools
from fractions import Fraction as F

import pytest

from rules_py.dice import Distribution, Rolling, die, enumerate_outcomes, enumerate_values, pool, successes, sum_of


def test_one_die_is_uniform():
    assert die(6) == {k: F(1, 6) for k in range(1, 7)}
    assert die(3) == {1: F(1, 3), 2: F(1, 3), 3: F(1, 3)}


def test_three_d6_by_hand():
    # 3D6 has 216 outcomes. Ways to make each total, counted by stars and bars
    # with the cap of 6 per die: 3:1 4:3 5:6 6:10 7:15 8:21 9:25 10:27, symmetric about 10.5.
    ways = {3: 1, 4: 3, 5: 6, 6: 10, 7: 15, 8: 21, 9: 25, 10: 27}
    ways.update({21 - k: w for k, w in list(ways.items())})
    assert sum(ways.values()) == 216
    assert sum_of(3, 6) == {k: F(w, 216) for k, w in ways.items()}
    assert sum_of(3, 6).mean() == F(21, 2)


def test_successes_at_4_plus_by_hand():
    # Each die succeeds with p = 3/6 = 1/2, so k successes of 3 dice: C(3,k)/8.
    assert successes(3, 4) == {0: F(1, 8), 1: F(3, 8), 2: F(3, 8), 3: F(1, 8)}


def test_successes_at_5_plus_by_hand():
    # p = 2/6 = 1/3, q = 2/3. Two dice: none 4/9, one 2*(1/3)(2/3) = 4/9, both 1/9.
    assert successes(2, 5) == {0: F(4, 9), 1: F(4, 9), 2: F(1, 9)}
    # Four dice, all succeed: (1/3)^4 = 1/81; none: (2/3)^4 = 16/81.
    four = successes(4, 5)
    assert four[4] == F(1, 81) and four[0] == F(16, 81)
    assert four[2] == 6 * F(1, 9) * F(4, 9)  # C(4,2) p^2 q^2 = 24/81


def test_zero_dice():
    assert successes(0, 4) == {0: 1}
    assert sum_of(0, 6) == {0: 1}


def test_opposed_successes_by_hand():
    # Two dice at 4+ against one die at 4+: A ~ Bin(2, 1/2), B ~ Bin(1, 1/2).
    # A > B: (A=1,B=0) 1/2*1/2 + (A=2,B=0) 1/4*1/2 + (A=2,B=1) 1/4*1/2 = 1/4+1/8+1/8 = 1/2.
    def opposed(dice):
        a = dice.successes(2, 4, "attack")
        b = dice.successes(1, 4, "defence")
        return {"wins": a > b, "margin": a - b}

    odds = enumerate_outcomes(opposed)
    assert odds["wins"] == {True: F(1, 2), False: F(1, 2)}
    # margin -1: A=0,B=1 = 1/8; 0: A=0,B=0 1/8 + A=1,B=1 1/4 = 3/8; 1: 1/4 + 1/8 = 3/8; 2: 1/8.
    assert odds["margin"] == {-1: F(1, 8), 0: F(3, 8), 1: F(3, 8), 2: F(1, 8)}


def test_pool_counts_two_things_at_once():
    # One die: (success at 4+, six) is (0,0) for 1-3, (1,0) for 4-5, (1,1) for 6.
    both = pool(1, 6, lambda f: (int(f >= 4), int(f == 6)))
    assert both == {(0, 0): F(1, 2), (1, 0): F(1, 3), (1, 1): F(1, 6)}


def test_aggregates_match_brute_force():
    # itertools.product over every face is the reference for the convolution.
    for n, target in [(1, 4), (3, 5), (5, 4)]:
        counts = {}
        for faces in itertools.product(range(1, 7), repeat=n):
            k = sum(f >= target for f in faces)
            counts[k] = counts.get(k, 0) + 1
        assert successes(n, target) == Distribution(counts)


def test_chart_branches_once_per_result():
    calls = []

    def chart_roll(dice):
        result = dice.d6("chart", chart=lambda f: "low" if f <= 2 else "high")
        calls.append(result)
        return result

    assert enumerate_values(chart_roll) == {"low": F(1, 3), "high": F(2, 3)}
    assert len(calls) == 2  # two branches, not six


def test_sub_collapses_independent_stages():
    runs = []

    def stage(dice, n):
        runs.append(n)
        return dice.sum_of(n, 6, "stage")

    def two_stages(dice):
        a = dice.sub(stage, 2)
        b = dice.sub(stage, 2)
        return {"total": a + b}

    odds = enumerate_outcomes(two_stages)
    assert odds["total"] == sum_of(4, 6)
    # The stage is enumerated once, one replay per value of 2D6 (11 of them),
    # then cached: the two calls and the outer replays reuse it.
    assert runs == [2] * 11


def test_loop_with_early_stop():
    # Roll until a 6, at most 3 times: P(first 6 on roll k) = (5/6)^(k-1) * 1/6.
    def until_six(dice):
        for turn in range(1, 4):
            if dice.d6(f"turn {turn}", chart=lambda f: f == 6):
                return {"turn": turn}
        return {"turn": 0}

    assert enumerate_outcomes(until_six)["turn"] == {
        1: F(1, 6),
        2: F(5, 36),
        3: F(25, 216),
        0: F(125, 216),
    }


def test_rolling_records_every_die_and_is_seeded():
    def proc(dice):
        return {"hits": dice.sum_of(3, 6, "hits"), "chart": dice.d6("chart", chart=lambda f: f >= 4)}

    a, b = Rolling(42), Rolling(42)
    assert proc(a) == proc(b)
    assert a.log == b.log
    assert [entry["dice"] for entry in a.log] == ["3D6", "D6"]
    assert a.log[0]["result"] == sum(a.log[0]["faces"])
    assert a.log[1]["result"] == (a.log[1]["faces"][0] >= 4)


# The faces each seed gives: eight D6, then a D3, then a 4D6 pool, in that order.
# Worked out once (CPython 3.11) and written down, so any change to how the dice
# draw from random.Random(seed) shows here, and a Python whose randrange drew
# otherwise would fail it. In the browser, Pyodide's 3.14 is held to the same
# rolls by test_browser_calculators.py (a page's seeded roll equals the CLI's).
PINNED_FACES = {
    0: ([4, 4, 1, 3, 5, 4, 4, 3], 2, [3, 5, 2, 5]),
    7: ([3, 2, 4, 6, 1, 1, 5, 1], 2, [5, 1, 5, 2]),
    2024: ([4, 2, 6, 5, 3, 2, 6, 4], 3, [3, 5, 2, 6]),
    4242: ([4, 2, 1, 5, 4, 4, 3, 3], 1, [5, 4, 1, 4]),
}


@pytest.mark.parametrize("seed", sorted(PINNED_FACES))
def test_seeded_rolls_give_the_pinned_faces(seed):
    six, three, pool_faces = PINNED_FACES[seed]
    dice = Rolling(seed)
    assert [dice.d6("x") for _ in range(8)] == six
    assert dice.d3("y") == three
    assert dice.sum_of(4, 6, "z") == sum(pool_faces)
    assert [e["faces"] for e in dice.log] == [[f] for f in six] + [[three], pool_faces]


def test_distribution_rejects_nonsense():
    with pytest.raises(ValueError):
        Distribution({})
    with pytest.raises(ValueError):
        Distribution({1: -1, 2: 2})


# --- caches by value (issue 18): charts and pool keys are data ----------------


def test_charts_and_pool_keys_are_cached_by_value():
    from rules_py.dice import _chart, _pool, face_table

    _chart.cache_clear()
    _pool.cache_clear()

    def procedure(dice):
        # A fresh function object on every replay and every call: only its table counts.
        high = dice.d6("chart", chart=lambda f: f >= 4)
        pair = dice.pool(2, 6, "pool", lambda f: (int(f >= 4), int(f == 6)))
        return {"high": high, "pair": pair}

    for _ in range(3):
        outcomes = enumerate_outcomes(procedure)
    assert outcomes["high"] == {False: F(1, 2), True: F(1, 2)}
    # One distribution each, built once: a cache keyed on the function would miss every time.
    assert _chart.cache_info().misses == 1 and _chart.cache_info().hits > 1
    assert _pool.cache_info().misses == 1 and _pool.cache_info().hits > 1
    # The same reading built as data is the same entry.
    assert face_table(6, lambda f: f >= 4) == (False, False, False, True, True, True)
    enumerate_values(lambda dice: dice.d6("again", chart=(False, False, False, True, True, True)))
    assert _chart.cache_info().misses == 1
    with pytest.raises(ValueError):
        face_table(6, (1, 2, 3))


def test_sub_labels_are_not_part_of_the_cache_key():
    calls = []

    def part(dice, n, *, label):
        calls.append(label)
        return dice.sum_of(n, 6, label) >= 7

    def procedure(dice):
        return {"a": dice.sub(part, 2, label="first throw"), "b": dice.sub(part, 2, label="second throw")}

    outcomes = enumerate_outcomes(procedure)
    # 2D6 >= 7: 21 of 36 throws.
    assert outcomes["a"] == outcomes["b"] == {False: F(15, 36), True: F(21, 36)}
    # The part is enumerated once (11 totals, one replay each), not once per label.
    assert len(calls) == 11
    # A roll still shows each throw under its own label.
    rolling = Rolling(3)
    procedure(rolling)
    assert [entry["label"] for entry in rolling.log] == ["first throw", "second throw"]
