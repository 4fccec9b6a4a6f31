"""The HTML the build writes, from Jinja2 templates (scripts/build/templates/), escaped.

Every element the build puts in a page (the generated pages' blocks and
captions, the sheets' odds grids, the calculators' embedded answers and head
scripts, the build's copy of a calculator) is a macro of a template there, one
file per module that writes it: ``pages.html`` (scripts/build/build_pages.py),
``sheet_odds.html`` (scripts/build/sheet_odds.py), ``calculator.html``
(scripts/hooks/calculator_hooks.py, scripts/build/render_calculators.py),
``policy.html`` (scripts/hooks/csp_hooks.py). A module calls one with
:func:`fragment`. The JavaScript modules the build generates are whole
templates, rendered with :func:`render`: ``grid-grammar.mjs.j2``
(scripts/build/schema_types.py), ``xz-decompress.mjs.j2``
(scripts/build/build_wheel.py).

Autoescape is on for ``.html`` templates, so a title, a note or a JSON answer
in an attribute is escaped wherever it lands (``'`` as ``&#39;``, ``"`` as
``&#34;``: what the browser reads is the text as it was). What is already
markup is passed through ``|safe`` in the template, each time with the reason:
Markdown the build made (a block's body, which Markdown then renders), an
inline script's text (a raw-text element, in which an entity is not decoded),
another macro's output. A generated JavaScript module (``*.mjs.j2``) is not
escaped: its values are JSON or source the caller made. Markdown itself is not HTML and is not escaped here:
the Markdown lines (tables, headings, links) stay in the modules that write
them, their cells escaped for Markdown (build_pages._cell).
"""

from __future__ import annotations

from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

TEMPLATES = Path(__file__).resolve().parent / "templates"

ENV = Environment(
    loader=FileSystemLoader(TEMPLATES),
    # HTML escaped; a generated JavaScript module (``.mjs.j2``: not a module itself, for the
    # linters) written as it is, its values JSON made by the caller.
    autoescape=lambda name: not (name or "").endswith(".mjs.j2"),
    undefined=StrictUndefined,  # a name a template uses and no caller gives fails the build
    # A block tag's line leaves no blank line or indent behind ({% for %} over a table's rows);
    # a whole template ends with its file's last newline (a macro strips its own: ``-%}``).
    trim_blocks=True,
    lstrip_blocks=True,
    keep_trailing_newline=True,
)


def fragment(template: str, macro: str, /, **context: object) -> str:
    """The HTML of one macro of a template (``{% macro name(...) %}``), called with ``context``."""
    module = ENV.get_template(template).module
    if not hasattr(module, macro):
        raise KeyError(f"{template} has no macro {macro!r}")
    return str(getattr(module, macro)(**context))


def render(template: str, /, **context: object) -> str:
    """A whole template, rendered with ``context``."""
    return ENV.get_template(template).render(context)
