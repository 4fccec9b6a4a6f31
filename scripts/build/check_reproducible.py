"""Build a commit from a clean clone and compare the site with another build of it, file by file.

    python -m scripts.build.check_reproducible [--commit REV] [--against SITE] [--keep DIR]

The same commit gives the same site/, every file, byte for byte, in any
folder, at any time, on the same kind of machine (guides/publishing.md). This
clones the repository at REV (default HEAD; committed work only) into a
temporary folder and runs `make site` there (this checkout's venv and
node_modules, the clone's sources: scripts/bench/bench_update.py's build), then
compares its site/ with SITE: a second clean build made the same way (the
default), or a deployed copy of the site (downloaded, or the folder that was
uploaded). It prints each file that differs or is on one side only, and exits 1
if there is any. Build with the SITE_URL the deploy was built with (it is in
every page's canonical link): it is a build setting.

A deploy names its commit in assets/generated/runtime.json ("build"), in the
wheel (rules_py/data/build.json) and in every page with a calculator
(<meta name="fire-mission-build">).
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from scripts.bench.bench_update import build, clone

ROOT = Path(__file__).resolve().parents[2]


def differences(a: Path, b: Path) -> list[str]:
    """Every file of ``a`` or ``b`` that is not in both with the same bytes, as a path under them."""
    out = []
    files_a = {p.relative_to(a).as_posix() for p in a.rglob("*") if p.is_file()}
    files_b = {p.relative_to(b).as_posix() for p in b.rglob("*") if p.is_file()}
    for name in sorted(files_a | files_b):
        if name not in files_b:
            out.append(f"only in {a}: {name}")
        elif name not in files_a:
            out.append(f"only in {b}: {name}")
        elif not filecmp.cmp(a / name, b / name, shallow=False):
            out.append(f"differs: {name}")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commit", default="HEAD")
    parser.add_argument("--against", type=Path, help="a built or deployed site/ (default: a second clean build)")
    parser.add_argument("--keep", type=Path, help="build in DIR and keep it")
    args = parser.parse_args()
    rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", args.commit], capture_output=True, text=True, check=True).stdout.strip()
    work = args.keep.resolve() if args.keep else Path(tempfile.mkdtemp(prefix="reproducible-"))
    try:
        builds = []
        for name in ("a",) if args.against else ("a", "b"):
            folder = work / name
            if folder.exists():
                shutil.rmtree(folder)
            clone(rev, folder)
            print(f"building {rev[:12]} in {folder}", file=sys.stderr)
            build(folder)
            builds.append(folder / "site")
        other = args.against.resolve() if args.against else builds[1]
        found = differences(builds[0], other)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    for line in found:
        print(line)
    print(f"{rev[:12]}: {'the same site, every file' if not found else f'{len(found)} files differ'}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
