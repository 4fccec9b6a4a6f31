"""Schema checks for every rules table: each CSV has a schema and matches it, and the loader refuses a bad cell.

(How the tables are shown on the built pages is checked in test_site.py.)
"""

from __future__ import annotations

from importlib import resources

import pytest

from rules_py.systems import SYSTEMS
from rules_py.tables import COLUMN_TYPES, TableError, load, table_ids

TABLES = [(s.package, t) for s in SYSTEMS for t in table_ids(s.package)]


@pytest.mark.parametrize("package,table_id", TABLES, ids=[f"{p}/{t}" for p, t in TABLES])
def test_table_matches_its_schema(package, table_id):
    table = load(package, table_id)
    assert table.title and table.rows
    names = [c.name for c in table.columns]
    assert len(set(names)) == len(names)
    for col in table.columns:
        assert col.type in COLUMN_TYPES and col.label
        for row in table.rows:
            value = row[col.name]
            if value is None:
                assert col.optional, f"{table_id}.{col.name} is empty but not optional"
            else:
                assert isinstance(value, {"int": int, "str": str, "bool": bool}[col.type])


def test_every_csv_has_a_schema():
    for s in SYSTEMS:
        data = resources.files(f"rules_py.{s.package}").joinpath("data")
        if not data.is_dir():
            continue
        csvs = {p.name[:-4] for p in data.iterdir() if p.name.endswith(".csv")}
        assert csvs == set(table_ids(s.package)), f"{s.package}: CSV files and tables.toml disagree"


def test_loader_rejects_bad_cells(monkeypatch):
    from rules_py import tables

    tables.load.cache_clear()
    real = resources.files

    bad = "nation,name,dice\ngermany,Germany,four\n"

    class BadFile:
        def read_text(self, encoding="utf-8"):
            return bad

    class FakeFiles:
        def __init__(self, inner):
            self.inner = inner

        def joinpath(self, *parts):
            return BadFile() if parts[-1] == "comms_dice.csv" else self.inner.joinpath(*parts)

    monkeypatch.setattr(tables.resources, "files", lambda pkg: FakeFiles(real(pkg)))
    try:
        with pytest.raises(TableError, match="whole number"):
            tables.load("combat_hq", "comms_dice")
    finally:
        tables.load.cache_clear()
