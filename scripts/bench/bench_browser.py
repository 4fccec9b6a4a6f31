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
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NotRequired, TypedDict
from urllib.parse import parse_qsl, urlencode

from scripts.bench.page_visits import TIMEOUT_MS, Answered, answer_at, engine_inputs, number_at, quiet, settle, unseen_inputs
from scripts.support.local_site import COMPRESSIBLE, HostServer, Link, launch
from scripts.support.page_functions import page_function

import rules_py

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

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


class Paths(TypedDict):
    """The pages a run opens: the first calculator's page at its defaults and with the inputs
    of a link (``first``, and ``field``, one input the link names with its value), and the link
    a phone opens (``phone``: its page, calculator and named input) where --phone-link says another."""

    id: str
    field: tuple[str, str]
    first: str
    default: str
    phone: NotRequired[tuple[str, str, tuple[str, str]]]


class Traffic(TypedDict):
    """What the host sent over a stretch of a visit."""

    bytes: int
    requests: int


class DefaultVisit(Answered):
    after_fcp_ms: float | None  # first painted (or shown) less first contentful paint


class FirstVisit(Answered, Traffic):
    settled: Traffic  # up to the visit's background work done


class RepeatVisit(Answered, Traffic):
    pass


class Offline(TypedDict):
    calculators: str  # "answered/asked"
    pages: str  # "opened/asked"
    failures: list[str]  # the first five


class Frame(TypedDict):
    """One animation frame's record (bench_link_frames.mjs)."""

    t: float
    link: bool
    field: bool
    said: bool
    all: bool


class PhoneVisit(TypedDict):
    ms: float
    all_ms: int
    inputs_shown_ms: int | None
    longest_silent_ms: int
    wrong_frames: int


class PhoneMedians(TypedDict):
    ms: int | None
    all_ms: int | None
    inputs_shown_ms: int | None
    longest_silent_ms: int | None
    wrong_frames: int | None


class Visits(TypedDict):
    """One run's visits (see the module's docstring)."""

    default: DefaultVisit
    first: FirstVisit
    repeat: RepeatVisit
    third: Answered
    offline: Offline
    phone: NotRequired[dict[str, PhoneVisit]]  # "first", "second"; with --phone


class ProfileResult(TypedDict):
    """A profile's medians over its runs, its runs, and the bare boots."""

    profile: str
    cpu: float
    bare_ms: int
    first_ms: int
    first_over_bare: float
    first_bytes_to_answer: int
    first_requests_to_answer: int
    first_bytes_settled: int
    first_requests_settled: int
    default_ms: int
    default_after_fcp_ms: int | None
    default_painted_ms: int | None
    repeat_ms: int
    repeat_over_bare: float
    third_ms: int
    third_over_bare: float
    repeat_bytes: int
    repeat_requests: int
    repeat_from_snapshot: list[bool | None]
    offline: Offline
    phone: dict[str, PhoneMedians] | None
    runs: list[Visits]
    bare_all: list[int]


class WarmAnswer(TypedDict):
    median_ms: float
    worst_ms: float
    unseen_worst_ms: float | None


class Profile:
    """One link and CPU rate; every context it opens gets the CPU rate."""

    def __init__(self, browser: Browser, server: HostServer, name: str, cpu: float) -> None:
        self.browser, self.server, self.name, self.cpu = browser, server, name, cpu
        mbit, rtt = PROFILES[name]
        server.link = Link(mbit, rtt)

    def context(self, service_workers: Literal["allow", "block"] = "allow") -> BrowserContext:
        return self.browser.new_context(service_workers=service_workers)

    def page(self, context: BrowserContext) -> Page:
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
        return number_at(page, "html[data-booted]", "data-booted")
    finally:
        context.close()


def delta(before: tuple[int, int], after: tuple[int, int]) -> Traffic:
    return {"bytes": after[0] - before[0], "requests": after[1] - before[1]}


def visits(profile: Profile, first_path: str, default_path: str, calc_id: str, offline_calcs: list[str], offline_pages: list[str]) -> Visits:
    server = profile.server
    # default inputs, first visit
    context = profile.context()
    try:
        page = profile.page(context)
        page.goto(server.url(default_path))
        d = answer_at(page, calc_id, painted=True)
        # First painted, less first contentful paint (on a site without the marks: when the live view showed it).
        painted = d.get("painted_ms")
        shown = painted if painted is not None else d["ms"]
        default: DefaultVisit = {**d, "after_fcp_ms": shown - d["fcp_ms"] if d["fcp_ms"] is not None else None}
    finally:
        context.close()
    quiet(server)  # nothing of that visit left on the link to slow the next
    # non-default inputs: first visit, settled, repeat, network cut
    context = profile.context()
    try:
        page = profile.page(context)
        c0 = server.counters()
        page.goto(server.url(first_path))
        first_answer, first_traffic = answer_at(page, calc_id), delta(c0, server.counters())
        settle(page, server)
        first: FirstVisit = {**first_answer, **first_traffic, "settled": delta(c0, server.counters())}
        c1 = server.counters()
        page.goto(server.url(first_path))
        repeat: RepeatVisit = {**answer_at(page, calc_id), **delta(c1, server.counters())}
        settle(page, server, quiet_s=0.5)
        page.goto(server.url(first_path))
        third = answer_at(page, calc_id)
        settle(page, server, quiet_s=0.5)
        server.cut = True
        try:
            answered, opened = 0, 0
            failures: list[str] = []
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
            offline: Offline = {"calculators": f"{answered}/{len(offline_calcs)}", "pages": f"{opened}/{len(offline_pages)}", "failures": failures[:5]}
        finally:
            server.cut = False
    finally:
        context.close()
    return {"default": default, "first": first, "repeat": repeat, "third": third, "offline": offline}


# Each animation frame until the live view has answered the link: whether a field the link names
# shows the link's value, whether the calculator says anything (an answer or words).
LINK_FRAMES = page_function(ROOT / "scripts" / "bench" / "page" / "bench_link_frames.mjs")


def phone_link(profile: Profile, path: str, calc_id: str, field: tuple[str, str]) -> dict[str, PhoneVisit]:
    """The link on a phone with the CPU slowed 4 times: first visit, then second."""
    server = profile.server
    context = profile.browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, bypass_csp=True)
    context.add_init_script(f"({LINK_FRAMES})({json.dumps(list(field))})")
    out: dict[str, PhoneVisit] = {}
    try:
        page = context.new_page()
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
        for visit in ("first", "second"):
            page.goto(server.url(path))
            answered = answer_at(page, calc_id)
            page.wait_for_function("() => window.__frames.some((f) => f.all)", timeout=TIMEOUT_MS)
            every: list[Frame] = page.evaluate("window.__frames")
            frames = [f for f in every if f["t"] <= answered["ms"]]
            shown = next((f["t"] for f in frames if f["link"]), None)
            silent = 0.0
            start: float | None = None
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


def med(values: Iterable[float | None]) -> int | None:
    """The median of the values there are, rounded (None if there are none)."""
    there = [v for v in values if v is not None]
    return round(statistics.median(there)) if there else None


def median_ms(values: list[float]) -> int:
    """The median of a figure every run has, rounded."""
    return round(statistics.median(values))


def phone_medians(visits: list[PhoneVisit]) -> PhoneMedians:
    return {
        "ms": med(v["ms"] for v in visits),
        "all_ms": med(v["all_ms"] for v in visits),
        "inputs_shown_ms": med(v["inputs_shown_ms"] for v in visits),
        "longest_silent_ms": med(v["longest_silent_ms"] for v in visits),
        "wrong_frames": med(v["wrong_frames"] for v in visits),
    }


def run_profile(browser: Browser, server: HostServer, name: str, cpu: float, runs: int, paths: Paths, offline: bool = True, phone: bool = False) -> ProfileResult:
    profile = Profile(browser, server, name, cpu)
    full = name == "loopback"
    calcs = [c.id for c in rules_py.calculators()]
    offline_calcs = [c for c in calcs if c != paths["id"]] if full else [c for c in calcs if c != paths["id"]][:2]
    pages = [p for p in site_pages() if not p.startswith("calculators/")]
    offline_pages = pages if full else pages[1:3]
    bare: list[float] = []
    rows: list[Visits] = []
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
    first = median_ms([r["first"]["ms"] for r in rows])
    repeat = median_ms([r["repeat"]["ms"] for r in rows])
    third = median_ms([r["third"]["ms"] for r in rows])
    return {
        "profile": name,
        "cpu": cpu,
        "bare_ms": round(b),
        "first_ms": first,
        "first_over_bare": round(first / b, 3),
        "first_bytes_to_answer": median_ms([r["first"]["bytes"] for r in rows]),
        "first_requests_to_answer": median_ms([r["first"]["requests"] for r in rows]),
        "first_bytes_settled": median_ms([r["first"]["settled"]["bytes"] for r in rows]),
        "first_requests_settled": median_ms([r["first"]["settled"]["requests"] for r in rows]),
        "default_ms": median_ms([r["default"]["ms"] for r in rows]),
        "default_after_fcp_ms": med([r["default"]["after_fcp_ms"] for r in rows]),
        "default_painted_ms": med([r["default"].get("painted_ms") for r in rows]),
        "repeat_ms": repeat,
        "repeat_over_bare": round(repeat / b, 3),
        "third_ms": third,
        "third_over_bare": round(third / b, 3),
        "repeat_bytes": median_ms([r["repeat"]["bytes"] for r in rows]),
        "repeat_requests": median_ms([r["repeat"]["requests"] for r in rows]),
        "repeat_from_snapshot": [r["repeat"]["snapshot"] for r in rows],
        "offline": rows[0]["offline"],
        "phone": {visit: phone_medians([r["phone"][visit] for r in rows]) for visit in ("first", "second")} if phone else None,
        "runs": rows,
        "bare_all": [round(x) for x in bare],
    }


GOALS = {"loopback": (0.6, 0.25), "fast4g": (0.6, None), "slow4g": (None, None)}
REPEAT_WITHIN_MS = {("fast4g", 4.0): 1000}  # the repeat visit's goal in seconds, where it has one


def print_table(results: list[ProfileResult]) -> None:
    def ok(value: float | None, goal: float | None) -> str:
        return "" if goal is None or value is None else (" ✓" if value <= goal else " ✗")

    def mib(n: float) -> str:
        return f"{n / MIB:.2f} MiB"

    print("| profile | bare boot | first answer (non-default) | ÷ bare | default answer | − FCP | repeat visit | ÷ bare | third visit | ÷ bare | "
          "first visit to answer | first visit settled | repeat | offline |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for r in results:
        g_first, g_repeat = GOALS[r["profile"]]
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
        for visit, answers in (("repeat", [run["repeat"] for run in r["runs"]]), ("third", [run["third"] for run in r["runs"]])):
            phases = [p for p in map(engine_phases, answers) if p]
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


def engine_phases(answer: Answered) -> dict[str, float] | None:
    """The phases of the engine's start, where it said them."""
    return answer["engine"]["phases"] if answer["engine"] else None


ROUND_TRIPS = page_function(ROOT / "scripts" / "bench" / "page" / "bench_round_trips.mjs")


def warm_answers(browser: Browser, server: HostServer, repeats: int = 7) -> dict[str, WarmAnswer]:
    """Each calculator's warm answer time in the page (engine round trips, median and
    worst of ``repeats`` for its default and example inputs), once the page has been
    open SETTLE_S seconds, and three unseen input sets each."""
    context = browser.new_context(service_workers="block")
    out: dict[str, WarmAnswer] = {}
    try:
        page = context.new_page()
        calcs = rules_py.calculators()
        page.goto(server.url(f"calculators/{calcs[0].id}/"))
        page.wait_for_selector(f'.calculator[data-calculator="{calcs[0].id}"][data-status="ready"]', timeout=TIMEOUT_MS)
        page.wait_for_function(f"() => performance.now() > {SETTLE_S * 1000}", polling=100, timeout=TIMEOUT_MS)
        for calc in calcs:
            round_trips: list[float] = []
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
    paths: Paths = {
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
    results: list[ProfileResult] = []
    warm: dict[str, WarmAnswer] | None = None
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
