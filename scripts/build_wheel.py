"""Build the pure-Python rules wheel and vendor Pyodide into the site's assets.

The browser loads ``assets/generated/rules_py-<version>-py3-none-any.whl``
with ``pyodide.unpackArchive`` (no micropip, no network), so the wheel needs
no Pyodide-specific build: ``pip wheel --no-deps`` makes it. Pyodide's
run-time files come from the pinned npm package in ``node_modules``.

Writes ``docs/assets/generated/runtime.json`` naming both, for the page glue.
Run from the project root after ``npm ci``: ``python scripts/build_wheel.py``.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "assets" / "generated"
PYODIDE_SRC = ROOT / "node_modules" / "pyodide"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")


def build_wheel() -> Path:
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
        shutil.copy2(wheel, target)
    shutil.rmtree(ROOT / "build" / "lib", ignore_errors=True)
    shutil.rmtree(ROOT / "build" / "bdist.linux-x86_64", ignore_errors=True)
    return target


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
    wheel = build_wheel()
    pyodide = vendor_pyodide()
    runtime = {"wheel": wheel.name, "pyodide": (pyodide / "VERSION").read_text().strip()}
    (OUT / "runtime.json").write_text(json.dumps(runtime, indent=1) + "\n")
    print(f"wheel {wheel.name} ({wheel.stat().st_size} bytes); Pyodide {runtime['pyodide']}")


if __name__ == "__main__":
    main()
