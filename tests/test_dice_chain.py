"""dice.chain: stages that depend on one another, as a forward pass in odds mode.

The hand-worked case: one D6 says how many dice are thrown (n = the face),
then n dice each hit on a 6, then every hit throws a damage die that
damages on 5+. P(no hit) = sum over n of 1/6 (5/6)^n = (5/6)(1 - (5/6)^6)
(a geometric sum) = (5/6)(31031/46656) = 155155/279936. A face of 1 throws
no damage dice at all (the stage is skipped): the chain must carry that
state on unchanged.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules_py import dice as d
from rules_py.dice import Given, NeedRoll, Rolling, Stage, enumerate_given, enumerate_outcomes, enumerate_steps
from rules_py.dice.odds import PARTS

CALLS: dict[str, int] = {}


def _count(name: str) -> None:
    CALLS[name] = CALLS.get(name, 0) + 1


def how_many(dice):
    _count("how_many")
    return dice.d6("how many dice")


def hits(dice, n):
    _count("hits")
    return dice.successes(n, 6, "hit dice")


def damage(dice, n):
    _count("damage")
    return dice.successes(n, 5, "damage dice")


STAGES = (
    Stage(how_many, lambda _s: (), lambda _s, n: (n,)),
    Stage(hits, lambda s: (s[0],), lambda s, h: (*s, h)),
    # Skipped when the first die showed 1 (the state carries on as (1, hits)).
    Stage(damage, lambda s: (s[1],) if s[0] > 1 else None, lambda s, k: (*s, k)),
)


def outcome(state):
    n, h, *rest = state
    return {"dice": n, "hits": h, "damaged": rest[0] if rest else 0, "skipped": not rest}


def chained(dice):
    return dice.chain("start", STAGES, outcome)


def replayed(dice):
    """The same procedure written as plain rolls: the replay's exact product."""
    n = dice.d6("how many dice")
    h = dice.successes(n, 6, "hit dice")
    if n > 1:
        return {"dice": n, "hits": h, "damaged": dice.successes(h, 5, "damage dice"), "skipped": False}
    return {"dice": n, "hits": h, "damaged": 0, "skipped": True}


def test_hand_worked_chance_of_no_hit():
    got = enumerate_outcomes(chained)
    assert got["hits"].p(0) == Fraction(5, 6) * (1 - Fraction(5, 6) ** 6) == Fraction(155155, 279936)
    assert got["skipped"].p(True) == Fraction(1, 6)
    assert got["dice"] == d.die(6)


def test_odds_and_steps_equal_the_replay():
    assert enumerate_outcomes(chained) == enumerate_outcomes(replayed)
    outcomes, steps = enumerate_steps(chained)
    outcomes_r, steps_r = enumerate_steps(replayed)
    assert outcomes == outcomes_r
    assert [(s.label, s.p_rolled, s.values) for s in steps] == [(s.label, s.p_rolled, s.values) for s in steps_r]
    # Damage dice are thrown unless the first die shows 1.
    assert next(s for s in steps if s.label == "damage dice").p_rolled == Fraction(5, 6)


def test_each_stage_is_enumerated_once_per_distinct_args():
    # Damage reads only the hits: 0..6 hits, 7 distinct args however many
    # (dice, hits) states reach it; each part is replayed once per value of
    # its one pool. A replay of the product would call damage once per path.
    PARTS.cache_clear()  # what earlier tests worked out of these parts is kept (below)
    CALLS.clear()
    first = enumerate_outcomes(chained)
    assert CALLS["how_many"] == 6
    assert CALLS["hits"] == sum(n + 1 for n in range(1, 7))
    assert CALLS["damage"] == sum(k + 1 for k in range(0, 7))
    # Asked again, every part is kept from the first enumeration: no replay, the same odds.
    CALLS.clear()
    assert enumerate_outcomes(chained) == first
    assert not CALLS


def test_a_roll_rolls_each_stage_once_in_order():
    for seed in range(40):
        a, b = Rolling(seed), Rolling(seed)
        assert chained(a) == replayed(b)
        assert a.log == b.log


def test_own_dice_stop_at_the_first_missing_die_and_condition_the_rest():
    with pytest.raises(NeedRoll) as need:
        chained(Given([4]))
    assert need.value.label == "hit dice" and need.value.count == 4
    given = Given([4, 6, 6, 1, 2])  # two hits: two damage dice to throw
    with pytest.raises(NeedRoll) as need:
        chained(given)
    assert need.value.label == "damage dice" and need.value.count == 2
    assert [entry["label"] for entry in given.log] == ["how many dice", "hit dice"]
    # Given dice of each stage in turn, the odds of what is left, as the replay has them.
    for values in ([3], [3, 2], [3, 2, 1], [1], [1, 0], [6, 6, 0]):
        assert enumerate_given(chained, (), values) == enumerate_given(replayed, (), values), values
    # Three dice thrown and two hits given: the hits are certain, the damage still to come.
    after = enumerate_given(chained, (), [3, 2])
    assert after["hits"] == {2: 1}
    assert after["damaged"].p(0) == Fraction(4, 9)  # both damage dice miss: (4/6)^2


def test_after_other_dice_it_is_the_exact_product():
    def later(dice):
        first = dice.d6("first")
        result = dice.chain("start", STAGES, outcome)
        return {**result, "first": first}

    def later_replayed(dice):
        first = dice.d6("first")
        return {**replayed(dice), "first": first}

    assert enumerate_outcomes(later) == enumerate_outcomes(later_replayed)
    assert enumerate_steps(later)[0] == enumerate_steps(later_replayed)[0]


def test_a_chain_whose_outcomes_change_names_is_refused():
    def bad(dice):
        return dice.chain(None, (Stage(how_many, lambda _s: (), lambda _s, n: n),), lambda n: {"even": True} if n % 2 == 0 else {"odd": True})

    with pytest.raises(ValueError, match="chain: outcomes"):
        enumerate_outcomes(bad)
