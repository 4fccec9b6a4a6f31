"""Build the pure-Python rules wheel and vendor Pyodide into the site's assets.

The browser loads ``assets/generated/rules_py-<version>-py3-none-any.whl``
with ``pyodide.unpackArchive`` (no micropip, no network), so the wheel needs
no Pyodide-specific build: ``pip wheel --no-deps`` makes it. Pyodide's
run-time files come from the pinned npm package in ``node_modules``.

The wheel also carries bytecode compiled by Pyodide's own Python (run by Node,
see ``pyodide_bytecode.mjs``), so the browser does not compile ``rules_py`` on
every visit, and ``stdlib-bytecode.zip`` holds the same for the standard library
modules that rules_py imports (Pyodide ships its standard library as sources):
the calculators answer sooner after the page opens. The bytecode is cached in
``build/pyodide-bytecode/`` by the wheel's contents and the Pyodide version.

Writes ``docs/assets/generated/runtime.json`` naming both (with the wheel's
SHA-256), for the Web Worker in ``docs/assets/calc/worker.mjs``.
Run from the project root after ``npm ci``: ``python scripts/build_wheel.py``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "assets" / "generated"
PYODIDE_SRC = ROOT / "node_modules" / "pyodide"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
BYTECODE_CACHE = ROOT / "build" / "pyodide-bytecode"
STDLIB_ZIP = "stdlib-bytecode.zip"


def write_stdlib_bytecode(stdlib: dict[str, bytes]) -> Path:
    """The standard library modules that rules_py imports, as a zip of sourceless bytecode."""
    target = OUT / STDLIB_ZIP
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        for path, data in sorted(stdlib.items()):
            out.writestr(zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    return target


def build_wheel() -> tuple[Path, Path]:
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("rules_py-*.whl"):
        old.unlink()
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet", "-w", tmp, str(ROOT)],
            check=True,
            cwd=tmp,
        )
        (wheel,) = Path(tmp).glob("rules_py-*.whl")
        target = OUT / wheel.name
        bytecode = pyodide_bytecode(wheel)
        add_bytecode(wheel, target, bytecode["files"])
        stdlib = write_stdlib_bytecode(bytecode["stdlib"])
    shutil.rmtree(ROOT / "build" / "lib", ignore_errors=True)
    shutil.rmtree(ROOT / "build" / "bdist.linux-x86_64", ignore_errors=True)
    return target, stdlib


def pyodide_bytecode(wheel: Path) -> dict:
    """Bytecode from Pyodide's own Python: {"files": {wheel path: bytes}, "stdlib": {zip path: bytes}}.

    Cached by the wheel's contents and the Pyodide version (see pyodide_bytecode.mjs).
    """
    version = json.loads((PYODIDE_SRC / "package.json").read_text())["version"]
    digest = hashlib.sha256(version.encode())
    with zipfile.ZipFile(wheel) as z:
        for name in sorted(z.namelist()):
            if ".dist-info/" not in name:
                digest.update(name.encode() + b"\0" + z.read(name) + b"\0")
    digest.update((ROOT / "scripts" / "pyodide_bytecode.mjs").read_bytes())
    cached = BYTECODE_CACHE / f"{digest.hexdigest()[:32]}.json"
    if cached.exists():
        answer = json.loads(cached.read_text())
    else:
        node = shutil.which("node")
        if not node:
            raise SystemExit("build_wheel: Node.js is needed to byte-compile the rules with Pyodide's Python")
        run = subprocess.run(
            [node, str(ROOT / "scripts" / "pyodide_bytecode.mjs"), str(PYODIDE_SRC), str(wheel)],
            stdin=subprocess.DEVNULL, capture_output=True, text=True, check=False, timeout=300,
        )
        if run.returncode != 0:
            raise SystemExit(f"build_wheel: byte-compiling with Pyodide failed:\n{run.stderr[-2000:]}")
        answer = json.loads(run.stdout)
        BYTECODE_CACHE.mkdir(parents=True, exist_ok=True)
        for old in BYTECODE_CACHE.glob("*.json"):
            old.unlink()
        cached.write_text(json.dumps(answer))
    return {part: {path: base64.b64decode(data) for path, data in answer[part].items()} for part in ("files", "stdlib")}


def _record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def add_bytecode(wheel: Path, target: Path, bytecode: dict[str, bytes]) -> None:
    """Copy the wheel to ``target`` with Pyodide bytecode beside each module, listed in RECORD."""
    with zipfile.ZipFile(wheel) as src:
        entries = [(info, src.read(info)) for info in src.infolist()]
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        for info, data in entries:
            if info.filename.endswith(".dist-info/RECORD"):
                lines = data.decode().splitlines()
                record_name = info.filename
                continue
            out.writestr(info, data)
        for path, data in sorted(bytecode.items()):
            out.writestr(zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
        record = [line for line in lines if line and not line.startswith(record_name)]
        record += [_record_line(path, data) for path, data in sorted(bytecode.items())]
        record.append(f"{record_name},,")
        out.writestr(record_name, "\n".join(record) + "\n")


def vendor_pyodide() -> Path:
    target = OUT / "pyodide"
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    version = json.loads((PYODIDE_SRC / "package.json").read_text())["version"]
    for name in PYODIDE_FILES:
        shutil.copy2(PYODIDE_SRC / name, target / name)
    (target / "VERSION").write_text(version + "\n")
    return target


def main() -> None:
    wheel, stdlib = build_wheel()
    pyodide = vendor_pyodide()
    runtime = {
        "wheel": wheel.name,
        # The worker asks for wheel?v=<sha256>, so no browser keeps an old wheel.
        "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
        "stdlib": stdlib.name,
        "stdlib_sha256": hashlib.sha256(stdlib.read_bytes()).hexdigest(),
        "pyodide": (pyodide / "VERSION").read_text().strip(),
    }
    (OUT / "runtime.json").write_text(json.dumps(runtime, indent=1) + "\n")
    print(f"wheel {wheel.name} ({wheel.stat().st_size} bytes); Pyodide {runtime['pyodide']}")


if __name__ == "__main__":
    main()
