"""Benchmark: your own dice, one die at a time, in CPython and in the project's Pyodide.

A player enters the dice of a seeded roll one roll at a time; after each, the
page asks the engine for the resolution so far (the odds of what happens
next given those dice, or the outcomes once done). For every calculator that
rolls dice, at its defaults and at its heaviest inputs (the greedy search of
scripts/bench/bench_icepool.py), this times each of those answers warm (the
engine's caches kept from the entry before, as in a page) and reports the
worst per calculator, against the goals: within 50 ms at the defaults and
200 ms at the heaviest inputs, in Pyodide (the runtime players have). It
also compares one ``resolve`` with no dice (what the CLI's first call costs)
with ``odds`` plus ``roll`` for the same inputs, which it should not exceed.

Run from the project root: ``python -m scripts.bench.bench_resolve [--repeats N] [--seed S]``.
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
GOALS_MS = {"defaults": 50.0, "heaviest": 200.0}


# (calculator id, label, inputs); a list once through JSON.
Case = tuple[str, str, dict[str, str]]


class Config(TypedDict):
    """What to time, as the Pyodide run is given it too."""

    repeats: int
    seed: int
    calculators: list[Case]


class Row(TypedDict):
    """One calculator's figures (see :func:`one`)."""

    id: str
    label: str
    dice: int
    first_cold: float
    worst_warm: float
    steps: list[float]
    odds_plus_roll: float
    resolve: float


class Figures(TypedDict):
    """One runtime's figures."""

    runtime: str
    calculators: list[Row]


class _Die(TypedDict):
    """One roll of a roll's ``dice`` log, as far as it is read here."""

    faces: list[int]


def entries_of(dice: list[_Die]) -> list[str]:
    """A roll's dice, one entry per roll made: a die's face, or a pool's faces."""
    return [",".join(map(str, entry["faces"])) for entry in dice if entry["faces"]]


def one(calc_id: str, label: str, inputs: dict[str, str], seed: int, repeats: int) -> Row:
    """One calculator's figures: the first resolution cold, each die's warm, and resolve against odds plus roll."""
    import rules_py
    from scripts.bench.timing import clear_caches, elapsed_ms

    entries = entries_of(rules_py.roll(calc_id, seed, inputs)["dice"])
    clear_caches()
    first = elapsed_ms(lambda: rules_py.resolve(calc_id, inputs, ""))
    steps = []
    for k in range(len(entries) + 1):
        dice = ",".join(entries[:k])
        steps.append(statistics.median(elapsed_ms(lambda: rules_py.resolve(calc_id, inputs, dice)) for _ in range(repeats)))  # noqa: B023 (called at once)
    clear_caches()
    plain = elapsed_ms(lambda: rules_py.odds(calc_id, inputs)) + elapsed_ms(lambda: rules_py.roll(calc_id, seed, inputs))
    clear_caches()
    resolved = elapsed_ms(lambda: rules_py.resolve(calc_id, inputs, ""))
    return {"id": calc_id, "label": label, "dice": len(entries), "first_cold": first, "worst_warm": max(steps), "steps": steps, "odds_plus_roll": plain, "resolve": resolved}


def run_all(config: Config) -> Figures:
    """Every figure in this runtime (CPython, or Pyodide through pyodide_main)."""
    rows = [one(calc_id, label, inputs, config["seed"], config["repeats"]) for calc_id, label, inputs in config["calculators"]]
    return {"runtime": sys.version.split()[0] + (" (Pyodide)" if sys.platform == "emscripten" else " (CPython)"), "calculators": rows}


def pyodide_main(config_json: str) -> str:
    """The entry point of the Pyodide run (scripts/bench/bench_icepool.mjs, given no wheel)."""
    return json.dumps(run_all(json.loads(config_json)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs per figure, median (default 5)")
    parser.add_argument("--seed", type=int, default=47, help="the seeded roll whose dice are entered (default 47)")
    args = parser.parse_args()
    import rules_py
    from scripts.bench.timing import heaviest

    rows: list[Case] = []
    for calc in rules_py.calculators():
        if calc.rolls_dice:
            rows.append((calc.id, "defaults", {}))
            rows.append((calc.id, "heaviest", heaviest(calc)))
    config: Config = {"repeats": args.repeats, "seed": args.seed, "calculators": rows}
    cpython = run_all(config)
    run = subprocess.run(
        ["node", str(ROOT / "scripts" / "bench" / "bench_icepool.mjs"), str(ROOT / "node_modules" / "pyodide"), "-", str(ROOT), __file__],
        input=json.dumps(config), capture_output=True, text=True, check=False,
    )
    if run.returncode:
        raise SystemExit(f"the Pyodide run failed:\n{run.stderr[-4000:]}")
    pyodide: Figures = json.loads(run.stdout)
    print(f"Each die entered: the resolution so far, warm, worst over the dice of seed {args.seed} (median of {args.repeats}); ms")
    print(f"{'calculator':22} {'inputs':9} {'dice':>4} | {'CPython worst':>13} {'resolve':>8} {'odds+roll':>9} | {'Pyodide first':>13} {'worst':>7} {'goal':>6}  verdict")
    missed = 0
    for c, p in zip(cpython["calculators"], pyodide["calculators"]):
        goal = GOALS_MS[c["label"]]
        ok = p["worst_warm"] <= goal
        missed += not ok
        print(
            f"{c['id']:22} {c['label']:9} {c['dice']:4} | {c['worst_warm']:13.2f} {c['resolve']:8.2f} {c['odds_plus_roll']:9.2f} | "
            f"{p['first_cold']:13.2f} {p['worst_warm']:7.2f} {goal:6.0f}  {'meets' if ok else 'MISSES'}"
        )
    print(f"{pyodide['runtime']}: {'every calculator meets its goal' if not missed else f'{missed} miss their goal'}")


if __name__ == "__main__":
    main()
