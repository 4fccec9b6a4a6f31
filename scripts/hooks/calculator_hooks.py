"""mkdocs hook: what a page with a calculator carries beyond its Markdown.

* Every calculator on a page carries its answers for its default inputs and
  for each of its examples, computed now by ``rules_py.answer`` and embedded
  as JSON in an attribute (``<div class="fm-prerendered" hidden
  data-answers="…">``: not a ``<script>`` data block, which instant
  navigation would try to run and the policy would refuse): the page renders
  them with the same renderer as live answers, before the engine has started
  (docs/assets/calc/view.mjs). A calculator that rolls dice also carries
  "Use my dice"'s first prompt for its defaults (``data-first-roll``: the
  engine's resolution with no dice, ``rules_py.answer(id, dice="")``), less
  its odds and notes, which with no dice are the default answer's (checked
  here), so that the prompt shows before the engine has started
  (docs/assets/calc/own-dice.mjs) and the build's copy draws it
  (scripts/build/render_calculators.py).
* Whether a page is a calculator's own page (``calculators/<id>/``, holding
  that calculator alone) is decided here, once, by ``own_calculator_page``,
  and written on that calculator's embedded answers (``data-own-page``): the
  page's glue reads it there (docs/assets/calc/calculator.mjs), and so does
  ``scripts/build/render_calculators.py``.
* A page with a calculator also carries the calculator as the page first
  shows it, rendered by the page's own glue at build time
  (``scripts/build/render_calculators.py``, run after this build: ``.fm-static``
  in the calculator), and, first in its ``<head>``, the classic script
  docs/assets/head/flags.js, which marks ``<html>`` before anything is
  painted (``fm-query``, ``fm-file``: see that file), then
  docs/assets/head/glue-failed.js, which says so in the calculator when its
  own script (calculator.mjs and its imports) fails to load or to run; a calculator's own page
  also docs/assets/head/early-worker.js, which starts the engine's worker
  when the address has inputs, and, right after its article (once the
  calculator is parsed), docs/assets/head/link-inputs.js, which shows the
  build's copy with a link's inputs from the first paint (flags.js holds a link's
  first paint until it has run: its script's id is flags.js's data-link-inputs there).
  They are inlined as they are, less their
  comment lines; the policy allows them by their hashes
  (scripts/hooks/csp_hooks.py). Neither file is published on its own, nor
  the form-modules list below, nor docs/assets/calc/protocol.mjs (types only).
* Such a page also lists the form's modules (docs/assets/calc/form-modules.json:
  view.mjs and what it imports, with the modules calculator.mjs imports, checked
  against their imports by tests/form_modules.test.mjs) as ``<link rel="modulepreload">`` at the end of
  its ``<body>``: fetched at once, not one import after another once
  calculator.mjs has run, so the live calculator takes over sooner (measured
  with scripts/bench/bench_browser.py's default visit: 0.2 to 0.35 s sooner on every
  profile). In the ``<head>`` they took the link from the page's own HTML and
  stylesheets and delayed its first paint of the answer. (Embedding the
  page's calculator's schema, so that calculators.json need not be fetched,
  made no difference that could be measured: the modules are the longer wait.)
* Such a page carries the id of the build that made it (``<meta
  name="fire-mission-build">``, runtime.json's ``build``: the commit, see
  scripts/build/build_wheel.py), and its worker's address carries it too
  (``worker.mjs?build=<id>``, here for early-worker.js, in engine.mjs
  otherwise): the worker refuses an engine of another build, so that one page
  never shows two builds' numbers (docs/assets/calc/loader/build-check.mjs). Pages
  without a calculator show no engine's numbers and carry no id: a new build
  that does not change them leaves them as they were, and a returning
  player's offline copy does not fetch them again.
* The calculators' list the page draws its forms from
  (``assets/generated/calculators.json``, written by scripts/build/build_pages.py
  as a list) is published as ``{"build": <id>, "calculators": [...]}``
  (``on_post_build``): the page refuses a list of another build than its own
  (docs/assets/calc/calculator.mjs, loadSchema), as its worker refuses another
  build's engine.
"""

from __future__ import annotations

import html
import json
import re
from functools import cache
from pathlib import Path
from urllib.parse import urlencode

from mkdocs.utils import get_relative_url

import rules_py

ASSETS = Path(__file__).resolve().parents[2] / "docs" / "assets"
HEAD = ASSETS / "head"
CALC_GLUE = ASSETS / "calc"
FORM_MODULES = CALC_GLUE / "form-modules.json"
RUNTIME = ASSETS / "generated" / "runtime.json"  # scripts/build/build_wheel.py writes it before mkdocs builds
# Read by the build alone: not published.
BUILD_ONLY = (
    "assets/head/flags.js",
    "assets/head/glue-failed.js",
    "assets/head/early-worker.js",
    "assets/head/link-inputs.js",
    "assets/calc/form-modules.json",
    "assets/calc/protocol.mjs",
)

_CALCULATOR = re.compile(r'(<div class="calculator" data-calculator="(?P<id>[a-z0-9-]+)">)')
_CHARSET = re.compile(r"<meta charset=[^>]*>", re.I)
OWN_PAGE = "data-own-page"
LINK_INPUTS_ID = "fm-link-inputs"  # link-inputs.js's script element, which flags.js has a link's first paint wait for
# The embedded answers of a calculator on its own page, as this hook writes them.
OWN_PAGE_ANSWERS = re.compile(rf'<div class="fm-prerendered" hidden data-answers="[^"]*"(?: data-first-roll="[^"]*")? {OWN_PAGE}></div>')
# What "Use my dice"'s first prompt leaves to the default answer: with no dice they are the same.
FIRST_ROLL_SHARED = ("outcomes", "notes")


def own_calculator_page(url: str, calculator_ids: list[str]) -> bool:
    """Whether the page at ``url`` (under the site's root) is a calculator's own page:
    ``calculators/<id>/``, holding that calculator alone. The one place this is decided."""
    return len(calculator_ids) == 1 and url == f"calculators/{calculator_ids[0]}/"


@cache
def prerendered(calc_id: str, own_page: bool = False) -> str:
    """The calculator's answers for its defaults and examples, as a hidden element; marked on its own page."""
    calc = rules_py.get(calc_id)
    answers = {}
    for inputs in ({}, *calc.examples):
        doc = rules_py.answer(calc_id, inputs)
        answers.setdefault(json.dumps(doc["inputs"], sort_keys=True), doc)  # an example may equal the defaults
    text = json.dumps(list(answers.values()), separators=(",", ":"), ensure_ascii=False)
    mark = f" {OWN_PAGE}" if own_page else ""
    first = first_roll(calc_id)
    if first is not None:
        mark = f' data-first-roll="{html.escape(json.dumps(first, separators=(",", ":"), ensure_ascii=False), quote=True)}"' + mark
    return f'<div class="fm-prerendered" hidden data-answers="{html.escape(text, quote=True)}"{mark}></div>'


@cache
def first_roll(calc_id: str) -> dict | None:
    """Use my dice's first prompt at the defaults (the resolution with no dice), less what
    the default answer already carries; None for a calculator that rolls no dice."""
    if not rules_py.get(calc_id).rolls_dice:
        return None
    doc = rules_py.answer(calc_id, dice="")
    plain = rules_py.answer(calc_id)
    if doc.get("status") != "need" or any(doc[k] != plain[k] for k in (*FIRST_ROLL_SHARED, "inputs")):
        raise ValueError(f"{calc_id}: with no dice, the resolution is not a first prompt over the plain odds")
    return {k: v for k, v in doc.items() if k not in FIRST_ROLL_SHARED}


def on_files(files, config):
    for path in BUILD_ONLY:
        file = files.get_file_from_path(path)
        if file is not None:
            files.remove(file)
    return files


def on_page_content(html, page, config, files):
    own = own_calculator_page(page.url, [m.group("id") for m in _CALCULATOR.finditer(html)])
    return _CALCULATOR.sub(lambda m: m.group(1) + prerendered(m.group("id"), own), html)


@cache
def head_script(name: str) -> str:
    """docs/assets/head/<name> as the text of an inline script: as it is, less its comment lines."""
    text = (HEAD / name).read_text(encoding="utf-8")
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith(("//", "/**", "*")))
    if "</script" in body.lower():
        raise ValueError(f"{name} holds </script, which would end its inline <script>")
    return body.strip()


@cache
def form_modules() -> tuple[str, ...]:
    """view.mjs, which calculator.mjs imports on a page with a calculator, every module it imports, and calculator.mjs's own imports."""
    modules = json.loads(FORM_MODULES.read_text(encoding="utf-8"))
    missing = [m for m in modules if not (CALC_GLUE / m).is_file()]
    if missing:
        raise ValueError(f"{FORM_MODULES.name} lists modules that are not in {CALC_GLUE}: {missing}")
    return tuple(modules)


def build_id() -> str | None:
    """The id of the build under way (runtime.json's), or None before the engine is built."""
    if not RUNTIME.exists():
        return None
    return json.loads(RUNTIME.read_text(encoding="utf-8")).get("build")


def on_post_page(output, page, config):
    if '<div class="calculator" data-calculator=' not in output:
        return output
    match = _CHARSET.search(output)
    build = build_id()
    head = f'<meta name="fire-mission-build" content="{html.escape(build)}">' if build else ""
    own = OWN_PAGE_ANSWERS.search(output) is not None
    # On its own page, flags.js holds a link's first paint until link-inputs.js has run.
    head += f'<script data-link-inputs="{LINK_INPUTS_ID}">' if own else "<script>"
    head += f"{head_script('flags.js')}</script><script>{head_script('glue-failed.js')}</script>"
    if own:
        worker = get_relative_url("assets/calc/worker.mjs", page.url)
        if build:
            worker += "?" + urlencode({"build": build})
        head += f'<script data-worker="{html.escape(worker)}">{head_script("early-worker.js")}</script>'
        if output.count("</article>") != 1:
            raise ValueError(f"{page.url}: a calculator's own page without one </article>")
        output = output.replace("</article>", f'</article><script id="{LINK_INPUTS_ID}">{head_script("link-inputs.js")}</script>', 1)
    output = output[: match.end()] + "\n    " + head + output[match.end() :]
    links = "".join(f'<link rel="modulepreload" href="{get_relative_url("assets/calc/" + m, page.url)}">' for m in form_modules())
    return output.replace("</body>", links + "</body>", 1)


CALCULATORS_JSON = "assets/generated/calculators.json"


def on_post_build(config):
    """The published calculators' list, with the id of the build that made it (see the top)."""
    path = Path(config["site_dir"]) / CALCULATORS_JSON
    if not path.exists():
        return
    calculators = json.loads(path.read_text(encoding="utf-8"))
    if isinstance(calculators, dict):  # written already (a rebuild that did not copy it again)
        calculators = calculators["calculators"]
    path.write_text(json.dumps({"build": build_id(), "calculators": calculators}, indent=1), encoding="utf-8")
