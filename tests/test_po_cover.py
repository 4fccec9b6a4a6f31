"""Plastic Ostfront table 7 (cover collapse) against hand-worked odds.

Counting ways for N dice: the number of ways 6D6 totals s is
W(s) = sum_k (-1)^k C(6, k) C(s - 6k - 1, 5) (inclusion-exclusion), out of 6^6 = 46656.
"""

from __future__ import annotations

from fractions import Fraction as F
from math import comb

import pytest

import rules_py
from rules_py import get
from rules_py.calculator import InputError

CALC = get("po-cover-collapse")
ALL = 6**6


def ways_6d6(s: int) -> int:
    return sum((-1) ** k * comb(6, k) * comb(s - 6 * k - 1, 5) for k in range(7) if s - 6 * k - 1 >= 5)


def odds(**raw):
    return {name: dict(dist) for name, dist in CALC.odds(raw).outcomes.items()}


def test_ways_formula_by_hand():
    # W(21) = C(20,5) - 6 C(14,5) + 15 C(8,5) = 15504 - 12012 + 840 = 4332; W(6) = 1; W(7) = 6.
    assert ways_6d6(21) == 4332 and ways_6d6(6) == 1 and ways_6d6(7) == 6
    assert sum(ways_6d6(s) for s in range(6, 37)) == ALL


def test_three_level_building_whole():
    # Score 8 per level * 3 = 24; six dice + 2 barrage points: 6D6 >= 22.
    # 6D6 is symmetric about 21, so P(>= 22) = (1 - P(21)) / 2 = (46656 - 4332) / 2 / 46656 = 21162/46656.
    o = odds(cover="multi_storey", levels=3, barrage_points=2, dice_thrown=6)
    assert o["collapsed"] == {True: F(21162, ALL), False: 1 - F(21162, ALL)}
    assert o["levels_left"] == {0: F(21162, ALL), 3: 1 - F(21162, ALL)}
    # A multi-storey building gives prepared cover standing and collapsed alike.
    assert o["cover_left"] == {"prepared": F(1)}


def test_three_level_building_prepared():
    # Prepared: 12 per level * 3 = 36, 2 barrage points: 6D6 >= 34: W(34) + W(35) + W(36) = 21 + 6 + 1 = 28.
    o = odds(cover="multi_storey", levels=3, prepared=True, barrage_points=2, dice_thrown=6)
    assert o["collapsed"][True] == F(28, ALL)
    # Fortification while standing, prepared after collapse.
    assert o["cover_left"] == {"fortification": 1 - F(28, ALL), "prepared": F(28, ALL)}


def test_three_level_building_other_readings():
    # One D6 + 5 against 8 per level: 3+ on the die, q = 2/3.
    # one_level: only the top level can fall.
    assert odds(cover="multi_storey", levels=3, dice_thrown=1, barrage_points=5, storeys="one_level")["levels_left"] == {2: F(2, 3), 3: F(1, 3)}
    # cascade: 0 left q^3 = 8/27, 1 left q^2 (1-q) = 4/27, 2 left q (1-q) = 6/27, 3 left 1-q = 9/27.
    o = odds(cover="multi_storey", levels=3, dice_thrown=1, barrage_points=5, storeys="cascade")
    assert o["levels_left"] == {0: F(8, 27), 1: F(4, 27), 2: F(6, 27), 3: F(9, 27)}
    assert o["collapsed"][True] == F(8, 27)
    # whole: 1D6 + 20 against 24 needs a 4+: 1/2.
    assert odds(cover="multi_storey", levels=3, dice_thrown=1, barrage_points=20)["collapsed"][True] == F(1, 2)


def test_single_level_cover():
    # Light structure, one die, no barrage points: a 6 (1/6) collapses it; no cover either way.
    o = odds(cover="light", dice_thrown=1, barrage_points=0)
    assert o["collapsed"] == {False: F(5, 6), True: F(1, 6)} and o["cover_left"] == {"none": F(1)}
    # Prepared light structure: 8 on 1D6 + 3 needs 5+ (1/3); hasty cover before and after.
    o = odds(cover="light", prepared=True, dice_thrown=1, barrage_points=3)
    assert o["collapsed"][True] == F(1, 3) and o["cover_left"] == {"hasty": F(1)}
    # Fortification, 12, six dice + 2: 6D6 >= 10 fails only on 6..9: 1 + 6 + 21 + 56 = 84 ways.
    o = odds(cover="fortification", dice_thrown=6)
    assert o["collapsed"][False] == F(84, ALL)
    assert o["cover_left"] == {"fortification": F(84, ALL), "prepared": 1 - F(84, ALL)}
    # Prepared position, 10, two dice + 3: 2D6 >= 7 = 21/36.
    assert odds(cover="prepared_position", dice_thrown=2, barrage_points=3)["collapsed"][True] == F(21, 36)


def test_default_is_one_die_and_the_literal_six_dice_empty_the_table():
    # The default (issue 17): one D6 + 2 barrage points (the usual intensity).
    # Heavy structure, score 8: 1D6 + 2 >= 8 needs a 6: 1/6.
    assert odds()["collapsed"] == {False: F(5, 6), True: F(1, 6)}
    # Light structure, score 6: needs 4+: 3/6 = 1/2.
    assert odds(cover="light")["collapsed"][True] == F(1, 2)
    # The literal six dice: 6D6 >= 6 - 2 = 4 is certain for a light structure and
    # 6D6 >= 8 - 2 = 6 for a heavy one: the whole table collapses, which is why
    # it is not the default.
    assert odds(cover="light", dice_thrown=6)["collapsed"] == {True: F(1)}
    assert odds(cover="heavy", dice_thrown=6)["collapsed"] == {True: F(1)}


def test_levels_count_only_for_multi_storey():
    # A heavy structure with levels=3 is still one level: 8 on one die + 2 needs a 6,
    # so 1 level stands 5/6 of the time (never 3), and with six dice + 2 it is certain to fall.
    result = CALC.odds(cover="heavy", levels=3)
    assert dict(result.outcomes["levels_left"]) == {0: F(1, 6), 1: F(5, 6)}
    assert dict(CALC.odds(cover="heavy", levels=3, dice_thrown=6).outcomes["levels_left"]) == {0: F(1)}
    assert any("one level" in note for note in result.notes)


def test_hasty_cover_never_collapses():
    o = odds(cover="hasty", barrage_points=60)
    assert o["collapsed"] == {False: F(1)} and o["cover_left"] == {"hasty": F(1)}


def test_certain_collapse_throws_no_dice():
    # Heavy structure, 8, six dice + 2: the lowest throw (6) already makes it.
    roll = rules_py.roll(CALC.id, 5, {"cover": "heavy", "dice_thrown": 6})
    assert roll["dice"] == [] and roll["outcomes"]["collapsed"] == "true"


@pytest.mark.parametrize(
    "raw, field",
    [
        ({"cover": "hasty", "prepared": True}, "prepared"),
        ({"cover": "multi_storey", "levels": 1}, "levels"),
        ({"dice_thrown": 7}, "dice_thrown"),
        ({"storeys": "all"}, "storeys"),
    ],
)
def test_bad_input_names_the_field(raw, field):
    with pytest.raises(InputError) as caught:
        CALC.odds(raw)
    assert [f for f, _ in caught.value.errors] == [field]
