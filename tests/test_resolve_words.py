"""A resolution's trail in a few words (``given_words``): what the In play page
says of a kept mission's dice so far, in place of the link's notation
("=3,=1,1,6,4,5,2", issue 43 item 8). One entry per roll of the trail, its
name and what it decided, as the trail itself says it."""

from __future__ import annotations

import pytest

import rules_py
from rules_py.answer.resolve import roll_words
from rules_py.seeds import Seed

DICE = [c for c in rules_py.calculators() if c.rolls_dice]


def test_a_fire_mission_s_dice_in_words():
    # The issue's own dice, less the unit's last die (a pool of 3): the comms pool scored 3
    # successes (=3), the opposing pool 1 (=1); the deviation die a 1 (a Hit, on 1-2); the
    # battery's four Fire Dice 6, 4, 5, 2 (4+ scores: three successes, one of them a six).
    doc = rules_py.answer("chq-fire-mission", dice="=3,=1,1,6,4,5,2")
    assert doc["given_words"] == ["comms dice: 3 successes", "opposing dice: 1 success", "deviation die: Hit", "battery's Fire Dice: 3 successes, 1 six"]


def test_no_dice_no_words():
    assert rules_py.answer("chq-deviation", dice="")["given_words"] == []


@pytest.mark.parametrize("calc", DICE, ids=lambda c: c.id)
def test_each_roll_s_words_are_its_name_and_result(calc):
    # A seeded roll's dice, given back: one entry a roll, in order, each the label up to its
    # first aside (a bracket, or a colon) and the trail's own result.
    for seed in range(1, 6):
        rolled = rules_py.answer(calc.id, seed=Seed(seed))
        dice = ",".join(str(f["face"]) for d in rolled["dice"] for f in d["faces"])
        doc = rules_py.answer(calc.id, dice=dice)
        assert len(doc["given_words"]) == len(doc["given"])
        for words, die in zip(doc["given_words"], doc["given"], strict=True):
            tail = f": {die['result']}"
            assert words.endswith(tail), (words, die)
            name = words[: -len(tail)]
            assert name and die["label"].startswith(name) and " (" not in name and ": " not in name, (words, die)


def test_the_name_stops_at_the_first_aside():
    assert roll_words({"label": "battery's Fire Dice (4D6, 4+): successes and 6s", "result": "2 successes, no sixes"}) == "battery's Fire Dice: 2 successes, no sixes"  # type: ignore[typeddict-item]
    assert roll_words({"label": "Fighter-bomber: hits (2D6)", "result": "total 7"}) == "Fighter-bomber: total 7"  # type: ignore[typeddict-item]
    assert roll_words({"label": "smoke dispersal, check 1 after landing", "result": "stays"}) == "smoke dispersal, check 1 after landing: stays"  # type: ignore[typeddict-item]
