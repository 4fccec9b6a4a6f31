"""Benchmark: the whole missions' odds, in CPython and in the project's Pyodide.

The calculators that chain whole sequences (``chq-fire-mission``: comms
check, deviation die, fire for effect; ``k47-air-strike`` with friendly flak
that fails to hold fire) at their defaults and at their heaviest inputs:
every pool at its most dice, and the readings that cost most (below). Each
figure is cold (every cache rules_py keeps emptied first, as
``timing.clear_caches`` does) and warm (the same call again), the
median over ``--repeats``, against the engine's goals for the heaviest
inputs: 10 ms warm in CPython, 30 ms in Pyodide (issue "One engine model").

Run from the project root: ``python -m scripts.bench.bench_missions [--repeats N]``
(the Pyodide half through ``scripts/bench/bench_icepool.mjs``, given no wheel).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import TypedDict

ROOT = Path(__file__).resolve().parents[2]
GOALS_MS = {"CPython": 10.0, "Pyodide": 30.0}

# The heaviest inputs: the most dice in every pool (a converged sheaf's extra
# Fire Die, heavy cover and the partial-target die; 20 boosts and air recon);
# the Cover and partial-target dice scoring apart and their 6s left out (a
# third pool); the readings that join successes and 6s (if_suppressed,
# suppressed_without_disruption); a drift read as a partial target with the
# unit placed fully under (the fire for effect at two coverages); and a new
# check next turn (two comms checks).
MISSION_HEAVIEST = {
    "nation": "commonwealth", "boosts": "20", "air_recon": "true", "fire_dice": "12", "sheaf": "converged", "reaction_dice": "12",
    "cover": "heavy", "partial": "false", "extra_dice_target": "2", "extra_dice_sixes": "false", "disruptions": "if_suppressed",
    "suppressed_without_disruption": "true", "deviated": "partial", "delayed": "checks_again",
}
# Every flak group at its most shots, hitting on 6+ (the most flak totals below
# the abort survive), ten inexperienced friendly units of ten shots each (the
# most that fail, each failure a distinct friendly group), a Down target, and
# the most turns.
AIR_HEAVIEST = {
    "flak_shots": "30", "flak_hit_on": "6", "more_flak_shots": "30", "more_flak_hit_on": "6", "friendly_flak": "10",
    "friendly_experience": "inexperienced", "friendly_flak_shots": "10", "friendly_flak_hit_on": "6", "down": "true", "turns": "12",
}
# (calculator id, label, inputs); a list once through JSON.
Case = tuple[str, str, dict[str, str]]
CASES: list[Case] = [
    ("chq-fire-mission", "defaults", {}),
    ("chq-fire-mission", "heaviest", MISSION_HEAVIEST),
    ("k47-air-strike", "defaults", {}),
    ("k47-air-strike", "heaviest", AIR_HEAVIEST),
]


class Config(TypedDict):
    """What to time, as the Pyodide run is given it too."""

    repeats: int
    cases: list[Case]


class Row(TypedDict):
    id: str
    label: str
    cold: float
    warm: float


class Figures(TypedDict):
    """One runtime's figures."""

    runtime: str
    version: str
    rows: list[Row]


def run_all(config: Config) -> Figures:
    """Every figure in this runtime (CPython, or Pyodide through pyodide_main)."""
    import rules_py
    from scripts.bench.timing import clear_caches, elapsed_ms

    rows: list[Row] = []
    for calc_id, label, inputs in config["cases"]:
        calc = rules_py.get(calc_id)
        cold: list[float] = []
        warm: list[float] = []
        for _ in range(config["repeats"]):
            clear_caches()
            cold.append(elapsed_ms(lambda: calc.odds(inputs)))  # noqa: B023 (called at once)
            warm.append(elapsed_ms(lambda: calc.odds(inputs)))  # noqa: B023
        rows.append({"id": calc_id, "label": label, "cold": statistics.median(cold), "warm": statistics.median(warm)})
    return {"runtime": "Pyodide" if sys.platform == "emscripten" else "CPython", "version": sys.version.split()[0], "rows": rows}


def pyodide_main(config_json: str) -> str:
    """The entry point of the Pyodide run (scripts/bench/bench_icepool.mjs, given no wheel)."""
    return json.dumps(run_all(json.loads(config_json)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs per figure, median (default 5)")
    parser.add_argument("--no-pyodide", action="store_true", help="CPython only")
    args = parser.parse_args()
    config: Config = {"repeats": args.repeats, "cases": CASES}
    results = [run_all(config)]
    if not args.no_pyodide:
        run = subprocess.run(
            ["node", str(ROOT / "scripts" / "bench" / "bench_icepool.mjs"), str(ROOT / "node_modules" / "pyodide"), "-", str(ROOT), __file__],
            input=json.dumps(config), capture_output=True, text=True, check=False,
        )
        if run.returncode:
            raise SystemExit(f"the Pyodide run failed:\n{run.stderr[-4000:]}")
        results.append(json.loads(run.stdout))
    print(f"Whole missions' odds, ms (median of {args.repeats}; cold: every cache emptied first; warm: the same call again)")
    print(f"{'runtime':18} {'calculator':18} {'inputs':9} {'cold':>9} {'warm':>9} {'goal':>6}  verdict")
    for result in results:
        goal = GOALS_MS[result["runtime"]]
        for row in result["rows"]:
            verdict = ("meets" if row["warm"] <= goal else "MISSES") if row["label"] == "heaviest" else ""
            print(f"{result['runtime'] + ' ' + result['version']:18} {row['id']:18} {row['label']:9} {row['cold']:9.2f} {row['warm']:9.2f} {goal:6.0f}  {verdict}")


if __name__ == "__main__":
    main()
