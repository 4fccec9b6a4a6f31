"""How the odds come about: the steps of rules_py.dice.enumerate_steps and of the typed answer.

Each step is one labelled roll: the chance that it is made at all, and the
distribution of what it decided given that it is made. The cases below are
worked out by hand from the tables and the procedures' rules.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

import rules_py
from rules_py.calculator import InputError
from rules_py.dice import enumerate_outcomes, enumerate_steps
from strategies import valid_inputs

F = Fraction
CALCS = rules_py.calculators()
CASES = [(c.id, inputs) for c in CALCS for inputs in ({}, *c.examples)]


def steps_of(doc):
    """Every roll by its label, with its step's table (a step that stands for several identical rolls lists them in ``rolls``)."""
    return {roll["label"]: {**s, **roll} for s in doc["steps"] for roll in s["rolls"]}


def check_steps(doc):
    """Every step is made with a chance in (0, 1], and its values' chances given that it is made sum to exactly 1."""
    for step in doc["steps"]:
        assert F(0) < F(step["p_rolled"]) <= 1, step
        assert sum(F(v["p"]) for v in step["values"]) == 1, step
        assert all(F(v["p"]) > 0 for v in step["values"]), step
        assert len({v["value"] for v in step["values"]}) == len(step["values"]), step


@pytest.mark.parametrize(("calc_id", "inputs"), CASES)
def test_every_step_sums_to_one(calc_id, inputs):
    doc = rules_py.answer(calc_id, inputs)
    check_steps(doc)
    # A calculator that rolls dice shows at least one step; one that rolls none, none.
    if not rules_py.get(calc_id).rolls_dice:
        assert doc["steps"] == []


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
@pytest.mark.parametrize("calc", CALCS, ids=[c.id for c in CALCS])
def test_steps_sum_to_one_for_any_inputs(calc, data):
    inputs = data.draw(valid_inputs(calc))
    try:
        doc = rules_py.answer(calc.id, inputs)
    except InputError:
        reject()  # a cross-field check refused the combination (see test_calculators)
    check_steps(doc)


def test_air_strike_chart_steps_match_the_chart():
    """The chart (air_strike_chart.csv): 1 rookie, 2-3 the skies are empty, 4-6 here it comes.
    Turn 1 is always rolled; turn t is rolled only if turns 1..t-1 were empty: (1/3)^(t-1)."""
    steps = steps_of(rules_py.answer("k47-air-strike", {"turns": "3"}))
    first = steps["air strike chart, start of turn 1"]
    assert first["p_rolled"] == "1"
    assert [(v["value"], v["p"]) for v in first["values"]] == [("rookie", "1/6"), ("empty", "1/3"), ("attack", "1/2")]
    assert steps["air strike chart, start of turn 2"]["p_rolled"] == "1/3"
    assert steps["air strike chart, start of turn 3"]["p_rolled"] == "1/9"
    assert "air strike chart, start of turn 4" not in steps
    # The chart's rolls read one table: one step, first, listing them in the order the procedure meets them.
    chart = rules_py.answer("k47-air-strike", {"turns": "3"})["steps"][0]
    assert [r["label"] for r in chart["rolls"]] == [f"air strike chart, start of turn {t}" for t in (1, 2, 3)]
    assert [r["often"] for r in chart["rolls"]] == ["always rolled", "rolled 33.3% of the time (1/3)", "rolled 11.1% of the time (1/9)"]
    assert chart["same"] == "The same table, for 3 rolls:"


def test_identical_rolls_are_one_step_that_says_so():
    """With flak (2 known hits, 4 shots at 5+), the attack's hits were a step per flak count
    ("less 2 for flak" ... "less 5 for flak"): the same 3D6 table six times over. Now the flak
    is arithmetic after the roll, so each attack's hits are one roll, and the two attacks that
    roll 3D6 (ground attack, strafing) share one step: 3D6 = 3 with 1/216, 10 with 27/216 = 1/8.
    Ground attack is chosen on 4-6 (1/2), strafing on 1 (1/6), each only when the run goes on:
    flak takes 6 or more (2 + all 4 shots, (1/3)^4 = 1/81) otherwise, so 80/81 * 1/2 = 40/81 and
    80/81 * 1/6 = 40/243. The fighter-bomber's 2D6 is a table of its own."""
    doc = rules_py.answer("k47-air-strike", {"flak_hits": "2", "flak_shots": "4", "down": "true", "target": "artillery"})
    hits = [s for s in doc["steps"] if "hits (" in s["label"]]
    assert [[r["label"] for r in s["rolls"]] for s in hits] == [["Fighter-bomber: hits (2D6)"], ["Ground-attack aircraft: hits (3D6)", "Strafing fighter: hits (3D6)"]]
    three = hits[1]
    assert [r["p_rolled"] for r in three["rolls"]] == ["40/81", "40/243"]
    assert three["same"] == "The same table, for 2 rolls:" and hits[0]["same"] is None
    table = {v["value"]: v["p"] for v in three["values"]}
    assert (table["3"], table["10"], table["18"]) == ("1/216", "1/8", "1/216")
    # No label is a roll split by a figure worked out after it.
    assert not any("for flak" in r["label"] for s in doc["steps"] for r in s["rolls"])


def test_air_strike_attack_dice_are_rolled_as_often_as_their_attack():
    """With no flak (the default) the attack is always made: the resolution table's
    D6 gives strafing 1/6, fighter-bomber 1/3, ground attack 1/2, and each attack's
    hit dice are rolled exactly that often; given they are rolled, 2D6 shows 7 with 6/36."""
    steps = steps_of(rules_py.answer("k47-air-strike"))
    assert steps["air strike resolution: the attack"]["p_rolled"] == "1"
    bomber = next(s for label, s in steps.items() if label.startswith("Fighter-bomber: hits (2D6)"))
    assert bomber["p_rolled"] == "1/3"
    assert dict((v["value"], v["p"]) for v in bomber["values"])["7"] == "1/6"


def test_comms_steps_are_the_two_pools():
    """Comms check, Germany: 4 comms dice at 4+ (Binomial(4, 1/2): 1/16, 4/16, 6/16, 4/16, 1/16)
    and 3 opposing dice at 4+ (1/8, 3/8, 3/8, 1/8), each always rolled; values in words."""
    doc = rules_py.answer("chq-comms-check", {"nation": "germany"})
    own, opposed = doc["steps"]
    assert (own["label"], own["p_rolled"]) == ("comms dice", "1")
    assert [v["p"] for v in own["values"]] == ["1/16", "1/4", "3/8", "1/4", "1/16"]
    assert [v["label"] for v in own["values"]][:3] == ["no successes", "1 success", "2 successes"]
    assert (opposed["label"], opposed["p_rolled"]) == ("opposing dice", "1")
    assert [v["p"] for v in opposed["values"]] == ["1/8", "3/8", "3/8", "1/8"]


# ---------------------------------------------------------------- the engine, by hand


def bonus(dice):
    """A D6; on 5 or 6 (1/3), two dice more that score on 4+."""
    first = dice.d6("first die")
    extra = dice.successes(2, 4, "bonus dice") if first >= 5 else 0
    return {"total": first + extra}


def test_a_roll_made_only_some_of_the_time():
    """The bonus dice are rolled when the first die shows 5 or 6: 2/6 = 1/3 of the time.
    Given they are rolled, Binomial(2, 1/2): 0 with 1/4, 1 with 1/2, 2 with 1/4."""
    outcomes, steps = enumerate_steps(bonus)
    assert outcomes == enumerate_outcomes(bonus)
    first, extra = steps
    assert (first.label, first.p_rolled) == ("first die", 1)
    assert dict(first.values) == {k: F(1, 6) for k in range(1, 7)}
    assert (extra.label, extra.p_rolled) == ("bonus dice", F(1, 3))
    assert dict(extra.values) == {0: F(1, 4), 1: F(1, 2), 2: F(1, 4)}


def inner(dice, target):
    """A sub-procedure: a D6; on a 6 (1/6), a D3 more."""
    if dice.d6(f"inner die (needs {target}+)") >= target:
        return dice.d3("inner D3")
    return 0


def with_sub(dice):
    """A coin (a D6 read odd/even, 1/2 each); on odd, the sub with target 6, on even with target 4."""
    coin = dice.d6("coin", chart=("odd", "even") * 3)
    return {"x": dice.sub(inner, 6 if coin == "odd" else 4)}


def test_rolls_inside_a_cached_sub_are_weighted_by_how_often_the_sub_is_reached():
    """The inner D6 is labelled by its target: each label is rolled when the coin says so (1/2).
    The inner D3 has one label: rolled with 1/2 * 1/6 (odd: needs 6) + 1/2 * 3/6 (even: needs 4) = 1/3,
    and given it is rolled, 1/3 for each face."""
    _, steps = enumerate_steps(with_sub)
    by = {s.label: s for s in steps}
    # First met along the first path the enumeration takes (values in sorted order: even first).
    assert [s.label for s in steps] == ["coin", "inner die (needs 4+)", "inner D3", "inner die (needs 6+)"]
    assert by["coin"].values == (("odd", F(1, 2)), ("even", F(1, 2)))  # in the chart's face order
    assert by["inner die (needs 6+)"].p_rolled == F(1, 2)
    assert by["inner die (needs 4+)"].p_rolled == F(1, 2)
    assert by["inner D3"].p_rolled == F(1, 3)
    assert dict(by["inner D3"].values) == {1: F(1, 3), 2: F(1, 3), 3: F(1, 3)}


def twice(dice):
    """The same sub reached twice on every path, and a label met twice: each is a roll of its own."""
    a = dice.sub(inner, 6)
    b = dice.sub(inner, 6)
    c = dice.d6("plain") + dice.d6("plain")
    return {"x": a + b + c}


def test_a_roll_made_twice_on_a_path_is_two_steps():
    """Each inner D3 is rolled with 1/6, not 1/6 + 1/6: the second is a step of its own."""
    _, steps = enumerate_steps(twice)
    labels = [s.label for s in steps]
    assert labels == ["inner die (needs 6+)", "inner D3", "inner die (needs 6+) (2nd roll)", "inner D3 (2nd roll)", "plain", "plain (2nd roll)"]
    assert [s.p_rolled for s in steps] == [1, F(1, 6), 1, F(1, 6), 1, 1]


def parts_proc(dice):
    return dice.parts((lambda d: {"a": d.d3("part a")},), (lambda d: {"b": d.successes(3, 6, "part b")},))


def test_parts_list_each_parts_steps():
    """dice.parts: each part enumerated on its own, its steps in turn (3 dice at 6+: 125/216 none)."""
    _, steps = enumerate_steps(parts_proc)
    assert [(s.label, s.p_rolled) for s in steps] == [("part a", 1), ("part b", 1)]
    assert dict(steps[1].values)[0] == F(125, 216)


def test_a_step_shows_the_value_it_is_named_for():
    """"drift in inches (1D6 + 3)" is the drift, 4 to 9 inches, not the die; "spotting
    pins on the target (D3−1)" the pins, 0 to 2, not the die: in how the outcomes come
    about, in a seeded roll, in the player's own dice and in the typed answer alike."""
    # Seed 5 rolls a 5 (an arrow: Hit on 1-2) and a 3: the template drifts 3 + 3 = 6 inches.
    roll = rules_py.roll("chq-deviation", 5)
    drift = roll["dice"][1]
    assert (drift["label"], drift["faces"], drift["result"]) == ("drift in inches (1D6 + 3)", [3], 6)
    assert roll["outcomes"]["distance"] == "6"
    assert rules_py.answer("chq-deviation", {}, seed=5)["dice"][1]["result"] == "6"
    given = rules_py.answer("chq-deviation", {}, dice="5,3")["given"][1]
    assert (given["result"], given["working"]) == ("6", "D6 = 3: 6")
    # How it comes about: on an arrow (4 faces of 6), each drift from 4 to 9 inches with 1/6.
    step = steps_of(rules_py.answer("chq-deviation", {}))["drift in inches (1D6 + 3)"]
    assert step["p_rolled"] == "2/3"
    assert [(v["value"], v["p"]) for v in step["values"]] == [(str(d), "1/6") for d in range(4, 10)]
    # D3−1: faces 1, 2, 3 give 0, 1, 2 pins, 1/3 each; always rolled.
    step = steps_of(rules_py.answer("k47-air-strike", {}))["spotting pins on the target (D3\u22121)"]
    assert step["p_rolled"] == "1"
    assert [(v["value"], v["p"]) for v in step["values"]] == [("0", "1/3"), ("1", "1/3"), ("2", "1/3")]
    # A 1 on the D3 (after a 4 on the chart: here it comes) is no pins, and the roll's outcome says the same.
    spotted = rules_py.resolve("k47-air-strike", {}, "4,1")["given"][1]
    assert (spotted["faces"], spotted["result"]) == ([1], 0)
    for seed in range(20):
        rolled = rules_py.roll("k47-air-strike", seed)
        pins = next(d for d in rolled["dice"] if d["label"].startswith("spotting pins"))
        assert str(pins["result"]) == rolled["outcomes"]["spotting_pins"] == str(pins["faces"][0] - 1)
