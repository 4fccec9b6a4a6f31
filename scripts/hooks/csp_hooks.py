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
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig

from scripts.build.html_elements import elements, splice, the_one
from scripts.build.page_templates import fragment

# Script types a browser runs; any other (Material's __config, application/json) is a data block.
RUN_TYPES = ("", "text/javascript", "module")

POLICY = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' {hashes}; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'"
)


def script_hashes(html: str) -> set[str]:
    """CSP hashes ('sha256-...') of the inline scripts a browser would run in this page:
    each <script> with no src whose type, if any, is one a browser runs, hashed over its text."""
    out = set()
    for script in elements(html):
        if script.tag != "script" or "src" in script.attrs:
            continue
        if (script.attrs.get("type") or "").strip().lower() not in RUN_TYPES:
            continue  # a data block: never run, needs no hash
        digest = hashlib.sha256(html[script.open_end : script.close_start].encode("utf-8")).digest()
        out.add(f"'sha256-{base64.b64encode(digest).decode()}'")
    return out


def content_security_policy(hashes: set[str]) -> str:
    return POLICY.format(hashes=" ".join(sorted(hashes)))


def add_policy(html: str, policy: str) -> str:
    """The policy as a <meta> tag right after <meta charset>: before any script it governs."""
    try:
        charset = the_one(elements(html), "<meta charset>", lambda e: e.tag == "meta" and "charset" in e.attrs)
    except ValueError:
        raise ValueError("a built page without one <meta charset>: nowhere to put its Content-Security-Policy") from None
    return splice(html, [(charset.open_end, charset.open_end, "\n    " + fragment("policy.html", "policy", content=policy))])


def on_post_build(config: MkDocsConfig) -> None:
    pages = sorted(Path(config.site_dir).rglob("*.html"))
    texts = {page: page.read_text(encoding="utf-8") for page in pages}
    hashes: set[str] = set().union(*(script_hashes(text) for text in texts.values()))
    policy = content_security_policy(hashes)
    for page, text in texts.items():
        page.write_text(add_policy(text, policy), encoding="utf-8")
    # GitHub Pages runs Jekyll on what it publishes unless told not to, and Jekyll skips files named _*.
    (Path(config.site_dir) / ".nojekyll").write_text("", encoding="utf-8")
