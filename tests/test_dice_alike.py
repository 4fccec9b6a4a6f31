"""A pool's ``alike_from``: totals the procedure treats alike are one path in the odds.

A procedure that caps a count (flak hits at the abort threshold, say) may
declare it; the odds then join every total from the cap up. The outcomes and
How it comes about must be exactly those of the same procedure without the
declaration (each total of the roll still shown with its own chance), a roll
and given dice must return the total rolled, and a cap the key cannot take
is refused.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_py.dice import Rolling, enumerate_given, enumerate_outcomes, enumerate_steps


def capped(dice, n: int, hit_on: int, cap: int, declared: bool) -> dict:
    """Hits capped at ``cap``; a second roll only while under the cap, so what follows depends on the cap."""
    hits = dice.successes(n, hit_on, "shots", alike_from=cap if declared else None)
    hits = min(hits, cap)
    extra = dice.d6("after") if hits < cap else 0
    return {"hits": hits, "extra": extra}


def test_three_shots_on_5_capped_at_2_by_hand():
    # P(one shot hits) = 2/6 = 1/3. P(hits >= 2) = 3 * (1/3)^2 * (2/3) + (1/3)^3
    # = 6/27 + 1/27 = 7/27; P(0) = (2/3)^3 = 8/27; P(1) = 3 * (1/3) * (2/3)^2 = 12/27.
    outcomes = enumerate_outcomes(capped, 3, 5, 2, True)
    assert dict(outcomes["hits"]) == {0: F(8, 27), 1: F(12, 27), 2: F(7, 27)}
    # "after" is rolled unless capped: P(extra = 0) = 7/27, each face (20/27) / 6.
    assert outcomes["extra"][0] == F(7, 27)
    assert outcomes["extra"][6] == F(20, 27) / 6


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 9), hit_on=st.integers(2, 6), cap=st.integers(0, 11))
def test_declared_odds_and_steps_are_the_undeclared_ones(n, hit_on, cap):
    declared, steps = enumerate_steps(capped, n, hit_on, cap, True)
    plain, plain_steps = enumerate_steps(capped, n, hit_on, cap, False)
    assert declared == plain
    assert enumerate_outcomes(capped, n, hit_on, cap, True) == plain
    # Each total of the shots, the tail's included, keeps its own chance in How it comes about.
    assert [(s.label, s.p_rolled, s.values) for s in steps] == [(s.label, s.p_rolled, s.values) for s in plain_steps]


def test_a_roll_and_given_dice_keep_the_total_rolled():
    roll = Rolling(5)
    assert roll.successes(8, 2, "shots", alike_from=1) == sum(1 for face in roll.log[0]["faces"] if face >= 2)
    # Given 3 hits of 3 (beyond the cap of 2): the given total, exactly, then the cap.
    given_odds = enumerate_given(capped, (3, 5, 2, True), [3])
    assert dict(given_odds["hits"]) == {2: 1}
    assert dict(given_odds["extra"]) == {0: 1}


def test_a_cap_the_key_cannot_take_is_refused():
    with pytest.raises(ValueError, match="below the least total"):
        enumerate_outcomes(lambda dice: {"x": dice.pool(2, 6, "two", lambda f: f, alike_from=1)})
    with pytest.raises(ValueError, match="number key"):
        enumerate_outcomes(lambda dice: {"x": dice.pool(2, 6, "pairs", lambda f: (f, f), alike_from=3)})
