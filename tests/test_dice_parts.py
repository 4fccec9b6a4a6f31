"""dice.parts: independent parts of a procedure, enumerated apart, rolled in order.

The odds of a procedure built with ``dice.parts`` must equal, exactly, the
marginals of the same parts run one after the other as plain sub-procedures
(the product that parts() avoids); rolls merge the parts' dicts; misuse fails
loudly instead of giving wrong odds.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from rules_py.dice import Rolling, enumerate_outcomes


def two_d6_total(dice):
    return {"total": dice.sum_of(2, 6, "2D6")}


def chart_roll(dice, low):
    return {"high": dice.d6("chart", chart=lambda face: face > low), "face": dice.d6("second die")}


def with_parts(dice, low):
    return dice.parts((two_d6_total,), (chart_roll, low))


def as_product(dice, low):
    return {**dice.sub(two_d6_total), **dice.sub(chart_roll, low)}


def test_parts_match_the_product_exactly():
    parts = enumerate_outcomes(with_parts, 4)
    product = enumerate_outcomes(as_product, 4)
    assert parts == product
    # By hand: 2D6 = 7 in 6 of 36 ways; a face above 4 is 2 of 6; the second die is uniform.
    assert parts["total"][7] == F(1, 6)
    assert parts["high"][True] == F(1, 3)
    assert parts["face"] == {k: F(1, 6) for k in range(1, 7)}


def test_rolling_runs_the_parts_in_order_and_merges_them():
    dice = Rolling(5)
    result = with_parts(dice, 4)
    assert set(result) == {"total", "high", "face"}
    assert [entry["label"] for entry in dice.log] == ["2D6", "chart", "second die"]
    assert result["total"] == sum(dice.log[0]["faces"])


def test_parts_inside_a_sub_fall_back_to_the_exact_product():
    def outer(dice):
        return dice.sub(with_parts, 4)

    dist = enumerate_outcomes(lambda dice: {"joint": tuple(sorted(outer(dice).items()))})["joint"]
    # Three independent parts: P(total 2, high, face 6) = 1/36 * 1/3 * 1/6.
    assert dist.p((("face", 6), ("high", True), ("total", 2))) == F(1, 36 * 3 * 6)


def test_parts_is_a_dict_in_every_mode():
    # What parts() returns is the merged outcomes, in odds mode too: reading
    # it (here, going on from its value) gives the exact odds, not an error.
    def reads_the_result(dice):
        return {"double": dice.parts((two_d6_total,))["total"] * 2}

    assert enumerate_outcomes(reads_the_result)["double"][24] == F(1, 36)
    assert enumerate_outcomes(reads_the_result)["double"][14] == F(6, 36)

    def rolls_first(dice):
        dice.d6("stray die")
        return dice.parts((two_d6_total,))

    # Not the only use of dice: still exact (the parts' marginals after each face).
    assert enumerate_outcomes(rolls_first)["total"][12] == F(1, 36)


def test_misuse_fails_loudly():

    def shared_name(dice):
        return dice.parts((two_d6_total,), (two_d6_total,))

    with pytest.raises(ValueError, match="total"):
        enumerate_outcomes(shared_name)
    with pytest.raises(ValueError, match="total"):
        shared_name(Rolling(1))
