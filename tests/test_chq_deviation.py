"""Combat HQ deviation against hand-worked odds.

The deviation die is one D6: with h faces reading Hit, P(Hit) = h/6 and
P(arrow) = (6 - h)/6. On an arrow the template moves 1D6 + 3 inches, each of
4..9 with probability 1/6, so P(distance = d) = (6 - h)/6 * 1/6 = (6 - h)/36
for d in 4..9, and P(distance = 0) = h/6.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from rules_py import get, odds
from rules_py.calculator import InputError
from rules_py.tables import load

CALC = get("chq-deviation")


def test_default_two_hit_faces():
    # h = 2: P(deviates) = 4/6 = 2/3; each distance 4..9 is 4/36 = 1/9; a Hit (distance 0) is 2/6 = 1/3.
    result = odds("chq-deviation")
    assert result["inputs"] == {"hit_faces": "2"}
    assert result["outcomes"]["deviates"] == {"false": "1/3", "true": "2/3"}
    assert result["outcomes"]["distance"] == {"0": "1/3", "4": "1/9", "5": "1/9", "6": "1/9", "7": "1/9", "8": "1/9", "9": "1/9"}


@pytest.mark.parametrize("h", range(7))
def test_every_reading_of_the_die(h):
    outcomes = CALC.odds(hit_faces=h).outcomes
    assert outcomes["deviates"].p(True) == F(6 - h, 6)
    assert outcomes["distance"].p(0) == F(h, 6)
    for d in range(4, 10):  # uniform over 4..9 inches when it deviates
        assert outcomes["distance"].p(d) == F(6 - h, 36)
    assert set(outcomes["distance"]) <= {0, 4, 5, 6, 7, 8, 9}


def test_all_hit_faces_never_moves():
    # h = 6: every face is a Hit, so the template never moves.
    outcomes = CALC.odds(hit_faces=6).outcomes
    assert dict(outcomes["deviates"]) == {False: 1}
    assert dict(outcomes["distance"]) == {0: 1}


def test_distance_is_one_d6_plus_three_from_the_data():
    # The source: "1D6+3" inches.
    row = load("combat_hq", "deviation_distance").rows[0]
    assert (row["dice"], row["add"]) == (1, 3)
    assert load("combat_hq", "deviation_die").column("result") == ("hit", "arrow")


def test_rolls_show_the_drift_die_only_on_an_arrow():
    seen = set()
    for seed in range(200):
        roll = CALC.roll(seed)
        first = roll.dice[0]
        assert first["dice"] == "D6"
        hit = first["faces"][0] <= 2  # default: faces 1-2 read Hit
        seen.add(hit)
        if hit:
            assert len(roll.dice) == 1
            assert roll.outcomes == {"deviates": False, "distance": 0}
        else:
            assert len(roll.dice) == 2
            assert roll.outcomes == {"deviates": True, "distance": roll.dice[1]["faces"][0] + 3}
    assert seen == {True, False}


@pytest.mark.parametrize("bad", ["-1", "7", "two", "2.5", True])
def test_bad_hit_faces_names_the_field(bad):
    with pytest.raises(InputError, match="hit_faces"):
        CALC.odds(hit_faces=bad)
