"""What the engine's benchmarks share: a cold engine, one call's time, the heaviest inputs.

bench_icepool, bench_missions and bench_resolve time the engine the same way,
in CPython and in the project's Pyodide (scripts/bench/bench_icepool.mjs
copies this module beside the benchmark it runs), so the way is said here
once. Nothing here imports ``rules_py`` before it is called: bench_icepool's
``--engine`` loads another checkout's first.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rules_py.calculator import Calculator

# Where rules_py caches what it loads, not what it works out: a page's engine
# has loaded its calculators and their tables before its first answer.
LOADING = ("rules_py.registry", "rules_py.tables")


def clear_caches() -> None:
    """Empty every functools cache rules_py keeps of what it works out: a cold engine."""
    for name, module in list(sys.modules.items()):
        if (name == "rules_py" or name.startswith("rules_py.")) and name not in LOADING:
            for value in list(vars(module).values()):
                # A cache object's method, not its class's (dice.odds.PARTS is a _Kept).
                if not isinstance(value, type) and callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


_clock: Callable[[], float] = time.perf_counter  # wall, unless use_cpu_clock


def use_cpu_clock() -> None:
    """Time by this process's CPU time from now on, not the wall clock: steadier on a shared machine."""
    global _clock
    _clock = time.process_time


def elapsed_ms(fn: Callable[[], object]) -> float:
    """How long one call of ``fn`` takes, in milliseconds."""
    start = _clock()
    fn()
    return (_clock() - start) * 1000


def heaviest(calc: Calculator) -> dict[str, str]:
    """The slowest inputs a greedy search finds: from the defaults (or the
    slowest example), each input in turn set to whichever of its extreme
    values (an int's bounds, every choice, both bools) is slowest cold (the
    fastest of three runs); twice over."""
    starts: list[dict[str, str]] = [{}, *calc.examples]
    best: dict[str, str] = {}
    best_t = -1.0
    for start in starts:
        t = _cold_once(calc, start)
        if t > best_t:
            best, best_t = dict(start), t
    for _ in range(2):
        for f in calc.fields:
            if f.type == "int" and f.minimum is not None and f.maximum is not None:
                options = [str(f.minimum), str(f.maximum)]
            elif f.type == "choice":
                options = [c.name for c in f.choices]
            elif f.type == "bool":
                options = ["false", "true"]
            else:
                continue
            for value in options:
                trial = {**best, f.name: value}
                t = _cold_once(calc, trial)
                if t > best_t:
                    best, best_t = trial, t
    return best


def _cold_once(calc: Calculator, inputs: dict[str, str]) -> float:
    """The fastest of three cold odds for ``inputs`` (-1 for inputs the calculator refuses)."""
    from rules_py.calculator import InputError

    try:
        calc.validate(inputs)
    except InputError:
        return -1.0
    times = []
    for _ in range(3):  # the fastest of three: a busy machine makes single figures noisy
        clear_caches()
        times.append(elapsed_ms(lambda: calc.odds(inputs)))
    return min(times)
