"""Konflikt '47 friendly flak holding fire, worked by hand.

A unit holds on 5+ (inexperienced), 4+ (regular) or 3+ (veteran), so it fires
with q = 4/6, 3/6 or 2/6; with u units, firing is Binomial(u, q).
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from rules_py import get, odds, roll
from rules_py.calculator import InputError

CALC = get("k47-flak-hold-fire")


def test_two_regular_units():
    # q = 1/2: none 1/4, one 2 * 1/4 = 1/2, both 1/4.
    assert odds("k47-flak-hold-fire", {"experience": "regular", "units": "2"})["outcomes"]["firing"] == {"0": "1/4", "1": "1/2", "2": "1/4"}


def test_one_veteran_unit():
    # Fails on a 1 or 2: 2/6 = 1/3.
    assert CALC.odds(experience="veteran", units=1).outcomes["firing"] == {0: F(2, 3), 1: F(1, 3)}


def test_three_inexperienced_units():
    # q = 2/3: all three fire (2/3)^3 = 8/27; none (1/3)^3 = 1/27; exactly one 3 * 2/3 * 1/9 = 6/27.
    firing = CALC.odds(experience="inexperienced", units=3).outcomes["firing"]
    assert firing == {0: F(1, 27), 1: F(6, 27), 2: F(12, 27), 3: F(8, 27)}


def test_roll_counts_the_failures():
    result = roll("k47-flak-hold-fire", 9, {"experience": "veteran", "units": "4"})
    (entry,) = result["dice"]
    assert result["outcomes"]["firing"] == str(sum(face < 3 for face in entry["faces"]))


def test_bad_input_names_the_field():
    with pytest.raises(InputError, match="units"):
        CALC.odds(units=0)
    with pytest.raises(InputError, match="experience"):
        CALC.odds(experience="elite")
