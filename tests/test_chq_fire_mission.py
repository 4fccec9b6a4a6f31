"""Combat HQ's whole fire mission (chq-fire-mission): the comms check, the
deviation die and the fire for effect, against the three verified calculators
composed by hand, against brute force over every face, and worked by hand."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules_py
from rules_py import get
from rules_py.combat_hq import fire_mission as fm
from rules_py.sweep import sweep_answer
from rules_py.tables import load

MISSION = get("chq-fire-mission")
COMMS = get("chq-comms-check")
DEVIATION = get("chq-deviation")
FFE = get("chq-fire-for-effect")


def odds(calc, inputs) -> dict:
    return {name: dict(dist.pairs()) for name, dist in calc.odds(inputs).outcomes.items()}


def p(dist: dict, value) -> Fraction:
    return dist.get(value, Fraction(0))


def composed(inputs: dict) -> dict[str, dict]:
    """The mission's outcomes from the three calculators' own odds: P(the check
    succeeds) c from chq-comms-check; the Hit share h/6 from chq-deviation; the
    fire for effect at the placed coverage after a Hit, and at the reading's
    coverage after an arrow (nothing at all under ``misses``)."""
    values = MISSION.validate(inputs)
    comms_in = {k: values[k] for k in fm.COMMS_INPUTS}
    c = p(odds(COMMS, comms_in)["success"], True)
    hit = p(odds(DEVIATION, {"hit_faces": values["hit_faces"]})["deviates"], False)
    ffe_in = {k: values[k] for k in fm.FFE_INPUTS}
    placed = odds(FFE, ffe_in)
    if values["deviated"] == "misses":
        drifted = {"unopposed": {0: Fraction(1)}, "suppressed": {False: Fraction(1)}, "forced_back": {False: Fraction(1)}}
    else:
        drifted = odds(FFE, {**ffe_in, "partial": True} if values["deviated"] == "partial" else ffe_in)
    out: dict[str, dict] = {}
    for name in ("unopposed", "suppressed", "forced_back"):
        keys = set(placed[name]) | set(drifted[name])
        out[name] = {v: hit * p(placed[name], v) + (1 - hit) * p(drifted[name], v) for v in keys}
    if values["delayed"] == "fires":
        out["fires"] = {"this_turn": c, "next_turn": 1 - c}
    else:
        out["fires"] = {"this_turn": c, "next_turn": (1 - c) * c, "later": (1 - c) ** 2}
    out["deviates"] = {False: hit, True: 1 - hit}
    # How far the template drifts is the deviation calculator's own (0 on a Hit).
    out["distance"] = odds(DEVIATION, {"hit_faces": values["hit_faces"]})["distance"]
    yes = c * out["suppressed"][True] if True in out["suppressed"] else Fraction(0)
    out["suppressed_this_turn"] = {True: yes, False: 1 - yes}
    return {name: {v: q for v, q in dist.items() if q} for name, dist in out.items()}


CASES = [
    {},
    {"nation": "soviet", "boosts": "2"},
    {"hit_faces": "1", "deviated": "partial", "fire_dice": "6", "cover": "light"},
    {"delayed": "checks_again", "deviated": "same", "sheaf": "converged"},
    {"hit_faces": "0", "deviated": "partial", "partial": "true", "disruptions": "if_suppressed", "air_recon": "true"},
    {"hit_faces": "6", "extra_dice_target": "5", "extra_dice_sixes": "false", "cover": "medium", "suppressed_without_disruption": "true"},
    {"fire_dice": "1", "reaction_dice": "0", "deviated": "partial", "target": "anti_tank", "disruptions": "one_if_more"},
]


@pytest.mark.parametrize("inputs", CASES)
def test_the_mission_is_the_three_calculators_composed(inputs):
    assert odds(MISSION, inputs) == composed(inputs)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    nation=st.sampled_from(["commonwealth", "germany", "soviet", "usa"]),
    boosts=st.integers(0, 3),
    hit_faces=st.integers(0, 6),
    fire_dice=st.integers(1, 4),
    reaction_dice=st.integers(0, 3),
    cover=st.sampled_from(["none", "light", "medium"]),
    partial=st.booleans(),
    deviated=st.sampled_from(["misses", "partial", "same"]),
    delayed=st.sampled_from(["fires", "checks_again"]),
    disruptions=st.sampled_from(["unopposed", "one_if_more", "if_suppressed"]),
    swd=st.booleans(),
)
def test_the_mission_is_composed_whatever_the_inputs(nation, boosts, hit_faces, fire_dice, reaction_dice, cover, partial, deviated, delayed, disruptions, swd):
    inputs = {
        "nation": nation, "boosts": boosts, "hit_faces": hit_faces, "fire_dice": fire_dice, "reaction_dice": reaction_dice, "cover": cover,
        "partial": partial, "deviated": deviated, "delayed": delayed, "disruptions": disruptions, "suppressed_without_disruption": swd,
    }
    assert odds(MISSION, inputs) == composed(inputs)


def test_defaults_by_hand():
    # Germany: 4 comms dice against 3, all on 4+. The check succeeds when
    # C - O > 0; O' = 3 - O is Binomial(3, 1/2), so C + O' ~ Binomial(7, 1/2)
    # must reach 4: (35 + 21 + 7 + 1)/128 = 1/2.
    # The fire for effect: 4 Fire Dice against 3 unit dice; the unit escapes
    # suppression only with more 6s. Battery 6s B ~ Bin(4, 1/6): 625, 500,
    # 150, 20, 1 (/1296); unit 6s U ~ Bin(3, 1/6): 125, 75, 15, 1 (/216).
    # P(U > B) = 625*91 + 500*16 + 150*1 = 65025 over 6^7 = 279936, so
    # S = 214911/279936 = 23879/31104.
    # The deviation die reads Hit on 2 faces: only 1/3 of the barrages land on
    # the unit, the rest drift off it (reading "misses"): P(suppressed) =
    # 1/3 * 23879/31104 = 23879/93312, and this turn half of that.
    out = odds(MISSION, {})
    assert out["fires"] == {"this_turn": Fraction(1, 2), "next_turn": Fraction(1, 2)}
    assert out["suppressed"][True] == Fraction(23879, 93312)
    assert out["suppressed_this_turn"][True] == Fraction(23879, 186624)


def test_a_soviet_call_on_a_small_target_by_hand():
    # Soviet, 2 boosts: 5 comms dice against 3; C + O' ~ Bin(8, 1/2) must
    # reach 4: (70 + 56 + 28 + 8 + 1)/256 = 163/256.
    # 1 Fire Die against a unit with no Reaction Dice. As placed (a Hit, 1/3):
    # forced back when the die scores, 1/2; suppressed always (the unit has no
    # dice, so never more 6s). Drifted partly over it (2/3): the unit rolls the
    # partial-target die; forced back when the Fire Die scores and it does not,
    # 1/4; suppressed unless it shows a 6 and the Fire Die does not: 1 - 5/36.
    # P(forced back) = 1/3 * 1/2 + 2/3 * 1/4 = 1/3.
    # P(suppressed) = 1/3 + 2/3 * 31/36 = 49/54; this turn 163/256 * 49/54 = 7987/13824.
    out = odds(MISSION, {"nation": "soviet", "boosts": "2", "fire_dice": "1", "reaction_dice": "0", "deviated": "partial"})
    assert out["fires"][fm.THIS_TURN] == Fraction(163, 256)
    assert out["forced_back"][True] == Fraction(1, 3)
    assert out["suppressed"][True] == Fraction(49, 54)
    assert out["suppressed_this_turn"][True] == Fraction(7987, 13824)


def _brute(inputs: dict) -> dict[str, Counter]:
    """Every face of every die, the rules written out plainly: a Soviet check
    (3 comms dice against 3 opposing dice), the deviation die and its drift
    die, then 1 Fire Die against the unit's Reaction Dice and a partial-target
    die that counts only when the unit is partly under the template, all on 4+
    and no cover (the defaults' readings)."""
    values = MISSION.validate(inputs)
    h, r = values["hit_faces"], values["reaction_dice"]
    assert values["nation"] == "soviet" and values["fire_dice"] == 1 and values["cover"] == "none" and not values["boosts"]
    checks = Counter()
    for faces in itertools.product(range(1, 7), repeat=6):
        checks[sum(f >= 4 for f in faces[:3]) > sum(f >= 4 for f in faces[3:])] += 1
    rest = Counter()
    for faces in itertools.product(range(1, 7), repeat=4 + r):
        dev, _drift, fire, unit, partial_die = faces[0], faces[1], faces[2], faces[3 : 3 + r], faces[3 + r]
        drifted = dev > h
        if drifted and values["deviated"] == "misses":
            rest[(True, 0, False)] += 1
            continue
        partial = True if drifted and values["deviated"] == "partial" else values["partial"]
        dice = unit + ((partial_die,) if partial else ())
        hits = (fire >= 4) - sum(f >= 4 for f in dice)
        rest[(drifted, max(hits, 0), sum(f == 6 for f in dice) <= (fire == 6))] += 1
    out = {"fires": Counter(), "suppressed_this_turn": Counter(), "unopposed": Counter(), "deviates": Counter(), "suppressed": Counter()}
    for success, ways in checks.items():
        for (deviates, unopposed, suppressed), more in rest.items():
            w = Fraction(ways * more, 6**6 * 6 ** (4 + r))
            out["fires"]["this_turn" if success else "next_turn"] += w
            out["suppressed_this_turn"][success and suppressed] += w
            out["suppressed"][suppressed] += w
            out["unopposed"][unopposed] += w
            out["deviates"][deviates] += w
    return out


@pytest.mark.parametrize(
    "inputs",
    [
        {"nation": "soviet", "fire_dice": "1", "reaction_dice": "1"},
        {"nation": "soviet", "fire_dice": "1", "reaction_dice": "1", "hit_faces": "3", "deviated": "same"},
        {"nation": "soviet", "fire_dice": "1", "reaction_dice": "1", "hit_faces": "4", "deviated": "partial"},
        {"nation": "soviet", "fire_dice": "1", "reaction_dice": "0", "hit_faces": "1", "deviated": "partial", "partial": "true"},
    ],
)
def test_the_mission_against_every_face(inputs):
    brute = _brute(inputs)
    out = odds(MISSION, inputs)
    for name, dist in brute.items():
        assert out[name] == {v: q for v, q in dist.items() if q}, name


def test_the_default_reading_holds_by_the_tables():
    # The note's reason for "misses": the shortest drift (1D6 + 3 with a 1) is
    # more than half the side of either template.
    distance = load("combat_hq", "deviation_distance").rows[0]
    shortest = distance["dice"] + distance["add"]
    assert all(2 * shortest > min(r["width"], r["depth"]) for r in load("combat_hq", "sheaves").rows)
    assert MISSION.field("deviated").default == fm.MISSES


def test_the_mission_takes_its_stages_fields_as_they_are():
    # Each input is the very field of the calculator it comes from: the same
    # name, values and default.
    for calc in (COMMS, DEVIATION, FFE):
        for f in calc.fields:
            assert MISSION.field(f.name) == f
    assert [f.name for f in MISSION.fields][-2:] == ["deviated", "delayed"]


def test_how_it_comes_about_by_stage():
    # Under checks_again the second check is rolled when the first fails (1/2
    # for Germany); the drift die on an arrow (2/3); the fire for effect only
    # where the template lands on the unit (1/3, reading misses).
    steps = {s.label: s.p_rolled for s in MISSION.odds({"delayed": "checks_again"}, with_steps=True).steps}
    assert steps["comms dice"] == 1 and steps["opposing dice"] == 1
    assert steps["comms dice, next turn"] == Fraction(1, 2)
    assert steps["deviation die (Hit on 1-2, an arrow otherwise)"] == 1
    assert steps["drift in inches (1D6 + 3)"] == Fraction(2, 3)
    assert steps["battery's Fire Dice (4D6, 4+): successes and 6s"] == Fraction(1, 3)
    assert list(steps)[:4] == ["comms dice", "opposing dice", "comms dice, next turn", "opposing dice, next turn"]


@pytest.mark.parametrize("seed", [0, 1, 7, 12345])
@pytest.mark.parametrize("inputs", [{}, {"delayed": "checks_again", "deviated": "partial", "hit_faces": "1"}])
def test_a_seeded_roll_given_back_is_that_roll(seed, inputs):
    rolled = rules_py.roll("chq-fire-mission", seed, inputs)
    dice = ",".join(",".join(map(str, d["faces"])) for d in rolled["dice"])
    resolved = rules_py.resolve("chq-fire-mission", inputs, dice)
    assert resolved["status"] == "done"
    assert resolved["outcomes"] == rolled["outcomes"]
    assert [g["label"] for g in resolved["given"]] == [d["label"] for d in rolled["dice"]]


def test_a_call_delayed_to_next_turn_waits_for_the_deviation_die():
    # Germany's comms dice all fail (1, 2, 3, 1) against 4, 5, 6: the fire
    # for effect slips to next turn, and what the call needs next is the
    # deviation die, to be rolled then: a mission to keep in play.
    doc = rules_py.resolve("chq-fire-mission", {}, "1,2,3,1,4,5,6")
    assert doc["status"] == "need"
    assert doc["need"]["label"].startswith("deviation die")
    assert doc["odds"]["fires"] == {"this_turn": "0", "next_turn": "1"}
    assert doc["odds"]["suppressed_this_turn"] == {"false": "1", "true": "0"}
    # Its suppression next turn is the Hit share of the fire for effect: 1/3 * 23879/31104.
    assert doc["odds"]["suppressed"]["true"] == "23879/93312"


def test_what_it_takes_boosts_for_three_chances_in_four():
    # The command-line guide's figure (guides/command-line.md): with the template over the unit even after a drift
    # (deviated=same), 8 boosts give Germany a 75 % chance that the barrage
    # suppresses the unit this turn (7 give 74.6 %); under the default reading
    # no number of boosts does, as a drift spares the unit 2 times in 3.
    same = sweep_answer("chq-fire-mission", {"deviated": "same"}, "boosts")
    assert [r["value"] for r in same["reaches"]] == ["2", "8", None]
    assert Fraction(same["values"][7]["number"]) < Fraction(3, 4) <= Fraction(same["values"][8]["number"])
    default = sweep_answer("chq-fire-mission", {}, "boosts")
    assert [r["value"] for r in default["reaches"]] == [None, None, None]


def test_compare_two_nations():
    # --vs: the Soviet call (3 comms dice) against Germany's (4): c = 11/32
    # against 1/2, so suppressed this turn is 11/32 and 1/2 of 23879/93312.
    doc = rules_py.compare_odds("chq-fire-mission", {}, {"nation": "soviet"})
    chance = doc["differences"]["suppressed_this_turn"]["chance_of_yes"]
    assert chance["a"] == "23879/186624"
    assert Fraction(chance["b"]) == Fraction(11, 32) * Fraction(23879, 93312)


def test_a_finished_mission_gives_the_drift_as_a_roll_does():
    # Germany's comms dice 4, 5, 6, 6 against 1, 1, 1: through this turn. The
    # deviation die 5 is an arrow (Hit on 1-2) and the drift die 2: 2 + 3 = 5
    # inches, which misses the unit (reading misses): nothing more to roll.
    doc = rules_py.resolve("chq-fire-mission", {}, "4,5,6,6,1,1,1,5,2")
    assert doc["status"] == "done"
    assert doc["given"][-1]["label"] == "drift in inches (1D6 + 3)" and doc["given"][-1]["result"] == 5
    assert doc["outcomes"]["deviates"] == "true" and doc["outcomes"]["distance"] == "5"
    typed = rules_py.answer("chq-fire-mission", {}, dice="4,5,6,6,1,1,1,5,2")
    assert "Distance moved (inches): 5" in typed["summary"]
    # A Hit (a 1) leaves it where it was placed: 0 inches, as chq-deviation says.
    hit = rules_py.resolve("chq-fire-mission", {}, "4,5,6,6,1,1,1,1,=2/1,=0/0")
    assert hit["status"] == "done" and hit["outcomes"]["distance"] == "0"
    # A seeded roll gives the drift among its outcomes too, the drift die's own value.
    for seed in range(12):
        rolled = rules_py.roll("chq-fire-mission", seed)
        drift = [d["result"] for d in rolled["dice"] if d["label"].startswith("drift in inches")]
        assert rolled["outcomes"]["distance"] == str(drift[0] if drift else 0)
