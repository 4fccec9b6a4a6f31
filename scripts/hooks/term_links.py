"""Link glossary terms in rules pages to their glossary entries, with tooltips.

A Python-Markdown tree processor, switched on for the site by the hook in
``scripts/hooks/term_link_hooks.py``. In a page under a rule system's folder it turns
the first occurrence, in each section, of each of that system's glossary terms
(or an alias) into ``<a class="glossary-term" href="…/glossary/#<id>"
title="<definition>">``; mkdocs-material's ``content.tooltips`` feature shows
the title as a tooltip on hover, and on a touch screen
``docs/assets/term-popover.mjs`` shows it over the text, under the term, when the term is tapped,
with a link to the entry. It works on the parsed
element tree, so headings, tables, code, existing links, abbreviations and
table captions are skipped by construction, not by pattern-matching Markdown.

``find_terms`` is also what the glossary page uses to list where each term is
used, so the two cannot disagree.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from collections.abc import Iterable

from markdown import Extension, Markdown
from markdown.treeprocessors import Treeprocessor

from rules_py.reference import Term, glossary

HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
# Elements whose text is never linked: numbers tables, code, links, and labels.
SKIP = {"table", "pre", "code", "a", "abbr", "script", "style", "button", "label", "summary", *HEADINGS}
SKIP_CLASSES = {"table-caption", "admonition-title", "calculator"}


def _pattern(spelling: str) -> str:
    """A term with capitals matches exactly; a lower-case one also with a capital first letter."""
    body = re.escape(spelling)
    if spelling == spelling.lower():
        body = f"[{re.escape(spelling[0])}{re.escape(spelling[0].upper())}]{re.escape(spelling[1:])}"
    return rf"(?<![\w'-]){body}(?![\w-])"


def compile_terms(terms: Iterable[Term]) -> tuple[re.Pattern[str], dict[str, Term]]:
    """One regex over every spelling, longest first so "fire dice" beats "fire"."""
    by_spelling: dict[str, Term] = {}
    for term in terms:
        for spelling in (term.term, *term.aliases):
            by_spelling[spelling] = term
    spellings = sorted(by_spelling, key=len, reverse=True)
    if not spellings:
        return re.compile(r"(?!x)x"), {}
    return re.compile("|".join(f"({_pattern(s)})" for s in spellings)), {s: by_spelling[s] for s in spellings}


def system_of(page_path: str) -> str | None:
    """The rule system a docs page belongs to, by its first folder."""
    first = page_path.replace("\\", "/").split("/")[0]
    return first if any(t.system == first for t in glossary()) else None


def terms_for(page_path: str) -> list[Term]:
    slug = system_of(page_path)
    return [t for t in glossary() if t.system == slug] if slug else []


def _lookup(match: re.Match[str], spellings: dict[str, Term]) -> Term:
    text = match.group(0)
    return spellings.get(text) or spellings[text[0].lower() + text[1:]]


# Python-Markdown ships no types (no py.typed; its stubs are not in the lock), so its classes are Any to mypy.
class TermLinker(Treeprocessor):  # type: ignore[misc]
    def __init__(self, md: Markdown, ext: TermLinksExtension) -> None:
        super().__init__(md)
        self.ext = ext

    def run(self, root: etree.Element) -> None:
        page = self.ext.page
        if not page:
            return
        terms = terms_for(page)
        if not terms:
            return
        pattern, spellings = compile_terms(terms)
        glossary_url = "../" * page.count("/") + ("../" if not page.endswith("index.md") else "") + "glossary/"
        self.linked: set[str] = set()
        self._walk(root, pattern, spellings, glossary_url)

    def _walk(self, element: etree.Element, pattern: re.Pattern[str], spellings: dict[str, Term], url: str) -> None:
        for child in list(element):
            if child.tag in HEADINGS:
                self.linked = set()  # a new section: terms may be linked again
                continue
            classes = set((child.get("class") or "").split())
            if child.tag in SKIP or classes & SKIP_CLASSES:
                continue
            self._link_text(child, pattern, spellings, url)
            self._walk(child, pattern, spellings, url)
            self._link_tail(element, child, pattern, spellings, url)

    def _split(self, text: str, pattern: re.Pattern[str], spellings: dict[str, Term], url: str) -> tuple[str, list[etree.Element]] | None:
        """(text before the first new term, [anchor elements, each with the text after it as its tail])."""
        anchors: list[etree.Element] = []
        head: str | None = None
        pos = 0
        for match in pattern.finditer(text):
            term = _lookup(match, spellings)
            if term.id in self.linked:
                continue
            self.linked.add(term.id)
            if head is None:
                head = text[: match.start()]
            else:
                anchors[-1].tail = text[pos : match.start()]
            a = etree.Element("a", {"href": f"{url}#{term.id}", "title": term.definition, "class": "glossary-term"})
            a.text = match.group(0)
            anchors.append(a)
            pos = match.end()
        if head is None:
            return None
        anchors[-1].tail = text[pos:]
        return head, anchors

    def _link_text(self, element: etree.Element, pattern: re.Pattern[str], spellings: dict[str, Term], url: str) -> None:
        """Terms in an element's own text: anchors become its first children."""
        split = self._split(element.text, pattern, spellings, url) if element.text else None
        if split:
            element.text, anchors = split
            for i, a in enumerate(anchors):
                element.insert(i, a)

    def _link_tail(self, parent: etree.Element, child: etree.Element, pattern: re.Pattern[str], spellings: dict[str, Term], url: str) -> None:
        """Terms in the text after a child: anchors follow the child in its parent."""
        split = self._split(child.tail, pattern, spellings, url) if child.tail else None
        if split:
            child.tail, anchors = split
            index = list(parent).index(child)
            for i, a in enumerate(anchors, start=index + 1):
                parent.insert(i, a)


class TermLinksExtension(Extension):  # type: ignore[misc]  # Python-Markdown's: Any to mypy (above)
    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.page: str | None = None  # the docs path being converted, set by the hook

    def extendMarkdown(self, md: Markdown) -> None:
        # After inline processing (priority 20) so links, code and abbreviations exist as elements.
        md.treeprocessors.register(TermLinker(md, self), "fire_mission_term_links", 5)


def find_terms(markdown_text: str, page_path: str) -> set[str]:
    """Glossary ids whose term (or an alias) appears in a page's prose, outside code and headings."""
    pattern, spellings = compile_terms(terms_for(page_path))
    if not spellings:
        return set()
    found = set()
    in_fence = False
    for line in markdown_text.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence or stripped.startswith(("#", "|", "--8<--", "<")):
            continue
        line = re.sub(r"`[^`]*`", "", line)
        found |= {_lookup(m, spellings).id for m in pattern.finditer(line)}
    return found
