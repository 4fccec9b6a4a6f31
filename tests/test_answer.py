"""The typed answer (rules_py.answer) and the one seed parser (rules_py.seeds).

The answer is what the page renders, so every number on it is checked here:
against its JSON Schema for every calculator's defaults, examples and random
inputs; against the CLI's ``odds`` (the same fractions); and against
cumulative chances and means worked out by hand below.
"""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

import rules_py
from rules_py.formats import percent
from rules_py.calculator import InputError
from rules_py.seeds import MAX_SEED, parse_seed, phrase_number
from strategies import invalid_seeds, valid_inputs

SCHEMA = json.loads((Path(rules_py.__file__).parent / "data" / "answer.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
CALCS = rules_py.calculators()
CASES = [(c.id, inputs) for c in CALCS for inputs in ({}, *c.examples)]


def valid(doc: dict) -> dict:
    errors = sorted(VALIDATOR.iter_errors(doc), key=str)
    assert not errors, [f"{list(e.absolute_path)}: {e.message[:160]}" for e in errors[:5]]
    return doc


def outcome(doc: dict, name: str) -> dict:
    return next(o for o in doc["outcomes"] if o["name"] == name)


def row(doc: dict, name: str, value: str) -> dict:
    return next(v for v in outcome(doc, name)["values"] if v["value"] == value)


def test_the_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_the_schema_check_can_fail():
    doc = rules_py.answer("chq-comms-check")
    broken = json.loads(json.dumps(doc))
    broken["outcomes"][0]["values"][0]["p"] = "0.5"  # a decimal, not an exact fraction
    assert list(VALIDATOR.iter_errors(broken))
    broken = json.loads(json.dumps(doc))
    del broken["outcomes"][1]["mean"]
    assert list(VALIDATOR.iter_errors(broken))


@pytest.mark.parametrize("calc_id,inputs", CASES)
def test_answers_at_defaults_and_examples_match_the_schema(calc_id, inputs):
    # The fractions themselves are checked against fractions worked out by hand
    # below (test_typed_odds_against_fractions_worked_out_by_hand) and against
    # seeded rolls (tests/test_calculators.py); here, every answer's shape.
    doc = valid(rules_py.answer(calc_id, inputs))
    calc = rules_py.get(calc_id)
    assert [o["name"] for o in doc["outcomes"]] == [o.name for o in calc.outcomes_for(calc.validate(inputs))]
    for o in doc["outcomes"]:
        if o["kind"] == "distribution":
            assert sum(Fraction(v["p"]) for v in o["values"]) == 1
    for seed in ("1", "Konrad day 3"):
        valid(rules_py.answer(calc_id, inputs, seed))


def _cumulative(chances: dict[str, Fraction]) -> dict[str, tuple[Fraction, Fraction]]:
    """(at least, at most) of each value of a scale listed low to high, summed here."""
    values = list(chances)
    return {v: (sum(chances[w] for w in values[i:]), sum(chances[w] for w in values[: i + 1])) for i, v in enumerate(values)}


# calculator, inputs, outcome, each value's chance worked out by hand (in display
# order), and the mean over the numbers (None for a yes/no or a choice).
BY_HAND = [
    # Three casualties, each saved on a 6: saved ~ Binomial(3, 1/6), P(k) = C(3, k) 5^(3-k) / 216:
    # 125, 75, 15, 1 in 216; mean 3/6 = 1/2.
    ("k47-medic", {}, "saved", {"0": Fraction(125, 216), "1": Fraction(75, 216), "2": Fraction(15, 216), "3": Fraction(1, 216)}, Fraction(1, 2)),
    # Soviet comms: margin C - O, 3 dice each scoring on 4+ (1/2), and C + (3 - O) ~ Binomial(6, 1/2):
    # margins -3..3 with C(6, k) = 1, 6, 15, 20, 15, 6, 1 in 64; symmetric, so the mean is 0.
    ("chq-comms-check", {"nation": "soviet"}, "margin", {str(m): Fraction(c, 64) for m, c in zip(range(-3, 4), (1, 6, 15, 20, 15, 6, 1))}, Fraction(0)),
    # ... and it succeeds on a margin above 0: (15 + 6 + 1)/64 = 11/32.
    ("chq-comms-check", {"nation": "soviet"}, "success", {"false": Fraction(21, 32), "true": Fraction(11, 32)}, None),
    # Smoke over 3 turns, down on a 3+ each turn (2/3): turn 1 2/3, turn 2 1/3 * 2/3, turn 3
    # (1/3)^2 * 2/3, later (1/3)^3; mean over the numbers (18 + 2*6 + 3*2)/27 / (26/27) = 18/13.
    ("k47-smoke-barrage", {"turns": "3"}, "arrival_turn", {"1": Fraction(2, 3), "2": Fraction(2, 9), "3": Fraction(2, 27), "later": Fraction(1, 27)}, Fraction(18, 13)),
]


@pytest.mark.parametrize("calc_id,inputs,name,chances,mean", BY_HAND, ids=[f"{c}-{n}" for c, _, n, _, _ in BY_HAND])
def test_typed_odds_against_fractions_worked_out_by_hand(calc_id, inputs, name, chances, mean):
    o = outcome(valid(rules_py.answer(calc_id, inputs)), name)
    assert o["kind"] == "distribution"
    assert [(v["value"], Fraction(v["p"])) for v in o["values"]] == list(chances.items())  # every value, in display order
    if o["type"] == "int":  # every value here is on the number scale ("later" past every number)
        for v in o["values"]:
            assert (Fraction(v["at_least"]), Fraction(v["at_most"])) == _cumulative(chances)[v["value"]], v["value"]
    assert (None if o["mean"] is None else Fraction(o["mean"])) == mean


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
@pytest.mark.parametrize("calc", CALCS, ids=[c.id for c in CALCS])
def test_answers_for_random_inputs_match_the_schema(calc, data):
    inputs = data.draw(valid_inputs(calc))
    try:
        doc = valid(rules_py.answer(calc.id, inputs))
    except InputError:
        reject()  # a cross-field check refused the combination (see test_calculators)
    for o in doc["outcomes"]:
        if o["kind"] == "distribution":
            # at least of the smallest number, at most of the largest: every number on the scale
            ranked = [v for v in o["values"] if v["at_least"] is not None]
            if ranked:
                assert Fraction(ranked[0]["at_least"]) + Fraction(ranked[-1]["at_most"]) - sum(Fraction(v["p"]) for v in ranked) == sum(Fraction(v["p"]) for v in ranked)
            assert sum(Fraction(v["p"]) for v in o["values"]) == 1
    seed = data.draw(st.integers(0, MAX_SEED))
    roll = valid(rules_py.answer(calc.id, inputs, seed))
    assert roll["command"].split()[:6] == ["python", "-m", "rules_py", "roll", calc.id, "--seed"]
    if not calc.rolls_dice:
        assert roll["dice"] == [] and roll["no_dice"]


def test_comms_margin_at_least_at_most_and_mean_by_hand():
    # Soviet: 3 comms dice against 3 opposing dice, each scoring on 4+ (p = 1/2),
    # so margin = X - Y with X, Y ~ Binomial(3, 1/2): P(X = k) = C(3, k)/8.
    # P(margin = -3) = P(X=0) P(Y=3) = 1/64; P(margin <= 0) = 1 - P(X > Y);
    # P(X > Y) = sum_k P(X=k) P(Y<k) = 3/8*1/8 + 3/8*4/8 + 1/8*7/8 = (3+12+7)/64 = 22/64 = 11/32.
    doc = rules_py.answer("chq-comms-check", {"nation": "soviet"})
    assert row(doc, "margin", "-3")["p"] == "1/64"
    assert row(doc, "margin", "-3")["at_least"] == "1"
    assert row(doc, "margin", "0")["at_most"] == "21/32"
    assert row(doc, "margin", "1")["at_least"] == "11/32"
    assert row(doc, "margin", "2")["at_most"] == "63/64"  # all but P(X=3, Y=0) = 1/64
    margin = outcome(doc, "margin")
    assert margin["mean"] == "0" and margin["mean_text"] == "0.00"  # E[X] = E[Y] = 3/2
    assert margin["mean_leaves_out"] == []
    assert outcome(doc, "success")["summary"] == "Check succeeds: 34.4% chance"  # 11/32 = 34.375%
    assert row(doc, "margin", "-3")["label"] == "\u22123"


def test_words_past_every_number_rank_above_them():
    # Smoke over 3 turns: the chart brings it down on a 3+ each turn (p = 2/3),
    # so P(turn 1) = 2/3, P(2) = 1/3*2/3 = 2/9, P(3) = 2/27, P(later) = 1/27.
    # "later" is past turn 3: at least 2 = 2/9 + 2/27 + 1/27 = 1/3, at most 3 = 26/27.
    # Mean over the numbers: (1*18 + 2*6 + 3*2)/27 / (26/27) = 36/26 = 18/13, leaving out later (1/27).
    doc = rules_py.answer("k47-smoke-barrage", {"turns": "3"})
    assert row(doc, "arrival_turn", "2")["at_least"] == "1/3"
    assert row(doc, "arrival_turn", "3")["at_most"] == "26/27"
    assert row(doc, "arrival_turn", "later")["at_least"] == "1/27"
    assert row(doc, "arrival_turn", "later")["at_most"] == "1"
    turn = outcome(doc, "arrival_turn")
    assert turn["mean"] == "18/13" and turn["mean_text"] == "1.38"
    assert turn["mean_leaves_out"] == ["later"] and turn["mean_leaves_out_p"] == "1/27"
    assert "leaving out later" in turn["summary"]
    # Read as at least and at most: "later" is itself at least (nothing lies past it; its 1/27
    # is 3.7%), never "≥later", and at most it is every value on the scale.
    later = row(doc, "arrival_turn", "later")
    assert (later["at_least_label"], later["at_least_percent"]) == ("later", "3.7%")
    assert (later["at_most_label"], later["at_most_percent"]) == ("any, later included", "100%")
    assert (row(doc, "arrival_turn", "2")["at_least_label"], row(doc, "arrival_turn", "2")["at_most_label"]) == ("≥2", "≤2")


def test_a_comparison_whose_likeliest_value_stays_says_it_once():
    # Two more flak hits change no attack's chance (the resolution D6: ground attack on 4-6,
    # 1/2, the likeliest either way, and flak alone cannot drive the aircraft off): said once.
    doc = rules_py.compare("k47-air-strike", {}, {"flak_hits": "2"})
    attack = next(d for d in doc["differences"] if d["name"] == "attack")
    assert attack["summary"] == "Attack: most likely ground attack in both"
    assert "ground attack → ground attack" not in json.dumps(doc, ensure_ascii=False)


def test_words_off_the_scale_have_no_cumulative_chance():
    # Konrad retreat, third example: the unit has no legal sector, so "sectors" is
    # certainly "none" and the result certainly "eliminated".
    calc = rules_py.get("konrad-retreat")
    doc = rules_py.answer(calc.id, calc.examples[2])
    assert outcome(doc, "sectors") == {**outcome(doc, "sectors"), "kind": "certain", "value": "none", "value_label": "none", "label": "Sectors retreated"}
    assert outcome(doc, "result")["value"] in ("eliminated", "surrender")


def test_certain_outcomes_and_cells_numbered_from_one():
    # The retreat example map "W:FFFEE/F*FFbFaE/FFFFcE/FFFEE": the CLI names the ends
    # "0.2 1.1 2.2" (from 0); the page numbers rows and columns from 1.
    doc = rules_py.answer("konrad-retreat")
    ends = outcome(doc, "destinations")
    assert ends["kind"] == "certain"
    assert ends["cells"] == [[1, 3], [2, 2], [3, 3]]
    assert ends["value_label"] == "row 1 column 3; row 2 column 2; row 3 column 3"
    assert ends["draw"] == {"kind": "cells"}
    assert doc["rolls_dice"] is False


def test_unit_badges_name_their_kind_and_give_the_value_alone():
    # The supply example: unit a is 7 sectors from the depot (band 6-8: -1) and
    # not isolated; unit c is cut off (isolated: -3, no distance).
    doc = rules_py.answer("konrad-supply", {"map": "W:F*FFFFFFFaFFFE/FFFFFFFFFFFbE/FFeFEEEFFFFEE/FEEFcEEFFFFFdE/FFFEEEEEEEEE"})
    a = outcome(doc, "modifier_a")
    assert a["draw"] == {"kind": "unit", "unit": "a", "key": "modifier"}
    assert (a["badge"], a["badge_value"]) == ("modifier \u22121", "\u22121")
    d = outcome(doc, "distance_a")
    assert (d["draw"]["key"], d["badge"], d["badge_value"]) == ("sectors to the depot", "sectors to the depot 7", "7")
    c = outcome(doc, "isolated_c")
    assert (c["badge"], c["badge_value"]) == ("isolated", "isolated")  # a certain yes: its name
    assert (outcome(doc, "isolated_a")["badge"], outcome(doc, "isolated_a")["badge_value"]) == ("", "")  # a certain no: nothing
    assert (outcome(doc, "distance_c")["badge"], outcome(doc, "distance_c")["badge_value"]) == ("", "")  # none: nothing


def test_percent_rounds_exactly_and_never_says_0_or_100_falsely():
    assert percent(Fraction(11, 32)) == "34.4%"
    assert percent(Fraction(1, 216)) == "0.46%"  # 0.4629..., two decimals below 1 %
    assert percent(Fraction(1, 20000)) == "<0.01%"
    assert percent(Fraction(19999, 20000)) == ">99.99%"
    assert percent(Fraction(1, 8)) == "12.5%"
    assert percent(Fraction(1, 16)) == "6.3%"  # 6.25: half away from zero, from the exact value
    assert percent(Fraction(0)) == "0%" and percent(Fraction(1)) == "100%"


def test_roll_log_in_words():
    # Fire for effect rolls two pools, each counting successes and 6s together.
    doc = rules_py.answer("chq-fire-for-effect", {}, "Konrad day 3")
    fire = doc["dice"][0]
    faces = [f["face"] for f in fire["faces"]]
    successes = sum(f >= 4 for f in faces)
    sixes = faces.count(6)
    assert [f["scored"] for f in fire["faces"]] == [f >= 4 for f in faces]
    words = {0: "no {}", 1: "1 {}"}
    expected_s = words.get(successes, f"{successes} {{}}").format("success" if successes == 1 else "successes")
    expected_6 = words.get(sixes, f"{sixes} {{}}").format("six" if sixes == 1 else "sixes")
    assert fire["result"] == f"{expected_s}, {expected_6}"
    assert "(" not in fire["result"]


def test_a_certain_roll_says_why_no_dice_were_rolled():
    doc = rules_py.answer("k47-officer-morale", {}, 5)
    assert doc["dice"] == [] and doc["no_dice"].startswith("This calculator rolls no dice")
    doc = rules_py.answer("k47-medic", {"casualties": "0"}, 5)
    assert doc["dice"] == [] and doc["no_dice"].startswith("No dice were rolled")


@pytest.mark.parametrize("calc", CALCS, ids=[c.id for c in CALCS])
def test_rolls_dice_is_true_exactly_when_some_example_rolls(calc):
    rolled = any(rules_py.answer(calc.id, inputs, seed)["dice"] for inputs in ({}, *calc.examples) for seed in range(5))
    assert rolled == calc.rolls_dice


# ---------------------------------------------------------------- seeds


def test_whole_number_seeds():
    assert parse_seed("0").number == 0
    assert parse_seed(" 007 ").number == 7
    assert parse_seed(str(2**64 - 1)).number == 18446744073709551615
    assert parse_seed(18014398509481985).number == 18014398509481985  # past 2**53: exact
    assert parse_seed("999999999999999999").text == "999999999999999999"


@pytest.mark.parametrize("raw", ["", "  ", "-1", "+1", "1.5", "1e3", str(2**64), "\u00b2", "\u0663", "12\u00b2", "x" * 201, None, True, -1, 2**64, 1.0])
def test_bad_seeds_are_refused_with_the_one_message(raw):
    with pytest.raises(InputError) as caught:
        parse_seed(raw)
    assert caught.value.errors[0][0] == "seed"
    assert "a seed is a whole number from 0 to 18446744073709551615" in str(caught.value)
    assert len(str(caught.value)) < 400  # a long value is quoted cut short


@settings(max_examples=200, deadline=None)
@given(invalid_seeds())
def test_random_bad_seeds_are_refused_everywhere(raw):
    with pytest.raises(InputError):
        parse_seed(raw)
    if raw is not None:  # a JSON null seed means no seed: the odds
        out = json.loads(rules_py.call_json(json.dumps({"op": "answer", "id": "k47-medic", "seed": raw})))
        assert [f["field"] for f in out["fields"]] == ["seed"]


def test_phrase_seeds_hash_to_a_number_one_can_type():
    # SHA-256 of the UTF-8 text, first 8 bytes big-endian (pinned, and worked out again here).
    phrase = "Konrad day 3"
    digest = hashlib.sha256(phrase.encode()).hexdigest()
    assert phrase_number(phrase) == int(digest[:16], 16) == 5794243528536503270
    seed = parse_seed("  Konrad day 3 ")
    assert (seed.number, seed.phrase, seed.text) == (5794243528536503270, phrase, phrase)
    by_phrase = rules_py.roll("chq-comms-check", phrase)
    by_number = rules_py.roll("chq-comms-check", "5794243528536503270")
    assert by_phrase["dice"] == by_number["dice"] and by_phrase["outcomes"] == by_number["outcomes"]
    assert by_phrase["seed_phrase"] == phrase and "seed_phrase" not in by_number


def test_call_json_uses_the_same_seed_parser():
    for raw in ("\u00b2", "18446744073709551616", "-3"):
        out = json.loads(rules_py.call_json(json.dumps({"op": "roll", "id": "chq-comms-check", "seed": raw})))
        assert out["fields"] == [{"field": "seed", "message": str(pytest.raises(InputError, parse_seed, raw).value).split(": ", 1)[1]}]
    out = json.loads(rules_py.call_json(json.dumps({"op": "answer", "id": "chq-comms-check", "seed": "18014398509481985"})))
    assert out["seed"] == "18014398509481985" and out["command"].endswith("--seed 18014398509481985")


@settings(max_examples=300, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=30), lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["op", "id", "inputs", "seed", "x"]), inner, max_size=5), max_leaves=12))
def test_call_json_never_raises(request_value):
    for text in (json.dumps(request_value), json.dumps({"op": "answer", "id": "chq-comms-check", "inputs": request_value}), json.dumps({"op": "roll", "id": "k47-medic", "seed": request_value})):
        out = json.loads(rules_py.call_json(text))
        assert isinstance(out, (dict, list))
        assert "internal" not in out, out


def test_call_json_never_raises_on_broken_text():
    for text in ("", "{", "[" * 100_000, "\udcff", '{"op": "answer", "id": ["x"]}'):
        out = json.loads(rules_py.call_json(text))
        assert "error" in out and "internal" not in out


def test_error_messages_quote_at_most_80_characters_of_a_value():
    huge = "9" * 131_000
    with pytest.raises(InputError) as caught:
        rules_py.answer("chq-comms-check", {"boosts": huge})
    assert len(str(caught.value)) < 300
    assert "131000 characters" in str(caught.value)


# ---------------------------------------------------------------- the headline


def test_headline_of_a_yes_no_outcome_is_its_chance():
    # Soviet comms succeed 11/32 of the time (tests/test_chq_comms.py), 34.375 %.
    doc = rules_py.answer("chq-comms-check", {"nation": "soviet"})
    assert doc["headline"] == "Check succeeds 34.4%"
    assert doc["headline_parts"] == [{"outcome": "success", "text": "Check succeeds 34.4%"}]


def test_headline_of_a_number_is_its_average_and_its_median():
    # Six casualties, each saved on a 6: saved ~ Binomial(6, 1/6), mean 6/6 = 1.
    # P(saved >= 1) = 1 - (5/6)^6 = 31031/46656 = 66.5 % (at least a half), and
    # P(saved >= 2) = 1 - (15625 + 6 * 3125) / 46656 = 12281/46656 = 26.3 % (less):
    # so 1 is the most a player reaches at least half of the time.
    assert rules_py.answer("k47-medic", {"casualties": "6"})["headline"] == "Saved: 1.00 on average, 1 or more 66.5%"
    # Three casualties: P(saved >= 1) = 1 - 125/216 = 91/216 < 1/2, so only the
    # average is worth a line (0 or more is every roll).
    assert rules_py.answer("k47-medic", {})["headline"] == "Saved: 0.50 on average"


def test_headline_of_a_comparison_marks_each_option():
    doc = rules_py.compare("chq-comms-check", {"nation": "germany"}, {"nation": "soviet"})
    # 1/2 -> 11/32: -5/32 = -15.625 points.
    (part,) = doc["headline_parts"]
    assert part == {"outcome": "success", "lead": "Check succeeds ", "a": "50.0%", "b": "34.4%", "tail": ", \u221215.6 points", "text": "Check succeeds 50.0% \u2192 34.4%, \u221215.6 points"}
    assert doc["headline"] == part["text"]


def test_headline_of_a_roll_is_what_was_rolled():
    # Seed 7, Soviet comms: the comms dice show 3 2 4 (one success) and the
    # opposing dice 6 1 1 (one success): no more successes, so no.
    doc = rules_py.answer("chq-comms-check", {"nation": "soviet"}, 7)
    assert [[f["face"] for f in d["faces"]] for d in doc["dice"]] == [[3, 2, 4], [6, 1, 1]]
    assert doc["headline"] == "Check succeeds: no"


@pytest.mark.parametrize("calc", rules_py.calculators(), ids=lambda c: c.id)
def test_every_answer_leads_with_its_headline(calc):
    for raw in ({}, *calc.examples):
        doc = rules_py.answer(calc.id, raw)
        names = [p["outcome"] for p in doc["headline_parts"]]
        assert names and set(names) <= {o["name"] for o in doc["outcomes"]}
        assert doc["headline"] == " \u00b7 ".join(p["text"] for p in doc["headline_parts"])


def test_a_calculator_must_name_its_headline():
    from rules_py.calculator import Calculator, Outcome

    outcomes = (Outcome("hit", "bool", "Hit"),)
    with pytest.raises(ValueError, match="no headline"):
        Calculator(id="x-test", title="t", system="s", procedure=lambda dice: {"hit": True}, fields=(), outcomes=outcomes)
    with pytest.raises(ValueError, match=r"headline names no outcome: \['miss'\]"):
        Calculator(id="x-test", title="t", system="s", procedure=lambda dice: {"hit": True}, fields=(), outcomes=outcomes, headline=("miss",))


def test_chart_heights_by_hand():
    # Soviet comms, margin C - O with C + (3 - O) ~ Binomial(6, 1/2): margins -3..3
    # with chances 1, 6, 15, 20, 15, 6, 1 in 64. Exactly: each over the likeliest (20),
    # so 0 fills the chart and -3 is 5 %. At least 0: (20 + 15 + 6 + 1)/64 = 65.625 %
    # (65.63 rounded half away from zero); at most 0 the same by symmetry.
    doc = rules_py.answer("chq-comms-check", {"nation": "soviet"})
    margin = outcome(doc, "margin")
    assert margin["chart"] is True and outcome(doc, "success")["chart"] is False
    heights = {v["value"]: v["heights"] for v in margin["values"]}
    assert [heights[str(m)]["exactly"] for m in range(-3, 4)] == ["5.00", "30.00", "75.00", "100.00", "75.00", "30.00", "5.00"]
    assert heights["0"]["at_least"] == heights["0"]["at_most"] == "65.63"
    assert heights["-3"]["at_least"] == "100.00" and heights["3"]["at_most"] == "100.00"


def test_compare_chart_heights_share_one_scale():
    # Germany (margin = Binomial(7, 1/2) - 3, likeliest 35/128 at 0 and 1) against
    # the Soviets (likeliest 20/64 = 40/128 at 0): the Soviets' 0 fills the chart,
    # Germany's 0 is 35/40 of it.
    doc = rules_py.compare("chq-comms-check", {"nation": "germany"}, {"nation": "soviet"})
    margin = next(d for d in doc["differences"] if d["name"] == "margin")
    zero = next(v for v in margin["values"] if v["value"] == "0")
    assert zero["heights"]["b"]["exactly"] == "100.00" and zero["heights"]["a"]["exactly"] == "87.50"
