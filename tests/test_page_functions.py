"""The functions run in a page live in .mjs files (scripts/support/page_functions.py): each
file of scripts/*/page/ and tests/page/ gives its one function, and a file that
holds anything else before it, which would not be sent to the page, is refused."""

from __future__ import annotations

import ast
import re
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


# A function for a page, written in a Python string: an arrow or a function, over several lines.
PAGE_CODE = re.compile(r"^\s*(?:async\s+)?(?:function\b|\([^()]*\)\s*=>|\w+\s*=>)")


def page_code_in_strings(source: str) -> list[int]:
    """The lines at which a Python module has a multi-line string that is a page's function."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "\n" in node.value.strip() and PAGE_CODE.match(node.value)
    ]


def test_no_page_code_is_written_in_the_builds_python_strings():
    """Issue 46: a function the build, a benchmark or a test tool runs in a page lives in a
    .mjs file, where ESLint and tsc read it (page_function), never in a Python string."""
    found = {str(path.relative_to(ROOT)): lines for path in sorted((ROOT / "scripts").rglob("*.py")) if (lines := page_code_in_strings(path.read_text(encoding="utf-8")))}
    assert found == {}


def test_page_code_in_a_string_is_found():
    """The check above can fail: an arrow function, and a function, over two lines each."""
    assert page_code_in_strings('WAIT = """() => {\n  return 1;\n}"""\n') == [1]
    assert page_code_in_strings('X = 1\nRUN = """function f() {\n  return 1;\n}"""\n') == [2]
    assert page_code_in_strings('DOC = """() => one line"""\nTEXT = """Some prose\nover two lines."""\n') == []
