"""Konflikt '47 medics, worked by hand.

Each small-arms casualty is saved on a 6, p = 1/6, independently: saved is
Binomial(n, 1/6), P(k) = C(n, k) 5^(n-k) / 6^n, and lost = n - saved. No roll
at all for other causes, without a medic in reach, or with no casualties.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from rules_py import get, odds, roll
from rules_py.calculator import InputError

CALC = get("k47-medic")


def test_three_small_arms_casualties():
    # C(3,k) 5^(3-k) / 216: 125, 75, 15, 1 over 216.
    result = odds("k47-medic", {"casualties": "3"})["outcomes"]
    assert result["saved"] == {"0": "125/216", "1": "25/72", "2": "5/72", "3": "1/216"}
    assert result["lost"] == {"0": "1/216", "1": "5/72", "2": "25/72", "3": "125/216"}


def test_at_least_one_of_five_saved():
    # 1 - (5/6)^5 = 1 - 3125/7776 = 4651/7776, the page's "more often than not".
    saved = CALC.odds(casualties=5).outcomes["saved"]
    assert 1 - saved[0] == F(4651, 7776)


@pytest.mark.parametrize("cause", ["heavy_weapon", "exceptional_damage", "close_quarters"])
def test_no_save_against_other_causes(cause):
    out = CALC.odds(casualties=4, cause=cause).outcomes
    assert out["saved"] == {0: 1} and out["lost"] == {4: 1}


def test_no_save_without_a_medic_in_reach():
    out = CALC.odds(casualties=4, medic_in_range=False).outcomes
    assert out["saved"] == {0: 1} and out["lost"] == {4: 1}
    assert roll("k47-medic", 1, {"casualties": "4", "medic_in_range": "false"})["dice"] == []


def test_no_casualties_no_roll():
    assert CALC.odds(casualties=0).outcomes["lost"] == {0: 1}
    assert roll("k47-medic", 1, {"casualties": "0"})["dice"] == []


def test_roll_shows_one_die_per_casualty():
    result = roll("k47-medic", 6, {"casualties": "5"})
    (entry,) = result["dice"]
    assert entry["dice"] == "5D6" and len(entry["faces"]) == 5
    sixes = sum(face == 6 for face in entry["faces"])
    assert result["outcomes"] == {"saved": str(sixes), "lost": str(5 - sixes)}


def test_bad_input_names_the_field():
    with pytest.raises(InputError, match="casualties"):
        CALC.odds(casualties=31)
    with pytest.raises(InputError, match="cause"):
        CALC.odds(cause="artillery")
    with pytest.raises(InputError, match="medic_in_range"):
        CALC.odds(medic_in_range="perhaps")
