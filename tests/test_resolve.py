"""Given dice, the third mode: the procedure resolved with the dice a player rolled.

The odds of what happens next are worked out by hand for a case in each rule
system; then, over every calculator, the properties that tie the mode to the
other two: a seeded roll's dice given back resolve to that roll; with no dice
the odds are the plain odds; and given some dice, those odds are the mean,
over the next roll's values, of the odds one roll further on (total
probability), in exact fractions.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules_py
from rules_py.calculator import InputError
from rules_py.dice import Counted, _pool
from rules_py.given import dice_text, parse_dice
from strategies import valid_inputs

ROOT = Path(__file__).resolve().parent.parent
CALCS = rules_py.calculators()
DICE = [c for c in CALCS if c.rolls_dice]


def odds_of(doc: dict) -> dict[str, dict[str, Fraction]]:
    return {name: {v: Fraction(p) for v, p in values.items()} for name, values in doc["odds"].items()}


# ---------------------------------------------------------------- by hand, one case per system


def test_comms_check_with_the_comms_dice_given():
    # Soviet comms: 3 comms dice, each scoring on 4+. Given 4, 5, 1 they score
    # 2; the check succeeds when the 3 opposing dice (4+, so Binomial(3, 1/2))
    # score fewer: P(O <= 1) = 1/8 + 3/8 = 1/2. Margin 2 - O: 2, 1, 0, -1 with
    # 1/8, 3/8, 3/8, 1/8.
    doc = rules_py.resolve("chq-comms-check", {"nation": "soviet"}, "4,5,1")
    assert doc["status"] == "need"
    assert doc["given"] == [{"label": "comms dice", "dice": "3D6", "faces": [4, 5, 1], "result": 2}]
    assert doc["need"] == {"label": "opposing dice", "dice": "3D6", "faces": 6, "count": 3, "counts": [["success", "successes"]]}
    assert doc["odds"]["success"] == {"false": "1/2", "true": "1/2"}
    assert doc["odds"]["margin"] == {"-1": "1/8", "0": "3/8", "1": "3/8", "2": "1/8"}
    # The same dice given as what they scored give the same answer.
    assert rules_py.resolve("chq-comms-check", {"nation": "soviet"}, "=2")["odds"] == doc["odds"]


def test_air_strike_with_its_first_chart_roll_given():
    # A 2 on the chart: the skies are empty on turn 1. Each later chart roll
    # brings the aircraft (rookie 1 or attack 4-6) with 4/6 = 2/3, so with three
    # turns: turn 2 with 2/3, turn 3 with (1/3)(2/3) = 2/9, later (1/3)^2 = 1/9.
    doc = rules_py.resolve("k47-air-strike", {}, "2")
    assert doc["need"]["label"] == "air strike chart, start of turn 2" and doc["need"]["dice"] == "D6"
    assert doc["odds"]["arrival_turn"] == {"2": "2/3", "3": "2/9", "later": "1/9"}
    # A 6 on the chart: it is here on turn 1, for certain.
    assert rules_py.resolve("k47-air-strike", {}, "6")["odds"]["arrival_turn"] == {"1": "1"}


def test_counter_battery_after_a_miss():
    # Three enemy batteries, each throw spotting on 5+ (1/3). After a miss (2)
    # two throws are left: spotted 1 - (2/3)^2 = 5/9; a second throw is always
    # made (attempts 2 if it spots, 1/3; otherwise 3, 2/3).
    doc = rules_py.resolve("po-counter-battery", {}, "2")
    assert doc["odds"]["spotted"] == {"false": "4/9", "true": "5/9"}
    assert doc["odds"]["attempts"] == {"1": "0", "2": "1/3", "3": "2/3"} or doc["odds"]["attempts"] == {"2": "1/3", "3": "2/3"}


def test_konrad_supply_needs_no_dice():
    # Konrad's calculators roll nothing: resolving them is done at once, with
    # the outcomes a roll gives.
    doc = rules_py.resolve("konrad-supply", {"distance": "7"})
    assert doc["status"] == "done" and doc["given"] == [] and "need" not in doc
    assert doc["outcomes"] == rules_py.roll("konrad-supply", 1, {"distance": "7"})["outcomes"] == {"modifier": "-1"}


def test_the_resolution_is_done_when_every_roll_is_given():
    # Seed 7, Soviet comms (tests/test_answer.py): 3 2 4 against 6 1 1, one success each: no.
    doc = rules_py.resolve("chq-comms-check", {"nation": "soviet"}, "3,2,4,6,1,1")
    assert doc["status"] == "done" and doc["outcomes"] == {"success": "false", "margin": "0"}
    assert doc["odds"]["success"] == {"false": "1", "true": "0"}


# ---------------------------------------------------------------- bad dice


@pytest.mark.parametrize(
    ("calc", "dice", "message"),
    [
        ("k47-air-strike", "7", "dice: air strike chart, start of turn 1: 7 is not a face of a D6"),
        ("k47-air-strike", "x", "dice: die 1: 'x' is not a face"),
        ("k47-air-strike", "0", "is not a face of a D6"),
        ("k47-air-strike", "=1", "air strike chart, start of turn 1: =1 is not a face of a D6"),
        ("chq-comms-check", "=5", "comms dice: 4D6 cannot score =5"),
        ("chq-comms-check", "4,5", "comms dice: 4D6 needs 4 faces, and 2 are given"),
        ("chq-comms-check", "1,1,1,1,1,1,1,1,6,6", "the procedure ended after 7 dice; 3 more were given"),  # Germany: 4 comms dice and 3 opposing
        ("chq-fire-for-effect", "=2/3", "4D6 cannot score =2/3"),
    ],
)
def test_bad_dice_are_one_error(calc, dice, message):
    with pytest.raises(InputError) as caught:
        rules_py.resolve(calc, {}, dice)
    assert message in str(caught.value), str(caught.value)
    if dice not in ("7", "=5"):
        return  # the command line's one error line is the same message: two cases run it
    out = subprocess.run([sys.executable, "-m", "rules_py", "resolve", calc, "--dice", dice], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith("error: ") and message in out.stderr and out.stderr.count("\n") == 1, out.stderr


def test_a_score_short_of_a_count_names_the_count_it_needs_and_why():
    # Issue 34: the Cover and partial-target dice of this reading count
    # successes and 6s (their 6s are shown though they do not count toward
    # the unit's), so "=2" (one count) is refused, and the message says the
    # pool wants its sixes too, with a score of that shape the 2D6 at 5+ can
    # make: both dice 5s is 2 successes and no six, =2/0.
    inputs = {"fire_dice": "2", "reaction_dice": "2", "cover": "medium", "extra_dice_target": "5", "extra_dice_sixes": "false",
              "disruptions": "if_suppressed", "suppressed_without_disruption": "true"}
    assert rules_py.resolve("chq-fire-for-effect", inputs, "=2/0,=0/0,=2/0")["status"] == "done"
    with pytest.raises(InputError) as caught:
        rules_py.resolve("chq-fire-for-effect", inputs, "=2/0,=0/0,=2")
    message = str(caught.value)
    assert message.startswith("dice: unit's Cover and partial-target dice (2D6, 5+): successes and 6s: 2D6 cannot score =2: "), message
    assert "counts successes and sixes, so give its sixes too, such as =2/0" in message
    assert "each die is read for every count, even where a reading leaves one out" in message  # why: these 6s do not count here
    # One count too many for a pool of successes only: give one number.
    with pytest.raises(InputError, match=r"comms dice: 4D6 cannot score =1/2: this pool counts successes only, so give 1 number, such as =1$"):
        rules_py.resolve("chq-comms-check", {}, "=1/2")


def test_cli_resolve_prints_the_document_and_answer_its_typed_form():
    out = subprocess.run([sys.executable, "-m", "rules_py", "resolve", "chq-comms-check", "nation=soviet", "--dice", "4,5,1"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == rules_py.resolve("chq-comms-check", {"nation": "soviet"}, "4,5,1")
    typed = subprocess.run([sys.executable, "-m", "rules_py", "answer", "chq-comms-check", "nation=soviet", "--dice", "4,5,1"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    doc = json.loads(typed.stdout)
    assert doc["kind"] == "resolve" and doc["status"] == "need" and doc["need"]["label"] == "opposing dice"
    assert doc["headline"] == "Check succeeds 50.0%"
    assert [s["value"] for s in doc["need"]["scores"]] == ["0", "1", "2", "3"]
    both = subprocess.run([sys.executable, "-m", "rules_py", "answer", "chq-comms-check", "--dice", "4", "--seed", "3"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert both.returncode == 2 and "not both" in both.stderr


def test_call_json_resolves():
    req = {"op": "resolve", "id": "chq-comms-check", "inputs": {"nation": "soviet"}, "dice": "4,5,1"}
    assert json.loads(rules_py.call_json(json.dumps(req))) == rules_py.resolve("chq-comms-check", {"nation": "soviet"}, "4,5,1")
    bad = json.loads(rules_py.call_json(json.dumps({**req, "dice": [4, 5]})))
    assert bad["fields"] == [{"field": "dice", "message": "dice must be text: faces separated by commas"}]


def test_each_roll_given_says_the_entries_it_read():
    # Fire for effect, converged, no reaction dice: the battery's 5D6 reads five
    # faces, the unit's 0D6 none (a pool of no dice is logged, and read nothing),
    # so Undo takes the five back, not one face of them (issue 34, attack run item 5).
    inputs = {"sheaf": "converged", "reaction_dice": "0", "extra_dice_target": "3", "disruptions": "one_if_more"}
    doc = rules_py.answer("chq-fire-for-effect", inputs, dice="2,1,6,2,1")
    assert [(d["dice"], d["entries"]) for d in doc["given"]] == [("5D6", ["2", "1", "6", "2", "1"]), ("0D6", [])]
    # A pool given by its score read that one entry; blanks around an entry are the parser's to drop.
    doc = rules_py.answer("chq-fire-for-effect", {}, dice=" =2/1 , =1/0")
    assert [d["entries"] for d in doc["given"]] == [["=2/1"], ["=1/0"]]


@pytest.mark.parametrize("dice", ["6,,3", "2,", ",2", "2, ,3"])
def test_an_empty_entry_is_refused_as_the_cli_refuses_it(dice):
    # What a link's dice= takes is what --dice takes: an empty entry is no face (issue 34, item 4).
    doc = json.loads(rules_py.call_json(json.dumps({"op": "answer", "id": "k47-air-strike", "inputs": {}, "dice": dice})))
    assert [f["field"] for f in doc["fields"]] == ["dice"] and "'' is not a face" in doc["fields"][0]["message"]
    out = subprocess.run([sys.executable, "-m", "rules_py", "resolve", "k47-air-strike", "--dice", dice], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and doc["fields"][0]["message"] in out.stderr


@pytest.mark.parametrize("name, value", [("seed", ["1", "2"]), ("dice", ["2", "3"]), ("sweep", ["turns", "target"])])
def test_a_link_giving_seed_dice_or_sweep_twice_is_refused(name, value):
    # The page sends every text of a parameter its link gave twice: refused in the
    # words a repeated input gets (Calculator.validate), on that parameter (issue 34, item 7).
    doc = json.loads(rules_py.call_json(json.dumps({"op": "answer", "id": "k47-air-strike", "inputs": {}, name: value})))
    assert doc["fields"] == [{"field": name, "message": f"given 2 times: give {name} once"}]
    vs = json.loads(rules_py.call_json(json.dumps({"op": "compare", "id": "chq-comms-check", "inputs": {}, "vs": {"nation": ["soviet", "usa"]}})))
    assert vs["fields"] == [{"field": "vs.nation", "message": "given 2 times: give nation once"}]


def test_dice_text_round_trips():
    assert parse_dice(" 6, 3 ,=2/1,=0 ") == [6, 3, Counted((2, 1)), Counted(0)]
    assert dice_text(parse_dice("6,3,=2/1,=0")) == "6,3,=2/1,=0"
    assert parse_dice("") == []
    with pytest.raises(InputError, match="at most 200"):
        parse_dice(",".join(["1"] * 201))


def test_calculators_json_gives_the_dice_limit_the_engine_keeps():
    # The page refuses a player's dice past the calculator's max_dice before asking the
    # engine (own-dice.mjs): the number is the engine's, 200 entries, given to every
    # calculator that rolls dice and to no other; the engine takes 200 and refuses 201.
    for calc in rules_py.calculators():
        assert calc.schema().get("max_dice") == (200 if calc.rolls_dice else None), calc.id
    assert any(not calc.rolls_dice for calc in rules_py.calculators())
    assert len(parse_dice(",".join(["1"] * 200))) == 200
    with pytest.raises(InputError, match="201 dice given: at most 200"):
        parse_dice(",".join(["1"] * 201))


# ---------------------------------------------------------------- properties over every calculator


def faces_of(roll: dict) -> list[int]:
    return [face for entry in roll["dice"] for face in entry["faces"]]


@pytest.mark.parametrize("calc", CALCS, ids=[c.id for c in CALCS])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_a_rolls_dice_given_back_resolve_to_that_roll(calc, data, seed):
    raw = data.draw(valid_inputs(calc, as_strings=True))
    try:
        roll = rules_py.roll(calc.id, seed, raw)
    except InputError:
        return  # inputs a cross-field check refuses: nothing to roll
    doc = rules_py.resolve(calc.id, raw, ",".join(map(str, faces_of(roll))))
    assert doc["status"] == "done" and doc["outcomes"] == roll["outcomes"]
    assert doc["given"] == roll["dice"]
    # The pools given by what they scored instead of their faces: the same roll.
    counted = []
    for entry in roll["dice"]:
        pooled = len(entry["faces"]) > 1 and entry["dice"] != "D6"
        counted.append("=" + "/".join(map(str, entry["result"])) if pooled and isinstance(entry["result"], list) else "=" + str(entry["result"]) if pooled and isinstance(entry["result"], int) else ",".join(map(str, entry["faces"])))
    again = rules_py.resolve(calc.id, raw, ",".join(c for c in counted if c))
    assert again["outcomes"] == roll["outcomes"]


@pytest.mark.parametrize("calc", CALCS, ids=[c.id for c in CALCS])
def test_with_no_dice_the_odds_are_the_plain_odds(calc):
    for raw in ({}, *calc.examples):
        assert rules_py.resolve(calc.id, raw)["odds"] == rules_py.odds(calc.id, raw)["outcomes"]


def _next_entries(need: dict, dist_table) -> list[tuple[str, Fraction]]:
    """The next roll's possible entries with their chances: a die's faces, or a pool's scores."""
    if need["count"] == 1 and dist_table is None:
        return [(str(f), Fraction(1, need["faces"])) for f in range(1, need["faces"] + 1)]
    return [("=" + ("/".join(map(str, v)) if isinstance(v, tuple) else str(v)), p) for v, p in dist_table.pairs()]


@pytest.mark.parametrize("calc", DICE, ids=[c.id for c in DICE])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32), cut=st.integers(0, 6))
def test_odds_given_some_dice_are_the_mean_over_the_next_roll(calc, data, seed, cut):
    from rules_py.answer import Resolution

    raw = data.draw(valid_inputs(calc, as_strings=True))
    try:
        roll = rules_py.roll(calc.id, seed, raw)
    except InputError:
        return
    entries = [",".join(map(str, e["faces"])) for e in roll["dice"]][: min(cut, len(roll["dice"]))]
    prefix = ",".join(e for e in entries if e)
    here = Resolution(calc, raw, parse_dice(prefix))
    if here.need is None:
        return
    need = here.cli()["need"]
    table = None if here.need.table is None else _pool(here.need.count, here.need.sides, here.need.table)
    if here.need.table is not None and here.need.count == 1:
        table = _pool(1, here.need.sides, here.need.table)
    mixed: dict[str, dict[str, Fraction]] = {}
    for entry, p in _next_entries(need, table):
        further = odds_of(rules_py.resolve(calc.id, raw, f"{prefix},{entry}" if prefix else entry))
        for name, values in further.items():
            for value, q in values.items():
                mixed.setdefault(name, {}).setdefault(value, Fraction(0))
                mixed[name][value] += p * q
    now = odds_of(here.cli())
    for name in now:
        assert {v: q for v, q in now[name].items() if q} == {v: q for v, q in mixed[name].items() if q}, (calc.id, raw, prefix, name)


def test_typed_resolutions_meet_the_schema():
    import jsonschema

    schema = json.loads((Path(rules_py.__file__).parent / "data" / "answer.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    for calc in CALCS:
        roll = rules_py.roll(calc.id, 11)
        faces = faces_of(roll)
        for cut in (0, len(faces) // 2, len(faces)):
            try:
                doc = rules_py.answer(calc.id, {}, dice=",".join(map(str, faces[:cut])))
            except InputError:
                continue  # a cut through a pool's faces
            validator.validate(doc)
            assert doc["status"] == ("done" if cut == len(faces) else doc["status"])


def test_cli_takes_no_dice_as_an_empty_list():
    # --dice "" is no dice yet (a page's first ask), not a missing value.
    out = subprocess.run([sys.executable, "-m", "rules_py", "resolve", "k47-medic", "--dice", ""], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and json.loads(out.stdout)["status"] == "need", out.stderr
