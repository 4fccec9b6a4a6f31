"""The registry's index: the site's wheel names each calculator's module, so that
the browser's first answer imports that module alone (rules_py.registry).

Each case runs in a fresh interpreter, where nothing of rules_py is imported
yet, with the index the wheel would carry put in place of the file (a source
tree has none). The odds asked for are Soviet comms with no boosts, worked out
by hand in tests/test_chq_comms.py: P(success) = 11/32.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import rules_py
from conftest import ROOT
from rules_py import registry

CALC_ID = "chq-comms-check"

PROBE = """
import json, sys
import rules_py
from rules_py import registry
registry._index = lambda: json.loads(sys.argv[1])
odds = rules_py.odds(%r, {"nation": "soviet"})
procedures = sorted(n for n in sys.modules if n.startswith("rules_py.") and n.count(".") == 2 and n.split(".")[1] not in ("dice", "answer"))  # the engine's own packages are not procedures
first = rules_py.get(%r)
same = first is next(c for c in rules_py.calculators() if c.id == first.id)
print(json.dumps({"p": odds["outcomes"]["success"]["true"], "procedures": procedures, "same": same}))
"""


def probe(index: dict[str, str]) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", PROBE % (CALC_ID, CALC_ID), json.dumps(index)],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=True,
    )
    return json.loads(out.stdout)


def test_modules_name_the_module_that_registers_each_calculator():
    found = registry.modules()
    assert sorted(found) == sorted(c.id for c in rules_py.calculators())
    for calc_id, name in found.items():
        module = sys.modules[name]
        assert [c.id for c in module.CALCULATORS].count(calc_id) == 1, (calc_id, name)
    assert found[CALC_ID] == "rules_py.combat_hq.comms"


def test_with_the_wheel_s_index_the_first_answer_imports_its_module_alone():
    report = probe(registry.modules())
    assert report["p"] == "11/32"
    assert report["procedures"] == ["rules_py.combat_hq.comms"]
    assert report["same"] is True  # discovery afterwards finds the very same calculator


@pytest.mark.parametrize(
    "index",
    [{}, {CALC_ID: "rules_py.konflikt47.flak"}, {CALC_ID: "rules_py.combat_hq.no_such_module"}, {CALC_ID: "os"}, {CALC_ID: 7}],
    ids=["no-entry", "wrong-module", "missing-module", "outside-rules-py", "not-a-name"],
)
def test_an_index_that_cannot_say_is_passed_over_for_discovery(index):
    report = probe(index)
    assert report["p"] == "11/32"
    # Discovery imported every procedure module.
    assert set(registry.modules().values()) <= set(report["procedures"])
    assert report["same"] is True


def test_a_source_tree_has_no_index():
    assert not (ROOT / "rules_py" / "data" / registry.INDEX).exists()
    assert registry._index() == {}
