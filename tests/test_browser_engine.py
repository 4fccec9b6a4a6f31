"""What the browser's engine is given: call_json's "describe" answers, and the wheel.

No browser here: these check the Python side of the contract that
docs/assets/calc/ relies on, on every registered calculator.
"""

from __future__ import annotations

import base64
import hashlib
import json
import zipfile
from pathlib import Path

import pytest

import rules_py
from conftest import ROOT

CALCS = rules_py.calculators()
IDS = [c.id for c in CALCS]
GENERATED = ROOT / "docs" / "assets" / "generated"


def call(**request) -> dict:
    return json.loads(rules_py.call_json(json.dumps(request)))


def test_describe_keeps_the_clis_order_that_javascript_objects_lose():
    # Soviet Union, no boosts: 3 comms dice against 3, margin from -3 to 3. JSON.parse would
    # put "0", "1", "2", "3" (array-index keys) before "-3", "-2", "-1"; "order" keeps the CLI's.
    answer = call(op="odds", id="chq-comms-check", inputs={"nation": "soviet"}, describe=True)
    margin = next(d for d in answer["described"] if d["name"] == "margin")
    assert margin["order"] == ["-3", "-2", "-1", "0", "1", "2", "3"]
    assert margin["type"] == "int" and margin["label"] == "Margin"
    success = next(d for d in answer["described"] if d["name"] == "success")
    assert success["order"] == ["false", "true"]
    # P(success) = P(Bin(3,1/2) > Bin(3,1/2)) = (1 - P(tie)) / 2 = (1 - 20/64) / 2 = 11/32
    assert answer["outcomes"]["success"] == {"false": "21/32", "true": "11/32"}


def test_without_describe_the_answer_is_the_clis():
    assert "described" not in call(op="odds", id="chq-comms-check")
    assert call(op="odds", id="chq-comms-check") == rules_py.odds("chq-comms-check")


@pytest.mark.parametrize("calc", CALCS, ids=IDS)
def test_describe_lists_every_outcome_and_value_in_order(calc):
    for raw in ({}, *calc.examples):
        answer = call(op="odds", id=calc.id, inputs=raw, describe=True)
        assert [d["name"] for d in answer["described"]] == list(answer["outcomes"])
        for d in answer["described"]:
            assert d["order"] == list(answer["outcomes"][d["name"]])
        rolled = call(op="roll", id=calc.id, inputs=raw, seed=7, describe=True)
        assert [d["name"] for d in rolled["described"]] == list(rolled["outcomes"])
        assert all(d["order"] == [rolled["outcomes"][d["name"]]] for d in rolled["described"])


def test_errors_are_not_described():
    answer = call(op="odds", id="chq-comms-check", inputs={"boosts": "-1"}, describe=True)
    assert set(answer) == {"error", "fields"}
    assert answer["fields"][0]["field"] == "boosts"


@pytest.fixture(scope="module")
def wheel() -> Path:
    runtime = GENERATED / "runtime.json"
    if not runtime.exists():
        pytest.fail("docs/assets/generated is not built: run `make site`")
    return GENERATED / json.loads(runtime.read_text())["wheel"]


def test_runtime_names_the_wheel_and_its_hash(wheel):
    runtime = json.loads((GENERATED / "runtime.json").read_text())
    assert runtime["sha256"] == hashlib.sha256(wheel.read_bytes()).hexdigest()
    assert runtime["pyodide"] == json.loads((ROOT / "node_modules" / "pyodide" / "package.json").read_text())["version"]


def test_wheel_has_pyodide_bytecode_for_every_module_listed_in_record(wheel):
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        modules = {n for n in names if n.endswith(".py")}
        assert "rules_py/dice.py" in modules
        for module in modules:
            folder, _, name = module.rpartition("/")
            pyc = f"{folder}/__pycache__/{name[:-3]}.cpython-314.pyc"
            assert pyc in names, pyc
            data = z.read(pyc)
            # PEP 552 header: magic, then flags 0b01 (hash-based, unchecked), then the source hash.
            assert int.from_bytes(data[4:8], "little") == 0b01, pyc
        (record_name,) = [n for n in names if n.endswith(".dist-info/RECORD")]
        record = {}
        for line in z.read(record_name).decode().splitlines():
            path, digest, size = line.rsplit(",", 2)
            record[path] = (digest, size)
        assert set(record) == names
        for path in names - {record_name}:
            data = z.read(path)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert record[path] == (f"sha256={digest}", str(len(data))), path
