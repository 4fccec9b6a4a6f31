"""The procedures that fold (fire for effect, the comms check) print the odds
the replay printed, to the byte: every outcome of each case recorded before
the change (tests/odds_before_folds.json.gz, made by scripts/engine_snapshot.py
from the defaults, every example and hypothesis-drawn inputs, fire for effect
also over a grid of its extreme inputs under every reading). Outcomes only:
the notes are prose, free to change."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from rules_py import odds

CASES = json.loads(gzip.decompress((Path(__file__).parent / "odds_before_folds.json.gz").read_bytes()))


def test_the_record_covers_both_procedures_and_fire_for_effects_readings():
    ids = {c["id"] for c in CASES}
    assert ids == {"chq-fire-for-effect", "chq-comms-check"}
    ffe = [c["inputs"] for c in CASES if c["id"] == "chq-fire-for-effect"]
    assert {i.get("disruptions", "unopposed") for i in ffe} == {"unopposed", "one_if_more", "if_suppressed"}
    assert {str(i.get("suppressed_without_disruption", "false")).lower() for i in ffe} == {"false", "true"}
    assert len(CASES) > 600


@pytest.mark.parametrize("calc_id", ["chq-fire-for-effect", "chq-comms-check"])
def test_outcomes_byte_identical(calc_id):
    for case in (c for c in CASES if c["id"] == calc_id):
        got = odds(calc_id, case["inputs"])["outcomes"]
        assert json.dumps(got) == json.dumps(case["outcomes"]), case["inputs"]
