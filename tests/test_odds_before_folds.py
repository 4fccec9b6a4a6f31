"""The procedures that fold (fire for effect, the comms check) and the one that
chains (the Plastic Ostfront artillery shoot) print the odds the replay
printed, to the byte: every outcome of each case recorded before the change
(tests/odds_before_folds.json.gz). Fire for effect and the comms check were
recorded by scripts/support/engine_snapshot.py from the defaults, every example and
hypothesis-drawn inputs, fire for effect also over a grid of its extreme
inputs under every reading. The shoot was recorded by :func:`shoot_case`
below, at the commit before ``dice.chain`` (re-recorded there when the roll
log gained its working, meanings and rule links, the merge's first parent), from the defaults, every example,
its heaviest inputs, a grid of missions x batteries x targets x intensities
under four sets of readings and modifiers, and hypothesis-drawn inputs; for
it the record also holds "How it comes about" (the typed answer's steps),
two seeded rolls and the own-dice resolution of every prefix of a roll's
dice, since the chain changes how each of those is worked out. Outcomes and
steps only: the notes are prose, free to change."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from rules_py import answer, odds, resolve, roll

CASES = json.loads(gzip.decompress((Path(__file__).parent / "odds_before_folds.json.gz").read_bytes()))
SHOOT = "po-artillery-shoot"


def shoot_case(inputs: dict, resolve_texts: list[str] | None = None) -> dict:
    """What the record keeps of one shoot case: the odds' outcomes, the typed
    answer's steps, rolls with seeds 0 and 12345, and the resolution of each
    prefix of the second roll's dice (or of ``resolve_texts``)."""
    out = {"id": SHOOT, "inputs": inputs, "outcomes": odds(SHOOT, inputs)["outcomes"], "steps": answer(SHOOT, inputs, None)["steps"]}
    out["rolls"] = [roll(SHOOT, seed, inputs) for seed in (0, 12345)]
    if resolve_texts is None:
        faces = [d["faces"] for d in out["rolls"][1]["dice"]]
        resolve_texts = [",".join(str(f) for roll_faces in faces[:k] for f in roll_faces) for k in range(len(faces) + 1)]
    out["resolve"] = [[text, resolve(SHOOT, inputs, text)] for text in resolve_texts]
    return out


def test_the_record_covers_the_procedures_and_fire_for_effects_readings():
    ids = {c["id"] for c in CASES}
    assert ids == {"chq-fire-for-effect", "chq-comms-check", SHOOT}
    ffe = [c["inputs"] for c in CASES if c["id"] == "chq-fire-for-effect"]
    assert {i.get("disruptions", "unopposed") for i in ffe} == {"unopposed", "one_if_more", "if_suppressed"}
    assert {str(i.get("suppressed_without_disruption", "false")).lower() for i in ffe} == {"false", "true"}
    assert len(CASES) > 1000
    shoot = [c for c in CASES if c["id"] == SHOOT]
    assert len(shoot) > 350
    # Every mission and target, both ends of the batteries, fire cut to nothing and own dice part-given.
    assert {c["inputs"].get("mission", "bombardment") for c in shoot} == {"bombardment", "concentration", "creeping"}
    assert {c["inputs"].get("target", "infantry") for c in shoot} == {"infantry", "gun", "soft_vehicle", "open_afv", "afv_under_4", "afv_4_plus"}
    assert {"1", "6"} <= {c["inputs"].get("batteries") for c in shoot}
    assert any(c["outcomes"]["effective_intensity"]["0"] != "0" for c in shoot)
    assert sum(len(c["resolve"]) for c in shoot) > 3 * len(shoot)


@pytest.mark.parametrize("calc_id", ["chq-fire-for-effect", "chq-comms-check"])
def test_outcomes_byte_identical(calc_id):
    for case in (c for c in CASES if c["id"] == calc_id):
        got = odds(calc_id, case["inputs"])["outcomes"]
        assert json.dumps(got) == json.dumps(case["outcomes"]), case["inputs"]


def test_the_shoot_byte_identical_odds_steps_rolls_and_own_dice():
    for case in (c for c in CASES if c["id"] == SHOOT):
        got = shoot_case(case["inputs"], [text for text, _ in case["resolve"]])
        for key in ("outcomes", "steps", "rolls", "resolve"):
            assert json.dumps(got[key]) == json.dumps(case[key]), (key, case["inputs"])
