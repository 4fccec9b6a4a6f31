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


# ------------------------------------------------ readings that gain an input

from fractions import Fraction as F  # noqa: E402

import pytest  # noqa: E402

from rules_py import get  # noqa: E402
from rules_py.calculator import InputError  # noqa: E402


def odds(calculator: str, **raw) -> dict:
    return {name: dict(dist) for name, dist in get(calculator).odds({k: str(v).lower() for k, v in raw.items()}).outcomes.items()}


def test_counter_battery_rockets_are_a_reading_with_an_input():
    # 4: "(3 FOR ROCKETS)" does not say whose. Two enemy batteries, no locator:
    # enemy guns, own rockets, read as the counter-battery battery's rockets: 3+, p = 2/3, 1 - (1/3)^2 = 8/9;
    # enemy rockets under that reading count as guns: 5+, p = 1/3, 1 - (2/3)^2 = 5/9.
    assert odds("po-counter-battery", rockets_for="own", own_rockets=True, enemy_batteries=2)["spotted"][True] == F(8, 9)
    assert odds("po-counter-battery", rockets_for="own", rockets=True, enemy_batteries=2)["spotted"][True] == F(5, 9)
    assert odds("po-counter-battery", rockets=True, enemy_batteries=2)["spotted"][True] == F(8, 9)  # the default: the enemy's
    note = NOTES["po-counter-battery-rockets"]
    assert note.input == "rockets_for" and "The enemy's rockets" in note.reading


def test_the_locator_and_small_battery_readings_say_why_no_input():
    # 5: a sub-reading raised in a note's question is answered in its text.
    assert "adding 2 to the score would make a locator" in NOTES["po-counter-battery-spotting"].reading
    assert "same as adding 1 to the score to reach" in NOTES["po-table-4-lost"].reading


@pytest.mark.parametrize("note", ["po-effectiveness-off-table", "konrad-retreat-onward", "konrad-stacking-limit", "k47-rookie-pilot-attack"])
def test_notes_the_issue_named_say_why_they_have_no_input(note):
    # 5: these had no input and (but the stacking note) no reason.
    assert not NOTES[note].input and len(NOTES[note].no_input) > 40


def test_safety_margin_gives_no_reason_of_its_own():
    # 6: "since those guns have already ranged in" is not in the excerpt.
    assert "ranged in" not in read("docs/plastic-ostfront/limitations.md")


@pytest.mark.parametrize("mission", ["concentration", "creeping"])
def test_red_army_guns_near_their_trp_cannot_fire_the_forbidden_missions(mission):
    # 8: the ban was enforced only with the far-from-TRP modifier ticked.
    with pytest.raises(InputError, match="Red Army artillery cannot fire"):
        get("po-artillery-shoot").odds({"red_army": "true", "mission": mission})
    assert get("po-artillery-shoot").odds({"red_army": "true", "mission": "bombardment"})


def test_smoke_delay_line_has_its_note():
    # 9: "leave the token in place" and "can move the token up to 12" reconciled with a note on the page.
    note = NOTES["k47-smoke-delay-token"]
    assert note.page == "konflikt47/artillery-observers.md" and note.no_input
    assert "interpretation-k47-smoke-delay-token.md" in read(f"docs/{note.page}")


def test_flak_shots_may_need_two_scores():
    # 10: 3 hits so far, 2 shots on 5+ (X ~ Bin(2, 1/3)) and 2 on 6+ (Y ~ Bin(2, 1/6)): driven off at 6,
    # P(X + Y >= 3) = P(X=2) P(Y>=1) + P(X=1) P(Y=2) = 1/9 * 11/36 + 4/9 * 1/36 = 15/324 = 5/108.
    o = odds("k47-air-strike", flak_hits=3, flak_shots=2, flak_hit_on=5, more_flak_shots=2, more_flak_hit_on=6)
    assert o["aborted"][True] == F(5, 108)
    assert NOTES["k47-flak-one-score"].input == "more_flak_shots"


@pytest.mark.parametrize("collapse_on, p", [("reach", F(13, 18)), ("beat", F(7, 12))])
def test_collapse_on_reaching_or_beating_the_score(collapse_on, p):
    # 10: light structure, score 6, 2D6 and no barrage points: reach P(2D6 >= 6) = 26/36; beat P(>= 7) = 21/36.
    o = odds("po-cover-collapse", cover="light", dice_thrown=2, barrage_points=0, collapse_on=collapse_on)
    assert o["collapsed"][True] == p
    assert NOTES["po-collapse-reaches"].input == "collapse_on"


@pytest.mark.parametrize("on_weapon, p", [(True, F(5, 18)), (False, F(5, 36))])
def test_poor_target_on_a_guns_weapon_die_is_a_reading(on_weapon, p):
    # 10: 105 mm, one hit die that always hits (your figure 1+) once fire arrives (table 3: 5 in 6 at
    # intensity 2), weapon thrown as an open AFV on 6+: with the poor target's +1, 5+: 5/6 * 2/6 = 5/18;
    # without it 5/6 * 1/6 = 5/36.
    o = odds("po-artillery-shoot", target="gun", gun_damage="weapon_only", to_hit=1, poor_target=True, poor_target_on_weapon=on_weapon)
    assert o["knocked_out"][1] == p
    assert NOTES["po-poor-target-weapon"].input == "poor_target_on_weapon"


def test_second_roll_help_says_same_die_ignores_it():
    # 11: with infantry_hits=same_die the box changed nothing, and its help did not say so.
    field = next(f for f in get("po-artillery-shoot").fields if f.name == "modify_second_roll")
    assert "this box then changes nothing" in field.help
    a = odds("po-artillery-shoot", infantry_hits="same_die", poor_target=True, modify_second_roll=True)
    b = odds("po-artillery-shoot", infantry_hits="same_die", poor_target=True, modify_second_roll=False)
    assert a == b


def test_cover_page_marks_reaching_the_score_as_our_reading():
    # 10: the page said "if the total reaches the score" as the source's rule.
    assert "reaches the score to collapse (our reading" in read("docs/plastic-ostfront/cover.md")


# ------------------------------------------------ issue 34: text that says more than the sources


def test_sources_page_owns_its_starting_values():
    # 1: "We never fill a gap with a number of our own", beside four defaults that are the site's own numbers.
    sources = read("docs/sources.md")
    assert "We never fill a gap with a number of our own" not in sources
    assert "the value it starts at is ours, named as ours on the page and the sheet that use it" in sources
    # each such starting value says it is ours where it is stated
    assert "our choice, not the excerpt's" in NOTES["chq-reaction-target"].reading
    assert "a number of ours, not the excerpt's" in NOTES["chq-deviation-hit-faces"].reading
    assert "a starting value of ours and not a rule" in NOTES["po-table-4-lost"].reading
    assert "a value of ours, not the excerpt's" in NOTES["k47-flak-one-score"].reading
    assert "a starting value of ours, not the excerpt's" in NOTES["po-barrage-points"].reading


def test_the_combat_hq_sheet_names_its_reaction_target_as_ours():
    # 1: the printed forced-back grid rests on the Reaction Dice's target, a figure of ours; the sheet says so,
    # with the figure the calculator starts at (not a second copy of it).
    from scripts.build.sheet_odds import GRIDS

    (grid,) = [g for g in GRIDS["combat-hq"] if g.calculator == "chq-fire-for-effect"]
    target = next(f.default for f in get("chq-fire-for-effect").fields if f.name == "reaction_target")
    assert f"Reaction Dice on {target}+, a figure of ours" in grid.note


def test_table_7_states_the_calculators_reading_of_6dice():
    # 2: the table said "throw 6 dice plus barrage points", for multi-storey structures only, while the
    # calculator throws its dice_thrown default (1D6) against every score. The note now takes the
    # calculator's default: one reading, printed and computed alike.
    from scripts.build.build_pages import table_markdown
    from rules_py.tables import load

    dice = next(f.default for f in get("po-cover-collapse").fields if f.name == "dice_thrown")
    text = table_markdown(load("plastic_ostfront", "cover"))
    assert "throw 6 dice plus barrage points" not in text
    assert f"we read it as {dice}D6 plus barrage points against every score" in text
    assert "{" not in text.split('class="table-note">')[1]


def test_table_notes_name_only_inputs_that_exist():
    # 2: a note's {calculator.input} is filled from the input itself; a name that is not an input fails the build.
    from dataclasses import replace

    from scripts.build.build_pages import table_note
    from rules_py.tables import load

    cover = load("plastic_ostfront", "cover")
    with pytest.raises(KeyError, match="does not take"):
        table_note(replace(cover, note="{po-cover-collapse.dice_throw}D6"))


def test_men_carried_in_a_soft_vehicle_are_not_said_to_be_pinned():
    # 3: "Men carried in a vehicle that is hit take hits of their own and are pinned": table 6 pins them
    # in closed and open AFVs only; of a soft vehicle it says only that they take appropriate hits.
    page = read("docs/plastic-ostfront/artillery-shoot.md")
    assert "Men carried in a vehicle that is hit take hits of their own and are pinned" not in page
    assert "in a soft vehicle the excerpt says only that they take the hits that apply to them, not that they are pinned" in page
    soft = load_rows("plastic_ostfront", "damage_effects_other", "case")["carried_soft"]
    assert not soft["pinned"]


def load_rows(system: str, table: str, key: str) -> dict:
    from rules_py.tables import load

    return {row[key]: row for row in load(system, table).rows}


def test_creeping_barrage_moves_to_its_back_edge_and_no_more():
    # 4: "moves forward to where its back edge was": the source says only to move the template to its back edge.
    page = read("docs/plastic-ostfront/artillery-shoot.md")
    assert "moves forward to where its back edge was" not in page
    assert "template is moved to its back edge" in page
    definition = TERMS["po-creeping-barrage"].definition
    assert "forward" not in definition and "moved to its back edge" in definition


def test_one_drift_distance_for_every_cloud_is_marked_as_our_reading():
    # 5: the table stated one D6 for all clouds as the rule; it is the k47-smoke-drift-distance reading.
    drifts = load_rows("konflikt47", "smoke_dispersal", "result")["drifts"]
    assert "Every cloud of smoke moves the same distance" not in drifts["effect"]
    assert "is our reading" in drifts["effect"]
    assert "One D6 for the distance" in NOTES["k47-smoke-drift-distance"].reading


def test_shoot_procedure_does_not_confine_targets_to_a_trps_reach():
    # 6: "The target must be within reach of a TRP": guns may also shoot at targets visible to them.
    page = read("docs/plastic-ostfront/artillery-shoot.md")
    assert "The target must be within reach of a" not in page
    assert "guns may also shoot at targets they can see themselves" in page


def test_surprise_does_not_say_what_the_500_m_are_measured_from():
    # 7: "within 500 m of the target": the source gives 500 m and nothing more.
    page = read("docs/plastic-ostfront/limitations.md")
    assert "500 m of the target" not in page
    assert "does not say 500 m of what" in page


def test_night_attack_declaration_claims_only_the_excerpt():
    # 8: "the rules ask for nothing more" cannot be known from an excerpt.
    page = read("docs/konrad/night-attacks.md")
    assert "the rules ask for nothing more" not in page
    assert "Our excerpt asks for nothing more" in page


@pytest.mark.parametrize(
    "path, before",
    [
        ("docs/konrad/supply.md", "The farther a division is from it"),
        ("docs/konrad/isolation.md", "A division that loses touch"),
        ("docs/konrad/index.md", "They fight the battles"),
        ("docs/konrad/index.md", "side's divisions move"),
        ("docs/konrad/index.md", "a division's HQ"),
        ("docs/combat-hq/artillery.md", "never appears on it"),
    ],
)
def test_wording_beyond_the_excerpts_is_gone_from_the_pages(path, before):
    # 9: a DSU is no "division" (index.md calls that expansion our guess); RSUs are never said to fight the
    # battles; an off-table battery is never said to stay off the table.
    assert before not in read(path)


@pytest.mark.parametrize(
    "term, before, after",
    [
        ("k47-ambush", "An order that keeps a unit waiting to fire", "our excerpt does not define it"),
        ("disruption", "cohesion", "our excerpt does not define it further"),
        ("wild-dice", "Spare dice a player may spend to boost a roll", "It does not say what else they are"),
        ("rsu", "fight the battles", "the morale checks are made for them"),
        ("po-pinned", "the shoot procedure pins elements before", "when the fire's intensity is 2 or more"),
    ],
)
def test_glossary_definitions_say_no_more_than_the_excerpts(term, before, after):
    # 9: Ambush, Disruption, Wild Dice and RSU were defined beyond the excerpts; "pinned" left out step 4's
    # intensity-2 condition, which the calculator's default (po-pinning-harassing) applies.
    definition = TERMS[term].definition
    assert before not in definition and after in definition


def test_deviation_distance_reads_as_a_count_of_dice():
    # 10: "D6 rolled | 1, Inches added | 3" reads as "on a 1, add 3"; the headings now say how many dice.
    from scripts.build.build_pages import table_markdown
    from rules_py.tables import load

    text = table_markdown(load("combat_hq", "deviation_distance"))
    assert "| How many D6 | Inches added to their total |" in text
    assert "D6 rolled" not in text


def test_konrad_sheet_gives_the_extra_point_for_a_cut_off_depot_too():
    # 10: the sheet gave the extra -1 only for a moved depot; the calculator's default (konrad-cut-off-depot)
    # also applies it to a depot cut off from every friendly map edge.
    sheet = read("docs/sheets/konrad.md")
    assert "Depot moved within the last two days: the extra modifier" not in sheet
    assert "Depot not working: the extra modifier of the depot table, once (for a cut-off depot, our reading)" in sheet
    assert "not moved in the last two days) and linked to a friendly map edge" in sheet  # what "working" means, step 1
    assert "A cut-off depot is treated like a moving one" in NOTES["konrad-cut-off-depot"].reading
    cut_off = next(f for f in get("konrad-supply").fields if f.name == "cut_off_depot")
    assert cut_off.default == "extra"  # the choice "with the moving depot's extra penalty"


# ------------------------------------------------ issue 44: texts beyond the sources

import math  # noqa: E402


def deviation_geometry() -> dict:
    """The shortest drift an arrow gives and each template's half-side and half-diagonal, from the tables."""
    from rules_py.tables import load

    distance = load("combat_hq", "deviation_distance").rows[0]
    shortest = distance["dice"] * 1 + distance["add"]  # every die on a 1
    longest = distance["dice"] * 6 + distance["add"]
    sheaves = {row["sheaf"]: row for row in load("combat_hq", "sheaves").rows}
    assert all(row["width"] == row["depth"] for row in sheaves.values())  # square templates
    return {
        "shortest": shortest,
        "longest": longest,
        "half_side": {s: row["width"] / 2 for s, row in sheaves.items()},
        "half_diagonal": {s: row["width"] / math.sqrt(2) for s, row in sheaves.items()},
    }


def centre_stays_under(half_side: float, drift: float, angle: float) -> bool:
    """After a drift at ``angle`` to a table edge, the point that was the template's centre is still under it."""
    return abs(drift * math.cos(angle)) <= half_side and abs(drift * math.sin(angle)) <= half_side


def share_still_under(half_side: float, drift: float) -> float:
    """The share of directions, all equally likely, that leave the centre under a square template:
    within a quarter turn it stays while d cos t <= h and d sin t <= h, i.e. between acos(h/d) and
    asin(h/d), a share of (asin(h/d) - acos(h/d)) / (pi/2) = 4 asin(h/d)/pi - 1 (0 when negative)."""
    if drift <= half_side:
        return 1.0
    return max(0.0, 4 * math.asin(min(1.0, half_side / drift)) / math.pi - 1)


def test_a_drifted_template_note_states_the_geometry():
    # 44: "even the shortest drift is longer than half the side of either template, so a unit at the
    # template's centre is left outside it" holds only along the table's edges: the regular template's
    # half-diagonal (6/sqrt 2 = 4.24") is longer than the shortest drift (1 + 3 = 4").
    g = deviation_geometry()
    reading = NOTES["chq-deviated-template"].reading
    assert "even the shortest drift is longer than half the side of either template" not in reading
    # The converged sheaf's template: even along a diagonal the shortest drift leaves its centre outside.
    assert g["half_diagonal"]["converged"] < g["shortest"]
    assert "shortest drift the rule allows is longer than the half-diagonal of the converged sheaf's template" in reading
    # The regular sheaf's: half its side is shorter than the shortest drift, its half-diagonal longer;
    # one inch more (the next drift the die gives) is longer than the half-diagonal too.
    h = g["half_side"]["regular"]
    assert h < g["shortest"] < g["half_diagonal"]["regular"] < g["shortest"] + 1
    assert centre_stays_under(h, g["shortest"], math.pi / 4) and not centre_stays_under(h, g["shortest"], 0)
    assert not any(centre_stays_under(h, g["shortest"] + 1, k * math.pi / 720) for k in range(1440))
    assert "its half-diagonal is longer than the shortest drift, though half its side is not" in reading
    assert "points close to one of its diagonals leaves the centre under a corner of the template" in reading
    # The share of arrows that leave the centre under it: the shortest drift (1 face in 6) in a band of
    # directions around each diagonal, 4 asin(3/4)/pi - 1 of them: (4 asin(3/4)/pi - 1)/6 = 0.0133 (1.33%).
    share = sum(share_still_under(h, d) for d in range(g["shortest"], g["longest"] + 1)) / 6
    assert share == pytest.approx((4 * math.asin(3 / 4) / math.pi - 1) / 6) and 0.0132 < share < 0.0134
    brute = sum(centre_stays_under(h, d, (k + 0.5) * 2 * math.pi / 36000) for d in range(4, 10) for k in range(36000)) / (6 * 36000)
    assert brute == pytest.approx(share, abs=1e-4)
    # Hence "by far the likelier result of an arrow" is a miss; the converged template misses every time.
    assert 1 - share > 0.98 and "by far the likelier result of an arrow" in reading
    assert all(share_still_under(g["half_side"]["converged"], d) == 0 for d in range(g["shortest"], g["longest"] + 1))


def ffe_suppressed(**raw) -> F:
    return odds("chq-fire-for-effect", **raw)["suppressed"][True]


def test_the_suppressed_without_disruption_note_says_why_its_default():
    # 44: the default departs from the literal "If no Disruption is taken, they are suppressed but not
    # Forced Back"; the note gives the reason and says how much the reading weighs.
    reading = NOTES["chq-suppressed-without-disruption"].reading
    assert "would give the 6s a say only for a unit that has taken Disruptions" in reading
    assert "turns the exception in the suppression rule on its head" in reading
    # At the defaults (4 Fire Dice against 3 Reaction Dice), the 6s decide: the unit escapes only with more
    # 6s. F ~ Bin(4, 1/6): P(F=0) = 625/1296, P(F<=1) = 1125/1296, P(F<=2) = 1275/1296; R ~ Bin(3, 1/6):
    # P(R=1) = 75/216, P(R=2) = 15/216, P(R=3) = 1/216. P(escape) = (75*625 + 15*1125 + 1275)/279936 =
    # 65025/279936, so P(suppressed) = 214911/279936 (76.8%).
    assert ffe_suppressed() == F(214911, 279936)
    literal = ffe_suppressed(suppressed_without_disruption=True)
    assert literal > ffe_suppressed() + F(1, 10)  # "raises it markedly": 94.3% against 76.8%
    assert "the literal one raises it markedly" in reading
    # "no other reading of the fire for effect changes the chance of suppression" at the defaults:
    # every other input an Interpretation note gives the fire for effect, at each of its other values.
    fields = {f.name: f for f in get("chq-fire-for-effect").fields}
    others = {n.input for n in NOTES.values() if n.calculator == "chq-fire-for-effect"} - {"suppressed_without_disruption"}
    assert others == {"reaction_target", "extra_dice_target", "extra_dice_sixes", "disruptions"}
    for name in others:
        f = fields[name]
        values = [c.name for c in f.choices] if f.type == "choice" else [not f.default] if f.type == "bool" else range(2, 7)
        for value in values:
            assert ffe_suppressed(**{name: value}) == ffe_suppressed(), (name, value)
    assert "no other reading of the fire for effect changes the chance of suppression" in reading
    mission = odds("chq-fire-mission")["suppressed_this_turn"][True]
    assert odds("chq-fire-mission", suppressed_without_disruption=True)["suppressed_this_turn"][True] > mission


def test_the_medic_page_says_plainly_how_often_five_casualties_see_a_save():
    # 44: "a little better than a coin toss" for 1 - (5/6)^5 = 4651/7776 (59.8%): more often than not.
    page = read("docs/konflikt47/officers-and-medics.md")
    assert "a little better than a coin toss" not in page
    assert odds("k47-medic", casualties=5)["saved"][0] == F(5**5, 6**5)
    assert 1 - F(5**5, 6**5) > F(1, 2) and "he saves at least one more often than not" in page


def test_the_plastic_ostfront_overview_says_no_more_than_may_not_be_so_effective():
    # 44: "A headquarters can stand in for a FOO, less well": the source says it may not be so effective.
    page = read("docs/plastic-ostfront/index.md")
    assert "A headquarters can stand in for a FOO, less well" not in page
    assert "A headquarters can also act as a FOO, though the rules warn that it may not be as effective" in page


def test_map_notation_counts_sectors_as_the_calculators_print_them():
    # 44: the page counted from 0 ("the depot is at `0.1`") where the calculators print "row 1 column 2".
    import rules_py

    page = read("docs/konrad/map-notation.md")
    assert "counting from 0 at the top left" not in page
    answer = rules_py.answer("konrad-supply", {"map": "W:FF*FE/FaFFE/FFbEE"})  # the page's example map
    line_b = next(o for o in answer["outcomes"] if o["name"] == "line_b")
    assert f'unit *b*\'s supply line reads "{line_b["value_label"]}"' in page
    assert line_b["value_label"].endswith("row 1 column 2") and "the depot is in row 1 column 2" in page
    assert f"unit *b*'s supply line there is `{line_b['value']}`" in page and "counted from 0" in page


def test_sheets_name_no_page_for_a_note_and_mark_their_readings():
    # 44: plastic-ostfront.pdf sent the reader to "the cover page" and "the pinning note on the rules page";
    # its step 3 stated "table 1 for a concentration, table 2 for anything else" as the rule (the source:
    # "as per table 1 or 3"); combat-hq.pdf's step 2 read "each die that makes the score of the two dice pools".
    po = read("docs/sheets/plastic-ostfront.md")
    assert "see the cover page" not in po and "pinning note on the rules page" not in po
    assert "table 2 for anything else (our reading: the rules say table 1 or 3, but table 3 holds no template)" in po
    from rules_py.tables import load

    cover = load("plastic_ostfront", "cover")
    assert "cover page" not in cover.note and "Interpretation note" not in cover.note
    chq = read("docs/sheets/combat-hq.md")
    assert "each die that makes the score of the two dice pools" not in chq
    assert "each die that rolls its pool's score or better (the table of the two dice pools) is a success" in chq
    assert load("combat_hq", "comms_check").title == "Comms check: the two dice pools"
    assert {row["target"] for row in load("combat_hq", "comms_check").rows} == {4}  # the 4+ the step sends to


# Each sheet's text that sends the reader to an Interpretation note, and the notes the sheet prints for it.
SHEET_NOTES = {
    "combat-hq": ["chq-reaction-target", "chq-disruptions", "chq-suppressed-without-disruption", "chq-deviation-hit-faces", "chq-deviated-template"],
    "konflikt47": ["k47-smoke-exactly-two-inches", "k47-no-down-ground-attack"],
    "konrad": [],
    "plastic-ostfront": [],
}


def test_each_sheet_includes_the_notes_it_refers_to():
    # 44: the sheets referred to Interpretation notes they did not print; a sheet now prints each one,
    # as scripts/build/build_pages.py writes it for paper (the site tier checks the PDFs: tests/test_sheets.py).
    for slug, ids in SHEET_NOTES.items():
        sheet = read(f"docs/sheets/{slug}.md")
        for note_id in ids:
            assert note_id in NOTES and f'--8<-- "sheets/note-{note_id}.md"' in sheet, (slug, note_id)
