"""Glossary terms and Interpretation notes: each note's input exists, the glossary has the
required terms, and (site tier) their targets and links exist on the built site."""

from __future__ import annotations

import re

import pytest

import rules_py
from conftest import ROOT
from rules_py.reference import DEFAULT, default_words, glossary, interpretation, interpretations
from rules_py.tables import TableError


def _page_html(site, page: str) -> str:
    stem = page[:-3]
    path = site / (stem[: -len("index")] if stem.endswith("index") else stem + "/") / "index.html"
    return path.read_text(encoding="utf-8")


@pytest.mark.site
def test_every_interpretation_is_shown_where_its_rule_is(site):
    for note in interpretations():
        html = _page_html(site, note.page)
        assert f'id="{note.anchor}"' in html, f"{note.id} is not on {note.page}"
        index = (site / "interpretations" / "index.html").read_text(encoding="utf-8")
        assert f"#{note.anchor}" in index


def test_interpretation_inputs_exist():
    for note in interpretations():
        if note.calculator:
            calc = rules_py.get(note.calculator)
            assert note.input in {f.name for f in calc.fields}, f"{note.id}: {note.calculator} has no input {note.input}"


def _raw_notes():
    """Every note as written in its interpretations.toml, before loading fills it in."""
    import tomllib
    from importlib import resources

    from rules_py.systems import SYSTEMS

    for s in SYSTEMS:
        path = resources.files(f"rules_py.{s.package}").joinpath("data", "interpretations.toml")
        if path.is_file():
            yield from tomllib.loads(path.read_text(encoding="utf-8"))["note"]


def test_a_note_states_its_inputs_default_from_the_field():
    # One source (issue 18): the note's text holds {default}, never a copy of the value.
    loaded = {n.id: n for n in interpretations()}
    with_input = [raw for raw in _raw_notes() if raw.get("input")]
    assert len(with_input) >= 25
    for raw in with_input:
        assert raw["reading"].count(DEFAULT) == 1, raw["id"]
        note = loaded[raw["id"]]
        field = next(f for f in rules_py.get(note.calculator).fields if f.name == note.input)
        words = default_words(note.calculator, note.input)
        assert DEFAULT not in note.reading and words in note.reading, note.id
        assert note.reading == raw["reading"].replace(DEFAULT, words)
        if field.type == "choice":
            assert words == next(c.label for c in field.choices if c.name == field.default)
        elif field.type == "bool":
            assert words == ("ticked" if field.default else "not ticked")
        else:
            assert words == str(field.default)


def test_the_stated_default_follows_the_field():
    # Hand-checked values: the deviation die's note says 2 Hit faces because the field's default is 2,
    # and the collapse note says 1D6 because dice_thrown defaults to 1.
    loaded = {n.id: n for n in interpretations()}
    assert loaded["chq-deviation-hit-faces"].reading.startswith("The die has 2 Hit faces")
    assert "throws 1D6 plus barrage points" in loaded["po-collapse-dice"].reading
    assert "the choice “Along friendly sectors”" in loaded["konrad-sector-count"].reading
    assert "box for this starts ticked" in loaded["chq-cover-dice-sixes"].reading


@pytest.mark.parametrize(
    "change, message",
    [
        ({"reading": "Two Hit faces and four arrows."}, "must state the input's default once"),
        ({"reading": "{default} or {default}"}, "must state the input's default once"),
        ({"input": "no_such_input"}, "has no input 'no_such_input'"),
        ({"calculator": "no-such-calculator"}, "no calculator"),
        ({"calculator": "", "input": ""}, "without an input"),
        ({"no_input": "No odds depend on it."}, "needs no no_input reason"),
        ({"question": "Is it {default}?"}, "only the reading"),
    ],
)
def test_a_note_that_copies_or_misnames_its_default_is_refused(change, message):
    good = {
        "id": "chq-deviation-hit-faces",
        "rule": "Deviation die faces",
        "page": "combat-hq/artillery.md",
        "question": "How many faces read Hit?",
        "reading": "The die has {default} Hit faces.",
        "calculator": "chq-deviation",
        "input": "hit_faces",
    }
    assert interpretation("combat-hq", good, "test").reading == "The die has 2 Hit faces."
    with pytest.raises(TableError, match=message):
        interpretation("combat-hq", {**good, **change}, "test")


def test_rendered_notes_carry_no_placeholder():
    from scripts.build.build_pages import interpretation_markdown, interpretations_page

    for note in interpretations():
        assert DEFAULT not in interpretation_markdown(note, note.page)
    assert DEFAULT not in interpretations_page()


# 40x40 is the scenario map a sector's battle is fought on (issue 17); the rules give no campaign map size.
CAMPAIGN_SIZE = re.compile(r"40\s*(x|by|×)\s*40|40 sectors|40 rows|sectors along each side", re.I)


def test_nothing_states_a_40_by_40_campaign_map():
    from conftest import ROOT

    hand_written = [p for p in (ROOT / "docs").rglob("*.md") if p.parts[len(ROOT.parts) + 1] not in ("calculators", "glossary", "interpretations", "assets")]
    data = [p for p in (ROOT / "rules_py").rglob("*") if p.suffix in (".toml", ".csv")]
    assert hand_written and data
    for path in hand_written + data:
        assert not CAMPAIGN_SIZE.search(path.read_text(encoding="utf-8")), path
    for term in glossary():
        assert not CAMPAIGN_SIZE.search(term.definition), term.id
    # The check bites on the old wording.
    assert CAMPAIGN_SIZE.search("a scenario map is 40 sectors by 40") and CAMPAIGN_SIZE.search("over 40 by 40")


@pytest.mark.site
def test_every_glossary_term_points_at_a_real_heading(site):
    glossary_html = (site / "glossary" / "index.html").read_text(encoding="utf-8")
    for term in glossary():
        assert f'id="{term.heading}"' in _page_html(site, term.page), f"{term.term}: no #{term.heading} on {term.page}"
        assert f'id="{term.id}"' in glossary_html


@pytest.mark.site
def test_every_glossary_term_is_linked_from_a_rules_page(site):
    from rules_py.systems import SYSTEMS

    rules_html = "".join(
        p.read_text(encoding="utf-8") for s in SYSTEMS if (site / s.slug).exists() for p in (site / s.slug).rglob("index.html")
    )
    for term in glossary():
        assert f'glossary/#{term.id}"' in rules_html, f"no rules page links the term {term.term!r}"


@pytest.mark.site
def test_term_links_skip_headings_and_tables_and_link_once_per_section(site):
    import re

    html = (site / "combat-hq" / "comms" / "index.html").read_text(encoding="utf-8")
    article = html[html.index("<article") : html.index("</article>")]
    for heading in re.findall(r"<h[1-6][^>]*>.*?</h[1-6]>", article, re.S):
        assert "glossary-term" not in heading
    for table in re.findall(r"<table>.*?</table>", article, re.S):
        assert "glossary-term" not in table
    for section in re.split(r"<h[1-6][^>]*>", article):
        links = re.findall(r'class="glossary-term" href="[^"]*#([a-z0-9-]+)"', section)
        assert len(links) == len(set(links)), "a term is linked twice in one section"
    # the tooltip text is the term's definition
    staff = next(t for t in glossary() if t.id == "staff-order")
    assert f'title="{staff.definition}"' in article.replace("&#x27;", "'").replace("&#39;", "'")


# The terms issue 3 names; each must be in the glossary under its own spelling or an alias.
REQUIRED_TERMS = (
    "pin", "Down", "order die", "Fire order", "ambush", "hidden", "flak", "FOO", "TRP", "beaten zone",
    "sheaf", "intensity", "DSU", "RSU", "REMO", "supply depot", "isolated", "Staff Order", "Wild Dice",
    "Reaction Dice", "Disruption", "Forced Back", "comms check",
)


def test_the_glossary_has_every_required_term():
    spellings = {s.lower() for t in glossary() for s in (t.term, *t.aliases)}
    missing = [term for term in REQUIRED_TERMS if term.lower() not in spellings]
    assert not missing


def test_a_note_without_an_input_says_why():
    # Issue 26: the Sources page promised a calculator input for every reading, yet six notes had
    # none and no reason. Each note now has an input or a no_input reason; loading refuses neither.
    good = {"id": "k47-x", "rule": "r", "page": "konflikt47/air-strikes.md", "question": "q?", "reading": "We read it so."}
    with pytest.raises(TableError, match="must say why in no_input"):
        interpretation("konflikt47", good, "test")
    with pytest.raises(TableError, match="must say why in no_input"):
        interpretation("konflikt47", {**good, "no_input": "  "}, "test")
    assert interpretation("konflikt47", {**good, "no_input": "No calculator."}, "test").no_input == "No calculator."
    for note in interpretations():
        assert bool(note.input) != bool(note.no_input.strip()), note.id


def test_sources_page_says_what_the_notes_do():
    # "the calculator lets you pick a different reading" was untrue for notes without an input.
    text = (ROOT / "docs" / "sources.md").read_text(encoding="utf-8")
    assert "the calculator lets you pick a different reading" not in text
    assert "says why none is needed" in text
    assert any(not n.input for n in interpretations()) and any(n.input for n in interpretations())


def test_rendered_note_without_an_input_gives_its_reason():
    from scripts.build.build_pages import interpretation_markdown, interpretations_page

    note = next(n for n in interpretations() if n.id == "konrad-retreat-onward")
    assert f"**Why no input.** {note.no_input}" in interpretation_markdown(note, note.page)
    assert "No input: " in interpretations_page()


def test_an_input_that_chooses_a_reading_names_its_note_in_the_schema():
    """calculators.json marks each input that is a reading with its Interpretation note (a
    printed answer card marks it so); the fire mission takes the fire for effect's very input,
    and with it the same note; an input that is no reading names none."""
    from rules_py import get

    def readings(calc_id):
        return {f["name"]: f["reading"] for f in get(calc_id).schema()["fields"] if "reading" in f}

    note = {"id": "chq-reaction-target", "rule": "Reaction Dice target number"}
    assert readings("chq-fire-for-effect")["reaction_target"] == note
    assert readings("chq-fire-mission")["reaction_target"] == note
    assert "fire_dice" not in readings("chq-fire-for-effect") and "nation" not in readings("chq-comms-check")
    every_note_with_an_input = {n.id for n in interpretations() if n.input}
    assert every_note_with_an_input == {r["id"] for c in rules_py.calculators() for r in readings(c.id).values()}
