"""The engine starts from the build's memory snapshot of Pyodide, and without it.

scripts/build/build_wheel.py takes a snapshot of the vendored Pyodide, booted with
the standard library modules that the worker's start-up imports
(scripts/build/pyodide_snapshot.mjs). A first visit boots Python the ordinary way
(the 6 MB snapshot costs a phone more to download than it saves) and fetches
the snapshot after its first answer; from the next visit on the worker
restores it from the browser's cache instead of booting Python. These check, in Chromium, that the calculators answer the CLI's odds
from the snapshot, that the snapshot leaves nothing for rules_py to import,
that a host which loses the snapshot or inflates it itself still gets
answers, and that a worker held up, as a busy phone's is, still judges the link
right (loader/link.mjs).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import shutil

import pytest

import rules_py
from conftest import BOOT_TIMEOUT_MS, ROOT, cli, cli_odds, open_tab, query
from scripts.build.build_wheel import expand_snapshot
from scripts.support.local_site import HostServer, Link, StaticServer

pytestmark = pytest.mark.browser

GENERATED = ROOT / "docs" / "assets" / "generated"
SNAPSHOT_PATH = "/assets/generated/pyodide-snapshot.bin.gz"
WASM_PATH = "/assets/generated/pyodide/pyodide.asm.wasm"
WASM_XZ_PATH = WASM_PATH + ".xz"

# A calculator whose odds are worked out by hand in tests/test_browser_engine.py:
# Soviet Union, no boosts, P(success) = 11/32.
CALC_ID = "chq-comms-check"
INPUTS = {"nation": "soviet"}


def asked(server) -> list[str]:
    """The paths the server was asked for, in order, without their queries (?v=<hash>)."""
    return [p.split("?")[0] for p in server.requested]


def runtime() -> dict:
    return json.loads((GENERATED / "runtime.json").read_text())


def test_runtime_names_the_snapshot_with_its_hash():
    rt = runtime()
    data = (GENERATED / rt["snapshot"]).read_bytes()
    assert rt["snapshot_sha256"] == hashlib.sha256(data).hexdigest()
    sparse = gzip.decompress(data)
    # Stored sparse (its runs of zeros left out): Pyodide's snapshot header, then
    # the whole WebAssembly memory (30 MiB here), once expanded as the worker does.
    raw = expand_snapshot(sparse)
    assert raw[:4] == b"\x00snp" and len(raw) >= 16 * 2**20 and len(sparse) < len(raw) // 2
    # rules_py.tables reads CSV and TOML with importlib.resources; calculators use fractions.
    for module in ("csv", "fractions", "tomllib", "importlib.resources"):
        assert module in rt["snapshot_modules"], module
    assert not any(m.startswith("rules_py") for m in rt["snapshot_modules"])  # the rules come as the wheel


def engine_report(tab) -> dict:
    # The standard library modules imported are reported once every calculator is
    # loaded, after the first answer (the first answer loads its own alone).
    tab.page.wait_for_function("() => fireMissionEngine.imported !== undefined", timeout=BOOT_TIMEOUT_MS)
    return tab.page.evaluate("({snapshot: fireMissionEngine.fromSnapshot, imported: fireMissionEngine.imported})")


def open_calculator(tab):
    tab.goto(f"calculators/{CALC_ID}/{query(INPUTS)}")
    tab.calculator(CALC_ID)
    expected = cli_odds(CALC_ID, INPUTS)
    assert expected[("success", "true")] == "11/32"
    assert tab.odds_cells(CALC_ID) == expected


def js_constant(module: str, name: str) -> int:
    """A whole-number constant of the engine's glue (docs/assets/calc/), as its source states it."""
    source = (ROOT / "docs/assets/calc" / module).read_text(encoding="utf-8")
    return int(re.search(rf"const {name} = (\d+);", source).group(1))


def slow_link_mbit() -> float:
    """A link the worker calls slow, with a margin: one on which the snapshot would
    take 1.5 times SNAPSHOT_PAYS_MS (docs/assets/calc/loader/link.mjs) to arrive. About
    16 Mbit/s for a 6 MB snapshot: as slow as the rule needs, and no slower, since
    every first visit in this module waits for its downloads at this rate."""
    pays_s = js_constant("loader/link.mjs", "SNAPSHOT_PAYS_MS") / 1000
    size = (GENERATED / runtime()["snapshot"]).stat().st_size
    return size * 8 / 1e6 / (1.5 * pays_s)


@pytest.fixture(scope="module")
def phone_host(site):
    """The site on a slow link (slow_link_mbit), where a first visit does not fetch
    the snapshot: it would take longer to arrive than Python takes to start."""
    with HostServer(site, link=Link(slow_link_mbit(), 0)) as running:
        yield running


@pytest.fixture
def tab(browser, phone_host):
    """A tab without the route guard, which would turn the HTTP cache off (the second visits need it)."""
    opened = open_tab(browser, phone_host, guard=False)
    yield opened
    opened.close()


@pytest.fixture
def loopback_tab(browser, server):
    """A tab on the unpaced server: a link the worker calls fast, without the route guard."""
    opened = open_tab(browser, server, guard=False)
    yield opened
    opened.close()


def visit_again(tab) -> None:
    """Once the first visit's engine has fetched the snapshot for the next one, visit again."""
    tab.page.wait_for_function("() => fireMissionEngine.snapshotPrefetched !== undefined", timeout=60_000)
    tab.requests.clear()
    tab.server.forget()
    tab.page.reload()
    tab.calculator(CALC_ID)
    # The defaults' answer is the build's: the engine starts once the page is idle.
    tab.page.wait_for_function("() => fireMissionEngine.state === 'ready'", timeout=BOOT_TIMEOUT_MS)


def test_a_first_visit_boots_python_and_the_next_restores_the_snapshot(tab):
    open_calculator(tab)
    report = engine_report(tab)
    assert report["snapshot"] is False
    assert set(runtime()["snapshot_modules"]) <= set(report["imported"])
    # On this link the WebAssembly came as its .xz (0.9 MB fewer), not as it is; the
    # file as it is came once the answer was out, after the snapshot, for the next visit.
    tab.page.wait_for_function("() => fireMissionEngine.files !== undefined", timeout=60_000)
    files = tab.page.evaluate("fireMissionEngine.files")
    assert {"pyodide/pyodide.asm.wasm.xz", "pyodide/pyodide.asm.wasm", runtime()["snapshot"]} <= set(files)
    got = asked(tab.server)
    assert got.index(WASM_XZ_PATH) < got.index(SNAPSHOT_PATH) < got.index(WASM_PATH), got
    visit_again(tab)
    # The second visit took it from the browser's cache: the server saw neither.
    assert not any(p.startswith(WASM_PATH) for p in tab.server.requested)
    # It compiled the WebAssembly as it is: nothing to inflate, and its compiled code can be kept.
    tab.page.wait_for_function("() => fireMissionEngine.files !== undefined")
    second = tab.page.evaluate("fireMissionEngine.files")
    assert "pyodide/pyodide.asm.wasm" in second and "pyodide/pyodide.asm.wasm.xz" not in second, second
    # Every standard library module rules_py needs is in the snapshot already.
    assert engine_report(tab) == {"snapshot": True, "imported": []}
    tab.page.wait_for_function("() => fireMissionEngine.snapshotPrefetched !== undefined")
    assert tab.page.evaluate("fireMissionEngine.snapshotPrefetched") is True  # started from it: nothing more to fetch
    # From the browser's cache: the second visit did not ask the server for it.
    assert SNAPSHOT_PATH not in tab.server.requested
    assert tab.errors == []


@pytest.mark.parametrize(
    "host",
    [
        {"missing": (SNAPSHOT_PATH,)},
        {"extra": {SNAPSHOT_PATH: ("application/gzip", gzip.compress(b"not a snapshot of this Pyodide"))}},
        {"gzip_encoded": (SNAPSHOT_PATH,)},
    ],
    ids=["snapshot-missing", "snapshot-corrupt", "snapshot-inflated-by-the-browser"],
)
def test_a_host_that_loses_or_inflates_the_snapshot_still_gets_answers(browser, site, host):
    with StaticServer(site, **host) as server:
        tab = open_tab(browser, server, guard=False)
        warnings: list[str] = []
        tab.page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
        try:
            open_calculator(tab)
            visit_again(tab)
            report = engine_report(tab)
            if "gzip_encoded" not in host:
                # Python booted the ordinary way and imported what the snapshot would have held.
                assert report["snapshot"] is False
                assert set(runtime()["snapshot_modules"]) <= set(report["imported"])
                if "extra" in host:  # the corrupt one was tried and refused
                    assert any("without its snapshot" in w for w in warnings)
            else:
                assert report == {"snapshot": True, "imported": []}
            answer = cli("odds", CALC_ID, *(f"{k}={v}" for k, v in INPUTS.items()))
            assert tab.odds_cells(CALC_ID) == {(o, v): p for o, values in answer["outcomes"].items() for v, p in values.items()}
            # A 404 is logged by the browser as a failed resource, which is expected here.
            assert [e for e in tab.errors if "404" not in e] == []
        finally:
            tab.close()


def test_warm_up_runs_every_calculator_and_steps_aside_for_requests(tab):
    # The worker's warm-up computes every calculator at its defaults and examples,
    # WARM_UP_ROUNDS times over, after a start from the snapshot (the second visit). A request
    # sent meanwhile is answered, correctly, before it ends.
    tab.goto(f"calculators/{CALC_ID}/")
    tab.calculator(CALC_ID)
    assert tab.page.evaluate("fireMissionEngine.warmUp") is None  # an ordinary boot warms up nothing
    visit_again(tab)
    assert engine_report(tab)["snapshot"] is True
    during = tab.page.evaluate(
        """async inputs => {
            const { answer } = await fireMissionEngine.call("odds", { id: "chq-comms-check", inputs });
            return { answer, warmedUp: fireMissionEngine.warmUp !== undefined };
        }""",
        INPUTS,
    )
    assert during["answer"] == rules_py.answer(CALC_ID, INPUTS)
    assert during["warmedUp"] is False  # answered in the middle of the warm-up, not after it
    tab.page.wait_for_function("() => fireMissionEngine.warmUp !== undefined", timeout=60_000)
    warm = tab.page.evaluate("fireMissionEngine.warmUp")
    calcs = rules_py.calculators()
    rounds = js_constant("worker.mjs", "WARM_UP_ROUNDS")
    assert rounds >= 1
    assert warm["answers"] == rounds * sum(1 + len(c.examples) for c in calcs)
    assert warm["ms"] > 0
    assert tab.errors == []


def before_the_worker(tab, script: str) -> None:
    """Run ``script`` in every worker the tab starts, before worker.mjs: each worker.mjs is
    served as a module that imports one holding ``script``, then the real worker.mjs
    (static imports evaluate in order, so worker.mjs and its loader see what it set)."""

    def serve(route):
        url = route.request.url
        if "real=1" in url:
            route.fallback()
        elif "before-the-worker" in url:
            route.fulfill(status=200, content_type="text/javascript", body=script)
        else:
            body = 'import "./before-the-worker.mjs";\nimport "./worker.mjs?real=1";\n'
            route.fulfill(status=200, content_type="text/javascript", body=body)

    tab.page.route("**/assets/calc/worker.mjs*", serve)
    tab.page.route("**/assets/calc/before-the-worker.mjs", serve)


@pytest.mark.parametrize("connection", [{"saveData": True, "effectiveType": "4g"}, {"saveData": False, "effectiveType": "3g"}], ids=["save-data", "3g"])
def test_on_a_slow_connection_or_saving_data_python_boots_without_the_snapshot(loopback_tab, connection):
    # The browser's Network Information API as a phone on 3G, or with Data Saver on,
    # reports it, on a link the worker would otherwise call fast (loopback), so
    # it is the connection alone that keeps the snapshot away. The worker reads
    # it, so it is faked in the worker.
    tab = loopback_tab
    before_the_worker(tab, f"Object.defineProperty(self.navigator, 'connection', {{value: {json.dumps(connection)}}});")
    open_calculator(tab)
    assert engine_report(tab)["snapshot"] is False
    tab.page.reload()  # nor is it fetched for the next visit
    tab.calculator(CALC_ID)
    assert engine_report(tab)["snapshot"] is False
    tab.page.wait_for_function("() => fireMissionEngine.snapshotPrefetched !== undefined")
    assert tab.page.evaluate("fireMissionEngine.snapshotPrefetched") is False
    assert not any(SNAPSHOT_PATH in url for url in tab.requests.urls)
    assert tab.errors == []


# The worker's thread held up, as a busy phone or a loaded machine holds it, while the
# standard library arrives (before_the_worker): "arrival" holds it as the response
# arrives, before anything reads it, so its bytes pile up meanwhile; "reading" once
# its first bytes are on their way to their readers, so they are read late.
HOLD_WORKER = """
const hold = () => { const until = performance.now() + HOLD_MS; while (performance.now() < until); };
const fetched = self.fetch.bind(self);
self.fetch = async (input, init) => {
    const response = await fetched(input, init);
    if (!String(input instanceof Request ? input.url : input).endsWith("/python_stdlib.zip.xz")) return response;
    if (AT === "arrival") {
        hold();
        return response;
    }
    // "reading": its first bytes go on only after a hold, in a task of their own,
    // so whatever read them waits the hold out.
    let first = true;
    const body = response.body.pipeThrough(new TransformStream({
        transform(chunk, out) {
            if (!first) return out.enqueue(chunk);
            first = false;
            return new Promise((done) => setTimeout(() => { hold(); out.enqueue(chunk); done(); }));
        },
    }));
    // The same response but for its body, its address (which the loader reads) kept on every copy.
    const addressed = (copy) => {
        Object.defineProperty(copy, "url", { value: response.url });
        const clone = copy.clone.bind(copy);
        copy.clone = () => addressed(clone());
        return copy;
    };
    return addressed(new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers }));
};
"""


def hold_ms() -> int:
    """A hold-up of the worker long enough that the whole standard library, read at once
    after it, would have come slower than the snapshot needs (SNAPSHOT_PAYS_MS for its
    size): three times that, about 1 s."""
    rt = runtime()
    needed = rt["sizes"][rt["snapshot"]] / (js_constant("loader/link.mjs", "SNAPSHOT_PAYS_MS") / 1000)  # bytes a second
    return round(3 * 1000 * rt["sizes"]["pyodide/python_stdlib.zip.xz"] / needed)


def test_a_worker_held_up_as_the_standard_library_is_read_still_calls_loopback_fast(loopback_tab):
    # By the worker's own clock, read a second late, loopback's 0.9 MB looked slower than
    # a phone's link (the snapshot never asked for: seen once in a loaded make test). The
    # browser's timing of the download, which no hold-up of the worker moves, calls it fast.
    tab = loopback_tab
    before_the_worker(tab, f"const HOLD_MS = {hold_ms()}, AT = 'reading';\n{HOLD_WORKER}")
    open_calculator(tab)
    assert engine_report(tab)["snapshot"] is True  # a first visit on a fast link starts from the snapshot
    tab.page.wait_for_function("() => fireMissionEngine.files !== undefined", timeout=60_000)
    files = tab.page.evaluate("fireMissionEngine.files")
    assert "pyodide/pyodide.asm.wasm" in files and "pyodide/pyodide.asm.wasm.xz" not in files, files  # and the WebAssembly as it is
    assert tab.errors == []


def test_a_worker_held_up_as_the_standard_library_arrives_still_calls_a_slow_link_slow(tab):
    # Held as the response arrives, the worker, by its own clock, read at once the bytes
    # that had piled up meanwhile, and called a phone's link fast: a first visit would
    # download the 6 MB snapshot on it. The browser's timing calls it slow.
    before_the_worker(tab, f"const HOLD_MS = {hold_ms()}, AT = 'arrival';\n{HOLD_WORKER}")
    open_calculator(tab)
    assert engine_report(tab)["snapshot"] is False
    tab.page.wait_for_function("() => fireMissionEngine.files !== undefined", timeout=60_000)
    got = asked(tab.server)
    assert WASM_XZ_PATH in got and got.index(WASM_XZ_PATH) < got.index(SNAPSHOT_PATH), got  # the snapshot only for the next visit
    assert tab.errors == []


def called_fast(server) -> None:
    """The first visit's start on ``server`` called the link fast, as loopback is: it fetched the
    WebAssembly as it is, never its .xz. A start that calls the link slow fetches the .xz, and
    the snapshot too, but only after its first answer, for the next visit: that the server was
    asked for the snapshot does not say that the start asked for it."""
    assert WASM_XZ_PATH not in asked(server), "the worker called loopback slow: its start never asked for the snapshot"


def damaged_snapshot() -> bytes:
    """The build's snapshot with one 4-byte word of Pyodide's memory changed, gzipped
    again: a file that inflates cleanly (gzip's own check passes), with other memory."""
    sparse = bytearray(gzip.decompress((GENERATED / runtime()["snapshot"]).read_bytes()))
    at = len(sparse) - len(sparse) // 3  # inside a kept stretch (the table of stretches is at the start)
    sparse[at : at + 4] = bytes(b ^ 0x01 for b in sparse[at : at + 4])
    return gzip.compress(bytes(sparse), compresslevel=6, mtime=0)


@pytest.mark.parametrize("encoded", [False, True], ids=["as-a-gz-file", "content-encoding-gzip"])
def test_a_snapshot_that_is_not_the_builds_is_refused_and_python_boots_without_it(browser, site, tmp_path, encoded):
    # A copy of the site whose snapshot has one word changed; served as the .gz file it is,
    # or with Content-Encoding: gzip (the browser inflates it, unchecked). Either way the
    # worker checks it against runtime.json before Python starts from it, and boots without.
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    (copy / SNAPSHOT_PATH.lstrip("/")).write_bytes(damaged_snapshot())
    with StaticServer(copy, gzip_encoded=(SNAPSHOT_PATH,) if encoded else ()) as server:
        tab = open_tab(browser, server, guard=False)  # loopback: a fast link, so the first visit takes the snapshot
        warnings: list[str] = []
        tab.page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
        try:
            open_calculator(tab)
            report = engine_report(tab)
            called_fast(server)
            assert SNAPSHOT_PATH in asked(server)
            assert report["snapshot"] is False
            assert set(runtime()["snapshot_modules"]) <= set(report["imported"])
            assert any("without its snapshot (the snapshot is damaged: its SHA-256 is not the one the build wrote" in w for w in warnings), warnings
            assert tab.errors == []
        finally:
            tab.close()


def test_a_snapshot_that_stalls_is_given_up_and_python_boots_without_it(browser, site):
    # The host never answers for the snapshot: past its own time limit (loader.mjs), Python
    # boots the ordinary way, well before the start's (60 s), which used to fail the engine.
    limit_ms = js_constant("loader.mjs", "SNAPSHOT_TIMEOUT_MS")
    assert limit_ms <= 15_000
    with StaticServer(site, stall=(SNAPSHOT_PATH,)) as server:
        tab = open_tab(browser, server, guard=False)
        warnings: list[str] = []
        tab.page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
        try:
            open_calculator(tab)
            assert tab.page.evaluate("fireMissionEngine.state") == "ready"
            assert engine_report(tab)["snapshot"] is False
            called_fast(server)  # so the start asked for the snapshot, and met the stall
            assert any(f"without its snapshot (the snapshot did not arrive within {limit_ms // 1000} s)" in w for w in warnings), warnings
        finally:
            tab.close()
