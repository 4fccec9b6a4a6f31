"""Offline after one visit, installable, and honest about its progress.

* The web app manifest (scripts/hooks/offline_hooks.py) is valid: name, standalone
  display, the palette's theme colour, PNG icons of the sizes it declares;
  every page links it.
* The service worker (scripts/build/build_sw.mjs, Workbox) precaches every page and
  the search index, keeps the sheets' PDFs and the images apart (optional:
  one missing leaves the rest, tests/test_browser_offline_faults.py), and
  precaches nothing of the engine.
* The page registers it only over HTTP(S); a page without a calculator
  fetches nothing of the engine, service worker included.
* After one calculator page has answered, with the network cut, every
  calculator page answers (the CLI's odds), every page opens (by address and
  by instant navigation), the search index and the PDFs load.
* A rebuilt site with a changed wheel: the page offers the new version, and
  once taken, the engine cache holds the new wheel, the old one is gone, and
  the calculators answer offline with the new pages.
* While the engine downloads, the calculator says how much has arrived.

Service workers outlive a page: every test here opens its own browser context
(conftest.open_tab blocks them unless asked), so none sees another's cache.
"""

from __future__ import annotations

import hashlib
import io
import json
import lzma
import re
import shutil
import struct
import zipfile
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest

import rules_py
from conftest import BOOT_TIMEOUT_MS, ROOT, cli_odds, open_tab, query
from scripts.support.local_site import PYODIDE_PATHS, StaticServer
from rules_py.systems import SYSTEMS

pytestmark = [pytest.mark.browser, pytest.mark.site]

CALCS = rules_py.calculators()
FIRST = "chq-comms-check"


def sitemap_paths(site: Path) -> list[str]:
    text = (site / "sitemap.xml").read_text(encoding="utf-8")
    return [urlsplit(loc).path.lstrip("/") for loc in re.findall(r"<loc>([^<]+)</loc>", text)]


def precached(site: Path) -> set[str]:
    return set(re.findall(r'url:"([^"]+)"', (site / "sw.js").read_text(encoding="utf-8")))


def own_lists(site: Path) -> tuple[dict, dict]:
    """The engine's files and the optional ones, as sw-engine-<id>.js lists them for scripts/build/sw_engine.js."""
    (script,) = site.glob("sw-engine-*.js")
    engine, extras = re.match(r"self\.FM_ENGINE = (\{.*?\});\nself\.FM_EXTRAS = (\{.*?\});\n", script.read_text()).groups()
    return json.loads(engine), json.loads(extras)


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


# ---------------------------------------------------------------- files


def test_manifest_is_valid_and_every_page_links_it(site):
    manifest = json.loads((site / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["name"] == "Fire Mission" and manifest["short_name"]
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "./" and manifest["scope"] == "./"
    # mkdocs.yml's palette is Material's "brown", #795548.
    assert "primary: brown" in (ROOT / "mkdocs.yml").read_text()
    assert manifest["theme_color"] == "#795548"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
    sizes = set()
    for icon in manifest["icons"]:
        assert icon["type"] == "image/png"
        width, height = png_size((site / icon["src"]).read_bytes())
        assert icon["sizes"] == f"{width}x{height}"
        sizes.add(width)
    assert {192, 512} <= sizes  # what browsers ask of an installable app
    pages = sorted(site.rglob("index.html"))
    assert len(pages) > 30
    for html in pages:
        links = re.findall(r'<link rel="manifest" href="([^"]+)">', html.read_text(encoding="utf-8"))
        assert len(links) == 1, html
        assert (html.parent / links[0]).resolve() == (site / "manifest.webmanifest").resolve(), html


def test_the_service_worker_precaches_every_page_the_search_index_and_keeps_the_pdfs_but_no_engine(site):
    files = precached(site)
    pages = {p.relative_to(site).as_posix() for p in site.rglob("index.html")}
    assert pages and pages <= files
    assert {"search/search_index.json", "sitemap.xml", "manifest.webmanifest", "assets/calc/calculator.mjs", "assets/calc/view.mjs"} <= files
    engine = [f for f in files if any(("/" + f).startswith(p) for p in PYODIDE_PATHS)]
    assert engine == []
    listed, extras = own_lists(site)
    # The PDFs and the images are kept apart, each on its own, with their revisions (the start of their SHA-256).
    pdfs = {p.relative_to(site).as_posix() for p in (site / "sheets").glob("*.pdf")}
    optional = {f["url"]: f["revision"] for f in extras["files"]}
    # One sheet and its large print per rule system.
    assert len(pdfs) == 2 * len(SYSTEMS) and pdfs <= set(optional) and not pdfs & files
    assert {"assets/icons/icon-192.png", "assets/icons/icon-512.png"} <= set(optional) and not set(optional) & files
    for url, revision in optional.items():
        assert hashlib.sha256((site / url).read_bytes()).hexdigest().startswith(revision), url
    # The engine's files are listed apart, with their revisions, for sw_engine.js.
    runtime = json.loads((site / "assets/generated/runtime.json").read_text())
    urls = {f["url"] for f in listed["files"]}
    assert f"assets/generated/{runtime['wheel']}?v={runtime['sha256']}" in urls
    # The worker at the address its pages start it with: their build's id (calculator_hooks.py).
    # The id encoded as encodeURIComponent encodes it (a build of a changed tree is "<commit>+dirty").
    assert "assets/generated/pyodide/pyodide.asm.wasm.xz" in urls and f"assets/calc/worker.mjs?build={quote(runtime['build'], safe='')}" in urls
    assert "assets/generated/pyodide/pyodide.asm.wasm" in urls
    # Kept only once a worker has used them: the WebAssembly either way (an engine needs one of the two), and the snapshot.
    optional = {f["optional"] for f in listed["files"] if "optional" in f}
    assert optional == {"pyodide/pyodide.asm.wasm", "pyodide/pyodide.asm.wasm.xz", runtime["snapshot"]}
    assert {f["optional"] for f in listed["files"] if f.get("choice") == "webassembly"} == {"pyodide/pyodide.asm.wasm", "pyodide/pyodide.asm.wasm.xz"}
    assert "assets/generated/xz-decompress.mjs" in urls


# ---------------------------------------------------------------- in the browser


def offline_tab(browser, server):
    # No route guard: it would turn off the HTTP cache, where the first visit's
    # engine lies when the service worker keeps it.
    return open_tab(browser, server, guard=False, service_workers="allow")


def test_the_page_registers_the_service_worker_over_http_and_not_from_a_file(browser, server, site):
    tab = offline_tab(browser, server)
    try:
        tab.goto("konrad/")
        tab.page.wait_for_function("() => document.documentElement.dataset.offline === 'pages'", timeout=60_000)
        assert tab.page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.active.scriptURL)") == server.url("sw.js")
        assert tab.page.evaluate("navigator.serviceWorker.controller !== null")  # it took the page at once
        assert tab.errors == []
    finally:
        tab.close()
    tab = open_tab(browser, server, service_workers="allow")
    warnings: list[str] = []
    tab.page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    try:
        tab.page.goto((site / "konrad" / "index.html").as_uri(), wait_until="load")
        tab.page.wait_for_function("() => document.readyState === 'complete'")
        tab.page.evaluate("new Promise(r => setTimeout(r, 0))")  # after the load handlers
        assert tab.page.evaluate("document.documentElement.dataset.offline") is None
        assert not any("offline" in w for w in warnings)  # it did not try, and fail
    finally:
        tab.close()


def test_a_rules_page_without_a_calculator_fetches_nothing_of_the_engine_service_worker_included(browser, server, site):
    tab = offline_tab(browser, server)
    try:
        server.forget()
        tab.goto("konrad/")
        tab.page.wait_for_function("() => document.documentElement.dataset.offline === 'pages'", timeout=60_000)
        tab.navigate("combat-hq/")
        tab.navigate("sources/")
        asked = [p for p in server.requested if any(p.startswith(e) for e in PYODIDE_PATHS)]
        assert asked == []
        # Everything else of the site was fetched for offline use, by the service worker.
        assert "/sheets/konrad.pdf" in server.requested
        engine_caches = tab.page.evaluate("caches.keys().then(k => k.filter(n => n.startsWith('fire-mission-engine-')))")
        assert engine_caches == []
    finally:
        tab.close()


def visit_once(tab, inputs=None) -> None:
    """One calculator page, until its answer is on show and the service worker has its engine."""
    tab.goto(f"calculators/{FIRST}/{query(inputs or {'nation': 'soviet'})}")
    tab.calculator(FIRST)
    tab.page.wait_for_function("() => document.documentElement.dataset.offline === 'engine'", timeout=BOOT_TIMEOUT_MS)


def test_after_one_visit_every_calculator_answers_and_every_page_opens_offline(browser, server, site):
    tab = offline_tab(browser, server)
    try:
        visit_once(tab)
        tab.context.set_offline(True)
        server.forget()
        for calc in CALCS:
            tab.goto(f"calculators/{calc.id}/")
            tab.calculator(calc.id)
            assert tab.odds_cells(calc.id) == cli_odds(calc.id), calc.id
        for path in sitemap_paths(site):
            response = tab.goto(path)
            assert response is not None and response.ok, path
            assert tab.page.locator("article h1").count() == 1, path
        # Instant navigation: a rules page, then a calculator page, never reloaded.
        tab.goto("")
        tab.page.evaluate("window.__same_page = true")
        tab.navigate("plastic-ostfront/counter-battery/")
        tab.navigate(f"calculators/{CALCS[-1].id}/")
        tab.calculator(CALCS[-1].id)
        assert tab.page.evaluate("window.__same_page === true")
        # The search index and the sheets' PDFs.
        assert tab.page.evaluate("fetch('/search/search_index.json').then(r => r.json()).then(j => j.docs.length)") > 30
        for pdf in sorted((site / "sheets").glob("*.pdf")):
            head = tab.page.evaluate("url => fetch(url).then(r => r.arrayBuffer()).then(b => new TextDecoder().decode(b.slice(0, 5)))", f"/sheets/{pdf.name}")
            assert head == "%PDF-", pdf.name
        # Nothing reached the host but the browser's own update checks of the
        # service worker's scripts, which the emulated cut does not stop (a real one does).
        assert [p for p in server.requested if not re.fullmatch(r"/sw(-engine-[0-9a-f]+)?\.js", p)] == []
        assert [e for e in tab.errors if "ERR_INTERNET_DISCONNECTED" not in e] == []
    finally:
        tab.close()


def change_wheel(site: Path, build: str | None = None) -> bytes:
    """A new build's wheel: one more (unused) module, so other bytes and another hash.

    With ``build``, the new build also has another id, as a build of another
    commit has: in the wheel's record, runtime.json, calculators.json and every
    page (its <meta name="fire-mission-build"> and its worker's ?build=)."""
    runtime_path = site / "assets/generated/runtime.json"
    runtime = json.loads(runtime_path.read_text())
    wheel = site / "assets/generated" / runtime["wheel"]  # the wheel, xz-compressed, as the worker fetches it
    with zipfile.ZipFile(io.BytesIO(lzma.decompress(wheel.read_bytes()))) as old:
        entries = [(info, old.read(info)) for info in old.infolist()]
    rebuilt = io.BytesIO()
    with zipfile.ZipFile(rebuilt, "w", zipfile.ZIP_STORED) as new:
        for info, data in entries:
            if build and info.filename == "rules_py/data/build.json":
                data = json.dumps({**json.loads(data), "build": build}).encode()
            new.writestr(info, data)
        new.writestr("rules_py/_second_build.py", "# a rebuilt site\n")
    data = lzma.compress(rebuilt.getvalue(), format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32)
    wheel.write_bytes(data)
    runtime["sha256"] = hashlib.sha256(data).hexdigest()
    runtime["sizes"][runtime["wheel"]] = len(data)
    if build:
        old_build, runtime["build"] = runtime["build"], build
        # The calculators' list carries its build's id too (calculator_hooks.py).
        listing = site / "assets/generated/calculators.json"
        listing.write_text(json.dumps({**json.loads(listing.read_text()), "build": build}), encoding="utf-8")
        for page in site.rglob("*.html"):
            text = page.read_text(encoding="utf-8")
            for was, now in ((f'content="{old_build}"', f'content="{build}"'), (f"?build={quote(old_build, safe='')}", f"?build={build}")):
                text = text.replace(was, now)
            page.write_text(text, encoding="utf-8")
    runtime_path.write_text(json.dumps(runtime, indent=1) + "\n")
    return data


def test_a_rebuilt_site_with_a_changed_wheel_replaces_the_cached_engine(browser, site, tmp_path):
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    with StaticServer(copy) as host:
        tab = offline_tab(browser, host)
        try:
            visit_once(tab)
            old_caches = tab.page.evaluate("caches.keys()")
            # The new build, of another commit: another wheel and build id, a page
            # that says so, a new service worker; the worker's own file is
            # unchanged, so the new engine's copy of it is the old one's.
            new_wheel = change_wheel(copy, build="f" * 40)
            index = copy / "index.html"
            index.write_text(index.read_text(encoding="utf-8").replace("</h1>", " (second build)</h1>", 1), encoding="utf-8")
            out = __import__("subprocess").run(["node", str(ROOT / "scripts/build/build_sw.mjs"), str(copy)], capture_output=True, text=True)
            assert out.returncode == 0, out.stderr
            tab.page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
            # The page says a new version is ready; the player takes it.
            bar = tab.page.wait_for_selector(".fm-update", timeout=BOOT_TIMEOUT_MS)
            assert "new version" in bar.text_content()
            with tab.page.expect_navigation():
                bar.query_selector("button").click()
            tab.calculator(FIRST)
            tab.page.wait_for_function("() => document.documentElement.dataset.offline === 'engine'", timeout=BOOT_TIMEOUT_MS)
            # The new pages' engine answers: it knows its page's build (a worker
            # answered from the old copy once took the old build's id from its
            # address and refused the new engine as "the middle of an update").
            tab.goto(f"calculators/{FIRST}/{query({'nation': 'usa'})}")
            tab.calculator(FIRST)
            tab.page.wait_for_function("() => ['ready', 'failed'].includes(window.fireMissionEngine.state)", timeout=BOOT_TIMEOUT_MS)
            assert tab.page.evaluate("window.fireMissionEngine.state") == "ready", tab.page.text_content(".fm-engine")
            assert tab.odds_cells(FIRST) == cli_odds(FIRST, {"nation": "usa"})
            tab.context.set_offline(True)
            caches = tab.page.evaluate("caches.keys()")
            engines = [n for n in caches if n.startswith("fire-mission-engine-")]
            assert len(engines) == 1 and engines[0] not in old_caches  # the old engine is gone
            runtime = json.loads((copy / "assets/generated/runtime.json").read_text())
            cached = tab.page.evaluate(
                """async ([name, wheel]) => {
                    const cache = await caches.open(name);
                    for (const request of await cache.keys()) {
                        if (new URL(request.url).pathname.endsWith('/' + wheel)) {
                            return Array.from(new Uint8Array(await (await cache.match(request)).arrayBuffer()));
                        }
                    }
                    return null;
                }""",
                [engines[0], runtime["wheel"]],
            )
            assert cached is not None and bytes(cached) == new_wheel
            # Offline: the new pages with the new engine.
            tab.goto("")
            assert "(second build)" in tab.page.locator("article h1").text_content()
            tab.goto(f"calculators/{FIRST}/{query({'nation': 'soviet'})}")
            tab.calculator(FIRST)
            assert tab.odds_cells(FIRST) == cli_odds(FIRST, {"nation": "soviet"})
        finally:
            tab.close()


def test_while_the_engine_downloads_the_calculator_says_how_much_has_arrived(tab, site):
    tab.page.add_init_script(
        """window.__notes = [];
        new MutationObserver(() => {
            const note = document.querySelector('.fm-engine');
            if (note && note.textContent && window.__notes.at(-1) !== note.textContent) window.__notes.push(note.textContent);
        }).observe(document, {subtree: true, childList: true, characterData: true});"""
    )
    tab.goto(f"calculators/{FIRST}/")
    tab.calculator(FIRST)  # the build's answer, at once; the engine starts once the page is idle
    tab.page.wait_for_function("() => window.fireMissionEngine.state === 'ready'", timeout=BOOT_TIMEOUT_MS)
    tab.page.wait_for_function("() => window.fireMissionEngine.files !== undefined", timeout=BOOT_TIMEOUT_MS)
    notes = tab.page.evaluate("window.__notes")
    downloading = [n for n in notes if n.startswith("Downloading the calculator engine: ")]
    assert downloading, notes
    percents = [int(re.search(r"(\d+)%", n).group(1)) for n in downloading]
    assert percents == sorted(percents) and all(0 <= p <= 100 for p in percents)
    assert notes.index(downloading[-1]) < notes.index("Starting Python in the calculator engine\u2026")
    assert notes.index("Starting Python in the calculator engine\u2026") < notes.index("Loading the rules into the calculator engine\u2026")
    # The counted bytes are the files' own: the WebAssembly, the standard library,
    # Pyodide's lock file and the wheel, and the snapshot if this (fast) link fetched it.
    runtime = json.loads((site / "assets/generated/runtime.json").read_text())
    # The WebAssembly the worker chose: as it is on a link it judged fast, its .xz on a slow one.
    (wasm,) = [f for f in tab.page.evaluate("fireMissionEngine.files") if f.startswith("pyodide/pyodide.asm.wasm")]
    files = [wasm, "pyodide/python_stdlib.zip.xz", "pyodide/pyodide-lock.json", runtime["wheel"]]
    if tab.page.evaluate("fireMissionEngine.fromSnapshot"):
        files.append(runtime["snapshot"])
    total = sum(runtime["sizes"][f] for f in files)
    assert tab.page.evaluate("fireMissionEngine.progress") == {"phase": "rules", "loaded": total, "total": total, "network": True}
    assert tab.errors == []


NOTES = """window.__notes = [];
new MutationObserver(() => {
    const note = document.querySelector('.fm-engine');
    if (note && note.textContent && window.__notes.at(-1) !== note.textContent) window.__notes.push(note.textContent);
}).observe(document, {subtree: true, childList: true, characterData: true});"""


def test_a_visit_whose_engine_is_kept_never_says_it_downloads(browser, server):
    """Once the service worker keeps the engine, a link's visit reads it from there: the page
    says the engine starts, never "Downloading" (on main: "Downloading the calculator engine:
    61%" on such a visit, the percentage of bytes read from the device)."""
    tab = open_tab(browser, server, guard=False, service_workers="allow")
    try:
        tab.page.add_init_script(NOTES)
        tab.goto(f"calculators/{FIRST}/{query({'nation': 'soviet'})}")
        tab.calculator(FIRST)
        tab.page.wait_for_function("() => document.documentElement.dataset.offline === 'engine'", timeout=BOOT_TIMEOUT_MS)
        tab.goto(f"calculators/{FIRST}/{query({'nation': 'usa'})}")
        tab.calculator(FIRST)
        assert tab.odds_cells(FIRST) == cli_odds(FIRST, {"nation": "usa"})
        notes = tab.page.evaluate("window.__notes")
        assert not [n for n in notes if n.startswith("Downloading")], notes
        assert tab.page.evaluate("fireMissionEngine.progress.network") is False
        assert tab.errors == []
    finally:
        tab.close()


def test_offline_a_calculator_never_opened_online_says_what_to_do(browser, server):
    # Issue 43, item 8: the pages are kept for offline use, the engine not yet (no
    # calculator has answered online); offline, a calculator says so, and what to do.
    tab = offline_tab(browser, server)
    try:
        tab.goto("konrad/")
        tab.page.wait_for_function("() => document.documentElement.dataset.offline === 'pages'", timeout=60_000)
        tab.context.set_offline(True)
        tab.goto(f"calculators/{FIRST}/?nation=commonwealth")
        root = tab.calculator(FIRST, "error")
        note = " ".join(root.query_selector(".fm-answer-box .fm-engine").inner_text().split())
        assert note.startswith("The calculators' engine could not start: its script, assets/calc/worker.mjs, could not be fetched: this device is offline"), note
        assert "Connect to the internet and reload the page." in note
    finally:
        tab.close()
