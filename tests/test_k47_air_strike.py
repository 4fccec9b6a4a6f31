"""Konflikt '47 air strike, worked by hand.

Chart per turn: 1 rookie (1/6), 2-3 empty skies (1/3), 4-6 Here it comes!
(1/2). Attack: 1 strafing fighter (1/6: 3D6 hits, 1 pin, +1), 2-3
fighter-bomber (1/3: 2D6, 2 pins, +2), 4-6 ground-attack aircraft (1/2: 3D6,
3 pins, +4). 3D6 totals 3, 4, 5 come up 1, 3, 6 ways in 216 and 9, 10, 11
come up 25, 27, 27 ways; 2D6 totals 2..7 come up 1..6 ways in 36.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from rules_py import get, odds, roll
from rules_py.calculator import InputError
from rules_py.dice import enumerate_values
from rules_py.konflikt47.air_strike import attack_run, resolve_hits

CALC = get("k47-air-strike")


def joint(flak_hits=0, flak_shots=0, flak_hit_on=5, down=False, flak_order="flak_first", rounding="down"):
    """The exact joint distribution of (attack, hits) for one run."""

    def run(dice):
        result = attack_run(dice, flak_hits, flak_shots, flak_hit_on, down, flak_order, rounding)
        return result["attack"], result["hits"]

    return enumerate_values(run)


def test_arrival_over_two_turns():
    out = odds("k47-air-strike", {"turns": "2"})["outcomes"]
    # Turn 1: 1/6 + 1/2 = 2/3; turn 2: 1/3 * 2/3 = 2/9; later: (1/3)^2 = 1/9.
    assert out["arrival_turn"] == {"1": "2/3", "2": "2/9", "later": "1/9"}
    # Rookie on turn 1 (1/6) or on turn 2 after empty skies (1/3 * 1/6 = 1/18): 4/18 = 2/9.
    assert out["rookie"] == {"false": "7/9", "true": "2/9"}


def test_spotting_pins_are_d3_minus_one():
    # D3 - 1: 0, 1, 2 with 1/3 each.
    assert CALC.odds().outcomes["spotting_pins"] == {0: F(1, 3), 1: F(1, 3), 2: F(1, 3)}


def test_no_flak_attack_pins_penetration_and_hits():
    out = CALC.odds().outcomes
    assert out["aborted"] == {False: 1}
    assert out["attack"] == {"strafing_fighter": F(1, 6), "fighter_bomber": F(1, 3), "ground_attack": F(1, 2)}
    assert out["pins"] == {1: F(1, 6), 2: F(1, 3), 3: F(1, 2)}
    assert out["penetration"] == {1: F(1, 6), 2: F(1, 3), 4: F(1, 2)}
    hits = out["hits"]
    # P(h) = (1/6 + 1/2) P(3D6 = h) + 1/3 P(2D6 = h).
    assert hits[2] == F(1, 3) * F(1, 36)  # only a fighter-bomber's double 1: 1/108
    assert hits[3] == F(2, 3) * F(1, 216) + F(1, 3) * F(2, 36)  # 1/324 + 6/324 = 7/324
    assert hits[18] == F(2, 3) * F(1, 216)  # 1/324
    assert hits[10] == F(2, 3) * F(27, 216) + F(1, 3) * F(3, 36)  # 1/12 + 1/36 = 1/9


def test_flak_hits_reduce_a_fighter_bombers_2d6_to_zero():
    # Five flak hits: a 2D6 of 5 or less leaves nothing. 2D6 <= 5 in 1+2+3+4 = 10 of 36 ways.
    assert joint(flak_hits=5).p(("fighter_bomber", 0)) == F(1, 3) * F(10, 36)  # 5/54
    # A 3D6 of 5 or less (10 of 216 ways) does the same for the other two attacks:
    # P(hits = 0) = 2/3 * 10/216 + 1/3 * 10/36 = 20/648 + 60/648 = 10/81.
    assert CALC.odds(flak_hits=5).outcomes["hits"][0] == F(10, 81)
    # The most a fighter-bomber can then do is 12 - 5 = 7 hits, with a double 6: 1/3 * 1/36.
    assert joint(flak_hits=5).p(("fighter_bomber", 7)) == F(1, 108)
    assert joint(flak_hits=5).p(("fighter_bomber", 8)) == 0


def test_flak_takes_no_pins_away():
    # Five flak hits cancel hits, never the attack's extra pins.
    assert CALC.odds(flak_hits=5).outcomes["pins"] == {1: F(1, 6), 2: F(1, 3), 3: F(1, 2)}


def test_six_flak_hits_abort():
    out = odds("k47-air-strike", {"flak_hits": "6"})["outcomes"]
    assert out["aborted"] == {"false": "0", "true": "1"}
    assert out["attack"] == {"strafing_fighter": "0", "fighter_bomber": "0", "ground_attack": "0", "none": "1"}
    assert out["hits"] == {"0": "1"} and out["pins"] == {"0": "1"} and out["penetration"] == {"0": "1"}
    # Spotting pins happen before any flak fires, so the run being called off leaves them alone.
    assert out["spotting_pins"] == {"0": "1/3", "1": "1/3", "2": "1/3"}


@pytest.mark.parametrize(
    "flak_hits,flak_shots,flak_hit_on,p_abort",
    [
        (5, 0, 5, F(0)),  # five hits are not enough
        (5, 1, 5, F(1, 3)),  # the one shot must hit on 5+: 2/6
        (4, 2, 4, F(1, 4)),  # both shots must hit on 4+: (1/2)^2
        (0, 6, 2, F(5, 6) ** 6),  # all six shots must hit on 2+: 15625/46656
        (3, 4, 6, F(1, 6) ** 3 * F(5, 6) * 4 + F(1, 6) ** 4),  # at least 3 of 4 sixes: 20/1296 + 1/1296 = 7/432
        (20, 30, 2, F(1)),  # already well past six
    ],
)
def test_abort_at_six_hits_in_total(flak_hits, flak_shots, flak_hit_on, p_abort):
    out = CALC.odds(flak_hits=flak_hits, flak_shots=flak_shots, flak_hit_on=flak_hit_on).outcomes
    assert out["aborted"].p(True) == p_abort
    assert out["attack"].p("none") == p_abort
    assert out["pins"].p(0) == p_abort


@pytest.mark.parametrize("target", ["infantry", "artillery"])
def test_down_halves_a_strafing_fighter(target):
    assert CALC.validate({"target": target, "down": "true"})["down"] is True
    run = joint(down=True)
    # floor(3D6 / 2) = 1 only from a 3 (1/216); = 5 from 10 or 11 (54/216 = 1/4); = 9 from 18.
    assert run.p(("strafing_fighter", 1)) == F(1, 6) * F(1, 216)
    assert run.p(("strafing_fighter", 5)) == F(1, 6) * F(1, 4)
    assert run.p(("strafing_fighter", 9)) == F(1, 6) * F(1, 216)
    assert run.p(("strafing_fighter", 10)) == 0


def test_down_halves_a_fighter_bomber():
    run = joint(down=True)
    # floor(2D6 / 2) = 1 from 2 or 3 (3/36); = 3 from 6 or 7 (11/36); = 6 from 12 (1/36).
    assert run.p(("fighter_bomber", 1)) == F(1, 3) * F(3, 36)
    assert run.p(("fighter_bomber", 3)) == F(1, 3) * F(11, 36)
    assert run.p(("fighter_bomber", 6)) == F(1, 3) * F(1, 36)
    assert run.p(("fighter_bomber", 7)) == 0


def test_down_does_not_halve_a_ground_attack_aircraft():
    down, standing = joint(down=True), joint(down=False)
    for hits in range(3, 19):
        assert down.p(("ground_attack", hits)) == standing.p(("ground_attack", hits))
    # Full 3D6: 18 hits with 1/216, and 10 with 27/216, times 1/2 for the attack.
    assert down.p(("ground_attack", 18)) == F(1, 432)
    assert down.p(("ground_attack", 10)) == F(1, 16)


def test_down_marginal_through_the_calculator():
    hits = CALC.odds(down=True, target="infantry").outcomes["hits"]
    # 1 hit: strafing from 3D6 = 3 (1/6 * 1/216) or fighter-bomber from 2D6 = 2, 3 (1/3 * 3/36):
    # 1/1296 + 1/36 = 37/1296. No ground attack can score fewer than 3.
    assert hits[1] == F(37, 1296)


def test_rounding_up():
    run = joint(down=True, rounding="up")
    # ceil(3/2) = 2: a strafing 3D6 of 3 or 4 gives 2 hits: 4/216.
    assert run.p(("strafing_fighter", 2)) == F(1, 6) * F(4, 216)
    # ceil(2D6 / 2) = 1 only from a 2: 1/36.
    assert run.p(("fighter_bomber", 1)) == F(1, 3) * F(1, 36)


def test_flak_before_or_after_halving():
    # The note's example: 9 hits, 3 flak hits.
    assert resolve_hits(9, 3, True, "flak_first", "down") == 3  # (9 - 3) // 2
    assert resolve_hits(9, 3, True, "halve_first", "down") == 1  # 9 // 2 - 3
    assert resolve_hits(9, 3, False, "halve_first", "down") == 6  # not Down: order is moot
    assert resolve_hits(2, 5, True, "halve_first", "up") == 0  # never below zero
    # Fighter-bomber with 3 flak hits, Down. Flak first: (R - 3) // 2 = 0 for R <= 4 (6/36).
    assert joint(flak_hits=3, down=True).p(("fighter_bomber", 0)) == F(1, 3) * F(6, 36)
    # Halve first: R // 2 - 3 <= 0 for R <= 7 (21/36).
    assert joint(flak_hits=3, down=True, flak_order="halve_first").p(("fighter_bomber", 0)) == F(1, 3) * F(21, 36)


def test_armoured_targets_cannot_go_down():
    with pytest.raises(InputError) as caught:
        CALC.odds(target="armoured", down=True)
    assert [field for field, _ in caught.value.errors] == ["down"]
    # Not Down, an armoured target takes the full hits: the same as infantry standing.
    assert CALC.odds(target="armoured").outcomes == CALC.odds(target="infantry").outcomes


def test_roll_follows_the_sequence():
    result = roll("k47-air-strike", 47, {"flak_hits": "2", "flak_shots": "4", "target": "infantry", "down": "true"})
    labels = [entry["label"] for entry in result["dice"]]
    assert labels[0] == "air strike chart, start of turn 1"
    at = labels.index("spotting pins on the target (D3−1)")
    assert labels[at + 1].startswith("flak at the aircraft: 4 shots")
    out = result["outcomes"]
    flak = 2 + result["dice"][at + 1]["result"]
    assert (out["aborted"] == "true") == (flak >= 6)
    if out["aborted"] == "false":
        rolled = result["dice"][-1]["result"]
        halved = out["attack"] != "ground_attack"
        assert out["hits"] == str(resolve_hits(rolled, flak, halved, "flak_first", "down"))


def test_bad_input_names_the_field():
    for raw, field in [
        ({"flak_hits": "21"}, "flak_hits"),
        ({"flak_shots": "31"}, "flak_shots"),
        ({"flak_hit_on": "1"}, "flak_hit_on"),
        ({"flak_hit_on": "7"}, "flak_hit_on"),
        ({"target": "cavalry"}, "target"),
        ({"turns": "0"}, "turns"),
        ({"flak_order": "both"}, "flak_order"),
        ({"rounding": "nearest"}, "rounding"),
    ]:
        with pytest.raises(InputError) as caught:
            CALC.odds(raw)
        assert [f for f, _ in caught.value.errors] == [field]


def test_flak_cancelling_pins_moves_the_pins():
    # Interpretation note k47-pins-after-flak, input flak_cancels_pins. Two known
    # flak hits, no shots left: the run always goes ahead (2 < 6).
    # Default (flak reduces hits only): the attack's own pins, 1, 2 or 3 with 1/6, 2/6, 3/6.
    assert dict(CALC.odds(flak_hits=2).outcomes["pins"]) == {1: F(1, 6), 2: F(1, 3), 3: F(1, 2)}
    # Other reading: max(pins - 2, 0): strafing 1 -> 0 and fighter-bomber 2 -> 0
    # (1/6 + 2/6 = 1/2), ground attack 3 -> 1 (1/2).
    assert dict(CALC.odds(flak_hits=2, flak_cancels_pins=True).outcomes["pins"]) == {0: F(1, 2), 1: F(1, 2)}
    # With no flak the reading changes nothing.
    assert CALC.odds(flak_cancels_pins=True).outcomes["pins"] == CALC.odds().outcomes["pins"]


def test_down_halving_a_ground_attack():
    # Note k47-no-down-ground-attack, input down_halves_every_attack. Infantry, Down,
    # no flak. Ground attack (1/2 of runs): 3D6 hits, 3..18.
    # Default: never halved, so 18 hits come up 1/216 of ground attacks: 1/2 * 1/216 = 1/432,
    # and nothing else reaches 18 (a halved 3D6 is at most 9).
    assert CALC.odds(down=True).outcomes["hits"].p(18) == F(1, 432)
    # Other reading: halved, rounding down, so at most 9; 18 never comes up, and
    # 9 comes from 18 or 19.. only 18 (1/216) among ground attacks, plus the
    # strafing fighter's 3D6 of 18 (1/6 * 1/216): 1/2 * 1/216 + 1/6 * 1/216 = 4/1296 = 1/324.
    o = CALC.odds(down=True, down_halves_every_attack=True).outcomes["hits"]
    assert o.p(18) == 0 and max(o) == 9
    assert o.p(9) == F(1, 324)


def test_aircraft_marker_distance_is_the_sources():
    # "place a suitable token 18” away from the intended target"
    from conftest import SHARED
    from rules_py.tables import load

    source = SHARED / "sources" / "000_631df8d4c9f5a7fc.txt"
    if not source.exists():
        pytest.skip("the source texts are not beside this clone (../shared/sources)")
    (row,) = load("konflikt47", "aircraft_marker").rows
    text = source.read_text(encoding="utf-8")
    assert f"place a suitable token {row['inches']}\u201d away from the intended target" in text
