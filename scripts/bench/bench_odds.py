"""Benchmark: every calculator's exact odds in CPython, cold and warm, and six
dice primitives against brute-force enumeration with itertools.product.

A cold figure is the first answer of a fresh Python process: each is timed in
its own subprocess that has imported ``rules_py`` and loaded every calculator
(tables read, nothing worked out yet), like the page's engine before its first
answer. So every cache the engine keeps at module level is empty, whatever
those caches are. The warm figure is the same call again in that process.
Each figure is the median over ``--repeats`` processes.

For 3D6, a 6D6 total, n dice succeeding at 4+ or 5+, and an opposed roll of
successes, it times our convolution (cold, the same way) against enumerating
every face combination, and checks that both give the same exact distribution.
Only these six primitives are compared with brute force; the calculators are
checked against hand-worked fractions and rolls in the tests.

Run from the project root: ``python -m scripts.bench.bench_odds [--repeats N]``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Hashable

from rules_py import calculators, get
from rules_py import dice as dice_module
from rules_py.dice import Dice, Distribution, enumerate_outcomes


def opposed_ours(a: int, b: int) -> Distribution:
    def proc(dice: Dice) -> dict[str, int]:
        x = dice.successes(a, 4, "attack")
        y = dice.successes(b, 4, "defence")
        return {"margin": x - y}

    return enumerate_outcomes(proc)["margin"]


# The dice primitives, by name: (ours, brute force over every face).
CORE: dict[str, tuple[Callable[[], Distribution], Callable[[], Distribution]]] = {
    "3D6": (lambda: dice_module.sum_of(3, 6), lambda: brute(3, 6, sum)),
    "6D6 total": (lambda: dice_module.sum_of(6, 6), lambda: brute(6, 6, sum)),
    "4 dice successes at 4+": (lambda: dice_module.successes(4, 4), lambda: brute(4, 6, lambda f: sum(x >= 4 for x in f))),
    "8 dice successes at 4+": (lambda: dice_module.successes(8, 4), lambda: brute(8, 6, lambda f: sum(x >= 4 for x in f))),
    "5 dice successes at 5+": (lambda: dice_module.successes(5, 5), lambda: brute(5, 6, lambda f: sum(x >= 5 for x in f))),
    "opposed 5D vs 3D at 4+": (lambda: opposed_ours(5, 3), lambda: opposed_brute(5, 3)),
}


def brute(n: int, sides: int, key: Callable[[tuple[int, ...]], Hashable]) -> Distribution:
    counts: Counter[Hashable] = Counter(key(faces) for faces in itertools.product(range(1, sides + 1), repeat=n))
    return Distribution(counts)


def opposed_brute(a: int, b: int) -> Distribution:
    counts: Counter[Hashable] = Counter(
        sum(f >= 4 for f in faces[:a]) - sum(f >= 4 for f in faces[a:])
        for faces in itertools.product(range(1, 7), repeat=a + b)
    )
    return Distribution(counts)


def ms(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def child(kind: str, name: str, raw: str) -> None:
    """In a fresh process: print [cold ms, warm ms] of one figure."""
    calculators()  # what the engine has done before its first answer
    fn: Callable[[], object]
    if kind == "odds":
        inputs = json.loads(raw)
        calc = get(name)
        fn = lambda: calc.odds(inputs)  # noqa: E731
    else:
        fn = CORE[name][0]
    print(json.dumps([ms(fn), ms(fn)]))


def fresh(kind: str, name: str, raw: str, repeats: int) -> tuple[float, float]:
    """Median cold and warm ms of one figure over ``repeats`` fresh processes."""
    cold, warm = [], []
    for _ in range(repeats):
        out = subprocess.run(
            [sys.executable, __file__, "--child", kind, name, raw], capture_output=True, text=True, check=True
        )
        c, w = json.loads(out.stdout)
        cold.append(c)
        warm.append(w)
    return statistics.median(cold), statistics.median(warm)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="fresh processes per figure (default 5)")
    parser.add_argument("--child", nargs=3, metavar=("KIND", "NAME", "INPUTS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    r = args.repeats

    print(f"Calculators (CPython; median ms over {r} fresh processes: cold = first answer, warm = the same again)")
    print(f"{'calculator':32} {'inputs':48} {'cold':>9} {'warm':>9}")
    for calc in calculators():
        for raw in ({}, *calc.examples):
            cold, warm = fresh("odds", calc.id, json.dumps(raw), r)
            label = " ".join(f"{k}={v}" for k, v in raw.items()) or "(defaults)"
            print(f"{calc.id:32} {label[:48]:48} {cold:9.3f} {warm:9.3f}")

    print()
    print("Dice primitives against itertools.product (ours: cold, in fresh processes; both exact and checked equal)")
    print(f"{'distribution':34} {'ours':>9} {'brute':>11} {'brute/ours':>11}")
    for name, (ours, ref) in CORE.items():
        assert ours() == ref(), name
        t_ours, _ = fresh("core", name, "", r)
        t_brute = statistics.median(ms(ref) for _ in range(max(3, r)))
        print(f"{name:34} {t_ours:9.3f} {t_brute:11.3f} {t_brute / t_ours:11.0f}x")


if __name__ == "__main__":
    main()
