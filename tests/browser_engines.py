"""Firefox and WebKit for the tests: one page interface over two automations.

Playwright cannot download its own Firefox or WebKit here, so the two other
engines players use come from Debian and are driven by their own tools:

* :class:`FirefoxEngine`: ``firefox-esr`` through npm ``puppeteer-core`` over
  WebDriver BiDi, by ``tests/firefox_driver.mjs`` (one Node process and one
  Firefox for the session; a page is a fresh browser context). It runs as a
  touch screen would (``ui.primaryPointerCapabilities`` = coarse, no hover),
  so glossary terms open their popover on a tap.
* :class:`WebKitEngine`: WebKitGTK's ``MiniBrowser`` through
  ``WebKitWebDriver`` and PyPI ``selenium``, under ``xvfb-run`` (MiniBrowser
  needs a display). One MiniBrowser for the session, and its one window is
  every test's page (the offline check takes another origin, so its own
  service worker).
  With a mouse, as on a desktop: WebKitGTK offers no way to emulate a
  touch screen's ``(hover: none)``. WebKitWebDriver reports no console
  messages (no logs, no BiDi), so the page's console errors, uncaught errors
  and unhandled rejections are caught by listeners :meth:`WebKitPage.goto`
  installs as soon as each page has loaded: an error during the load itself
  goes unseen, which is why each check also asks what the page shows.

Both give :class:`EnginePage`: ``goto``, ``navigate`` (mkdocs-material's
instant navigation, which keeps the engine booted), ``eval`` and ``wait`` (a
JavaScript function's source and JSON arguments; ``wait`` returns once the
function gives something truthy, polling in the page, never sleeping),
``click``, ``fill``, ``select`` and ``errors``.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
import warnings
from pathlib import Path
from urllib.parse import urlsplit

from scripts.support.page_functions import page_function

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
FIREFOX = "/usr/bin/firefox-esr"
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
# A Pyodide boot takes 3-7 s here, far more on a busy machine (as conftest.BOOT_TIMEOUT_MS).
TIMEOUT_MS = 90_000
# Firefox's pointer capabilities: 1 is coarse (a finger) with no hover, so (hover: none) matches.
TOUCH_PREFS = {"ui.primaryPointerCapabilities": 1, "ui.allPointerCapabilities": 1}

# Instant navigation, shared by every engine's tab (conftest.Tab.navigate in Chromium,
# EnginePage.navigate here): INSTANT marks the page on show (its calculators and its
# content) stale, then clicks a link to `url`, which mkdocs-material catches; Material
# changes the address before it swaps the content in, so ARRIVED waits for both. It
# compares the address's path, not its query: a calculator's page rewrites its query
# in its own order as it keeps its address (k47-air-strike's turns go last). Under
# load the rewrite came before the first check, which then never matched (a 30 s
# wait ran out on a page that had arrived).
INSTANT = page_function(TESTS / "page" / "instant_navigation.mjs")
ARRIVED = "path => location.pathname === path && document.querySelector('.md-content:not([data-stale])') !== null"


class EnginePage:
    """What a test does with a page, whatever drives it."""

    base: str

    def url(self, path: str) -> str:
        return self.base + path

    def goto(self, path: str) -> None:
        raise NotImplementedError

    def eval(self, fn: str, *args):
        raise NotImplementedError

    def wait(self, fn: str, *args, timeout_ms: int = TIMEOUT_MS):
        raise NotImplementedError

    def click(self, selector: str) -> None:
        raise NotImplementedError

    def fill(self, selector: str, value: str) -> None:
        raise NotImplementedError

    def select(self, selector: str, value: str) -> None:
        raise NotImplementedError

    def errors(self) -> list[str]:
        """Console errors and uncaught errors since the last call."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------ shared

    def wait_for(self, selector: str, timeout_ms: int = TIMEOUT_MS) -> None:
        self.wait("s => document.querySelector(s) !== null", selector, timeout_ms=timeout_ms)

    def navigate(self, path: str) -> None:
        """Instant navigation to ``path`` (by way of the calculators index when only the query differs)."""
        url = self.url(path)
        self.wait_for(".md-content")
        pathname, href = self.eval("() => [location.pathname, location.href]")
        if href == url:
            return
        if pathname == urlsplit(url).path:
            self.navigate("calculators/")
        self.eval(INSTANT, url)
        self.wait(ARRIVED, urlsplit(url).path)

    def visit(self, path: str) -> None:
        """``path`` by instant navigation if a page of the site is on show (its engine, once
        booted, serves the next page too), else by loading it."""
        if self.eval("base => location.href.startsWith(base) && document.querySelector('.md-content') !== null", self.base):
            self.navigate(path)
        else:
            self.goto(path)

    def calculator(self, calc_id: str, status: str = "ready", source: str | None = None) -> None:
        """Wait for the calculator's root to have ``data-status`` (and ``data-source``, if given)."""
        extra = f'[data-source="{source}"]' if source else ""
        self.wait_for(f'.calculator[data-calculator="{calc_id}"][data-status="{status}"]{extra}:not([data-stale])')

    def odds_cells(self, calc_id: str) -> dict[tuple[str, str], str]:
        """(outcome, value) -> data-p of every probability cell; a value shown twice must agree."""
        cells = self.eval(
            "sel => [...document.querySelectorAll(sel)].map(e => [e.dataset.outcome, e.dataset.value, e.dataset.p])",
            f'.calculator[data-calculator="{calc_id}"] :is(.fm-summary, .fm-results):not([data-stale]) [data-p]',
        )
        out: dict[tuple[str, str], str] = {}
        for outcome, value, p in cells:
            assert out.setdefault((outcome, value), p) == p, (outcome, value)
        return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---------------------------------------------------------------- Firefox


class FirefoxEngine:
    """One Node process (tests/firefox_driver.mjs) driving one Firefox."""

    def __init__(self, prefs: dict | None = None):
        self.proc = subprocess.Popen(
            ["node", str(TESTS / "firefox_driver.mjs"), json.dumps(prefs or {})],
            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
        )
        self.seq = 0
        first = self.proc.stdout.readline()
        if not first:
            raise RuntimeError(f"tests/firefox_driver.mjs did not start Firefox (exit {self.proc.wait()})")
        self.version = json.loads(first)["ready"]

    def call(self, op: str, **args):
        self.seq += 1
        self.proc.stdin.write(json.dumps({"id": self.seq, "op": op, **args}) + "\n")
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"tests/firefox_driver.mjs ended (exit {self.proc.wait()})")
        answer = json.loads(line)
        assert answer["id"] == self.seq, answer
        if "error" in answer:
            raise AssertionError(f"Firefox, {op}: {answer['error']}")
        return answer["ok"]

    def page(self, base: str, width: int = 1280, height: int = 900) -> FirefoxPage:
        return FirefoxPage(self, self.call("newPage", width=width, height=height), base)

    def close(self) -> None:
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class FirefoxPage(EnginePage):
    def __init__(self, engine: FirefoxEngine, page_id: str, base: str):
        self.engine, self.id, self.base = engine, page_id, base

    def goto(self, path: str) -> None:
        self.engine.call("goto", page=self.id, url=self.url(path))

    def eval(self, fn: str, *args):
        return self.engine.call("eval", page=self.id, fn=fn, args=list(args))

    def wait(self, fn: str, *args, timeout_ms: int = TIMEOUT_MS):
        return self.engine.call("wait", page=self.id, fn=fn, args=list(args), timeout=timeout_ms)

    def click(self, selector: str) -> None:
        self.engine.call("click", page=self.id, selector=selector)

    def fill(self, selector: str, value: str) -> None:
        self.engine.call("fill", page=self.id, selector=selector, value=value)

    def select(self, selector: str, value: str) -> None:
        self.engine.call("select", page=self.id, selector=selector, value=value)

    def pdf(self, path: str) -> None:
        """The page printed to PDF by Firefox itself (print media, A4): WebKitWebDriver has no such command."""
        self.engine.call("pdf", page=self.id, path=path)

    def errors(self) -> list[str]:
        return self.engine.call("errors", page=self.id)

    def close(self) -> None:
        self.engine.call("close", page=self.id)


# ---------------------------------------------------------------- WebKit

# Installed by WebKitPage.goto once a page has loaded (WebKitWebDriver reports no console).
_LISTEN = page_function(TESTS / "page" / "keep_errors.mjs")

# Resolves once the function is truthy, checking every 100 ms in the page (a
# condition, not a sleep). The function's source is part of the script, which
# WebDriver compiles: the page's CSP refuses eval.
_WAIT = """
const [args, timeout, done] = arguments;
const fn = (FN);
const start = Date.now();
const check = () => {
    let value;
    try { value = fn(...args); } catch (e) { return done({error: String(e)}); }
    if (value) return done({value});
    if (Date.now() - start > timeout) return done({timeout: true});
    setTimeout(check, 100);
};
check();
"""


class WebKitEngine:
    """One WebKitWebDriver under xvfb-run, driving one MiniBrowser, through selenium."""

    def __init__(self):
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options

        self.port = free_port()
        self.log_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"webkitwebdriver-{self.port}.log"
        self.log = self.log_path.open("w")
        self.proc = subprocess.Popen(
            [shutil.which("xvfb-run") or "xvfb-run", "-a", WEBKIT_DRIVER, f"--port={self.port}"],
            stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True,
        )
        options = Options()
        options.binary_location = MINIBROWSER
        options.add_argument("--automation")
        deadline = time.monotonic() + 60
        while True:  # WebKitWebDriver listens once Xvfb is up
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"WebKitWebDriver did not start: {self.log_path.read_text()[-2000:]}") from None
                time.sleep(0.1)  # a connection refused: poll again
        with warnings.catch_warnings():  # selenium 4.51 warns of its own way of passing the address
            warnings.filterwarnings("ignore", "setting remote_server_addr", DeprecationWarning)
            self.driver = webdriver.Remote(command_executor=f"http://127.0.0.1:{self.port}", options=options)
        self.driver.set_script_timeout(TIMEOUT_MS / 1000 + 30)
        self.version = self.driver.capabilities.get("browserVersion")

    def page(self, base: str) -> WebKitPage:
        return WebKitPage(self.driver, base)

    def close(self) -> None:
        try:
            self.driver.quit()
        finally:
            os.killpg(self.proc.pid, 15)  # xvfb-run, its Xvfb and WebKitWebDriver
            self.proc.wait()
            self.log.close()


class WebKitPage(EnginePage):
    def __init__(self, driver, base: str):
        self.driver, self.base = driver, base

    def _run(self, fn: str, args):
        return self.driver.execute_script(f"return ({fn}).apply(null, arguments)", *args)

    def goto(self, path: str) -> None:
        self.driver.get(self.url(path))
        self._run(_LISTEN, [])

    def eval(self, fn: str, *args):
        result = self.driver.execute_async_script(
            f"const done = arguments[arguments.length - 1];"
            f"Promise.resolve(({fn}).apply(null, [...arguments].slice(0, -1))).then(v => done({{v}}), e => done({{e: String(e)}}))",
            *args,
        )
        if "e" in result:
            raise AssertionError(f"WebKit: {result['e']}")
        return result.get("v")

    def wait(self, fn: str, *args, timeout_ms: int = TIMEOUT_MS):
        result = self.driver.execute_async_script(_WAIT.replace("(FN)", f"({fn})"), list(args), timeout_ms)
        if result.get("timeout"):
            raise AssertionError(f"WebKit: timed out after {timeout_ms} ms waiting for {fn} {args}")
        if "error" in result:
            raise AssertionError(f"WebKit: {result['error']}")
        return result["value"]

    def _centred(self, selector: str):
        """The element, brought to the middle of the window: WebKitWebDriver
        types into, clicks and picks from only a control it sees unobscured,
        and one left where it was may sit under the answer pinned at the top
        (a drop-down's option was refused there: "element not interactable")."""
        element = self.driver.find_element("css selector", selector)
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        return element

    def click(self, selector: str) -> None:
        self._centred(selector).click()

    def fill(self, selector: str, value: str) -> None:
        element = self._centred(selector)
        element.clear()
        element.send_keys(value)

    def select(self, selector: str, value: str) -> None:
        from selenium.webdriver.support.select import Select

        Select(self._centred(selector)).select_by_value(value)

    def hover(self, selector: str) -> None:
        from selenium.webdriver import ActionChains

        ActionChains(self.driver).move_to_element(self.driver.find_element("css selector", selector)).perform()

    def errors(self) -> list[str]:
        return self._run("() => (window.__fmErrors || []).splice(0)", [])

    def close(self) -> None:
        pass  # the one window stays for the next test
