"""Plastic Ostfront tables: the data agrees with the source text, and the built
pages show exactly the data (read here from the raw CSV files, not the loader)."""

from __future__ import annotations

import csv
import html
import re
import tomllib

import pytest

from conftest import ROOT, SHARED
from rules_py.systems import system
from rules_py.tables import load
from test_site import TableAfterCaption

DATA = ROOT / "rules_py" / "plastic_ostfront" / "data"
SOURCE = SHARED / "sources" / system("plastic_ostfront").source
SCHEMA = tomllib.loads((DATA / "tables.toml").read_text(encoding="utf-8"))

# The source's tables 1, 2, 3, 5, 6, 7 (and the rest) and the page each is shown on.
PAGES = {
    "organisation": "index",
    "trp_markers": "artillery-shoot",
    "trp_reach": "artillery-shoot",
    "intensity": "artillery-shoot",
    "missions": "artillery-shoot",
    "beaten_zones_concentration": "artillery-shoot",
    "beaten_zones_bombardment": "artillery-shoot",
    "effectiveness_modifiers": "artillery-shoot",
    "effectiveness": "artillery-shoot",
    "hit_chance": "artillery-shoot",
    "hit_modifiers": "artillery-shoot",
    "damage": "artillery-shoot",
    "damage_modifiers": "artillery-shoot",
    "damage_effects": "artillery-shoot",
    "damage_effects_other": "artillery-shoot",
    "ammunition": "limitations",
    "safety_margins": "limitations",
    "cover": "cover",
    "counter_battery": "counter-battery",
}


def test_every_table_has_a_page():
    assert set(PAGES) == set(SCHEMA)


def raw_rows(table_id: str) -> list[dict[str, str]]:
    with open(DATA / f"{table_id}.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def shown_cell(text: str, column: dict) -> str:
    if text == "":
        return "—"
    if column["type"] == "bool":
        return {"true": "yes", "false": "no"}[text]
    return text


@pytest.mark.site
@pytest.mark.parametrize("table_id", sorted(PAGES))
def test_page_shows_the_raw_data(site, table_id):
    page = site / "plastic-ostfront" / ("" if PAGES[table_id] == "index" else PAGES[table_id]) / "index.html"
    parser = TableAfterCaption("table-" + table_id.replace("_", "-"))
    parser.feed(page.read_text(encoding="utf-8"))
    shown = [c for c in SCHEMA[table_id]["columns"] if c.get("show", True)]
    got = [[html.unescape(cell) for cell in row] for row in parser.rows]
    assert got[0] == [c["label"] for c in shown]
    assert got[1:] == [[shown_cell(r[c["name"]], c) for c in shown] for r in raw_rows(table_id)]


@pytest.mark.parametrize("table_id", ["beaten_zones_concentration", "beaten_zones_bombardment", "damage"])
def test_band_labels_agree_with_their_bounds(table_id):
    # "<N mm" bands carry below_mm = N; the open-ended band ("N mm+", ">N mm", rockets) has none.
    table = load("plastic_ostfront", table_id)
    label = "name" if table_id == "damage" else "calibre"
    for row in table.rows:
        m = re.match(r"<(\d+) mm", row[label])
        assert (int(m.group(1)) if m else None) == row["below_mm"], row[label]


def test_table_4_is_never_filled_in():
    for row in raw_rows("hit_chance"):
        assert [v for k, v in row.items() if k not in ("level", "intensity")] == ["missing"] * 5


# --- against the source text (where ../shared is beside this clone) -------------

source = pytest.mark.skipif(not SOURCE.exists(), reason="the source texts are not beside this clone")


def source_text() -> str:
    return SOURCE.read_text(encoding="utf-8")


@source
def test_tables_1_and_2_match_the_source():
    lines = source_text().splitlines()
    t1 = lines[lines.index("CALIBRE\tWIDTH\tDEPTH") + 1 :][:5]
    for line, row in zip(t1, raw_rows("beaten_zones_concentration")):
        band, width, depth = line.split("\t")
        assert band.replace("mm", " mm") == row["calibre"] and width == row["width_mm"] + "mm" and depth == row["depth_mm"] + "mm"
    start = [i for i, line in enumerate(lines) if line == "CALIBRE\tWIDTH\tDEPTH"][1]
    for line, row in zip(lines[start + 1 : start + 7], raw_rows("beaten_zones_bombardment")):
        width, depth = line.split("\t")[1:]
        assert (width.strip(), depth.replace(" ", "")) == (row["width_mm"] + "mm", row["depth_mm"] + "mm")


@source
def test_table_3_matches_the_source():
    text = source_text()
    for row in raw_rows("effectiveness_modifiers"):
        value = int(row["modifier_value"])
        assert f"{value:+d}" in text or f"{value}" in text
    assert "NON-FOO CALLING -1 INEXPERIENCED -1 VETERAN +1" in text
    assert "POOR -2 FOO IN AEROPLANE +1 TARGET >100mm FROM TRP -1" in text
    assert "CALLING ARTY NOT IN OWN COMMAND -2 RUSSIAN ARTY TARGET >300m FROM TRP -2 SUBSEQUENT IDENTICAL REQUEST +1" in text
    changes = {0: None, 1: -2, 2: -1, 3: -1, 4: 0, 5: 0, 6: 0}  # as the source's seven result lines read
    for row in raw_rows("effectiveness"):
        assert (int(row["intensity_change"]) if row["intensity_change"] else None) == changes[int(row["roll"])]
        assert (row["ammunition_used"] == "true") == (row["roll"] != "0")


@source
def test_table_5_matches_the_source():
    # e.g. "<156MM\t#1,3+ 1+{2+}(3+)[4+]\t3\t5\t6\t6 then 56"
    pattern = re.compile(r"#(\d)(?:,(\d)\+)? (\d)\+\{(\d)\+\}\((\d)\+\)\[(\d)\+\]\t(\d)\t(\w)\t(\w)\t(.+)$")
    lines = [line for line in source_text().splitlines() if pattern.search(line)]
    rows = raw_rows("damage")
    assert len(lines) == len(rows) == 5
    for line, row in zip(lines, rows):
        hits, second, op, ha, pr, fo, soft, open_afv, under_4, four_plus = pattern.search(line).groups()
        assert [hits, second or "", op, ha, pr, fo, soft] == [row[c] for c in ("inf_hits", "second_casualty", "inf_open", "inf_hasty", "inf_prepared", "inf_fortification", "soft")]
        assert (open_afv, under_4) == (row["open_afv"] or "X", row["afv_under_4"] or "X")
        if four_plus == "X":
            assert row["afv_4_plus"] == row["afv_4_plus_then"] == ""
        else:
            first, then = re.fullmatch(r"(\d) then (\d+)", four_plus).groups()
            assert first == row["afv_4_plus"] and then == "".join(str(n) for n in range(int(row["afv_4_plus_then"]), 7))


@source
def test_table_6_matches_the_source():
    text = source_text()
    assert "123 IMMOBILISED 45 SPEED 3\"MAX, TOW LOST 6 SPECIAL HIT" in text
    soft = [(r["from_roll"], r["to_roll"]) for r in raw_rows("damage_effects") if r["target"] == "soft_vehicle"]
    assert soft == [("1", "3"), ("4", "5"), ("6", "6")]
    assert all(s in text for s in ("1 IMMOBILISED", "2 SPEED 3\" MAX", "3 MAIN GUN DAMAGED FOR 1 DAY", "4,5,6 SPECIAL HIT"))
    afv = [(r["from_roll"], r["to_roll"]) for r in raw_rows("damage_effects") if r["target"] == "afv"]
    assert afv == [("1", "1"), ("2", "2"), ("3", "3"), ("4", "6")]
    assert "CLOSED AFV : TAKE HITS -1 , PINNED" in text
    closed = next(r for r in raw_rows("damage_effects_other") if r["case"] == "carried_closed_afv")
    assert (closed["hits_modifier"], closed["pinned"]) == ("-1", "true")


@source
def test_table_7_matches_the_source():
    lines = source_text().splitlines()
    rows = {r["cover"]: r for r in raw_rows("cover")}
    light = next(line for line in lines if line.startswith("LIGHT STRUCTURE")).split("\t")
    heavy = next(line for line in lines if line.startswith("HEAVY STRUCTURE")).split("\t")
    multi = next(line for line in lines if line.startswith("MULTI-STOREY")).split("\t")
    for cells, key in ((light, "light"), (heavy, "heavy"), (multi, "multi_storey")):
        r = rows[key]
        assert cells[2].lower() == r["value"] and cells[4].lower() == r["after_collapse"]
        assert cells[3].startswith(r["collapse_score"]) and cells[6].startswith(r["prepared_score"])
        assert cells[5].lower() == r["prepared_value"] and cells[7].lower() == r["prepared_after"]
        assert ("per level" in cells[3]) == (r["per_level"] == "true")
    for key, start in (("prepared_position", "PREPARED\t"), ("fortification", "FORTIFICATION\t")):
        cells = next(line for line in lines if line.startswith(start)).split("\t")
        assert (cells[3], cells[4].lower()) == (rows[key]["collapse_score"], rows[key]["after_collapse"])
    assert rows["hasty"]["collapse_score"] == ""


@source
def test_trp_markers_and_reach_match_the_source():
    text = source_text()
    markers = {r["marker"]: int(r["count"]) for r in raw_rows("trp_markers")}
    assert f"FOO can deploy {markers['trp']} Target Registration Point (TRP) markers" in text
    assert f"before the battle plus {markers['dummy']} dummies" in text
    reach = {r["reach"]: (int(r["within"]), r["unit"]) for r in raw_rows("trp_reach")}
    assert "called down this game turn upon enemy elements within {} {} of a marker".format(*reach["this_turn"]) in text
    assert "upon elements within {}{} of a marker with a possible penalty".format(*reach["far"]) in text
    assert "RED ARMY : INFLEXIBLE BUT CAN TARGET WITHIN {}{} OF A MARKER (WITH A PENALTY)".format(*reach["red_army"]) in text
