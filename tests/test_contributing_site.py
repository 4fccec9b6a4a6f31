"""CONTRIBUTING.md followed to the letter gives a site that builds and passes the site tier.

tests/test_contributing.py runs the guide's Python steps in a copy of
``rules_py``; a guide can still leave out a step the build or the built site
needs (its page linked the calculator's page where the strict build wants the
embed's anchor; without a template, its sheet's large print came out at 9.6 pt
against 11). So this follows every step (tests/guide_steps.py) in a copy of the
project's sources, builds that copy's site with ``make site``'s own recipe
(the strict build, the wheel and snapshot, the sheets' PDFs checked against
their page counts, each calculator rendered by the engine in Chromium, the
service worker) and runs the site tier on it: the guide's system is then
checked as the four are, its sheets' type sizes and columns, its tables
against the engine, every link and anchor.

The copy shares the project's installed venv and node_modules (the guide adds
no package); its own sources come first on the import path. The site tier runs
on the copy without tests/test_reproducible.py, which rebuilds the engine to
compare bytes and has nothing from the guide to check. About 70 s of build and
50 s of tests on this project's 2-core machines.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from guide_steps import follow

pytestmark = pytest.mark.site

# What the copy takes from the working tree: the sources, not what a build or a set-up made.
NOT_SOURCES = {".git", ".venv", "node_modules", "site", "build", ".pytest_cache", ".mypy_cache", ".ruff_cache", "__pycache__"}
SHARED_SET_UP = (".venv", "node_modules")
# The build's cache of Pyodide's memory snapshot, as a contributor's checkout holds it from
# their last `make site`. A snapshot is named by all it is made from (Pyodide's version, the
# standard library modules it imports, its script: build_wheel.build_snapshot), none of which
# the guide's system changes, so the copy's build finds it there rather than taking it again
# in Node (about 10 s of CPU); a guide whose system imported another module would be named
# otherwise and taken anew. The wheel and its bytecode, which the guide does change, are made
# afresh: their cache is not copied. tests/test_reproducible.py builds all three with empty caches.
SHARED_CACHES = ("build/pyodide-snapshot",)


def sources(tree: Path) -> list[Path]:
    """The working tree's files as a clone has them (git's tracked and untracked-but-not-ignored files), or every file but NOT_SOURCES without git."""
    if (tree / ".git").exists() and shutil.which("git"):
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=tree, capture_output=True, check=True)
        return [Path(p.decode()) for p in listed.stdout.split(b"\0") if p and (tree / p.decode()).is_file()]
    return [p.relative_to(tree) for p in tree.rglob("*") if p.is_file() and not NOT_SOURCES & set(p.relative_to(tree).parts)]


@pytest.fixture(scope="module")
def guided(tmp_path_factory) -> Path:
    """A copy of the project with the guide followed in it and its site built."""
    tree = tmp_path_factory.mktemp("contributing") / "fire-mission"
    for name in sources(ROOT):
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, tree / name)
    for name in SHARED_SET_UP:
        (tree / name).symlink_to(ROOT / name)
    for name in SHARED_CACHES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, tree / name)
    written = follow(tree)
    assert {"rules_py/skirmish/morale.py", "docs/skirmish/morale.md", "docs/sheets/skirmish.md", "mkdocs.yml"} <= set(written), written
    # make site's recipe in the copy, with the set-up the copy shares taken as made (-o: not remade,
    # though the copied requirements are newer than the shared venv's stamp).
    build = subprocess.run(
        ["make", "--no-print-directory", "-o", ".venv/.installed", "-o", "node_modules/pyodide/.installed", "site"],
        cwd=tree, env=environment(tree), capture_output=True, text=True, timeout=900,
    )
    assert build.returncode == 0, (build.stdout + build.stderr)[-4000:]
    assert "sheets/skirmish-large-print.pdf" in build.stdout, build.stdout[-2000:]
    return tree


def environment(tree: Path) -> dict[str, str]:
    """The copy's sources first on the import path, no address for the site, no pytest options from outside."""
    env = {k: v for k, v in os.environ.items() if k not in ("SITE_URL", "PYTEST_ADDOPTS", "PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT")}
    return {**env, "PYTHONPATH": str(tree)}


def test_the_guides_system_is_built_into_the_site(guided):
    site = guided / "site"
    for page in ("skirmish/index.html", "skirmish/morale/index.html", "calculators/sk-morale/index.html", "sheets/skirmish/index.html"):
        assert (site / page).is_file(), page
    home = (site / "index.html").read_text(encoding="utf-8")
    assert "Skirmish" in home and 'href="skirmish/"' in home


def test_the_site_tier_passes_on_the_site_the_guide_gives(guided):
    tier = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rp", "-p", "no:cacheprovider", "-n", "0", "-m", "site and not browser",
         "--deselect", "tests/test_reproducible.py", "--deselect", "tests/test_contributing_site.py", "tests"],
        cwd=guided, env=environment(guided), capture_output=True, text=True, timeout=900,
    )
    assert tier.returncode == 0, tier.stdout[-6000:] + tier.stderr[-2000:]
    # The guide's system was among what the tier checked, as each of the four is: its sheet in both prints.
    passed = [line.split()[-1] for line in tier.stdout.splitlines() if line.startswith("PASSED ")]
    for test in ("test_sheets.py::test_sheet_type_is_read_at_arms_length[skirmish-large-print]", "test_sheets.py::test_sheet_odds_equal_the_cli[skirmish]"):
        assert any(p.endswith(test) for p in passed), (test, [p for p in passed if "skirmish" in p])
