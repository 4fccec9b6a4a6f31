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

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from urllib.parse import urlencode

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

import rules_py
from rules_py.answer import shapes
from scripts.build.html_elements import Element, elements, splice, the_one
from scripts.build.page_templates import fragment

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

OWN_PAGE = "data-own-page"
LINK_INPUTS_ID = "fm-link-inputs"  # link-inputs.js's script element, which flags.js has a link's first paint wait for
# What "Use my dice"'s first prompt leaves to the default answer: with no dice they are the same.
FIRST_ROLL_SHARED = ("outcomes", "notes")


def own_calculator_page(url: str, calculator_ids: list[str]) -> bool:
    """Whether the page at ``url`` (under the site's root) is a calculator's own page:
    ``calculators/<id>/``, holding that calculator alone. The one place this is decided."""
    return len(calculator_ids) == 1 and url == f"calculators/{calculator_ids[0]}/"


def calculator_roots(found: list[Element]) -> list[Element]:
    """The calculators' elements of a parsed page, as build_pages.py writes them (the page glue's roots)."""
    return [e for e in found if e.tag == "div" and e.attrs.get("class") == "calculator" and e.attrs.get("data-calculator")]


def is_own_page(found: list[Element]) -> bool:
    """Whether a parsed page is a calculator's own page, as on_page_content marked it (own_calculator_page)."""
    return any(e.tag == "div" and "fm-prerendered" in e.classes and OWN_PAGE in e.attrs for e in found)


Answer = shapes.OddsAnswer | shapes.RollAnswer | shapes.ResolveAnswer


def _json(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@cache
def prerendered(calc_id: str, own_page: bool = False) -> str:
    """The calculator's answers for its defaults and examples, as a hidden element; marked on its own page."""
    calc = rules_py.get(calc_id)
    answers: dict[str, Answer] = {}
    for inputs in ({}, *calc.examples):
        doc = rules_py.answer(calc_id, inputs)
        answers.setdefault(json.dumps(doc["inputs"], sort_keys=True), doc)  # an example may equal the defaults
    first = first_roll(calc_id)
    return fragment(
        "calculator.html",
        "prerendered",
        answers=_json(list(answers.values())),
        first_roll=None if first is None else _json(first),
        own_page=own_page,
    )


@cache
def first_roll(calc_id: str) -> dict[str, object] | None:
    """Use my dice's first prompt at the defaults (the resolution with no dice), less what
    the default answer already carries; None for a calculator that rolls no dice."""
    if not rules_py.get(calc_id).rolls_dice:
        return None
    doc: Mapping[str, object] = rules_py.answer(calc_id, dice="")
    plain: Mapping[str, object] = rules_py.answer(calc_id)
    if doc.get("status") != "need" or any(doc[k] != plain[k] for k in (*FIRST_ROLL_SHARED, "inputs")):
        raise ValueError(f"{calc_id}: with no dice, the resolution is not a first prompt over the plain odds")
    return {k: v for k, v in doc.items() if k not in FIRST_ROLL_SHARED}


def on_files(files: Files, config: MkDocsConfig) -> Files:
    for path in BUILD_ONLY:
        file = files.get_file_from_path(path)
        if file is not None:
            files.remove(file)
    return files


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Each calculator's embedded answers, first inside its element."""
    roots = calculator_roots(elements(html))
    own = own_calculator_page(page.url, [str(root.attrs["data-calculator"]) for root in roots])
    return splice(html, [(root.open_end, root.open_end, prerendered(str(root.attrs["data-calculator"]), own)) for root in roots])


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
    if not isinstance(modules, list) or not all(isinstance(m, str) for m in modules):
        raise ValueError(f"{FORM_MODULES.name} is not a list of module names")
    missing = [m for m in modules if not (CALC_GLUE / m).is_file()]
    if missing:
        raise ValueError(f"{FORM_MODULES.name} lists modules that are not in {CALC_GLUE}: {missing}")
    return tuple(str(m) for m in modules)


def build_id() -> str | None:
    """The id of the build under way (runtime.json's), or None before the engine is built."""
    if not RUNTIME.exists():
        return None
    build = json.loads(RUNTIME.read_text(encoding="utf-8")).get("build")
    return build if isinstance(build, str) else None


def on_post_page(output: str, page: Page, config: MkDocsConfig) -> str:
    """A page with a calculator: its head scripts first in its head (after <meta charset>), on
    a calculator's own page link-inputs.js after its article, and the form's modules at the end
    of its body (see the top). Each place found by a parse of the page (html_elements)."""
    if "data-calculator=" not in output:  # most pages: no parse
        return output
    found = elements(output)
    if not calculator_roots(found):
        return output
    build = build_id()
    own = is_own_page(found)
    worker = None
    if own:
        worker = get_relative_url("assets/calc/worker.mjs", page.url)
        if build:
            worker += "?" + urlencode({"build": build})
    head = fragment(
        "calculator.html",
        "head",
        build=build,
        # On its own page, flags.js holds a link's first paint until link-inputs.js has run.
        flags_attrs={"data-link-inputs": LINK_INPUTS_ID} if own else {},
        flags=head_script("flags.js"),
        glue_failed=head_script("glue-failed.js"),
        worker=worker,
        early_worker=head_script("early-worker.js") if own else "",
    )
    charset = the_one(found, f"{page.url}: <meta charset>", lambda e: e.tag == "meta" and "charset" in e.attrs)
    body = the_one(found, f"{page.url}: <body>", lambda e: e.tag == "body")
    links = fragment("calculator.html", "modulepreloads", hrefs=[get_relative_url("assets/calc/" + m, page.url) for m in form_modules()])
    insertions = [(charset.open_end, charset.open_end, "\n    " + head)]
    if own:
        article = the_one(found, f"{page.url}: a calculator's own page's <article>", lambda e: e.tag == "article")
        link_inputs = fragment("calculator.html", "script", text=head_script("link-inputs.js"), attrs={"id": LINK_INPUTS_ID})
        insertions.append((article.end, article.end, link_inputs))
    # Last: where the article's end is the body's, link-inputs.js comes before the preloads.
    insertions.append((body.close_start, body.close_start, links))
    return splice(output, insertions)


CALCULATORS_JSON = "assets/generated/calculators.json"


def on_post_build(config: MkDocsConfig) -> None:
    """The published calculators' list, with the id of the build that made it (see the top)."""
    path = Path(config["site_dir"]) / CALCULATORS_JSON
    if not path.exists():
        return
    calculators = json.loads(path.read_text(encoding="utf-8"))
    if isinstance(calculators, dict):  # written already (a rebuild that did not copy it again)
        calculators = calculators["calculators"]
    path.write_text(json.dumps({"build": build_id(), "calculators": calculators}, indent=1), encoding="utf-8")
