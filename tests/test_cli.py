"""The command line contract: list, odds, roll, and exit 2 with one error line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import ROOT
import rules_py


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rules_py", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_list_one_calculator_a_line():
    out = run("list")
    assert out.returncode == 0 and out.stderr == ""
    lines = out.stdout.splitlines()
    assert lines == [f"{c.id} {c.title}" for c in rules_py.calculators()]
    assert "chq-comms-check Combat HQ comms check" in lines


def test_odds_json_shape():
    out = run("odds", "chq-comms-check", "nation=soviet", "boosts=1")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert list(data) == ["calculator", "inputs", "outcomes", "notes"]
    assert data["calculator"] == "chq-comms-check"
    assert data["inputs"] == {"nation": "soviet", "boosts": "1", "air_recon": "false"}  # defaults included
    # Soviet 3D + 1 boost = 4D against 3D: exactly 1/2 (see test_chq_comms).
    assert data["outcomes"]["success"] == {"false": "1/2", "true": "1/2"}
    margins = list(data["outcomes"]["margin"])
    assert margins == [str(m) for m in sorted(int(m) for m in margins)]  # ascending integers
    assert data["notes"] == []


def test_roll_json_shape_and_repeatable():
    a = run("roll", "chq-comms-check", "--seed", "99", "nation=usa")
    b = run("roll", "chq-comms-check", "nation=usa", "--seed=99")
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    data = json.loads(a.stdout)
    assert data["seed"] == 99 and data["inputs"]["nation"] == "usa"
    assert [d["dice"] for d in data["dice"]] == ["4D6", "3D6"]
    own, opposed = (sum(f >= 4 for f in d["faces"]) for d in data["dice"])
    assert data["outcomes"] == {"success": "true" if own > opposed else "false", "margin": str(own - opposed)}


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["frobnicate"],
        ["list", "extra"],
        ["odds"],
        ["odds", "no-such-calculator"],
        ["odds", "chq-comms-check", "nation=atlantis"],
        ["odds", "chq-comms-check", "boosts=-1"],
        ["odds", "chq-comms-check", "boosts=two"],
        ["odds", "chq-comms-check", "air_recon=yes"],
        ["odds", "chq-comms-check", "colour=red"],
        ["odds", "chq-comms-check", "boosts"],
        ["odds", "chq-comms-check", "boosts=1", "boosts=2"],
        ["roll", "chq-comms-check"],
        ["roll", "chq-comms-check", "--seed"],
        ["roll", "chq-comms-check", "--seed", "-4"],
        ["roll", "chq-comms-check", "--seed", "1.5"],
        ["roll", "chq-comms-check", "--seed", "\u00b2"],
        ["roll", "chq-comms-check", "--seed", "1", "--seed", "2"],
        ["roll", "chq-comms-check", "--seed", "18446744073709551616"],
        ["odds", "chq-comms-check", "boosts=" + "9" * 131_000],
    ],
)
def test_bad_input_exits_2_with_one_error_line(args):
    out = run(*args)
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), out.stderr


def test_error_names_field_and_allowed_values():
    out = run("odds", "chq-comms-check", "nation=atlantis")
    assert "nation" in out.stderr and "commonwealth, germany, soviet, usa" in out.stderr


def test_answer_command_prints_the_typed_answer():
    out = run("answer", "chq-comms-check", "nation=soviet")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == rules_py.answer("chq-comms-check", {"nation": "soviet"})
    rolled = run("roll", "chq-comms-check", "--seed", "Konrad day 3", "--answer", "nation=usa")
    assert json.loads(rolled.stdout) == rules_py.answer("chq-comms-check", {"nation": "usa"}, "Konrad day 3")
    assert json.loads(run("answer", "chq-comms-check", "--seed", "5").stdout)["kind"] == "roll"


def test_the_command_a_roll_prints_repeats_it():
    doc = rules_py.answer("chq-fire-for-effect", {"fire_dice": "6", "cover": "light"}, "Konrad day 3, sector 14")
    import shlex

    again = run(*shlex.split(doc["command"])[3:])
    assert again.returncode == 0, again.stderr
    data = json.loads(again.stdout)
    assert [d["faces"] for d in data["dice"]] == [[f["face"] for f in d["faces"]] for d in doc["dice"]]
    assert data["outcomes"] == {o["name"]: o["value"] for o in doc["outcomes"]}


def test_a_full_output_gives_one_error_line_not_a_traceback():
    with open("/dev/full", "w") as full:
        out = subprocess.run([sys.executable, "-m", "rules_py", "odds", "chq-comms-check"], cwd=ROOT, stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert out.returncode == 1  # not 2: the input was good
    assert out.stderr.startswith("error: ") and len(out.stderr.strip().splitlines()) == 1, out.stderr


def test_a_name_given_twice_is_refused_alike_in_the_cli_and_call_json():
    out = run("odds", "chq-comms-check", "nation=usa", "nation=soviet")
    assert out.returncode == 2 and out.stdout == ""
    answer = json.loads(rules_py.call_json(json.dumps({"op": "answer", "id": "chq-comms-check", "inputs": {"nation": ["usa", "soviet"]}})))
    assert out.stderr == f"error: {answer['error']}\n"
    assert answer["fields"] == [{"field": "nation", "message": "given 2 times: give nation once"}]
