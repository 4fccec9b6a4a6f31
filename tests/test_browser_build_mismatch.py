"""One build on screen, never two (issue 35, item 3).

A host mid-upload, a stale cache or CDN edge serves an older build's engine
(runtime.json and the rules wheel) beside this build's pages. Here the older
build is made from this one's wheel with one rules table value changed
(Germany's comms dice, 4 -> 3: a check with two boosts would show 53/64 where
this build's engine gives 191/256) and its own build id. The page must show
no number from it: the worker refuses another build's runtime.json (asked for
again past the caches first), and a wheel whose SHA-256 is not the one
runtime.json gives, and the page says why. Both on this machine's address (a
secure context: crypto.subtle checks the wheel) and on a plain-HTTP origin
(http://fire.test, mapped to 127.0.0.1: no crypto.subtle, so sha256.mjs checks
it), where the wheel used to go unchecked.
"""

from __future__ import annotations

import functools
import hashlib
import json
import lzma
import random
import struct
import zipfile
from io import BytesIO

import pytest

from conftest import BOOT_TIMEOUT_MS, open_tab

from scripts.build.build_wheel import BUILD_FILE, stored_zip, xz
from scripts.support.local_site import CHROMIUM, CHROMIUM_ARGS, StaticServer

pytestmark = [pytest.mark.browser, pytest.mark.site]

CALC = "chq-comms-check"
PAGE = f"calculators/{CALC}/?nation=germany&boosts=2"
ROOT_SEL = f'.calculator[data-calculator="{CALC}"]'
TABLE = "rules_py/combat_hq/data/comms_dice.csv"
OLDER = "0ld0ld0ld0ld0ld0ld0ld0ld0ld0ld0ld0ld0ld0"
PLAIN_HOST = "fire.test"


@functools.cache
def older_wheel(packed: bytes, build: str) -> bytes:
    """This build's wheel with Germany's comms dice 4 -> 3 and ``build`` for its id, xz'd as
    the build does, and exactly as long as this build's: the worker's size checks pass
    (no more, no fewer bytes than runtime.json says), only the hash can refuse it."""
    with zipfile.ZipFile(BytesIO(lzma.decompress(packed))) as z:
        entries = [(name, z.read(name)) for name in z.namelist()]
    # Room for the padding below: the end of the package's long description cut off, more
    # of it if the changed wheel, unpadded, still comes out longer than this build's (how
    # much text makes how many bytes of xz depends on the text: 400 bytes of it were once
    # enough, and a later wheel came out 20 bytes too long with them).
    for room in (400, 1600, 6400):
        out = []
        for name, data in entries:
            if name == TABLE:
                assert b"germany,Germany,4" in data
                data = data.replace(b"germany,Germany,4", b"germany,Germany,3")
            elif name == BUILD_FILE:
                data = json.dumps({"build": build}).encode() + b"\n"
            elif name.endswith(".dist-info/METADATA"):
                assert len(data) > room + 1000, len(data)
                data = data[:-room]
            out.append((name, data))
        body = stored_zip(out)
        # Then a zip comment of bytes xz cannot shrink (none a "P", so no zip signature), as long as it takes.
        noise = bytes(b for b in random.Random(35).randbytes(4096) if b != ord("P"))
        extra = max(0, len(packed) - len(xz(body)))
        for _ in range(60):
            comment = noise[:extra]
            wheel = xz(body[:-2] + struct.pack("<H", len(comment)) + comment)
            gap = len(packed) - len(wheel)
            if gap == 0:
                return wheel
            if gap < 0 and extra == 0:
                break  # longer with no padding at all: more room
            # Most of the gap at once; the last few bytes (xz pads to fours) one at a time.
            extra = max(0, extra + (gap if abs(gap) > 4 else (1 if gap > 0 else -1)))
    raise AssertionError("no padding made the older wheel as long as this build's")


@pytest.fixture(scope="module")
def runtime(generated) -> dict:
    return json.loads((generated / "runtime.json").read_text())


@pytest.fixture(scope="module")
def plain_browser(browser):
    """Chromium that resolves fire.test to this machine: http://fire.test is not a secure context.
    Launched by the session's Playwright (conftest's browser): a second sync Playwright in one
    process refuses to start while the first runs."""
    plain = browser.browser_type.launch(
        executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {PLAIN_HOST} 127.0.0.1"], headless=True
    )
    yield plain
    plain.close()


def older_engine(generated, runtime: dict, same_id: bool) -> dict[str, tuple[str, bytes]]:
    """The files the host serves instead of this build's: the older wheel, and with
    ``same_id`` this build's runtime.json (the wheel alone is older: its hash
    gives it away), else the older build's runtime.json naming it."""
    wheel = older_wheel((generated / runtime["wheel"]).read_bytes(), runtime["build"] if same_id else OLDER)
    assert len(wheel) == runtime["sizes"][runtime["wheel"]]
    served = {f"/assets/generated/{runtime['wheel']}": ("application/x-xz", wheel)}
    if not same_id:
        older = {**runtime, "build": OLDER, "sha256": hashlib.sha256(wheel).hexdigest(), "sizes": {**runtime["sizes"], runtime["wheel"]: len(wheel)}}
        served["/assets/generated/runtime.json"] = ("application/json", json.dumps(older).encode())
    return served


@pytest.mark.parametrize("same_id", [False, True], ids=["older-runtime-and-wheel", "older-wheel-alone"])
@pytest.mark.parametrize("origin", ["127.0.0.1", PLAIN_HOST])
def test_an_older_builds_engine_beside_this_builds_page_shows_no_number(plain_browser, site, generated, runtime, origin, same_id):
    with StaticServer(site, extra=older_engine(generated, runtime, same_id)) as server:
        tab = open_tab(plain_browser, server, guard=origin == "127.0.0.1")
        # What the page says is the point, not how soon: the engine's own start limit (60 s) is
        # raised to the tests', so that a busy machine does not say "did not start" instead.
        tab.page.add_init_script(f"window.fireMissionBootTimeoutMs = {BOOT_TIMEOUT_MS}")
        try:
            tab.page.goto(f"http://{origin}:{server.port}/{PAGE}", wait_until="domcontentloaded")
            secure = tab.page.evaluate("() => [isSecureContext, Boolean(crypto.subtle)]")
            assert secure == ([True, True] if origin == "127.0.0.1" else [False, False])
            # Until the engine has failed, or started (which it must not): then the test fails at once.
            tab.page.wait_for_function("() => ['failed', 'ready'].includes(window.fireMissionEngine?.state)", timeout=BOOT_TIMEOUT_MS)
            if tab.page.evaluate("() => fireMissionEngine.state") == "ready":
                tab.page.wait_for_selector(f"{ROOT_SEL} [data-p]", timeout=BOOT_TIMEOUT_MS)
                pytest.fail(f"the older build's engine started, and the page shows its numbers: {tab.odds_cells(CALC)}")
            root = tab.page.wait_for_selector(f'{ROOT_SEL}[data-status="error"]', timeout=BOOT_TIMEOUT_MS)
            said = " ".join(root.inner_text().split())
            if same_id:
                assert "arrived damaged (its SHA-256 is not the one the build wrote in runtime.json)" in said
            else:
                assert "the site is in the middle of an update" in said
                assert f"this page comes from build {runtime['build'][:12]}, and the host's engine from build {OLDER[:12]}" in said
                # runtime.json was asked for again, past the caches, before the engine was refused.
                assert server.requested.count("/assets/generated/runtime.json") == 2
            # No number on show: the inputs are not the page's defaults, so only an engine could answer them.
            assert tab.odds_cells(CALC) == {}
        finally:
            tab.close()


# ---------------------------------------------------------------- the calculators' list (issue 44, item 5)


def served_list(site, alter, build: str | None) -> bytes:
    """The site's calculators.json, its calculators passed through ``alter``, in the shape
    the site publishes it (an object with the build's id; ``build`` replaces it)."""
    published = json.loads((site / "assets/generated/calculators.json").read_text(encoding="utf-8"))
    calculators = alter(published["calculators"] if isinstance(published, dict) else published)
    if not isinstance(published, dict):
        return json.dumps(calculators).encode()  # a build before the list carried its id
    return json.dumps({**published, "calculators": calculators, **({"build": build} if build else {})}).encode()


def older_labels(calculators: list) -> list:
    """Another build's list: Germany rolls 5 comms dice there."""
    return json.loads(json.dumps(calculators).replace('"Germany (4D)"', '"Germany (5D)"'))


def without_casualties(calculators: list) -> list:
    for calc in calculators:
        if calc["id"] == "k47-medic":
            calc["fields"] = [f for f in calc["fields"] if f["name"] != "casualties"]
    return calculators


@pytest.mark.parametrize(
    ("page", "calc", "alter", "build", "said"),
    [
        (
            f"calculators/{CALC}/?nation=germany&boosts=2", CALC, older_labels, OLDER,
            "the site is in the middle of an update: this page comes from build",
        ),
        (
            "calculators/k47-medic/?casualties=4", "k47-medic", without_casualties, None,
            "does not give this calculator the inputs this page was built with",
        ),
    ],
    ids=["another-builds-list", "a-list-that-lost-a-field"],
)
def test_a_calculators_list_that_is_not_this_builds_draws_no_form(tab, site, page, calc, alter, build, said):
    body = served_list(site, alter, build)
    asked: list[str] = []

    def handle(route):
        asked.append(route.request.url)
        route.fulfill(status=200, body=body, headers={"Content-Type": "application/json"})

    tab.context.route("**/assets/generated/calculators.json*", handle)
    tab.goto(page)
    scope = f'.calculator[data-calculator="{calc}"]'
    root = tab.page.wait_for_selector(f'{scope}[data-status="error"]', timeout=BOOT_TIMEOUT_MS)
    text = " ".join(root.inner_text().split())
    assert said in text, text
    assert "Reload" in text
    assert "Germany (5D)" not in tab.page.inner_text(scope)
    # No answer is on show as ready: the build's copy at its defaults, disabled, with the message.
    assert tab.page.locator(f"{scope}[data-status='ready']").count() == 0
    assert asked
