"""No page code in the build's Python strings (issue 46, item 8).

The HTML the build writes lives in templates (scripts/build/templates/, Jinja2
with autoescape on) or in the theme's blocks (overrides/); the page's
JavaScript in checked files (docs/assets/, scripts/build/page/). A Python
string that holds several lines of markup, script or style is page code out of
reach of the linters, the type checks and the escaping that those files get,
so this test reads every ``scripts/**/*.py`` with the ``ast`` module and fails
on any string expression that spans lines and looks like page code:

* a string literal (plain, implicitly joined or an f-string) over several lines;
* a list or tuple display, or a chain of ``+``, over several lines, whose
  string parts, read one after the other, do (the ``lines += ["<div ...>",
  ..., "</div>"]`` way of writing a page).

Docstrings and comments are prose about the page and are not read. A one-line
pattern that finds a piece of the built page (a regular expression, a marker
searched for) is not page code either: it writes nothing.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"

# What page code looks like, each a sure sign rather than a hint: an element
# with an attribute, a closing tag or a comment (HTML); an arrow function, a
# function expression, the DOM's globals or a declaration (JavaScript); a rule
# with a declaration in it (CSS).
PAGE_CODE = {
    "HTML": re.compile(r"<[a-zA-Z][\w-]*\s+[\w-]+(?:=|\s|>)|</[a-zA-Z][\w-]*\s*>|<!--"),
    "JavaScript": re.compile(r"=>|\bfunction\s*\w*\s*\(|\b(?:document|window)\.\w|\b(?:const|let|var)\s+\w+\s*="),
    "CSS": re.compile(r"[\w.#:\]-]\s*\{\s*[\w-]+\s*:\s*[^;{}]+;"),
}

def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings (or other bare string statements)."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, (ast.Constant, ast.JoinedStr))
    }


def _text(node: ast.expr) -> str | None:
    """The literal text of a string expression (an f-string's replacement fields left out), or None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(_text(part) or "" for part in node.values)
    return None


def _added(node: ast.expr) -> list[ast.expr]:
    """The operands of a chain of ``+`` (the node itself when it is not one)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _added(node.left) + _added(node.right)
    return [node]


def _kind(text: str) -> str | None:
    return next((kind for kind, pattern in PAGE_CODE.items() if pattern.search(text)), None)


def page_code(source: str) -> list[tuple[int, str]]:
    """(line, kind) of each string expression in a module's source that spans lines and holds page code."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    found: dict[int, str] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.expr) or id(node) in skip or node.end_lineno == node.lineno:
            continue
        if isinstance(node, (ast.Constant, ast.JoinedStr)):
            parts: list[ast.expr] = [node]
        elif isinstance(node, (ast.List, ast.Tuple)):
            parts = node.elts
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            parts = _added(node)
        else:
            continue
        texts = [t for t in map(_text, parts) if t is not None]
        kind = _kind("\n".join(texts)) if texts else None
        if kind:
            found.setdefault(node.lineno, kind)
    return sorted(found.items())


def test_the_check_finds_page_code_written_each_way():
    # Each way the build once wrote a page, and what is not page code.
    assert page_code('x = (\n    \'<p class="a">\'\n    "text</p>"\n)\n') == [(2, "HTML")]
    assert page_code('x = f"""\n<div id="{a}">\n"""\n') == [(1, "HTML")]
    assert page_code('lines = [\n    f\'<div class="{k}" markdown>\',\n    "",\n    "</div>",\n]\n') == [(1, "HTML")]
    assert page_code('x = (\n    "a"\n    + f\'<div id="{a}"></div>\'\n)\n') == [(2, "HTML")]
    assert page_code('JS = """\n(name) =>\n  document.documentElement.classList.add(name)\n"""\n') == [(1, "JavaScript")]
    assert page_code('CSS = """\n.sheet {\n  font-size: 11pt;\n}\n"""\n') == [(1, "CSS")]
    # One line, a docstring, a comparison or a message naming a placeholder: not page code.
    assert page_code('x = \'<div class="calculator">\'\n') == []
    assert page_code('def f():\n    """Writes\n    <div class="x"></div>."""\n') == []
    assert page_code('raise ValueError(\n    f"calculators/<id>/ has {n} calculators"\n)\n') == []
    assert page_code('x = [\n    "a < b",\n    "c > d",\n]\n') == []


@pytest.mark.parametrize("path", sorted(SCRIPTS.rglob("*.py")), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_page_code_in_the_scripts_strings(path):
    name = path.relative_to(ROOT).as_posix()
    found = page_code(path.read_text(encoding="utf-8"))
    assert not found, f"{name}: page code in Python strings at " + ", ".join(f"line {line} ({kind})" for line, kind in found)
