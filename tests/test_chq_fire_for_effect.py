"""Combat HQ fire for effect against hand-worked odds.

Notation: the battery rolls F dice, the unit R dice (Reaction + Cover + the
partial-target die). With everything on 4+ a die succeeds with 1/2, so the
successes are Bin(F, 1/2) and Bin(R, 1/2); a die shows a 6 with 1/6 whatever
the target number. unopposed = max(0, fire - unit successes);
forced_back = unopposed >= 1; suppressed unless the unit's 6s exceed the
battery's.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction as F
from itertools import product

import pytest

from rules_py import dice, get, odds
from rules_py.calculator import InputError
from rules_py.combat_hq.fire_for_effect import successes_and_sixes
from rules_py.tables import load

CALC = get("chq-fire-for-effect")


def brute_force(n_fire: int, fire_tn: int, n_unit: int, unit_tn: int) -> dict:
    """Every face of every die, one by one: an independent check for small pools."""
    marginals = {"unopposed": Counter(), "suppressed": Counter(), "forced_back": Counter()}
    total = 6 ** (n_fire + n_unit)
    for faces in product(range(1, 7), repeat=n_fire + n_unit):
        fire, unit = faces[:n_fire], faces[n_fire:]
        hits = sum(f >= fire_tn for f in fire)
        saves = sum(f >= unit_tn for f in unit)
        unopposed = max(0, hits - saves)
        marginals["unopposed"][unopposed] += 1
        marginals["suppressed"][unit.count(6) <= fire.count(6)] += 1
        marginals["forced_back"][unopposed >= 1] += 1
    return {name: {v: F(c, total) for v, c in counts.items()} for name, counts in marginals.items()}


def test_two_dice_battery_against_one_reaction_die():
    # Fire Bin(2, 1/2): 0, 1, 2 with 1/4, 1/2, 1/4; unit Bin(1, 1/2).
    # unopposed 2: F=2, R=0: 1/4 * 1/2 = 1/8.
    # unopposed 1: F=2, R=1 or F=1, R=0: 1/8 + 1/4 = 3/8. unopposed 0: the rest, 1/2.
    # not suppressed: the unit's one die is a 6 (1/6) and neither Fire Die is (25/36): 25/216.
    result = odds("chq-fire-for-effect", {"fire_dice": "2", "reaction_dice": "1"})
    assert result["outcomes"]["unopposed"] == {"0": "1/2", "1": "3/8", "2": "1/8"}
    assert result["outcomes"]["forced_back"] == {"false": "1/2", "true": "1/2"}
    assert result["outcomes"]["suppressed"] == {"false": "25/216", "true": "191/216"}


def test_converged_sheaf_adds_one_fire_die():
    # 2 Fire Dice + 1 for the converged sheaf = Bin(3, 1/2): 1, 3, 3, 1 over 8; unit Bin(1, 1/2).
    # unopposed 3: 1/8 * 1/2 = 1/16; 2: (1/8 + 3/8) * 1/2 = 4/16; 1: (3/8 + 3/8) * 1/2 = 6/16; 0: 5/16.
    # not suppressed: unit's die a 6 and none of three Fire Dice a 6: 1/6 * 125/216 = 125/1296.
    outcomes = CALC.odds(fire_dice=2, sheaf="converged", reaction_dice=1).outcomes
    assert dict(outcomes["unopposed"]) == {0: F(5, 16), 1: F(6, 16), 2: F(4, 16), 3: F(1, 16)}
    assert outcomes["forced_back"].p(True) == F(11, 16)
    assert outcomes["suppressed"].p(False) == F(125, 1296)
    # ... and is exactly a regular sheaf with one more Fire Die.
    assert CALC.odds(fire_dice=3, reaction_dice=1).outcomes == outcomes


@pytest.mark.parametrize(
    "cover, partial, extra",
    [("none", False, 0), ("light", False, 1), ("medium", False, 2), ("heavy", False, 3), ("none", True, 1), ("heavy", True, 4)],
)
def test_cover_and_partial_dice_add_to_the_reaction_dice(cover, partial, extra):
    # Cover 1D/2D/3D and +1D for a partial target simply join the Reaction Dice.
    with_cover = CALC.odds(fire_dice=3, reaction_dice=1, cover=cover, partial=partial).outcomes
    plain = CALC.odds(fire_dice=3, reaction_dice=1 + extra).outcomes
    assert with_cover == plain


def test_medium_cover_and_partial_target_by_hand():
    # 2 Fire Dice against 1 Reaction Die + 2 (medium cover) + 1 (partial) = 4 dice, all 4+.
    # Forced back: F=1 and R=0: 1/2 * 1/16 = 2/64; F=2 and R<=1: 1/4 * 5/16 = 5/64. Sum 7/64.
    outcomes = CALC.odds(fire_dice=2, reaction_dice=1, cover="medium", partial=True).outcomes
    assert outcomes["forced_back"].p(True) == F(7, 64)


def test_page_example_medium_cover():
    # The page: 2 Fire Dice against 1 Reaction Die + 2 Cover Dice = 3 dice.
    # F=1, R=0: 1/2 * 1/8; F=2, R<=1: 1/4 * 4/8. Sum 1/16 + 2/16 = 3/16, under a fifth.
    outcomes = CALC.odds(fire_dice=2, reaction_dice=1, cover="medium").outcomes
    assert outcomes["forced_back"].p(True) == F(3, 16)


def test_cover_dice_count_in_the_sixes():
    # 1 Fire Die against no Reaction Dice in heavy cover (3 Cover Dice).
    # Not suppressed when the unit's 6s outnumber the battery's:
    # battery no 6 (5/6) and unit at least one 6 (1 - 125/216 = 91/216), or
    # battery one 6 (1/6) and unit at least two 6s (3 * 5/216 + 1/216 = 16/216):
    # (455 + 16)/1296 = 471/1296 = 157/432.
    outcomes = CALC.odds(fire_dice=1, reaction_dice=0, cover="heavy").outcomes
    assert outcomes["suppressed"].p(False) == F(157, 432)


def test_anti_tank_target_against_a_unit_with_no_dice():
    # One Fire Die on 5+ (2 faces of 6) and nothing rolled back: unopposed 1 with 1/3.
    # The unit rolls no dice, so it never has more 6s: always suppressed.
    outcomes = CALC.odds(fire_dice=1, target="anti_tank", reaction_dice=0).outcomes
    assert dict(outcomes["unopposed"]) == {0: F(2, 3), 1: F(1, 3)}
    assert dict(outcomes["suppressed"]) == {True: 1}
    assert outcomes["forced_back"].p(True) == F(1, 3)


@pytest.mark.parametrize("reaction_target, unit_fails", [(2, F(1, 6)), (4, F(1, 2)), (6, F(5, 6))])
def test_reaction_target_number(reaction_target, unit_fails):
    # 1 Fire Die on 4+ (1/2) against 1 Reaction Die scoring on reaction_target+:
    # forced back only when the Fire Die scores and the unit's die fails.
    outcomes = CALC.odds(fire_dice=1, reaction_dice=1, reaction_target=reaction_target).outcomes
    assert outcomes["forced_back"].p(True) == F(1, 2) * unit_fails
    # A 6 is a 6 whatever the target number: not suppressed = unit 6 and battery not = 1/6 * 5/6.
    assert outcomes["suppressed"].p(False) == F(5, 36)


@pytest.mark.parametrize(
    "raw, n_fire, fire_tn, n_unit, unit_tn",
    [
        ({"fire_dice": 2, "reaction_dice": 2}, 2, 4, 2, 4),
        ({"fire_dice": 2, "sheaf": "converged", "target": "anti_tank", "reaction_dice": 1, "cover": "light"}, 3, 5, 2, 4),
        ({"fire_dice": 1, "reaction_dice": 2, "partial": True, "reaction_target": 5}, 1, 4, 3, 5),
        ({"fire_dice": 3, "target": "anti_tank", "reaction_dice": 0, "cover": "medium", "reaction_target": 3}, 3, 5, 2, 3),
    ],
)
def test_agrees_with_every_face_enumerated(raw, n_fire, fire_tn, n_unit, unit_tn):
    outcomes = CALC.odds(raw).outcomes
    expected = brute_force(n_fire, fire_tn, n_unit, unit_tn)
    for name, dist in outcomes.items():
        assert dict(dist) == expected[name], name


def by_pairs(n_fire: int, fire_tn: int, n_unit: int, unit_tn: int) -> dict:
    """Every (successes, 6s) of one pool against every one of the other, no
    shortcuts: each pool's own distribution comes from the engine's
    convolution, the pairing is done here."""
    fire = dice.pool(n_fire, 6, successes_and_sixes(fire_tn))
    unit = dice.pool(n_unit, 6, successes_and_sixes(unit_tn))
    marginals = {"unopposed": Counter(), "suppressed": Counter(), "forced_back": Counter()}
    for (hits, sixes), p in fire.items():
        for (saves, own_sixes), q in unit.items():
            unopposed = max(0, hits - saves)
            marginals["unopposed"][unopposed] += p * q
            marginals["suppressed"][own_sixes <= sixes] += p * q
            marginals["forced_back"][unopposed >= 1] += p * q
    return {name: dict(c) for name, c in marginals.items()}


@pytest.mark.parametrize(
    "raw, n_fire, fire_tn, n_unit, unit_tn",
    [
        ({"fire_dice": 12, "sheaf": "converged", "reaction_dice": 12, "cover": "heavy", "partial": True}, 13, 4, 16, 4),
        ({"fire_dice": 12, "target": "anti_tank", "reaction_dice": 2, "reaction_target": 2}, 12, 5, 2, 2),
        ({"fire_dice": 3, "reaction_dice": 12, "cover": "light", "reaction_target": 6}, 3, 4, 13, 6),
    ],
)
def test_largest_pools_agree_with_pairing_every_result(raw, n_fire, fire_tn, n_unit, unit_tn):
    # The calculator caps the unit's successes and the battery's 6s to keep the
    # odds tree small; pairing every result of both pools must give the same.
    outcomes = CALC.odds(raw).outcomes
    expected = by_pairs(n_fire, fire_tn, n_unit, unit_tn)
    for name, dist in outcomes.items():
        assert dict(dist) == expected[name], name


def test_roll_outcomes_follow_from_the_faces():
    for seed in range(100):
        roll = CALC.roll(seed, {"fire_dice": "3", "sheaf": "converged", "reaction_dice": "2", "cover": "light", "partial": "true"})
        fire, unit = roll.dice
        assert fire["dice"] == "4D6" and unit["dice"] == "4D6"
        hits = sum(f >= 4 for f in fire["faces"])
        saves = sum(f >= 4 for f in unit["faces"])
        assert roll.outcomes["unopposed"] == max(0, hits - saves)
        assert roll.outcomes["forced_back"] == (hits > saves)
        assert roll.outcomes["suppressed"] == (unit["faces"].count(6) <= fire["faces"].count(6))


def test_tables_hold_the_sources_figures():
    # Sheaves: 6" x 6" regular, 3" x 3" converged with +1D; Fire Dice 4+ / 5+;
    # Cover 1D / 2D / 3D; a partial target +1D.
    sheaves = {r["sheaf"]: (r["width"], r["depth"], r["extra_dice"]) for r in load("combat_hq", "sheaves").rows}
    assert sheaves == {"regular": (6, 6, 0), "converged": (3, 3, 1)}
    assert {r["target"]: r["tn"] for r in load("combat_hq", "fire_dice").rows} == {"firepower": 4, "anti_tank": 5}
    assert {r["cover"]: r["dice"] for r in load("combat_hq", "cover_dice").rows} == {"none": 0, "light": 1, "medium": 2, "heavy": 3}
    assert {r["target"]: r["extra_dice"] for r in load("combat_hq", "artillery_targets").rows} == {"full": 0, "partial": 1}


@pytest.mark.parametrize(
    "field, bad",
    [("fire_dice", "0"), ("fire_dice", "13"), ("reaction_dice", "-1"), ("reaction_dice", "13"), ("sheaf", "wide"),
     ("target", "infantry"), ("cover", "dense"), ("partial", "half"), ("reaction_target", "1"), ("reaction_target", "7")],
)
def test_bad_input_names_the_field(field, bad):
    with pytest.raises(InputError, match=field):
        CALC.odds({field: bad})


def test_cover_dice_on_a_number_of_their_own():
    # Note chq-cover-and-partial-dice, input extra_dice_target. One Fire Die on 4+
    # (1/2) against no Reaction Dice and light cover's one Cover Die.
    # Default, the Cover Die scores like Reaction Dice (4+, 1/2):
    #   unopposed 1 = battery success and unit failure = 1/2 * 1/2 = 1/4.
    # Cover Die on 6+ (1/6): unopposed 1 = 1/2 * 5/6 = 5/12.
    base = {"fire_dice": 1, "reaction_dice": 0, "cover": "light"}
    assert dict(CALC.odds(**base).outcomes["unopposed"]) == {0: F(3, 4), 1: F(1, 4)}
    assert dict(CALC.odds(**base, extra_dice_target="6").outcomes["unopposed"]) == {0: F(7, 12), 1: F(5, 12)}
    # Its 6s are the same either way: not suppressed = unit's die a 6, the battery's not = 1/6 * 5/6 = 5/36.
    assert CALC.odds(**base, extra_dice_target="6").outcomes["suppressed"].p(False) == F(5, 36)


def test_cover_dice_sixes_left_out_of_the_comparison():
    # Note chq-cover-dice-sixes, input extra_dice_sixes. One Fire Die against one
    # Reaction Die and one Cover Die (light cover).
    # Default, both unit dice count: not suppressed when the unit shows more 6s:
    #   battery no 6 (5/6) and unit at least one 6 (1 - 25/36 = 11/36): 55/216;
    #   battery a 6 (1/6) and unit two 6s (1/36): 1/216; together 56/216 = 7/27.
    base = {"fire_dice": 1, "reaction_dice": 1, "cover": "light"}
    assert CALC.odds(**base).outcomes["suppressed"].p(False) == F(7, 27)
    # Reaction Die only: it is a 6 and the battery's die is not: 1/6 * 5/6 = 5/36.
    assert CALC.odds(**base, extra_dice_sixes=False).outcomes["suppressed"].p(False) == F(5, 36)
    # Successes still count from both dice: unopposed 1 = 1/2 * (1/2)^2 = 1/8 under either reading.
    assert CALC.odds(**base, extra_dice_sixes=False).outcomes["unopposed"].p(1) == F(1, 8)


def test_disruption_readings():
    # Note chq-disruptions, input disruptions. Two Fire Dice against one Reaction
    # Die, all on 4+: by default unopposed 0, 1, 2 = 1/2, 3/8, 1/8 (worked above).
    base = {"fire_dice": 2, "reaction_dice": 1}
    # one_if_more: at most one Disruption: 1 = 3/8 + 1/8 = 1/2; forced back unchanged.
    o = CALC.odds(**base, disruptions="one_if_more").outcomes
    assert dict(o["unopposed"]) == {0: F(1, 2), 1: F(1, 2)} and o["forced_back"].p(True) == F(1, 2)
    # if_suppressed: Disruptions only for a suppressed unit. The unit escapes
    # suppression only when its die is a 6 (a success) and neither Fire Die is;
    # then both Fire Dice succeed (4 or 5) with (2/6)^2, leaving 1 unopposed:
    # 1/6 * 4/36 = 4/216 of the time that one success is no Disruption.
    # Disruptions 1 = 3/8 - 4/216 = 81/216 - 4/216 = 77/216; 2 = 1/8 = 27/216
    # (the unit scored nothing, so it is suppressed); 0 = 112/216 = 14/27.
    o = CALC.odds(**base, disruptions="if_suppressed").outcomes
    assert dict(o["unopposed"]) == {0: F(14, 27), 1: F(77, 216), 2: F(27, 216)}
    assert o["forced_back"].p(True) == F(104, 216)


def test_no_disruption_means_suppressed():
    # Note chq-suppressed-without-disruption, input suppressed_without_disruption.
    # Two Fire Dice against one Reaction Die, all on 4+.
    # Default: not suppressed = the unit's die a 6 and neither Fire Die one: 1/6 * 25/36 = 25/216.
    base = {"fire_dice": 2, "reaction_dice": 1}
    assert CALC.odds(**base).outcomes["suppressed"].p(False) == F(25, 216)
    # Other reading: it must also take a Disruption. Its 6 cancels one success, so
    # both Fire Dice must succeed without a 6 (a 4 or a 5 each, 2/6): 1/6 * (2/6)^2 = 4/216 = 1/54.
    o = CALC.odds(**base, suppressed_without_disruption=True).outcomes
    assert o["suppressed"].p(False) == F(1, 54)
    assert o["unopposed"] == CALC.odds(**base).outcomes["unopposed"]  # Disruptions unchanged
