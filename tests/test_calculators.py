"""Properties every registered calculator must have, driven by hypothesis.

For random valid inputs the odds are exact fractions that sum to exactly 1 for
every outcome and every declared outcome is present; for random invalid inputs
the project's InputError is raised and nothing else. Rolls agree with odds:
a chi-square test over 10,000 rolls with fixed seeds, for each outcome.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

import rules_py
from rules_py.answer import OddsAnswer
from rules_py.calculator import InputError
from rules_py.formats import format_value
from stats import chi_square_p
from strategies import invalid_inputs, valid_inputs

CALCS = rules_py.calculators()
IDS = [c.id for c in CALCS]
ROLLS = 10_000  # at the defaults: enough for the chi-square test to see a skew of a few percent
EXAMPLE_ROLLS = 2_500  # at each example: a wrong branch moves far more than that


def test_registry_is_not_empty_and_ids_are_unique():
    assert "chq-comms-check" in IDS
    assert len(IDS) == len(set(IDS))


@pytest.mark.parametrize("calc", CALCS, ids=IDS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_valid_inputs_give_exact_odds_summing_to_one(calc, data):
    raw = data.draw(valid_inputs(calc))
    try:
        odds = calc.odds(raw)
    except InputError as e:
        # only cross-field rules may refuse values that are each within bounds
        assert calc.check is not None, e
        reject()
    report = OddsAnswer(calc, odds).cli()
    assert set(report["outcomes"]) == {o.name for o in calc.outcomes_for(odds.inputs)}
    for name, dist in odds.outcomes.items():
        assert all(isinstance(p, Fraction) and 0 < p <= 1 for p in dist.values())
        assert sum(dist.values()) == 1, name
        assert sum(Fraction(p) for p in report["outcomes"][name].values()) == 1


@pytest.mark.parametrize("calc", CALCS, ids=IDS)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_invalid_inputs_raise_input_error_only(calc, data):
    raw = data.draw(invalid_inputs(calc))
    with pytest.raises(InputError) as caught:
        calc.odds(raw)
    assert str(caught.value)
    with pytest.raises(InputError):
        calc.roll(1, raw)


def _input_sets(calc):
    yield {}
    yield from calc.examples


DICE = [c for c in CALCS if c.rolls_dice]


@pytest.mark.parametrize("calc", DICE, ids=[c.id for c in DICE])
def test_rolls_agree_with_odds(calc):
    for raw in _input_sets(calc):
        rolls = EXAMPLE_ROLLS if raw else ROLLS
        odds = calc.odds(raw)
        counts = {name: Counter() for name in odds.outcomes}
        for seed in range(rolls):
            roll = calc.roll(seed, raw)
            for name, value in roll.outcomes.items():
                counts[name][value] += 1
        for name, dist in odds.outcomes.items():
            p = chi_square_p(counts[name], dict(dist), rolls)
            assert p > 1e-4, f"{calc.id} {raw} {name}: rolls {dict(counts[name])} vs odds {dict(dist)} (p={p:.2g})"


@pytest.mark.parametrize("calc", [c for c in CALCS if not c.rolls_dice], ids=[c.id for c in CALCS if not c.rolls_dice])
def test_a_calculator_without_dice_rolls_its_certain_answer(calc):
    # A calculator that rolls no dice has one value per outcome, with
    # probability 1, and any seed's roll shows no die and that value: one roll
    # per input set says as much as ten thousand.
    for raw in _input_sets(calc):
        odds = calc.odds(raw)
        roll = calc.roll(7, raw)
        assert roll.dice == []
        for name, dist in odds.outcomes.items():
            assert dict(dist) == {roll.outcomes[name]: 1}, (calc.id, raw, name)


@pytest.mark.parametrize("calc", CALCS, ids=IDS)
def test_roll_reports_every_die(calc):
    roll = rules_py.roll(calc.id, 123)
    assert roll["seed"] == 123
    assert roll == rules_py.roll(calc.id, 123)  # same seed, same roll
    for entry in roll["dice"]:
        assert set(entry) == {"label", "dice", "faces", "result"}
        assert all(isinstance(f, int) for f in entry["faces"])
    assert set(roll["outcomes"]) == {o.name for o in calc.outcomes_for(calc.validate({}))}


@pytest.mark.parametrize("calc", CALCS, ids=IDS)
def test_schema_describes_every_field(calc):
    schema = calc.schema()
    assert [f["name"] for f in schema["fields"]] == [f.name for f in calc.fields]
    for f in calc.fields:
        assert f.label and f.help, f"{calc.id}.{f.name} needs a label and help text"
        if not f.required:
            assert calc.field(f.name).parse(format_value(f.default)) == f.default
