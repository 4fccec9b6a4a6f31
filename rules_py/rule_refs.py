"""Where each roll's rule is written: a section of the site, by page and anchor.

A roll's record links to the rule it applies (the air strike chart's table,
say), so that a player checking a roll, seeded or their own, can read the
rule beside it. The reference is data, kept with the procedure that makes
the roll (a :class:`rules_py.dice.Label`'s ``rule``):

* :func:`of_table`: a rules table, at the anchor every rendered table has
  (``table-<id>``, its caption; ``scripts/build/build_pages.py`` writes it from
  :func:`table_anchor`), on the calculator's own page unless another is named;
* :func:`section`: a heading of a page, by its anchor.

A reference is checked when it is made (an anchor's form, a page's path);
that the page exists and has the anchor is checked by the tests, against the
docs and against the built site (tests/test_roll_log.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .tables import Table

if TYPE_CHECKING:
    from .answer import shapes

_ANCHOR = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_PAGE = re.compile(r"^([a-z0-9-]+/)*[a-z0-9-]+\.md$")


def table_anchor(table_id: str) -> str:
    """The anchor of a rendered table's caption: "table-air-strike-chart"."""
    return "table-" + table_id.replace("_", "-")


@dataclass(frozen=True)
class Rule:
    """A rule section: ``anchor`` on ``page`` (a docs path, "konflikt47/air-strikes.md";
    empty for the calculator's own page), and ``title``, what a link to it says."""

    anchor: str
    title: str
    page: str = ""

    def __post_init__(self) -> None:
        if not _ANCHOR.match(self.anchor):
            raise ValueError(f"rule reference: {self.anchor!r} is not an anchor")
        if self.page and not _PAGE.match(self.page):
            raise ValueError(f"rule reference: {self.page!r} is not a docs page")
        if not self.title:
            raise ValueError(f"rule reference #{self.anchor}: no title")

    def on(self, page: str) -> "Rule":
        """This reference with its page filled in (a calculator's own, when it names none)."""
        return self if self.page else Rule(self.anchor, self.title, page)


_TABLES: dict[tuple[str, str, str], Rule] = {}


def of_table(table: Table, page: str = "") -> Rule:
    """The section a rules table is shown in: its caption's anchor (made once per table and page)."""
    key = (table.system, table.id, page)
    rule = _TABLES.get(key)
    if rule is None:
        rule = _TABLES[key] = Rule(table_anchor(table.id), table.title, page)
    return rule


def section(anchor: str, title: str, page: str = "") -> Rule:
    """A page's section, by its heading's anchor."""
    return Rule(anchor, title, page)


def page_href(page: str) -> str:
    """A docs page's address from the site's root, as the site is built
    (directory addresses): "konflikt47/air-strikes.md" -> "konflikt47/air-strikes/"."""
    stem = page[: -len(".md")]
    if stem == "index":
        return ""
    if stem.endswith("/index"):
        return stem[: -len("index")]
    return stem + "/"


def rule_doc(rule: Rule, page: str) -> shapes.Rule:
    """A reference in the typed answer: the page and anchor, the link from the
    site's root (``href``) and what the link says (``title``)."""
    rule = rule.on(page)
    return {"page": rule.page, "anchor": rule.anchor, "href": f"{page_href(rule.page)}#{rule.anchor}", "title": rule.title}
