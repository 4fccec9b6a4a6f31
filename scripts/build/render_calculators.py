"""Render every calculator of the built site into its page, as the page's own glue renders it.

A calculator page embeds its answers for the defaults and examples
(``.fm-prerendered``, scripts/hooks/calculator_hooks.py), but shows them only once the
calculators' glue (docs/assets/calc/) has arrived, a few hundred
milliseconds after the page's first paint, more on a slow link. This step puts
the calculator as that glue first shows it into the HTML itself, so the default
answer is painted with the page.

Serves ``site/`` on a free loopback port and opens every built page that has a
calculator (``.calculator[data-calculator]``: the calculators' own pages and
the rules pages that embed one) in Debian's headless Chromium, with every
request for the engine refused (its worker, Pyodide, the snapshot, the wheel),
so that nothing but the embedded answers can show. Once every calculator of
the page shows its embedded default answer (``data-source="prerendered"``,
``data-status="ready"``), its markup is copied into the page's HTML file,
inside the calculator's root (whose tag stays as it is), in ``<div class="fm-static
fm-calculator">`` (the calculator's styles; laid out as if it were not there):

* the copy is of what the player sees, with none of the DOM contract's
  attributes that tests and tools wait on or read (every ``data-*`` attribute
  goes but ``data-side``, a style hook of the map's edges), so nothing can
  take it for a live answer; the root gets no ``data-status`` either (the
  glue mounts the roots without one). Its ids are prefixed ``static-``;
* form controls carry their values as attributes (the HTML serialises no
  other), and each field its input's name (``name="<input>"``): the glue
  reads what the player typed or chose there before it arrived
  (docs/assets/calc/static-copy.mjs, readStatic) and takes it over;
* the Seed field is left empty (the glue puts a random seed there; an empty
  one keeps the build reproducible: the same site in, the same bytes out), the
  engine's status line empty; a heading without an id gets one (every
  heading of a page has one); links to the temporary server are made
  relative to the page; an embed's own link and description are copied from
  the page's source as they are.

A calculator that rolls dice has its "Use my dice" in the copy with its first
prompt drawn in (the glue draws it from the build's embedded answer with no
dice, own-dice.mjs; opened here, copied, closed again), shown while its Use my
dice, in the copy a checkbox's label, is checked; a single die's faces are
radio buttons' labels, a pool's score its list. They work before the glue has
come (it takes over what was chosen); a face chosen there withdraws the
prompt's odds, which were for no dice, and says it waits (calculator.css).

On a calculator's own page, the first paint waits for the copy's answer (a
render-blocking ``<link rel="expect">`` in the head; see ``with_copies``).

The copy answers its default inputs alone, so it never takes others: every
control the player could use is written ``disabled`` (class ``fm-inert``). With
scripts off, or until the page's glue runs, it shows the answer to the inputs
it shows; the glue enables the controls, withdraws the copy's answer at the
player's first change, and puts the copy back to its defaults, disabled, with
its message in the answer box, if the rest of the glue fails to load
(docs/assets/calc/calculator.mjs, "the build's copy").

The stylesheet hides the copy when the address has a query (``fm-query`` on
``<html>``, set by the head's script, docs/assets/head/flags.js), unless the
script after the page's article (docs/assets/head/link-inputs.js) put the
link's inputs in its fields (option B's, its sweep and its seed's roll place
included) and withdrew its answer, or showed its words alone; it shows the page's note
that the calculator needs JavaScript only without it.

Run by ``make site`` after ``mkdocs build`` and the sheets' PDFs, before the
service worker's list of files is made: ``python -m scripts.build.render_calculators [SITE_DIR]``.
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

from scripts.build.html_elements import Element, elements, splice, the_one
from scripts.build.page_templates import fragment
from scripts.support.local_site import StaticServer, launch
from scripts.support.page_functions import page_function
from scripts.hooks.calculator_hooks import calculator_roots, is_own_page
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "site"

# Everything the engine is made of: its worker, Pyodide, the snapshot and the wheel.
ENGINE = re.compile(r"/assets/calc/worker\.mjs|/assets/generated/(pyodide/|runtime\.json|.*\.whl|.*snapshot)")
TIMEOUT_MS = 60_000
# The data-* attributes the copy keeps: a style hook of the map's edges (none of the DOM contract's).
KEEP_DATA = ["data-side"]

# Every calculator of the page shows the answer the build embedded.
READY = page_function(ROOT / "scripts" / "build" / "page" / "calculators_prerendered.mjs")

# Each calculator of the page, in document order: [id, the copy's markup].
COPY = page_function(ROOT / "scripts" / "build" / "page" / "calculator_copies.mjs")


def answer_id(calc_id: str) -> str:
    return f"static-fm-answer-{calc_id}"


def children(found: list[Element], parent: Element) -> list[Element]:
    """The elements directly inside ``parent`` (``found``: the parsed page it is in)."""
    inside = [e for e in found if parent.open_end <= e.start and e.end <= parent.close_start]
    return [e for e in inside if not any(o is not e and o.start < e.start and e.end <= o.end for o in inside)]


def with_answer_id(copy: str, calc_id: str) -> str:
    """The copy with an id on its answer list (its first ``ul.fm-summary-list``), for the head's expect link."""
    lists = [e for e in elements(copy) if e.tag == "ul" and "fm-summary-list" in e.classes]
    if not lists:
        raise ValueError(f"{calc_id}: the copy has no answer list")
    at = lists[0].open_end - 1  # before the start tag's ">": after its attributes
    return splice(copy, [(at, at, fragment("calculator.html", "id_attribute", id=answer_id(calc_id)))])


def with_intro(copy: str, calc_id: str, intro: str) -> str:
    """The copy with the embed's own link and description (``intro``, as the page's source has them) in its empty ``.fm-intro``."""
    empty = the_one(elements(copy), f"{calc_id}: empty .fm-intro in the copy", lambda e: e.tag == "div" and "fm-intro" in e.classes and e.open_end == e.close_start)
    return splice(copy, [(empty.open_end, empty.open_end, intro)])


def with_copies(text: str, copies: list[tuple[str, str]], own_page: bool = False) -> str:
    """The page with each calculator's root holding its copy, its note and its embedded answers.

    Each root (calculator_hooks.calculator_roots) is found by a parse of the page
    (scripts/build/html_elements.py), and its content made anew: the copy first
    (on a slow link the page paints what has arrived, and the embedded answers,
    tens of kilobytes for some calculators, come after it), then the note for a
    reader without JavaScript and the embedded answers, as they were; what else
    the root held (an embed's own link and description) goes into the copy's
    ``.fm-intro``.

    On a calculator's own page (``own_page``), the page is not painted before its
    answer: a browser paints what it has parsed, and on a slow phone or link the
    first paint came with the header and the form and no answer (0.1 to 0.2 s
    before it, Fast 4G with the CPU slowed 4 times, scripts/bench/bench_browser.py).
    The copy's answer list gets an id and the head a render-blocking
    ``<link rel="expect">`` naming it (HTML's "expect" link: rendering waits
    until that element is parsed, no longer than the whole document).
    """
    found = elements(text)
    edits: list[tuple[int, int, str]] = []
    if own_page:
        if len(copies) != 1:
            raise ValueError(f"a calculator's own page with {len(copies)} calculators")
        calc_id, copy = copies[0]
        copies = [(calc_id, with_answer_id(copy, calc_id))]
        head = the_one(found, "<head>", lambda e: e.tag == "head")
        edits.append((head.close_start, head.close_start, fragment("calculator.html", "expect", id=answer_id(calc_id))))
    roots = calculator_roots(found)
    ids = [str(root.attrs["data-calculator"]) for root in roots]
    if ids != [calc_id for calc_id, _ in copies]:
        raise ValueError(f"the page's calculators {ids} are not the browser's {[c for c, _ in copies]}")
    for root, (calc_id, copy) in zip(roots, copies):
        inside = children(found, root)
        answers = [e for e in inside if e.tag == "div" and "fm-prerendered" in e.classes]
        if not answers:
            raise ValueError(f"{calc_id}: no embedded answers in its root")
        placeholders = [e for e in inside if e.tag == "p" and "fm-placeholder" in e.classes]
        kept = [*placeholders[:1], answers[0]]
        inner = text[root.open_end : root.close_start]
        intro = splice(inner, [(e.start - root.open_end, e.end - root.open_end, "") for e in (*answers, *placeholders)]).strip()
        if intro:
            copy = with_intro(copy, calc_id, intro)
        edits.append((root.open_end, root.close_start, copy + "".join(text[e.start : e.end] for e in kept)))
    return splice(text, edits)


def pages_with_calculators(site: Path) -> tuple[list[Path], list[Path]]:
    """The pages with a calculator: those still to render, and those already rendered (by an earlier run)."""
    pages: list[Path] = []
    done: list[Path] = []
    for page in sorted(site.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        if "data-calculator=" not in text:  # most pages: no parse
            continue
        found = elements(text)
        if calculator_roots(found):
            (done if any("fm-static" in e.classes for e in found) else pages).append(page)
    return pages, done


def address(site: Path, page: Path) -> str:
    relative = page.relative_to(site).as_posix()
    return relative.removesuffix("index.html")


def main(site: Path = SITE) -> None:
    started = time.monotonic()
    pages, done = pages_with_calculators(site)
    if done:
        print(f"{len(done)} pages already have their calculators rendered: left as they are")
    if not pages:
        return
    with StaticServer(site) as server, sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            context = browser.new_context(service_workers="block")
            context.route(ENGINE, lambda route: route.abort())
            tab = context.new_page()
            errors: list[str] = []
            tab.on("pageerror", lambda error: errors.append(str(error)))
            count = 0
            for page in pages:
                path = address(site, page)
                tab.goto(server.url(path))
                try:
                    tab.wait_for_function(READY, timeout=TIMEOUT_MS)
                except Exception as error:
                    raise SystemExit(f"{path}: the calculators did not show their built answers ({error}); page errors: {errors}") from None
                copies = tab.evaluate(COPY, KEEP_DATA)
                text = page.read_text(encoding="utf-8")
                # A calculator's own page, as the build decided (calculator_hooks.own_calculator_page).
                own = is_own_page(elements(text))
                page.write_text(with_copies(text, copies, own), encoding="utf-8")
                count += len(copies)
        finally:
            browser.close()
    print(f"rendered {count} calculators into {len(pages)} pages in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve()) if len(sys.argv) > 1 else main()
