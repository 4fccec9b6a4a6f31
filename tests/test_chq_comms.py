"""Combat HQ comms checks against hand-worked odds.

Every comms die and opposing die succeeds on 4+, p = 1/2. With c comms dice and
o = 3 opposing dice, C - O + o = C + (o - O) is Bin(c + o, 1/2) because o - O is
again Bin(o, 1/2). So P(success) = P(C > O) = P(Bin(c+3, 1/2) >= 4), and
P(margin = m) = C(c+3, m+3) / 2^(c+3).
"""

from __future__ import annotations

from fractions import Fraction as F
from math import comb

import pytest

from rules_py import get, odds
from rules_py.calculator import InputError

CALC = get("chq-comms-check")


def test_soviet_three_dice():
    # Bin(6, 1/2) >= 4: (C(6,4) + C(6,5) + C(6,6)) / 64 = (15 + 6 + 1) / 64 = 11/32.
    result = odds("chq-comms-check", {"nation": "soviet"})
    assert result["outcomes"]["success"] == {"false": "21/32", "true": "11/32"}
    # margin -3..3 is C(6, m+3)/64: 1, 6, 15, 20, 15, 6, 1 over 64.
    assert result["outcomes"]["margin"] == {"-3": "1/64", "-2": "3/32", "-1": "15/64", "0": "5/16", "1": "15/64", "2": "3/32", "3": "1/64"}


def test_germany_and_usa_four_dice_are_even():
    # Bin(7, 1/2) >= 4 is exactly half by symmetry.
    for nation in ("germany", "usa"):
        assert CALC.odds(nation=nation).outcomes["success"][True] == F(1, 2)


def test_commonwealth_five_dice():
    # Bin(8, 1/2) >= 4: (70 + 56 + 28 + 8 + 1) / 256 = 163/256.
    assert CALC.odds(nation="commonwealth").outcomes["success"][True] == F(163, 256)


def test_boosts_and_air_recon_add_dice():
    # Soviet 3D + 2 boosts + air recon = 6D: Bin(9, 1/2) >= 4 = 1 - (1+9+36+84)/512 = 382/512 = 191/256.
    assert CALC.odds(nation="soviet", boosts=2, air_recon=True).outcomes["success"][True] == F(191, 256)
    # Germany with one Wild Die (the source's own example rolls 5D): same as the Commonwealth's 5D.
    assert CALC.odds(nation="germany", boosts=1).outcomes["success"][True] == F(163, 256)


@pytest.mark.parametrize("c", range(3, 10))
def test_margin_formula(c):
    # c comms dice, reached as Soviet 3D plus boosts (and air recon for the last die).
    recon = c == 9
    margin = CALC.odds(nation="soviet", boosts=c - 3 - recon, air_recon=recon).outcomes["margin"]
    assert dict(margin) == {m: F(comb(c + 3, m + 3), 2 ** (c + 3)) for m in range(-3, c + 1)}


def test_bad_input_names_the_field():
    with pytest.raises(InputError, match="nation"):
        CALC.odds(nation="france")
    with pytest.raises(InputError, match="boosts"):
        CALC.odds(boosts=-1)
    with pytest.raises(InputError, match="air_recon"):
        CALC.odds(air_recon="maybe")
