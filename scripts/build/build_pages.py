"""Turn the rules data in ``rules_py`` into Markdown for the site.

Writes, every build, nothing that is committed:

* ``build/snippets/<system>/<table>.md``: every rules table, with a caption
  that links to itself, for hand-written pages to include with
  ``--8<-- "<system>/<table>.md"`` (pymdownx.snippets, ``check_paths`` on, so
  a page naming a missing table fails the build);
* ``build/snippets/<system>/calculator-<id>.md``: a calculator's embed block;
* ``build/snippets/sources.md``: the Sources page's table of rule systems,
  credits and what we cover, from ``rules_py/systems.py``;
* ``build/snippets/<system>/interpretation-<id>.md``: an Interpretation note,
  for the page where its rule is explained;
* ``build/snippets/sheets/note-<id>.md``: the same note as a sheet prints it,
  for a quick-reference sheet whose steps, tables or odds rest on it to include
  (``docs/sheets/<system>.md``): what is open and our reading, kept whole on
  paper, without the web note's box and link, so that paper carries the notes
  a sheet refers to at the size of its tables;
* ``build/snippets/sheets/<system>-tables.md`` and ``<system>-odds.md``: every
  table of a system, and its key odds (``scripts/build/sheet_odds.py``), for its
  quick-reference sheet; ``<system>-meta.md``, the line a printed sheet
  carries (system, publisher, the day its rules last changed, the site's address and a QR code
  when ``site_url`` in mkdocs.yml is not a loopback address); ``index.md`` and
  ``home.md``, the sheets with the page counts of their PDFs and large
  prints, as each sheet's front matter states them (``pages``,
  ``large_print_pages``), an input read here before anything is printed;
  ``scripts/build/build_sheets_pdf.py`` later checks the PDFs against the same
  figures and fails on a difference, so no stage runs again;
* ``build/snippets/home-calculators.md``: the home page's way in, every
  calculator by rule system, near the top so that a phone shows it at once;
  ``home-systems.md``, its list of the rule systems and what the site covers
  of each (rules_py/systems.py is the one place they are listed);
* ``docs/calculators/``: the calculators index and one page per calculator
  (whose front matter hides the contents sidebar: the calculator takes its
  width);
* ``docs/interpretations/index.md`` and ``docs/glossary/index.md``: every
  Interpretation note and every glossary term (these three folders are wholly
  generated and git-ignored);
* ``docs/assets/generated/calculators.json``: every calculator's schema, which
  the page glue reads to draw forms before the Python runtime has booted.

Run from the project root: ``python -m scripts.build.build_pages``.
"""

from __future__ import annotations

import datetime
import ipaddress
import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Protocol, TypeVar
from urllib.parse import urlsplit

import pandas as pd

from rules_py import calculators, get
from rules_py.calculator import Calculator, Field
from rules_py.formats import format_value
from rules_py.reference import Interpretation, glossary, interpretations
from rules_py.rule_refs import table_anchor as rule_table_anchor
from rules_py.systems import SYSTEMS, System, system
from rules_py.tables import Table, all_tables
from scripts.build.page_templates import fragment

ROOT = Path(__file__).resolve().parents[2]

SNIPPETS = ROOT / "build" / "snippets"
CALC_DOCS = ROOT / "docs" / "calculators"
INTERP_DOCS = ROOT / "docs" / "interpretations"
GLOSSARY_DOCS = ROOT / "docs" / "glossary"
GENERATED_ASSETS = ROOT / "docs" / "assets" / "generated"


def html(macro: str, /, **context: object) -> str:
    """An element of a generated page: a macro of scripts/build/templates/pages.html."""
    return fragment("pages.html", macro, **context)


GENERATED_NOTE = html("generated_note") + "\n"


def generated_block(attrs: dict[str, str], body: str) -> str:
    """A generated snippet that is one Markdown block (pages.html, markdown_block), after the generated note."""
    return GENERATED_NOTE + "\n" + html("markdown_block", attrs=attrs, body=body) + "\n"


def table_anchor(table: Table) -> str:
    # One scheme for the caption's anchor and the roll records that link to it.
    return rule_table_anchor(table.id)


def _cell(value: object) -> str:
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value).replace("|", "\\|").replace("\n", " ")


def _short(text: str) -> str:
    """Keep a short cell ("2–3", "-1", "5+") on one line, even in a narrow printed column."""
    return html("nowrap", text=text) if len(text) <= 8 and " " not in text else text


def table_frame(table: Table) -> pd.DataFrame:
    """The table as shown: shown columns only, headed by their labels."""
    shown = [c for c in table.columns if c.show]
    frame = pd.DataFrame([dict(row) for row in table.rows], columns=[c.name for c in table.columns], dtype=object)
    frame = frame[[c.name for c in shown]]
    return frame.rename(columns={c.name: c.label for c in shown})


def is_wide(table: Table) -> bool:
    """Too many columns to print in half the width of an A4 page."""
    return sum(c.show for c in table.columns) > 5


MISSING = "missing"


def figures_missing(table: Table) -> bool:
    """Every figure lost from the source: each shown cell but the row labels reads "missing"."""
    frame = table_frame(table)
    return bool((frame.iloc[:, 1:] == MISSING).all(axis=None))


INPUT_DEFAULT = re.compile(r"\{([a-z0-9-]+)\.([a-z_0-9]+)\}")


def table_note(table: Table) -> str:
    """A table's note, each ``{calculator.input}`` in it filled with that input's
    default: where the note states a reading the calculator takes as an input
    (table 7's "6dice"), the page, the sheet and the calculator say one thing."""

    def default(m: re.Match[str]) -> str:
        fields = {f.name: f for f in get(m[1]).fields}
        if m[2] not in fields:
            raise KeyError(f"{table.system}/{table.id}: note names {m[0]}, which {m[1]} does not take")
        return format_value(fields[m[2]].default)

    return INPUT_DEFAULT.sub(default, table.note)


def table_markdown(table: Table, sheet: bool = False) -> str:
    """A captioned Markdown table; numeric columns right-aligned.

    Caption, table and note sit in one ``fm-table`` block (``fm-table--wide``
    past five columns) that print keeps on one page and in one column. On a
    sheet, a table whose figures are all missing is printed as a note naming
    its rows and columns rather than as a grid of "missing".
    """
    frame = table_frame(table)
    shown = [c for c in table.columns if c.show]
    align = ["---:" if c.type == "int" else ":---" for c in shown]
    kind = "fm-table fm-table--wide" if is_wide(table) else "fm-table"
    lines = [html("caption", anchor=table_anchor(table), title=table.title), ""]
    if sheet and figures_missing(table):
        rows = ", ".join(_cell(v) for v in frame.iloc[:, 0])
        columns = ", ".join(_cell(h) for h in frame.columns[1:])
        lines += [html("table_note", text=f"{_cell(frame.columns[0])}: {rows}. Columns: {columns}. {table_note(table)}")]
    else:
        lines += [
            "| " + " | ".join(_cell(h) for h in frame.columns) + " |",
            "| " + " | ".join(align) + " |",
        ]
        for row in frame.itertuples(index=False):
            lines.append("| " + " | ".join(_short(_cell(v)) for v in row) + " |")
        if table.note:
            lines += ["", html("table_note", text=table_note(table))]
    body = "\n" + "\n".join(lines) + "\n"
    return generated_block({"class": kind}, body)


def site_url() -> str | None:
    """The site's public address from mkdocs.yml (as mkdocs reads it, !ENV included), or None for a loopback one."""
    from mkdocs.utils.yaml import yaml_load

    with open(ROOT / "mkdocs.yml", encoding="utf-8") as f:
        url = (yaml_load(f) or {}).get("site_url") or ""
    host = urlsplit(url).hostname or ""
    if not host or host == "localhost" or host.endswith(".localhost"):
        return None
    try:
        if ipaddress.ip_address(host).is_loopback:
            return None
    except ValueError:
        pass
    return url if url.endswith("/") else url + "/"


def rules_date(slug: str) -> datetime.date:
    """The day a sheet's rules last changed: that of the last commit to the system's
    package (its procedures and tables) or its sheet, or SOURCE_DATE_EPOCH's day
    if set, or today without git. Not the build's day: the same commit prints the
    same sheet on any day (guides/publishing.md), and a sheet whose rules did not
    change is not sent again to every returning player with each new build."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if not epoch and shutil.which("git") and (ROOT / ".git").exists():
        sources = [f"rules_py/{system(slug).package}", f"docs/sheets/{slug}.md"]
        run = subprocess.run(["git", "log", "-1", "--format=%ct", "--", *sources], cwd=ROOT, capture_output=True, text=True, check=False)
        epoch = run.stdout.strip() if run.returncode == 0 else None
    if epoch:
        return datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc).date()
    return datetime.datetime.now(datetime.timezone.utc).date()


def sheet_meta(slug: str) -> str:
    """What a printed sheet says about itself: the rule system and its publisher, the build, where it lives online."""
    sys_ = system(slug)
    address = qr = ""
    url = site_url()
    if url:
        address = f"{url}sheets/{slug}/"
        import segno

        qr = segno.make(address, error="m").svg_inline(scale=2, border=0, omitsize=True, title=f"QR code: {address}")
    meta = html("sheet_meta", title=sys_.title, credit=sys_.credit, date=rules_date(slug).isoformat(), address=address, qr=qr)
    return GENERATED_NOTE + f"\n{meta}\n"


def sheet_pages(slug: str) -> dict[str, int]:
    """A sheet's page counts as its front matter states them (``pages``, ``large_print_pages``).

    They are an input of the build, read before any PDF is printed, and the
    print step (scripts/build/build_sheets_pdf.py) fails when a PDF differs."""
    path = ROOT / "docs" / "sheets" / f"{slug}.md"
    match = re.match(r"---\n(.*?)\n---\n", path.read_text(encoding="utf-8"), re.S)
    found = dict(re.findall(r"^(\w+):\s*(\d+)\s*$", match.group(1), re.M)) if match else {}
    missing = [key for key in ("pages", "large_print_pages") if key not in found]
    if missing:
        raise SystemExit(f"docs/sheets/{slug}.md: its front matter must state {' and '.join(missing)}")
    return {key: int(found[key]) for key in ("pages", "large_print_pages")}


def pages_text(pages: int | None) -> str:
    words = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
    if pages is None:
        return "PDF"
    return f"PDF, {words.get(pages, pages)} A4 page{'s' if pages != 1 else ''}"


def _pdf_link(prefix: str, slug: str, pages: int, large: bool = False) -> str:
    name = f"{slug}-large-print" if large else slug
    return html("pdf_link", href=f"{prefix}{name}.pdf", pages=pages, text=pages_text(pages))


def _sheet_systems() -> list[System]:
    return [s for s in SYSTEMS if (ROOT / "docs" / "sheets" / f"{s.slug}.md").exists()]


def sheets_index_table() -> str:
    """The sheets index's table, with each PDF's page count and its large print's: three
    columns, the sheet named by its rule system, so that it fits a phone's width."""
    lines = [GENERATED_NOTE, "| Sheet | PDF | Large print |", "| --- | --- | --- |"]
    for sys_ in _sheet_systems():
        pages = sheet_pages(sys_.slug)
        lines.append(
            f"| [{sys_.title}]({sys_.slug}.md) | {_pdf_link('', sys_.slug, pages['pages'])} | "
            f"{_pdf_link('', sys_.slug, pages['large_print_pages'], large=True)} |"
        )
    return "\n".join(lines) + "\n"


def home_sheets_line() -> str:
    """The home page's list of sheets, with each PDF's page count."""
    return _listed([f"{sys_.title} ({_pdf_link('sheets/', sys_.slug, sheet_pages(sys_.slug)['pages'])})" for sys_ in _sheet_systems()])


# The npm packages the page imports as they are, each its ES module, copied beside
# calculators.json: pinned by package-lock.json, served from the site, never fetched elsewhere.
PAGE_MODULES = {"qrcode.mjs": ROOT / "node_modules" / "qrcode-generator" / "dist" / "qrcode.mjs"}  # the answer card's QR code


def vendor_page_modules() -> None:
    """Copy the page's vendored modules (PAGE_MODULES) into assets/generated/."""
    for name, source in PAGE_MODULES.items():
        if not source.is_file():
            raise SystemExit(f"build_pages: {source.relative_to(ROOT)} is missing: run `npm ci`")
        shutil.copyfile(source, GENERATED_ASSETS / name)


def home_systems_line() -> str:
    """The home page's list of rule systems, each linked to its pages with what the site covers of it
    (rules_py/systems.py: the one place the systems are listed)."""
    return _listed([f"[{sys_.title}]({sys_.slug}/index.md) ({sys_.covers})" for sys_ in SYSTEMS])


def _listed(items: list[str]) -> str:
    """Items as a sentence's list: "a, b and c."."""
    return ", ".join(items[:-1]) + " and " + items[-1] + "." if len(items) > 1 else "".join(items) + "."


def embed_anchor(calc_id: str) -> str:
    """The id a rules page's own link to its embedded calculator goes to (``#<id>``):
    the page's top line links there, so the calculator is one tap from the top."""
    return f"calculator-{calc_id}"


def embed_markdown(calc: Calculator) -> str:
    """The block a rules page includes to embed a calculator next to its rule, after
    the empty element that the page's links to it go to (embed_anchor)."""
    # The calculator's element holds its note for a reader without JavaScript
    # (pages.html, placeholder), here without the command line a calculator's own page has.
    body = f"**[{calc.title}](../calculators/{calc.id}.md)**: {calc.description}\n\n" + html("placeholder", command_line=False)
    block = html("markdown_block", attrs={"class": "calculator", "data-calculator": calc.id}, body=body)
    return GENERATED_NOTE + "\n" + html("embed_anchor", anchor=embed_anchor(calc.id)) + "\n\n" + block + "\n"


def cli_example(calc: Calculator) -> str:
    example = calc.examples[0] if calc.examples else {}
    args = " ".join(f"{k}={v}" for k, v in example.items())
    return f"python -m rules_py odds {calc.id} {args}".rstrip()


def input_values(f: Field) -> str:
    """What an input takes and its default, in a sentence: "A whole number from 0 to 20; 0 unless set."."""
    allowed = f.allowed()
    takes = allowed[:1].upper() + allowed[1:]
    if f.required:
        return f"{takes}; required."
    default = f.schema()["default"]
    shown = "empty" if default == "" else f"`{_cell(default)}`"
    return f"{takes}; {shown} unless set."


def calculator_page(calc: Calculator) -> str:
    sys_ = system(calc.system)
    schema = calc.schema()
    lines = [
        # The page is not in the nav: without the title, mkdocs would title it from its file name.
        # Its contents sidebar would list three headings below the calculator, in
        # width the calculator needs (on a 1440 px screen, 688 px wide beside it, 930 without).
        f"---\ntitle: {json.dumps(calc.title)}\nhide:\n  - toc\n---",
        GENERATED_NOTE,
        f"# {calc.title}",
        "",
        f"*{sys_.title}* · [the rule this resolves](../{calc.page})" if calc.page else f"*{sys_.title}*",
        "",
        calc.description,
        "",
        html("calculator_root", id=calc.id),
        "",
        "## Inputs",
        "",
        # A list, not a table: five columns of words were wider than a phone, and what
        # each input means was off its right edge (each input is a term here, its name in
        # links beside it, and what it means, what it takes and its default under it).
        "Each input by its label on the form, with its name in links (`?name=value`):",
        "",
    ]
    for f in calc.fields:
        lines += [f"**{_cell(f.label)}** · `{f.name}`", f":   {' '.join(f.help.split())}", "", f"    {input_values(f)}", ""]
    lines += ["", "## Outcomes", "", "| Outcome | Name | What it counts |", "| --- | --- | --- |"]
    for o in schema["outcomes"]:
        lines.append(f"| {_cell(o['label'])} | `{o['name']}` | {_cell(o['help'])} |")
    if schema.get("dynamic_outcomes"):
        lines += ["", "The outcomes depend on the inputs: one set per unit on the map."]
    lines += [
        "",
        "## From the command line",
        "",
        "The same engine runs offline in a terminal, from the project's folder:",
        "",
        "```sh",
        cli_example(calc),
        f"python -m rules_py roll {calc.id} --seed 1",
        "```",
        "",
    ]
    return "\n".join(lines)


def short_title(calc: Calculator) -> str:
    """The calculator's title less its rule system's name, for a list already headed by the system."""
    prefix = system(calc.system).title + " "
    rest = calc.title.removeprefix(prefix)
    return rest[:1].upper() + rest[1:]


def home_calculators() -> str:
    """The home page's list of every calculator, one line per rule system."""
    lines = []
    for sys_, mine in by_system(calculators()):
        links = " ".join(f"[{short_title(c)}](calculators/{c.id}.md){{ .fm-calc-link }}" for c in mine)
        lines.append(f"- **{sys_.title}** {links}")
    body = "\n" + "\n".join(lines) + "\n"
    return generated_block({"class": "fm-home-calculators"}, body)


class OfASystem(Protocol):
    @property
    def system(self) -> str: ...


Item = TypeVar("Item", bound=OfASystem)


def by_system(items: Sequence[Item]) -> Iterator[tuple[System, list[Item]]]:
    """(system, its items) in site order, for systems that have any; items carry a ``system`` slug."""
    for sys_ in SYSTEMS:
        mine = [item for item in items if item.system == sys_.slug]
        if mine:
            yield sys_, mine


def calculators_index() -> str:
    lines = [
        GENERATED_NOTE,
        "# Calculators",
        "",
        "Exact odds and seeded rolls, worked out in your browser by the same engine as the command line: "
        "what you enter stays in your browser, and nothing is fetched from any other site. "
        "Each calculator is also embedded beside the rule it resolves. A calculator page's address "
        "holds its inputs, so a link shares the exact situation.",
        "",
    ]
    for sys_, mine in by_system(calculators()):
        lines += [f"## {sys_.title}", "", "| Calculator | What it answers | The rule |", "| --- | --- | --- |"]
        for c in mine:
            rule = f"[{_page_title(c.page)}](../{c.page})" if c.page else "—"
            lines.append(f"| [{_cell(c.title)}]({c.id}.md) | {_cell(c.description)} | {rule} |")
        lines.append("")
    return "\n".join(lines)


def _page_title(page: str) -> str:
    """The first heading of a hand-written page (docs/<page>), for links to it."""
    path = ROOT / "docs" / page
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("# "):
                return _cell(line[2:].strip())
    return page


def interpretation_markdown(note: Interpretation, from_page: str) -> str:
    """An Interpretation admonition with a stable id, linked to its calculator input."""
    depth = "../" * from_page.count("/")
    lines = [
        html("interpretation_title", rule=note.rule),
        "",
        f"**What the source leaves open.** {note.question}",
        "",
        f"**Our reading.** {note.reading}",
    ]
    if note.calculator:
        lines += ["", f"**Read it otherwise?** Set the `{note.input}` input of the [calculator]({depth}calculators/{note.calculator}.md)."]
    else:
        lines += ["", f"**Why no input.** {note.no_input}"]
    body = "\n".join(lines) + "\n"
    attrs = {"class": "admonition note interpretation", "id": note.anchor}
    return generated_block(attrs, body)


def sheet_note_markdown(note: Interpretation) -> str:
    """An Interpretation note as a sheet prints it: its rule, what the source leaves open and
    our reading, in the sheet's body type, one block that print keeps whole (``fm-table``).
    Not the web note's link to the input that reads it otherwise: paper has no calculator,
    and the reading itself names the calculator's choice or box where there is one."""
    body = f"\n**Interpretation: {note.rule}.** {note.question} *Our reading:* {note.reading}\n"
    return generated_block({"class": "fm-table sheet-note", "id": note.anchor}, body)


def interpretations_page() -> str:
    lines = [
        GENERATED_NOTE,
        "# Interpretations",
        "",
        "Where a source is silent, garbled or ambiguous we never invent a rule. Each case is listed here: "
        "what is unclear, the reading this site uses, and either the calculator input that lets you choose another "
        "or why no input is needed.",
        "",
    ]
    for sys_, mine in by_system(interpretations()):
        lines += [f"## {sys_.title}", "", "| Rule | What is unclear | Our reading | Choose otherwise |", "| --- | --- | --- | --- |"]
        for n in mine:
            where = f"[{_cell(n.rule)}](../{n.page}#{n.anchor})"
            choose = f"[`{n.input}`](../calculators/{n.calculator}.md)" if n.calculator else f"No input: {_cell(n.no_input)}"
            lines.append(f"| {where} | {_cell(n.question)} | {_cell(n.reading)} | {choose} |")
        lines.append("")
    return "\n".join(lines)


def term_usage() -> dict[str, list[str]]:
    """Glossary id -> the hand-written pages (docs paths) whose prose uses the term."""
    from scripts.hooks.term_links import find_terms

    usage: dict[str, list[str]] = {}
    for sys_ in SYSTEMS:
        folder = ROOT / "docs" / sys_.slug
        for path in sorted(folder.glob("*.md")) if folder.exists() else ():
            rel = path.relative_to(ROOT / "docs").as_posix()
            for term_id in find_terms(path.read_text(encoding="utf-8"), rel):
                usage.setdefault(term_id, []).append(rel)
    return usage


def glossary_page() -> str:
    lines = [
        GENERATED_NOTE,
        "# Glossary",
        "",
        "The terms the rules use, in plain words. Each links to the rule that defines it and to the pages that use it; "
        "on those pages the term is linked here, and hovering or tapping it shows the short definition.",
        "",
    ]
    usage = term_usage()
    for term in sorted(glossary(), key=lambda t: t.term.lower()):
        sys_ = system(term.system)
        used = [p for p in usage.get(term.id, []) if p != term.page]
        lines += [
            html("term_heading", id=term.id, term=term.term),
            "",
            f"{term.definition}",
            "",
            f"*{sys_.title}* · defined in [{_page_title(term.page)}](../{term.page}#{term.heading})",
        ]
        if used:
            lines[-1] += " · also used in " + ", ".join(f"[{_page_title(p)}](../{p})" for p in used)
        lines.append("")
    return "\n".join(lines)


def sources_table() -> str:
    """The Sources page's table (docs/sources.md includes it): each system, its credit, what we cover."""
    lines = ["| Rule system | Author or publisher | What we cover |", "| --- | --- | --- |"]
    lines += [f"| {_cell(s.title)} | {_cell(s.credit)} | {_cell(s.covers)} |" for s in SYSTEMS]
    return "\n".join(lines) + "\n"


def _fresh(folder: Path) -> None:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)


def build() -> None:
    if SNIPPETS.exists():
        shutil.rmtree(SNIPPETS)
    for sys_ in SYSTEMS:
        folder = SNIPPETS / sys_.slug
        folder.mkdir(parents=True, exist_ok=True)
        for table in all_tables(sys_.package):
            (folder / f"{table.id}.md").write_text(table_markdown(table), encoding="utf-8")
    for calc in calculators():
        (SNIPPETS / calc.system / f"calculator-{calc.id}.md").write_text(embed_markdown(calc), encoding="utf-8")
    (SNIPPETS / "sources.md").write_text(sources_table(), encoding="utf-8")

    sheets = SNIPPETS / "sheets"
    sheets.mkdir(parents=True, exist_ok=True)
    from scripts.build.sheet_odds import sheet_odds_markdown

    for sys_ in SYSTEMS:
        # Narrow tables are wrapped so that print styles can set them in two
        # columns; wide ones follow at full width, where they fit.
        tables = all_tables(sys_.package)
        narrow = "\n".join(table_markdown(t, sheet=True) for t in tables if not is_wide(t) or figures_missing(t))
        wide = "\n".join(table_markdown(t, sheet=True) for t in tables if is_wide(t) and not figures_missing(t))
        wrapped = html("markdown_block", attrs={"class": "sheet-tables"}, body="\n" + narrow) + f"\n\n{wide}"
        (sheets / f"{sys_.slug}-tables.md").write_text(wrapped, encoding="utf-8")
        odds = html("html_block", classes="sheet-tables", body=sheet_odds_markdown(sys_.slug)) + "\n"
        (sheets / f"{sys_.slug}-odds.md").write_text(GENERATED_NOTE + "\n" + odds, encoding="utf-8")
        (sheets / f"{sys_.slug}-meta.md").write_text(sheet_meta(sys_.slug), encoding="utf-8")
    (sheets / "index.md").write_text(sheets_index_table(), encoding="utf-8")
    (sheets / "home.md").write_text(home_sheets_line() + "\n", encoding="utf-8")
    (SNIPPETS / "home-calculators.md").write_text(home_calculators(), encoding="utf-8")
    (SNIPPETS / "home-systems.md").write_text(home_systems_line() + "\n", encoding="utf-8")

    for note in interpretations():
        (SNIPPETS / note.system / f"interpretation-{note.id}.md").write_text(interpretation_markdown(note, note.page), encoding="utf-8")
        (sheets / f"note-{note.id}.md").write_text(sheet_note_markdown(note), encoding="utf-8")

    _fresh(CALC_DOCS)
    (CALC_DOCS / "index.md").write_text(calculators_index(), encoding="utf-8")
    for calc in calculators():
        (CALC_DOCS / f"{calc.id}.md").write_text(calculator_page(calc), encoding="utf-8")

    _fresh(INTERP_DOCS)
    (INTERP_DOCS / "index.md").write_text(interpretations_page(), encoding="utf-8")
    _fresh(GLOSSARY_DOCS)
    (GLOSSARY_DOCS / "index.md").write_text(glossary_page(), encoding="utf-8")

    GENERATED_ASSETS.mkdir(parents=True, exist_ok=True)
    schema = [c.schema() for c in calculators()]
    (GENERATED_ASSETS / "calculators.json").write_text(json.dumps(schema, indent=1), encoding="utf-8")
    vendor_page_modules()


if __name__ == "__main__":
    build()
