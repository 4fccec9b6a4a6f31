"""Benchmark: the engine against icepool 2.2.2, in CPython and in the project's Pyodide.

Each case asks both libraries the same exact question (sums, success counts,
the joint (successes, 6s) of 12 dice, the comms check, opposed 6s, and Combat
HQ fire for effect from 4 v 3 to its heaviest inputs). The engine answers the
way a page gets its answer (a calculator's ``odds``, or a procedure's
``enumerate_outcomes``); icepool by its fastest model we know of the same
question, fire for effect modelled per outcome (each outcome reads only the
part of the pools it needs).

icepool needs Python >= 3.12, so it runs in the vendored Pyodide under Node
(node_modules/pyodide, the runtime players have), from its wheel pinned by
hash in scripts/bench/icepool-requirements.txt and downloaded into build/ with
``pip download --no-deps --require-hashes``. In that one Pyodide run every
case's exact fractions are checked equal between the two libraries before
anything is timed; then both are timed there, and the engine again in
CPython. The ratio is icepool's time over ours: above 1 the engine is faster.

Timing: each figure is the median of ``--repeats`` runs in one process. The
engine's *cold* figure clears every cache ``rules_py`` keeps of what it
works out (each ``functools`` cache in its modules but those of the
registry and the tables, which a page's engine has loaded before its first
answer) before each run, so it pays for every
pool it convolves; *warm* is the same call with the caches kept. icepool's
model builds its die afresh on each run (its own module-level caches stay
warm), so the ratios against our cold figures are the conservative ones.

Then every calculator at its defaults and at its heaviest inputs (found by a
greedy search over each input's extreme values in CPython, then used in both
runtimes), and fire for effect's heaviest pools under the readings that
join successes and 6s, cold and warm, in both runtimes; and, for an engine with sweeps,
fire for effect's Fire Dice swept at its heaviest other inputs.

Run from the project root: ``python -m scripts.bench.bench_icepool [--repeats N]
[--engine DIR] [--json FILE] [--inputs FILE]`` (DIR holds another copy of
``rules_py`` to time, for a before/after comparison; ``--inputs`` takes the
calculators' inputs from an earlier run's ``--json`` FILE, so that both sides
of a comparison time the same inputs).
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import json
import statistics
import subprocess
import sys
from collections.abc import Callable, Hashable, Iterable, Mapping
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, NotRequired, Protocol, TypedDict

from scripts.bench.timing import clear_caches, elapsed_ms, heaviest, use_cpu_clock

if TYPE_CHECKING:  # rules_py is imported only once --engine has chosen which one
    from rules_py.dice import Dice, Distribution

ROOT = Path(__file__).resolve().parents[2]
WHEEL_DIR = ROOT / "build" / "icepool"
PIN = ROOT / "scripts" / "bench" / "icepool-requirements.txt"

# ---------------------------------------------------------------------------
# The cases: name -> (ours, icepool's model). Each returns {outcome: distribution}.

SIX = (0, 0, 0, 0, 0, 1)


class IceDie(Protocol):
    """What the models below use of an icepool die (icepool.Die): icepool needs
    Python >= 3.12 and is installed only in the Pyodide run, so mypy checks
    these models against this, not icepool's own annotations."""

    def __rmatmul__(self, n: int) -> IceDie: ...  # n @ die: the sum of n rolls
    def __add__(self, other: IceDie) -> IceDie: ...
    def __sub__(self, other: IceDie) -> IceDie: ...
    # icepool's comparisons are dice of their truth (1 or 0), == too, where an object's == says
    # True or False: the one override a protocol cannot state without this ignore.
    def __eq__(self, other: object) -> IceDie: ...  # type: ignore[override]
    def __ge__(self, other: int | IceDie) -> IceDie: ...
    def __gt__(self, other: int | IceDie) -> IceDie: ...
    def __le__(self, other: int | IceDie) -> IceDie: ...
    def clip(self, *, min_outcome: int) -> IceDie: ...
    def map(self, repl: Callable[[int], object]) -> IceDie: ...
    def denominator(self) -> int: ...
    def items(self) -> Iterable[tuple[Hashable, int]]: ...  # (outcome, quantity)


# A case's answer from each library: {outcome name: distribution}.
Ours = Callable[[], Mapping[str, "Distribution"]]
Theirs = Callable[[], Mapping[str, IceDie]]


def _ours_procedure(proc: Callable[[Dice], Mapping[str, Hashable]]) -> dict[str, Distribution]:
    from rules_py.dice import enumerate_outcomes

    return enumerate_outcomes(proc)


def ours_sum(n: int) -> Ours:
    return lambda: _ours_procedure(lambda dice: {"total": dice.sum_of(n, 6, f"{n}D6")})


def ours_successes(n: int, target: int) -> Ours:
    return lambda: _ours_procedure(lambda dice: {"successes": dice.successes(n, target, f"{n}D6 at {target}+")})


def ours_joint(n: int, target: int) -> Ours:
    table = tuple((1 if f >= target else 0, 1 if f == 6 else 0) for f in range(1, 7))
    return lambda: _ours_procedure(lambda dice: {"joint": dice.pool(n, 6, f"{n}D6", table)})


def ours_opposed_sixes(a: int, b: int) -> Ours:
    def proc(dice: Dice) -> Mapping[str, Hashable]:
        if hasattr(dice, "fold"):
            from rules_py.dice import Pool

            return dice.fold((Pool(a, 6, "a", SIX), Pool(b, 6, "b", SIX)), lambda x, y: {"margin": x - y})
        return {"margin": dice.pool(a, 6, "a", SIX) - dice.pool(b, 6, "b", SIX)}  # an engine without folds

    return lambda: _ours_procedure(proc)


def ours_calculator(calc_id: str, inputs: dict[str, str]) -> Ours:
    def run() -> dict[str, Distribution]:
        from rules_py import get

        return get(calc_id).odds(inputs).outcomes

    return run


def _d6() -> IceDie:
    import icepool

    d6: IceDie = icepool.Die(range(1, 7))  # afresh: icepool caches a die's sums on the die
    return d6


def ice_sum(n: int) -> Theirs:
    return lambda: {"total": n @ _d6()}


def ice_successes(n: int, target: int) -> Theirs:
    return lambda: {"successes": n @ (_d6() >= target)}


def ice_joint(n: int, target: int) -> Theirs:
    def run() -> dict[str, IceDie]:
        import icepool

        return {"joint": n @ _d6().map(lambda f: icepool.Vector((int(f >= target), int(f == 6))))}

    return run


def ice_opposed_sixes(a: int, b: int) -> Theirs:
    def run() -> dict[str, IceDie]:
        d6 = _d6()
        six = d6 == 6
        return {"margin": (a @ six) - (b @ six)}

    return run


def ice_comms(dice: int) -> Theirs:
    def run() -> dict[str, IceDie]:
        d6 = _d6()
        success = d6 >= 4
        own, opposing = dice @ success, 3 @ success
        return {"success": own > opposing, "margin": own - opposing}

    return run


def ice_fire_for_effect(n_fire: int, fire_tn: int, pools: list[tuple[int, int]]) -> Theirs:
    """Per outcome: the successes for unopposed and forced_back, the 6s for suppressed.
    ``pools``: the unit's (dice, target) pairs, all counting their 6s (one at least)."""

    def run() -> dict[str, IceDie]:
        d6 = _d6()
        fire = n_fire @ (d6 >= fire_tn)
        unit: IceDie | None = None
        for n, tn in pools:
            part = n @ (d6 >= tn)
            unit = part if unit is None else unit + part
        assert unit is not None, "a unit rolls at least one pool"
        unopposed = (fire - unit).clip(min_outcome=0)
        six = d6 == 6
        suppressed = (sum(n for n, _ in pools) @ six) <= (n_fire @ six)
        return {"unopposed": unopposed, "suppressed": suppressed, "forced_back": unopposed >= 1}

    return run


FFE = "chq-fire-for-effect"
HEAVIEST_FFE = {"fire_dice": "12", "sheaf": "converged", "reaction_dice": "12", "reaction_target": "2", "cover": "heavy", "partial": "true", "extra_dice_target": "3"}
CASES: dict[str, tuple[Ours, Theirs]] = {
    "sum 3D6": (ours_sum(3), ice_sum(3)),
    "sum 10D6": (ours_sum(10), ice_sum(10)),
    "successes 8D6 at 4+": (ours_successes(8, 4), ice_successes(8, 4)),
    "successes 20D6 at 5+": (ours_successes(20, 5), ice_successes(20, 5)),
    "12-dice joint (successes, 6s)": (ours_joint(12, 4), ice_joint(12, 4)),
    "comms 4 dice (defaults)": (ours_calculator("chq-comms-check", {}), ice_comms(4)),
    "comms 26 dice (heaviest)": (ours_calculator("chq-comms-check", {"nation": "commonwealth", "boosts": "20", "air_recon": "true"}), ice_comms(26)),
    "opposed 6s 13 v 16": (ours_opposed_sixes(13, 16), ice_opposed_sixes(13, 16)),
    "opposed 6s 30 v 30": (ours_opposed_sixes(30, 30), ice_opposed_sixes(30, 30)),
    "fire for effect 4 v 3": (ours_calculator(FFE, {}), ice_fire_for_effect(4, 4, [(3, 4)])),
    "fire for effect 12 v 12": (ours_calculator(FFE, {"fire_dice": "12", "reaction_dice": "12"}), ice_fire_for_effect(12, 4, [(12, 4)])),
    "fire for effect 13 v 16": (
        ours_calculator(FFE, {"fire_dice": "12", "sheaf": "converged", "reaction_dice": "12", "cover": "heavy", "partial": "true"}),
        ice_fire_for_effect(13, 4, [(16, 4)]),
    ),
    "fire for effect heaviest": (ours_calculator(FFE, HEAVIEST_FFE), ice_fire_for_effect(13, 4, [(12, 2), (4, 3)])),
}


# {outcome: {repr(value): str(exact chance)}}, in the same form from either library.
Exact = dict[str, dict[str, str]]


def exact_ours(dists: Mapping[str, Distribution]) -> Exact:
    """The engine's answer as :data:`Exact`."""
    return {name: _texts({_plain(v): Fraction(p) for v, p in dist.items() if p}) for name, dist in dists.items()}


def exact_icepool(dice: Mapping[str, IceDie]) -> Exact:
    """icepool's answer as :data:`Exact`: each outcome's quantity over the die's denominator."""
    out = {}
    for name, die in dice.items():
        den = die.denominator()
        out[name] = _texts({_plain(o): Fraction(q, den) for o, q in die.items() if q})
    return out


def _texts(values: dict[Hashable, Fraction]) -> dict[str, str]:
    return {repr(v): str(p) for v, p in sorted(values.items(), key=lambda vp: repr(vp[0]))}


def _plain(value: Hashable) -> Hashable:
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, Iterable):
        try:
            return tuple(int(x) for x in value)  # icepool's Vector
        except TypeError:
            return value
    return value


# ---------------------------------------------------------------------------
# Timing (scripts/bench/timing.py), the same in both runtimes


def cold_warm(fn: Callable[[], object], repeats: int) -> tuple[float, float]:
    cold: list[float] = []
    warm: list[float] = []
    for _ in range(repeats):
        clear_caches()
        cold.append(elapsed_ms(fn))
        warm.append(elapsed_ms(fn))
    return statistics.median(cold), statistics.median(warm)


# (calculator id, label, inputs); a list once through JSON.
Case = tuple[str, str, dict[str, str]]
# (calculator id, the other inputs, the input swept).
Sweep = tuple[str, dict[str, str], str]


class Config(TypedDict):
    """What to time, as the Pyodide run is given it too."""

    repeats: int
    calculators: list[Case]
    sweeps: list[Sweep]


class CaseRow(TypedDict):
    case: str
    ours_cold: float
    ours_warm: float
    icepool: NotRequired[float]  # in the run with icepool


class CalculatorRow(TypedDict):
    id: str
    label: str
    cold: float
    warm: float


class SweepRow(TypedDict):
    id: str
    sweep: str
    inputs: dict[str, str]
    cold: float
    warm: float


class Figures(TypedDict):
    """One runtime's figures (and, in the run with icepool, how many cases were checked equal)."""

    runtime: str
    cases: list[CaseRow]
    calculators: list[CalculatorRow]
    checked: NotRequired[int]
    sweeps: NotRequired[list[SweepRow]]  # for an engine with sweeps


def run_all(config: Config, with_icepool: bool) -> Figures:
    """Every figure in this runtime; with icepool, every case checked equal first."""
    import rules_py

    repeats = config["repeats"]
    rules_py.calculators()
    result: Figures = {"runtime": sys.version.split()[0] + (" (Pyodide)" if sys.platform == "emscripten" else " (CPython)"), "cases": [], "calculators": []}
    if with_icepool:
        for name, (ours, theirs) in CASES.items():
            a, b = exact_ours(ours()), exact_icepool(theirs())
            if a != b:
                raise SystemExit(f"{name}: the two libraries differ:\nours    {a}\nicepool {b}")
        result["checked"] = len(CASES)
    for name, (ours, theirs) in CASES.items():
        cold, warm = cold_warm(ours, repeats)
        row: CaseRow = {"case": name, "ours_cold": cold, "ours_warm": warm}
        if with_icepool:
            row["icepool"] = statistics.median(elapsed_ms(theirs) for _ in range(repeats))
        result["cases"].append(row)
    for calc_id, label, inputs in config["calculators"]:
        calc = rules_py.get(calc_id)
        cold, warm = cold_warm(functools.partial(calc.odds, inputs), repeats)
        result["calculators"].append({"id": calc_id, "label": label, "cold": cold, "warm": warm})
    if hasattr(rules_py, "sweep"):  # an engine with sweeps
        for calc_id, inputs, name in config["sweeps"]:
            cold, warm = cold_warm(functools.partial(rules_py.sweep, calc_id, inputs, name), repeats)
            result.setdefault("sweeps", []).append({"id": calc_id, "sweep": name, "inputs": inputs, "cold": cold, "warm": warm})
    return result


def pyodide_main(config_json: str) -> str:
    """The entry point of the Pyodide run (scripts/bench/bench_icepool.mjs)."""
    return json.dumps(run_all(json.loads(config_json), with_icepool=True))


# ---------------------------------------------------------------------------
# CPython: the heaviest inputs, the Pyodide run, the tables


def fetch_wheel() -> Path:
    """icepool's wheel, downloaded once into build/icepool, checked against its pinned hash."""
    found = sorted(WHEEL_DIR.glob("icepool-*.whl"))
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--require-hashes", "--only-binary=:all:",
         "--python-version", "3.12", "--implementation", "py", "-d", str(WHEEL_DIR), "-r", str(PIN)],
        check=True,
    )  # pip checks the hash of a wheel already there too
    found = sorted(WHEEL_DIR.glob("icepool-*.whl"))
    if len(found) != 1:
        raise SystemExit(f"expected one icepool wheel in {WHEEL_DIR}, found {found}")
    return found[0]


def import_engine(engine: Path) -> ModuleType:
    """The rules_py in ``engine`` (another checkout, to compare), imported from
    its folder under its own name before anything imports a rules_py, so that
    every later ``import rules_py`` here gets it: nothing is added to sys.path."""
    package = engine / "rules_py"
    spec = importlib.util.spec_from_file_location("rules_py", package / "__init__.py", submodule_search_locations=[str(package)])
    if spec is None or spec.loader is None:
        raise SystemExit(f"no rules_py in {engine}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["rules_py"] = module
    spec.loader.exec_module(module)
    return module


def run_pyodide(config: Config, engine: Path, wheel: Path) -> Figures:
    run = subprocess.run(
        ["node", str(ROOT / "scripts" / "bench" / "bench_icepool.mjs"), str(ROOT / "node_modules" / "pyodide"), str(wheel), str(engine), __file__],
        input=json.dumps(config), capture_output=True, text=True, check=False,
    )
    if run.returncode:
        raise SystemExit(f"the Pyodide run failed:\n{run.stderr[-4000:]}")
    figures: Figures = json.loads(run.stdout)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7, help="runs per figure, median (default 7)")
    parser.add_argument("--engine", type=Path, default=ROOT, help="the directory holding the rules_py to time (default: this project's)")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    parser.add_argument("--inputs", type=Path, help="time the calculators' inputs of an earlier run's --json file instead of searching for the heaviest (the same inputs before and after a change)")
    parser.add_argument(
        "--cpu-clock", action="store_true",
        help="time CPython by this process's CPU time, not the wall clock: steadier on a shared machine (Pyodide under Node keeps the wall clock)",
    )
    args = parser.parse_args()
    if args.cpu_clock:
        use_cpu_clock()
    engine = args.engine.resolve()
    rules_py = import_engine(engine)

    if rules_py.__file__ is None or Path(rules_py.__file__).resolve().parent != engine / "rules_py":
        raise SystemExit(f"imported {rules_py.__file__}, not the rules_py in {engine}")
    wheel = fetch_wheel()
    rows: list[Case] = []
    if args.inputs:
        rows = json.loads(args.inputs.read_text())["inputs"]
    else:
        for calc in rules_py.calculators():
            rows.append((calc.id, "defaults", {}))
            rows.append((calc.id, "heaviest", heaviest(calc)))
        # Fire for effect's readings that join successes and 6s, at its
        # heaviest pools: the joint fold, whatever the greedy search found.
        for label, reading in (("joint is", {"disruptions": "if_suppressed"}), ("joint swd", {"suppressed_without_disruption": "true"}),
                               ("joint both", {"disruptions": "if_suppressed", "suppressed_without_disruption": "true"})):
            rows.append((FFE, label, {**HEAVIEST_FFE, **reading}))
    sweeps: list[Sweep] = [(FFE, {k: v for k, v in HEAVIEST_FFE.items() if k != "fire_dice"}, "fire_dice")]
    sweeps.append((FFE, {**sweeps[0][1], "disruptions": "if_suppressed"}, "fire_dice"))
    config: Config = {"repeats": args.repeats, "calculators": rows, "sweeps": sweeps}
    cpython = run_all(config, with_icepool=False)
    pyodide = run_pyodide(config, engine, wheel)

    print(f"Exact fractions checked equal between the two libraries in {pyodide['runtime']}: {pyodide['checked']} cases")
    print(f"Median ms over {args.repeats} runs; ratio = icepool / ours (cold), above 1 the engine is faster")
    head = f"{'case':32} {'CPython cold':>12} {'warm':>8} | {'Pyodide cold':>12} {'warm':>8} {'icepool':>8} {'ratio':>7} {'ratio warm':>10}"
    print(head)
    for c_case, p_case in zip(cpython["cases"], pyodide["cases"]):
        print(
            f"{c_case['case']:32} {c_case['ours_cold']:12.3f} {c_case['ours_warm']:8.3f} | {p_case['ours_cold']:12.3f} {p_case['ours_warm']:8.3f} "
            f"{p_case['icepool']:8.3f} {p_case['icepool'] / p_case['ours_cold']:6.2f}x {p_case['icepool'] / p_case['ours_warm']:9.2f}x"
        )
    print()
    print("Every calculator, at its defaults and its heaviest inputs (median ms; cold = rules_py's caches emptied)")
    print(f"{'calculator':24} {'inputs':10} {'CPython cold':>12} {'warm':>8} | {'Pyodide cold':>12} {'warm':>8}   heaviest inputs")
    for (calc_id, label, inputs), c_calc, p_calc in zip(rows, cpython["calculators"], pyodide["calculators"]):
        shown = " ".join(f"{k}={v}" for k, v in inputs.items()) if label != "defaults" else ""
        print(f"{calc_id:24} {label:10} {c_calc['cold']:12.3f} {c_calc['warm']:8.3f} | {p_calc['cold']:12.3f} {p_calc['warm']:8.3f}   {shown[:120]}")
    if "sweeps" in cpython:
        print()
        print("Sweeps (rules_py.sweep; median ms)")
        print(f"{'calculator':24} {'sweep':10} {'CPython cold':>12} {'warm':>8} | {'Pyodide cold':>12} {'warm':>8}   other inputs")
        for c_sweep, p_sweep in zip(cpython["sweeps"], pyodide["sweeps"]):
            shown = " ".join(f"{k}={v}" for k, v in c_sweep["inputs"].items())
            print(f"{c_sweep['id']:24} {c_sweep['sweep']:10} {c_sweep['cold']:12.3f} {c_sweep['warm']:8.3f} | {p_sweep['cold']:12.3f} {p_sweep['warm']:8.3f}   {shown[:120]}")
    if args.json:
        args.json.write_text(json.dumps({"cpython": cpython, "pyodide": pyodide, "inputs": rows}, indent=1))


if __name__ == "__main__":
    main()
