"""The fast paths compose: a fold inside a sub-procedure, parts after another
die, a fold as a chain's stage, and a chain whose stages are the calculators'
own procedures, each exact against brute force and as cheap as the top-level
path.

Brute force rolls every face of every die (itertools.product) and counts.
Cost is measured by counting evaluations, which no load on the machine can
change: how many times a procedure's body runs (each run of a replay is one)
and how many times a fold's outcome is called. The fast path of a composite
runs the procedure holding it once per distinct arguments and evaluates the
outcome once per distinct value of the groups (or of their difference); the
product it replaced ran the procedure once per combination of the pools'
values (with 12 v 12 dice at 4+, 13 x 13 = 169 runs where the top level
makes 1). Each count must be within twice the top level's for the same work.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from rules_py import get
from rules_py.combat_hq.comms import comms_check
from rules_py.combat_hq.fire_for_effect import fire_for_effect
from rules_py.dice import Counted, Given, NeedRoll, Pool, Rolling, Stage, at_least, enumerate_given, enumerate_outcomes, enumerate_steps

RUNS: Counter = Counter()


def duel(dice, attack: int, defence: int):
    """Attack dice hit on 4+, defence dice save on 5+; the margin decides."""
    RUNS["duel"] += 1

    def outcome(hits, saves):
        RUNS["duel outcome"] += 1
        margin = hits - saves
        return {"margin": margin, "wins": margin > 0}

    attacking = Pool(attack, 6, "attack dice", at_least(4))
    defending = Pool(defence, 6, "defence dice", at_least(5))
    return dice.fold((attacking, defending), outcome, by_difference=True)


def brute(sides: tuple[int, ...], read) -> dict[str, Counter]:
    """Every outcome's counts over all rolls of dice of these ``sides``: ``read(faces)`` gives the outcomes."""
    found: dict[str, Counter] = {}
    for faces in itertools.product(*(range(1, s + 1) for s in sides)):
        for name, value in read(faces).items():
            found.setdefault(name, Counter())[value] += 1
    return found


def as_fractions(counts: dict[str, Counter], total: int) -> dict[str, dict]:
    return {name: {v: Fraction(c, total) for v, c in counter.items()} for name, counter in counts.items()}


def duel_faces(faces, attack: int) -> dict:
    hits = sum(f >= 4 for f in faces[:attack])
    saves = sum(f >= 5 for f in faces[attack:])
    return {"margin": hits - saves, "wins": hits > saves}


def plain(dists) -> dict[str, dict]:
    return {name: dict(dist.pairs()) for name, dist in dists.items()}


# ---------------------------------------------------------------------------
# A fold inside a sub-procedure


def fold_in_sub(dice, attack, defence):
    RUNS["fold_in_sub"] += 1
    result = dice.sub(duel, attack, defence)
    return {"margin": result["margin"], "wins": result["wins"], "decisive": abs(result["margin"]) >= 2}


def test_a_fold_inside_a_sub_is_exact():
    got = plain(enumerate_outcomes(fold_in_sub, 3, 3))
    expected = as_fractions(brute((6,) * 6, lambda f: {**duel_faces(f, 3), "decisive": abs(duel_faces(f, 3)["margin"]) >= 2}), 6**6)
    assert got == expected


def test_a_fold_inside_a_sub_is_folded_once():
    RUNS.clear()
    enumerate_outcomes(duel, 12, 12)
    top = dict(RUNS)
    assert top["duel"] == 1  # the top-level path: one run, one fold
    RUNS.clear()
    enumerate_outcomes(fold_in_sub, 12, 12)
    # The sub-procedure holding the fold runs once; its outcome is evaluated
    # once per difference, as at the top level (the product would run it 13 x 13 times).
    assert RUNS["duel"] <= 2 * top["duel"]
    assert RUNS["duel outcome"] <= 2 * top["duel outcome"]
    # The outer procedure runs once per distinct result of the sub (one replay each).
    assert RUNS["fold_in_sub"] == len(enumerate_outcomes(duel, 12, 12)["margin"])


# ---------------------------------------------------------------------------
# Parts after another die


def part_total(dice, n):
    RUNS["part_total"] += 1
    return {"total": dice.sum_of(n, 6, "total dice")}


def part_hits(dice, n):
    RUNS["part_hits"] += 1
    return {"hits": dice.successes(n, 5, "hit dice")}


def parts_after_a_die(dice):
    RUNS["parts_after_a_die"] += 1
    n = dice.d3("how many dice")
    return dice.parts((part_total, n), (part_hits, n))


def parts_of(dice, n):
    RUNS["parts_after_a_die"] += 1
    return dice.parts((part_total, n), (part_hits, n))


def test_parts_after_a_die_are_exact():
    def read(faces):
        n, rest = faces[0], faces[1:]
        return {"total": sum(rest[:n]), "hits": sum(f >= 5 for f in rest[3 : 3 + n])}

    # A D3, then faces enough for the most dice either part throws; unused faces only repeat each count.
    expected = as_fractions(brute((3,) + (6,) * 6, read), 3 * 6**6)
    assert plain(enumerate_outcomes(parts_after_a_die)) == expected


def test_parts_after_a_die_cost_their_sum():
    RUNS.clear()
    for n in (1, 2, 3):
        enumerate_outcomes(parts_of, n)
    top = dict(RUNS)
    assert top == {"parts_after_a_die": 3, "part_total": 6 + 11 + 16, "part_hits": 2 + 3 + 4}
    RUNS.clear()
    enumerate_outcomes(parts_after_a_die)
    # One run of the procedure per face of the D3, each part enumerated on its
    # own after it: the sum of the parts' sizes. The product of the parts
    # would replay the procedure once per pair of their values, sum over n of
    # (5n + 1)(n + 1) = 109 runs.
    for name, runs in top.items():
        assert RUNS[name] <= 2 * runs, name


def test_given_dice_condition_parts_after_a_die():
    # The D3 given as 2 and the first part's two dice as 6 and 5: the total is
    # certain, the hits of the second part are still to come: Binomial(2, 1/3).
    given = Given([2, 6, 5])
    with pytest.raises(NeedRoll) as need:
        parts_after_a_die(given)
    assert need.value.label == "hit dice" and need.value.count == 2
    after = enumerate_given(parts_after_a_die, (), given.values)
    assert plain(after) == {"total": {11: 1}, "hits": {0: Fraction(4, 9), 1: Fraction(4, 9), 2: Fraction(1, 9)}}


# ---------------------------------------------------------------------------
# A fold as a chain's stage


def how_many(dice):
    RUNS["how_many"] += 1
    return dice.d3("how many dice")


STAGES = (
    Stage(how_many, lambda _start: (), lambda _start, n: n),
    Stage(duel, lambda n: (n, n), lambda n, result: (n, result["margin"])),
)


def fold_in_chain(dice):
    return dice.chain(None, STAGES, lambda state: {"dice": state[0], "margin": state[1]})


def test_a_fold_as_a_chain_stage_is_exact():
    def read(faces):
        n, rest = faces[0], faces[1:]
        return {"dice": n, "margin": sum(f >= 4 for f in rest[:n]) - sum(f >= 5 for f in rest[3 : 3 + n])}

    expected = as_fractions(brute((3,) + (6,) * 6, read), 3 * 6**6)
    assert plain(enumerate_outcomes(fold_in_chain)) == expected


def test_a_fold_as_a_chain_stage_is_folded_once_per_stage_args():
    RUNS.clear()
    for n in (1, 2, 3):
        enumerate_outcomes(duel, n, n)
    top = dict(RUNS)
    assert top["duel"] == 3  # one run of each fold at the top level
    RUNS.clear()
    enumerate_outcomes(fold_in_chain)
    assert RUNS["duel"] <= 2 * top["duel"]
    assert RUNS["duel outcome"] <= 2 * top["duel outcome"]


def test_a_roll_and_the_steps_see_the_same_chain():
    for seed in range(20):
        a = Rolling(seed)
        result = fold_in_chain(a)
        assert [e["label"] for e in a.log] == ["how many dice", "attack dice", "defence dice"]
        assert result["dice"] == a.log[0]["result"]
    _, steps = enumerate_steps(fold_in_chain)
    assert [s.label for s in steps] == ["how many dice", "attack dice", "defence dice"]
    assert all(s.p_rolled == 1 for s in steps)


# ---------------------------------------------------------------------------
# A chain whose stages are the calculators' own procedures (a whole mission)

COMMS = {"nation": "soviet", "boosts": 1, "air_recon": False}
FIRE = dict(fire_dice=6, sheaf="regular", target="firepower", reaction_dice=4, cover="light", partial=False, reaction_target=4)


def comms(dice):
    RUNS["comms"] += 1
    return comms_check(dice, **COMMS)


def fire(dice):
    RUNS["fire"] += 1
    return fire_for_effect(dice, **FIRE)


MISSION = (
    Stage(comms, lambda _start: (), lambda _start, result: result["success"]),
    Stage(fire, lambda through: () if through else None, lambda through, result: (through, result["unopposed"])),
)


def mission(dice):
    return dice.chain(None, MISSION, lambda s: {"fired": s if isinstance(s, bool) else s[0], "disruptions": s[1] if isinstance(s, tuple) else 0})


def test_a_chain_of_whole_procedures_is_exact_and_runs_each_once():
    RUNS.clear()
    got = enumerate_outcomes(mission)
    assert RUNS["comms"] == 1 and RUNS["fire"] == 1  # each procedure folded once, not replayed
    through = get("chq-comms-check").odds(COMMS).outcomes["success"].p(True)
    disruptions = get("chq-fire-for-effect").odds(FIRE).outcomes["unopposed"]
    assert got["fired"].p(True) == through
    expected = {d: through * p for d, p in disruptions.pairs()}
    expected[0] = expected.get(0, 0) + 1 - through
    assert dict(got["disruptions"].pairs()) == expected


def test_a_mission_rolled_and_given_reads_its_stages_in_order():
    for seed in range(10):
        rolled = Rolling(seed)
        result = mission(rolled)
        labels = [e["label"] for e in rolled.log]
        assert labels[:2] == ["comms dice", "opposing dice"]
        assert result["fired"] == (len(labels) > 2)  # the fire for effect is rolled only once the check is through
    # The comms check given (3 successes against 1: through), the fire for effect
    # still to come: the disruptions are fire for effect's own odds.
    given = Given([Counted(3), Counted(1)])
    with pytest.raises(NeedRoll) as need:
        mission(given)
    assert need.value.label.startswith("battery's Fire Dice")
    after = enumerate_given(mission, (), given.values)
    assert after["fired"] == {True: 1}
    assert after["disruptions"] == get("chq-fire-for-effect").odds(FIRE).outcomes["unopposed"]
    # Given 1 success against 1, the check fails: nothing is fired.
    assert enumerate_given(mission, (), [1, 1]) == {"fired": {False: 1}, "disruptions": {0: 1}}
