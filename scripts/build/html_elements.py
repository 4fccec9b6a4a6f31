"""Where each element of a built page starts and ends, found by parsing it (``html.parser``).

The build adds to pages that mkdocs has made: a calculator's embedded answers
inside its element (scripts/hooks/calculator_hooks.py), scripts first in the
head and after the article, the policy after ``<meta charset>``
(scripts/hooks/csp_hooks.py), the build's copy of a calculator inside its
element (scripts/build/render_calculators.py). Those places are found here
by a parse of the page, not by a pattern matched against its text (which a
``<div`` in an attribute or a script, or an attribute in another order, would
fool); what is put there is a template's (scripts/build/page_templates.py).

:func:`elements` lists every element with its offsets in the page's text;
:func:`the_one` picks the one element a step relies on and fails when there
is none or more than one; :func:`splice` makes the edits, in one pass.
These edits stay on the built HTML (rather than in the theme's blocks) where
the place is inside the theme's own markup or the page's content: first in the
head, before the theme's first script; inside a calculator's element, which
Markdown makes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from html.parser import HTMLParser

# Elements that never have content or an end tag.
VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())


@dataclass(frozen=True)
class Element:
    """One element of a page: its tag, its attributes and four offsets in the page's text."""

    tag: str
    attrs: dict[str, str | None]
    start: int  # its start tag's "<"
    open_end: int  # just after its start tag's ">": where its content begins
    close_start: int  # its end tag's "<": where its content ends (open_end for a void element)
    end: int  # just after its end tag's ">"

    @property
    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()


class _Spans(HTMLParser):
    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.text = text
        self.line_starts = [0]
        for i, char in enumerate(text):
            if char == "\n":
                self.line_starts.append(i + 1)
        self.open: list[tuple[str, dict[str, str | None], int, int]] = []
        self.found: list[Element] = []

    def here(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self.here()
        open_end = start + len(self.get_starttag_text() or "")
        if tag in VOID:
            self.found.append(Element(tag, dict(attrs), start, open_end, open_end, open_end))
        else:
            self.open.append((tag, dict(attrs), start, open_end))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        start = self.here()
        open_end = start + len(self.get_starttag_text() or "")
        self.found.append(Element(tag, dict(attrs), start, open_end, open_end, open_end))

    def handle_endtag(self, tag: str) -> None:
        close_start = self.here()
        end = self.text.index(">", close_start) + 1
        if not any(t == tag for t, *_ in self.open):
            return  # an end tag with nothing open to close: ignored, as a browser does
        # Elements left open inside this one (an omitted </p> or </li>) end where it does.
        while self.open:
            t, attrs, start, open_end = self.open.pop()
            self.found.append(Element(t, attrs, start, open_end, close_start, end if t == tag else close_start))
            if t == tag:
                break


def elements(text: str) -> list[Element]:
    """Every element of an HTML page or fragment, in the order their start tags come."""
    parser = _Spans(text)
    parser.feed(text)
    parser.close()
    ends = len(text)
    parser.found += [Element(t, a, s, o, ends, ends) for t, a, s, o in parser.open]  # never closed: the text's end
    return sorted(parser.found, key=lambda e: e.start)


def the_one(found: Iterable[Element], what: str, test: Callable[[Element], bool]) -> Element:
    """The one element that passes ``test``; ``what`` names it in the error when there is none or several."""
    matches = [e for e in found if test(e)]
    if len(matches) != 1:
        raise ValueError(f"{len(matches)} {what} where the build needs exactly one")
    return matches[0]


def splice(text: str, edits: Iterable[tuple[int, int, str]]) -> str:
    """The text with each (start, end, piece) edit made, all at once: the span ``start:end`` of
    the original text replaced by the piece (put in, when ``start == end``). Spans must not
    overlap; pieces put in at one offset keep the order given."""
    out, pos = [], 0
    for start, end, piece in sorted(edits, key=lambda edit: edit[0]):
        if start < pos:
            raise ValueError(f"edits that overlap at {start}")
        out += [text[pos:start], piece]
        pos = end
    out.append(text[pos:])
    return "".join(out)
