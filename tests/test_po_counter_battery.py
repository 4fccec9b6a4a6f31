"""Plastic Ostfront counter-battery spotting against hand-worked odds.

One throw per enemy battery in turn until one spots, each with probability p:
P(attempts = k and spotted) = (1 - p)^(k - 1) p; nothing spotted after all n, (1 - p)^n.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from rules_py import get

CALC = get("po-counter-battery")


def odds(**raw):
    return {name: dict(dist) for name, dist in CALC.odds(raw).outcomes.items()}


def test_guns_no_locator_three_batteries():
    # 5+: p = 1/3. Spotted 1 - (2/3)^3 = 19/27. Attempts: 1 -> 1/3, 2 -> 2/3 * 1/3 = 2/9,
    # 3 -> the rest, (2/3)^2 = 4/9 (spotted on the third, or not at all).
    o = odds()
    assert o["spotted"] == {True: F(19, 27), False: F(8, 27)}
    assert o["attempts"] == {1: F(1, 3), 2: F(2, 9), 3: F(4, 9)}


def test_rockets_and_locator():
    # Rockets 3+: p = 2/3; two batteries: spotted 1 - (1/3)^2 = 8/9.
    assert odds(rockets=True, enemy_batteries=2)["spotted"][True] == F(8, 9)
    # Guns with a locator: 5 - 2 = 3+ on the die, p = 2/3; five batteries: 1 - (1/3)^5 = 242/243.
    assert odds(locator=True, enemy_batteries=5)["spotted"][True] == F(242, 243)
    # Rockets with a locator: 1+, certain on the first throw, with no die thrown.
    assert odds(rockets=True, locator=True, enemy_batteries=6) == {"spotted": {True: F(1)}, "attempts": {1: F(1)}}
    assert CALC.roll(3, {"rockets": True, "locator": True}).dice == []


@pytest.mark.parametrize("n", range(1, 7))
def test_geometric_series(n):
    p = F(1, 3)
    attempts = {k: (1 - p) ** (k - 1) * p for k in range(1, n)}
    attempts[n] = (1 - p) ** (n - 1)
    o = odds(enemy_batteries=n)
    assert o["attempts"] == attempts and o["spotted"][True] == 1 - (1 - p) ** n


def test_roll_stops_at_the_first_spot():
    for seed in range(200):
        roll = CALC.roll(seed, {"enemy_batteries": 6})
        faces = [d["faces"][0] for d in roll.dice]
        hits = [f >= 5 for f in faces]
        assert hits[:-1] == [False] * (len(hits) - 1)
        assert roll.outcomes == {"spotted": hits[-1], "attempts": len(faces)}
