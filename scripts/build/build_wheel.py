"""Build the pure-Python rules wheel and vendor Pyodide into the site's assets.

The browser loads ``assets/generated/rules_py-<version>-py3-none-any.whl.xz``
(the wheel, xz-compressed: see below) with ``pyodide.unpackArchive`` (no micropip, no network), so the wheel needs
no Pyodide-specific build: ``pip wheel --no-deps`` makes it. Pyodide's
run-time files come from the pinned npm package in ``node_modules``.

The wheel also carries bytecode compiled by Pyodide's own Python (run by Node,
see ``pyodide_bytecode.mjs``), so the browser does not compile ``rules_py`` on
every visit. It is cached in ``build/pyodide-bytecode/`` by the wheel's
contents and the Pyodide version.

``pyodide-snapshot.bin.gz`` is a memory snapshot of the vendored Pyodide,
booted and with the standard library modules that the worker's start-up
imports already imported (``pyodide_snapshot.mjs``): the worker restores it
instead of booting Python, which is most of the wait for a first answer. It
holds no rule (rules_py still comes as the wheel), so it is cached in
``build/pyodide-snapshot/`` by the Pyodide version and that module list.
It is stored sparse (:func:`sparse_snapshot`): of Pyodide's 30 MiB snapshot,
16 MiB are runs of zeros (the heap's free space), which gzip shrinks to
almost nothing but which the worker would still inflate and copy on every
start: left out, the worker inflates 14 MiB instead of 30 and writes each
kept stretch straight to its place in a zeroed buffer (the loader's
``sparseSnapshot``, docs/assets/calc/loader/sparse-snapshot.mjs). Restoring it is about half as much work (see
scripts/bench/bench_browser.py); the bytes on the wire are the same.

``pyodide/python_stdlib.zip.xz`` is Pyodide's standard library cut to the
files that Python reads while it boots, unpacks the wheel and answers every
calculator (``stdlib_files`` from ``pyodide_bytecode.mjs``), each module as
the bytecode Pyodide's own Python compiled of it in the same run as the
wheel's (``stdlib_bytecode``), without its source. Pyodide ships its standard
library as source, so a start without the snapshot (a first visit on a slow
link, a browser that saves data) compiled some 3 MB of it: on Fast 4G, Python
took 3.8 s to start once the files were in, and 0.9 s with the bytecode, for
0.44 MB more on the wire (0.97 MB where the sources were 0.53 MB; Pyodide's
whole zip is 2.5 MB). An import outside the list would fail in the browser,
so the tests run every calculator there.

The WebAssembly, the cut standard library and the wheel go to the site
xz-compressed (``.xz``, LZMA2), not as they are: a host gzips the
WebAssembly to 3.5 MB, xz makes 2.6 MB of it, and the zips, stored rather
than deflated inside, shrink by a quarter to a third more. The worker inflates them as
they arrive with xz-embedded compiled to WebAssembly (npm's ``xz-decompress``,
pinned in package.json, copied here as ``xz-decompress.mjs``), about 0.2 s
of work for the 9.6 MB WebAssembly on this machine, spread over its
download; Pyodide is handed the inflated files as if it had fetched them.
Measured on a 9 Mbit/s link, that is a second less before the first answer
(scripts/bench/bench_browser.py). On a fast link, and once the browser holds it,
the WebAssembly as it is starts sooner (no inflating, and the browser keeps
its compiled code): the site has it both ways and the worker chooses. The snapshot stays gzipped: it is used on fast
links and from the cache, where inflating 31 MB natively beats xz's bytes.

The wheel also carries ``rules_py/data/calculator_modules.json``, each
calculator's id with its module as discovery finds them here, so that the
browser's first answer imports that calculator's module alone (see
``rules_py.registry``).

Writes ``docs/assets/generated/runtime.json`` naming the wheel and the
snapshot with their SHA-256, for the Web Worker in ``docs/assets/calc/worker.mjs``,
the versions of Node.js and Chromium the build used, and the build's id.

Reproducible: the same commit gives the same files, byte for byte, in any
folder, at any time (guides/publishing.md). The build's id is the commit
(:func:`build_id`): runtime.json and the wheel carry it
(``rules_py/data/build.json``), and so does every page (offline_hooks.py), so
that the worker can refuse an engine from another build than its page's. The
wheel's entries are dated from the commit's time (SOURCE_DATE_EPOCH, as
reproducible-builds.org has it, :func:`source_date_epoch`), with fixed
permissions, whatever the checkout's files say: the wheel changes with every
commit (it carries the id), and only with one. The snapshot and Pyodide's
files carry no id and no date: they change only with their contents, so that
a returning player keeps them across builds (pyodide_snapshot.mjs says how
the snapshot is made the same every time; pyodide_bytecode.mjs runs with a
fixed hash seed, since a set's order in the bytecode follows it).
Run from the project root after ``npm ci``: ``python -m scripts.build.build_wheel``.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import lzma
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import TypedDict

from scripts.build.page_templates import render
from scripts.support.local_site import CHROMIUM

from rules_py import registry

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "assets" / "generated"
PYODIDE_SRC = ROOT / "node_modules" / "pyodide"
# Pyodide's files as the site has them: .xz where the worker inflates them itself.
# The WebAssembly comes both ways: .xz for a slow link, as it is (a host gzips it)
# for a fast one and from the cache, where inflating it would cost more than it saves.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide.asm.wasm.xz", "python_stdlib.zip.xz", "pyodide-lock.json")
# Pyodide's files the worker checks against runtime.json's file_sha256 (see main()).
CHECKED_PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")
XZ_DECODER_SRC = ROOT / "node_modules" / "xz-decompress" / "dist" / "package" / "xz-decompress.min.js"
XZ_DECODER = "xz-decompress.mjs"
BYTECODE_CACHE = ROOT / "build" / "pyodide-bytecode"
SNAPSHOT_CACHE = ROOT / "build" / "pyodide-snapshot"
SNAPSHOT = "pyodide-snapshot.bin.gz"
# What pyproject.toml builds the wheel from.
WHEEL_SOURCES = ("pyproject.toml", "README.md", "rules_py")
# The build's id inside the wheel (the worker compares it with its page's).
BUILD_FILE = "rules_py/data/build.json"
# Zip's earliest date (1980-01-01), for a build with no commit to date it from.
ZIP_EPOCH = 315532800


def _git(*args: str) -> str | None:
    git = shutil.which("git")
    if not git or not (ROOT / ".git").exists():
        return None
    run = subprocess.run([git, *args], cwd=ROOT, capture_output=True, text=True, check=False)
    return run.stdout.strip() if run.returncode == 0 else None


DIRTY = "+dirty"  # after a build id whose tracked files differed from its commit


def build_id() -> str:
    """The build's id: FIRE_MISSION_BUILD if set, else the commit checked out
    (``+dirty`` after it where tracked files differ from it), else "unversioned"
    (a copy of the sources without git)."""
    if os.environ.get("FIRE_MISSION_BUILD"):
        return os.environ["FIRE_MISSION_BUILD"]
    commit = _git("rev-parse", "HEAD")
    if not commit:
        return "unversioned"
    return commit + (DIRTY if _git("status", "--porcelain", "--untracked-files=no") else "")


def source_date_epoch(build: str = "HEAD") -> int:
    """SOURCE_DATE_EPOCH if set, else the commit's time, else zip's earliest date.

    ``build``: another build's id (build_id), for the date that build took (tests/test_reproducible.py)."""
    if os.environ.get("SOURCE_DATE_EPOCH"):
        return int(os.environ["SOURCE_DATE_EPOCH"])
    when = _git("log", "-1", "--format=%ct", build.removesuffix(DIRTY))
    return max(int(when), ZIP_EPOCH) if when else ZIP_EPOCH


def _node() -> str:
    node = shutil.which("node")
    if not node:
        raise SystemExit("build_wheel: Node.js is needed to run the vendored Pyodide at build time")
    return node


def tool_versions() -> dict[str, str | None]:
    """The Node.js that ran Pyodide here and the Chromium that prints the sheets and runs the browser tests.

    For runtime.json; tests/test_wheel.py warns when they differ from tests/tested_versions.toml.
    """
    node = subprocess.run([_node(), "--version"], capture_output=True, text=True, check=True).stdout.strip()
    chromium = None
    if os.access(CHROMIUM, os.X_OK):
        # Debian's wrapper script may say more (and complain on stderr): keep the version number.
        out = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True, check=False, timeout=60).stdout
        found = re.search(r"\d+(?:\.\d+)+", out)
        chromium = found.group(0) if found else None
    return {"node": node.removeprefix("v"), "chromium": chromium}


def pyodide_version() -> str:
    return str(json.loads((PYODIDE_SRC / "package.json").read_text())["version"])


# The sparse snapshot's layout (little-endian u32s): SPARSE_MAGIC, the length of
# Pyodide's snapshot, the number N of stretches kept, N pairs (offset, length),
# then the kept stretches' bytes one after the other. Everything between them is
# zero. A run of zeros shorter than ZERO_RUN is kept (its pair would cost more).
SPARSE_MAGIC = b"FMz1"
ZERO_RUN = 64


def sparse_snapshot(raw: bytes) -> bytes:
    """Pyodide's memory snapshot ``raw`` with its runs of ZERO_RUN zeros or more left out."""
    stretches, start = [], 0
    for run in re.finditer(rb"\x00{%d,}" % ZERO_RUN, raw):
        if run.start() > start:
            stretches.append((start, run.start() - start))
        start = run.end()
    if start < len(raw):
        stretches.append((start, len(raw) - start))
    head = [SPARSE_MAGIC, struct.pack("<II", len(raw), len(stretches))]
    head += [struct.pack("<II", offset, length) for offset, length in stretches]
    kept = [raw[offset : offset + length] for offset, length in stretches]
    return b"".join(head + kept)


def expand_snapshot(sparse: bytes) -> bytes:
    """Pyodide's snapshot back from :func:`sparse_snapshot`'s bytes (for the build's check and the tests)."""
    if sparse[:4] != SPARSE_MAGIC:
        raise ValueError("not a sparse snapshot")
    total, count = struct.unpack_from("<II", sparse, 4)
    out = bytearray(total)
    at = 12 + 8 * count
    for i in range(count):
        offset, length = struct.unpack_from("<II", sparse, 12 + 8 * i)
        out[offset : offset + length] = sparse[at : at + length]
        at += length
    if at != len(sparse):
        raise ValueError("a sparse snapshot's stretches do not add up to its length")
    return bytes(out)


def build_snapshot(modules: list[str]) -> Path:
    """The gzipped sparse memory snapshot of Pyodide with ``modules`` imported (see pyodide_snapshot.mjs)."""
    script = ROOT / "scripts" / "build" / "pyodide_snapshot.mjs"
    digest = hashlib.sha256(
        pyodide_version().encode() + b"\0" + "\n".join(modules).encode() + b"\0" + script.read_bytes() + b"\0" + SPARSE_MAGIC + bytes([ZERO_RUN])
    )
    cached = SNAPSHOT_CACHE / f"{digest.hexdigest()[:32]}.bin.gz"
    if not cached.exists():
        with tempfile.TemporaryDirectory() as tmp:
            raw = Path(tmp) / "snapshot.bin"
            run = subprocess.run(
                [_node(), str(script), str(PYODIDE_SRC), str(raw), *modules],
                stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False, timeout=300,
            )
            if run.returncode != 0 or not raw.exists():
                raise SystemExit(f"build_wheel: taking Pyodide's memory snapshot failed:\n{run.stderr[-2000:]}")
            SNAPSHOT_CACHE.mkdir(parents=True, exist_ok=True)
            for old in SNAPSHOT_CACHE.glob("*.bin.gz"):
                old.unlink()
            memory = raw.read_bytes()
            sparse = sparse_snapshot(memory)
            if expand_snapshot(sparse) != memory:
                raise SystemExit("build_wheel: the sparse snapshot does not give Pyodide's back")
            # mtime=0: the same snapshot gives the same bytes, hence the same hash in runtime.json.
            cached.write_bytes(gzip.compress(sparse, compresslevel=9, mtime=0))
    target = OUT / SNAPSHOT
    shutil.copyfile(cached, target)
    return target


def build_wheel() -> tuple[Path, list[str], list[str], dict[str, bytes]]:
    """The wheel (written .xz under OUT), the standard library modules the snapshot
    imports, the standard library files a start reads, and their bytecode (pyodide_bytecode)."""
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("rules_py-*.whl*"):
        old.unlink()
    with tempfile.TemporaryDirectory() as tmp:
        # Built from a copy of what the wheel is made of, so setuptools leaves its
        # build/ and egg-info folders (named after the platform) in the copy.
        src = Path(tmp) / "src"
        src.mkdir()
        for name in WHEEL_SOURCES:
            if (ROOT / name).is_dir():
                shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
            else:
                shutil.copy2(ROOT / name, src / name)
        dist = Path(tmp) / "dist"
        epoch = source_date_epoch()
        subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet", "-w", str(dist), str(src)],
            check=True,
            cwd=tmp,
            env={**os.environ, "SOURCE_DATE_EPOCH": str(epoch)},
        )
        (wheel,) = dist.glob("rules_py-*.whl")
        bytecode = pyodide_bytecode(wheel)
        target = OUT / (wheel.name + ".xz")
        added = {**bytecode["files"], **calculator_index(), BUILD_FILE: build_file()}
        target.write_bytes(xz(with_bytecode(wheel, added, zip_date(epoch))))
    return target, bytecode["stdlib_modules"], bytecode["stdlib_files"], bytecode["stdlib_bytecode"]


class PyodideBytecode(TypedDict):
    files: dict[str, bytes]  # the wheel's path -> its module's bytecode
    stdlib_modules: list[str]
    stdlib_files: list[str]
    stdlib_bytecode: dict[str, bytes]


def pyodide_bytecode(wheel: Path) -> PyodideBytecode:
    """From Pyodide's own Python: {"files": {wheel path: bytecode}, "stdlib_modules": [name, ...]}.

    Cached by the wheel's contents and the Pyodide version (see pyodide_bytecode.mjs).
    """
    digest = hashlib.sha256(pyodide_version().encode())
    with zipfile.ZipFile(wheel) as z:
        for name in sorted(z.namelist()):
            if ".dist-info/" not in name:
                digest.update(name.encode() + b"\0" + z.read(name) + b"\0")
    digest.update((ROOT / "scripts" / "build" / "pyodide_bytecode.mjs").read_bytes())
    cached = BYTECODE_CACHE / f"{digest.hexdigest()[:32]}.json"
    if cached.exists():
        answer = json.loads(cached.read_text())
    else:
        run = subprocess.run(
            [_node(), str(ROOT / "scripts" / "build" / "pyodide_bytecode.mjs"), str(PYODIDE_SRC), str(wheel)],
            stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False, timeout=300,
        )
        if run.returncode != 0:
            raise SystemExit(f"build_wheel: byte-compiling with Pyodide failed:\n{run.stderr[-2000:]}")
        answer = json.loads(run.stdout)
        BYTECODE_CACHE.mkdir(parents=True, exist_ok=True)
        for old in BYTECODE_CACHE.glob("*.json"):
            old.unlink()
        cached.write_text(json.dumps(answer))
    return {
        "files": {path: base64.b64decode(data) for path, data in answer["files"].items()},
        "stdlib_modules": list(answer["stdlib_modules"]),
        "stdlib_files": list(answer["stdlib_files"]),
        "stdlib_bytecode": {path: base64.b64decode(data) for path, data in answer["stdlib_bytecode"].items()},
    }


def _record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def calculator_index() -> dict[str, bytes]:
    """The wheel's index of each calculator's module (rules_py.registry), as discovery finds them
    in this source tree: the browser's first answer imports its calculator's module alone."""
    data = json.dumps(registry.modules(), indent=0, sort_keys=True).encode() + b"\n"
    return {f"rules_py/data/{registry.INDEX}": data}


def build_file() -> bytes:
    """The wheel's record of the build it belongs to (the worker reads it)."""
    return json.dumps({"build": build_id()}).encode() + b"\n"


def zip_date(epoch: int) -> tuple[int, int, int, int, int, int]:
    """A zip entry's date (UTC; two-second steps, from 1980) for a Unix time."""
    import datetime

    when = datetime.datetime.fromtimestamp(max(epoch, ZIP_EPOCH), datetime.UTC)
    return (when.year, when.month, when.day, when.hour, when.minute, when.second - when.second % 2)


def with_bytecode(wheel: Path, bytecode: dict[str, bytes], date_time: tuple[int, int, int, int, int, int]) -> bytes:
    """The wheel, stored, with the files given (Pyodide bytecode beside each module, the
    calculator index, the build's id) added and listed in RECORD, every entry dated
    ``date_time`` with the same permissions: what the checkout's files said of
    themselves (times, a umask) does not reach the wheel."""
    with zipfile.ZipFile(wheel) as src:
        entries = [(info.filename, src.read(info)) for info in src.infolist()]
    out = []
    for name, data in entries:
        if name.endswith(".dist-info/RECORD"):
            lines = data.decode().splitlines()
            record_name = name
            continue
        out.append((name, data))
    out += sorted(bytecode.items())
    record = [line for line in lines if line and not line.startswith(record_name)]
    record += [_record_line(path, data) for path, data in sorted(bytecode.items())]
    record.append(f"{record_name},,")
    out.append((record_name, ("\n".join(record) + "\n").encode()))
    return stored_zip(out, date_time)


def xz(data: bytes) -> bytes:
    """``data`` as an .xz file that xz-embedded (the browser's decoder) reads: LZMA2 at
    its strongest, a CRC32 check (it need not know CRC64) and a dictionary no bigger
    than the file (xz-embedded allocates what the header asks for). Reproducible."""
    dict_size = max(1 << 20, 1 << (len(data) - 1).bit_length())
    filters = [{"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME, "dict_size": dict_size}]
    return lzma.compress(data, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32, filters=filters)


def stored_zip(entries: list[tuple[str, bytes]], date_time: tuple[int, int, int, int, int, int] = (1980, 1, 1, 0, 0, 0)) -> bytes:
    """A zip of ``entries`` with nothing deflated inside (xz compresses the whole
    better), each dated ``date_time``, readable by all (0644), made on Unix:
    the same entries, the same bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as out:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=date_time)
            info.create_system = 3
            info.external_attr = 0o100644 << 16
            info.compress_type = zipfile.ZIP_STORED
            out.writestr(info, data)
    return buffer.getvalue()


def cut_stdlib(source: Path, keep: list[str], bytecode: dict[str, bytes]) -> bytes:
    """Pyodide's python_stdlib.zip with only the files in ``keep``, each module as its
    bytecode (``bytecode``: ``name.pyc`` for ``name.py``) in place of its source, stored,
    byte for byte reproducible."""
    wanted = set(keep)
    with zipfile.ZipFile(source) as src:
        missing = wanted - set(src.namelist())
        if missing:
            raise SystemExit(f"build_wheel: not in Pyodide's python_stdlib.zip: {sorted(missing)}")
        uncompiled = {name for name in wanted if name.endswith(".py") and name + "c" not in bytecode}
        if uncompiled:
            raise SystemExit(f"build_wheel: no bytecode for {sorted(uncompiled)}")
        entries = [(name + "c", bytecode[name + "c"]) if name.endswith(".py") else (name, src.read(name)) for name in wanted]
        return stored_zip(sorted(entries))


def xz_decoder_module() -> str:
    """npm's xz-decompress (a UMD bundle) as an ES module the worker can import:
    it takes its CommonJS branch, with a ``require`` it never calls in a browser
    (only Node < 18 lacks the global ReadableStream it would fetch)."""
    if not XZ_DECODER_SRC.exists():
        raise SystemExit(f"build_wheel: {XZ_DECODER_SRC} is missing: run `npm ci`")
    return render("xz-decompress.mjs.j2", source=XZ_DECODER_SRC.read_text(encoding="utf-8"))


def vendor_pyodide(stdlib_files: list[str], stdlib_bytecode: dict[str, bytes]) -> Path:
    target = OUT / "pyodide"
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    version = pyodide_version()
    for name in PYODIDE_FILES:
        if name == "python_stdlib.zip.xz":
            (target / name).write_bytes(xz(cut_stdlib(PYODIDE_SRC / "python_stdlib.zip", stdlib_files, stdlib_bytecode)))
        elif name == "pyodide.asm.wasm.xz":
            (target / name).write_bytes(xz((PYODIDE_SRC / "pyodide.asm.wasm").read_bytes()))
        else:
            shutil.copy2(PYODIDE_SRC / name, target / name)
    (target / "VERSION").write_text(version + "\n")
    (OUT / XZ_DECODER).write_text(xz_decoder_module(), encoding="utf-8")
    return target


def main() -> None:
    wheel, stdlib_modules, stdlib_files, stdlib_bytecode = build_wheel()
    snapshot = build_snapshot(stdlib_modules)
    pyodide = vendor_pyodide(stdlib_files, stdlib_bytecode)
    runtime = {
        # The commit built (build_id): the worker refuses a runtime.json of another build than its page's.
        "build": build_id(),
        "wheel": wheel.name,
        # The worker asks for wheel?v=<sha256>, so no browser keeps an old wheel.
        "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
        "snapshot": snapshot.name,
        "snapshot_sha256": hashlib.sha256(snapshot.read_bytes()).hexdigest(),
        # The worker checks the snapshot against one of these before Python starts from it
        # (docs/assets/calc/loader/sparse-snapshot.mjs): the file's, as it is on the site, or,
        # from a host that sent it with Content-Encoding: gzip (the browser inflated it), its
        # inflated bytes'. Either covers every byte that reaches Pyodide's memory.
        "snapshot_inflated_sha256": hashlib.sha256(gzip.decompress(snapshot.read_bytes())).hexdigest(),
        # The engine's files that nothing else checks: the .xz ones carry their own check
        # (xz's CRC), the wheel and the snapshot have theirs above, the lock file is parsed;
        # the JavaScript modules the worker imports and the WebAssembly as it is have these.
        "file_sha256": {
            name: hashlib.sha256((OUT / name).read_bytes()).hexdigest()
            for name in (*(f"pyodide/{f}" for f in CHECKED_PYODIDE_FILES), XZ_DECODER)
        },
        # What the snapshot has imported, for the tests and for anyone reading this file.
        "snapshot_modules": stdlib_modules,
        "pyodide": (pyodide / "VERSION").read_text().strip(),
        # The tools the build used, checked against the tested ones by tests/test_wheel.py.
        **tool_versions(),
        # Each of the engine's files with its size on the site (no host compresses
        # the .xz ones: these are the bytes that cross the network), so the worker can
        # say how much of the engine has arrived, and the service worker knows what to keep.
        "sizes": {
            path.relative_to(OUT).as_posix(): path.stat().st_size
            for path in sorted([wheel, snapshot, OUT / XZ_DECODER, *pyodide.iterdir()])
            if path.name != "VERSION"
        },
    }
    (OUT / "runtime.json").write_text(json.dumps(runtime, indent=1) + "\n")
    print(
        f"wheel {wheel.name} ({wheel.stat().st_size} bytes); Pyodide {runtime['pyodide']}; "
        f"snapshot {snapshot.stat().st_size} bytes with {len(stdlib_modules)} standard library modules"
    )


if __name__ == "__main__":
    main()
