"""Plastic Ostfront table 3 (effectiveness) against hand-worked odds.

One D6 plus the modifier total m, read on table 3: a result of 0 or less is
nothing (no ammunition), 1 cuts the intensity by 2, 2-3 by 1, 4 or more is full
effect. Effective intensity = max(0, called + change).

Modifier total -2 (faces 1..6 become -1, 0, 1, 2, 3, 4):
    nothing 2/6 (faces 1, 2), -2 1/6 (face 3), -1 2/6 (faces 4, 5), full 1/6 (face 6).
Modifier total +1 (faces become 2..7):
    -1 2/6 (faces 1, 2), full 4/6 (faces 3..6); never nothing, never -2.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from rules_py import get
from rules_py.dice import enumerate_values
from rules_py.plastic_ostfront.shoot import effectiveness, modifier_total

CALC = get("po-artillery-shoot")

# Two ways each to make the totals, so the data's modifiers are checked too:
# poor is -2; non-FOO -1 with inexperienced -1 is -2; veteran, aeroplane and repeat are +1 each.
MINUS_TWO = ({"poor": True}, {"non_foo": True, "inexperienced": True}, {"not_own_command": True})
PLUS_ONE = ({"veteran": True}, {"foo_in_aeroplane": True}, {"repeat_request": True})

# Hand-worked effective intensity by called intensity (see the module docstring):
#   -2: nothing 1/3, -2 1/6, -1 1/3, full 1/6.
#     I=1: 0 <- nothing, -2 and -1 (1/3 + 1/6 + 1/3 = 5/6); 1 <- full (1/6)
#     I=2: 0 <- nothing, -2 (1/2); 1 <- -1 (1/3); 2 <- full (1/6)
#     I=3: 0 <- nothing (1/3); 1 <- -2 (1/6); 2 <- -1 (1/3); 3 <- full (1/6)
MINUS_TWO_EFFECTIVE = {
    1: {0: F(5, 6), 1: F(1, 6)},
    2: {0: F(1, 2), 1: F(1, 3), 2: F(1, 6)},
    3: {0: F(1, 3), 1: F(1, 6), 2: F(1, 3), 3: F(1, 6)},
}
#   +1: -1 1/3, full 2/3.
#     I=1: 0 1/3, 1 2/3; I=2: 1 1/3, 2 2/3; I=3: 2 1/3, 3 2/3
PLUS_ONE_EFFECTIVE = {
    1: {0: F(1, 3), 1: F(2, 3)},
    2: {1: F(1, 3), 2: F(2, 3)},
    3: {2: F(1, 3), 3: F(2, 3)},
}


@pytest.mark.parametrize("intensity", [1, 2, 3])
@pytest.mark.parametrize("flags", MINUS_TWO)
def test_modifier_total_minus_two(intensity, flags):
    assert modifier_total(flags) == -2
    odds = CALC.odds({"intensity": intensity, "batteries": 1, **flags}).outcomes
    assert dict(odds["effective_intensity"]) == MINUS_TWO_EFFECTIVE[intensity]
    # Ammunition: none only on the "nothing" result (faces 1, 2: 1/3); else the called intensity.
    assert dict(odds["ammunition"]) == {0: F(1, 3), intensity: F(2, 3)}


@pytest.mark.parametrize("intensity", [1, 2, 3])
@pytest.mark.parametrize("flags", PLUS_ONE)
def test_modifier_total_plus_one(intensity, flags):
    assert modifier_total(flags) == 1
    odds = CALC.odds({"intensity": intensity, "batteries": 1, **flags}).outcomes
    assert dict(odds["effective_intensity"]) == PLUS_ONE_EFFECTIVE[intensity]
    # A +1 never gives a result of 0, so the ammunition is always spent.
    assert dict(odds["ammunition"]) == {intensity: F(1)}


def test_unmodified_default():
    # Faces: 1 -> -2, 2-3 -> -1, 4-6 -> full. Intensity 2: 0 1/6, 1 2/6, 2 3/6.
    odds = CALC.odds({}).outcomes
    assert dict(odds["effective_intensity"]) == {0: F(1, 6), 1: F(1, 3), 2: F(1, 2)}
    # Default 3 batteries at intensity 2 spend 2 points each; a bare die never gives 0.
    assert dict(odds["ammunition"]) == {6: F(1)}


def test_results_beyond_the_table_are_clamped():
    # Worst total allowed: non-FOO -1, poor -2, far from TRP -1, not own command -2, Russian -2 = -8.
    # Every face gives -7..-2: all read as 0, nothing arrives and no ammunition is used.
    worst = {"non_foo": True, "poor": True, "far_from_trp": True, "not_own_command": True, "russian_far_from_trp": True}
    assert modifier_total(worst) == -8
    odds = CALC.odds(worst).outcomes
    assert dict(odds["effective_intensity"]) == {0: F(1)} and dict(odds["ammunition"]) == {0: F(1)}
    # Best: veteran, aeroplane, repeat = +3; faces 4..9, all full effect.
    best = {"veteran": True, "foo_in_aeroplane": True, "repeat_request": True, "intensity": 3}
    assert dict(CALC.odds(best).outcomes["effective_intensity"]) == {3: F(1)}


def test_effectiveness_part_on_its_own():
    # The function the sheets use: (effective intensity, ammunition used) for intensity 2, modifier -3.
    # Faces 1..6 -> -2, -1, 0, 1, 2, 3: nothing 3/6; -2 (face 4) -> 0 with ammo; -1 (faces 5, 6) -> 1.
    dist = enumerate_values(effectiveness, 2, -3)
    assert dict(dist) == {(0, False): F(1, 2), (0, True): F(1, 6), (1, True): F(1, 3)}


def test_no_fire_means_nothing_else_happens():
    # With every face giving nothing, no element is pinned, hit or damaged.
    worst = {"poor": True, "not_own_command": True, "russian_far_from_trp": True, "to_hit": 1, "pinning": "always"}
    odds = CALC.odds(worst).outcomes
    assert dict(odds["pinned"]) == {False: F(1)} and dict(odds["hit"]) == {0: F(1)}
    assert dict(odds["knocked_out"]) == {0: F(1)} and dict(odds["effect"]) == {"none": F(1)}
