"""Rules tables as package data: one CSV per table, described in ``tables.toml``.

Each rule system keeps its tables in ``rules_py/<package>/data/``: a
``tables.toml`` with one ``[table_id]`` section per table::

    [comms_dice]
    title = "Comms dice by nation"          # our own words
    note = "optional sentence shown under the table"
    columns = [
      { name = "nation", type = "str", label = "Nation" },
      { name = "dice", type = "int", label = "Comms dice" },
    ]

and ``<table_id>.csv`` whose header row is exactly the column names. Types
are ``str``, ``int`` and ``bool`` (``true``/``false``); ``optional = true``
lets a cell be empty (read as None); ``show = false`` marks a key column that
code looks rows up by and pages leave out.

A column may also constrain its values, as a JSON Schema would (5etools checks
its data this way):

* ``min`` and ``max``: the bounds of an ``int`` column ("a die's target number
  is 2 to 6");
* ``values``: the values a column may take ("none", "hasty", ...);
* ``unique = true``: no two rows share a value (a key that rows are looked
  up by);
* ``ref = "table.column"``: every value names a row of a table of the same
  system (this one included) by that table's unique column, and ``ref =
  "tables"`` names a table of the system.

Loading checks all of this (a schema key it does not know included), so a
table that breaks its schema fails at import and in the tests, never in a
page. Procedures, pages and sheets all read the same loaded :class:`Table`.
"""

from __future__ import annotations

import csv
import io
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Callable, Mapping

COLUMN_TYPES = ("str", "int", "bool")
COLUMN_KEYS = frozenset({"name", "type", "label", "optional", "show", "min", "max", "values", "unique", "ref"})
TABLE_KEYS = frozenset({"title", "note", "columns"})
TABLES_REF = "tables"  # ref naming a table of the same system
_PY_TYPES = {"str": str, "int": int, "bool": bool}


class TableError(ValueError):
    """A data table that does not match its schema."""


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    label: str
    optional: bool = False
    show: bool = True  # False for key columns that code looks rows up by
    minimum: int | None = None
    maximum: int | None = None
    values: tuple[Any, ...] | None = None
    unique: bool = False
    ref: str = ""  # "table.column", or TABLES_REF

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], where: str) -> "Column":
        """A column from its tables.toml entry, the entry itself checked first."""
        name = spec.get("name")
        if not isinstance(name, str):
            raise TableError(f"{where}: a column needs a name, not {name!r}")
        unknown = sorted(set(spec) - COLUMN_KEYS)
        if unknown:
            raise TableError(f"{where}: column {name} has unknown keys {unknown}")
        kind = spec.get("type")
        if kind not in COLUMN_TYPES:
            raise TableError(f"{where}: column {name} has type {kind!r}, not one of {COLUMN_TYPES}")
        if ("min" in spec or "max" in spec) and kind != "int":
            raise TableError(f"{where}: column {name} has bounds but is not an int column")
        for key in ("min", "max"):
            if key in spec and (type(spec[key]) is not int):
                raise TableError(f"{where}: column {name}'s {key} must be a whole number")
        values = spec.get("values")
        if values is not None:
            if not isinstance(values, list) or not values or any(type(v) is not _PY_TYPES[kind] for v in values):
                raise TableError(f"{where}: column {name}'s values must be a list of {kind} values")
            values = tuple(values)
        ref = spec.get("ref", "")
        if ref and ref != TABLES_REF and ref.count(".") != 1:
            raise TableError(f"{where}: column {name}'s ref must be 'table.column' or {TABLES_REF!r}, not {ref!r}")
        return cls(
            name, kind, spec.get("label", name), bool(spec.get("optional", False)), bool(spec.get("show", True)),
            spec.get("min"), spec.get("max"), values, bool(spec.get("unique", False)), ref,
        )

    def read(self, cell: str, where: str) -> Any:
        """The typed value of one cell, checked against the column's constraints."""
        value = self._typed(cell.strip(), where)
        if value is None:
            return None
        if self.values is not None and value not in self.values:
            raise TableError(f"{where}: column {self.name} is {value!r}, not one of {list(self.values)}")
        if self.minimum is not None and value < self.minimum:
            raise TableError(f"{where}: column {self.name} is {value}, below its minimum {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise TableError(f"{where}: column {self.name} is {value}, above its maximum {self.maximum}")
        return value

    def _typed(self, cell: str, where: str) -> Any:
        if cell == "":
            if self.optional:
                return None
            raise TableError(f"{where}: column {self.name} is empty")
        if self.type == "int":
            try:
                return int(cell)
            except ValueError:
                raise TableError(f"{where}: column {self.name} needs a whole number, not {cell!r}") from None
        if self.type == "bool":
            if cell not in ("true", "false"):
                raise TableError(f"{where}: column {self.name} needs true or false, not {cell!r}")
            return cell == "true"
        return cell


@dataclass(frozen=True)
class Table:
    system: str  # package name of the rule system
    id: str
    title: str
    note: str
    columns: tuple[Column, ...]
    rows: tuple[Mapping[str, Any], ...]

    def column(self, name: str) -> tuple[Any, ...]:
        """Every value of one column, in row order."""
        return tuple(row[name] for row in self.rows)

    def row(self, key: str, value: Any) -> Mapping[str, Any]:
        """The one row whose ``key`` column equals ``value``."""
        found = [r for r in self.rows if r[key] == value]
        if len(found) != 1:
            raise KeyError(f"{self.system}/{self.id}: {len(found)} rows with {key} = {value!r}")
        return found[0]

    def lookup(self, key: str, value: Any, column: str) -> Any:
        return self.row(key, value)[column]


@lru_cache(maxsize=None)
def _schemas(package: str) -> dict[str, Any]:
    text = resources.files(f"rules_py.{package}").joinpath("data", "tables.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def table_ids(package: str) -> tuple[str, ...]:
    """The ids of a system's tables, in the order tables.toml gives them."""
    try:
        return tuple(_schemas(package))
    except FileNotFoundError:
        return ()


@lru_cache(maxsize=None)
def load(package: str, table_id: str) -> Table:
    """Load and check one table, e.g. ``load("combat_hq", "comms_dice")``; the
    tables it refers to are loaded (and checked) first."""
    schemas = _schemas(package)
    if table_id not in schemas:
        raise TableError(f"{package}: no table {table_id!r} in tables.toml")
    text = resources.files(f"rules_py.{package}").joinpath("data", f"{table_id}.csv").read_text(encoding="utf-8")
    return parse_table(package, table_id, schemas[table_id], text, lambda other: _load_ref(package, table_id, other), tuple(schemas))


_loading: list[tuple[str, str]] = []  # the tables being loaded, for a cycle of references


def _load_ref(package: str, table_id: str, other: str) -> Table:
    if (package, other) in _loading:
        raise TableError(f"{package}: tables {table_id} and {other} refer to each other")
    _loading.append((package, table_id))
    try:
        return load(package, other)
    finally:
        _loading.pop()


def parse_table(package: str, table_id: str, spec: Mapping[str, Any], text: str, other: Callable[[str], Table], known: tuple[str, ...]) -> Table:
    """One table from its schema entry and its CSV text, every constraint checked.

    ``other(id)`` gives another table of the same system (for ``ref``);
    ``known`` lists the ids of the system's tables (for ``ref = "tables"``)."""
    where = f"{package}/data/{table_id}.csv"
    for key in ("title", "columns"):
        if key not in spec:
            raise TableError(f"{package}/tables.toml [{table_id}] lacks {key}")
    unknown = sorted(set(spec) - TABLE_KEYS)
    if unknown:
        raise TableError(f"{package}/tables.toml [{table_id}] has unknown keys {unknown}")
    columns = tuple(Column.from_spec(col, where) for col in spec["columns"])
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if header != [c.name for c in columns]:
        raise TableError(f"{where}: header {header} does not match tables.toml {[c.name for c in columns]}")
    rows = []
    for n, cells in enumerate(reader, start=2):
        if not cells:
            continue
        if len(cells) != len(columns):
            raise TableError(f"{where} line {n}: {len(cells)} cells for {len(columns)} columns")
        rows.append(MappingProxyType({c.name: c.read(cell, f"{where} line {n}") for c, cell in zip(columns, cells)}))
    if not rows:
        raise TableError(f"{where}: no rows")
    for col in columns:
        found = [row[col.name] for row in rows if row[col.name] is not None]
        if col.unique and len(set(found)) != len(found):
            twice = sorted({v for v in found if found.count(v) > 1}, key=str)
            raise TableError(f"{where}: column {col.name} must be unique, but {twice} appear more than once")
    table = Table(package, table_id, spec["title"], spec.get("note", ""), columns, tuple(rows))
    for col in columns:
        if col.ref:
            _check_ref(where, col, table, other, known)
    return table


def _check_ref(where: str, col: Column, table: Table, other: Callable[[str], Table], known: tuple[str, ...]) -> None:
    found = [v for v in table.column(col.name) if v is not None]
    if col.ref == TABLES_REF:
        targets, what = set(known), "a table of this system"
    else:
        table_id, column = col.ref.split(".")
        target = table if table_id == table.id else other(table_id)
        keyed = next((c for c in target.columns if c.name == column), None)
        if keyed is None or not keyed.unique:
            raise TableError(f"{where}: column {col.name} refers to {col.ref}, which is not a unique column")
        targets, what = set(target.column(column)), col.ref
    missing = sorted({v for v in found if v not in targets}, key=str)
    if missing:
        raise TableError(f"{where}: column {col.name} names {missing}, which {what} does not have")


def all_tables(package: str) -> tuple[Table, ...]:
    return tuple(load(package, t) for t in table_ids(package))
