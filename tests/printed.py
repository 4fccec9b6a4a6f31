"""What reaches paper: the captioned tables of a built page, the columns a printed PDF of it lost,
and the type sizes it prints at.

A table's column is on paper when its label is in the PDF's text (pdftotext
in content order) between that table's caption and the next caption. Values
cannot tell: small numbers like 4 or 5 are everywhere on a sheet, so a test
that looks for each value somewhere in the PDF passes with whole columns cut
off. Labels are compared with their whitespace collapsed (a header cell wraps
onto several lines), and without hyphens when a word was split at one.
"""

from __future__ import annotations

import html
import subprocess
from html.parser import HTMLParser
from pathlib import Path


def pdf_text(path: Path) -> str:
    """The PDF's text in content order (-raw: the order Chromium drew it, which is the page's order),
    so neither two printed columns nor the cells of neighbouring tables interleave."""
    return subprocess.run(["pdftotext", "-raw", str(path), "-"], capture_output=True, text=True, check=True).stdout


def squash(text: str) -> str:
    return " ".join(html.unescape(text).split())


class CaptionedTables(HTMLParser):
    """Each table caption of a page, with the labels in the first row of the first table after it."""

    def __init__(self):
        super().__init__()
        self.tables: list[tuple[str, list[str]]] = []
        self._caption: list[str] | None = None
        self._caption_depth = 0
        self._want_header = False
        self._in_table = 0
        self._row = 0
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if tag == "p" and "table-caption" in classes:
            self._caption, self._caption_depth = [], 1
            return
        if self._caption is not None and tag == "p":
            self._caption_depth += 1
        if tag == "table":
            self._in_table += 1
            if self._in_table == 1:
                self._row = 0
        elif tag == "tr" and self._in_table == 1:
            self._row += 1
        elif tag in ("th", "td") and self._in_table == 1 and self._row == 1 and self._want_header:
            self._cell = []

    def handle_endtag(self, tag):
        if tag == "p" and self._caption is not None:
            self._caption_depth -= 1
            if self._caption_depth == 0:
                self.tables.append((squash("".join(self._caption)), []))
                self._caption, self._want_header = None, True
        elif tag in ("th", "td") and self._cell is not None:
            self.tables[-1][1].append(squash("".join(self._cell)))
            self._cell = None
        elif tag == "table" and self._in_table:
            self._in_table -= 1
            if self._in_table == 0:
                self._want_header = False

    def handle_data(self, data):
        if self._caption is not None:
            self._caption.append(data)
        elif self._cell is not None:
            self._cell.append(data)


def captioned_tables(page_html: str) -> list[tuple[str, list[str]]]:
    parser = CaptionedTables()
    parser.feed(page_html)
    return parser.tables


def _find(text: str, needle: str, start: int) -> int:
    """Where needle is in text from start, whitespace collapsed already; -1 if nowhere."""
    return text.find(needle, start)


def lost_columns(page_html: str, printed_text: str) -> list[str]:
    """'caption: label' for every column label not printed between its table's caption and the next.

    A caption missing from the PDF (or out of order) loses all its columns.
    """
    text = squash(printed_text)
    bare = text.replace("-", "")
    tables = captioned_tables(page_html)
    starts, position = [], 0
    for caption, _ in tables:
        found = _find(text, caption, position)
        starts.append(found)
        if found >= 0:
            position = found + len(caption)
    lost = []
    for i, (caption, labels) in enumerate(tables):
        start = starts[i]
        if start < 0:
            lost += [f"{caption}: {label}" for label in labels] or [f"{caption}: (the caption itself)"]
            continue
        later = [s for s in starts[i + 1:] if s >= 0]
        end = later[0] if later else len(text)
        segment = text[start:end]
        # the same slice of the text with hyphens dropped, for words split at a hyphen
        bare_segment = bare[len(text[:start].replace("-", "")):len(text[:end].replace("-", ""))]
        for label in labels:
            if label not in segment and label.replace("-", "") not in bare_segment:
                lost.append(f"{caption}: {label}")
    return lost


def words(path: Path) -> list[tuple[int, float, float, float, str]]:
    """Every word of a PDF as (page, xMin, yMin, yMax, text), in pdftotext's reading order."""
    import re

    out = subprocess.run(["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True, check=True).stdout
    found = []
    for number, page in enumerate(re.findall(r"<page [^>]*>(.*?)</page>", out, re.S)):
        for x, y0, y1, text in re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)</word>', page):
            found.append((number, float(x), float(y0), float(y1), html.unescape(text)))
    return found


def captions_apart(page_html: str, path: Path, gap: float = 24.0, column: float = 250.0) -> list[str]:
    """Captions not printed just above their table.

    A caption is with its table when, at some place the caption is printed, the
    first word of the table's first header is on the same page, at most ``gap``
    points below the caption's last line and in the same column (no further
    right than ``column`` points, not left of the caption's start). Positions,
    not reading order: pdftotext reads a table's cells in no dependable order.
    """
    printed = words(path)
    texts = [w[4] for w in printed]
    apart = []
    for caption, labels in captioned_tables(page_html):
        if not labels:
            continue
        wanted, first_label = caption.split(), labels[0].split()[0]
        places = [i for i in range(len(texts) - len(wanted) + 1) if texts[i:i + len(wanted)] == wanted]
        if not places:
            apart.append(f"{caption}: caption not found")
            continue
        together = False
        for i in places:
            start, last = printed[i], printed[i + len(wanted) - 1]
            together |= any(
                head[4] == first_label and head[0] == last[0] and 0 <= head[2] - last[3] <= gap and -5 <= head[1] - start[1] <= column
                for head in printed
            )
        if not together:
            apart.append(f"{caption}: its table does not follow it (page {printed[places[0]][0] + 1})")
    return apart


def font_extents(path: Path) -> set[float]:
    """Each embedded font's height from descender to ascender, in ems (its FontDescriptor's /Ascent
    and /Descent, in thousandths of an em; Chromium writes them uncompressed)."""
    import re

    raw = path.read_bytes()
    found = re.findall(rb"/Type\s*/FontDescriptor\b.*?/Ascent\s+(-?[\d.]+).*?/Descent\s+(-?[\d.]+)", raw, re.S)
    return {round((float(a) - float(d)) / 1000, 4) for a, d in found}


def type_sizes(path: Path) -> list[float]:
    """The type size in points of every printed character (spaces aside), page by page.

    poppler draws each word's box from the font's descender to its ascender at
    the size the word is set in, so the size is the box's height over the font's
    extent in ems (for Liberation Sans, 1.117). A PDF whose fonts differ in
    extent cannot be read this way, and says so."""
    extents = font_extents(path)
    if len(extents) != 1:
        raise ValueError(f"{path.name}: fonts of different extents {sorted(extents)}: sizes cannot be read from word boxes")
    (extent,) = extents
    return [round((y1 - y0) / extent, 2) for _, _, y0, y1, text in words(path) for c in text if not c.isspace()]


def type_summary(sizes: list[float]) -> tuple[float, float]:
    """(median size in points, share of characters under 7 pt)."""
    ordered = sorted(sizes)
    middle = len(ordered) // 2
    median = ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    return median, sum(s < 7 for s in ordered) / len(ordered)
