"""What the browser's engine is given: call_json's typed answers, and the wheel.

These run in CPython, without a browser: they check the Python side of the
contract that docs/assets/calc/ relies on, on every registered calculator.
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


@pytest.mark.parametrize("calc", CALCS, ids=IDS)
def test_the_worker_gets_the_typed_answer(calc):
    # The page renders the typed answer as it comes (tests/test_answer.py checks its numbers).
    for raw in ({}, *calc.examples):
        assert call(op="answer", id=calc.id, inputs=raw) == rules_py.answer(calc.id, raw)
        assert call(op="answer", id=calc.id, inputs=raw, seed="7") == rules_py.answer(calc.id, raw, 7)


def test_errors_name_their_field():
    answer = call(op="answer", id="chq-comms-check", inputs={"boosts": "-1"})
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
