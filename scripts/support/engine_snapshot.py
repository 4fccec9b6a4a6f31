"""Record, or check, what the engine prints for a fixed set of inputs: byte for byte.

For every calculator at its defaults, every ``examples`` entry and inputs drawn
by the tests' hypothesis strategies (tests/strategies.py), it records the CLI's
``odds`` output, ``roll --seed`` for a few seeds, and the typed answer (with
its steps, "How it comes about"). With ``--extended`` it also records, per
case, ``resolve`` (the CLI's and the typed answer) with the dice of a seeded
roll given back in part and in full (each pool by its faces, then by what it
scored), the comparison of the defaults with the case (``odds --vs`` and the
typed comparison), and for the defaults and examples every input swept
(``odds --sweep`` and the typed sweep); ``check`` compares those only for a
record that has them. A change to the engine that must not change
any number (a faster fold, say) is checked by recording before it and running
``--check`` after: the inputs are read back from the record, so the drawn
inputs are the same ones.

    python -m scripts.support.engine_snapshot record FILE [--drawn N] [--more ID=N ...] [--extended]
    python -m scripts.support.engine_snapshot check FILE

FILE is JSON lines (one case a line); it may end in ``.gz``.
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import io
import json
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from types import ModuleType
from typing import IO, TYPE_CHECKING, NotRequired, TypedDict

from rules_py import answer, calculators, compare, compare_odds, odds, resolve, roll
from rules_py.calculator import InputError
from rules_py.sweep import sweep, sweep_answer, values_of

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

    from rules_py.calculator import Calculator

SEEDS = (0, 1, 12345, 2**64 - 1)

# A case's inputs, as JSON gives them back: {input name: value}.
Inputs = Mapping[str, object]
# What a case prints: {"odds": text, "roll": [text a seed], "answer": text, "answer_roll": text}, or {"error": message}.
Outputs = dict[str, str | list[str]]
# The extended outputs: {"resolve": {dice text: [CLI text, answer text]}, "vs": [CLI text, answer text],
# "sweep": {input name: [CLI text, answer text]}}.
Extended = dict[str, list[str] | dict[str, list[str]]]


class Case(TypedDict):
    """One line of a record."""

    id: str
    inputs: dict[str, object]
    out: Outputs
    whole: NotRequired[bool]  # with --extended
    ext: NotRequired[Extended]


class _Die(TypedDict):
    """One roll of a roll's ``dice`` log, as far as the dice texts read it."""

    faces: list[int]
    result: object


def _open(path: Path, mode: str) -> IO[str]:
    if path.suffix == ".gz":
        return io.TextIOWrapper(gzip.GzipFile(path, mode), encoding="utf-8")  # as gzip.open(path, mode + "t") makes it
    return open(path, mode, encoding="utf-8")


def _dump(obj: object) -> str:
    return json.dumps(obj, indent=2) + "\n"  # what the CLI prints


def outputs(calc_id: str, inputs: Inputs) -> Outputs:
    """Every text a case prints, as the CLI prints it (an input error as its message)."""
    out: Outputs = {}
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


def _tests_module(name: str) -> ModuleType:
    """A helper module of tests/ (the tests' hypothesis strategies), loaded from
    its file: tests/ is no package and stays off the import path."""
    path = Path(__file__).resolve().parents[2] / "tests" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _attempt(fn: Callable[..., object], *args: object, **kwargs: object) -> str:
    """What a call prints, or its input error's message."""
    try:
        return _dump(fn(*args, **kwargs))
    except InputError as e:
        return "error: " + str(e)


def dice_texts(calc_id: str, inputs: Inputs, every: bool) -> list[str]:
    """Dice texts for ``resolve``: the dice a seeded roll shows, given back one
    roll at a time (every prefix, or with ``every`` false the first, middle,
    last but one and full), the first pool of several dice cut after its first
    face, and every prefix again with each pool given by what it scored; with
    ``every``, for two seeds."""
    texts: list[str] = []
    for seed in (SEEDS[2], SEEDS[0]) if every else (SEEDS[2],):
        texts += _dice_texts(roll(calc_id, seed, inputs)["dice"], every)
    return list(dict.fromkeys(texts))


def _dice_texts(log: list[_Die], every: bool) -> list[str]:
    rolls = [entry for entry in log if entry["faces"]]
    faces = [",".join(map(str, e["faces"])) for e in rolls]

    def scored(e: _Die) -> str:
        result = e["result"]
        if len(e["faces"]) > 1 and (type(result) is int or (isinstance(result, list) and all(type(x) is int for x in result))):
            return "=" + ("/".join(map(str, result)) if isinstance(result, list) else str(result))
        return ",".join(map(str, e["faces"]))

    counted = [scored(e) for e in rolls]
    cuts = list(range(len(rolls) + 1)) if every else sorted({0, 1, len(rolls) // 2, max(len(rolls) - 1, 0), len(rolls)})
    texts = [",".join(faces[:k]) for k in cuts]
    texts += [",".join(counted[:k]) for k in cuts if counted[:k] != faces[:k]]
    for k, e in enumerate(rolls):
        if len(e["faces"]) > 1:
            texts.append(",".join([*faces[:k], str(e["faces"][0])]))
            break
    return texts


def extended(calc_id: str, inputs: Inputs, whole: bool) -> Extended:
    """The extended outputs of a case (see the module's docstring); ``whole``
    for the defaults and examples: every prefix of the dice, every sweep."""
    out: Extended = {}
    try:
        odds(calc_id, inputs)
    except InputError:
        return out
    calc = next(c for c in calculators() if c.id == calc_id)
    if calc.rolls_dice:
        out["resolve"] = {text: [_attempt(resolve, calc_id, inputs, text), _attempt(answer, calc_id, inputs, None, dice=text)] for text in dice_texts(calc_id, inputs, whole)}
    out["vs"] = [_attempt(compare_odds, calc_id, {}, inputs), _attempt(compare, calc_id, {}, inputs)]
    if whole:
        swept: dict[str, list[str]] = {}
        for field in calc.fields:
            try:
                values_of(field)
            except InputError:
                continue
            others = {k: v for k, v in inputs.items() if k != field.name}
            swept[field.name] = [_attempt(sweep, calc_id, others, field.name), _attempt(sweep_answer, calc_id, others, field.name)]
        out["sweep"] = swept
    return out


def cases(drawn: int, more: dict[str, int]) -> Iterator[tuple[str, dict[str, object], bool]]:
    """(calculator id, inputs, whole) for every case to record: the defaults and examples whole, then the drawn ones."""
    # The tests' strategies, only when recording.
    valid_inputs: Callable[[Calculator], SearchStrategy[dict[str, object]]] = _tests_module("strategies").valid_inputs

    for calc in calculators():
        yield calc.id, {}, True
        for example in calc.examples:
            yield calc.id, dict(example), True
        strategy = valid_inputs(calc)
        for _ in range(more.get(calc.id, drawn)):
            yield calc.id, strategy.example(), False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("record", "check"))
    parser.add_argument("file", type=Path)
    parser.add_argument("--drawn", type=int, default=20, help="hypothesis-drawn inputs per calculator when recording (default 20)")
    parser.add_argument("--more", action="append", default=[], metavar="ID=N", help="N drawn inputs for calculator ID instead")
    parser.add_argument("--extended", action="store_true", help="also record resolve with given dice, --vs and --sweep (see above)")
    args = parser.parse_args()
    more = {k: int(v) for k, _, v in (m.partition("=") for m in args.more)}
    if args.mode == "record":
        n = 0
        with _open(args.file, "w") as f:
            for calc_id, inputs, whole in cases(args.drawn, more):
                case: Case = {"id": calc_id, "inputs": inputs, "out": outputs(calc_id, inputs)}
                if args.extended:
                    case["whole"] = whole
                    case["ext"] = extended(calc_id, inputs, whole)
                f.write(json.dumps(case) + "\n")
                n += 1
        print(f"recorded {n} cases in {args.file}")
        return 0
    n = bad = 0
    with _open(args.file, "r") as f:
        for line in f:
            recorded: Case = json.loads(line)
            n += 1
            was: dict[str, object] = {**recorded["out"]}
            now: dict[str, object] = {**outputs(recorded["id"], recorded["inputs"])}
            if "ext" in recorded:
                was["ext"] = recorded["ext"]
                now["ext"] = extended(recorded["id"], recorded["inputs"], recorded["whole"])
            if now != was:
                bad += 1
                keys = sorted(k for k in set(now) | set(was) if now.get(k) != was.get(k))
                print(f"DIFFERENT {recorded['id']} {json.dumps(recorded['inputs'])[:200]}: {', '.join(keys)}")
    print(f"{n - bad} of {n} cases byte-identical")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
