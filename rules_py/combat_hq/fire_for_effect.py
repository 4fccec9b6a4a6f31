"""Combat HQ fire for effect: a direct-support battery's Fire Dice against one unit.

Each unit under the Fire Template is resolved on its own:

* the battery rolls F = ``fire_dice`` + the sheaf's extra dice (``sheaves``
  table: +1 for a converged sheaf), each scoring on the ``fire_dice`` table's
  target number (4+ against Firepower targets, 5+ against Anti-Tank targets);
* the unit rolls R = ``reaction_dice`` + its Cover Dice (``cover_dice``) + the
  partial-target die (``artillery_targets``). The Reaction Dice score on
  ``reaction_target`` (note ``chq-reaction-target``); the Cover Dice and the
  partial-target die on the same number, or on ``extra_dice_target`` under
  another reading (note ``chq-cover-and-partial-dice``);
* ``suppressed`` unless the unit's dice show strictly more 6s than the
  battery's (the battery is a high-suppression weapon); the unit's Cover and
  partial-target dice count among its 6s unless ``extra_dice_sixes`` is off
  (note ``chq-cover-dice-sixes``). Under the reading
  ``suppressed_without_disruption`` (note ``chq-suppressed-without-disruption``)
  a unit that takes no Disruption is suppressed whatever the 6s;
* ``unopposed`` is the Disruptions (note ``chq-disruptions``, input
  ``disruptions``): by default u = max(0, fire successes - unit successes);
  ``one_if_more`` reads min(u, 1), and ``if_suppressed`` reads u for a
  suppressed unit and 0 otherwise. ``forced_back`` = Disruptions >= 1.

With p = (7 - tn)/6 per Fire Die and q = (7 - reaction_target)/6 per
Reaction Die, a pool's (successes, sixes) is multinomial over three kinds of
face: six (1/6), success below six (p - 1/6), failure (1 - p). The two pools
are independent, so

    P(unopposed = u, suppressed = s) = sum over (f, a) of the battery pool and
    (r, b) of the unit's pool of P(f, a) P(r, b), where max(0, f - r) = u and
    (b <= a) = s.

Speed: the procedure ends in one ``dice.fold`` of the two sides' pools
(a pool a side, or two for the unit when its Cover and partial-target dice
score apart), so the odds are one loop over the pools' values, never a
replay per path. ``unopposed`` and ``forced_back`` read only the successes
and ``suppressed`` only the 6s, so each folds over those marginals: for F
battery dice and R unit dice, at most 2(F+R+1) evaluations. The readings
that join the two (``if_suppressed``, ``suppressed_without_disruption``)
need the joint (successes, 6s) of each side, but every outcome compares the
two sides only (u reads f - r, s reads a - b), so the fold is over the
distribution of the difference (f - r, a - b), one product of big integers
(``by_difference``): at most (F+R+1)**2 evaluations, not the
(F+1)(F+2)/2 * (R+1)(R+2)/2 pairs of values (16,065 at the heaviest inputs).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..calculator import Calculator, Choice, Field, Outcome
from ..dice import Dice, Label, Pool
from ..rule_refs import of_table
from ..tables import load

SHEAVES = load("combat_hq", "sheaves")
FIRE_DICE = load("combat_hq", "fire_dice")
COVER = load("combat_hq", "cover_dice")
TARGETS = load("combat_hq", "artillery_targets")
PAGE = "combat-hq/artillery.md"  # where the tables are: a roll's record links there from any calculator
DEFAULT_REACTION_TARGET = 4  # the reading of Interpretation note chq-reaction-target

SAME = "same"  # extra_dice_target: the Cover and partial-target dice score like the Reaction Dice
EXTRA_DICE_TARGETS = (Choice(SAME, "The Reaction Dice's number"),) + tuple(Choice(str(n), f"{n}+") for n in range(2, 7))
DISRUPTIONS = (
    Choice("unopposed", "Each battery success the unit does not cancel is one Disruption"),
    Choice("one_if_more", "One Disruption when the battery scores more successes than the unit"),
    Choice("if_suppressed", "Uncancelled battery successes are Disruptions only if the unit is suppressed"),
)

# The tables as plain lookups: the procedure runs once per leaf of the odds tree.
_SHEAF_DICE: dict[str, int] = {r["sheaf"]: r["extra_dice"] for r in SHEAVES.rows}
_FIRE_TN: dict[str, int] = {r["target"]: r["tn"] for r in FIRE_DICE.rows}
_COVER_DICE: dict[str, int] = {r["cover"]: r["dice"] for r in COVER.rows}
_PARTIAL_DICE: dict[bool, int] = {False: TARGETS.lookup("target", "full", "extra_dice"), True: TARGETS.lookup("target", "partial", "extra_dice")}


def successes_and_sixes(tn: int) -> tuple[tuple[int, int], ...]:
    """Pool key as a face table: each face counts (1 success if face >= tn, 1 six if face == 6)."""
    return _COUNTS[tn]


SUCCESSES_AND_SIXES = (("success", "successes"), ("six", "sixes"))  # how a roll in words counts them
_SUCCESSES, _SIXES = (0,), (1,)  # the coordinates of a (successes, sixes) value
# Every target number's table, built once: the procedure runs once per leaf of the odds tree.
_COUNTS = {tn: tuple((1 if face >= tn else 0, 1 if face == 6 else 0) for face in range(1, 7)) for tn in range(1, 8)}


def battery_dice(fire_dice: int, sheaf: str) -> int:
    """The Fire Dice the battery rolls: its own plus the sheaf's extra dice."""
    return fire_dice + _SHEAF_DICE[sheaf]


def unit_dice(reaction_dice: int, cover: str, partial: bool) -> int:
    """The dice the unit rolls back: Reaction Dice, Cover Dice and the partial-target die."""
    return reaction_dice + _COVER_DICE[cover] + _PARTIAL_DICE[partial]


@lru_cache(maxsize=None)
def _pool_label(side: str, n: int, tn: int) -> str:
    # A roll's label, built once per pool size: the procedure runs once per leaf
    # of the odds tree, where labels go unused. (A memo of text, not a cache key.)
    return Label(f"{side} ({n}D6, {tn}+): successes and 6s", of_table(FIRE_DICE if side.startswith("battery") else COVER, PAGE))


def _disruptions(unopposed: int, suppressed: bool, reading: str) -> int:
    """The Disruptions a unit takes, by the reading of note chq-disruptions."""
    if reading == "one_if_more":
        return min(unopposed, 1)
    if reading == "if_suppressed":
        return unopposed if suppressed else 0
    return unopposed


def fire_for_effect(
    dice: Dice,
    fire_dice: int,
    sheaf: str,
    target: str,
    reaction_dice: int,
    cover: str,
    partial: bool,
    reaction_target: int,
    extra_dice_target: str = SAME,
    extra_dice_sixes: bool = True,
    disruptions: str = "unopposed",
    suppressed_without_disruption: bool = False,
) -> dict[str, Any]:
    """One unit under the template: the battery's Fire Dice against the unit's dice."""
    n_fire = battery_dice(fire_dice, sheaf)
    tn = _FIRE_TN[target]
    n_unit = unit_dice(reaction_dice, cover, partial)
    extra_tn = reaction_target if extra_dice_target == SAME else int(extra_dice_target)
    battery = Pool(n_fire, 6, _pool_label("battery's Fire Dice", n_fire, tn), successes_and_sixes(tn), SUCCESSES_AND_SIXES)
    if n_unit == reaction_dice or (extra_tn == reaction_target and extra_dice_sixes):
        unit: tuple[Pool, ...] = (
            Pool(n_unit, 6, _pool_label("unit's Reaction, Cover and partial-target dice", n_unit, reaction_target), successes_and_sixes(reaction_target), SUCCESSES_AND_SIXES),
        )
    else:
        # The Cover and partial-target dice as a pool of their own: scoring on
        # extra_tn, and counting among the unit's 6s only when extra_dice_sixes.
        n_extra = n_unit - reaction_dice
        unit = ()
        if reaction_dice:
            unit += (Pool(reaction_dice, 6, _pool_label("unit's Reaction Dice", reaction_dice, reaction_target), successes_and_sixes(reaction_target), SUCCESSES_AND_SIXES),)
        unit += (
            Pool(
                n_extra, 6, _pool_label("unit's Cover and partial-target dice", n_extra, extra_tn), successes_and_sixes(extra_tn), SUCCESSES_AND_SIXES,
                adds=None if extra_dice_sixes else _SUCCESSES,
            ),
        )

    def outcome(fire: tuple[int, int], against: tuple[int, int]) -> dict[str, Any]:
        hits, sixes = fire
        saves, unit_sixes = against
        suppressed = unit_sixes <= sixes
        unopposed = _disruptions(hits - saves if hits > saves else 0, suppressed, disruptions)
        if suppressed_without_disruption and not unopposed:
            suppressed = True
        return {"unopposed": unopposed, "suppressed": suppressed, "forced_back": unopposed > 0}

    # What each outcome reads (see the module's docstring): the successes,
    # the 6s, or both where a reading joins them.
    reads = {}
    if disruptions != "if_suppressed":
        reads["unopposed"] = reads["forced_back"] = _SUCCESSES
    if not suppressed_without_disruption:
        reads["suppressed"] = _SIXES
    def working(fire: tuple[int, int], against: tuple[int, int]) -> list[tuple[str, Any]]:
        # What the record of a roll shows after the last pool: the outcome's own values, with what they came from.
        result = outcome(fire, against)
        return [
            (f"{fire[0]} Fire Dice successes against {against[0]}, Disruptions", result["unopposed"]),
            (f"the battery's 6s against the unit's, {fire[1]} to {against[1]}, suppressed", result["suppressed"]),
        ]

    # Every reading compares the two sides: the outcome reads the battery's
    # (successes, 6s) less the unit's, and nothing else (outcome(a, b) is
    # outcome(a - b, (0, 0)): hits - saves, and unit_sixes <= sixes as
    # 0 <= sixes - unit_sixes), so the fold is over that difference.
    return dice.fold((battery, unit), outcome, reads, working=working, by_difference=True)


def notes(inputs: dict[str, Any]) -> list[str]:
    n_fire = battery_dice(inputs["fire_dice"], inputs["sheaf"])
    n_unit = unit_dice(inputs["reaction_dice"], inputs["cover"], inputs["partial"])
    n_extra = n_unit - inputs["reaction_dice"]
    extra_tn = inputs["reaction_target"] if inputs["extra_dice_target"] == SAME else int(inputs["extra_dice_target"])
    fire_word = "Fire Die" if n_fire == 1 else "Fire Dice"
    unit_word = "die" if n_unit == 1 else "dice"
    if extra_tn == inputs["reaction_target"]:
        unit = (
            f"the unit rolls {n_unit} {unit_word} (Reaction, Cover and partial-target dice together) scoring on {inputs['reaction_target']}+"
        )
    else:
        unit = (
            f"the unit rolls {inputs['reaction_dice']} Reaction {'Die' if inputs['reaction_dice'] == 1 else 'Dice'} scoring on "
            f"{inputs['reaction_target']}+ and {n_extra} Cover and partial-target {'die' if n_extra == 1 else 'dice'} scoring on {extra_tn}+"
        )
    sixes = (
        "counting every die each side rolled"
        if inputs["extra_dice_sixes"]
        else "counting the unit's Reaction Dice only, not its Cover and partial-target dice"
    )
    reading = next(c.label for c in DISRUPTIONS if c.name == inputs["disruptions"])
    if inputs["suppressed_without_disruption"]:
        sixes += "; a unit that takes no Disruption is suppressed whatever the 6s (not our reading)"
    return [
        f"The battery rolls {n_fire} {fire_word} scoring on {_FIRE_TN[inputs['target']]}+; {unit} (our readings; see the Interpretation notes).",
        f"Each unit success cancels one battery success. Disruptions: {reading[0].lower() + reading[1:]}; one or more force the unit back.",
        f"The unit is suppressed unless its dice show more 6s than the battery's, {sixes}.",
    ]


CALCULATORS = (
    Calculator(
        id="chq-fire-for-effect",
        title="Combat HQ fire for effect",
        system="combat-hq",
        procedure=fire_for_effect,
        headline=("suppressed", "forced_back"),
        page=PAGE,
        description="A direct-support battery's Fire Dice against one unit under its template: Disruptions, suppression and whether the unit is forced back.",
        fields=(
            Field("fire_dice", "int", "Battery's Fire Dice", "The battery's own Fire Dice, before any sheaf bonus.", default=4, minimum=1, maximum=12),
            Field(
                "sheaf",
                "choice",
                "Sheaf",
                "A converged sheaf uses the small template and adds Fire Dice.",
                default="regular",
                choices=tuple(
                    Choice(r["sheaf"], f'{r["name"]} ({r["width"]}" x {r["depth"]}"' + (f', +{r["extra_dice"]}D)' if r["extra_dice"] else ")"))
                    for r in SHEAVES.rows
                ),
            ),
            Field(
                "target",
                "choice",
                "Target type",
                "Whether the unit is attacked as a Firepower or an Anti-Tank target; it sets what the Fire Dice need.",
                default="firepower",
                choices=tuple(Choice(r["target"], f'{r["name"]} ({r["tn"]}+)') for r in FIRE_DICE.rows),
            ),
            Field("reaction_dice", "int", "Unit's Reaction Dice", "The unit's own Reaction Dice, before cover and the partial-target die.", default=3, minimum=0, maximum=12),
            Field(
                "cover",
                "choice",
                "Cover",
                "The unit's cover: it adds Cover Dice to the unit's roll.",
                default="none",
                choices=tuple(Choice(r["cover"], f'{r["name"]} ({r["dice"]}D)') for r in COVER.rows),
            ),
            Field(
                "partial",
                "bool",
                "Partial target",
                "Less than half of the unit's base lies under the template: one more die for the unit.",
                default=False,
            ),
            Field(
                "reaction_target",
                "int",
                "Unit's dice score on",
                "The target number of the unit's Reaction, Cover and partial-target dice. The excerpt does not give it; 4+ is our reading.",
                default=DEFAULT_REACTION_TARGET,
                minimum=2,
                maximum=6,
            ),
            Field(
                "extra_dice_target",
                "choice",
                "Cover and partial-target dice score on",
                "Whether the Cover Dice and the partial-target die score like the Reaction Dice or on a number of their own; see the Interpretation note.",
                default=SAME,
                choices=EXTRA_DICE_TARGETS,
            ),
            Field(
                "extra_dice_sixes",
                "bool",
                "Cover and partial-target 6s count",
                "The unit's Cover Dice and partial-target die count among its 6s when the two sides compare 6s for suppression; see the Interpretation note.",
                default=True,
            ),
            Field(
                "disruptions",
                "choice",
                "Disruptions",
                "How the battery's successes turn into Disruptions; see the Interpretation note.",
                default="unopposed",
                choices=DISRUPTIONS,
            ),
            Field(
                "suppressed_without_disruption",
                "bool",
                "No Disruption means suppressed",
                "A unit that takes no Disruption is suppressed whatever the 6s show; see the Interpretation note.",
                default=False,
            ),
        ),
        outcomes=(
            Outcome(
                "unopposed",
                "int",
                "Unopposed successes (Disruptions)",
                "The Disruptions the unit takes: by our reading, the battery successes its own successes did not cancel.",
            ),
            Outcome("suppressed", "bool", "Suppressed", "True unless the unit's dice show more 6s than the battery's."),
            Outcome("forced_back", "bool", "Forced back", "The unit takes one or more Disruptions and falls back toward its own table edge."),
        ),
        notes=notes,
        examples=(
            {"fire_dice": "2", "sheaf": "converged", "target": "anti_tank", "reaction_dice": "1", "cover": "medium", "partial": "true"},
            {"fire_dice": "6", "reaction_dice": "4", "cover": "light", "reaction_target": "5"},
            {"fire_dice": "3", "reaction_dice": "2", "cover": "medium", "extra_dice_target": "5", "extra_dice_sixes": "false", "disruptions": "if_suppressed"},
        ),
    ),
)
