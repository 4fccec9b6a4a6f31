"""Combat HQ fire for effect: a direct-support battery's Fire Dice against one unit.

Each unit under the Fire Template is resolved on its own:

* the battery rolls F = ``fire_dice`` + the sheaf's extra dice (``sheaves``
  table: +1 for a converged sheaf), each scoring on the ``fire_dice`` table's
  target number (4+ against Firepower targets, 5+ against Anti-Tank targets);
* the unit rolls R = ``reaction_dice`` + its Cover Dice (``cover_dice``) + the
  partial-target die (``artillery_targets``), all scoring on
  ``reaction_target`` (4+ by default: Interpretation notes
  ``chq-reaction-target`` and ``chq-cover-and-partial-dice``);
* ``unopposed`` = max(0, fire successes - reaction successes), each one a
  Disruption, so ``forced_back`` = unopposed >= 1 (note ``chq-disruptions``);
* ``suppressed`` unless the unit's dice show strictly more 6s than the
  battery's (the battery is a high-suppression weapon).

With p = (7 - tn)/6 per Fire Die and q = (7 - reaction_target)/6 per
Reaction Die, a pool's (successes, sixes) is multinomial over three kinds of
face: six (1/6), success below six (p - 1/6), failure (1 - p). The two pools
are independent, so

    P(unopposed = u, suppressed = s) = sum over (f, a) of the battery pool and
    (r, b) of the unit's pool of P(f, a) P(r, b), where max(0, f - r) = u and
    (b <= a) = s.

Speed: each pool is one choice point (``dice.pool`` with a vector key). The
unit's roll is a ``dice.sub`` keyed on the battery's count of 6s only, and it
passes on only what the outcomes need (its successes capped at the battery's
dice, and the suppression verdict), so the unit's pool is enumerated once per
count of battery 6s, not once per battery result. For F battery dice and R
unit dice that is about (F+1)(F+2)/2 * 2(F+1) + (F+1) * (R+1)(R+2)/2 replays
at worst, instead of the product of the two pools' sizes.
"""

from __future__ import annotations

from functools import lru_cache

from ..calculator import Calculator, Choice, Field, Outcome
from ..tables import load

SHEAVES = load("combat_hq", "sheaves")
FIRE_DICE = load("combat_hq", "fire_dice")
COVER = load("combat_hq", "cover_dice")
TARGETS = load("combat_hq", "artillery_targets")
DEFAULT_REACTION_TARGET = 4  # the reading of Interpretation note chq-reaction-target

# The tables as plain lookups: the procedure runs once per leaf of the odds tree.
_SHEAF_DICE = {r["sheaf"]: r["extra_dice"] for r in SHEAVES.rows}
_FIRE_TN = {r["target"]: r["tn"] for r in FIRE_DICE.rows}
_COVER_DICE = {r["cover"]: r["dice"] for r in COVER.rows}
_PARTIAL_DICE = {False: TARGETS.lookup("target", "full", "extra_dice"), True: TARGETS.lookup("target", "partial", "extra_dice")}


@lru_cache(maxsize=None)
def successes_and_sixes(tn: int):
    """Pool key: a face counts (1 success if face >= tn, 1 six if face == 6).

    Cached per target number so that the engine's pool distributions, cached on
    the key function, are reused between calls.
    """

    def key(face: int) -> tuple[int, int]:
        return (1 if face >= tn else 0, 1 if face == 6 else 0)

    key.names = (("success", "successes"), ("six", "sixes"))  # how a roll log counts them
    return key


def battery_dice(fire_dice: int, sheaf: str) -> int:
    """The Fire Dice the battery rolls: its own plus the sheaf's extra dice."""
    return fire_dice + _SHEAF_DICE[sheaf]


def unit_dice(reaction_dice: int, cover: str, partial: bool) -> int:
    """The dice the unit rolls back: Reaction Dice, Cover Dice and the partial-target die."""
    return reaction_dice + _COVER_DICE[cover] + _PARTIAL_DICE[partial]


@lru_cache(maxsize=None)
def _pool_label(side: str, n: int, tn: int) -> str:
    # Built once per pool size: the procedure runs once per leaf of the odds tree.
    return f"{side} ({n}D6, {tn}+): successes and 6s"


def _unit_roll(dice, n: int, tn: int, battery_sixes: int, cap: int) -> tuple[int, bool]:
    """The unit's n dice, as far as the outcomes need them: (successes capped
    at ``cap``, whether the unit is suppressed, i.e. shows no more 6s than
    ``battery_sixes``).

    Kept apart from the battery's roll so that, in odds mode, it is enumerated
    once per distinct count of battery 6s rather than once per battery result;
    capping the successes at the most the battery can score loses nothing.
    """
    saves, sixes = dice.pool(n, 6, _pool_label("unit's Reaction, Cover and partial-target dice", n, tn), successes_and_sixes(tn))
    return (saves if saves < cap else cap), sixes <= battery_sixes


def fire_for_effect(dice, fire_dice: int, sheaf: str, target: str, reaction_dice: int, cover: str, partial: bool, reaction_target: int) -> dict:
    """One unit under the template: the battery's Fire Dice against the unit's dice."""
    n_fire = battery_dice(fire_dice, sheaf)
    tn = _FIRE_TN[target]
    n_unit = unit_dice(reaction_dice, cover, partial)
    hits, sixes = dice.pool(n_fire, 6, _pool_label("battery's Fire Dice", n_fire, tn), successes_and_sixes(tn))
    # More battery 6s than the unit has dice cannot change the comparison.
    saves, suppressed = dice.sub(_unit_roll, n_unit, reaction_target, sixes if sixes < n_unit else n_unit, n_fire)
    unopposed = hits - saves if hits > saves else 0
    return {"unopposed": unopposed, "suppressed": suppressed, "forced_back": unopposed > 0}


def _notes(inputs: dict) -> list[str]:
    n_fire = battery_dice(inputs["fire_dice"], inputs["sheaf"])
    n_unit = unit_dice(inputs["reaction_dice"], inputs["cover"], inputs["partial"])
    fire_word = "Fire Die" if n_fire == 1 else "Fire Dice"
    unit_word = "die" if n_unit == 1 else "dice"
    return [
        f"The battery rolls {n_fire} {fire_word} scoring on {_FIRE_TN[inputs['target']]}+; the unit rolls {n_unit} {unit_word} "
        f"(Reaction, Cover and partial-target dice together) scoring on {inputs['reaction_target']}+ (our reading; see the Interpretation notes).",
        "Each unit success cancels one battery success; each success left over is one Disruption, and one or more force the unit back.",
        "The unit is suppressed unless its dice show more 6s than the battery's, counting every die each side rolled.",
    ]


CALCULATORS = (
    Calculator(
        id="chq-fire-for-effect",
        title="Combat HQ fire for effect",
        system="combat-hq",
        procedure=fire_for_effect,
        page="combat-hq/artillery.md",
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
        ),
        outcomes=(
            Outcome("unopposed", "int", "Unopposed successes (Disruptions)", "Battery successes the unit's successes did not cancel; each is one Disruption."),
            Outcome("suppressed", "bool", "Suppressed", "True unless the unit's dice show more 6s than the battery's."),
            Outcome("forced_back", "bool", "Forced back", "The unit takes one or more Disruptions and falls back toward its own table edge."),
        ),
        notes=_notes,
        examples=(
            {"fire_dice": "2", "sheaf": "converged", "target": "anti_tank", "reaction_dice": "1", "cover": "medium", "partial": "true"},
            {"fire_dice": "6", "reaction_dice": "4", "cover": "light", "reaction_target": "5"},
        ),
    ),
)
