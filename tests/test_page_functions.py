"""The functions run in a page live in .mjs files (scripts/support/page_functions.py): each
file of scripts/*/page/ and tests/page/ gives its one function, and a file that
holds anything else before it, which would not be sent to the page, is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from scripts.support.page_functions import page_function

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted([*(ROOT / "scripts").glob("*/page/*.mjs"), *(ROOT / "tests" / "page").glob("*.mjs")])


def test_there_are_page_functions():
    assert ROOT / "scripts" / "build" / "page" / "calculator_copies.mjs" in FILES
    assert ROOT / "scripts" / "bench" / "page" / "bench_round_trips.mjs" in FILES


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_each_file_gives_its_function(path):
    source = page_function(path)
    assert source.startswith(("function ", "async function ")), source[:40]
    assert source.rstrip().endswith("}")
    assert "export " not in source.split("{", 1)[0]


@pytest.mark.parametrize(
    "text",
    [
        'const helper = 1;\nexport default function f() { return helper; }\n',  # left behind
        'import { x } from "./x.mjs";\nexport default function f() { return x; }\n',
        "export function f() {}\n",  # not the default export
        "export default (a) => a;\n",  # not a declaration
    ],
)
def test_anything_but_one_function_after_comments_is_refused(tmp_path, text):
    path = tmp_path / "f.mjs"
    path.write_text("// a comment\n/* and another */\n" + text, encoding="utf-8")
    with pytest.raises(ValueError):
        page_function(path)


def test_comments_before_the_function_are_left_out(tmp_path):
    path = tmp_path / "f.mjs"
    path.write_text("// what it does\n\n/** @param {number} a */\nexport default function f(a) {\n  return a;\n}\n", encoding="utf-8")
    assert page_function(path) == "function f(a) {\n  return a;\n}"
