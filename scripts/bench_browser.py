"""Benchmark the calculators in a real browser, on the built site served locally.

    python scripts/bench_browser.py [--runs 5] [--json out.json]

Needs `make site` first and Debian's Chromium. Every start-up run uses a fresh
browser context (nothing cached), and the medians are of --runs runs:

(a) bare Pyodide boot: an empty page whose module worker only loads the
    site's own copy of Pyodide the ordinary way (loadPyodide, no snapshot),
    from navigation start to the worker's "loaded";
(e) the site's engine alone: an empty page that starts the site's own
    worker.mjs (Pyodide restored from the build's memory snapshot, the wheel
    unpacked, rules_py imported), from navigation start to its "ready";
(b) navigation to first answer: a calculator page, from navigation start to
    the first odds on show (the glue's data-first-answer-at);
    and (b)/(a), goal <= 1.10: the site's wait against Pyodide's own boot;
    (b)/(e): what the page itself (Material, the form) adds to the engine;
(c) each calculator's warm answer time in the page: engine round trips
    (post to the worker, rules_py, JSON back) for its default and example
    inputs, median and worst of 7 each, goal <= 30 ms, timed once the page
    has been open 10 s; a first, cold pass over every calculator and input
    set right after the engine started is reported on its own line, and so
    are three random valid input sets per calculator (seeded), which the
    worker's warm-up never ran ("unseen");
(d) bytes transferred for a rules page without a calculator, a rules page
    with one, and a calculator page (as served here, and gzip-compressed as a
    typical host would send them).

(a), (e) and (b) runs alternate, so a busy machine slows them alike.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import statistics
import sys
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from local_site import StaticServer, launch

import rules_py
from rules_py.calculator import InputError

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "site"

BARE_PAGE = b"""<!doctype html><meta charset="utf-8"><title>Bare Pyodide boot</title>
<script type="module">
const worker = new Worker("/__bench__/bare-worker.mjs", { type: "module" });
worker.onmessage = () => { document.documentElement.dataset.booted = performance.now().toFixed(1); };
</script>"""

BARE_WORKER = b"""import { loadPyodide } from "/assets/generated/pyodide/pyodide.mjs";
await loadPyodide({ indexURL: new URL("/assets/generated/pyodide/", location.href).href, packages: [], stdout: () => {} });
postMessage("loaded");
"""

ENGINE_PAGE = b"""<!doctype html><meta charset="utf-8"><title>The site's engine alone</title>
<script type="module">
const worker = new Worker("/assets/calc/worker.mjs", { type: "module" });
worker.onmessage = (event) => {
  if (event.data.type === "ready") document.documentElement.dataset.booted = performance.now().toFixed(1);
  else document.documentElement.dataset.failed = JSON.stringify(event.data);
};
</script>"""

TIMEOUT_MS = 120_000
SETTLE_S = 10  # how long a calculator page is open before its warm answers are timed


def bare_boot(browser, server, page_path: str = "__bench__/bare.html") -> float:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(server.url(page_path))
        page.wait_for_selector("html[data-booted], html[data-failed]", timeout=TIMEOUT_MS, state="attached")
        failed = page.get_attribute("html", "data-failed")
        if failed:
            raise SystemExit(f"the engine did not start: {failed}")
        return float(page.get_attribute("html", "data-booted"))
    finally:
        context.close()


def first_answer(browser, server, path: str, calc_id: str) -> tuple[float, dict]:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(server.url(path))
        root = page.wait_for_selector(f'.calculator[data-calculator="{calc_id}"][data-first-answer-at]', timeout=TIMEOUT_MS, state="attached")
        phases = page.evaluate(
            "({started: fireMissionEngine.startedAt, boot: fireMissionEngine.bootMs, snapshot: fireMissionEngine.fromSnapshot, ...fireMissionEngine.phases})"
        )
        return float(root.get_attribute("data-first-answer-at")), phases
    finally:
        context.close()


ROUND_TRIPS = """async ([id, inputs, repeats]) => {
    const out = [];
    for (let i = 0; i < repeats; i++) {
        const t0 = performance.now();
        const { answer, ms } = await fireMissionEngine.call({ op: "odds", id, inputs, describe: true });
        if (answer.error) throw new Error(answer.error);
        out.push([performance.now() - t0, ms]);
    }
    return out;
}"""


def unseen_inputs(calc, count: int = 3) -> list[dict[str, str]]:
    """``count`` valid input sets drawn at random (seeded by the calculator's id)
    over its int, bool and choice fields: inputs the worker's warm-up never ran."""
    rng = random.Random(calc.id)
    found: list[dict[str, str]] = []
    for _ in range(500):
        raw: dict[str, str] = {}
        for f in calc.fields:
            if f.type == "int":
                low = f.minimum if f.minimum is not None else 0
                raw[f.name] = str(rng.randint(low, f.maximum if f.maximum is not None else low + 10))
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


def warm_answers(browser, server, repeats: int = 7) -> tuple[dict[str, dict], dict]:
    """(warm answers per calculator, the first answers right after the engine started).

    An engine restored from a snapshot has run little Python yet: for the first
    few seconds (4 to 6 here) the browser runs Python's interpreter unoptimised
    while it compiles the optimised code in the background, and answers take up
    to 5 times longer. So the first pass over every calculator and input set,
    right after the engine is ready, is timed apart as the cold answers; the
    warm answers are timed once the page has been open SETTLE_S seconds, as a
    player's would be after reading the form, by when the worker's own
    warm-up (worker.mjs) is over.
    """
    context = browser.new_context()
    out = {}
    try:
        page = context.new_page()
        calcs = rules_py.calculators()
        page.goto(server.url(f"calculators/{calcs[0].id}/"))
        page.wait_for_selector(f'.calculator[data-calculator="{calcs[0].id}"][data-status="ready"]', timeout=TIMEOUT_MS)
        cold = []
        for calc in calcs:
            for inputs in ({}, *calc.examples):
                cold += [t for t, _ in page.evaluate(ROUND_TRIPS, [calc.id, inputs, 1])]
        page.wait_for_function(f"performance.now() > {SETTLE_S * 1000}", polling=100, timeout=TIMEOUT_MS)
        warm_up = page.evaluate("fireMissionEngine.warmUp || null")
        for calc in calcs:
            round_trips, computes = [], []
            for inputs in ({}, *calc.examples):
                times = page.evaluate(ROUND_TRIPS, [calc.id, inputs, repeats])
                round_trips += [t for t, _ in times]
                computes += [m for _, m in times]
            unseen = [t for inputs in unseen_inputs(calc) for t, _ in page.evaluate(ROUND_TRIPS, [calc.id, inputs, 3])]
            out[calc.id] = {
                "median_ms": round(statistics.median(round_trips), 2),
                "worst_ms": round(max(round_trips), 2),
                "median_python_ms": round(statistics.median(computes), 2),
                "input_sets": 1 + len(calc.examples),
                "unseen_median_ms": round(statistics.median(unseen), 2) if unseen else None,
                "unseen_worst_ms": round(max(unseen), 2) if unseen else None,
            }
    finally:
        context.close()
    return out, {
        "answers": len(cold),
        "median_ms": round(statistics.median(cold), 2),
        "worst_ms": round(max(cold), 2),
        "total_ms": round(sum(cold)),
        "worker_warm_up": warm_up,
    }


def transferred(browser, server, path: str, calc_id: str | None) -> dict:
    context = browser.new_context()
    sizes: dict[str, int] = {}
    try:

        def finished(request):
            s = request.sizes()
            sizes[request.url] = s["responseBodySize"] + s["responseHeadersSize"]

        context.on("requestfinished", finished)
        page = context.new_page()
        page.goto(server.url(path))
        if calc_id:
            page.wait_for_selector(f'.calculator[data-calculator="{calc_id}"][data-status="ready"]', timeout=TIMEOUT_MS)
        page.wait_for_load_state("networkidle")
    finally:
        context.close()
    gz = 0
    for url in sizes:
        local = urlsplit(url).path
        file = SITE / local.lstrip("/")
        if local.endswith("/"):
            file = file / "index.html"
        if file.is_file():
            gz += len(gzip.compress(file.read_bytes(), 6))
    return {"requests": len(sizes), "bytes": sum(sizes.values()), "gzip_bytes": gz}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if not (SITE / "index.html").exists():
        print("site/ is not built: run `make site` first", file=sys.stderr)
        return 2

    calcs = rules_py.calculators()
    first = calcs[0]
    example = first.examples[0] if first.examples else {}
    calc_path = f"calculators/{first.id}/" + ("?" + urlencode(example) if example else "")
    embedded = next((c for c in calcs if c.page), None)
    rules_with = embedded.page.removesuffix(".md").removesuffix("index").rstrip("/") + "/" if embedded else None
    rules_without = "combat-hq/"  # a system's index page: a rules page with no calculator

    from playwright.sync_api import sync_playwright

    extra = {
        "/__bench__/bare.html": ("text/html; charset=utf-8", BARE_PAGE),
        "/__bench__/bare-worker.mjs": ("text/javascript", BARE_WORKER),
        "/__bench__/engine.html": ("text/html; charset=utf-8", ENGINE_PAGE),
    }
    with StaticServer(SITE, extra=extra) as server, sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            bare_boot(browser, server)  # warm the OS file cache and the browser binary, not counted
            a, e, b, phases = [], [], [], []
            for i in range(args.runs):
                a.append(bare_boot(browser, server))
                e.append(bare_boot(browser, server, "__bench__/engine.html"))
                t, ph = first_answer(browser, server, calc_path, first.id)
                b.append(t)
                phases.append(ph)
                print(f"  run {i + 1}: bare boot {a[-1]:.0f} ms, engine alone {e[-1]:.0f} ms, first answer {b[-1]:.0f} ms", file=sys.stderr)
            warm, cold = warm_answers(browser, server)
            pages = {
                "rules page without a calculator (" + rules_without + ")": transferred(browser, server, rules_without, None),
            }
            if rules_with:
                pages[f"rules page with a calculator ({rules_with})"] = transferred(browser, server, rules_with, embedded.id)
            pages[f"calculator page ({calc_path})"] = transferred(browser, server, calc_path, first.id)
        finally:
            browser.close()

    snaps = [bool(p["snapshot"]) for p in phases]
    ma, me, mb = statistics.median(a), statistics.median(e), statistics.median(b)
    report = {
        "runs": args.runs,
        "a_bare_boot_ms": {"median": round(ma), "all": [round(x) for x in a]},
        "e_engine_alone_ms": {"median": round(me), "all": [round(x) for x in e]},
        "b_first_answer_ms": {"median": round(mb), "all": [round(x) for x in b], "page": calc_path},
        "b_over_a": round(mb / ma, 3),
        "b_over_e": round(mb / me, 3),
        "worker_phases_ms_median": {k: round(statistics.median(p[k] for p in phases)) for k in phases[0] if k != "snapshot"},
        "from_snapshot": [bool(p["snapshot"]) for p in phases],
        "c_warm_answers": warm,
        "c_cold_first_pass": cold,
        "d_transfer": pages,
    }
    print(f"(a) bare Pyodide boot        median {ma:.0f} ms   {[round(x) for x in a]}")
    print(f"(e) the site's engine alone  median {me:.0f} ms   {[round(x) for x in e]}")
    print(f"(b) navigation → 1st answer  median {mb:.0f} ms   {[round(x) for x in b]}   ({calc_path})")
    print(f"    (b)/(a) = {mb / ma:.3f}   goal ≤ 1.10: {'met' if mb / ma <= 1.10 else 'NOT met'}")
    print(f"    (b)/(e) = {mb / me:.3f}   (what the page adds to its engine)")
    print(f"    worker phases (median ms): {report['worker_phases_ms_median']}; Python from the snapshot in {sum(snaps)} of {len(snaps)} runs")
    print("(c) warm answers in the page (round trip; Python alone), goal ≤ 30 ms:")
    for calc_id, w in warm.items():
        ok = "met" if w["worst_ms"] <= 30 else "NOT met"
        unseen = f"unseen: median {w['unseen_median_ms']:5.1f}, worst {w['unseen_worst_ms']:6.1f} ms" if w["unseen_median_ms"] is not None else ""
        print(f"    {calc_id:24s} median {w['median_ms']:5.1f} ms  worst {w['worst_ms']:5.1f} ms  (Python {w['median_python_ms']:4.1f} ms)  {ok:7s}  {unseen}")
    print(
        f"    cold first pass right after start ({cold['answers']} answers, {cold['total_ms']:.0f} ms in all): "
        f"median {cold['median_ms']:.1f} ms, worst {cold['worst_ms']:.1f} ms"
    )
    if cold["worker_warm_up"]:
        w = cold["worker_warm_up"]
        print(f"    the worker's warm-up: {w['answers']} answers, {w['ms']:.0f} ms of Python, done within {SETTLE_S} s")
    else:
        print(f"    the worker's warm-up was not over {SETTLE_S} s after the page opened")
    print("(d) bytes transferred:")
    for name, d in pages.items():
        print(f"    {name}: {d['bytes'] / 1024:,.0f} KiB in {d['requests']} requests ({d['gzip_bytes'] / 1024:,.0f} KiB gzip-compressed)")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
