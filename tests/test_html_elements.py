"""The build's edits of built pages at parsed places (scripts/build/html_elements.py) and the
prerender's use of them (scripts/build/render_calculators.py's with_copies): small pages, no build."""

from __future__ import annotations

import pytest

from scripts.build.html_elements import elements, splice, the_one
from scripts.build.render_calculators import with_copies

PAGE = '<html><head><meta charset="utf-8"><title>t</title></head><body><div class="a" data-x="1 > 0"><p>one<p>two</div><br></body></html>'


def test_each_element_has_its_offsets():
    found = {e.tag + (e.attrs.get("class") or ""): e for e in elements(PAGE)}
    meta, div, br = found["meta"], found["diva"], found["br"]
    # Counted by hand: '<html><head>' is 12 characters, '<meta charset="utf-8">' 22.
    assert (meta.start, meta.open_end, meta.close_start, meta.end) == (12, 34, 34, 34)
    # A '>' inside an attribute's value does not end the start tag.
    assert PAGE[div.start : div.open_end] == '<div class="a" data-x="1 > 0">' and div.attrs["data-x"] == "1 > 0"
    assert PAGE[div.open_end : div.close_start] == "<p>one<p>two" and PAGE[div.close_start : div.end] == "</div>"
    # The first <p>, never closed, ends where the div's content does (the parse nests the second in it).
    ps = [e for e in elements(PAGE) if e.tag == "p"]
    assert [PAGE[p.open_end : p.close_start] for p in ps] == ["one<p>two", "two"]
    assert br.start == br.open_end - 4 and br.end == br.open_end  # void: no content, no end tag


def test_a_script_holding_markup_is_one_element():
    page = '<body><script>if (a < b) document.write("<div>")</script><div id="real"></div></body>'
    divs = [e for e in elements(page) if e.tag == "div"]
    assert [d.attrs for d in divs] == [{"id": "real"}]
    script = the_one(elements(page), "<script>", lambda e: e.tag == "script")
    assert page[script.open_end : script.close_start] == 'if (a < b) document.write("<div>")'


def test_the_one_fails_on_none_and_on_several():
    with pytest.raises(ValueError, match="0 <article> where the build needs exactly one"):
        the_one(elements(PAGE), "<article>", lambda e: e.tag == "article")
    with pytest.raises(ValueError, match="2 <p>"):
        the_one(elements(PAGE), "<p>", lambda e: e.tag == "p")


def test_splice_puts_in_and_replaces_in_one_pass():
    assert splice("abcdef", [(3, 3, "X"), (0, 1, ""), (3, 3, "Y"), (5, 6, "Z")]) == "bcXYdeZ"
    with pytest.raises(ValueError, match="overlap"):
        splice("abcdef", [(0, 3, ""), (2, 4, "")])


ANSWERS = '<div class="fm-prerendered" hidden data-answers="[]" data-own-page></div>'
NOTE = '<p class="fm-placeholder">needs JavaScript</p>'
COPY = '<div class="fm-static fm-calculator"><div class="fm-intro"></div><ul class="fm-summary-list"><li>50%</li></ul></div>'


def test_the_copy_goes_first_in_the_root_with_the_embeds_introduction_in_it():
    root = '<div class="calculator" data-calculator="x">'
    page = f"<html><head></head><body>{root}<p><strong>X</strong>: what it does</p>\n{NOTE}{ANSWERS}</div></body></html>"
    out = with_copies(page, [("x", COPY)])
    copy = COPY.replace('<div class="fm-intro"></div>', '<div class="fm-intro"><p><strong>X</strong>: what it does</p></div>')
    assert out == f"<html><head></head><body>{root}{copy}{NOTE}{ANSWERS}</div></body></html>"


def test_a_calculators_own_page_waits_for_the_copys_answer():
    root = '<div class="calculator" data-calculator="x">'
    page = f"<html><head><title>t</title>\n  </head><body>{root}{NOTE}{ANSWERS}</div></body></html>"
    out = with_copies(page, [("x", COPY)], own_page=True)
    assert '\n  <link rel="expect" href="#static-fm-answer-x" blocking="render"></head>' in out
    assert '<ul class="fm-summary-list" id="static-fm-answer-x"><li>50%</li></ul>' in out
    with pytest.raises(ValueError, match="not the browser's"):
        with_copies(page, [("y", COPY)])
