"""Benchmark the calculators in a real browser, on the built site as a static host serves it.

    python -m scripts.bench.bench_browser [--profiles loopback,fast4g,slow4g] [--cpu 1,4] [--runs 1]
                                    [--warm] [--json out.json]

Needs `make site` first and Debian's Chromium. The site is served by
local_site.HostServer, which behaves like a static host (gzip for compressible
files, .gz files as they are, Last-Modified and 304s, keep-alive) and paces
every byte it sends through one shared link, so the Web Worker's and the
service worker's downloads are throttled too (DevTools' network emulation
would not reach them). Profiles: loopback (unpaced), fast4g (9 Mbit/s, 60 ms
round trip), slow4g (1.6 Mbit/s, 150 ms); --cpu 4 also slows the CPU 4 times
(Emulation.setCPUThrottlingRate on the page).

For each profile and CPU rate, medians of --runs runs, each in fresh browser
contexts (nothing cached, no service worker):

  bare      a bare Pyodide boot: an empty page whose module worker loads
            Pyodide as published (node_modules/pyodide, whole standard library)
            the ordinary way, from navigation start to loadPyodide's end;
  first     a first visit of a calculator page with inputs in its query whose
            answer the page does not carry (neither its defaults nor an
            example: engine_inputs): navigation start to the first answer
            on show (the view's data-first-answer-at); bytes and requests up to
            then, and once the visit has settled (the service worker's
            precache, the snapshot for the next visit);
  default   a first visit of a calculator page at its defaults: when the live
            view showed its first answer, and when the page first painted an
            answer (the build's copy of the calculator included: Element
            Timing) less first contentful paint;
  repeat    the first visit's browser opens the same page again: first answer;
  third     and once more: the first visit's WebAssembly came from the network
            (its compiled code went to the HTTP cache), the repeat's from the
            service worker's cache, whose copy gets the compiled code only as
            the repeat visit runs (V8's code cache, written once enough has been
            optimised): this third visit is the first to start with it, as a
            returning player does from then on;
  phone     (--phone) the same link on a phone (390 x 844, touch) with the CPU
            slowed 4 times, whatever --cpu says: navigation start to the
            link's answer on show, first visit and second (the engine in the
            browser's cache), and with option B's and the sweep's answers where
            it has them (--phone-link opens another link; issue43: issue 43's,
            every kind of parameter), when the link's inputs first showed in a field
            (the build's copy or the live form), and the longest stretch the
            calculator showed neither an answer nor words of what it does;
  offline   then with the network cut (the server drops every request):
            other calculator pages answer (every one on loopback, two
            elsewhere) and rules pages open (every page of the site on
            loopback, two elsewhere).

Goals, as ratios of the same run's bare boot: first <= 0.6 on fast4g and on
loopback; repeat <= 0.25 on loopback, and within 1.0 s on fast4g with the CPU
slowed 4 times (issue 24); default answer <= 100 ms after first contentful
paint; first visit <= 6 MiB on the wire; offline: every page opens and every
calculator answers. Under the table, where the repeat visit's engine start went
(medians of the worker's phases: Python up from the snapshot, the wheel
written, rules_py imported).

--warm adds the old warm-answer table (each calculator's engine round trips).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import urllib.request
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

from scripts.bench.page_visits import TIMEOUT_MS, answer_at, engine_inputs, quiet, settle, unseen_inputs
from scripts.support.local_site import COMPRESSIBLE, HostServer, Link, launch
from scripts.support.page_functions import page_function

import rules_py

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "site"
PYODIDE = ROOT / "node_modules" / "pyodide"

BARE_PAGE = b"""<!doctype html><meta charset="utf-8"><title>Bare Pyodide boot</title>
<script type="module">
const worker = new Worker("/__bench__/bare-worker.mjs", { type: "module" });
worker.onmessage = () => { document.documentElement.dataset.booted = performance.now().toFixed(1); };
</script>"""

# Pyodide as published (node_modules), not the site's copy with its cut standard library.
BARE_WORKER = b"""import { loadPyodide } from "/__bench__/pyodide/pyodide.mjs";
await loadPyodide({ indexURL: new URL("/__bench__/pyodide/", location.href).href, packages: [], stdout: () => {} });
postMessage("loaded");
"""

PROFILES = {
    "loopback": (None, 0),
    "fast4g": (9, 60),
    "slow4g": (1.6, 150),
}
MIB = 2**20

# Issue 43's link with every kind of parameter (--phone-link issue43): inputs, option B, a sweep.
ISSUE_43_CALC = "k47-air-strike"
ISSUE_43_LINK = "flak_shots=4&friendly_flak=2&vs.friendly_experience=veteran&sweep=friendly_flak"
SETTLE_S = 10  # how long a calculator page is open before its warm answers are timed (--warm)


class Profile:
    """One link and CPU rate; every context it opens gets the CPU rate."""

    def __init__(self, browser, server: HostServer, name: str, cpu: float):
        self.browser, self.server, self.name, self.cpu = browser, server, name, cpu
        mbit, rtt = PROFILES[name]
        server.link = Link(mbit, rtt)

    def context(self, service_workers: str = "allow"):
        return self.browser.new_context(service_workers=service_workers)

    def page(self, context):
        page = context.new_page()
        if self.cpu != 1:
            session = context.new_cdp_session(page)
            session.send("Emulation.setCPUThrottlingRate", {"rate": self.cpu})
        return page


def bare_boot(profile: Profile) -> float:
    context = profile.context(service_workers="block")
    try:
        page = profile.page(context)
        page.goto(profile.server.url("__bench__/bare.html"))
        page.wait_for_selector("html[data-booted]", timeout=TIMEOUT_MS, state="attached")
        return float(page.get_attribute("html", "data-booted"))
    finally:
        context.close()


def delta(before: tuple[int, int], after: tuple[int, int]) -> dict:
    return {"bytes": after[0] - before[0], "requests": after[1] - before[1]}


def visits(profile: Profile, first_path: str, default_path: str, calc_id: str, offline_calcs: list[str], offline_pages: list[str]) -> dict:
    server = profile.server
    out: dict = {}
    # default inputs, first visit
    context = profile.context()
    try:
        page = profile.page(context)
        page.goto(server.url(default_path))
        d = answer_at(page, calc_id, painted=True)
        # First painted, less first contentful paint (on a site without the marks: when the live view showed it).
        shown = d["painted_ms"] if d["painted_ms"] is not None else d["ms"]
        out["default"] = {**d, "after_fcp_ms": shown - d["fcp_ms"] if d["fcp_ms"] is not None else None}
    finally:
        context.close()
    quiet(server)  # nothing of that visit left on the link to slow the next
    # non-default inputs: first visit, settled, repeat, network cut
    context = profile.context()
    try:
        page = profile.page(context)
        c0 = server.counters()
        page.goto(server.url(first_path))
        out["first"] = {**answer_at(page, calc_id), **delta(c0, server.counters())}
        settle(page, server)
        out["first"]["settled"] = delta(c0, server.counters())
        c1 = server.counters()
        page.goto(server.url(first_path))
        out["repeat"] = {**answer_at(page, calc_id), **delta(c1, server.counters())}
        settle(page, server, quiet_s=0.5)
        page.goto(server.url(first_path))
        out["third"] = answer_at(page, calc_id)
        settle(page, server, quiet_s=0.5)
        server.cut = True
        try:
            answered, opened, failures = 0, 0, []
            for other in offline_calcs:
                try:
                    page.goto(server.url(f"calculators/{other}/"))
                    page.wait_for_selector(f'.calculator[data-calculator="{other}"][data-status="ready"]', timeout=TIMEOUT_MS)
                    answered += 1
                except Exception as error:
                    failures.append(f"calculators/{other}/: {str(error).splitlines()[0]}")
            for path in offline_pages:
                try:
                    page.goto(server.url(path))
                    page.wait_for_selector("article.md-content__inner h1", timeout=10_000)
                    opened += 1
                except Exception as error:
                    failures.append(f"{path}: {str(error).splitlines()[0]}")
            out["offline"] = {"calculators": f"{answered}/{len(offline_calcs)}", "pages": f"{opened}/{len(offline_pages)}", "failures": failures[:5]}
        finally:
            server.cut = False
    finally:
        context.close()
    return out


# Each animation frame until the live view has answered the link: whether a field the link names
# shows the link's value, whether the calculator says anything (an answer or words).
LINK_FRAMES = page_function(ROOT / "scripts" / "bench" / "page" / "bench_link_frames.mjs")


def phone_link(profile: Profile, path: str, calc_id: str, field: tuple[str, str]) -> dict:
    """The link on a phone with the CPU slowed 4 times: first visit, then second."""
    server = profile.server
    context = profile.browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, bypass_csp=True)
    context.add_init_script(f"({LINK_FRAMES})({json.dumps(list(field))})")
    out = {}
    try:
        page = context.new_page()
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
        for visit in ("first", "second"):
            page.goto(server.url(path))
            answered = answer_at(page, calc_id)
            page.wait_for_function("() => window.__frames.some((f) => f.all)", timeout=TIMEOUT_MS)
            every = page.evaluate("window.__frames")
            frames = [f for f in every if f["t"] <= answered["ms"]]
            shown = next((f["t"] for f in frames if f["link"]), None)
            silent, start = 0.0, None
            for f in frames:
                if f["field"] and not f["said"]:
                    start = f["t"] if start is None else start
                    silent = max(silent, f["t"] - start)
                else:
                    start = None
            out[visit] = {"ms": answered["ms"], "all_ms": round(next(f["t"] for f in every if f["all"])), "inputs_shown_ms": round(shown) if shown is not None else None, "longest_silent_ms": round(silent),
                          "wrong_frames": sum(1 for f in frames if f["field"] and not f["link"])}
            if visit == "first":
                settle(page, server)
    finally:
        context.close()
    return out


def site_pages() -> list[str]:
    """Every page of the built site, as its address under the root ("" for the home page).
    Read from the files, not sitemap.xml, which lists nothing when the build had no SITE_URL."""
    pages = [str(index.parent.relative_to(SITE)) for index in SITE.rglob("index.html")]
    return sorted("" if p == "." else p + "/" for p in pages)


def med(values):
    values = [v for v in values if v is not None]
    return round(statistics.median(values)) if values else None


def run_profile(browser, server, name: str, cpu: float, runs: int, paths: dict, offline: bool = True, phone: bool = False) -> dict:
    profile = Profile(browser, server, name, cpu)
    full = name == "loopback"
    calcs = [c.id for c in rules_py.calculators()]
    offline_calcs = [c for c in calcs if c != paths["id"]] if full else [c for c in calcs if c != paths["id"]][:2]
    pages = [p for p in site_pages() if not p.startswith("calculators/")]
    offline_pages = pages if full else pages[1:3]
    bare, rows = [], []
    for i in range(runs):
        bare.append(bare_boot(profile))
        quiet(server)
        check = offline and i == 0
        rows.append(visits(profile, paths["first"], paths["default"], paths["id"], offline_calcs if check else [], offline_pages if check else []))
        r = rows[-1]
        if phone:
            quiet(server)
            r["phone"] = phone_link(profile, *paths.get("phone", (paths["first"], paths["id"], paths["field"])))
            print(f"  {name} phone cpu×4 run {i + 1}: {r['phone']}", file=sys.stderr)
        print(
            f"  {name} cpu×{cpu:g} run {i + 1}: bare {bare[-1]:.0f} ms, first {r['first']['ms']:.0f} ms, "
            f"default {r['default']['ms']:.0f} ms, repeat {r['repeat']['ms']:.0f} ms, third {r['third']['ms']:.0f} ms; "
            f"repeat's engine {r['repeat'].get('engine')}, third's {r['third'].get('engine')}",
            file=sys.stderr,
        )
    b = statistics.median(bare)
    first = med([r["first"]["ms"] for r in rows])
    repeat = med([r["repeat"]["ms"] for r in rows])
    third = med([r["third"]["ms"] for r in rows])
    return {
        "profile": name,
        "cpu": cpu,
        "bare_ms": round(b),
        "first_ms": first,
        "first_over_bare": round(first / b, 3),
        "first_bytes_to_answer": med([r["first"]["bytes"] for r in rows]),
        "first_requests_to_answer": med([r["first"]["requests"] for r in rows]),
        "first_bytes_settled": med([r["first"]["settled"]["bytes"] for r in rows]),
        "first_requests_settled": med([r["first"]["settled"]["requests"] for r in rows]),
        "default_ms": med([r["default"]["ms"] for r in rows]),
        "default_after_fcp_ms": med([r["default"]["after_fcp_ms"] for r in rows]),
        "default_painted_ms": med([r["default"]["painted_ms"] for r in rows]),
        "repeat_ms": repeat,
        "repeat_over_bare": round(repeat / b, 3),
        "third_ms": third,
        "third_over_bare": round(third / b, 3),
        "repeat_bytes": med([r["repeat"]["bytes"] for r in rows]),
        "repeat_requests": med([r["repeat"]["requests"] for r in rows]),
        "repeat_from_snapshot": [r["repeat"]["snapshot"] for r in rows],
        "offline": rows[0]["offline"],
        "phone": {
            visit: {key: med([r["phone"][visit][key] for r in rows]) for key in ("ms", "all_ms", "inputs_shown_ms", "longest_silent_ms", "wrong_frames")}
            for visit in ("first", "second")
        }
        if phone
        else None,
        "runs": rows,
        "bare_all": [round(x) for x in bare],
    }


GOALS = {"loopback": (0.6, 0.25), "fast4g": (0.6, None), "slow4g": (None, None)}
REPEAT_WITHIN_MS = {("fast4g", 4.0): 1000}  # the repeat visit's goal in seconds, where it has one


def print_table(results: list[dict]) -> None:
    def ok(value, goal):
        return "" if goal is None else (" ✓" if value <= goal else " ✗")

    print("| profile | bare boot | first answer (non-default) | ÷ bare | default answer | − FCP | repeat visit | ÷ bare | third visit | ÷ bare | "
          "first visit to answer | first visit settled | repeat | offline |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for r in results:
        g_first, g_repeat = GOALS[r["profile"]]
        mib = lambda n: f"{n / MIB:.2f} MiB"  # noqa: E731
        print(
            f"| {r['profile']} cpu×{r['cpu']:g} | {r['bare_ms']} ms | {r['first_ms']} ms | {r['first_over_bare']:.2f}{ok(r['first_over_bare'], g_first)} | "
            f"{r['default_ms']} ms | {r['default_after_fcp_ms']} ms{ok(r['default_after_fcp_ms'], 100)} | "
            f"{r['repeat_ms']} ms{ok(r['repeat_ms'], REPEAT_WITHIN_MS.get((r['profile'], r['cpu'])))} | "
            f"{r['repeat_over_bare']:.2f}{ok(r['repeat_over_bare'], g_repeat)} | "
            f"{r['third_ms']} ms | {r['third_over_bare']:.2f} | "
            f"{mib(r['first_bytes_to_answer'])}{ok(r['first_bytes_to_answer'], 6 * MIB)} in {r['first_requests_to_answer']} | "
            f"{mib(r['first_bytes_settled'])} in {r['first_requests_settled']} | {mib(r['repeat_bytes'])} in {r['repeat_requests']} | "
            f"calculators {r['offline']['calculators']}, pages {r['offline']['pages']} |"
        )
    for r in results:
        for visit in ("repeat", "third"):
            phases = [run[visit]["engine"]["phases"] for run in r["runs"] if (run[visit].get("engine") or {}).get("phases")]
            if phases:
                medians = ", ".join(f"{name} {med([p[name] for p in phases])} ms" for name in phases[0])
                print(f"  {visit} visit's engine start ({r['profile']} cpu×{r['cpu']:g}, medians of {len(phases)}): {medians}")
    for r in results:
        if r["phone"]:
            for visit, p in r["phone"].items():
                print(
                    f"  the link on a phone, CPU slowed 4 times ({r['profile']}), {visit} visit: answer {p['ms']} ms (option B's and the sweep's too, where it has them: {p['all_ms']} ms), its inputs shown from "
                    f"{p['inputs_shown_ms']} ms, longest silence {p['longest_silent_ms']} ms, frames with other values {p['wrong_frames']}"
                )
    for r in results:
        for failure in r["offline"]["failures"]:
            print(f"  offline failure ({r['profile']}): {failure}")


ROUND_TRIPS = page_function(ROOT / "scripts" / "bench" / "page" / "bench_round_trips.mjs")


def warm_answers(browser, server, repeats: int = 7) -> dict[str, dict]:
    """Each calculator's warm answer time in the page (engine round trips, median and
    worst of ``repeats`` for its default and example inputs), once the page has been
    open SETTLE_S seconds, and three unseen input sets each."""
    context = browser.new_context(service_workers="block")
    out = {}
    try:
        page = context.new_page()
        calcs = rules_py.calculators()
        page.goto(server.url(f"calculators/{calcs[0].id}/"))
        page.wait_for_selector(f'.calculator[data-calculator="{calcs[0].id}"][data-status="ready"]', timeout=TIMEOUT_MS)
        page.wait_for_function(f"() => performance.now() > {SETTLE_S * 1000}", polling=100, timeout=TIMEOUT_MS)
        for calc in calcs:
            round_trips = []
            for inputs in ({}, *calc.examples):
                round_trips += [t for t, _ in page.evaluate(ROUND_TRIPS, [calc.id, inputs, repeats])]
            unseen = [t for inputs in unseen_inputs(calc) for t, _ in page.evaluate(ROUND_TRIPS, [calc.id, inputs, 3])]
            out[calc.id] = {
                "median_ms": round(statistics.median(round_trips), 2),
                "worst_ms": round(max(round_trips), 2),
                "unseen_worst_ms": round(max(unseen), 2) if unseen else None,
            }
    finally:
        context.close()
    return out


def precompress(server: HostServer) -> None:
    """Have the server gzip every compressible file once, before anything is timed: a static
    host or its CDN compresses a file once and keeps it, where this server compresses a file
    on its first request (a second or so for the 9.6 MB WebAssembly, which a first run paid)."""
    for file in sorted(SITE.rglob("*")):
        if file.is_file() and file.suffix in COMPRESSIBLE:
            request = urllib.request.Request(server.url(file.relative_to(SITE).as_posix()), headers={"Accept-Encoding": "gzip"})
            with urllib.request.urlopen(request, timeout=60) as response:
                response.read()


def main() -> int:
    global SITE
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", default="loopback,fast4g", help=f"comma-separated, of {', '.join(PROFILES)}")
    parser.add_argument("--cpu", default="1", help="comma-separated CPU slow-down rates, e.g. 1,4")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--warm", action="store_true", help="also time every calculator's warm answers (loopback)")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--no-offline", action="store_true", help="skip the offline checks (start-up figures only, sooner)")
    parser.add_argument("--site", type=Path, default=SITE, help="a built site (default: site/), e.g. an older build to compare")
    parser.add_argument("--phone", action="store_true", help="also the link on a phone with the CPU slowed 4 times, first and second visit")
    parser.add_argument("--phone-link", default=None, metavar="QUERY",
                        help=f"with --phone, the link opened on the phone instead: a query of the first calculator's page, or issue43 for {ISSUE_43_CALC}'s {ISSUE_43_LINK}")
    args = parser.parse_args()
    SITE = args.site.resolve()
    if not (SITE / "index.html").exists():
        print("site/ is not built: run `make site` first", file=sys.stderr)
        return 2
    names = [p.strip() for p in args.profiles.split(",") if p.strip()]
    for name in names:
        if name not in PROFILES:
            parser.error(f"no profile {name!r}")
    rates = [float(c) for c in args.cpu.split(",")]

    calcs = rules_py.calculators()
    first = calcs[0]
    link = engine_inputs(first)
    paths = {
        "id": first.id,
        "field": next(iter(link.items())),  # a field the link names, with its value
        "first": f"calculators/{first.id}/?" + urlencode(link),
        "default": f"calculators/{first.id}/",
    }
    if args.phone_link is not None:
        calc_id, query = (ISSUE_43_CALC, ISSUE_43_LINK) if args.phone_link == "issue43" else (first.id, args.phone_link)
        paths["phone"] = (f"calculators/{calc_id}/?{query}", calc_id, next(iter(parse_qsl(query))))

    from playwright.sync_api import sync_playwright

    extra = {
        "/__bench__/bare.html": ("text/html; charset=utf-8", BARE_PAGE),
        "/__bench__/bare-worker.mjs": ("text/javascript", BARE_WORKER),
    }
    results = []
    warm = None
    with HostServer(SITE, extra=extra, mounts={"/__bench__/pyodide/": PYODIDE}) as server, sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            bare_boot(Profile(browser, server, "loopback", 1))  # warm the OS file cache and the browser binary, not counted
            precompress(server)
            for name in names:
                for cpu in rates:
                    results.append(run_profile(browser, server, name, cpu, args.runs, paths, offline=not args.no_offline, phone=args.phone and cpu == rates[0]))
            if args.warm:
                server.link = Link()
                warm = warm_answers(browser, server)
        finally:
            browser.close()

    print(f"Pages: {paths['first']} (non-default), {paths['default']} (default); {args.runs} run(s), medians.")
    print_table(results)
    if warm:
        print("Warm answers in the page (round trip), goal <= 30 ms:")
        for calc_id, w in warm.items():
            print(f"    {calc_id:24s} median {w['median_ms']:5.1f} ms  worst {w['worst_ms']:5.1f} ms  unseen worst {w['unseen_worst_ms']} ms")
    if args.json:
        args.json.write_text(json.dumps({"results": results, "warm": warm}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
