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

from scripts.support.local_site import StaticServer, launch
from scripts.support.page_functions import page_function
from scripts.hooks.calculator_hooks import OWN_PAGE_ANSWERS
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "site"

# Everything the engine is made of: its worker, Pyodide, the snapshot and the wheel.
ENGINE = re.compile(r"/assets/calc/worker\.mjs|/assets/generated/(pyodide/|runtime\.json|.*\.whl|.*snapshot)")
ROOT_TAG = re.compile(r'<div class="calculator" data-calculator="(?P<id>[a-z0-9-]+)">')
DIV = re.compile(r"<(/?)div\b", re.I)
PRERENDERED = re.compile(r'<div class="fm-prerendered" hidden data-answers="[^"]*"[^>]*></div>')
PLACEHOLDER = re.compile(r'<p class="fm-placeholder">.*?</p>', re.S)
EMPTY_INTRO = '<div class="fm-intro"></div>'
SUMMARY_LIST = '<ul class="fm-summary-list"'
TIMEOUT_MS = 60_000
# The data-* attributes the copy keeps: a style hook of the map's edges (none of the DOM contract's).
KEEP_DATA = ["data-side"]

# Every calculator of the page shows the answer the build embedded.
READY = page_function(ROOT / "scripts" / "build" / "page" / "calculators_prerendered.mjs")

# Each calculator of the page, in document order: [id, the copy's markup].
COPY = page_function(ROOT / "scripts" / "build" / "page" / "calculator_copies.mjs")


def element_end(text: str, start: int) -> int:
    """Where the <div> opened at ``start`` closes (the offset of its ``</div>``)."""
    depth = 0
    for match in DIV.finditer(text, start):
        depth += -1 if match.group(1) else 1
        if depth == 0:
            return match.start()
    raise ValueError(f"a <div> at {start} that never closes")


def answer_id(calc_id: str) -> str:
    return f"static-fm-answer-{calc_id}"


def with_copies(text: str, copies: list[tuple[str, str]], own_page: bool = False) -> str:
    """The page with each calculator's root holding its copy, its note and its embedded answers.

    On a calculator's own page (``own_page``), the page is not painted before its
    answer: a browser paints what it has parsed, and on a slow phone or link the
    first paint came with the header and the form and no answer (0.1 to 0.2 s
    before it, Fast 4G with the CPU slowed 4 times, scripts/bench/bench_browser.py).
    The copy's answer list gets an id and the head a render-blocking
    ``<link rel="expect">`` naming it (HTML's "expect" link: rendering waits
    until that element is parsed, no longer than the whole document).
    """
    if own_page:
        if len(copies) != 1:
            raise ValueError(f"a calculator's own page with {len(copies)} calculators")
        calc_id, copy = copies[0]
        if SUMMARY_LIST not in copy:
            raise ValueError(f"{calc_id}: the copy has no answer list")
        copies = [(calc_id, copy.replace(SUMMARY_LIST, f'{SUMMARY_LIST} id="{answer_id(calc_id)}"', 1))]
        if text.count("</head>") != 1:
            raise ValueError("a page without one </head>")
        text = text.replace("</head>", f'<link rel="expect" href="#{answer_id(calc_id)}" blocking="render"></head>', 1)
    roots = list(ROOT_TAG.finditer(text))
    if [m.group("id") for m in roots] != [calc_id for calc_id, _ in copies]:
        raise ValueError(f"the page's calculators {[m.group('id') for m in roots]} are not the browser's {[c for c, _ in copies]}")
    out, pos = [], 0
    for match, (calc_id, copy) in zip(roots, copies):
        end = element_end(text, match.start())
        inner = text[match.end() : end]
        answers = PRERENDERED.search(inner)
        if not answers:
            raise ValueError(f"{calc_id}: no embedded answers in its root")
        placeholder = PLACEHOLDER.search(inner)
        intro = PLACEHOLDER.sub("", PRERENDERED.sub("", inner)).strip()
        if intro:
            if copy.count(EMPTY_INTRO) != 1:
                raise ValueError(f"{calc_id}: the copy has no place for the embed's introduction")
            copy = copy.replace(EMPTY_INTRO, f'<div class="fm-intro">{intro}</div>')
        # The copy first: on a slow link the page paints what has arrived, and the
        # embedded answers (tens of kilobytes for some calculators) come after it.
        out += [
            text[pos : match.start()],
            match.group(0),
            copy,
            placeholder.group(0) if placeholder else "",
            answers.group(0),
        ]
        pos = end
    out.append(text[pos:])
    return "".join(out)


def pages_with_calculators(site: Path) -> tuple[list[Path], list[Path]]:
    """The pages with a calculator: those still to render, and those already rendered (by an earlier run)."""
    pages = [p for p in sorted(site.rglob("*.html")) if ROOT_TAG.search(p.read_text(encoding="utf-8"))]
    done = [p for p in pages if 'class="fm-static' in p.read_text(encoding="utf-8")]
    return [p for p in pages if p not in done], done


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
                own = OWN_PAGE_ANSWERS.search(text) is not None
                page.write_text(with_copies(text, copies, own), encoding="utf-8")
                count += len(copies)
        finally:
            browser.close()
    print(f"rendered {count} calculators into {len(pages)} pages in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve()) if len(sys.argv) > 1 else main()
