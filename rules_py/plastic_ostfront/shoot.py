"""Plastic Ostfront: the artillery shoot, from the effectiveness die to the damage effect.

One element under the template is followed through the procedure's stages,
each an independent part enumerated on its own (``dice.sub``):

1. **Effectiveness (table 3).** One D6 plus the modifier total m, the result
   clamped to the table's rows 0..6 (a result of 0 or less reads as row 0, above
   6 as row 6). Row 0: nothing arrives and no ammunition is used; rows 1..3 cut
   the called intensity I by 2 or 1; rows 4..6 leave it whole. The effective
   intensity is E = max(0, I + change), and E = 0 means no effect. So
   P(row r) = #{faces f : clamp(f + m) = r} / 6.
2. **Pinning.** With fire arriving (E >= 1) the element is pinned when the
   intensity table says level E pins (step 4: levels 2 and 3), or always under
   the other reading of the pinning rule.
3. **Hits (table 4, whose figures are lost).** d dice, d = 1 for a bombardment
   or creeping barrage and d = batteries for a concentration; each hits when
   D6 + hit modifier >= the player's own table-4 score for level E, so
   P(hit) = #{f : f + h >= t} / 6 and the hits are Binomial(d, P(hit)).
4. **Damage (table 5).** Each hit throws D6 + damage modifiers >= the table's
   figure for the shooter's row and the target (infantry and gun crews by
   cover); "6 then 5" needs a 6 and then a second die of 5 or more, so
   P = P(first) * P(second), e.g. 1/6 * 2/6 = 1/18 unmodified. Against infantry
   a success costs casualties as the "#" reading in force says.
5. **Effect (table 6).** Each damaging hit on a vehicle throws one D6 on its
   effect list; a gun's weapon, damaged as an open AFV, is unusable. By
   default a hit on a gun throws for its crew (infantry column) and for its
   weapon; under the ``weapon_only`` reading of ``gun_damage`` (note
   ``po-gun-damage``) it throws for the weapon only, and the damaging hits on
   the weapon are what is knocked out. A poor target's +1 reaches the weapon's
   die unless ``poor_target_on_weapon`` is cleared (note ``po-poor-target-weapon``).
6. **Several hits.** Each hit throws its own damage dice (``several_hits`` =
   ``each``); under ``once`` (note ``po-concentration-hits``) an element hit
   several times throws the damage and effect dice of one hit.
7. **Ammunition.** Every firing battery spends the intensity called in points
   unless table 3 reads 0; under ``ammunition_by`` = ``arrived`` (note
   ``po-ammunition-spent``) it spends the intensity that arrives, E; under
   ``ammunition_per`` = ``mission`` (note ``po-ammunition-per-battery``) the
   mission spends the figure once rather than once per battery.

The d hit dice of a concentration are one pool (``dice.successes``): one choice
point of d + 1 values, how many hit, not 6**d paths; the damage and effect
dice are pools again (the effect dice count each effect, ``_effects``). The
stages are a chain (``dice.chain``): the odds carry the distribution of the
state after each stage forward (table 3's (E, ammunition), then the hits,
what is knocked out, the effects), each stage's dice enumerated once per
distinct arguments (damage once per number of hits, whatever the intensity),
so the odds cost grows with d polynomially, never as 6**(4d), and is the sum
of the stages' sizes times the states that reach them, not their product.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from ..calculator import Calculator, Choice, Field, InputError, Outcome
from ..dice import Dice, Label, Stage, stage
from ..rule_refs import Rule, of_table
from ..tables import Table, load

P = "plastic_ostfront"
ORGANISATION = load(P, "organisation")
INTENSITY = load(P, "intensity")
MISSIONS = load(P, "missions")
EFFECTIVENESS = load(P, "effectiveness")
EFFECTIVENESS_MODIFIERS = load(P, "effectiveness_modifiers")
HIT_MODIFIERS = load(P, "hit_modifiers")
DAMAGE = load(P, "damage")
DAMAGE_MODIFIERS = load(P, "damage_modifiers")
EFFECTS = load(P, "damage_effects")
OTHER_EFFECTS = load(P, "damage_effects_other")
# The rule each roll applies, for its record (labels only: no odds read them).
EFFECTIVENESS_RULE, HIT_RULE, DAMAGE_RULE, EFFECTS_RULE = (of_table(t) for t in (EFFECTIVENESS, load(P, "hit_chance"), DAMAGE, EFFECTS))
EFFECTIVENESS_MEANS = {row["roll"]: f"row {row['roll']} of table 3: {row['result'][:1].lower()}{row['result'][1:]}" for row in EFFECTIVENESS.rows}

LOWEST_ROW = min(EFFECTIVENESS.column("roll"))
HIGHEST_ROW = max(EFFECTIVENESS.column("roll"))
MAX_BATTERIES = ORGANISATION.lookup("unit", "battalion_max", "models")
BATTALION = ORGANISATION.lookup("unit", "battalion", "models")
USUAL_INTENSITY = INTENSITY.row("usual", True)["level"]

# The table-5 column each cover choice reads for infantry and gun crews.
COVER_COLUMNS = {"open": "inf_open", "hasty": "inf_hasty", "prepared": "inf_prepared", "fortification": "inf_fortification"}
# Each target: its table-5 column (None: by cover) and its table-6 list (None: no list).
TARGETS = {
    "infantry": (None, None),
    "gun": (None, None),
    "soft_vehicle": ("soft", "soft_vehicle"),
    "open_afv": ("open_afv", "afv"),
    "afv_under_4": ("afv_under_4", "afv"),
    "afv_4_plus": ("afv_4_plus", "afv"),
}
GUN_WEAPON = OTHER_EFFECTS.row("case", "gun_weapon")

NO_EFFECT = "none"
# Every single effect, by the lowest die that gives it (then table order), the
# gun's last; several at once are joined with "+" in this order.
_FIRST_FACE: dict[str, int] = {}
for _r in EFFECTS.rows:
    _FIRST_FACE[_r["effect"]] = min(_FIRST_FACE.get(_r["effect"], 7), _r["from_roll"])
EFFECT_ORDER = tuple(sorted(_FIRST_FACE, key=lambda e: (_FIRST_FACE[e], EFFECTS.column("effect").index(e)))) + (GUN_WEAPON["effect"],)

PINNING = (
    Choice("step_4", "Only at intensity 2 or more (step 4 of the procedure)"),
    Choice("always", "Whenever fire arrives (the Pinning paragraph)"),
)
AMMUNITION = (
    Choice("called", "The intensity called, unless table 3 reads 0"),
    Choice("arrived", "The intensity that arrives after table 3"),
)
GUN_DAMAGE = (
    Choice("crew_and_weapon", "Each hit throws for the crew, as infantry, and for the weapon, as an open AFV"),
    Choice("weapon_only", "Each hit throws for the weapon only, as an open AFV; the crew line is about the hit itself"),
)
AMMUNITION_PER = (
    Choice("battery", "Each firing battery spends it"),
    Choice("mission", "The mission spends it once"),
)
SEVERAL_HITS = (
    Choice("each", "Every hit throws its own damage dice"),
    Choice("once", "An element hit several times throws damage dice as for one hit"),
)
INFANTRY_HITS = (
    Choice("extra_die", "# casualties, then one more die at the 2nd-casualty score for one more"),
    Choice("same_die", "# casualties, and one more if the damage die itself reaches the 2nd-casualty score"),
    Choice("one_casualty", "One casualty per damaging hit; the # column unused"),
)


def band(table: Table, calibre: int, rockets: bool = False) -> Mapping[str, Any]:
    """The row of a calibre-banded table: the first whose ``below_mm`` exceeds
    the calibre, else the open-ended top band (rockets have their own row)."""
    rows = [r for r in table.rows if r.get("rockets", False) == rockets]
    if rockets:
        return rows[0]
    for row in rows:
        if row["below_mm"] is not None and calibre < row["below_mm"]:
            return row
    return next(r for r in rows if r["below_mm"] is None)


def modifier_total(flags: dict[str, bool]) -> int:
    """The table-3 modifier total of the circumstances that apply."""
    return sum(r["modifier_value"] for r in EFFECTIVENESS_MODIFIERS.rows if flags.get(r["modifier"]))


def effectiveness(dice: Dice, intensity: int, modifier: int) -> tuple[int, bool]:
    """Table 3: (effective intensity, ammunition used) for a called intensity."""
    # The row each face reads; beyond the table's rows, 0 or less reads as 0, above 6 as 6.
    row_of = tuple(min(max(face + modifier, LOWEST_ROW), HIGHEST_ROW) for face in range(1, 7))
    sign = f"{modifier:+d}" if modifier else "no modifier"
    row = EFFECTIVENESS.row("roll", dice.d6(Label(f"effectiveness, table 3 ({sign}): row", EFFECTIVENESS_RULE, EFFECTIVENESS_MEANS), chart=row_of))
    if not row["fire_arrives"]:
        return 0, row["ammunition_used"]
    return max(0, intensity + row["intensity_change"]), row["ammunition_used"]


class Damage(NamedTuple):
    """Everything the damage and effect dice need, hashable for ``dice.sub``.

    It leaves out the hit score, so the damage stage is enumerated once however
    many intensities the fire may arrive at."""

    target: str
    score: int | None  # table-5 figure: infantry/crew by cover, or the vehicle's column; None = cannot
    then: int | None  # second die after a first of 6 ("6 then 5-6"), or None
    casualties: int  # the "#" figure
    second: int | None  # the 2nd-casualty score, or None
    weapon_score: int | None  # a gun's weapon, damaged as an open AFV
    modifier: int  # damage modifiers, to the first damage die
    second_modifier: int  # the same or 0, for second dice (the reading in force)
    infantry_hits: str
    effects: tuple[tuple[int, int, str], ...]  # table 6: (from, to, effect)
    weapon_only: bool = False  # a gun's hits throw for its weapon only (note po-gun-damage)
    weapon_modifier: int = 0  # damage modifiers to a gun's weapon die (note po-poor-target-weapon)


def _needs(score: int, modifier: int) -> str:
    return f"needs {score}+" + (f", {modifier:+d} to each die" if modifier else "")


def _successes(dice: Dice, n: int, label: str, score: int | None, modifier: int, rule: Rule = DAMAGE_RULE) -> int:
    """How many of n dice reach score with the modifier. No dice are thrown when
    there are none to throw or the answer is certain (a figure of 1 or less after
    the modifier, or the shell cannot damage the target)."""
    if n == 0 or score is None or score - modifier > 6:
        return 0
    if score - modifier <= 1:
        return n
    return dice.successes(n, score - modifier, Label(f"{label} ({_needs(score, modifier)})", rule))


def _same_die_key(score: int, second: int, modifier: int) -> tuple[tuple[int, int], ...]:
    """For one damage die, as a face table: (1 if it damages, 1 if it also reaches the 2nd-casualty score)."""
    return tuple((int(face + modifier >= score), int(face + modifier >= score and face + modifier >= second)) for face in range(1, 7))


def _casualties(dice: Dice, hits: int, d: Damage) -> int:
    """Casualties to infantry (or a gun's crew) from ``hits`` hits, by the '#' reading."""
    # (Infantry and crews always have a damage score; only some vehicles lack one.)
    if d.infantry_hits == "same_die" and d.score is not None and d.second is not None and hits:
        label = f"damage dice, one per hit ({_needs(d.score, d.modifier)}; a 2nd casualty on {d.second}+)"
        damaging: int
        extra: int
        damaging, extra = dice.pool(hits, 6, Label(label, DAMAGE_RULE), _same_die_key(d.score, d.second, d.modifier), (("damaging hit", "damaging hits"), ("second casualty", "second casualties")))
        return damaging * d.casualties + extra
    damaging = _successes(dice, hits, "damage dice, one per hit", d.score, d.modifier)
    if d.infantry_hits == "one_casualty":
        return damaging
    extra = 0
    if d.infantry_hits == "extra_die" and d.second is not None:
        extra = _successes(dice, damaging, "second-casualty dice, one per damaging hit", d.second, d.second_modifier)
    return damaging * d.casualties + extra


@lru_cache(maxsize=None)
def _effect_key(effects: tuple[tuple[int, int, str], ...]) -> tuple[tuple[int, ...], ...]:
    """One table-6 die as a face table of count vectors over the list's effects."""
    kinds = _kinds(effects)
    found = [next(e for lo, hi, e in effects if lo <= face <= hi) for face in range(1, 7)]
    return tuple(tuple(int(kind == effect) for kind in kinds) for effect in found)


# Cached: the odds replay _effects once per value of its pool (see dice.sub).
@lru_cache(maxsize=None)
def _kinds(effects: tuple[tuple[int, int, str], ...]) -> tuple[str, ...]:
    return tuple(e for e in EFFECT_ORDER if any(e == x for _, _, x in effects))


@lru_cache(maxsize=None)
def _effects_roll(effects: tuple[tuple[int, int, str], ...]) -> tuple[str, tuple[tuple[str, str], ...]]:
    """The label of the table-6 pool and what it counts."""
    kinds = _kinds(effects)
    return Label("damage effect dice, table 6, one per damaging hit (how many of: " + ", ".join(kinds) + ")", EFFECTS_RULE), tuple((kind.replace("_", " "),) * 2 for kind in kinds)


def _effects(dice: Dice, n: int, effects: tuple[tuple[int, int, str], ...]) -> tuple[str, ...]:
    """Table 6, one die per damaging hit: the distinct effects, in EFFECT_ORDER.

    The dice are one pool whose result counts each effect, so n dice cost one
    choice point of at most C(n + 3, 3) values, not 6**n paths."""
    if n == 0:
        return ()
    kinds = _kinds(effects)
    label, names = _effects_roll(effects)
    counts = dice.pool(n, 6, label, _effect_key(effects), names)
    return tuple(kind for kind, count in zip(kinds, counts) if count)


def damage(dice: Dice, hits: int, d: Damage) -> int:
    """Table 5 for ``hits`` hits: casualties (infantry, a gun's crew) or damaging hits (vehicles)."""
    if d.target == "gun" and d.weapon_only:
        return _successes(dice, hits, "weapon damage dice, one per hit", d.weapon_score, d.weapon_modifier)
    if d.target in ("infantry", "gun"):
        return _casualties(dice, hits, d)
    damaging = _successes(dice, hits, "damage dice, one per hit", d.score, d.modifier)
    if d.then is not None:
        damaging = _successes(dice, damaging, "second damage dice, one per 6", d.then, d.second_modifier)
    return damaging


def effects(dice: Dice, hits: int, lost: int, d: Damage) -> tuple[str, ...]:
    """Table 6: the distinct effects of the damaging hits (a gun: its weapon's damage dice)."""
    if d.target == "infantry":
        return ()
    if d.target == "gun":
        wrecked = lost if d.weapon_only else _successes(dice, hits, "weapon damage dice, one per hit", d.weapon_score, d.weapon_modifier)
        return (GUN_WEAPON["effect"],) if wrecked else ()
    found: tuple[str, ...] = dice.sub(_effects, lost, d.effects)
    return found


def hit_score(inputs: dict[str, Any], effective: int) -> int:
    """The player's table-4 score at the effective intensity (0 in an extra input: same as to_hit)."""
    if effective < inputs["intensity"]:
        lower: int = inputs.get(f"to_hit_at_{effective}", 0)
        if lower:
            return lower
    score: int = inputs["to_hit"]
    return score


def damage_spec(inputs: dict[str, Any]) -> Damage:
    """The damage and effect figures for one element, from the tables and inputs."""
    row = band(DAMAGE, inputs["calibre"], inputs["rockets"])
    column, effect_list = TARGETS[inputs["target"]]
    if column is None:
        score, then = row[COVER_COLUMNS[inputs["cover"]]], None
    else:
        score = row[column]
        then = row["afv_4_plus_then"] if column == "afv_4_plus" else None
    modifier = sum(r["modifier_value"] for r in DAMAGE_MODIFIERS.rows if inputs[r["modifier"]])
    # A poor target's +1 grades its troops; whether it reaches the gun's weapon die is a reading (poor_target_on_weapon).
    weapon_modifier = modifier - (DAMAGE_MODIFIERS.lookup("modifier", "poor_target", "modifier_value") if inputs["poor_target"] and not inputs["poor_target_on_weapon"] else 0)
    return Damage(
        target=inputs["target"],
        score=score,
        then=then,
        casualties=row["inf_hits"],
        second=row["second_casualty"],
        weapon_score=row[GUN_WEAPON["damage_column"]],
        modifier=modifier,
        second_modifier=modifier if inputs["modify_second_roll"] else 0,
        infantry_hits=inputs["infantry_hits"],
        effects=tuple((r["from_roll"], r["to_roll"], r["effect"]) for r in EFFECTS.rows if r["target"] == effect_list),
        weapon_only=inputs["target"] == "gun" and inputs["gun_damage"] == "weapon_only",
        weapon_modifier=weapon_modifier,
    )


class Plan(NamedTuple):
    """What the tables say for one set of inputs, worked out once, not per path."""

    intensity: int
    modifier: int  # table 3 total
    ammunition: tuple[int, ...]  # all batteries, by effective intensity 0..3, when table 3 says ammunition is used
    pins: tuple[bool, ...]  # by effective intensity 0..3
    dice: int  # hit dice for the element
    to_hit: tuple[int, ...]  # the player's score by effective intensity 0..3
    hit_modifier: int
    damage: Damage
    damage_hits: int  # the most hits that throw damage dice (note po-concentration-hits)


@lru_cache(maxsize=64)
def plan(items: tuple[tuple[str, Any], ...]) -> Plan:
    inputs = dict(items)
    intensity = inputs["intensity"]
    mission = MISSIONS.row("mission", inputs["mission"])
    levels = range(0, max(INTENSITY.column("level")) + 1)
    return Plan(
        intensity=intensity,
        modifier=modifier_total(inputs),
        ammunition=tuple(
            (inputs["batteries"] if inputs["ammunition_per"] == "battery" else 1) * _ammunition(intensity if inputs["ammunition_by"] == "called" else e)
            for e in levels
        ),
        pins=tuple(e > 0 and (inputs["pinning"] == "always" or INTENSITY.lookup("level", e, "pins")) for e in levels),
        dice=inputs["batteries"] if mission["die_per_battery"] else 1,
        to_hit=tuple(hit_score(inputs, e) for e in levels),
        hit_modifier=HIT_MODIFIERS.lookup("modifier", "small_battery", "modifier_value") if inputs["small_battery"] else 0,
        damage=damage_spec(inputs),
        damage_hits=1 if inputs["several_hits"] == "once" else inputs["batteries"],
    )


def _ammunition(level: int) -> int:
    """Points one battery spends for fire at ``level`` (none for fire cut to nothing)."""
    return INTENSITY.lookup("level", level, "ammunition") if level else 0


class _Shot(NamedTuple):
    """The chain's state (see artillery_shoot): table 3's (E, ammunition),
    then the hits, what is knocked out and the effects, each added by its
    stage (none of them when no fire arrives)."""

    effective: int
    ammunition: int
    hits: int = 0
    lost: int = 0
    found: tuple[str, ...] = ()


def artillery_shoot(dice: Dice, **inputs: Any) -> dict[str, Any]:
    """One element under the template: effectiveness, pinning, hits, damage, effect, ammunition.

    A chain of four stages (``dice.chain``), each state what the outcomes and
    the later stages need: table 3 gives (E, ammunition); the hit dice add the
    hits (none are thrown when no fire arrives); table 5 adds what is knocked
    out, table 6 the effects. So the odds follow the distribution of the state
    from stage to stage instead of replaying every path."""
    p = plan(tuple(sorted(inputs.items())))
    label = ("hit dice, one per battery" if p.dice > 1 else "hit die") + ", your table 4"
    stages: tuple[Stage[_Shot, Any], ...] = (
        stage(effectiveness, lambda _start: (p.intensity, p.modifier), lambda _start, arrived: _Shot(arrived[0], p.ammunition[arrived[0]] if arrived[1] else 0)),
        stage(_successes, lambda s: (p.dice, label, p.to_hit[s.effective], p.hit_modifier, HIT_RULE) if s.effective else None, lambda s, hits: s._replace(hits=hits)),
        stage(damage, lambda s: (min(s.hits, p.damage_hits), p.damage) if s.effective else None, lambda s, lost: s._replace(lost=lost)),
        stage(effects, lambda s: (min(s.hits, p.damage_hits), s.lost, p.damage) if s.effective else None, lambda s, found: s._replace(found=found)),
    )
    return dice.chain(_Shot(0, 0), stages, lambda s: _outcomes(p, s))


def _outcomes(p: Plan, state: _Shot) -> dict[str, Any]:
    """The outcomes of the chain's last state: E 0 and the ammunition when no
    fire arrives, else E, the ammunition, hits, knocked out and effects."""
    if not state.effective:
        return {"effective_intensity": 0, "pinned": False, "hit": 0, "knocked_out": 0, "effect": NO_EFFECT, "ammunition": state.ammunition}
    effective, ammunition, hits, lost, found = state
    return {
        "effective_intensity": effective,
        "pinned": p.pins[effective],
        "hit": hits,
        "knocked_out": lost,
        "effect": "+".join(found) or NO_EFFECT,
        "ammunition": ammunition,
    }


def check(values: dict[str, Any]) -> None:
    mission = MISSIONS.row("mission", values["mission"])
    if values["rockets"] and not mission["rockets"]:
        raise InputError(f"rockets cannot fire a {mission['name'].lower()}: pick a bombardment or a creeping barrage", "mission")
    # The ban is the Red Army's, whatever its distance from a TRP: the Russian modifier's box says Red Army too.
    if (values["red_army"] or values["russian_far_from_trp"]) and not mission["red_army"]:
        which = "untick Red Army" + (" and the Russian modifier" if values["russian_far_from_trp"] else "") if values["red_army"] else "untick the Russian modifier"
        raise InputError(f"Red Army artillery cannot fire a {mission['name'].lower()}; {which} or pick a bombardment", "mission")


def notes(values: dict[str, Any]) -> list[str]:
    mission = MISSIONS.row("mission", values["mission"])
    zones = load(P, mission["template_table"])
    zone = band(zones, values["calibre"], values["rockets"])
    row = band(DAMAGE, values["calibre"], values["rockets"])
    shooter = "rockets" if values["rockets"] else f"{values['calibre']} mm"
    out = [
        f"Template ({zones.title.split(':')[0].lower()}, row {zone['calibre']}): {zone['width_mm']} mm wide by {zone['depth_mm']} mm deep; half that size for a battery detached on its own.",
        f"Damage: table 5 row {row['name']} for {shooter}.",
        f"Hit score {values['to_hit']}+ is your own table-4 figure: the source's figures are lost.",
        "Pinning: " + next(c.label for c in PINNING if c.name == values["pinning"]).lower() + ".",
    ]
    grades = [r["name"].lower() for r in EFFECTIVENESS_MODIFIERS.rows if r["modifier"] in ("veteran", "inexperienced", "poor") and values[r["modifier"]]]
    if len(grades) > 1:
        out.append(f"Several troop grades are ticked ({', '.join(grades)}): their modifiers are added, though normally one grade applies.")
    if values["target"] == "gun":
        out.append("Gun: " + next(c.label for c in GUN_DAMAGE if c.name == values["gun_damage"]).lower() + ".")
    if values["target"] == "infantry" or (values["target"] == "gun" and values["gun_damage"] == "crew_and_weapon"):
        out.append("Casualties: " + next(c.label for c in INFANTRY_HITS if c.name == values["infantry_hits"]) + ".")
    if values["mission"] == "concentration" and values["batteries"] > 1:
        out.append("Several hits: " + next(c.label for c in SEVERAL_HITS if c.name == values["several_hits"]).lower() + ".")
    per = next(c.label for c in AMMUNITION_PER if c.name == values["ammunition_per"])
    out.append("Ammunition: " + next(c.label for c in AMMUNITION if c.name == values["ammunition_by"]).lower() + "; " + per[0].lower() + per[1:] + ".")
    if values["target"] not in ("infantry", "gun"):
        out.append("A vehicle can be targeted only while it is standing still.")
        if values["cover"] != "open":
            out.append("Cover changes your table-4 figure only: table 5 has no cover columns for vehicles.")
    if values["mission"] != "concentration" and values["batteries"] > 1:
        out.append(f"A {mission['name'].lower()} throws one hit die for the element; the {values['batteries']} batteries count for ammunition.")
    return out


EXAMPLES = (
    {"calibre": "150", "mission": "concentration", "batteries": "2", "target": "afv_4_plus", "to_hit": "3", "veteran": "true", "surprise": "true"},
    {"calibre": "105", "intensity": "3", "poor": "true", "target": "infantry", "cover": "hasty", "to_hit_at_2": "5", "to_hit_at_1": "6"},
    {"rockets": "true", "mission": "creeping", "target": "soft_vehicle", "small_battery": "true", "non_foo": "true"},
    {"mission": "concentration", "target": "gun", "gun_damage": "weapon_only", "several_hits": "once", "ammunition_by": "arrived", "to_hit": "3"},
)

CALCULATORS = (
    Calculator(
        id="po-artillery-shoot",
        title="Plastic Ostfront artillery shoot",
        system="plastic-ostfront",
        procedure=artillery_shoot,
        headline=("pinned", "knocked_out"),
        page="plastic-ostfront/artillery-shoot.md",
        description="One element under the template: whether the fire arrives and at what intensity, pinning, hits, damage, its effect, and the ammunition spent.",
        fields=(
            Field("calibre", "int", "Calibre (mm)", "The guns' calibre in millimetres; each table applies its own bands. Ignored for rockets.", default=105, minimum=20, maximum=800),
            Field("rockets", "bool", "Rockets", "The battery fires rockets: their own rows of tables 2 and 5.", default=False),
            Field("red_army", "bool", "Red Army artillery", "Soviet guns: they cannot fire a concentration or a creeping barrage (the Russian table-3 modifier counts as Red Army too).", default=False),
            Field(
                "mission",
                "choice",
                "Mission",
                "Bombardment and creeping barrage: one hit die per element. Concentration: one per contributing battery.",
                default="bombardment",
                choices=tuple(Choice(r["mission"], r["name"]) for r in MISSIONS.rows),
            ),
            Field("intensity", "int", "Intensity called", ", ".join(f"{r['level']} {r['name'].lower()}" for r in INTENSITY.rows) + ".", default=USUAL_INTENSITY, minimum=min(INTENSITY.column("level")), maximum=max(INTENSITY.column("level"))),
            *(
                Field(r["modifier"], "bool", f"{r['name']} ({r['modifier_value']:+d})", f"Table 3: {r['modifier_value']:+d} to the effectiveness die.", default=False)
                for r in EFFECTIVENESS_MODIFIERS.rows
            ),
            Field("batteries", "int", "Batteries firing", "Contributing batteries: the hit dice of a concentration, and each spends the ammunition.", default=BATTALION, minimum=1, maximum=MAX_BATTERIES),
            Field("small_battery", "bool", HIT_MODIFIERS.lookup("modifier", "small_battery", "name"), f"{HIT_MODIFIERS.lookup('modifier', 'small_battery', 'modifier_value'):+d} to every hit die.", default=False),
            Field(
                "to_hit",
                "int",
                "Your table 4 score (your own figure)",
                "Table 4's figures are lost from our source, so this is your own: the score the hit die must equal or beat at the intensity you called. Its starting value is ours, not a rule.",
                default=4,
                minimum=1,
                maximum=6,
            ),
            Field("to_hit_at_2", "int", "Your table 4 score if cut to intensity 2", "Your own figure for fire called at 3 that arrives at 2; 0 means the same as your table 4 score.", default=0, minimum=0, maximum=6),
            Field("to_hit_at_1", "int", "Your table 4 score if cut to intensity 1", "Your own figure for fire called higher that arrives at 1; 0 means the same as your table 4 score.", default=0, minimum=0, maximum=6),
            Field(
                "target",
                "choice",
                "Target",
                "The element under the template.",
                default="infantry",
                choices=(
                    Choice("infantry", "Infantry"),
                    Choice("gun", "Gun (crew and weapon)"),
                    Choice("soft_vehicle", "Soft vehicle"),
                    Choice("open_afv", "Open AFV"),
                    Choice("afv_under_4", "AFV, maximum armour under 4"),
                    Choice("afv_4_plus", "AFV, maximum armour 4 or more"),
                ),
            ),
            Field(
                "cover",
                "choice",
                "Cover",
                "The target's cover: it picks the table-5 column for infantry and gun crews (for vehicles only your table-4 figure).",
                default="open",
                choices=(Choice("open", "In the open"), Choice("hasty", "Hasty cover"), Choice("prepared", "Prepared position"), Choice("fortification", "Fortification")),
            ),
            *(
                Field(r["modifier"], "bool", r["name"].split(":")[0], f"{r['name']}: {r['modifier_value']:+d} to each damage die, never to the hit die.", default=False)
                for r in DAMAGE_MODIFIERS.rows
            ),
            Field("pinning", "choice", "Pinning rule", "The procedure and the Pinning paragraph disagree about harassing fire; see the Interpretation note.", default="step_4", choices=PINNING),
            Field("infantry_hits", "choice", "Table 5 # and 2nd casualty", "How a damaging hit on infantry or a gun crew turns into casualties; see the Interpretation note.", default="extra_die", choices=INFANTRY_HITS),
            Field(
                "modify_second_roll",
                "bool",
                "Modifiers on second dice",
                "Damage modifiers also apply to the second die of “6 then …” and to the second-casualty die. With the table 5 # reading “one more if the damage die itself reaches the 2nd-casualty score” there is no second-casualty die (the casualty is read off the damage die, modifiers and all), so for infantry and gun crews this box then changes nothing.",
                default=True,
            ),
            Field("poor_target_on_weapon", "bool", "Poor target on a gun's weapon die", "A poor or inexperienced target's damage modifier also applies to the die thrown for a gun's weapon; see the Interpretation note.", default=True),
            Field("gun_damage", "choice", "Damage to a gun", "How a hit on a gun is thrown for on tables 5 and 6; see the Interpretation note.", default="crew_and_weapon", choices=GUN_DAMAGE),
            Field("several_hits", "choice", "Several hits on one element", "Whether every hit of a concentration throws its own damage dice; see the Interpretation note.", default="each", choices=SEVERAL_HITS),
            Field("ammunition_by", "choice", "Ammunition spent by", "Whether a battery spends the intensity called or the intensity that arrives; see the Interpretation note.", default="called", choices=AMMUNITION),
            Field("ammunition_per", "choice", "Ammunition counted", "Whether each firing battery spends the points or the mission spends them once; see the Interpretation note.", default="battery", choices=AMMUNITION_PER),
        ),
        outcomes=(
            Outcome("effective_intensity", "int", "Effective intensity", "The intensity that arrives after table 3; 0 means no effect."),
            Outcome("pinned", "bool", "Pinned", "The element is pinned."),
            Outcome("hit", "int", "Hits", "Hit dice that hit (one die, or one per battery in a concentration)."),
            Outcome(
                "knocked_out",
                "int",
                "Knocked out / casualties",
                "Damaging hits on a vehicle, or casualties to infantry or a gun's crew (damaging hits on a gun's weapon, if only the weapon is thrown for).",
            ),
            Outcome("effect", "choice", "Damage effect", "Table 6 results of the damaging hits, joined with + when several differ.", values=(NO_EFFECT,) + EFFECT_ORDER),
            Outcome("ammunition", "int", "Ammunition spent", "Points spent by all the firing batteries together; none on a table-3 result of 0 (nor, if ammunition follows the intensity that arrives, when none arrives)."),
        ),
        check=check,
        notes=notes,
        examples=EXAMPLES,
    ),
)
