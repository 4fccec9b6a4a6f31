"""JavaScript that the build, the benchmarks and the tests run in a page, read from its own file.

A function run in a page through Playwright (``page.evaluate``,
``wait_for_function``) or another driver lives in a ``.mjs`` file, where ESLint
and TypeScript check it (``make check-js``: eslint.config.mjs, jsconfig.json),
not in a Python string. Each such file holds one function, its default export,
with everything it needs inside it (it is sent to the page as its source text,
alone): ``export default function name(arg) { ... }`` after comments only.
``page_function`` gives that function's source, which Playwright calls with its
argument.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

EXPORT = "export default "
# What may come before the function: comments and blank lines.
PREAMBLE = re.compile(r"(?:\s*//[^\n]*|\s*/\*.*?\*/|\s+)*", re.S)


@cache
def page_function(path: Path) -> str:
    """The source of the function ``path`` exports by default, to be called in a page.

    Args:
        path: a ``.mjs`` file of one ``export default function``, after comments only.

    Returns:
        ``function name(...) { ... }``, as Playwright's evaluate takes it.

    Raises:
        ValueError: the file holds anything else before its function, or no default export.
    """
    text = Path(path).read_text(encoding="utf-8")
    preamble = PREAMBLE.match(text)
    assert preamble is not None  # it matches the empty string: every text starts with one
    start = preamble.end()
    if not text.startswith(EXPORT, start):
        raise ValueError(f"{path}: a page function's file holds comments, then its one `export default function` (found {text[start:start + 40]!r})")
    source = text[start + len(EXPORT):].strip().removesuffix(";")
    if not source.startswith(("function", "async function")):
        raise ValueError(f"{path}: its default export is not a function declaration")
    return source
