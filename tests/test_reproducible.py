"""The same commit gives the same engine files, byte for byte, in another folder, at another time.

A returning player keeps the engine across builds that do not change it (the
6 MB snapshot, Pyodide's files): only if a build makes the same bytes from the
same sources (guides/publishing.md). The site's engine files were built by
``make site``; this builds the wheel, the memory snapshot and the cut standard
library (its modules compiled to bytecode by the run that compiles the wheel's)
a second time, from a copy of the sources in another folder
(scripts/build/pyodide_snapshot.mjs and the vendored Pyodide reached by another
path), with empty caches, in another time zone and locale, and compares them
with the site's, naming each file that differs (and, for the snapshot, how many
of its bytes do). Pyodide's own files and the xz decoder are copies and
deterministic compressions of pinned inputs; the whole site is compared by
``diff -r`` of two clean clones (guides/publishing.md).
"""

from __future__ import annotations

import gzip
import json
import lzma
import shutil

import pytest

from conftest import ROOT

from scripts.build import build_wheel

pytestmark = pytest.mark.site


def differing_bytes(a: bytes, b: bytes) -> int:
    return sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory, generated):
    """The wheel, the snapshot and the cut standard library built again elsewhere: {name under assets/generated/: bytes}."""
    runtime = json.loads((generated / "runtime.json").read_text())
    here = tmp_path_factory.mktemp("elsewhere") / "another folder"
    here.mkdir()
    for name in build_wheel.WHEEL_SOURCES:
        source = ROOT / name
        if source.is_dir():
            # As a fresh clone has them: new files, dated now.
            shutil.copytree(source, here / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"), copy_function=shutil.copyfile)
        else:
            shutil.copyfile(source, here / name)
    (here / "scripts" / "build").mkdir(parents=True)
    for name in ("pyodide_snapshot.mjs", "pyodide_bytecode.mjs"):
        shutil.copyfile(ROOT / "scripts" / "build" / name, here / "scripts" / "build" / name)
    (here / "pyodide").symlink_to(build_wheel.PYODIDE_SRC)
    patch = pytest.MonkeyPatch()
    try:
        # The build's id and date as the site's build had them (this copy has no git): its
        # commit's date, not the checkout's, so a commit made since (a test, the Makefile)
        # does not change the zip's dates.
        patch.setenv("FIRE_MISSION_BUILD", runtime["build"])
        patch.setenv("SOURCE_DATE_EPOCH", str(build_wheel.source_date_epoch(runtime["build"])))
        patch.setenv("TZ", "Pacific/Chatham")
        patch.setenv("LANG", "fr_FR.UTF-8")
        patch.setattr(build_wheel, "ROOT", here)
        patch.setattr(build_wheel, "OUT", here / "out")
        patch.setattr(build_wheel, "PYODIDE_SRC", here / "pyodide")
        patch.setattr(build_wheel, "BYTECODE_CACHE", here / "cache" / "bytecode")
        patch.setattr(build_wheel, "SNAPSHOT_CACHE", here / "cache" / "snapshot")
        wheel, modules, files, bytecode = build_wheel.build_wheel()
        snapshot = build_wheel.build_snapshot(modules)
        stdlib = build_wheel.xz(build_wheel.cut_stdlib(build_wheel.PYODIDE_SRC / "python_stdlib.zip", files, bytecode))
    finally:
        patch.undo()
    # The standard library too: its modules' bytecode is compiled by the same run as the wheel's.
    return {wheel.name: wheel.read_bytes(), snapshot.name: snapshot.read_bytes(), "pyodide/python_stdlib.zip.xz": stdlib}


def test_the_wheel_the_snapshot_and_the_standard_library_come_out_the_same_elsewhere(rebuilt, generated):
    differ = []
    for name, again in rebuilt.items():
        built = (generated / name).read_bytes() if (generated / name).exists() else b""
        if again == built:
            continue
        if name.endswith(".xz"):
            built, again = (lzma.decompress(x) if x else b"" for x in (built, again))
            what = "its zip"
        else:
            built, again = (build_wheel.expand_snapshot(gzip.decompress(x)) if x else b"" for x in (built, again))
            what = "Pyodide's memory"
        differ.append(f"assets/generated/{name}: {differing_bytes(built, again):,} of {len(built):,} bytes of {what} differ")
    assert not differ, "not reproducible:\n" + "\n".join(differ)
