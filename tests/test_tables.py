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


# Constraints on values, one test per kind of violation. Each builds a small
# table in memory with the loader's own parse_table, so that the real data
# stays as it is; the last ones load the real tables with a reference broken.

from rules_py.tables import parse_table  # noqa: E402

NUMBERS = {"title": "t", "columns": [{"name": "key", "type": "str", "unique": True}, {"name": "n", "type": "int", "min": 2, "max": 6}]}


def parse(spec, text, other=None, known=("t",)):
    return parse_table("pkg", "t", spec, text, other or (lambda table_id: pytest.fail(f"no table {table_id}")), known)


def test_constraints_accept_values_within_them():
    table = parse(NUMBERS, "key,n\na,2\nb,6\n")
    assert table.column("n") == (2, 6)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("key,n\na,1\n", "below its minimum 2"),
        ("key,n\na,7\n", "above its maximum 6"),
        ("key,n\na,3\na,4\n", r"must be unique, but \['a'\] appear more than once"),
    ],
)
def test_bounds_and_uniqueness_are_checked(text, message):
    with pytest.raises(TableError, match=message):
        parse(NUMBERS, text)


def test_allowed_values_are_checked():
    spec = {"title": "t", "columns": [{"name": "cover", "type": "str", "values": ["none", "hasty"]}]}
    assert parse(spec, "cover\nhasty\n").column("cover") == ("hasty",)
    with pytest.raises(TableError, match=r"is 'fortress', not one of \['none', 'hasty'\]"):
        parse(spec, "cover\nfortress\n")


@pytest.mark.parametrize(
    ("column", "message"),
    [
        ({"name": "n", "type": "int", "minimum": 2}, r"unknown keys \['minimum'\]"),
        ({"name": "n", "type": "str", "min": 2}, "has bounds but is not an int column"),
        ({"name": "n", "type": "int", "max": "6"}, "max must be a whole number"),
        ({"name": "n", "type": "int", "values": ["2"]}, "values must be a list of int values"),
        ({"name": "n", "type": "int", "ref": "elsewhere"}, "ref must be 'table.column'"),
        ({"type": "int"}, "a column needs a name, not None"),
    ],
)
def test_a_bad_constraint_is_refused(column, message):
    with pytest.raises(TableError, match=message):
        parse({"title": "t", "columns": [column]}, "n\n2\n")


def test_unknown_table_keys_are_refused():
    with pytest.raises(TableError, match=r"unknown keys \['notes'\]"):
        parse({**NUMBERS, "notes": "a typo of note"}, "key,n\na,2\n")


def test_references_name_rows_of_the_other_table():
    levels = parse(NUMBERS, "key,n\nlow,2\nhigh,6\n")
    spec = {"title": "u", "columns": [{"name": "level", "type": "str", "ref": "t.key"}]}
    assert parse_table("pkg", "u", spec, "level\nlow\n", lambda table_id: levels, ("t", "u")).column("level") == ("low",)
    with pytest.raises(TableError, match=r"names \['middle'\], which t.key does not have"):
        parse_table("pkg", "u", spec, "level\nmiddle\n", lambda table_id: levels, ("t", "u"))
    by_number = {"title": "u", "columns": [{"name": "level", "type": "int", "ref": "t.n"}]}
    with pytest.raises(TableError, match="not a unique column"):
        parse_table("pkg", "u", by_number, "level\n2\n", lambda table_id: levels, ("t", "u"))


def test_references_within_one_table_and_to_table_ids():
    spec = {"title": "t", "columns": [{"name": "rank", "type": "str", "unique": True}, {"name": "counts_as", "type": "str", "optional": True, "ref": "t.rank"}]}
    assert parse(spec, "rank,counts_as\nmajor,\nhigher,major\n").column("counts_as") == (None, "major")
    with pytest.raises(TableError, match=r"names \['colonel'\]"):
        parse(spec, "rank,counts_as\nmajor,\nhigher,colonel\n")
    tables = {"title": "t", "columns": [{"name": "template", "type": "str", "ref": "tables"}]}
    assert parse(tables, "template\nt\n", known=("t",)).column("template") == ("t",)
    with pytest.raises(TableError, match=r"names \['table_9'\], which a table of this system does not have"):
        parse(tables, "template\ntable_9\n", known=("t",))


def test_a_real_reference_broken_fails_at_load(monkeypatch):
    # Plastic Ostfront's hit chance table names its rows by intensity level:
    # a level the intensity table lacks (9) is refused when the table loads.
    from rules_py import tables

    real = resources.files
    bad = resources.files("rules_py.plastic_ostfront").joinpath("data", "hit_chance.csv").read_text(encoding="utf-8").replace("\n3,", "\n9,", 1)

    class Files:
        def __init__(self, inner):
            self.inner = inner

        def joinpath(self, *parts):
            if parts[-1] != "hit_chance.csv":
                return self.inner.joinpath(*parts)
            return type("Bad", (), {"read_text": lambda self, encoding="utf-8": bad})()

    tables.load.cache_clear()
    monkeypatch.setattr(tables.resources, "files", lambda pkg: Files(real(pkg)))
    try:
        with pytest.raises(TableError, match=r"column level names \[9\], which intensity.level does not have"):
            tables.load("plastic_ostfront", "hit_chance")
    finally:
        monkeypatch.undo()
        tables.load.cache_clear()


def test_tables_that_refer_to_each_other_are_refused(monkeypatch):
    from rules_py import tables

    schemas = {
        "a": {"title": "a", "columns": [{"name": "k", "type": "str", "unique": True, "ref": "b.k"}]},
        "b": {"title": "b", "columns": [{"name": "k", "type": "str", "unique": True, "ref": "a.k"}]},
    }

    class Files:
        def joinpath(self, *parts):
            return type("CSV", (), {"read_text": lambda self, encoding="utf-8": "k\nx\n"})()

    tables.load.cache_clear()
    monkeypatch.setattr(tables, "_schemas", lambda package: schemas)
    monkeypatch.setattr(tables.resources, "files", lambda pkg: Files())
    try:
        with pytest.raises(TableError, match="refer to each other"):
            tables.load("cycle", "a")
    finally:
        monkeypatch.undo()
        tables.load.cache_clear()
