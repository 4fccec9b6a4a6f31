"""rules_py.sweep and ``odds --sweep``: one input over every value it allows,
each row exactly what plain ``odds`` prints at that value."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest
from conftest import ROOT

import rules_py
from rules_py import calculators, get, odds, sweep
from rules_py.__main__ import main
from rules_py.calculator import InputError
from rules_py.sweep import values_of

SWEPT = [(c.id, f.name) for c in calculators() for f in c.fields if f.type in ("bool", "choice") or (f.type == "int" and f.minimum is not None and f.maximum is not None)]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rules_py", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("calc_id, name", SWEPT)
def test_every_row_is_plain_odds(calc_id, name):
    calc = get(calc_id)
    base: dict = {}  # the defaults: an example's heavier inputs cost make check seconds
    got = sweep(calc_id, base, name)
    assert got["calculator"] == calc_id and got["sweep"] == name and name not in got["inputs"]
    assert [row["value"] for row in got["values"]] == values_of(calc.field(name))
    for row in got["values"]:
        try:
            expected = odds(calc_id, {**base, name: row["value"]})["outcomes"]
        except InputError as e:
            assert row == {"value": row["value"], "error": str(e)}
            continue
        assert row["outcomes"] == expected, row["value"]


def test_the_schema_says_which_inputs_a_sweep_takes():
    # calculators.json's sweepable, which the page offers to sweep (sweep.mjs), marks the
    # inputs the engine sweeps (SWEPT: the rule written out above) and no other: every
    # other input is refused, in words, and some are (maps, numbers without bounds).
    marked = [(c.id, f["name"]) for c in calculators() for f in c.schema()["fields"] if f["sweepable"]]
    assert marked == SWEPT
    others = [f for c in calculators() for f in c.fields if (c.id, f.name) not in SWEPT]
    assert {f.type for f in others} >= {"map"}
    for field in others:
        with pytest.raises(InputError, match=f"cannot sweep '{field.name}'"):
            values_of(field)


def test_values_in_the_schemas_order():
    ffe = get("chq-fire-for-effect")
    # Fire Dice 1..12, the choices as listed, a yes/no as false then true.
    assert values_of(ffe.field("fire_dice")) == [str(n) for n in range(1, 13)]
    assert values_of(ffe.field("disruptions")) == ["unopposed", "one_if_more", "if_suppressed"]
    assert values_of(ffe.field("partial")) == ["false", "true"]


def test_fire_dice_by_hand():
    # 1 and 2 Fire Dice against 1 Reaction Die, all on 4+: forced back when
    # hits exceed saves: Bin(1, 1/2) > Bin(1, 1/2) is 1/4; with two dice
    # P(2 hits) (1/4) + P(1 hit) P(0 saves) (1/2 * 1/2): 1/2.
    rows = sweep("chq-fire-for-effect", {"reaction_dice": "1"}, "fire_dice")["values"]
    assert rows[0]["outcomes"]["forced_back"]["true"] == "1/4"
    assert rows[1]["outcomes"]["forced_back"]["true"] == "1/2"


def test_cli_prints_the_sweep():
    out = run("odds", "chq-comms-check", "nation=soviet", "--sweep", "air_recon")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == rules_py.sweep("chq-comms-check", {"nation": "soviet"}, "air_recon")
    assert list(json.loads(out.stdout)) == ["calculator", "sweep", "inputs", "values"]


@pytest.mark.parametrize(
    "args, says",
    [
        (("chq-comms-check", "--sweep", "bogus"), "cannot sweep 'bogus'"),
        (("konrad-supply", "--sweep", "map"), "it is a map"),
        (("chq-comms-check", "boosts=1", "--sweep", "boosts"), "boosts is swept"),
        (("chq-comms-check", "--sweep"), "needs an input's name"),
        (("chq-comms-check", "--sweep", "boosts", "--vs", "boosts=2"), "name=value inputs only"),
        (("chq-comms-check", "--sweep", "boosts", "--sweep", "nation"), "given twice"),
        (("chq-comms-check", "boosts=x", "--sweep", "nation"), "boosts"),
    ],
)
def test_cli_refuses_in_one_line(args, says, capsys):
    # In this process (the CLI's main, as `python -m rules_py` runs it): a process per case costs make check seconds.
    assert main(["odds", *args]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    lines = out.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], out.err


# ---------------------------------------------------------------- the typed sweep: what it takes


def test_what_it_takes_by_hand():
    # Soviet comms: 3 + b comms dice against 3 opposing dice, all scoring on 4+.
    # C > O exactly when C + (3 - O) >= 4, and C + (3 - O) ~ Binomial(6 + b, 1/2):
    # b = 0: 22/64 = 34.4 %; b = 1: 1/2; b = 2: 1 - 93/256 = 63.7 %;
    # b = 3: 1 - 130/512 = 74.6 % (short of 75 %); b = 4: 1 - 176/1024 = 82.8 %;
    # b = 5: 1 - 232/2048 = 88.7 %; b = 6: 1 - 299/4096 = 92.7 %.
    from rules_py.sweep import sweep_answer

    doc = sweep_answer("chq-comms-check", {"nation": "soviet"}, "boosts")
    assert doc["outcome"]["name"] == "success" and doc["measure"] == "chance"
    assert [row["number"] for row in doc["values"][:7]] == ["11/32", "1/2", "163/256", "191/256", "53/64", "227/256", "3797/4096"]
    assert [(r["target_percent"], r["value"]) for r in doc["reaches"]] == [("50.0%", "1"), ("75.0%", "4"), ("90.0%", "6")]
    assert doc["reaches"][1]["text"] == "75.0% check succeeds: Boosts 4"


def test_what_it_takes_where_the_chance_falls_is_the_last_value_that_reaches_it():
    # Fire for effect, 7 Fire Dice: more cover gives the unit more dice against
    # the battery's 6s, so Suppressed falls: 85.2 %, 80.0 %, 74.8 %, 69.6 % from
    # no cover to heavy. The first value would reach 50 % and 75 % alike (no
    # cover): what it takes is the most cover that still does: heavy for 50 %,
    # light for 75 % (medium is 74.8 %), none for 90 %.
    from rules_py.sweep import sweep_answer

    doc = sweep_answer("chq-fire-for-effect", {"fire_dice": "7"}, "cover")
    chances = [Fraction(row["number"]) for row in doc["values"]]
    assert [row["value"] for row in doc["values"]] == ["none", "light", "medium", "heavy"]
    assert chances == sorted(chances, reverse=True) and chances[0] > chances[-1]
    for row, chance in zip(doc["values"], chances):
        assert odds("chq-fire-for-effect", {"fire_dice": "7", "cover": row["value"]})["outcomes"]["suppressed"]["true"] == str(chance)
    assert chances[1] >= Fraction(3, 4) > chances[2]
    assert [r["value"] for r in doc["reaches"]] == ["heavy", "light", None]
    assert doc["reaches"][1]["text"] == "75.0% suppressed: Cover up to Light cover (1D)"


def test_what_it_takes_when_nothing_reaches_it():
    # Germany: 4 comms dice against 3, P(Binomial(7, 1/2) >= 4) = 1/2; air
    # recon's die makes it Binomial(8, 1/2): 163/256 = 63.7 %. 50 % is reached
    # without it; 75 % and 90 % never.
    from rules_py.sweep import sweep_answer

    doc = sweep_answer("chq-comms-check", {}, "air_recon")
    assert [(row["label"], row["text"], row["bar"]) for row in doc["values"]] == [("no", "50.0%", "50.00"), ("yes", "63.7%", "63.67")]
    assert [r["value"] for r in doc["reaches"]] == ["false", None, None]
    assert doc["reaches"][2]["text"] == "90.0% check succeeds: no value of air recon reaches it"


def test_a_sweep_of_a_number_has_averages_and_its_chance_of_at_least_1():
    # k47-medic: saved ~ Binomial(n, 1/6), so the average is n/6: bars on the largest (30/6 = 5).
    # At least one saved: 1 - (5/6)^n: n = 3: 1 - 125/216 = 91/216 = 42.1 %; n = 4:
    # 1 - 625/1296 = 671/1296 = 51.8 %, the first past 50 %; (5/6)^7 = 27.9 % and
    # (5/6)^8 = 23.3 % put 75 % at 8; (5/6)^12 = 11.2 % and (5/6)^13 = 9.3 % put 90 % at 13.
    from rules_py.sweep import sweep_answer

    doc = sweep_answer("k47-medic", {}, "casualties")
    assert doc["measure"] == "mean" and doc["outcome"]["name"] == "saved" and doc["at_least_one"] == "At least 1"
    assert [(r["value"], r["number"], r["bar"]) for r in doc["values"][:4]] == [("0", "0", "0.00"), ("1", "1/6", "3.33"), ("2", "1/3", "6.67"), ("3", "1/2", "10.00")]
    assert [r["at_least_one"] for r in doc["values"][:5]] == [
        {"number": "0", "text": "0%"}, {"number": "1/6", "text": "16.7%"}, {"number": "11/36", "text": "30.6%"},
        {"number": "91/216", "text": "42.1%"}, {"number": "671/1296", "text": "51.8%"},
    ]  # fmt: skip
    assert [(r["target_percent"], r["value"]) for r in doc["reaches"]] == [("50.0%", "4"), ("75.0%", "8"), ("90.0%", "13")]
    assert doc["reaches"][0]["text"] == "50.0% saved at least 1: Casualties 4"


def test_a_number_never_below_1_has_no_chance_to_reach():
    # k47-officer-morale's morale is a score of 2 or more at every officer: "at least 1"
    # would read 100% in every row, so the sweep gives the average alone and, as before,
    # no what it takes (null, not an empty list).
    from rules_py.sweep import sweep_answer

    doc = sweep_answer("k47-officer-morale", {}, "officer", "morale")
    assert doc["measure"] == "mean" and doc["at_least_one"] is None and doc["reaches"] is None
    assert all("at_least_one" not in r for r in doc["values"])
    got = odds("k47-officer-morale", {"officer": doc["values"][0]["value"]})["outcomes"]["morale"]
    assert min(int(v) for v, p in got.items() if p != "0") >= 1


def mean_and_some(dist: dict[str, str]) -> tuple[Fraction, Fraction]:
    """The average of a number's odds as the CLI prints them, and its chance of at least 1."""
    mean = sum((int(v) * Fraction(p) for v, p in dist.items()), Fraction(0))
    return mean, sum((Fraction(p) for v, p in dist.items() if int(v) >= 1), Fraction(0))


def test_the_air_strikes_friendly_flak_swept_for_hits_on_the_target():
    # Issue 43 item 7: the headline (driven off) barely moves with friendly flak; the
    # question is hits on the target. Each row: the average of the hits plain odds gives
    # at that value, and the chance of at least 1 hit; fewer hits with each friendly unit.
    from rules_py.sweep import sweep_answer

    doc = sweep_answer("k47-air-strike", {"flak_shots": "4"}, "friendly_flak", "hits")
    assert doc["outcome"] == {"name": "hits", "label": "Hits on the target", "type": "int"} and doc["measure"] == "mean"
    assert doc["at_least_one"] == "At least 1"
    means = []
    for row in doc["values"]:
        mean, some = mean_and_some(odds("k47-air-strike", {"flak_shots": "4", "friendly_flak": row["value"]})["outcomes"]["hits"])
        assert (Fraction(row["number"]), Fraction(row["at_least_one"]["number"])) == (mean, some), row["value"]
        means.append(mean)
    assert means == sorted(means, reverse=True) and means[0] > means[-1]
    # As the page shows it: 1 - 29/4374 (plain odds' chance of no hit there) = 99.34 %, two decimals past 99 %.
    assert doc["values"][0]["at_least_one"] == {"number": "4345/4374", "text": "99.34%"}
    # Without --of, as before: the headline's yes/no, driven off.
    assert sweep_answer("k47-air-strike", {"flak_shots": "4"}, "friendly_flak")["outcome"]["name"] == "aborted"


def test_odds_sweep_of_one_outcome_is_that_outcomes_odds():
    out = run("odds", "k47-air-strike", "flak_shots=4", "--sweep", "friendly_flak", "--of", "hits")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert list(got) == ["calculator", "sweep", "of", "inputs", "values"] and got["of"] == "hits"
    every = sweep("k47-air-strike", {"flak_shots": "4"}, "friendly_flak")
    assert got["values"] == [{"value": r["value"], "outcomes": {"hits": r["outcomes"]["hits"]}} for r in every["values"]]


def test_answer_sweep_of_on_the_command_line_and_in_call_json():
    from rules_py.sweep import sweep_answer

    want = sweep_answer("k47-air-strike", {"flak_shots": "4"}, "friendly_flak", "hits")
    out = run("answer", "k47-air-strike", "flak_shots=4", "--sweep", "friendly_flak", "--of", "hits")
    assert out.returncode == 0 and json.loads(out.stdout) == want
    req = {"op": "answer", "id": "k47-air-strike", "inputs": {"flak_shots": "4"}, "sweep": "friendly_flak", "sweep_of": "hits"}
    assert json.loads(rules_py.call_json(json.dumps(req))) == want


@pytest.mark.parametrize(
    "request_, field, says",
    [
        ({"sweep": "friendly_flak", "sweep_of": "unknown"}, "sweep_of", "cannot sweep the odds of 'unknown': the outcomes of k47-air-strike are arrival_turn, rookie, aborted, attack, hits, pins"),
        ({"sweep_of": "hits"}, "sweep_of", "give sweep, the input to sweep, too"),
        ({"sweep_of": "unknown"}, "sweep_of", "cannot sweep the odds of 'unknown'"),  # the outcome first: a page's link with no sweep yet
        ({"sweep": "friendly_flak", "sweep_of": ["hits", "pins"]}, "sweep_of", "given 2 times: give sweep_of once"),
        ({"sweep": "friendly_flak", "sweep_of": 3}, "sweep_of", "sweep_of must be the name of an outcome"),
        ({"sweep": ""}, "sweep", "a sweep needs an input's name: k47-air-strike takes flak_hits"),
        ({"sweep": "unknown"}, "sweep", "cannot sweep 'unknown': k47-air-strike takes flak_hits"),
    ],
)
def test_call_json_refuses_a_bad_sweep_of(request_, field, says):
    got = json.loads(rules_py.call_json(json.dumps({"op": "answer", "id": "k47-air-strike", "inputs": {}, **request_})))
    assert [f["field"] for f in got["fields"]] == [field] and says in got["fields"][0]["message"], got


def test_typed_sweeps_meet_the_schema_and_call_json_gives_them():
    import jsonschema

    from rules_py.sweep import sweep_answer

    schema = json.loads((ROOT / "rules_py" / "data" / "answer.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    for calc_id, name in dict(reversed(SWEPT)).items():  # one input per calculator (its first): the shape is the same
        validator.validate(sweep_answer(calc_id, {}, name))
    for outcome in get("k47-air-strike").outcomes:  # each kind of outcome: a yes/no, a number, a number from 1, a choice
        validator.validate(sweep_answer("k47-air-strike", {}, "down", outcome.name))
    req = {"op": "answer", "id": "chq-comms-check", "inputs": {"nation": "soviet"}, "sweep": "boosts"}
    assert json.loads(rules_py.call_json(json.dumps(req))) == sweep_answer("chq-comms-check", {"nation": "soviet"}, "boosts")
    plain = {"op": "sweep", "id": "chq-comms-check", "sweep": "boosts"}
    assert json.loads(rules_py.call_json(json.dumps(plain))) == sweep("chq-comms-check", {}, "boosts")
    out = run("answer", "chq-comms-check", "nation=soviet", "--sweep", "boosts")
    assert out.returncode == 0 and json.loads(out.stdout)["reaches"][0]["value"] == "1"
