"""mkdocs hooks: the one place the site build reaches into Markdown conversion and the built pages.

* It switches on the glossary term links of ``scripts/term_links.py`` and
  tells them which page is being converted (pages are converted one at a time).
* The site's address is a build setting: ``SITE_URL`` in the environment
  (``site_url: !ENV [SITE_URL]`` in mkdocs.yml). Set, it gives every page its
  canonical link and fills the sitemap, which mkdocs-material's instant
  navigation needs: it only takes over links that the sitemap lists. Unset,
  no page names an address, the sitemap lists nothing and links load pages
  the ordinary way. (The test server and ``make serve``, which know their own
  address, list the built pages in the sitemap they serve: scripts/local_site.py.)
* Every built page gets a Content-Security-Policy as a ``<meta>`` tag, first
  in its ``<head>``: scripts, styles, images, fetches and workers only from
  the site's own origin; of inline scripts only the theme's own, by the hashes
  of the ones in the built pages (instant navigation keeps a page's policy
  while it swaps other pages in, so every page allows every page's scripts).
  Styles may be inline: Markdown tables align their cells with style
  attributes and the results' bars are sized with one. Pyodide runs in a Web
  Worker, which a page's <meta> policy does not govern (a worker's policy
  comes with its own script's headers); 'wasm-unsafe-eval' is there for a
  host that sends this same policy as a header with every file, the worker's
  included: Pyodide needs it to compile its WebAssembly, and nothing more
  (no 'unsafe-eval': measured in Chromium, it boots and answers without).
* Every calculator on a page carries its answers for its default inputs and
  for each of its examples, computed now by ``rules_py.answer`` and embedded
  as JSON in an attribute (``<div class="fm-prerendered" hidden
  data-answers="…">``: not a ``<script>`` data block, which instant
  navigation would try to run and the policy would refuse): the page renders
  them with the same renderer as live answers, before the engine has started
  (docs/assets/calc/view.mjs).
* A page with a calculator also carries the calculator as the page first
  shows it, rendered by the page's own glue at build time
  (``scripts/render_calculators.py``, run after this build: ``.fm-static``
  in the calculator), and a tiny script first in its
  ``<head>`` that marks ``<html>`` before anything is painted: ``fm-query``
  when the address has a query (the copy shows the default inputs' answer,
  which may not be the one asked for, so the stylesheet hides it; the page's
  glue then shows the right answer or its loading state) and ``fm-file`` for
  a page opened from a file (where no module script runs, so the note that
  the calculator cannot work there shows). The glue keeps ``fm-query`` right
  across instant navigation (docs/assets/calc/calculator.mjs).
* Such a page also lists the form's modules (view.mjs and what it imports) as
  ``<link rel="modulepreload">`` at the end of its ``<body>``: fetched at
  once, not one import after another once calculator.mjs has run, so the live
  calculator takes over sooner (measured with scripts/bench_browser.py's
  default visit: 0.2 to 0.35 s sooner on every profile). In the ``<head>``
  they took the link from the page's own HTML and stylesheets and delayed
  its first paint of the answer. (Embedding the page's calculator's schema,
  so that calculators.json need not be fetched, made no difference that
  could be measured: the modules are the longer wait.)
* An empty ``.nojekyll`` beside the pages, for GitHub Pages.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from functools import cache
from pathlib import Path

from mkdocs.utils import get_relative_url

import rules_py

# mkdocs puts this file's folder on sys.path while it loads a hook.
from term_links import TermLinksExtension

_TERM_LINKS = TermLinksExtension()

# An inline script: a <script> with no src whose type, if any, is one a browser runs.
_INLINE_SCRIPT = re.compile(r"<script(?P<attrs>(?![^>]*\bsrc=)[^>]*)>(?P<body>.*?)</script>", re.S | re.I)
_DATA_TYPE = re.compile(r"""\btype=["']?(?!(?:text/javascript|module)\b)[^"'\s>]+""", re.I)
_CHARSET = re.compile(r"<meta charset=[^>]*>", re.I)

POLICY = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' {hashes}; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'"
)


def on_config(config):
    config.markdown_extensions.append(_TERM_LINKS)
    return config


def on_page_markdown(markdown, page, config, files):
    _TERM_LINKS.page = page.file.src_uri
    return markdown


_CALCULATOR = re.compile(r'(<div class="calculator" data-calculator="(?P<id>[a-z0-9-]+)">)')


@cache
def prerendered(calc_id: str) -> str:
    """The calculator's answers for its defaults and examples, as a JSON data block."""
    calc = rules_py.get(calc_id)
    answers = {}
    for inputs in ({}, *calc.examples):
        doc = rules_py.answer(calc_id, inputs)
        answers.setdefault(json.dumps(doc["inputs"], sort_keys=True), doc)  # an example may equal the defaults
    text = json.dumps(list(answers.values()), separators=(",", ":"), ensure_ascii=False)
    return f'<div class="fm-prerendered" hidden data-answers="{html.escape(text, quote=True)}"></div>'


def on_page_content(html, page, config, files):
    return _CALCULATOR.sub(lambda m: m.group(1) + prerendered(m.group("id")), html)


# Before the first paint: see the module docstring. Its hash goes into the policy like the theme's scripts'.
HEAD_FLAGS = (
    '<script>(function (c) { if (location.search) c.add("fm-query"); '
    'if (location.protocol === "file:") c.add("fm-file"); })(document.documentElement.classList)</script>'
)

# A calculator's own page opened with inputs in its address most likely needs its
# engine for the first answer (the build answered its defaults and examples only):
# the head starts the engine's worker, about 0.4 s before calculator.mjs could
# (which runs once the page is parsed, after Material's bundle), and keeps what
# it says until calculator.mjs takes it over (Engine.spawn). Same text on every
# page, so one hash in the policy; the worker's address is the script's attribute.
EARLY_WORKER = (
    '<script data-worker="{worker}">(function (s) {{ '
    'if (location.search.length < 2 || location.protocol === "file:" || typeof Worker === "undefined" || typeof WebAssembly === "undefined") return; '
    'var name = "fire-mission-engine 1 " + Math.random().toString(36).slice(2); '
    'try {{ var worker = new Worker(new URL(s.dataset.worker, location.href), {{ type: "module", name: name }}); }} catch (e) {{ return; }} '
    'var early = {{ worker: worker, name: name, messages: [], failed: false, error: "" }}; '
    'worker.onmessage = function (e) {{ early.messages.push(e.data); }}; '
    'worker.onerror = function (e) {{ e.preventDefault(); early.failed = true; early.error = e.message || ""; }}; '
    'window.fireMissionEarlyWorker = early; '
    '}})(document.currentScript)</script>'
)


_IMPORT = re.compile(r'^import\s[^;]*?\sfrom\s+"\./([\w.-]+\.mjs)";', re.M)
CALC_GLUE = Path(__file__).resolve().parent.parent / "docs" / "assets" / "calc"


@cache
def form_modules() -> tuple[str, ...]:
    """view.mjs, which calculator.mjs imports on a page with a calculator, and every module it imports."""
    found: list[str] = []
    todo = ["view.mjs"]
    while todo:
        module = todo.pop(0)
        if module not in found:
            found.append(module)
            todo += _IMPORT.findall((CALC_GLUE / module).read_text(encoding="utf-8"))
    return tuple(found)


def own_calculator_page(url: str, calculator_ids: list[str]) -> bool:
    """Whether the page at ``url`` (under the site's root) is a calculator's own page:
    ``calculators/<id>/``, holding that calculator alone. (The page's glue says the
    same in the browser: docs/assets/calc/calculator.mjs, ownCalculatorPage.)"""
    return len(calculator_ids) == 1 and url == f"calculators/{calculator_ids[0]}/"


def on_post_page(output, page, config):
    if '<div class="calculator" data-calculator=' not in output:
        return output
    match = _CHARSET.search(output)
    head = HEAD_FLAGS
    if own_calculator_page(page.url, [m.group("id") for m in _CALCULATOR.finditer(output)]):
        head += EARLY_WORKER.format(worker=get_relative_url("assets/calc/worker.mjs", page.url))
    output = output[: match.end()] + "\n    " + head + output[match.end() :]
    links = "".join(f'<link rel="modulepreload" href="{get_relative_url("assets/calc/" + m, page.url)}">' for m in form_modules())
    return output.replace("</body>", links + "</body>", 1)


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
