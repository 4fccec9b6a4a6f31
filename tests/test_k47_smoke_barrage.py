"""Konflikt '47 smoke barrage, worked by hand.

Each turn's chart roll: 1 miscalculation (1/6), 2-3 delay (1/3), 4-6 smoke
on target (1/2). The smoke lands on turn t with (1/3)^(t-1) * 2/3; moved by
the enemy with (1/3)^(t-1) * 1/6 each turn, summed over the turns counted.
Dispersal: only a 1 removes it, so it survives exactly k checks with
(5/6)^k * 1/6, and more than T checks with (5/6)^(T+1).
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from rules_py import get, odds, roll
from rules_py.calculator import InputError
from rules_py.konflikt47.notation import chart, dice, faces
from rules_py.tables import load

CALC = get("k47-smoke-barrage")


def test_one_turn():
    result = odds("k47-smoke-barrage", {"turns": "1"})["outcomes"]
    # Lands on 1 or 4-6: 4/6 = 2/3; later on 2-3: 1/3.
    assert result["arrival_turn"] == {"1": "2/3", "later": "1/3"}
    assert result["landing"] == {"on_target": "1/2", "moved_by_enemy": "1/6", "not_yet": "1/3"}
    # Survives 0 checks 1/6, 1 check 5/6 * 1/6 = 5/36, more than 1: (5/6)^2 = 25/36.
    assert result["smoke_stays"] == {"0": "1/6", "1": "5/36", "more": "25/36"}


def test_three_turns():
    out = CALC.odds(turns=3).outcomes
    # Turn 1: 2/3; turn 2: 1/3 * 2/3 = 2/9; turn 3: 1/9 * 2/3 = 2/27; later (1/3)^3 = 1/27.
    assert out["arrival_turn"] == {1: F(2, 3), 2: F(2, 9), 3: F(2, 27), "later": F(1, 27)}
    # Moved by the enemy: 1/6 * (1 + 1/3 + 1/9) = 1/6 * 13/9 = 13/54; on target 1/2 * 13/9 = 13/18.
    assert out["landing"] == {"on_target": F(13, 18), "moved_by_enemy": F(13, 54), "not_yet": F(1, 27)}
    # (5/6)^k / 6 for k = 0..3, then (5/6)^4 = 625/1296.
    assert out["smoke_stays"] == {0: F(1, 6), 1: F(5, 36), 2: F(25, 216), 3: F(125, 1296), "more": F(625, 1296)}


@pytest.mark.parametrize("turns", [1, 5, 12])
def test_general_formula(turns):
    out = CALC.odds(turns=turns).outcomes
    for t in range(1, turns + 1):
        assert out["arrival_turn"][t] == F(1, 3) ** (t - 1) * F(2, 3)
    assert out["arrival_turn"]["later"] == F(1, 3) ** turns
    for k in range(turns + 1):
        assert out["smoke_stays"][k] == F(5, 6) ** k * F(1, 6)
    assert out["smoke_stays"]["more"] == F(5, 6) ** (turns + 1)


def test_roll_log_reads_like_the_table():
    result = roll("k47-smoke-barrage", 12, {"turns": "5"})
    labels = [entry["label"] for entry in result["dice"]]
    assert labels[0] == "smoke barrage chart, start of turn 1"
    chart_rolls = [e for e in result["dice"] if e["label"].startswith("smoke barrage chart")]
    if result["outcomes"]["arrival_turn"] != "later":
        assert len(chart_rolls) == int(result["outcomes"]["arrival_turn"])
    # A drift roll follows each dispersal check that shows a 2, and only those.
    for entry, after in zip(result["dice"], result["dice"][1:] + [None]):
        if entry["label"].startswith("smoke dispersal") and entry["faces"] == [2]:
            assert after is not None and after["label"].startswith("smoke drifts")


def test_notation_helpers_read_the_tables():
    assert list(faces("2–3")) == [2, 3] and list(faces("1")) == [1]
    assert dice("3D6") == (3, 6, 0) and dice("D3−1") == (1, 3, -1) and dice("D6") == (1, 6, 0)
    # A face table: entry i is what face i + 1 reads.
    assert chart(load("konflikt47", "smoke_dispersal"), "result") == ("removed", "drifts", "stays", "stays", "stays", "stays")
    with pytest.raises(ValueError):
        faces("3–2")
    with pytest.raises(ValueError):
        dice("three dice")


def test_bad_input_names_the_field():
    with pytest.raises(InputError, match="turns"):
        CALC.odds(turns=0)
    with pytest.raises(InputError, match="turns"):
        CALC.odds(turns=13)
