"""The roll log in full: each roll's arithmetic, what its result means, and the rule it applies.

A seeded roll's log and a resolution's trail (the player's own dice) are one
log (rules_py.answer.die_doc). The lines below are worked out by hand from
the tables and the procedures, for dice chosen here (given as a player
gives them, so that each line is known before it is computed); Operation
Konrad rolls no dice, so it has no log. Every rule a roll names must be a
section of the site: an anchor on its page, in the docs here and in the
built site (the `site` test).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from markdown.extensions.toc import slugify

import rules_py
from rules_py.answer import die_doc
from rules_py.dice import Label, Rolling
from rules_py.rule_refs import Rule, page_href

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
CALCS = [c for c in rules_py.calculators() if c.rolls_dice]
SEEDS = range(40)


def trail(calc_id: str, inputs: dict[str, str], dice: str) -> list[tuple[str, str, str | None, str | None]]:
    """(label, working, means, rule href) of each roll of a resolution with these dice."""
    doc = rules_py.answer(calc_id, inputs, dice=dice)
    return [(d["label"], d["working"], d["means"], d["rule"] and d["rule"]["href"]) for d in doc["given"]]


# ---------------------------------------------------------------- lines worked by hand


def test_air_strike_log_shows_flak_and_halving_as_arithmetic():
    """Artillery, Down, 2 flak hits so far and 4 shots to roll at 5+. Chart 5: here it comes.
    Spotting D3 3, which reads 3 − 1 = 2 pins. Flak 5, 6, 1, 2: two of four reach 5+, plus the 2 hits: 4.
    Resolution 2 (2-3): fighter-bomber, 2D6; 5 + 4 = 9, less 4 for flak = 5, and a Down
    artillery target halves a fighter-bomber's hits, rounding down: 5 // 2 = 2 (flak first,
    the default reading)."""
    inputs = {"flak_hits": "2", "flak_shots": "4", "down": "true", "target": "artillery"}
    log = trail("k47-air-strike", inputs, "5,3,5,6,1,2,2,5,4")
    chart = "konflikt47/air-strikes/#table-air-strike-chart"
    resolution = "konflikt47/air-strikes/#table-air-strike-resolution"
    assert log == [
        ("air strike chart, start of turn 1", "D6 = 5: attack", "Here it comes! The aircraft starts its attack run: spotting pins, the marker, flak, then the attack itself.", chart),
        ("spotting pins on the target (D3\u22121)", "D3 = 3: 2", None, "konflikt47/air-strikes/#table-spotting-pins"),
        ("flak at the aircraft: 4 shots hitting on 5+", "4D6 = 2 successes, plus 2 hits already = 4", None, "konflikt47/air-strikes/#enemy-flak"),
        ("air strike resolution: the attack", "D6 = 2: fighter bomber", None, resolution),
        ("Fighter-bomber: hits (2D6)", "2D6 = 5 + 4 = 9, less 4 for flak = 5, halved for a Down target, rounding down = 2", None, resolution),
    ]
    assert rules_py.answer("k47-air-strike", inputs, dice="5,3,5,6,1,2,2,5,4")["headline"] == "Driven off: no \u00b7 Hits on the target: 2"


def test_air_strike_flak_that_drives_the_aircraft_off_says_so():
    """4 hits so far, 2 shots at 5+ that both hit (5, 6): 6 hits, the abort threshold."""
    log = trail("k47-air-strike", {"flak_hits": "4", "flak_shots": "2"}, "4,1,5,6")
    assert log[2][1] == "2D6 = 2 successes, plus 4 hits already = 6, 6 or more: the aircraft is driven off"


def test_a_rookie_pilots_target_is_said_to_be_one_of_your_own_units():
    """A 1 on the chart: a rookie pilot, whose target the opponent picks among the caller's own units."""
    (label, working, means, _), = trail("k47-air-strike", {}, "1")
    assert (label, working) == ("air strike chart, start of turn 1", "D6 = 1: rookie")
    assert means.startswith("Rookie pilot: the opposing player chooses one of the calling player's own units as the new target")


def test_konflikt47_medic_and_flak_holding_fire():
    """Medic, 3 casualties saved on 6+: 6, 2, 6 save two, so one is lost. Two regular flak
    units hold on 4+: a 4 holds, a 1 does not, so one fires."""
    assert trail("k47-medic", {}, "6,2,6") == [
        ("medic: one die per casualty, saved on 6+", "3D6 = 2 successes, 3 casualties less 2 saved = 1", None, "konflikt47/officers-and-medics/#table-medic-cases"),
    ]
    assert trail("k47-flak-hold-fire", {}, "4,1")[0][1] == "2D6 = 1 success, 2 units less 1 holding fire = 1"


def test_combat_hq_comms_margin_and_deviation_distance():
    """Germany's 4 comms dice 4, 5, 1, 2 (4+): 2 successes; the 3 opposing dice 6, 1, 1: 1.
    Margin 2 - 1 = 1, and more comms successes than opposing: through. Deviation: a 6 is an
    arrow (Hit on 1-2 by default), and the drift is 1D6 + 3: a 4 reads 4 + 3 = 7 inches."""
    comms = "combat-hq/comms/#table-comms-check"
    assert trail("chq-comms-check", {}, "4,5,1,2,6,1,1") == [
        ("comms dice", "4D6 = 2 successes", None, comms),
        ("opposing dice", "3D6 = 1 success, margin 2 \u2212 1 = 1, more comms successes than opposing ones: yes", None, comms),
    ]
    assert trail("chq-deviation", {}, "6,4") == [
        ("deviation die (Hit on 1-2, an arrow otherwise)", "D6 = 6: An arrow", None, "combat-hq/artillery/#table-deviation-die"),
        ("drift in inches (1D6 + 3)", "D6 = 4: 7", None, "combat-hq/artillery/#table-deviation-distance"),
    ]


def test_combat_hq_fire_for_effect_compares_the_two_sides():
    """4 Fire Dice at 4+: 6, 5, 1, 2 are 2 successes and one 6; the unit's 3 dice at 4+:
    4, 1, 1 are 1 success and no 6. One Fire Dice success is unopposed (2 against 1), and the
    battery's one 6 against none of the unit's suppresses."""
    log = trail("chq-fire-for-effect", {}, "6,5,1,2,4,1,1")
    assert [w for _, w, _, _ in log] == [
        "4D6 = 2 successes, 1 six",
        "3D6 = 1 success, no sixes, 2 Fire Dice successes against 1, Disruptions = 1, the battery's 6s against the unit's, 1 to 0, suppressed: yes",
    ]


def test_plastic_ostfront_collapse_throw_adds_the_barrage_points():
    """Cover collapse at its defaults: one die plus 2 barrage points against 8. A 5: 5 + 2 = 7, short of 8."""
    assert trail("po-cover-collapse", {}, "5") == [
        ("collapse throw, 1D6 + 2 barrage points (needs 8+)", "1D6 = 5, plus 2 barrage points = 7, needs 8+, collapses: no", None, "plastic-ostfront/cover/#table-cover"),
    ]


def test_a_pool_given_by_its_score_reads_as_scored():
    """Comms dice given as =2 (two successes) rather than by their faces."""
    assert trail("chq-comms-check", {}, "=2")[0][1] == "4D6 scored 2 successes"


def test_a_seeded_roll_is_the_same_log():
    """A seeded roll's log and the trail of its dice given back are one log, word for word."""
    for calc in CALCS:
        for seed in range(8):
            rolled = rules_py.answer(calc.id, {}, str(seed))
            dice = ",".join(str(f["face"]) for d in rolled["dice"] for f in d["faces"])
            given = rules_py.answer(calc.id, {}, dice=dice)["given"]
            # A resolution's roll also says the entries of the dice text it read: each of its faces.
            assert [d.pop("entries") for d in given] == [[str(f["face"]) for f in d["faces"]] for d in rolled["dice"]], (calc.id, seed)
            assert rolled["dice"] == given, (calc.id, seed)


def test_the_arithmetic_is_recorded_in_roll_mode_only():
    """dice.then shows a value in the last roll's record, returns it unchanged, and with no roll yet records nothing."""
    dice = Rolling(3)
    assert dice.then("before any roll", 5) == 5 and dice.log == []
    face = dice.d6(Label("one die", Rule("x", "X")))
    assert dice.then("plus 1", face + 1) == face + 1
    doc = die_doc(dice.log[0], "konflikt47/air-strikes.md")
    assert doc["working"] == f"D6 = {face}, plus 1 = {face + 1}"
    assert doc["rule"] == {"page": "konflikt47/air-strikes.md", "anchor": "x", "href": "konflikt47/air-strikes/#x", "title": "X"}


def test_page_addresses_and_bad_references():
    assert page_href("konflikt47/air-strikes.md") == "konflikt47/air-strikes/"
    assert page_href("index.md") == "" and page_href("konrad/index.md") == "konrad/"
    for bad in (("Not An Anchor", "t"), ("ok", "")):
        with pytest.raises(ValueError):
            Rule(*bad)
    with pytest.raises(ValueError):
        Rule("ok", "t", "konflikt47/air-strikes.html")


# ---------------------------------------------------------------- every rule a roll names exists


def logged_rules() -> dict[str, set[str]]:
    """Every rule (href) the calculators' rolls name, over their inputs and examples and many seeds,
    each with the calculators that name it; and every roll names one."""
    found: dict[str, set[str]] = {}
    for calc in CALCS:
        for inputs in ({}, *calc.examples):
            for seed in SEEDS:
                for d in rules_py.answer(calc.id, dict(inputs), str(seed))["dice"]:
                    assert d["rule"] is not None, (calc.id, d["label"])
                    found.setdefault(d["rule"]["href"], set()).add(calc.id)
    return found


RULES = logged_rules()


def test_every_calculator_that_rolls_names_its_rules():
    named = {c for calcs in RULES.values() for c in calcs}
    assert named == {c.id for c in CALCS}


def _docs_anchors(page: Path) -> set[str]:
    """The anchors a docs page will have: its headings' (as the toc extension makes them,
    or an explicit {#id}), and the caption of each rules table it includes."""
    text = page.read_text(encoding="utf-8")
    anchors = set()
    for heading in re.findall(r"^#{1,6} (.+)$", text, flags=re.M):
        explicit = re.search(r"\{#([\w-]+)\}\s*$", heading)
        anchors.add(explicit.group(1) if explicit else slugify(heading.strip(), "-"))
    for _, table in re.findall(r'^--8<-- "([\w-]+)/([a-z0-9_]+)\.md"$', text, flags=re.M):
        anchors.add("table-" + table.replace("_", "-"))
    return anchors


def _docs_page(href: str) -> Path:
    path = href.split("#")[0]
    return DOCS / (path.rstrip("/") + ".md" if path else "index.md")


@pytest.mark.parametrize("href", sorted(RULES))
def test_each_rule_link_is_a_section_of_its_docs_page(href):
    page = _docs_page(href)
    assert page.exists(), href
    assert href.split("#")[1] in _docs_anchors(page), f"{href}: no such section on {page.relative_to(ROOT)}"


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        self.ids.update(v for k, v in attrs if k == "id" and v)


@pytest.mark.site
def test_each_rule_link_lands_on_an_anchor_of_the_built_site(site):
    """In the built pages: each link's page exists and has an element with its anchor as id."""
    for href in sorted(RULES):
        path, anchor = href.split("#")
        built = site / path / "index.html"
        assert built.exists(), href
        parser = _Ids()
        parser.feed(built.read_text(encoding="utf-8"))
        assert anchor in parser.ids, f"{href}: no id {anchor!r} in {built.relative_to(site)}"

