"""Benchmark: every calculator's exact odds in CPython, and the dice core
against brute-force enumeration with itertools.product.

For each registered calculator it times ``odds`` with the default inputs and
with each of its examples (median over repeats, fresh caches each time, so
the figure is a cold answer, as on a page's first change of an input). For
3D6, n dice succeeding at 4+, and an opposed roll of successes, it times our
convolution against enumerating every face combination, and checks that both
give the same exact distribution.

Run from the project root: ``python scripts/bench_odds.py [--repeats N]``.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules_py import calculators  # noqa: E402
from rules_py import dice as dice_module  # noqa: E402
from rules_py.dice import Distribution, enumerate_outcomes  # noqa: E402


def clear_caches() -> None:
    for fn in (dice_module.die, dice_module._pool, dice_module._chart):
        fn.cache_clear()


def median_ms(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        clear_caches()
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def brute(n: int, sides: int, key) -> Distribution:
    counts = Counter(key(faces) for faces in itertools.product(range(1, sides + 1), repeat=n))
    return Distribution(counts)


def opposed_ours(a: int, b: int):
    def proc(dice):
        x = dice.successes(a, 4, "attack")
        y = dice.successes(b, 4, "defence")
        return {"margin": x - y}

    return enumerate_outcomes(proc)["margin"]


def opposed_brute(a: int, b: int) -> Distribution:
    counts = Counter(
        sum(f >= 4 for f in faces[:a]) - sum(f >= 4 for f in faces[a:])
        for faces in itertools.product(range(1, 7), repeat=a + b)
    )
    return Distribution(counts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    r = args.repeats

    print("Calculators (CPython, cold caches, median of", r, "runs)")
    print(f"{'calculator':32} {'inputs':48} {'ms':>9}")
    for calc in calculators():
        for raw in ({},) + tuple(calc.examples):
            ms = median_ms(lambda: calc.odds(raw), r)
            label = " ".join(f"{k}={v}" for k, v in raw.items()) or "(defaults)"
            print(f"{calc.id:32} {label[:48]:48} {ms:9.3f}")

    print()
    print("Dice core against itertools.product (median ms; both exact and checked equal)")
    print(f"{'distribution':34} {'ours':>9} {'brute':>11} {'brute/ours':>11}")
    cases = [
        ("3D6", lambda: dice_module.sum_of(3, 6), lambda: brute(3, 6, sum)),
        ("6D6 total", lambda: dice_module.sum_of(6, 6), lambda: brute(6, 6, sum)),
        ("4 dice successes at 4+", lambda: dice_module.successes(4, 4), lambda: brute(4, 6, lambda f: sum(x >= 4 for x in f))),
        ("8 dice successes at 4+", lambda: dice_module.successes(8, 4), lambda: brute(8, 6, lambda f: sum(x >= 4 for x in f))),
        ("5 dice successes at 5+", lambda: dice_module.successes(5, 5), lambda: brute(5, 6, lambda f: sum(x >= 5 for x in f))),
        ("opposed 5D vs 3D at 4+", lambda: opposed_ours(5, 3), lambda: opposed_brute(5, 3)),
    ]
    for name, ours, ref in cases:
        clear_caches()
        assert ours() == ref(), name
        t_ours = median_ms(ours, r)
        t_brute = median_ms(ref, max(3, r // 5))
        print(f"{name:34} {t_ours:9.3f} {t_brute:11.3f} {t_brute / t_ours:11.0f}x")


if __name__ == "__main__":
    main()
