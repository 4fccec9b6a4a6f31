"""What an update costs a returning player: bytes on the wire when a new build is taken.

    nice python -m scripts.bench.bench_update [--commit REV] [--keep DIR] [--json out.json]

Builds the site twice from clean clones of this repository at REV (default
HEAD): as it is, and with one rules table value changed (the Soviet Union's
comms dice, rules_py/combat_hq/data/comms_dice.csv, 3 -> 4, committed in the
clone), each with `make site` (this checkout's venv and node_modules, the
clone's sources). Then, in Chromium, a returning player: the first build is
served by local_site.HostServer (a static host on loopback: gzip,
Last-Modified), the player opens a calculator page with inputs, waits until
the offline copy holds the engine (data-offline="engine") and opens it twice
more (the third start is a returning player's: the engine and its compiled
code from the caches). The host then serves the second build; the player
reloads, the new service worker installs (data-offline="update"), the player
takes it (the bar's Reload), and the page answers from the new build. Counted
from the switch until the new build's offline copy holds the engine again:
every byte and request the host answered, and each file asked for.

Goal: under 1 MiB in all (the changed pages, the wheel, the small manifests),
and the engine's start after the update as fast as before it (the first
answer's time, in the page's own clock).

--keep DIR keeps the two builds (DIR/old, DIR/new): `diff -r` of DIR/old/site
and another clean build of the same commit is the reproducibility check
(guides/publishing.md).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NotRequired, TypedDict
from urllib.parse import urlencode

from scripts.bench.page_visits import TIMEOUT_MS, EngineStart, answer_at, engine_inputs, settle
from scripts.support.local_site import HostServer, launch

import rules_py

ROOT = Path(__file__).resolve().parents[2]
CHANGED_FILE = "rules_py/combat_hq/data/comms_dice.csv"
CHANGED_LINE = ("soviet,Soviet Union,3", "soviet,Soviet Union,4")
MIB = 2**20
GOAL_BYTES = MIB


def clone(rev: str, into: Path) -> None:
    subprocess.run(["git", "clone", "--quiet", "--no-checkout", str(ROOT), str(into)], check=True)
    subprocess.run(["git", "-C", str(into), "checkout", "--quiet", rev], check=True)
    (into / "node_modules").symlink_to(ROOT / "node_modules")


def change_a_value(folder: Path) -> None:
    path = folder / CHANGED_FILE
    text = path.read_text(encoding="utf-8")
    if CHANGED_LINE[0] not in text:
        raise SystemExit(f"bench_update: {CHANGED_FILE} no longer has {CHANGED_LINE[0]!r}: pick another value")
    path.write_text(text.replace(CHANGED_LINE[0], CHANGED_LINE[1]), encoding="utf-8")
    subprocess.run(
        ["git", "-C", str(folder), "-c", "user.name=bench", "-c", "user.email=bench@localhost", "commit", "--quiet", "-am", "bench: one table value changed"],
        check=True,
    )


def build(folder: Path) -> float:
    """`make site` in the clone, with this checkout's venv (the clone's rules_py first on the path)."""
    env = {**os.environ, "PYTHONPATH": str(folder)}
    start = time.monotonic()
    run = subprocess.run(
        ["make", "--no-print-directory", "-o", "setup", "site", f"VENV={ROOT / '.venv'}"],
        cwd=folder, env=env, capture_output=True, text=True, check=False,
    )
    if run.returncode != 0:
        raise SystemExit(f"bench_update: make site failed in {folder}:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}")
    return time.monotonic() - start


def point(link: Path, target: Path) -> None:
    tmp = link.with_name(link.name + ".new")
    if tmp.is_symlink():
        tmp.unlink()
    tmp.symlink_to(target)
    os.replace(tmp, link)


class Start(TypedDict):
    """A returning player's start on one build: the first answer's time and how the engine started."""

    ms: float
    engine: EngineStart | None
    snapshot: bool | None


class Update(TypedDict):
    """What the host sent from the switch until the new build's offline copy held the engine."""

    bytes: int
    requests: int
    paths: NotRequired[list[str]]  # each path asked for; main() lists them as files with their sizes


class After(Start):
    first_ms_after_taking: float  # the first answer of the page the update's Reload opened
    returning_ms: float  # the next start after that one
    returning_engine: EngineStart | None


class Measured(TypedDict):
    before: Start
    update: Update
    after: After
    build_shown: str | None  # the build the page says it is (its fire-mission-build meta)


def measure(old: Path, new: Path, path: str, calc_id: str) -> Measured:
    from playwright.sync_api import sync_playwright

    live = old.parent / "live"
    point(live, old)
    with HostServer(live) as server, sync_playwright() as playwright:
        browser = launch(playwright)
        context = browser.new_context()
        try:
            page = context.new_page()
            page.goto(server.url(path))
            answer_at(page, calc_id)
            settle(page, server)
            starts = []
            for _ in range(2):  # the repeat visit, then a returning player's start
                page.goto(server.url(path))
                starts.append(answer_at(page, calc_id))
                settle(page, server, quiet_s=0.5)
            before: Start = {"ms": starts[-1]["ms"], "engine": starts[-1]["engine"], "snapshot": starts[-1]["snapshot"]}
            # The host now has the new build.
            point(live, new)
            server.files_changed()
            server.forget()
            c0 = server.counters()
            page.goto(server.url(path))
            page.wait_for_function("() => document.documentElement.dataset.offline === 'update'", timeout=TIMEOUT_MS * 2)
            with page.expect_navigation(timeout=TIMEOUT_MS):
                page.click(".fm-update button")
            taken = answer_at(page, calc_id)
            settle(page, server)
            sent, requests = server.counters()
            update: Update = {"bytes": sent - c0[0], "requests": requests - c0[1], "paths": server.requested}
            page.goto(server.url(path))
            second = answer_at(page, calc_id)
            settle(page, server, quiet_s=0.5)
            page.goto(server.url(path))
            third = answer_at(page, calc_id)
            shown = page.evaluate("() => document.querySelector('meta[name=\"fire-mission-build\"]')?.content ?? null")
        finally:
            context.close()
            browser.close()
    return {
        "before": before,
        "update": update,
        "after": {
            "ms": second["ms"], "engine": second["engine"], "snapshot": second["snapshot"], "first_ms_after_taking": taken["ms"],
            "returning_ms": third["ms"], "returning_engine": third["engine"],
        },
        "build_shown": shown,
    }


def sizes(folder: Path, paths: list[str]) -> list[tuple[str, int]]:
    """Each path asked for with its file's size in the build (as stored; the host may gzip it)."""
    seen, out = set(), []
    for p in paths:
        if p in seen:
            continue
        seen.add(p)
        file = folder / p.lstrip("/")
        if file.is_dir():
            file = file / "index.html"
        out.append((p, file.stat().st_size if file.is_file() else 0))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commit", default="HEAD", help="the commit to build (default HEAD; committed work only)")
    parser.add_argument("--keep", type=Path, help="build in DIR and keep it (DIR/old, DIR/new)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    os.environ.pop("SITE_URL", None)  # built for no address: the local host serves it anywhere
    rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", args.commit], capture_output=True, text=True, check=True).stdout.strip()
    work = args.keep.resolve() if args.keep else Path(tempfile.mkdtemp(prefix="bench-update-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        old, new = work / "old", work / "new"
        for folder in (old, new):
            if folder.exists():
                shutil.rmtree(folder)
        clone(rev, old)
        clone(rev, new)
        change_a_value(new)
        print(f"building {rev[:12]} in {old} and again with {CHANGED_FILE} changed in {new}", file=sys.stderr)
        built = [build(old), build(new)]
        calc = rules_py.calculators()[0]
        path = f"calculators/{calc.id}/?" + urlencode(engine_inputs(calc))
        result = measure(old / "site", new / "site", path, calc.id)
        update = result["update"]
        files = sizes(new / "site", update.pop("paths"))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"Commit {rev[:12]}; the page {path}; builds took {built[0]:.0f} s and {built[1]:.0f} s.")
    ok = "✓" if update["bytes"] <= GOAL_BYTES else "✗"
    print(f"Update taken: {update['bytes'] / MIB:.2f} MiB on the wire in {update['requests']} requests (goal <= 1 MiB {ok})")
    print(f"Engine start, a returning player's: before {result['before']['ms']:.0f} ms, after {result['after']['returning_ms']:.0f} ms "
          f"(first start on the new build {result['after']['first_ms_after_taking']:.0f} ms, next {result['after']['ms']:.0f} ms; "
          f"from the snapshot: {result['before']['snapshot']} -> {result['after']['snapshot']})")
    print(f"Build on show: {result['build_shown']}")
    for p, size in sorted(files, key=lambda x: -x[1])[:25]:
        print(f"    {size:>10,}  {p}")
    if args.json:
        args.json.write_text(json.dumps({"commit": rev, "built_s": built, **result, "files": files}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
