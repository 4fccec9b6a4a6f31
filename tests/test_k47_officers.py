"""Konflikt '47 officer's morale bonus, worked by hand from the rank table.

No dice are rolled, so each answer is one morale value with probability 1:
min(morale + bonus, 10), the bonus being +1 to +4 for Second Lieutenant to
Major, +4 for any higher rank, 0 with no officer in reach.
"""

from __future__ import annotations

import pytest

from rules_py import get, odds, roll
from rules_py.calculator import InputError

CALC = get("k47-officer-morale")


@pytest.mark.parametrize(
    "morale,officer,expected",
    [
        (5, "none", 5),  # no bonus
        (5, "second_lieutenant", 6),  # 5 + 1
        (5, "first_lieutenant", 7),  # 5 + 2
        (5, "captain", 8),  # 5 + 3
        (5, "major", 9),  # 5 + 4
        (5, "higher", 9),  # a Colonel counts as a Major: 5 + 4
    ],
)
def test_bonus_by_rank(morale, officer, expected):
    assert odds("k47-officer-morale", {"morale": morale, "officer": officer})["outcomes"]["morale"] == {str(expected): "1"}


@pytest.mark.parametrize(
    "morale,officer",
    [(8, "captain"), (10, "second_lieutenant"), (7, "major"), (9, "higher"), (10, "none")],
)
def test_morale_never_passes_ten(morale, officer):
    # 8 + 3 = 11, 10 + 1 = 11, 7 + 4 = 11, 9 + 4 = 13: each capped at 10; 10 with no officer stays 10.
    assert CALC.odds(morale=morale, officer=officer).outcomes["morale"] == {10: 1}


def test_just_under_the_cap_is_not_touched():
    # 6 + 4 = 10 exactly, and 5 + 4 = 9 stays 9.
    assert CALC.odds(morale=6, officer="major").outcomes["morale"] == {10: 1}
    assert CALC.odds(morale=5, officer="major").outcomes["morale"] == {9: 1}


def test_roll_rolls_nothing():
    result = roll("k47-officer-morale", 3, {"morale": "8", "officer": "captain"})
    assert result["dice"] == [] and result["outcomes"] == {"morale": "10"}


def test_bad_input_names_the_field():
    with pytest.raises(InputError, match="morale"):
        CALC.odds(morale=11)
    with pytest.raises(InputError, match="morale"):
        CALC.odds(morale=0)
    with pytest.raises(InputError, match="officer"):
        CALC.odds(officer="colonel")
