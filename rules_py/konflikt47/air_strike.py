"""Konflikt '47 air strike: arrival, spotting pins, flak and the attack run.

Arrival: one D6 on the air strike chart at each turn start. With r the
chance of a rookie pilot, a of "Here it comes!" and e = 1 - r - a of empty
skies, an aircraft arrives on turn t with probability e^(t-1) * (r + a), a
rookie's with e^(t-1) * r; after T turns none has come with probability e^T.

One attack run (a rookie's is resolved the same way, against a unit the
opponent picks): the target rolls D3-1 spotting pins; flak hits F are the
known hits plus Binomial(shots, (7 - s)/6) for shots hitting on s+, and
F >= 6 aborts the run. Friendly flak that must test to hold fire adds one
more group: of u units each holding on h+, K ~ Binomial(u, (h - 1)/6) fail
(:func:`rules_py.konflikt47.flak.hold_fire`) and fire k shots each, so F's
distribution is the mixture over K of the flak with K * k more shots. Otherwise one D6 picks the attack (pins, dice,
penetration from the resolution table), and the hits are

    flak first:   H = halve(max(R - F, 0))      halve first:  H = max(halve(R) - F, 0)

where R is the attack's 3D6 or 2D6 and halve(x) is x // 2 (rounding down)
or (x + 1) // 2 (rounding up), applied only when the target is Down and the
attack allows it (strafing and fighter-bombers only, unless
``down_halves_every_attack``: note ``k47-no-down-ground-attack``). The attack's extra pins P are its row's figure, or
max(P - F, 0) under the reading where flak cancels pins too
(``flak_cancels_pins``, Interpretation note ``k47-pins-after-flak``). Arrival, spotting and the run are independent stages with
distinct results. They are independent parts (``dice.parts``), so the odds
enumerate each on its own: 2T + 1 arrival paths, 3 spotting paths, and the
run. The run is a chain (``dice.chain``) of the hold-fire test, the flak
groups, the attack and its hits: its state (flak so far, units firing, the
attack) takes at most 7 flak totals, so each group is worked out once per
distinct total it starts from, never once per path before it.

Past the horizon. The run's outcomes describe the run whenever the aircraft
comes, so when none has come by turn T (``later``) the table goes on rolling
the chart (empty skies send the caller back to it next turn) until one does,
and only then rolls spotting pins, flak and the attack. A seeded roll does
the same, and the player's own dice are asked for the next turn's chart roll,
labelled as past the turns looked ahead (``dice.beyond``): never a spotting
die for an aircraft that has not come. The outcomes stay those of the T turns
(an aircraft that comes later is counted as ``later``, not a rookie), so the
odds do not change: with probability 1 one comes some turn, and its run does
not depend on which. The chart must keep a result that brings an aircraft,
or a roll would never end: checked on load below.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, NamedTuple

from ..calculator import Calculator, Choice, Field, InputError, Outcome
from ..dice import Dice, Label, Stage, past_horizon, stage
from ..formats import adjusted, means_of
from ..rule_refs import of_table
from ..tables import load
from . import flak
from .flak import ABORT_HITS, TO_HIT, flak_total, hold_fire
from .notation import by_key, chart, dice as notation

CHART = load("konflikt47", "air_strike_chart")
RESOLUTION = load("konflikt47", "air_strike_resolution")
TARGETS = load("konflikt47", "air_strike_targets")
# The flak fields' starting score: ours, not the excerpt's, which gives only the -2 for an aircraft.
TO_HIT_DEFAULT = 5
SPOTTING = load("konflikt47", "spotting_pins")
# Friendly flak that fails to hold fire: the experience the hold-fire calculator starts at, and
# the shots each firing unit makes (ours: the excerpt gives none; note k47-friendly-flak-shots).
_HOLD_FIRE = flak.CALCULATORS[0]
FRIENDLY_EXPERIENCE = _HOLD_FIRE.field("experience").default
FRIENDLY_SHOTS = 1
FRIENDLY = "friendly "  # how a roll's record names their shots

ARRIVAL_BY_FACE = chart(CHART, "result")
ATTACK_BY_FACE = chart(RESOLUTION, "attack")
ATTACKS = by_key(RESOLUTION, "attack")
SPOTTING_DICE = SPOTTING.rows[0]["pins"]
SPOTTING_RANGE = SPOTTING.rows[0]["range"]
# The spotting die read as the pins each face gives (D3−1: 0, 1, 2; never below 0), so that
# its step, its roll and the player's own die all show the pins it is named for, not the face.
_SPOTTING_COUNT, SPOTTING_SIDES, _SPOTTING_MODIFIER = notation(SPOTTING_DICE)
if _SPOTTING_COUNT != 1:
    raise ValueError(f"spotting_pins: {SPOTTING_DICE!r} is read as one die and its modifier, not {_SPOTTING_COUNT} dice")
SPOTTING_BY_FACE = tuple(max(face + _SPOTTING_MODIFIER, 0) for face in range(1, SPOTTING_SIDES + 1))
MAX_TURNS = 12
# What a roll's record says of each result of a chart: its row's effect, in our words.
ARRIVAL_MEANS = means_of(CHART.rows, "result")
if set(ARRIVAL_BY_FACE) <= {"empty"} or "empty" not in ARRIVAL_BY_FACE:
    raise ValueError("air_strike_chart: the chart must both leave the skies empty on some face and bring an aircraft on another")
NOT_RECORDED = Dice()  # the arithmetic of resolve_hits, worked out with no roll to record it in

FLAK_ORDERS = (
    Choice("flak_first", "Take flak hits off first, then halve"),
    Choice("halve_first", "Halve first, then take flak hits off"),
)
ROUNDINGS = (
    Choice("down", "Round halves down"),
    Choice("up", "Round halves up"),
)


def can_go_down(target: str) -> bool:
    allowed: bool = TARGETS.lookup("target", target, "can_go_down")
    return allowed


def halve(hits: int, rounding: str) -> int:
    """Half the hits, an odd count rounded as the reading in force says."""
    return (hits + 1) // 2 if rounding == "up" else hits // 2


def resolve_hits(rolled: int, flak: int, halved: bool, flak_order: str, rounding: str, dice: Dice = NOT_RECORDED) -> int:
    """The hits the target takes: the roll less one per flak hit, halved if Down; never below 0.

    Each step is shown in the roll's record (``dice.then``)."""

    def less_flak(hits: int) -> int:
        if not flak:
            return hits
        return dice.then(f"less {flak} for flak" + (", never below 0" if hits < flak else ""), max(hits - flak, 0))

    def halved_hits(hits: int) -> int:
        return dice.then(f"halved for a Down target, rounding {rounding}", halve(hits, rounding))

    if not halved:
        return less_flak(rolled)
    if flak_order == "halve_first":
        return less_flak(halved_hits(rolled))
    return halved_hits(less_flak(rolled))


def _chart_roll(dice: Dice, turn: int, turns: int) -> str:
    """The chart's D6 at the start of ``turn``; past the ``turns`` looked ahead its label says so."""
    result: str = dice.d6(Label(f"air strike chart, start of turn {turn}{past_horizon(turn, turns)}", of_table(CHART), ARRIVAL_MEANS), chart=ARRIVAL_BY_FACE)
    return result


def _until_it_comes(dice: Dice, turns: int) -> None:
    """Past the horizon: the chart again each turn until an aircraft comes (see :meth:`rules_py.dice.Dice.beyond`)."""
    turn = turns + 1
    while _chart_roll(dice, turn, turns) == "empty":
        turn += 1


def strike_arrival(dice: Dice, turns: int) -> dict[str, Any]:
    """Roll the air strike chart each turn until an aircraft comes or ``turns``
    have passed; past them the chart is rolled on (for a roll and given dice) until one comes."""
    for turn in range(1, turns + 1):
        result = _chart_roll(dice, turn, turns)
        if result != "empty":
            return {"arrival_turn": turn, "rookie": result == "rookie"}
    dice.beyond(_until_it_comes, turns)
    return {"arrival_turn": "later", "rookie": False}


def spotting_roll(dice: Dice) -> dict[str, Any]:
    """One unit's spotting pins (D3-1 in the table): the die read as its pins."""
    label = Label(f"spotting pins on the target ({SPOTTING_DICE})", of_table(SPOTTING))
    return {"spotting_pins": dice.die(SPOTTING_SIDES, label, chart=SPOTTING_BY_FACE)}


def attack_run(
    dice: Dice,
    flak_hits: int,
    flak_shots: int,
    flak_hit_on: int,
    down: bool,
    flak_order: str,
    rounding: str,
    flak_cancels_pins: bool = False,
    down_halves_every_attack: bool = False,
    more_flak_shots: int = 0,
    more_flak_hit_on: int = TO_HIT_DEFAULT,
    friendly_flak: int = 0,
    friendly_experience: str = FRIENDLY_EXPERIENCE,
    friendly_flak_shots: int = FRIENDLY_SHOTS,
    friendly_flak_hit_on: int = TO_HIT_DEFAULT,
) -> dict[str, Any]:
    """The friendly flak's hold-fire test, the flak, then (unless the aircraft
    aborts) the attack type and its hits: a chain (``dice.chain``) whose state
    is (flak hits so far, friendly units firing, the attack or None), the
    hits added last.

    The shots still to roll come in two groups, each with its own score to hit
    (note ``k47-flak-one-score``); the second is empty by default. The
    friendly units that fail to hold fire (:func:`hold_fire`) are one more
    group: each fires ``friendly_flak_shots`` shots."""
    stages: tuple[Stage[_Run, Any], ...] = (
        stage(hold_fire, lambda _s: (friendly_experience, friendly_flak) if friendly_flak else None, lambda s, held: _Run(s.flak, held["firing"], None)),
        stage(flak_total, lambda s: (s.flak, flak_shots, flak_hit_on), lambda s, flak: _Run(flak, s.firing, None)),
        stage(flak_total, lambda s: (s.flak, more_flak_shots, more_flak_hit_on) if more_flak_shots else None, lambda s, flak: _Run(flak, s.firing, None)),
        stage(flak_total, lambda s: (s.flak, s.firing * friendly_flak_shots, friendly_flak_hit_on, FRIENDLY) if s.firing else None, lambda s, flak: _Run(flak, 0, None)),
        stage(attack_roll, lambda s: () if s.flak < ABORT_HITS else None, lambda s, attack: _Run(s.flak, 0, attack)),
        stage(
            attack_hits,
            lambda s: (s.attack, s.flak, down and (ATTACKS[s.attack]["down_halves"] or down_halves_every_attack), flak_order, rounding) if s.attack else None,
            lambda s, hits: s._replace(hits=hits),
        ),
    )
    return dice.chain(_Run(flak_hits, 0, None), stages, lambda s: _run_outcomes(s, flak_cancels_pins))


class _Run(NamedTuple):
    """The attack run's chain state (see attack_run): the flak hits so far, the
    friendly units firing (until their shots are rolled), the attack (None
    before its die, and for an aborted run) and its hits (once rolled)."""

    flak: int
    firing: int
    attack: str | None
    hits: int = 0


def _run_outcomes(state: _Run, flak_cancels_pins: bool) -> dict[str, Any]:
    """The run's outcomes from the chain's last state; no attack for an aborted run."""
    flak, attack = state.flak, state.attack
    if attack is None:
        return {"aborted": True, "attack": "none", "hits": 0, "pins": 0, "penetration": 0}
    row = ATTACKS[attack]
    pins = max(row["pins"] - flak, 0) if flak_cancels_pins else row["pins"]
    return {"aborted": False, "attack": attack, "hits": state.hits, "pins": pins, "penetration": row["penetration"]}


def attack_roll(dice: Dice) -> str:
    """The air strike resolution's D6: the kind of attack."""
    attack: str = dice.d6(Label("air strike resolution: the attack", of_table(RESOLUTION)), chart=ATTACK_BY_FACE)
    return attack


def attack_hits(dice: Dice, attack: str, flak: int, halved: bool, flak_order: str, rounding: str) -> int:
    """The attack's hit dice, less the flak hits, halved when the target is Down and may be."""
    row = ATTACKS[attack]
    count, sides, modifier = notation(row["hits"])
    rolled = dice.sum_of(count, sides, Label(f"{row['name']}: hits ({row['hits']})", of_table(RESOLUTION)))
    if modifier:
        rolled = dice.then(adjusted(modifier), rolled + modifier)
    return resolve_hits(rolled, flak, halved, flak_order, rounding, dice)


def air_strike(
    dice: Dice,
    flak_hits: int,
    flak_shots: int,
    flak_hit_on: int,
    target: str,
    down: bool,
    turns: int,
    flak_order: str,
    rounding: str,
    flak_cancels_pins: bool,
    down_halves_every_attack: bool,
    more_flak_shots: int = 0,
    more_flak_hit_on: int = TO_HIT_DEFAULT,
    friendly_flak: int = 0,
    friendly_experience: str = FRIENDLY_EXPERIENCE,
    friendly_flak_shots: int = FRIENDLY_SHOTS,
    friendly_flak_hit_on: int = TO_HIT_DEFAULT,
) -> dict[str, Any]:
    """When the aircraft comes, and what one attack run does to the target: three independent parts."""
    return dice.parts(
        (strike_arrival, turns),
        (spotting_roll,),
        (
            attack_run, flak_hits, flak_shots, flak_hit_on, down and can_go_down(target), flak_order, rounding,
            flak_cancels_pins, down_halves_every_attack, more_flak_shots, more_flak_hit_on,
            friendly_flak, friendly_experience, friendly_flak_shots, friendly_flak_hit_on,
        ),
    )


def _check(inputs: dict[str, Any]) -> None:
    if inputs["down"] and not can_go_down(inputs["target"]):
        name = TARGETS.lookup("target", inputs["target"], "name")
        allowed = " and ".join(r["name"].lower() for r in TARGETS.rows if r["can_go_down"])
        raise InputError(f"only {allowed} may go Down against an air strike, not an {name.lower()}", "down")


def _notes(inputs: dict[str, Any]) -> list[str]:
    notes = [
        "The attack-run outcomes describe one run whenever it comes, a rookie pilot's included: it is resolved like Here it comes!.",
    ]
    if inputs["down_halves_every_attack"]:
        notes.append("A Down target halves a ground-attack aircraft's hits too (not our reading; see the Interpretation note).")
    else:
        notes.append("Against a ground-attack aircraft the source offers no Down option, so its hits are never halved.")
    if inputs["down"]:
        order = "flak hits come off before halving" if inputs["flak_order"] == "flak_first" else "hits are halved before flak hits come off"
        notes.append(f"Down: {order}, and an odd number halves rounding {inputs['rounding']}.")
    if inputs["friendly_flak"]:
        units = inputs["friendly_flak"]
        holds_on = flak.HOLD_FIRE.lookup("experience", inputs["friendly_experience"], "holds_on")
        notes.append(
            f"{units} friendly flak {'unit tests' if units == 1 else 'units test'} to hold fire on {holds_on}+; each that fails fires "
            f"{inputs['friendly_flak_shots']} {'shot' if inputs['friendly_flak_shots'] == 1 else 'shots'} hitting on {inputs['friendly_flak_hit_on']}+ with the other flak."
        )
    if inputs["flak_cancels_pins"]:
        notes.append("Each flak hit also takes one extra pin off the attack (not our reading; see the Interpretation note).")
    return notes


CALCULATORS = (
    Calculator(
        id="k47-air-strike",
        title="Konflikt '47 air strike",
        system="konflikt47",
        procedure=air_strike,
        headline=("aborted", "hits"),
        page="konflikt47/air-strikes.md",
        description="When an observer's aircraft turns up, whether flak drives it off, and what its attack run does to the target.",
        fields=(
            Field("flak_hits", "int", "Flak hits so far", "Hits the aircraft has already taken from flak this run.", default=0, minimum=0, maximum=20),
            Field("flak_shots", "int", "Flak shots still to roll", "Flak shots still to be rolled at the aircraft, enemy and friendly alike.", default=0, minimum=0, maximum=30),
            Field(
                "flak_hit_on",
                "int",
                "Flak hits on",
                f"The score each of those shots needs to hit, with every modifier applied ({TO_HIT} for firing at an aircraft included).",
                default=TO_HIT_DEFAULT,
                minimum=2,
                maximum=6,
            ),
            Field(
                "more_flak_shots",
                "int",
                "More flak shots, another score",
                "Further shots still to roll that need a different score to hit (flak of another quality, say); see the Interpretation note.",
                default=0,
                minimum=0,
                maximum=30,
            ),
            Field("more_flak_hit_on", "int", "More flak hits on", "The score each of those further shots needs to hit, every modifier applied.", default=TO_HIT_DEFAULT, minimum=2, maximum=6),
            Field(
                "friendly_flak",
                "int",
                "Friendly flak units testing",
                "Your own flak units, not Down, with the marker in arc and range: each tests to hold fire, and those that fail shoot at your aircraft.",
                default=0,
                minimum=0,
                maximum=10,
            ),
            replace(_HOLD_FIRE.field("experience"), name="friendly_experience", label="Friendly flak experience"),
            Field(
                "friendly_flak_shots",
                "int",
                "Shots of each friendly unit firing",
                "How many shots each friendly flak unit that fails to hold fire makes at the aircraft; see the Interpretation note.",
                default=FRIENDLY_SHOTS,
                minimum=1,
                maximum=10,
            ),
            Field(
                "friendly_flak_hit_on",
                "int",
                "Friendly flak hits on",
                f"The score each of their shots needs to hit, with every modifier applied ({TO_HIT} for firing at an aircraft included).",
                default=TO_HIT_DEFAULT,
                minimum=2,
                maximum=6,
            ),
            Field(
                "target",
                "choice",
                "Target",
                "The kind of unit attacked; armoured targets are hit on their top armour.",
                default="infantry",
                choices=tuple(Choice(r["target"], r["name"]) for r in TARGETS.rows),
            ),
            Field("down", "bool", "Target is Down", "Infantry or artillery that goes Down to halve the hits of a strafing fighter or a fighter-bomber.", default=False),
            Field("turns", "int", "Turns to look ahead", "How many turn starts to follow, counting the first roll on the chart as turn 1.", default=3, minimum=1, maximum=MAX_TURNS),
            Field(
                "flak_order",
                "choice",
                "Down: flak or halving first",
                "When a Down target halves the hits, whether flak hits come off before or after the halving.",
                default="flak_first",
                choices=FLAK_ORDERS,
            ),
            Field("rounding", "choice", "Down: odd hits round", "How an odd number of hits halves for a Down target.", default="down", choices=ROUNDINGS),
            Field(
                "flak_cancels_pins",
                "bool",
                "Flak also cancels pins",
                "Each flak hit takes one of the attack's extra pins away as well as one hit; see the Interpretation note.",
                default=False,
            ),
            Field(
                "down_halves_every_attack",
                "bool",
                "Down also halves ground attack",
                "A Down target halves a ground-attack aircraft's hits as well; see the Interpretation note.",
                default=False,
            ),
        ),
        outcomes=(
            Outcome("arrival_turn", "int", "Aircraft arrives on turn", "The turn whose chart roll brings an aircraft; later if none has come yet.", extra=("later",), extra_above=True),
            Outcome("rookie", "bool", "Rookie pilot", "Whether the aircraft that comes is a rookie's, so the opponent picks one of your units as its target."),
            Outcome("aborted", "bool", "Driven off", f"The run is called off because the aircraft took {ABORT_HITS} or more flak hits."),
            Outcome(
                "attack",
                "choice",
                "Attack",
                "The kind of attack; none when the run is called off.",
                values=tuple(r["attack"] for r in RESOLUTION.rows) + ("none",),
            ),
            Outcome("hits", "int", "Hits on the target", "After flak and any halving; 0 when the run is called off."),
            Outcome("pins", "int", "Extra pins from the attack", "The attack's own pins on the target (less the flak hits, if flak cancels pins); 0 when the run is called off."),
            Outcome("penetration", "int", "Penetration bonus", "Added to each hit's penetration; 0 when the run is called off."),
            Outcome("spotting_pins", "int", "Spotting pins", f"One unit's pins for sighting the aircraft ({SPOTTING_DICE}), for the target or any unit within {SPOTTING_RANGE} inches."),
        ),
        check=_check,
        notes=_notes,
        examples=(
            {"flak_hits": "2", "flak_shots": "4", "down": "true", "target": "artillery"},
            {"flak_shots": "6", "flak_hit_on": "4", "target": "armoured", "turns": "1"},
            {"flak_hits": "3", "down": "true", "flak_order": "halve_first", "rounding": "up"},
            {"flak_hits": "1", "down": "true", "down_halves_every_attack": "true", "flak_cancels_pins": "true"},
        ),
    ),
)
