"""What the site's words say, against the source excerpts (issue 26, items 1-11).

Each test pins one statement that said more than the excerpt, or less: it
fails on the wording the site had before (quoted in the test), and passes on
a wording that states the source's fact, marks our reading, or says why no
input is needed.
"""

from __future__ import annotations

from conftest import ROOT
from rules_py.reference import glossary, interpretations

TERMS = {t.id: t for t in glossary()}
NOTES = {n.id: n for n in interpretations()}


def read(path: str) -> str:
    return " ".join((ROOT / path).read_text(encoding="utf-8").split())


def test_dsu_term_states_no_stacking_rule():
    # 1: "At most two may share a sector" is a general limit the excerpt never gives.
    definition = TERMS["dsu"].definition
    assert "At most two may share a sector" not in definition
    assert "only for retreats" in definition
    assert "any number of" in read("docs/konrad/map-notation.md")  # the map page stays as it was


def test_reaction_dice_term_does_not_state_a_reading_as_fact():
    # 2: "each success cancels one of the attacker's successes" is the chq-disruptions reading.
    definition = TERMS["reaction-dice"].definition
    assert "cancels" not in definition
    assert "does not say how the two rolls are compared" in definition


def test_staff_order_boost_is_marked_as_our_reading():
    # 2: "boosts it by one die": the excerpt sizes a boost only for a Wild Die.
    assert "boosts it by one die" not in TERMS["staff-order"].definition
    assert "only for a Wild Die" in TERMS["staff-order"].definition
    note = NOTES["chq-staff-order-boost"]
    assert note.page == "combat-hq/comms.md" and "enter that many boosts" in note.no_input
    assert "Each **boost** (spending a Staff Order or a Wild Die on the check) adds one die" not in read("docs/combat-hq/comms.md")


def test_reaction_target_rests_on_the_excerpt_alone():
    # 3: the designer's write-ups are not among the sources.
    reading = NOTES["chq-reaction-target"].reading
    assert "write-up" not in reading and "designer" not in reading
    assert "our choice, not the excerpt's" in reading


def test_expansions_the_excerpt_does_not_give_are_marked():
    # 7: "DSU = divisional unit" and "OAC = the side's commander" are ours.
    index, supply = read("docs/konrad/index.md"), read("docs/konrad/supply.md")
    assert "A **DSU** is a divisional unit" not in index and "our own guess" in index
    assert "The side's commander (the OAC)" not in supply and "a gloss of ours" in supply
    assert "divisional unit (DSU)" not in read("docs/sheets/konrad.md")
    assert "divisions (DSUs)" not in read("docs/konrad/retreats.md")
    assert "our own guess" in read("docs/sources.md")
