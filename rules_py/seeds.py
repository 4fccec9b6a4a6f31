"""Seeds: the one parser that the CLI, :func:`rules_py.call_json` and the page share.

A roll is fixed by its calculator, its inputs and its seed, so two players who
agree on a seed see the same dice. A seed is written one of two ways:

* **A whole number** from 0 to 2**64 - 1 (18446744073709551615), in ASCII
  digits only. Leading zeros are allowed and do not change the number
  ("007" is 7). Other digit characters (``"²"``, Arabic-Indic digits) are
  refused: they look like numbers but Python's ``int()`` reads some and not
  others, and a player copying a seed must get exactly the dice shown.
* **A phrase** both players agree on in advance, such as ``Konrad day 3,
  sector 14``: any text with at least one letter that does not read as a
  number ("1e3", "0x10" are refused, not hashed), at most
  :data:`MAX_PHRASE` characters once the spaces around it are dropped. It
  becomes a number by a documented, stable hash: the SHA-256 digest of its
  UTF-8 bytes, first 8 bytes read big-endian. Every hashed phrase is
  therefore also a seed one can type as a number.

Two phrases that look the same must give the same dice, so a phrase is
normalised before it is hashed: to Unicode NFC (an "é" typed as one character
or as "e" and a combining accent is the same phrase), then its spaces are
made plain: every Unicode space separator (category Zs: the no-break space
U+00A0, the thin and narrow no-break spaces U+2009 and U+202F, the
ideographic space U+3000, ...) becomes an ASCII space, a run of them one
space, and those around the phrase are dropped. A phrase is printed in the
page's roll log as HTML text, where a run of spaces shows as one, and a
no-break space looks like any other: "dawn raid" typed with either, or with
two spaces, is the one phrase "dawn raid". A phrase already written with
single ASCII spaces and none around it is unchanged, and so are its dice.
A seed that holds a character one cannot see or type back
(a control character such as a tab or a newline, a zero-width or other format
character such as U+200B or a bidirectional mark, a line or paragraph
separator, a lone surrogate) is refused with :data:`INVISIBLE_RULE`, which
names the character, rather than hashed into dice nobody can reproduce.

Anything else (an empty seed, a sign, a decimal point, a number past 2**64 -
1, text with no letter, more than :data:`MAX_PHRASE` characters) is refused
with the one message :data:`SEED_RULE`, wherever it was typed. The length is
checked first, before any conversion, so a seed of thousands of digits is one
more bad seed, not a number Python refuses to read.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from .calculator import InputError, quoted

MAX_SEED = 2**64 - 1
MAX_PHRASE = 200
SEED_RULE = f"a seed is a whole number from 0 to {MAX_SEED} (digits 0-9 only) or a phrase with at least one letter, at most {MAX_PHRASE} characters"
INVISIBLE_RULE = "a seed cannot hold control or invisible characters (tabs, line breaks, zero-width or direction marks): type it again with letters, digits, spaces and punctuation only"
# Unicode categories refused in a seed: Cc control, Cf format (zero-width,
# direction marks, soft hyphen, BOM), Cs surrogate (no UTF-8 form), Zl and Zp
# line and paragraph separators.
_INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
_ASCII_DIGITS = frozenset("0123456789")
# Text that reads as a number other than a plain whole one ("1e3", "-2", "0x10",
# "1.5"): refused, not hashed, since a player typing it means a number.
_NUMBER_LIKE = re.compile(r"[+-]?(0[xob][0-9a-f_]+|([0-9]+\.?[0-9]*|\.[0-9]+)(e[+-]?[0-9]+)?)", re.IGNORECASE)


@dataclass(frozen=True)
class Seed:
    """A parsed seed: the number the dice are drawn from and, for a phrase, the phrase."""

    number: int
    phrase: str | None = None

    @property
    def text(self) -> str:
        """How the seed is written back (in links and commands): the phrase, or the number."""
        return self.phrase if self.phrase is not None else str(self.number)


def phrase_number(phrase: str) -> int:
    """The number a phrase stands for: SHA-256 of its UTF-8 bytes, first 8 bytes, big-endian."""
    return int.from_bytes(hashlib.sha256(phrase.encode("utf-8")).digest()[:8], "big")


def plain_spaces(text: str) -> str:
    """``text`` with every run of Unicode space separators (Zs) as one ASCII space, none at either end.

    Called once the invisible characters are refused: of what ``str.split()``
    splits on, only the Zs characters are left (the others, tabs, line breaks,
    U+001C to U+001F, U+0085, U+2028 and U+2029, are Cc, Zl or Zp), so
    splitting and joining with one space is exactly this."""
    return " ".join(text.split())


def parse_seed(raw: Any) -> Seed:
    """The seed ``raw`` names, or :class:`InputError` on the ``seed`` field.

    ``raw`` is what a player typed (a string) or, from Python callers, an int.
    """
    if isinstance(raw, int) and not isinstance(raw, bool):
        if 0 <= raw <= MAX_SEED:
            return Seed(raw)
        raise InputError(f"{quoted(raw)} is not allowed: {SEED_RULE}", "seed")
    if not isinstance(raw, str):
        raise InputError(f"{quoted(raw)} is not allowed: {SEED_RULE}", "seed")
    text = raw.strip()
    # Before any conversion: int() of thousands of digits raises, and
    # normalising a megabyte of text is work for nothing.
    if len(text) > MAX_PHRASE:
        raise InputError(f"{quoted(raw)} is not allowed: {SEED_RULE}", "seed")
    text = unicodedata.normalize("NFC", text)
    hidden = next((ch for ch in text if unicodedata.category(ch) in _INVISIBLE), None)
    if hidden is not None:
        name = unicodedata.name(hidden, "lone surrogate" if unicodedata.category(hidden) == "Cs" else "control character")
        raise InputError(f"{quoted(raw)} is not allowed: it holds U+{ord(hidden):04X} ({name.lower()}); {INVISIBLE_RULE}", "seed")
    text = plain_spaces(text)
    if text and set(text) <= _ASCII_DIGITS:
        number = int(text)
        if number <= MAX_SEED:
            return Seed(number)
    elif text and len(text) <= MAX_PHRASE and any(ch.isalpha() for ch in text) and not _NUMBER_LIKE.fullmatch(text):
        return Seed(phrase_number(text), text)
    raise InputError(f"{quoted(raw)} is not allowed: {SEED_RULE}", "seed")
