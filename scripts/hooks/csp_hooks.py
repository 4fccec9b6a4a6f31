"""mkdocs hook: what the built pages tell their host and their browser before anything runs.

* Every built page gets a Content-Security-Policy as a ``<meta>`` tag, first
  in its ``<head>``: scripts, styles, images, fetches and workers only from
  the site's own origin; of inline scripts only those in the built pages (the
  theme's, and the calculators' head scripts, scripts/hooks/calculator_hooks.py), by
  their hashes (instant navigation keeps a page's policy while it swaps other
  pages in, so every page allows every page's scripts). Styles may be inline:
  Markdown tables align their cells with style attributes and the results'
  bars are sized with one. Pyodide runs in a Web Worker, which a page's
  <meta> policy does not govern (a worker's policy comes with its own
  script's headers); 'wasm-unsafe-eval' is there for a host that sends this
  same policy as a header with every file, the worker's included: Pyodide
  needs it to compile its WebAssembly, and nothing more (no 'unsafe-eval':
  measured in Chromium, it boots and answers without).
* An empty ``.nojekyll`` beside the pages, for GitHub Pages.

The hashes are taken once every page is written (on_post_build), so they
cover whatever the other hooks put in a page.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

# An inline script: a <script> with no src whose type, if any, is one a browser runs.
_INLINE_SCRIPT = re.compile(r"<script(?P<attrs>(?![^>]*\bsrc=)[^>]*)>(?P<body>.*?)</script>", re.S | re.I)
_DATA_TYPE = re.compile(r"""\btype=["']?(?!(?:text/javascript|module)\b)[^"'\s>]+""", re.I)
_CHARSET = re.compile(r"<meta charset=[^>]*>", re.I)

POLICY = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' {hashes}; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'"
)


def script_hashes(html: str) -> set[str]:
    """CSP hashes ('sha256-...') of the inline scripts a browser would run in this page."""
    out = set()
    for match in _INLINE_SCRIPT.finditer(html):
        if _DATA_TYPE.search(match.group("attrs")):
            continue  # a data block (Material's __config JSON): never run, needs no hash
        digest = hashlib.sha256(match.group("body").encode("utf-8")).digest()
        out.add(f"'sha256-{base64.b64encode(digest).decode()}'")
    return out


def content_security_policy(hashes: set[str]) -> str:
    return POLICY.format(hashes=" ".join(sorted(hashes)))


def add_policy(html: str, policy: str) -> str:
    """The policy as a <meta> tag right after <meta charset>: before any script it governs."""
    tag = f'<meta http-equiv="Content-Security-Policy" content="{policy}">'
    match = _CHARSET.search(html)
    if not match:
        raise ValueError("a built page without <meta charset>: nowhere to put its Content-Security-Policy")
    return html[: match.end()] + "\n    " + tag + html[match.end() :]


def on_post_build(config):
    pages = sorted(Path(config.site_dir).rglob("*.html"))
    texts = {page: page.read_text(encoding="utf-8") for page in pages}
    hashes = set().union(*(script_hashes(text) for text in texts.values()))
    policy = content_security_policy(hashes)
    for page, text in texts.items():
        page.write_text(add_policy(text, policy), encoding="utf-8")
    # GitHub Pages runs Jekyll on what it publishes unless told not to, and Jekyll skips files named _*.
    (Path(config.site_dir) / ".nojekyll").write_text("", encoding="utf-8")
