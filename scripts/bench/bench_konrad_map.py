"""Benchmark Konrad's map calculators on the largest map they take, in CPython.

    python -m scripts.bench.bench_konrad_map [--runs 5] [--json out.json]

Goal: konrad-supply and konrad-retreat answer in <= 100 ms on a map of the
largest size (rows and columns: the map grid's max_rows and max_cols) with all
26 units on it. Each figure is the time of ``rules_py.odds(...)`` (validation,
the map read, the searches, the answer's JSON form) on caches that are truly
cold: every run is a fresh Python process that has only imported ``rules_py``.
Per map, the median and the worst wall time of --runs runs are printed, and
the median CPU time of the process (which a machine busy with other work
inflates less); the goal is judged on the largest median wall time.

Maps (all full size, 26 units, the depot and a friendly west edge):

* ``open``: every sector friendly, units scattered, the depot in the middle;
* ``snake``: friendly rows joined at alternate ends by one sector, enemy rows
  between them, the depot at the far end from the units: every supply line
  runs thousands of sectors, the longest the searches and the answer can get;
* ``stacked``: the retreating unit behind 12 full sectors (two DSUs each) in a
  row, with enemy sectors around them, so its retreat runs through all of them.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
from pathlib import Path
from typing import TypedDict

from rules_py.konrad.sector_map import GRID, LABELS


GOAL_MS = 100.0
ROWS, COLS = GRID["max_rows"], GRID["max_cols"]


def text(cells: list[list[str]], edges: str = "W") -> str:
    return edges + ":" + "/".join("".join(row) for row in cells)


def open_map() -> str:
    cells = [["F"] * COLS for _ in range(ROWS)]
    cells[ROWS // 2][COLS // 2] += "*"
    rng = random.Random(1)
    for label in LABELS:
        r, c = rng.randrange(ROWS), rng.randrange(COLS)
        cells[r][c] += label
    return text(cells)


def snake_map() -> str:
    # Even rows friendly; an odd row is enemy but for one sector, at the right end
    # after rows 0, 4, 8... and at the left end after rows 2, 6, 10...: one long path.
    cells = [["F" if r % 2 == 0 else "E"] * COLS for r in range(ROWS)]
    for r in range(1, ROWS, 2):
        cells[r][COLS - 1 if r % 4 == 1 else 0] = "F"
    last = ROWS - 1 if (ROWS - 1) % 2 == 0 else ROWS - 2
    cells[0][0] += "*"  # the depot at the start of the path, on the west edge
    for i, label in enumerate(LABELS):  # the units at its far end
        cells[last][(COLS // 2 + i) % COLS] += label
    return text(cells)


def stacked_map() -> str:
    cells = [["E"] * COLS for _ in range(ROWS)]
    r = ROWS // 2
    for c in range(COLS):
        cells[r][c] = "F"
    cells[r][0] += "*"
    cells[r][COLS - 1] += "a"
    pairs = [LABELS[i : i + 2] for i in range(1, 25, 2)]  # b c, d e, ... x y
    for k, pair in enumerate(pairs):
        cells[r][COLS - 2 - k] += pair
    cells[0][0] = "Fz"
    return text(cells)


MAPS = {"open": open_map, "snake": snake_map, "stacked": stacked_map}
CASES = [
    ("konrad-supply", {}),
    ("konrad-supply", {"adjacency": "corner", "counting": "straight", "depot_moving": "true"}),
    ("konrad-retreat", {"unit": "a"}),
    ("konrad-retreat", {"unit": "a", "adjacency": "corner"}),
]

CHILD = """
import json, sys, time
import rules_py
inputs = json.loads(sys.stdin.read())
t, cpu = time.perf_counter(), time.process_time()
answer = rules_py.odds({calc!r}, inputs)
cold, cold_cpu = time.perf_counter() - t, time.process_time() - cpu
print(json.dumps({{"ms": cold * 1000, "cpu_ms": cold_cpu * 1000, "outcomes": len(answer["outcomes"])}}))
"""


class Cold(TypedDict):
    """What CHILD prints: its wall and CPU time, and how many outcomes the answer had."""

    ms: float
    cpu_ms: float
    outcomes: int


def cold_ms(calc: str, inputs: dict[str, str]) -> Cold:
    done = subprocess.run(
        [sys.executable, "-c", CHILD.format(calc=calc)], input=json.dumps(inputs), capture_output=True, text=True, check=True
    )
    figures: Cold = json.loads(done.stdout)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    print(f"Konrad map calculators, {ROWS} x {COLS} sectors, 26 units; cold odds in a fresh process, goal <= {GOAL_MS:.0f} ms")
    results = []
    largest = 0.0
    for name, make in MAPS.items():
        map_text = make()
        for calc, extra in CASES:
            inputs = {"map": map_text, **extra}
            runs = [cold_ms(calc, inputs) for _ in range(args.runs)]
            times = [r["ms"] for r in runs]
            median, worst = statistics.median(times), max(times)
            cpu = statistics.median(r["cpu_ms"] for r in runs)
            largest = max(largest, median)
            shown = " ".join(f"{k}={v}" for k, v in extra.items()) or "defaults"
            print(f"  {name:8} {calc:15} {shown:55} median {median:6.1f} ms  worst {worst:6.1f} ms  cpu {cpu:6.1f} ms  ({runs[0]['outcomes']} outcomes)")
            results.append({"map": name, "calculator": calc, "inputs": extra, "median_ms": median, "worst_ms": worst, "cpu_ms": cpu, "chars": len(map_text)})
    verdict = "meets" if largest <= GOAL_MS else "MISSES"
    print(f"largest median {largest:.1f} ms: {verdict} the goal of {GOAL_MS:.0f} ms")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
