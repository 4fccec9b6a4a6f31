"""rules_py.sweep and ``odds --sweep``: one input over every value it allows,
each row exactly what plain ``odds`` prints at that value."""

from __future__ import annotations

import json
import subprocess
import sys

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


def test_what_it_takes_when_nothing_reaches_it():
    # Germany: 4 comms dice against 3, P(Binomial(7, 1/2) >= 4) = 1/2; air
    # recon's die makes it Binomial(8, 1/2): 163/256 = 63.7 %. 50 % is reached
    # without it; 75 % and 90 % never.
    from rules_py.sweep import sweep_answer

    doc = sweep_answer("chq-comms-check", {}, "air_recon")
    assert [(row["label"], row["text"], row["bar"]) for row in doc["values"]] == [("no", "50.0%", "50.00"), ("yes", "63.7%", "63.67")]
    assert [r["value"] for r in doc["reaches"]] == ["false", None, None]
    assert doc["reaches"][2]["text"] == "90.0% check succeeds: no value of air recon reaches it"


def test_a_sweep_of_a_number_outcome_has_averages_and_no_targets():
    # k47-medic: saved ~ Binomial(n, 1/6), so the average is n/6: bars on the largest (30/6 = 5).
    from rules_py.sweep import sweep_answer

    doc = sweep_answer("k47-medic", {}, "casualties")
    # An average reaches no chance: "what it takes" does not apply, and says so with null
    # (as guides/command-line.md and the schema say), not with an empty list of targets.
    assert doc["measure"] == "mean" and doc["reaches"] is None
    assert json.loads(rules_py.call_json(json.dumps({"op": "answer", "id": "k47-medic", "sweep": "casualties"})))["reaches"] is None
    assert [(r["value"], r["number"], r["bar"]) for r in doc["values"][:4]] == [("0", "0", "0.00"), ("1", "1/6", "3.33"), ("2", "1/3", "6.67"), ("3", "1/2", "10.00")]


def test_typed_sweeps_meet_the_schema_and_call_json_gives_them():
    import jsonschema

    from rules_py.sweep import sweep_answer

    schema = json.loads((ROOT / "rules_py" / "data" / "answer.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    for calc_id, name in dict(reversed(SWEPT)).items():  # one input per calculator (its first): the shape is the same
        validator.validate(sweep_answer(calc_id, {}, name))
    req = {"op": "answer", "id": "chq-comms-check", "inputs": {"nation": "soviet"}, "sweep": "boosts"}
    assert json.loads(rules_py.call_json(json.dumps(req))) == sweep_answer("chq-comms-check", {"nation": "soviet"}, "boosts")
    plain = {"op": "sweep", "id": "chq-comms-check", "sweep": "boosts"}
    assert json.loads(rules_py.call_json(json.dumps(plain))) == sweep("chq-comms-check", {}, "boosts")
    out = run("answer", "chq-comms-check", "nation=soviet", "--sweep", "boosts")
    assert out.returncode == 0 and json.loads(out.stdout)["reaches"][0]["value"] == "1"
