"""Reference data beside the tables: glossary terms and Interpretation notes.

Each rule system may keep, in ``rules_py/<package>/data/``:

``glossary.toml``: terms the system's rules use, one ``[[term]]`` each::

    [[term]]
    term = "Staff Order"                  # as the rules spell it
    id = "staff-order"                    # anchor on the glossary page, stable
    definition = "One or two sentences in our own words."
    page = "combat-hq/comms.md"           # the docs page that defines it
    heading = "boosts-and-air-recon"      # the anchor of the defining heading
    aliases = ["Staff Orders"]            # other spellings to link (optional)

``interpretations.toml``: where a source is silent, garbled or ambiguous,
one ``[[note]]`` each::

    [[note]]
    id = "chq-deviation-hit-faces"        # anchor: #interpretation-<id>, stable
    rule = "Deviation"                    # the rule concerned
    page = "combat-hq/artillery.md"       # the page that shows the note
    question = "What the source leaves open, in our words."
    reading = "The reading the site and the calculators use."
    calculator = "chq-deviation"          # optional: the calculator, and
    input = "hit_faces"                   # its input that lets a player choose otherwise
    no_input = "Why no input is offered." # instead of calculator and input

A note without an input says why in ``no_input``: no other reading changes any
odds, or none that a player could take changes them, or the calculator takes
the matter as a figure the player enters anyway. Loading refuses a note that has
neither an input nor that reason, and one that has both.

A note with an input states that input's default only as ``{default}`` in its
``reading`` (for example "The die has {default} Hit faces ..."): loading fills
it in from the calculator's own Field, so the note and the calculator cannot
disagree. A choice reads as its label, a number as itself, a tick box as
"ticked" or "not ticked". Loading refuses a note with an input whose reading
has no ``{default}``, and one without an input whose reading has one.

Loading checks the keys and types, and that a note's calculator and input
exist; the tests check that pages and anchors exist.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from .systems import SYSTEMS
from .tables import TableError

if TYPE_CHECKING:
    from .calculator import Field

_ANCHOR = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


@dataclass(frozen=True)
class Term:
    system: str  # slug
    term: str
    id: str
    definition: str
    page: str
    heading: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Interpretation:
    system: str  # slug
    id: str
    rule: str
    page: str
    question: str
    reading: str  # with the input's default filled in
    calculator: str = ""
    input: str = ""
    no_input: str = ""  # why no input is offered (only without one)

    @property
    def anchor(self) -> str:
        return f"interpretation-{self.id}"


def _read(package: str, name: str) -> dict[str, Any]:
    path = resources.files(f"rules_py.{package}").joinpath("data", name)
    if not path.is_file():
        return {}
    return tomllib.loads(path.read_text(encoding="utf-8"))


def _fields(entry: dict[str, Any], where: str, required: tuple[str, ...], optional: tuple[str, ...]) -> dict[str, Any]:
    unknown = set(entry) - set(required) - set(optional)
    if unknown:
        raise TableError(f"{where}: unknown keys {sorted(unknown)}")
    for key in required:
        if not isinstance(entry.get(key), str) or not entry[key].strip():
            raise TableError(f"{where}: {key} must be non-empty text")
    if not _ANCHOR.match(entry["id"]):
        raise TableError(f"{where}: id {entry['id']!r} must be lower-case words joined by hyphens")
    return entry


@lru_cache(maxsize=None)
def glossary() -> tuple[Term, ...]:
    """Every system's terms, in site order of systems, then file order."""
    terms = []
    for s in SYSTEMS:
        for i, entry in enumerate(_read(s.package, "glossary.toml").get("term", [])):
            where = f"{s.package}/data/glossary.toml term {i + 1}"
            e = _fields(entry, where, ("term", "id", "definition", "page", "heading"), ("aliases",))
            aliases = e.get("aliases", [])
            if not isinstance(aliases, list) or not all(isinstance(a, str) and a for a in aliases):
                raise TableError(f"{where}: aliases must be a list of text")
            terms.append(Term(s.slug, e["term"], e["id"], e["definition"], e["page"], e["heading"], tuple(aliases)))
    ids = [t.id for t in terms]
    dupes = {i for i in ids if ids.count(i) > 1}
    if dupes:
        raise TableError(f"glossary ids used twice: {sorted(dupes)}")
    return tuple(terms)


DEFAULT = "{default}"


def default_words(calculator: str, name: str, where: str = "") -> str:
    """A calculator input's default as a note states it (see the module docstring)."""
    from .formats import format_value
    from .registry import get  # late: the registry imports every calculator module

    try:
        fields = {f.name: f for f in get(calculator).fields}
    except ValueError:
        raise TableError(f"{where}: no calculator {calculator!r}") from None
    if name not in fields:
        raise TableError(f"{where}: {calculator} has no input {name!r}")
    field = fields[name]
    if field.type == "choice":
        return next(c.label for c in field.choices if c.name == field.default)
    if field.type == "bool":
        return "ticked" if field.default else "not ticked"
    return format_value(field.default)


def interpretation(system: str, entry: dict[str, Any], where: str) -> Interpretation:
    """One checked note, its reading's ``{default}`` filled in from its input."""
    e = dict(_fields(entry, where, ("id", "rule", "page", "question", "reading"), ("calculator", "input", "no_input")))
    if bool(e.get("calculator")) != bool(e.get("input")):
        raise TableError(f"{where}: calculator and input go together")
    if DEFAULT in e["question"]:
        raise TableError(f"{where}: only the reading may state the input's default")
    if e.get("input"):
        if e["reading"].count(DEFAULT) != 1:
            raise TableError(f"{where}: the reading must state the input's default once, as {DEFAULT}")
        e["reading"] = e["reading"].replace(DEFAULT, default_words(e["calculator"], e["input"], where))
        if e.get("no_input"):
            raise TableError(f"{where}: a note with an input needs no no_input reason")
    elif DEFAULT in e["reading"]:
        raise TableError(f"{where}: {DEFAULT} in a note without an input")
    elif not (isinstance(e.get("no_input"), str) and e["no_input"].strip()):
        raise TableError(f"{where}: a note without an input must say why in no_input")
    if DEFAULT in e.get("no_input", ""):
        raise TableError(f"{where}: only the reading may state the input's default")
    return Interpretation(system, **e)


@lru_cache(maxsize=None)
def interpretations() -> tuple[Interpretation, ...]:
    notes = []
    for s in SYSTEMS:
        for i, entry in enumerate(_read(s.package, "interpretations.toml").get("note", [])):
            notes.append(interpretation(s.slug, entry, f"{s.package}/data/interpretations.toml note {i + 1}"))
    ids = [n.id for n in notes]
    dupes = {i for i in ids if ids.count(i) > 1}
    if dupes:
        raise TableError(f"interpretation ids used twice: {sorted(dupes)}")
    return tuple(notes)


def reading_of(field: Field) -> Interpretation | None:
    """The Interpretation note an input is a reading of: the note names the input of one
    calculator, and a calculator that takes that very input from it (the fire mission takes
    the fire for effect's) chooses the same reading."""
    from .registry import get  # late: the registry imports every calculator module

    for note in interpretations():
        if note.input and any(f == field for f in get(note.calculator).fields if f.name == note.input):
            return note
    return None
