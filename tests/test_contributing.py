"""The newcomer's guide (CONTRIBUTING.md) builds what it says, so it cannot drift.

Its Python steps are carried out as a newcomer would (tests/guide_steps.py): in a
copy of ``rules_py``, each block titled with a file there is written, the
``System(...)`` it gives for ``rules_py/systems.py`` is added to ``SYSTEMS``,
and every ``python -m rules_py`` line of the guide is run on that copy: each
exits 0, and a command whose block is followed by a ```` ```json ```` block
prints exactly that. The toy calculator's odds are checked against fractions
worked out here by hand, and the build's Markdown for its table and its embed
(scripts/build/build_pages.py) is made from the copy. The whole guide, its site
built and the site tier run on it, is tests/test_contributing_site.py's.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from guide_steps import GUIDE, blocks, follow


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    """A copy of rules_py with the guide's files for it written into it."""
    where = tmp_path_factory.mktemp("guide")
    shutil.copytree(ROOT / "rules_py", where / "rules_py", ignore=shutil.ignore_patterns("__pycache__"))
    written = follow(where, only=("rules_py/", "tests/"))
    assert written[:2] == ["rules_py/systems.py", "rules_py/skirmish/__init__.py"], written
    return where


def run(copy: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(copy), str(ROOT)])}
    return subprocess.run([sys.executable, *args], cwd=copy, env=env, capture_output=True, text=True, timeout=120)


def commands() -> list[tuple[list[str], str | None]]:
    """Each ``python -m rules_py`` line of the guide, with the JSON block that follows its block, if one does."""
    found = []
    found_blocks = blocks()
    for i, (lang, _, body) in enumerate(found_blocks):
        if lang != "sh":
            continue
        after = found_blocks[i + 1] if i + 1 < len(found_blocks) else None
        expected = after[2] if after and after[0] == "json" else None
        for line in body.splitlines():
            words = shlex.split(line, comments=True)
            if words[:3] == ["python", "-m", "rules_py"]:
                found.append((words[3:], expected))
    return found


def test_the_copy_is_the_one_imported(copy):
    out = run(copy, "-c", "import rules_py; print(rules_py.__file__)")
    assert out.returncode == 0, out.stderr
    assert Path(out.stdout.strip()).is_relative_to(copy)


def test_the_guide_names_a_procedure_to_study_first_that_exists():
    text = GUIDE.read_text(encoding="utf-8")
    study = re.search(r"\*\*Study first\*\*: `([^`]+)`", text)
    assert study and (ROOT / study.group(1)).is_file(), study
    for path in re.findall(r"`((?:rules_py|scripts|tests|docs)/[\w./-]+\.(?:py|md|toml))`", text):
        if "skirmish" not in path and "<" not in path:
            assert (ROOT / path).exists(), path


@pytest.mark.parametrize("args, expected", commands(), ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_every_command_of_the_guide_works_on_the_copy(copy, args, expected):
    out = run(copy, "-m", "rules_py", *args)
    assert out.returncode == 0 and not out.stderr, out.stderr
    printed = json.loads(out.stdout)
    if expected is not None:
        assert printed == json.loads(expected)


def test_the_guides_test_module_passes_on_the_copy(copy):
    out = run(copy, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_sk_morale.py")
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr
    assert "8 passed" in out.stdout, out.stdout[-500:]


def test_the_toy_calculator_answers_as_worked_out_by_hand(copy):
    listed = run(copy, "-m", "rules_py", "list")
    assert ["sk-morale", "Skirmish morale check"] in [line.split(None, 1) for line in listed.stdout.splitlines()], listed.stdout
    # 2D6 totals of t or more among the 36 pairs: 21 for 7, 15 for 8, 10 for 9.
    for troops, pinned, holds in [("veterans", "false", "7/12"), ("veterans", "true", "5/12"), ("regulars", "false", "5/12"), ("green", "true", "1/6")]:
        out = run(copy, "-m", "rules_py", "odds", "sk-morale", f"troops={troops}", f"pinned={pinned}")
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout)["outcomes"]["holds"]["true"] == holds, (troops, pinned)
    # A roll and the player's own dice: 6 and 2 make 8, less one pinned: 7, which veterans hold on.
    out = run(copy, "-m", "rules_py", "resolve", "sk-morale", "troops=veterans", "pinned=true", "--dice", "6,2")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["outcomes"] == {"holds": "true", "score": "7"}
    bad = run(copy, "-m", "rules_py", "odds", "sk-morale", "troops=elite")
    assert bad.returncode == 2 and bad.stderr.startswith("error:") and len(bad.stderr.splitlines()) == 1


def test_the_build_makes_the_toy_table_and_embed(copy):
    code = (
        "from scripts.build.build_pages import embed_markdown, table_markdown\n"
        "from rules_py import get\n"
        "from rules_py.tables import load\n"
        "print(table_markdown(load('skirmish', 'morale')))\n"
        "print('-----')\n"
        "print(embed_markdown(get('sk-morale')))\n"
    )
    out = run(copy, "-c", code)
    assert out.returncode == 0, out.stderr
    table, embed = out.stdout.split("-----\n")
    assert "Morale by troops" in table and "table-morale" in table
    assert re.search(r"\| [^|\n]*\bVeterans\b[^|\n]* \| [^|\n]*\b7\b[^|\n]* \|", table), table
    assert 'data-calculator="sk-morale"' in embed


def test_the_toy_sheet_grid_is_worked_out_by_the_build(copy):
    grid = next(body for _, title, body in blocks() if title == "scripts/build/sheet_odds.py")
    code = (
        "from scripts.build import sheet_odds\n"
        f"added = eval({'{' + grid + '}'!r}, vars(sheet_odds))\n"
        "print(sheet_odds.grid_html(added['skirmish'][0]))\n"
    )
    out = run(copy, "-c", code)
    assert out.returncode == 0, out.stderr
    # Pinned veterans need 8 or more: 15 of the 36 pairs, 5/12; green troops, 9 or more unpinned: 10/36 = 5/18.
    assert 'data-p="5/12"' in out.stdout and 'data-p="5/18"' in out.stdout, out.stdout
    assert "Morale: chance that the unit holds" in out.stdout


def test_the_guides_rules_page_links_its_calculator_by_the_embeds_anchor():
    """The page's top line goes to the calculator embedded in it, as every rules page's does
    (a link to ../calculators/sk-morale.md fails the strict build's check of the embed's links)."""
    from scripts.build.build_pages import embed_anchor

    page = next(body for _, title, body in blocks() if title == "docs/skirmish/morale.md")
    assert f"[calculator](#{embed_anchor('sk-morale')})" in page.splitlines()[2], page
    sheet = next(body for _, title, body in blocks() if title == "docs/sheets/skirmish.md")
    assert re.match(r"---\n(?:#.*\n)?pages: \d+\nlarge_print_pages: \d+\n---\n", sheet), sheet
    assert '<div class="sheet-steps" markdown>' in sheet and '--8<-- "sheets/skirmish-odds.md"' in sheet


def test_the_guides_files_pass_the_projects_type_check(copy):
    # make check runs mypy, strict, over all of rules_py: the guide's files, written in, must pass it too.
    out = run(copy, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), "rules_py")
    assert out.returncode == 0, out.stdout + out.stderr
