"""Glossary terms and Interpretation notes: each note's input exists, the glossary has the
required terms, and (site tier) their targets and links exist on the built site."""

from __future__ import annotations

import pytest

import rules_py
from rules_py.reference import glossary, interpretations


def _page_html(site, page: str) -> str:
    stem = page[:-3]
    path = site / (stem[: -len("index")] if stem.endswith("index") else stem + "/") / "index.html"
    return path.read_text(encoding="utf-8")


@pytest.mark.site
def test_every_interpretation_is_shown_where_its_rule_is(site):
    for note in interpretations():
        html = _page_html(site, note.page)
        assert f'id="{note.anchor}"' in html, f"{note.id} is not on {note.page}"
        index = (site / "interpretations" / "index.html").read_text(encoding="utf-8")
        assert f"#{note.anchor}" in index


def test_interpretation_inputs_exist():
    for note in interpretations():
        if note.calculator:
            calc = rules_py.get(note.calculator)
            assert note.input in {f.name for f in calc.fields}, f"{note.id}: {note.calculator} has no input {note.input}"


@pytest.mark.site
def test_every_glossary_term_points_at_a_real_heading(site):
    glossary_html = (site / "glossary" / "index.html").read_text(encoding="utf-8")
    for term in glossary():
        assert f'id="{term.heading}"' in _page_html(site, term.page), f"{term.term}: no #{term.heading} on {term.page}"
        assert f'id="{term.id}"' in glossary_html


@pytest.mark.site
def test_every_glossary_term_is_linked_from_a_rules_page(site):
    from rules_py.systems import SYSTEMS

    rules_html = "".join(
        p.read_text(encoding="utf-8") for s in SYSTEMS if (site / s.slug).exists() for p in (site / s.slug).rglob("index.html")
    )
    for term in glossary():
        assert f'glossary/#{term.id}"' in rules_html, f"no rules page links the term {term.term!r}"


@pytest.mark.site
def test_term_links_skip_headings_and_tables_and_link_once_per_section(site):
    import re

    html = (site / "combat-hq" / "comms" / "index.html").read_text(encoding="utf-8")
    article = html[html.index("<article") : html.index("</article>")]
    for heading in re.findall(r"<h[1-6][^>]*>.*?</h[1-6]>", article, re.S):
        assert "glossary-term" not in heading
    for table in re.findall(r"<table>.*?</table>", article, re.S):
        assert "glossary-term" not in table
    for section in re.split(r"<h[1-6][^>]*>", article):
        links = re.findall(r'class="glossary-term" href="[^"]*#([a-z0-9-]+)"', section)
        assert len(links) == len(set(links)), "a term is linked twice in one section"
    # the tooltip text is the term's definition
    staff = next(t for t in glossary() if t.id == "staff-order")
    assert f'title="{staff.definition}"' in article.replace("&#x27;", "'").replace("&#39;", "'")


# The terms issue 3 names; each must be in the glossary under its own spelling or an alias.
REQUIRED_TERMS = (
    "pin", "Down", "order die", "Fire order", "ambush", "hidden", "flak", "FOO", "TRP", "beaten zone",
    "sheaf", "intensity", "DSU", "RSU", "REMO", "supply depot", "isolated", "Staff Order", "Wild Dice",
    "Reaction Dice", "Disruption", "Forced Back", "comms check",
)


def test_the_glossary_has_every_required_term():
    spellings = {s.lower() for t in glossary() for s in (t.term, *t.aliases)}
    missing = [term for term in REQUIRED_TERMS if term.lower() not in spellings]
    assert not missing
