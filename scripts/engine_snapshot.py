"""Record, or check, what the engine prints for a fixed set of inputs: byte for byte.

For every calculator at its defaults, every ``examples`` entry and inputs drawn
by the tests' hypothesis strategies (tests/strategies.py), it records the CLI's
``odds`` output, ``roll --seed`` for a few seeds, and the typed answer (with
its steps, "How it comes about"). A change to the engine that must not change
any number (a faster fold, say) is checked by recording before it and running
``--check`` after: the inputs are read back from the record, so the drawn
inputs are the same ones.

    python scripts/engine_snapshot.py record FILE [--drawn N] [--more ID=N ...]
    python scripts/engine_snapshot.py check FILE

FILE is JSON lines (one case a line); it may end in ``.gz``.
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import sys
from pathlib import Path

from rules_py import answer, calculators, odds, roll
from rules_py.calculator import InputError

SEEDS = (0, 1, 12345, 2**64 - 1)


def _open(path: Path, mode: str):
    return gzip.open(path, mode + "t", encoding="utf-8") if path.suffix == ".gz" else open(path, mode, encoding="utf-8")


def _dump(obj) -> str:
    return json.dumps(obj, indent=2) + "\n"  # what the CLI prints


def outputs(calc_id: str, inputs: dict) -> dict:
    """Every text a case prints, as the CLI prints it (an input error as its message)."""
    out = {}
    try:
        out["odds"] = _dump(odds(calc_id, inputs))
    except InputError as e:
        return {"error": str(e)}
    calc = next(c for c in calculators() if c.id == calc_id)
    if calc.rolls_dice:
        out["roll"] = [_dump(roll(calc_id, seed, inputs)) for seed in SEEDS]
    out["answer"] = _dump(answer(calc_id, inputs, None))
    out["answer_roll"] = _dump(answer(calc_id, inputs, str(SEEDS[2])))
    return out


def _tests_module(name: str):
    """A helper module of tests/ (the tests' hypothesis strategies), loaded from
    its file: tests/ is no package and stays off the import path."""
    path = Path(__file__).resolve().parent.parent / "tests" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cases(drawn: int, more: dict[str, int]):
    valid_inputs = _tests_module("strategies").valid_inputs  # the tests' strategies, only when recording

    for calc in calculators():
        yield calc.id, {}
        for example in calc.examples:
            yield calc.id, dict(example)
        strategy = valid_inputs(calc)
        for _ in range(more.get(calc.id, drawn)):
            yield calc.id, strategy.example()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("record", "check"))
    parser.add_argument("file", type=Path)
    parser.add_argument("--drawn", type=int, default=20, help="hypothesis-drawn inputs per calculator when recording (default 20)")
    parser.add_argument("--more", action="append", default=[], metavar="ID=N", help="N drawn inputs for calculator ID instead")
    args = parser.parse_args()
    more = {k: int(v) for k, _, v in (m.partition("=") for m in args.more)}
    if args.mode == "record":
        n = 0
        with _open(args.file, "w") as f:
            for calc_id, inputs in cases(args.drawn, more):
                f.write(json.dumps({"id": calc_id, "inputs": inputs, "out": outputs(calc_id, inputs)}) + "\n")
                n += 1
        print(f"recorded {n} cases in {args.file}")
        return 0
    n = bad = 0
    with _open(args.file, "r") as f:
        for line in f:
            case = json.loads(line)
            n += 1
            now = outputs(case["id"], case["inputs"])
            if now != case["out"]:
                bad += 1
                keys = sorted(k for k in set(now) | set(case["out"]) if now.get(k) != case["out"].get(k))
                print(f"DIFFERENT {case['id']} {json.dumps(case['inputs'])[:200]}: {', '.join(keys)}")
    print(f"{n - bad} of {n} cases byte-identical")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
