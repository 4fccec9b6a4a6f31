"""Plastic Ostfront shoot: hits (table 4), damage (table 5) and effects (table 6) by hand.

FULL makes the fire always arrive in full: veteran +1, FOO in an aeroplane +1
and a repeated request +1 turn every face into 4..9 on table 3. With to_hit 1
every hit die hits, so the damage odds can be read on their own.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

import rules_py
from rules_py import get
from rules_py.calculator import InputError
from rules_py.plastic_ostfront.shoot import DAMAGE, band, load

CALC = get("po-artillery-shoot")
FULL = {"veteran": True, "foo_in_aeroplane": True, "repeat_request": True}
SURE_HIT = {**FULL, "to_hit": 1}


def odds(**raw):
    return {name: dict(dist) for name, dist in CALC.odds(raw).outcomes.items()}


# --- "6 then 5-6" and its kin (AFV with armour 4 or more) ---------------------


def test_six_then_five_or_six():
    # <156 mm row: a 6 (1/6), then 5 or 6 (2/6): 1/6 * 1/3 = 1/18.
    o = odds(calibre=150, target="afv_4_plus", **SURE_HIT)
    assert o["knocked_out"] == {0: F(17, 18), 1: F(1, 18)}
    # Table 6 for AFVs: 1 immobilised, 2 speed 3", 3 main gun, 4-6 special hit; each times 1/18.
    assert o["effect"] == {"none": F(17, 18), "immobilised": F(1, 108), "speed_3": F(1, 108), "main_gun_damaged": F(1, 108), "special_hit": F(1, 36)}
    # Rockets use the same figures: 1/18.
    assert odds(rockets=True, target="afv_4_plus", **SURE_HIT)["knocked_out"][1] == F(1, 18)


def test_six_then_four_to_six():
    # 156 mm+: a 6 (1/6), then 4-6 (1/2): 1/12. 156 itself is in the 156+ band.
    assert odds(calibre=156, target="afv_4_plus", **SURE_HIT)["knocked_out"][1] == F(1, 12)


def test_six_then_with_surprise():
    # Surprise +1: first needs 5+ (1/3). Second: 4+ with the modifier (1/2) -> 1/6;
    # without it on the second die, 5+ (1/3) -> 1/9.
    assert odds(calibre=150, target="afv_4_plus", surprise=True, **SURE_HIT)["knocked_out"][1] == F(1, 6)
    assert odds(calibre=150, target="afv_4_plus", surprise=True, modify_second_roll=False, **SURE_HIT)["knocked_out"][1] == F(1, 9)


def test_x_means_no_damage_whatever_the_modifiers():
    # <110 mm against AFVs with armour 4+ is X: never, even with both +1s.
    o = odds(calibre=105, target="afv_4_plus", surprise=True, poor_target=True, **SURE_HIT)
    assert o["knocked_out"] == {0: F(1)} and o["hit"] == {1: F(1)}


# --- infantry: the # and 2nd-casualty columns ---------------------------------


def test_infantry_in_the_open_105mm():
    # <110 mm vs infantry in the open: 0+ (certain), # 1, 2nd casualty on 5+ (1/3).
    # Hit on 4+ (1/2) with full effect: 0 casualties 1/2, 1 -> 1/2 * 2/3 = 1/3, 2 -> 1/2 * 1/3 = 1/6.
    assert odds(calibre=105, to_hit=4, **FULL)["knocked_out"] == {0: F(1, 2), 1: F(1, 3), 2: F(1, 6)}
    # Ignoring the columns: one casualty per damaging hit, 1/2 each.
    assert odds(calibre=105, to_hit=4, infantry_hits="one_casualty", **FULL)["knocked_out"] == {0: F(1, 2), 1: F(1, 2)}


def test_infantry_in_a_fortification_heavy_guns():
    # 156 mm+ vs a fortification: 3+ (2/3), # 2, 2nd casualty on 5+ (1/3).
    # extra_die: fail 1/3; 2 -> 2/3 * 2/3 = 4/9; 3 -> 2/3 * 1/3 = 2/9.
    assert odds(calibre=170, cover="fortification", **SURE_HIT)["knocked_out"] == {0: F(1, 3), 2: F(4, 9), 3: F(2, 9)}
    # same_die: faces 1-2 fail, 3-4 give 2, 5-6 give 3: a third each.
    assert odds(calibre=170, cover="fortification", infantry_hits="same_die", **SURE_HIT)["knocked_out"] == {0: F(1, 3), 2: F(1, 3), 3: F(1, 3)}
    # A poor target +1: damage on 2+ (5/6), second casualty on 4+ (1/2): 0 1/6, 2 5/12, 3 5/12.
    assert odds(calibre=170, cover="fortification", poor_target=True, **SURE_HIT)["knocked_out"] == {0: F(1, 6), 2: F(5, 12), 3: F(5, 12)}


def test_smallest_guns_have_no_second_casualty():
    # <75 mm vs infantry in hasty cover: 4+ (1/2), # 1, no second-casualty roll.
    assert odds(calibre=60, cover="hasty", **SURE_HIT)["knocked_out"] == {0: F(1, 2), 1: F(1, 2)}


# --- guns and soft vehicles (table 6) -----------------------------------------


def test_gun_crew_and_weapon():
    # 105 mm vs a gun in the open: crew as infantry (certain, 2nd casualty 1/3);
    # weapon as an open AFV, 6+ (1/6), and then unusable.
    o = odds(calibre=105, target="gun", **SURE_HIT)
    assert o["knocked_out"] == {1: F(2, 3), 2: F(1, 3)}
    assert o["effect"] == {"none": F(5, 6), "weapon_unusable": F(1, 6)}
    # <75 mm cannot damage the weapon (X); the crew needs 3+ in the open (2/3).
    o = odds(calibre=60, target="gun", **SURE_HIT)
    assert o["effect"] == {"none": F(1)} and o["knocked_out"] == {0: F(1, 3), 1: F(2, 3)}


def test_soft_vehicle_effects():
    # 105 mm vs a soft vehicle: 4+ (1/2). Table 6: 1-3 immobilised (1/2), 4-5 speed 3" and tow lost (1/3), 6 special (1/6).
    o = odds(calibre=105, target="soft_vehicle", **SURE_HIT)
    assert o["effect"] == {"none": F(1, 2), "immobilised": F(1, 4), "speed_3_tow_lost": F(1, 6), "special_hit": F(1, 12)}


# --- hits: concentration, small batteries, table-4 scores by intensity --------


def test_concentration_two_batteries():
    # 156 mm+ vs an AFV under 4 armour (5+, 1/3), hit on 4+ (1/2): each battery damages with 1/6.
    o = odds(calibre=170, mission="concentration", batteries=2, target="afv_under_4", to_hit=4, **FULL)
    assert o["hit"] == {0: F(1, 4), 1: F(1, 2), 2: F(1, 4)}  # Binomial(2, 1/2)
    assert o["knocked_out"] == {0: F(25, 36), 1: F(10, 36), 2: F(1, 36)}  # Binomial(2, 1/6)
    # Distinct effects: special only = 10/36 * 1/2 + 1/36 * 1/4 = 7/48;
    # immobilised only = 10/36 * 1/6 + 1/36 * 1/36 = 61/1296; both = 1/36 * 2 * 1/6 * 1/2 = 1/216.
    assert o["effect"]["special_hit"] == F(7, 48)
    assert o["effect"]["immobilised"] == F(61, 1296)
    assert o["effect"]["immobilised+special_hit"] == F(1, 216)
    # A bombardment by the same two batteries throws one hit die.
    assert odds(calibre=170, batteries=2, target="afv_under_4", to_hit=4, **FULL)["hit"] == {0: F(1, 2), 1: F(1, 2)}


def test_small_battery():
    # -1 to the hit die: 4+ becomes 5+ on the die (1/3); 6+ becomes impossible.
    assert odds(to_hit=4, small_battery=True, **FULL)["hit"] == {0: F(2, 3), 1: F(1, 3)}
    assert odds(to_hit=6, small_battery=True, **FULL)["hit"] == {0: F(1)}


def test_table_4_score_follows_the_intensity_that_arrives():
    # Called at 3, no modifiers: face 1 -> intensity 1 (score 6: 1/6), faces 2-3 -> 2 (score 4: 1/2),
    # faces 4-6 -> 3 (score 2: 5/6). P(hit) = 1/6*1/6 + 2/6*1/2 + 3/6*5/6 = (1 + 6 + 15)/36 = 11/18.
    o = odds(intensity=3, to_hit=2, to_hit_at_2=4, to_hit_at_1=6)
    assert o["hit"] == {0: F(7, 18), 1: F(11, 18)}
    # 0 in the extra inputs means "same as to_hit": 2+ whenever fire arrives (always here): 5/6.
    assert odds(intensity=3, to_hit=2)["hit"] == {0: F(1, 6), 1: F(5, 6)}


# --- pinning, ammunition -------------------------------------------------------


def test_pinning_at_intensity_one():
    # Harassing fire that arrives in full: step 4 does not pin; the Pinning paragraph does.
    assert odds(intensity=1, **FULL)["pinned"] == {False: F(1)}
    assert odds(intensity=1, pinning="always", **FULL)["pinned"] == {True: F(1)}
    # Intensity 2, no modifiers: step 4 pins on arrival at 2 (faces 4-6: 1/2); "always" on any arrival (5/6).
    assert odds()["pinned"] == {False: F(1, 2), True: F(1, 2)}
    assert odds(pinning="always")["pinned"] == {False: F(1, 6), True: F(5, 6)}


def test_ammunition_for_all_batteries():
    # Four batteries at intensity 3 with +1: never a 0 result, 4 * 3 = 12 points.
    assert odds(mission="concentration", batteries=4, intensity=3, veteran=True)["ammunition"] == {12: F(1)}


# --- calibre bands, input errors, rolls -----------------------------------------


@pytest.mark.parametrize(
    "calibre, table1, table2, table5",
    [
        (74, "<75 mm", "<75 mm", "<75 mm (heavy weapon groups)"),
        (75, "<100 mm", "<100 mm", "<110 mm"),
        (155, "<160 mm", "<160 mm", "<156 mm"),
        (156, "<160 mm", "<160 mm", "156 mm+"),
        (159, "<160 mm", "<160 mm", "156 mm+"),
        (160, ">160 mm", "160 mm+", "156 mm+"),
    ],
)
def test_band_edges(calibre, table1, table2, table5):
    assert band(load("plastic_ostfront", "beaten_zones_concentration"), calibre)["calibre"] == table1
    assert band(load("plastic_ostfront", "beaten_zones_bombardment"), calibre)["calibre"] == table2
    assert band(DAMAGE, calibre)["name"] == table5


def test_grades_add_up_with_a_note():
    # Veteran +1 and poor -2 together: -1, faces become 0..5: nothing 1/6, -2 1/6, -1 2/6, full 2/6.
    # Intensity 2: 0 <- nothing and -2 (1/3), 1 <- -1 (1/3), 2 <- full (1/3).
    result = CALC.odds(veteran=True, poor=True)
    assert dict(result.outcomes["effective_intensity"]) == {0: F(1, 3), 1: F(1, 3), 2: F(1, 3)}
    assert any("(veteran, poor)" in note for note in result.notes)


def test_template_in_the_notes():
    # Table 1, 160 mm: the top band, 180 x 100; table 2 rockets: 400 x 300.
    assert "180 mm wide by 100 mm deep" in CALC.odds(calibre=160, mission="concentration").notes[0]
    assert "400 mm wide by 300 mm deep" in CALC.odds(rockets=True).notes[0]


@pytest.mark.parametrize(
    "raw, field",
    [
        ({"rockets": True, "mission": "concentration"}, "mission"),
        ({"russian_far_from_trp": True, "mission": "creeping"}, "mission"),
        ({"russian_far_from_trp": True, "mission": "concentration"}, "mission"),
        ({"to_hit": 0}, "to_hit"),
        ({"batteries": 7}, "batteries"),
        ({"intensity": 4}, "intensity"),
        ({"cover": "bunker"}, "cover"),
    ],
)
def test_bad_input_names_the_field(raw, field):
    with pytest.raises(InputError) as caught:
        CALC.odds(raw)
    assert [f for f, _ in caught.value.errors] == [field]


def test_roll_log_decides_six_then_five():
    # Every seeded roll's outcome follows from the faces it logs.
    for seed in range(300):
        roll = rules_py.roll(CALC.id, seed, {"calibre": 150, "target": "afv_4_plus", **SURE_HIT})
        faces = {d["label"].split(" (")[0]: d["faces"] for d in roll["dice"]}
        first = faces.get("damage dice, one per hit", [])
        second = faces.get("second damage dice, one per 6", [])
        assert first and all(1 <= f <= 6 for f in first)
        assert bool(second) == (first == [6])
        assert roll["outcomes"]["knocked_out"] == ("1" if first == [6] and second[0] >= 5 else "0")


# --- readings added by issue 17: each moves the odds in a worked case ----------


def test_gun_damage_weapon_only():
    # Note po-gun-damage, input gun_damage. 105 mm vs a gun, sure hit.
    # Default: crew as infantry, 1 casualty + 2nd on 5+ (1/3): knocked_out 1, 2 = 2/3, 1/3.
    # weapon_only: one die per hit on the open AFV column, 6+ (1/6), and those
    # damaging hits are what is knocked out: 0, 1 = 5/6, 1/6; the effect is unchanged.
    o = odds(calibre=105, target="gun", gun_damage="weapon_only", **SURE_HIT)
    assert o["knocked_out"] == {0: F(5, 6), 1: F(1, 6)}
    assert o["effect"] == {"none": F(5, 6), "weapon_unusable": F(1, 6)}


def test_several_hits_throw_once():
    # Note po-concentration-hits, input several_hits. The same two batteries as
    # above: hits Binomial(2, 1/2), each hit damaging with 1/3 (5+ on the AFV column).
    # Default: knocked_out Binomial(2, 1/6): 0 = 25/36.
    # once: damage is thrown once if any hit lands (3/4), damaging with 1/3:
    # knocked_out 1 = 3/4 * 1/3 = 1/4, 0 = 3/4; never 2.
    base = dict(calibre=170, mission="concentration", batteries=2, target="afv_under_4", to_hit=4, **FULL)
    assert odds(**base)["knocked_out"][0] == F(25, 36)
    o = odds(**base, several_hits="once")
    assert o["hit"] == {0: F(1, 4), 1: F(1, 2), 2: F(1, 4)}  # the hits themselves are unchanged
    assert o["knocked_out"] == {0: F(3, 4), 1: F(1, 4)}
    # Table 6 once: special hit (4-6) 1/4 * 1/2 = 1/8; immobilised (1) 1/4 * 1/6 = 1/24.
    assert o["effect"]["special_hit"] == F(1, 8) and o["effect"]["immobilised"] == F(1, 24)


def test_ammunition_by_the_intensity_that_arrives():
    # Note po-ammunition-spent, input ammunition_by. Three batteries call intensity 2,
    # no modifiers: table 3 row = the die. Row 1 (1/6) cuts it by 2 to 0, rows 2-3
    # (2/6) by 1 to 1, rows 4-6 (3/6) leave 2.
    # Default, the intensity called: every row uses ammunition, 3 * 2 = 6, certain.
    assert odds(batteries=3)["ammunition"] == {6: F(1)}
    # The intensity that arrives: 3 * 0 = 0 (1/6), 3 * 1 = 3 (1/3), 3 * 2 = 6 (1/2).
    assert odds(batteries=3, ammunition_by="arrived")["ammunition"] == {0: F(1, 6), 3: F(1, 3), 6: F(1, 2)}


def test_ammunition_once_per_mission():
    # Note po-ammunition-per-battery, input ammunition_per. Four batteries, intensity 3,
    # +1 so never a table-3 result of 0: by default 4 * 3 = 12 points; once per mission, 3.
    assert odds(mission="concentration", batteries=4, intensity=3, veteran=True, ammunition_per="mission")["ammunition"] == {3: F(1)}
    # With the intensity that arrives: rows 2..6 (the die + 1): row 2 (face 1, 1/6) and
    # row 3 (face 2, 1/6) cut 3 to 2, rows 4-6 (4/6) leave 3: 2 with 1/3, 3 with 2/3.
    o = odds(mission="concentration", batteries=4, intensity=3, veteran=True, ammunition_per="mission", ammunition_by="arrived")
    assert o["ammunition"] == {2: F(1, 3), 3: F(2, 3)}
