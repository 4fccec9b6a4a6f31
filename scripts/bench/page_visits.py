"""What the browser benchmarks share: a page's first answer, a visit settled, inputs it has not seen.

bench_browser and bench_update time visits to the built site the same way:
when the live view showed its first answer (and when the page first painted
one), when the visit's background work is over, and which inputs make a
first visit wait for the engine. Each is said here once.
"""

from __future__ import annotations

import json
import math
import random
import time
from pathlib import Path
from typing import TYPE_CHECKING, NotRequired, TypedDict

from scripts.support.local_site import HostServer
from scripts.support.page_functions import page_function

import rules_py
from rules_py.calculator import InputError

if TYPE_CHECKING:
    from playwright.sync_api import Page

    from rules_py.calculator import Calculator

ROOT = Path(__file__).resolve().parents[2]

TIMEOUT_MS = 120_000


# When the page first painted an answer: the earliest Element Timing entry of the
# answer's lines (elementtiming="fm-answer", on the build's copy of the calculator
# and on the live view's), from a buffered observer; null if none comes in limitMs
# (a site built before the marks).
ANSWER_PAINTED = page_function(ROOT / "scripts" / "bench" / "page" / "bench_answer_painted.mjs")

# How the page's engine started (engine.mjs tells the page), or null where it has none.
ENGINE_START = page_function(ROOT / "scripts" / "bench" / "page" / "bench_engine_start.mjs")


class EngineStart(TypedDict):
    """How the page's engine started, as it tells the page (engine.mjs; null where a site's engine does not say)."""

    bootMs: float | None
    phases: dict[str, float] | None  # {phase: ms since the previous one}, in the order they ran
    startedInHead: bool | None


class Answered(TypedDict):
    """A visit's first answer (see :func:`answer_at`)."""

    ms: float
    fcp_ms: float | None
    snapshot: bool | None
    engine: EngineStart | None
    painted_ms: NotRequired[float | None]


def number_at(page: Page, selector: str, attribute: str) -> float:
    """The number in ``attribute`` of the element ``selector`` finds, once there is one (up to TIMEOUT_MS)."""
    element = page.wait_for_selector(selector, timeout=TIMEOUT_MS, state="attached")
    value = element.get_attribute(attribute) if element else None
    if value is None:  # never: the wait is for an element that has the attribute
        raise RuntimeError(f"{selector} has no {attribute}")
    return float(value)


def answer_at(page: Page, calc_id: str, painted: bool = False) -> Answered:
    """ms: when the live view showed its first answer (data-first-answer-at); painted_ms
    (if asked): when the page first painted one, the build's copy's included."""
    ms = number_at(page, f'.calculator[data-calculator="{calc_id}"][data-first-answer-at]', "data-first-answer-at")
    fcp = page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null")
    snapshot = page.evaluate("window.fireMissionEngine ? fireMissionEngine.fromSnapshot ?? null : null")
    engine = page.evaluate(ENGINE_START)  # where the wait went, as the engine tells the page
    out: Answered = {"ms": ms, "fcp_ms": fcp, "snapshot": snapshot, "engine": engine}
    if painted:
        out["painted_ms"] = page.evaluate(ANSWER_PAINTED, 5000)
    return out


def settle(page: Page, server: HostServer, quiet_s: float = 1.5, limit_s: float = 240) -> None:
    """Wait until the visit's background work is over: the snapshot fetched for the next
    visit, the service worker's copy of the engine made, and nothing sent for quiet_s."""
    page.wait_for_function(
        "() => fireMissionEngine.fromSnapshot || fireMissionEngine.snapshotPrefetched !== undefined", timeout=TIMEOUT_MS * 2
    )
    # A site with a service worker: until it has kept the engine (assets/offline.mjs).
    page.wait_for_function(
        "() => !document.querySelector('script[src*=\"offline.mjs\"]') || document.documentElement.dataset.offline === 'engine'",
        timeout=TIMEOUT_MS * 2,
    )
    quiet(server, quiet_s, limit_s)


def quiet(server: HostServer, quiet_s: float = 1.0, limit_s: float = 60) -> None:
    """Until the server has sent nothing for quiet_s (a closed context's downloads have stopped)."""
    last, since, start = server.counters(), time.monotonic(), time.monotonic()
    while time.monotonic() - since < quiet_s and time.monotonic() - start < limit_s:
        time.sleep(0.2)
        now = server.counters()
        if now != last:
            last, since = now, time.monotonic()


def unseen_inputs(calc: Calculator, count: int = 3) -> list[dict[str, str]]:
    """``count`` valid input sets drawn at random (seeded by the calculator's id)
    over its int, bool and choice fields: inputs the worker's warm-up never ran."""
    rng = random.Random(calc.id)
    found: list[dict[str, str]] = []
    for _ in range(500):
        raw: dict[str, str] = {}
        for f in calc.fields:
            if f.type == "int":  # the whole numbers within its bounds
                low = math.ceil(f.minimum) if f.minimum is not None else 0
                raw[f.name] = str(rng.randint(low, math.floor(f.maximum) if f.maximum is not None else low + 10))
            elif f.type == "bool":
                raw[f.name] = rng.choice(("true", "false"))
            elif f.type == "choice":
                raw[f.name] = rng.choice(f.choices).name
        try:
            calc.validate(raw)
        except InputError:
            continue  # a combination the rules forbid
        found.append(raw)
        if len(found) == count:
            break
    return found


def engine_inputs(calc: Calculator) -> dict[str, str]:
    """Valid inputs whose answer the page does not carry (it embeds its defaults' and
    examples'): a first visit with them waits for the engine, as the benchmark means.
    As a player's first change: one whole-number input one up from its default."""
    embedded = {json.dumps(rules_py.answer(calc.id, raw)["inputs"], sort_keys=True) for raw in ({}, *calc.examples)}
    tries = [{f.name: str(f.default + 1)} for f in calc.fields if f.type == "int" and f.default is not None]
    for raw in tries + unseen_inputs(calc, count=20):
        try:
            calc.validate(raw)
        except InputError:
            continue
        if json.dumps(rules_py.answer(calc.id, raw)["inputs"], sort_keys=True) not in embedded:
            return raw
    raise SystemExit(f"{calc.id}: found no inputs outside its defaults and examples")
