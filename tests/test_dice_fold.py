"""dice.fold: independent pools, then a pure function of their values.

Every fold is checked against brute force: each face of each die, one by one
(itertools.product), the group values added up by hand and the outcome
function applied, every roll counted once over sides**dice. A fold's steps
("How it comes about") and its seeded rolls are checked against the same
procedure written with one ``dice.pool`` per pool (the replay the fold
replaces), and a marginal fold (``reads``) against the joint one.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction as F
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_py import get
from rules_py.dice import Pool, Rolling, enumerate_outcomes, enumerate_steps, face_table

SIXES = (("success", "successes"), ("six", "sixes"))


def counts_table(tn: int) -> tuple:
    return tuple((1 if f >= tn else 0, 1 if f == 6 else 0) for f in range(1, 7))


def brute_force(groups, outcome) -> dict:
    """Each outcome's distribution over every face of every die."""
    pools = [p for g in groups for p in g]
    dice = [(p, i) for p in pools for i in range(p.n)]
    tallies: dict[str, Counter] = {}
    total = 0
    for faces in product(*(range(1, p.sides + 1) for p, _ in dice)):
        total += 1
        values, at = [], 0
        for g in groups:
            value = None
            for p in g:
                table = face_table(p.sides, p.key)
                part = None
                for face in faces[at : at + p.n]:
                    read = table[face - 1]
                    part = read if part is None else (tuple(a + b for a, b in zip(part, read)) if isinstance(read, tuple) else part + read)
                at += p.n
                if part is None:
                    part = tuple(0 for _ in table[0]) if isinstance(table[0], tuple) else 0
                if p.adds is not None:
                    part = tuple(x if i in p.adds else 0 for i, x in enumerate(part))
                value = part if value is None else tuple(a + b for a, b in zip(value, part)) if isinstance(part, tuple) else value + part
            values.append(value)
        for name, v in outcome(*values).items():
            tallies.setdefault(name, Counter())[v] += 1
    return {name: {v: F(c, total) for v, c in t.items()} for name, t in tallies.items()}


def as_groups(groups):
    return [(g,) if isinstance(g, Pool) else tuple(g) for g in groups]


def fold_procedure(groups, outcome, reads=None):
    return lambda dice: dice.fold(groups, outcome, reads)


def replay_procedure(groups, outcome):
    """The same, one dice.pool per pool: what a fold replaces."""

    def proc(dice):
        values = []
        for g in as_groups(groups):
            value = None
            for p in g:
                v = dice.pool(p.n, p.sides, p.label, p.key, p.counts)
                if p.adds is not None:
                    v = tuple(x if i in p.adds else 0 for i, x in enumerate(v))
                value = v if value is None else tuple(a + b for a, b in zip(value, v)) if isinstance(v, tuple) else value + v
            values.append(value)
        return outcome(*values)

    return proc


def versus(a, b):
    (hits, sixes), (saves, their_sixes) = a, b
    return {"margin": hits - saves, "beaten": max(0, hits - saves), "suppressed": their_sixes <= sixes, "both": (hits > saves, their_sixes > sixes)}


READS = {"margin": (0,), "beaten": (0,), "suppressed": (1,)}  # "both" reads everything


@st.composite
def pools(draw, label: str, max_dice: int):
    n = draw(st.integers(0, max_dice))
    sides = draw(st.sampled_from([3, 4, 6]))
    tn = draw(st.integers(1, sides + 1))
    key = tuple((1 if f >= tn else 0, 1 if f == sides else 0) for f in range(1, sides + 1))
    adds = draw(st.sampled_from([None, (0,), (1,), (0, 1)]))
    return Pool(n, sides, label, key, SIXES, adds)


@settings(max_examples=60, deadline=None)
@given(a=pools("a", 3), b=pools("b", 2), c=st.one_of(st.none(), pools("c", 2)))
def test_fold_is_brute_force(a, b, c):
    groups = (a, (b,) if c is None else (b, c))
    expected = brute_force(as_groups(groups), versus)
    assert enumerate_outcomes(fold_procedure(groups, versus)) == expected
    # Each outcome over only the coordinates it reads: still its exact distribution.
    assert enumerate_outcomes(fold_procedure(groups, versus, READS)) == expected


def test_three_groups_and_scalar_keys_by_hand():
    # 1D6 + 1D4 + 1D3, each its own group, read as their own numbers: the
    # total 3..13 over 72 rolls; 3 only as 1+1+1 (1/72), 13 only as 6+4+3.
    groups = (Pool(1, 6, "d6", (1, 2, 3, 4, 5, 6)), Pool(1, 4, "d4", (1, 2, 3, 4)), Pool(1, 3, "d3", (1, 2, 3)))
    got = enumerate_outcomes(fold_procedure(groups, lambda x, y, z: {"total": x + y + z, "high": x > y + z}))
    assert got["total"].p(3) == F(1, 72) and got["total"].p(13) == F(1, 72)
    # x > y + z: y + z = 2 (1 way) needs x >= 3 (4 faces), 3 (2 ways) x >= 4 (3), 4 (3 ways) x >= 5 (2), 5 (3 ways) x = 6 (1):
    # (4 + 6 + 6 + 3) / 72 = 19/72.
    assert got["high"].p(True) == F(19, 72)
    assert got == brute_force(as_groups(groups), lambda x, y, z: {"total": x + y + z, "high": x > y + z})


def test_a_fold_after_other_dice_is_the_exact_product():
    # Not the procedure's only use of dice: each pool becomes a choice point of the replay.
    def proc(dice):
        bonus = dice.d3("bonus")
        return dice.fold((Pool(2, 6, "a", counts_table(4)), Pool(1, 6, "b", counts_table(4))), lambda a, b: {"margin": a[0] + bonus - b[0]})

    got = enumerate_outcomes(proc)["margin"]
    # margin = Bin(2, 1/2) + U{1,2,3} - Bin(1, 1/2): 5 only as 2 + 3 - 0 (1/4 * 1/3 * 1/2 = 1/24), 0 only
    # as 0 + 1 - 1 (1/4 * 1/3 * 1/2); 4 as 2 + 2 - 0, 2 + 3 - 1 (1/24 each) or 1 + 3 - 0 (1/2 * 1/3 * 1/2): 1/6.
    assert (got.p(5), got.p(0), got.p(4)) == (F(1, 24), F(1, 24), F(1, 6))
    assert sum(got.values()) == 1


def test_reads_must_name_an_outcome():
    with pytest.raises(ValueError, match="does not return"):
        enumerate_outcomes(fold_procedure((Pool(1, 6, "a", counts_table(4)), Pool(1, 6, "b", counts_table(4))), versus, {"nope": (0,)}))


CASES = [
    (Pool(3, 6, "battery", counts_table(4), SIXES), (Pool(2, 6, "unit", counts_table(5), SIXES),)),
    (Pool(2, 6, "battery", counts_table(3), SIXES), (Pool(0, 6, "unit", counts_table(4), SIXES),)),
    (Pool(2, 6, "battery", counts_table(4), SIXES), (Pool(1, 6, "reaction", counts_table(4), SIXES), Pool(2, 6, "cover", counts_table(2), SIXES, (0,)))),
]


@pytest.mark.parametrize("battery, unit", CASES)
def test_steps_are_those_of_the_replay(battery, unit):
    # "How it comes about" from a fold: the same steps, in the same order, with
    # the same exact chances as the replay of one dice.pool per pool.
    groups = (battery, unit)
    fold_odds, fold_steps = enumerate_steps(fold_procedure(groups, versus, READS))
    replay_odds, replay_steps = enumerate_steps(replay_procedure(groups, versus))
    assert fold_odds == replay_odds
    as_data = lambda steps: [(s.label, s.p_rolled, s.values, s.names, s.counting) for s in steps]  # noqa: E731
    assert as_data(fold_steps) == as_data(replay_steps)
    assert [s.label for s in fold_steps] == [p.label for g in as_groups(groups) for p in g]


@pytest.mark.parametrize("battery, unit", CASES)
@pytest.mark.parametrize("seed", [0, 7, 2**64 - 1])
def test_a_roll_rolls_every_die_once_in_order(battery, unit, seed):
    groups = (battery, unit)
    a, b = Rolling(seed), Rolling(seed)
    assert fold_procedure(groups, versus, READS)(a) == replay_procedure(groups, versus)(b)
    assert a.log == b.log
    assert [entry["label"] for entry in a.log] == [p.label for g in as_groups(groups) for p in g]
    assert [len(entry["faces"]) for entry in a.log] == [p.n for g in as_groups(groups) for p in g]


# Fire for effect's readings that join successes and 6s, by hand. 2 Fire Dice
# against 1 unit die, all on 4+: a die succeeds with 1/2 and shows a 6 with 1/6.
FFE = get("chq-fire-for-effect")


def test_fire_for_effect_if_suppressed_by_hand():
    # Disruptions = max(0, hits - saves) if the unit is suppressed, else 0; the
    # unit is not suppressed only when its die is a 6 (so it saved) and no Fire Die is.
    # 2 Disruptions: hits 2 (1/4), unit die below 4 (1/2): 1/8 = 27/216 (a failed unit die is no 6).
    # 1 Disruption: hits 1, saves 0: 1/2 * 1/2 = 1/4 = 54/216; or hits 2 and a save that
    # leaves the unit suppressed: a 4 or 5 (1/4 * 1/3 = 18/216), or a 6 with a Fire Die 6
    # (both Fire Dice 4+ with a 6 among them, 9/36 - 4/36 = 5/36, times 1/6: 5/216). 77/216.
    outcomes = FFE.odds(fire_dice=2, reaction_dice=1, disruptions="if_suppressed").outcomes
    assert dict(outcomes["unopposed"]) == {0: F(112, 216), 1: F(77, 216), 2: F(27, 216)}
    assert outcomes["forced_back"].p(True) == F(104, 216)
    # Suppression itself does not change with the reading: not suppressed only as above, 1/6 * 25/36.
    assert outcomes["suppressed"].p(False) == F(25, 216)


def test_fire_for_effect_suppressed_without_disruption_by_hand():
    # Suppressed whatever the 6s when no Disruption: not suppressed only with a
    # Disruption and more unit 6s, i.e. the unit die a 6 (a save), both Fire Dice
    # hits and neither a 6 (both a 4 or 5: 4/36): 1/6 * 4/36 = 4/216 = 1/54.
    outcomes = FFE.odds(fire_dice=2, reaction_dice=1, suppressed_without_disruption=True).outcomes
    assert outcomes["suppressed"].p(False) == F(1, 54)
    # The Disruptions keep the default reading: 2 with 1/8, 1 with 3/8.
    assert dict(outcomes["unopposed"]) == {0: F(1, 2), 1: F(3, 8), 2: F(1, 8)}


def _ffe_brute(n_fire, fire_tn, reaction, cover, extra_tn, extra_sixes, reading, swd):
    """Fire for effect over every face: its rules as the module's docstring states them."""
    tallies: dict[str, Counter] = {"unopposed": Counter(), "suppressed": Counter(), "forced_back": Counter()}
    n = n_fire + reaction + cover
    for faces in product(range(1, 7), repeat=n):
        fire, react, extra = faces[:n_fire], faces[n_fire : n_fire + reaction], faces[n_fire + reaction :]
        hits = sum(f >= fire_tn for f in fire)
        saves = sum(f >= 4 for f in react) + sum(f >= extra_tn for f in extra)
        unit_sixes = react.count(6) + (extra.count(6) if extra_sixes else 0)
        suppressed = unit_sixes <= fire.count(6)
        u = max(0, hits - saves)
        u = min(u, 1) if reading == "one_if_more" else (u if suppressed else 0) if reading == "if_suppressed" else u
        if swd and not u:
            suppressed = True
        tallies["unopposed"][u] += 1
        tallies["suppressed"][suppressed] += 1
        tallies["forced_back"][u > 0] += 1
    return {name: {v: F(c, 6**n) for v, c in t.items()} for name, t in tallies.items()}


@pytest.mark.parametrize("reading", ["unopposed", "one_if_more", "if_suppressed"])
@pytest.mark.parametrize("swd", [False, True])
@pytest.mark.parametrize("extra_tn, extra_sixes", [("same", True), ("2", True), ("5", False)])
def test_fire_for_effect_is_brute_force_under_every_reading(reading, swd, extra_tn, extra_sixes):
    # 2 Fire Dice on 5+ (Anti-Tank) against 1 Reaction Die on 4+ and 2 Cover Dice (medium cover).
    got = FFE.odds(
        fire_dice=2, target="anti_tank", reaction_dice=1, cover="medium", reaction_target=4,
        extra_dice_target=extra_tn, extra_dice_sixes=extra_sixes, disruptions=reading, suppressed_without_disruption=swd,
    ).outcomes
    expected = _ffe_brute(2, 5, 1, 2, 4 if extra_tn == "same" else int(extra_tn), extra_sixes, reading, swd)
    assert got == expected
