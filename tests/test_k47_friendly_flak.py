"""Konflikt '47 air strike with friendly flak that fails to hold fire: the
units that fail (k47-flak-hold-fire) fire as one more flak group. Checked
against the mixture, over how many units fail, of the air strike with that
many more shots; against every face for small pools; and by hand."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules_py
from rules_py import get
from rules_py.konflikt47.flak import HOLD_FIRE

STRIKE = get("k47-air-strike")
HOLD = get("k47-flak-hold-fire")
FRIENDLY = ("friendly_flak", "friendly_experience", "friendly_flak_shots", "friendly_flak_hit_on")


def odds(calc, inputs) -> dict:
    return {name: dict(dist.pairs()) for name, dist in calc.odds(inputs).outcomes.items()}


def mixture(inputs: dict) -> dict:
    """The air strike with friendly flak, from the two verified calculators: over
    k, the number of units that fail to hold fire (k47-flak-hold-fire), the air
    strike with no friendly flak and k * shots more shots in its second flak
    group, hitting on the friendly score (the inputs leave that group empty)."""
    values = STRIKE.validate(inputs)
    assert values["more_flak_shots"] == 0
    base = {k: v for k, v in values.items() if k not in FRIENDLY}
    firing = odds(HOLD, {"experience": values["friendly_experience"], "units": values["friendly_flak"]})["firing"]
    out: dict[str, Counter] = {}
    for k, pk in firing.items():
        more = {"more_flak_shots": k * values["friendly_flak_shots"], "more_flak_hit_on": values["friendly_flak_hit_on"]}
        for name, dist in odds(STRIKE, {**base, **more}).items():
            for v, q in dist.items():
                out.setdefault(name, Counter())[v] += pk * q
    return {name: {v: q for v, q in dist.items() if q} for name, dist in out.items()}


@pytest.mark.parametrize(
    "inputs",
    [
        {"friendly_flak": "1"},
        {"friendly_flak": "3", "flak_hits": "2", "friendly_experience": "inexperienced"},
        {"friendly_flak": "2", "friendly_flak_shots": "4", "friendly_flak_hit_on": "4", "flak_shots": "3", "down": "true"},
        {"friendly_flak": "10", "friendly_flak_shots": "3", "friendly_experience": "veteran", "flak_cancels_pins": "true"},
    ],
)
def test_friendly_flak_is_the_mixture_over_the_units_that_fail(inputs):
    assert odds(STRIKE, inputs) == mixture(inputs)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    units=st.integers(1, 6),
    experience=st.sampled_from([r["experience"] for r in HOLD_FIRE.rows]),
    shots=st.integers(1, 3),
    hit_on=st.integers(2, 6),
    flak_hits=st.integers(0, 5),
    flak_shots=st.integers(0, 6),
    down=st.booleans(),
    order=st.sampled_from(["flak_first", "halve_first"]),
)
def test_the_mixture_whatever_the_inputs(units, experience, shots, hit_on, flak_hits, flak_shots, down, order):
    inputs = {
        "friendly_flak": units, "friendly_experience": experience, "friendly_flak_shots": shots, "friendly_flak_hit_on": hit_on,
        "flak_hits": flak_hits, "flak_shots": flak_shots, "down": down, "flak_order": order,
    }
    assert odds(STRIKE, inputs) == mixture(inputs)


def test_one_regular_unit_by_hand():
    # Five flak hits already; one regular unit holds fire on 4+, so it fires
    # with 1/2, and its one shot hits on 5+ with 1/3: the aircraft is driven
    # off with 1/2 * 1/3 = 1/6.
    assert odds(STRIKE, {"flak_hits": "5", "friendly_flak": "1"})["aborted"][True] == Fraction(1, 6)


def test_two_inexperienced_units_by_hand():
    # Four flak hits already; two inexperienced units hold on 5+, so each fires
    # with 4/6 = 2/3: K ~ Bin(2, 2/3) fire, P(K = 1) = P(K = 2) = 4/9. Each
    # fires 2 shots hitting on 6+; 2 more hits abort. With 2 shots: 1/36. With
    # 4: 1 - (5/6)^4 - 4 (1/6)(5/6)^3 = (1296 - 625 - 500)/1296 = 19/144.
    # P(abort) = 4/9 * 1/36 + 4/9 * 19/144 = (16 + 76)/1296 = 23/324.
    inputs = {"flak_hits": "4", "friendly_flak": "2", "friendly_experience": "inexperienced", "friendly_flak_shots": "2", "friendly_flak_hit_on": "6"}
    assert odds(STRIKE, inputs)["aborted"][True] == Fraction(23, 324)


@pytest.mark.parametrize("experience,hit_on,known", [("regular", 5, 4), ("inexperienced", 3, 5), ("veteran", 2, 3)])
def test_against_every_face(experience, hit_on, known):
    # Two friendly units, one shot each: their two hold-fire dice and two shot
    # dice (a unit's shot counts only when it fires), by every face; the rest
    # of the run (the attack die and its 3D6 or 2D6) by every face too, for
    # each flak total.
    holds_on = HOLD_FIRE.lookup("experience", experience, "holds_on")
    flak = Counter()
    for hold, shot in itertools.product(itertools.product(range(1, 7), repeat=2), itertools.product(range(1, 7), repeat=2)):
        hits = known + sum(1 for h, s in zip(hold, shot) if h < holds_on and s >= hit_on)
        flak[min(hits, 6)] += 1
    hits_by = Counter()
    aborted = Counter()
    for total, ways in flak.items():
        if total >= 6:
            aborted[True] += Fraction(ways, 6**4)
            hits_by[0] += Fraction(ways, 6**4)
            continue
        aborted[False] += Fraction(ways, 6**4)
        for attack in range(1, 7):
            n = 2 if attack in (2, 3) else 3  # fighter-bomber 2D6, the others 3D6 (no Down)
            for dice in itertools.product(range(1, 7), repeat=n):
                hits_by[max(sum(dice) - total, 0)] += Fraction(ways, 6**4) / 6 / 6**n
    out = odds(STRIKE, {"flak_hits": known, "friendly_flak": 2, "friendly_experience": experience, "friendly_flak_hit_on": hit_on})
    assert out["aborted"] == dict(aborted)
    assert out["hits"] == dict(hits_by)


def test_no_friendly_flak_rolls_no_hold_fire_dice():
    # With friendly_flak = 0 the other friendly inputs change nothing: not the
    # odds, not the roll, not how it comes about.
    plain = STRIKE.odds({"flak_shots": "3"}, with_steps=True)
    other = STRIKE.odds({"flak_shots": "3", "friendly_experience": "veteran", "friendly_flak_shots": "5", "friendly_flak_hit_on": "2"}, with_steps=True)
    assert plain.outcomes == other.outcomes
    assert [(s.label, s.p_rolled, s.values) for s in plain.steps] == [(s.label, s.p_rolled, s.values) for s in other.steps]
    assert not any("hold" in s.label for s in plain.steps)


def test_the_hold_fire_dice_come_before_the_flak():
    # How it comes about: the hold-fire test is always made; the friendly shots
    # only when a unit fails (1 - (1/2)^3 = 7/8 for three regular units).
    steps = STRIKE.odds({"friendly_flak": "3", "flak_shots": "2"}, with_steps=True).steps
    labels = [s.label for s in steps]
    hold = labels.index("friendly flak holds fire on 4+ (3 units)")
    assert hold < labels.index("flak at the aircraft: 2 shots hitting on 5+")
    friendly = [s for s in steps if s.label.startswith("friendly flak at the aircraft")]
    assert sum(s.p_rolled for s in friendly) == Fraction(7, 8)


@pytest.mark.parametrize("seed", [0, 1, 47, 12345])
def test_a_seeded_roll_given_back_is_that_roll(seed):
    inputs = {"friendly_flak": "4", "flak_hits": "1", "flak_shots": "2", "friendly_flak_shots": "2"}
    rolled = rules_py.roll("k47-air-strike", seed, inputs)
    dice = ",".join(",".join(map(str, d["faces"])) for d in rolled["dice"])
    resolved = rules_py.resolve("k47-air-strike", inputs, dice)
    assert resolved["status"] == "done" and resolved["outcomes"] == rolled["outcomes"]
    assert [g["label"] for g in resolved["given"]] == [d["label"] for d in rolled["dice"]]
