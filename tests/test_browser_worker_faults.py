"""An engine file that arrives damaged, or does not arrive, is named with what is wrong with it.

Each test serves one of the engine's files altered (through Playwright's
routing of the browser context, which sees the worker's requests too) and
reads what the calculator says in place of its answer: the message must name
the file and what is wrong with it (damaged: not the file the build made;
cut short: fewer bytes than the build made), not a symptom further down
(Chromium's "Failed to fetch" for a stream that failed to inflate,
Emscripten's "Program terminated with exit(1)" for a standard library that
could not be read). A download that fails leaves no promise rejection
unhandled in the worker (Playwright reports one as an error of the page,
which the tab records), and no error of Python's about a file it was never given.

The page is the comms check's own page with inputs in its address, so that
its first answer needs the engine (the build embedded the defaults' and the
examples' only).
"""

from __future__ import annotations

import json

from conftest import open_tab
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.site]

CALC = "chq-comms-check"
START = f"calculators/{CALC}/?nation=commonwealth"
SCOPE = f'.calculator[data-calculator="{CALC}"]'


def runtime(site) -> dict:
    return json.loads((site / "assets" / "generated" / "runtime.json").read_text(encoding="utf-8"))


def serve_altered(tab, site, file: str, alter) -> list[str]:
    """Answer every request for assets/generated/<file> (any query) with alter(its bytes)
    (a JavaScript module with its type, which an import needs)."""
    served: list[str] = []
    body = alter((site / "assets" / "generated" / file).read_bytes())
    kind = "text/javascript" if file.endswith(".mjs") else "application/octet-stream"

    def handle(route):
        served.append(route.request.url)
        route.fulfill(status=200, body=body, headers={"Content-Type": kind, "Cache-Control": "no-store"})

    tab.context.route(f"**/assets/generated/{file}*", handle)
    return served


def flipped(data: bytes) -> bytes:
    """The same length, with a run of bytes in the middle changed: what a broken proxy or disk gives."""
    middle = len(data) // 2
    return data[:middle] + bytes(b ^ 0x5A for b in data[middle : middle + 64]) + data[middle + 64 :]


def halved(data: bytes) -> bytes:
    return data[: len(data) // 2]


def failure(tab) -> str:
    """What the calculator says once its engine has failed to start."""
    root = tab.calculator(CALC, "error")
    note = root.query_selector(".fm-engine")
    assert note.is_visible()
    tab.page.wait_for_function("() => fireMissionEngine.state === 'failed'")
    return note.inner_text()


# A fault must be named well within this; the page's own time limit for the
# start is 60 s (a file that never arrives), and a test that waits it out would say less.
BOOT_LIMIT = "window.fireMissionBootTimeoutMs = 30000"


@pytest.fixture
def fault_tab(browser, server):
    opened = open_tab(browser, server)
    opened.page.add_init_script(BOOT_LIMIT)
    yield opened
    opened.close()


# What each file's damage used to be reported as: Chromium's words for a stream
# that failed, Emscripten's exit; the JSON parser's words alone, for the lock file.
SYMPTOMS = ("Failed to fetch", "Program terminated", "exit(1)")


@pytest.mark.parametrize(
    "file",
    [
        "wheel",
        "pyodide/python_stdlib.zip.xz",
        # This (fast) test server gets the WebAssembly as it is, not its .xz.
        "pyodide/pyodide.asm.wasm",
        "pyodide/pyodide-lock.json",
    ],
)
def test_a_damaged_engine_file_is_named_as_damaged(fault_tab, site, file):
    path = runtime(site)["wheel"] if file == "wheel" else file
    served = serve_altered(fault_tab, site, path, flipped)
    fault_tab.goto(START)
    message = failure(fault_tab)
    assert served, f"the worker never asked for {path}"
    assert f"{path} arrived damaged" in message, message
    assert not [s for s in SYMPTOMS if s in message], message
    assert fault_tab.page.locator(f"{SCOPE} .fm-summary [data-p]").count() == 0
    assert [e for e in fault_tab.errors if e.startswith("page error:")] == [], fault_tab.errors


def test_a_truncated_standard_library_is_named_as_cut_short(fault_tab, site):
    file = "pyodide/python_stdlib.zip.xz"
    served = serve_altered(fault_tab, site, file, halved)
    fault_tab.goto(START)
    message = failure(fault_tab)
    assert served, "the worker never asked for the standard library"
    size = runtime(site)["sizes"][file]
    assert f"{file} arrived cut short ({size // 2:,} of its {size:,} bytes)" in message, message
    assert "Program terminated" not in message and "exit(1)" not in message


@pytest.mark.parametrize("file", ["runtime.json", "pyodide/python_stdlib.zip.xz", "pyodide/pyodide-lock.json", "wheel"])
def test_a_failed_download_leaves_no_unhandled_rejection_in_the_worker(browser, site, server, file):
    tab = open_tab(browser, server)
    tab.page.add_init_script(BOOT_LIMIT)
    try:
        path = runtime(site)["wheel"] if file == "wheel" else file
        tab.context.route(f"**/assets/generated/{path}*", lambda route: route.fulfill(status=404, body="not here"))
        tab.goto(START)
        message = failure(tab)
        assert f"{path} is missing from the server (it answered 404)" in message, message
        # Whatever else the worker was doing when the download failed has settled by now
        # (the failure is posted once the boot's downloads have all settled).
        tab.page.wait_for_function("() => fireMissionEngine.state === 'failed'")
        # Playwright reports a worker's unhandled rejection as the page's error.
        assert [e for e in tab.errors if e.startswith("page error:") or "Uncaught" in e] == [], tab.errors
    finally:
        tab.close()


def wasm_data_flipped(data: bytes) -> bytes:
    """One bit flipped in the middle of the WebAssembly's data section (id 11): a module
    that still compiles, whose memory starts other than the build's."""
    at = 8  # past the magic number and the version
    while at < len(data):
        section, at = data[at], at + 1
        size, shift = 0, 0
        while True:  # the section's size, unsigned LEB128
            byte, at = data[at], at + 1
            size |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                break
        if section == 11:
            middle = at + size // 2
            return data[:middle] + bytes([data[middle] ^ 0x01]) + data[middle + 1 :]
        at += size
    raise AssertionError("no data section")


def js_string_changed(data: bytes) -> bytes:
    """One letter of a string in the module changed: JavaScript that still runs, not the build's."""
    at = data.index(b'"Pyodide')
    return data[: at + 1] + b"Q" + data[at + 2 :]


@pytest.mark.parametrize(
    ("file", "alter"),
    [("pyodide/pyodide.asm.wasm", wasm_data_flipped), ("pyodide/pyodide.asm.mjs", js_string_changed)],
    ids=["webassembly-that-compiles", "pyodide-javascript-that-runs"],
)
def test_pyodide_files_that_still_load_but_are_not_the_builds_are_named_as_damaged(fault_tab, site, file, alter):
    # Neither fails by itself: the WebAssembly compiles, the JavaScript runs. Checked against
    # runtime.json's size and SHA-256 (file_sha256), each is refused before any answer.
    served = serve_altered(fault_tab, site, file, alter)
    fault_tab.goto(START)
    message = failure(fault_tab)
    assert served, f"the worker never asked for {file}"
    assert f"{file} arrived damaged (its SHA-256 is not the one the build wrote in runtime.json)" in message, message
    assert fault_tab.page.locator(f"{SCOPE} .fm-summary [data-p]").count() == 0
