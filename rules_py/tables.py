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
code looks rows up by and pages leave out. Loading checks all of this, so a table
that breaks its schema fails at import and in the tests, never in a page.
Procedures, pages and sheets all read the same loaded :class:`Table`.
"""

from __future__ import annotations

import csv
import io
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Mapping

COLUMN_TYPES = ("str", "int", "bool")


class TableError(ValueError):
    """A data table that does not match its schema."""


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    label: str
    optional: bool = False
    show: bool = True  # False for key columns that code looks rows up by

    def read(self, cell: str, where: str) -> Any:
        cell = cell.strip()
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
    """Load and check one table, e.g. ``load("combat_hq", "comms_dice")``."""
    schemas = _schemas(package)
    if table_id not in schemas:
        raise TableError(f"{package}: no table {table_id!r} in tables.toml")
    spec = schemas[table_id]
    where = f"{package}/data/{table_id}.csv"
    for key in ("title", "columns"):
        if key not in spec:
            raise TableError(f"{package}/tables.toml [{table_id}] lacks {key}")
    columns = []
    for col in spec["columns"]:
        if col.get("type") not in COLUMN_TYPES:
            raise TableError(f"{where}: column {col.get('name')} has type {col.get('type')!r}, not one of {COLUMN_TYPES}")
        columns.append(
            Column(col["name"], col["type"], col.get("label", col["name"]), bool(col.get("optional", False)), bool(col.get("show", True)))
        )
    text = resources.files(f"rules_py.{package}").joinpath("data", f"{table_id}.csv").read_text(encoding="utf-8")
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
    return Table(package, table_id, spec["title"], spec.get("note", ""), tuple(columns), tuple(rows))


def all_tables(package: str) -> tuple[Table, ...]:
    return tuple(load(package, t) for t in table_ids(package))
