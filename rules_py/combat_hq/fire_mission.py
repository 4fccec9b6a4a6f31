"""Combat HQ fire mission: the whole call, from the radio to what the barrage does to one unit.

A pre-registered barrage or an on-call direct-support mission is three
procedures in a row, each the site's own calculator:

1. **The comms check** (:func:`rules_py.combat_hq.comms.comms_check`): on a
   success the battery fires for effect this turn; on a failure the fire for
   effect is delayed until next turn. What the delayed call needs then is
   the reading ``delayed`` (note ``chq-delayed-fire-mission``): by default it
   fires next turn as the source says, with no new check; under
   ``checks_again`` it makes a new check next turn, and a second failure
   delays it once more (``later``).
2. **The deviation die** (:func:`rules_py.combat_hq.deviation.deviation`),
   rolled on the mission's first fire for effect, whenever that comes: a Hit
   leaves the template where it was placed; an arrow moves it 1D6 + 3 inches.
3. **The fire for effect** against the unit
   (:func:`rules_py.combat_hq.fire_for_effect.fire_for_effect`), with the
   unit under the template as placed (``partial``) after a Hit; after an
   arrow, as the reading ``deviated`` says (note ``chq-deviated-template``):
   by default the unit is no longer under the template and takes nothing
   (``misses``); under ``partial`` it is partly under it (a partial
   artillery target); under ``same`` it is under it as placed.

The three stages use independent dice, so with c = P(the check succeeds),
h = ``hit_faces`` (the deviation die reads Hit on h of its 6 faces) and
S(p) = P(suppressed) of the fire for effect with ``partial`` = p,

    P(fires this turn) = c,   P(fires next turn) = 1 - c   (the default reading),
    P(suppressed) = h/6 * S(placed) + (6 - h)/6 * S(after a drift),

where S(after a drift) is 0 under ``misses``, S(true) under ``partial`` and
S(placed) under ``same``; likewise for ``unopposed`` and ``forced_back``
(a missed unit takes no Disruption). The headline is
P(suppressed this turn) = c * P(suppressed), the check and the barrage's
dice being independent. Under ``checks_again``, P(next turn) = (1 - c) c
and P(later) = (1 - c)^2.

Past the horizon. Under ``checks_again`` the procedure follows two checks,
this turn's and next turn's, and counts a call that fails both as firing
``later``. The deviation die and the fire for effect come with the first fire
for effect, whenever that is, so at the table a call failed twice makes a new
check each turn until one gets through, and only then rolls the deviation
die. A seeded roll does the same, and the player's own dice are asked for the
third check's dice, labelled as past next turn (``dice.beyond``): never the
deviation die while the call is still on the radio. The outcomes stay those
of the two checks (``later``), so the odds do not change: a check gets
through with a chance above 0 (there is always a comms die), so the fire
comes some turn with probability 1, and what it does does not depend on which.

Speed: the procedure is a chain of the three procedures (``dice.chain``):
the odds carry the distribution of (when it fires, whether it drifted)
forward, each stage enumerated once per distinct arguments (the fire for
effect once per coverage it is fired at), so the cost is the sum of the
three calculators' costs, never their product.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from typing import Any, NamedTuple

from ..calculator import Calculator, Choice, Field, Outcome
from ..dice import Dice, Stage, stage
from . import comms, deviation, fire_for_effect as ffe

PAGE = "combat-hq/fire-missions.md"
THIS_TURN, NEXT_TURN, LATER = "this_turn", "next_turn", "later"

# What a deviated template does to the unit it was placed on (note chq-deviated-template).
MISSES, PARTIAL, SAME = "misses", "partial", "same"
_SHORTEST_DRIFT = deviation.DISTANCE["dice"] + deviation.DISTANCE["add"]
DEVIATED = (
    Choice(MISSES, f"Misses the unit (it drifts {_SHORTEST_DRIFT}\" or more)"),
    Choice(PARTIAL, "Lies partly over the unit (a partial artillery target)"),
    Choice(SAME, "Lies over the unit as placed"),
)
# What a delayed call needs next turn (note chq-delayed-fire-mission).
FIRES, CHECKS_AGAIN = "fires", "checks_again"
DELAYED = (
    Choice(FIRES, "It fires for effect next turn"),
    Choice(CHECKS_AGAIN, "A new comms check next turn; failing it delays the fire again"),
)

# The inputs of the three calculators, each the very Field its own calculator takes.
_COMMS = comms.CALCULATORS[0]
_DEVIATION = deviation.CALCULATORS[0]
_FFE = ffe.CALCULATORS[0]


def _fixed_outcomes(calculator: Calculator) -> tuple[Outcome, ...]:
    """The outcomes of a calculator whose outcomes this one takes over as they
    are: a fixed tuple, not a function of the inputs (checked on load)."""
    if callable(calculator.outcomes):
        raise ValueError(f"chq-fire-mission takes {calculator.id}'s outcomes as they are: they must not depend on its inputs")
    return calculator.outcomes


_DEVIATION_OUTCOMES = _fixed_outcomes(_DEVIATION)
_FFE_OUTCOMES = _fixed_outcomes(_FFE)
COMMS_INPUTS = ("nation", "boosts", "air_recon")
DEVIATION_INPUTS = ("hit_faces",)
FFE_INPUTS = tuple(f.name for f in _FFE.fields)
if min(row["dice"] for row in comms.NATIONS.rows) < 1:
    raise ValueError("comms_dice: every nation needs a comms die, or a call delayed past the horizon would never get through")


def _comms_next_turn(dice: Dice, nation: str, boosts: int, air_recon: bool) -> dict[str, Any]:
    """The delayed call's new check (under ``checks_again``), its dice told apart in a roll's record."""
    return comms.comms_check(dice, nation, boosts, air_recon, when=", next turn")


def _checks_until_through(dice: Dice, nation: str, boosts: int, air_recon: bool) -> None:
    """Past the horizon: a new check each turn until one gets through (see :meth:`rules_py.dice.Dice.beyond`)."""
    turn = 3
    while not comms.comms_check(dice, nation, boosts, air_recon, when=f", turn {turn} (past next turn: counted as later)")["success"]:
        turn += 1


def _later_checks(dice: Dice, nation: str, boosts: int, air_recon: bool) -> None:
    """A call delayed twice under ``checks_again``: the checks the table makes
    before the fire comes (a chain stage that decides nothing)."""
    dice.beyond(_checks_until_through, nation, boosts, air_recon)


def _fire(dice: Dice, *args: Any) -> dict[str, Any]:
    """The fire for effect with its inputs in the order of its fields (a chain
    stage's arguments: the validated inputs, typed as the calculator's inputs are)."""
    return ffe.fire_for_effect(dice, **dict(zip(FFE_INPUTS, args)))


class _Call(NamedTuple):
    """The chain's state (see fire_mission): when it fires (None before the
    comms check), whether the template drifted and how far (once the deviation
    die is rolled), and the fire for effect's outcomes (None for a unit the
    drifted template misses)."""

    when: str | None = None
    deviates: bool = False
    distance: int = 0
    hit: tuple[tuple[str, Hashable], ...] | None = None


def fire_mission(dice: Dice, deviated: str = MISSES, delayed: str = FIRES, **inputs: Any) -> dict[str, Any]:
    """The comms check, then the deviation die, then the fire for effect on the unit: a chain
    whose state is a :class:`_Call`."""
    check = tuple(inputs[name] for name in COMMS_INPUTS)
    hit_faces = tuple(inputs[name] for name in DEVIATION_INPUTS)
    placed = tuple(inputs[name] for name in FFE_INPUTS)
    at = FFE_INPUTS.index("partial")
    drifted = None if deviated == MISSES else placed if deviated == SAME else placed[:at] + (True,) + placed[at + 1:]

    def fire_args(state: _Call) -> tuple[Hashable, ...] | None:
        return drifted if state.deviates else placed

    stages: tuple[Stage[_Call, Any], ...] = (
        stage(comms.comms_check, lambda _start: check, lambda _start, v: _Call(THIS_TURN if v["success"] else NEXT_TURN)),
        stage(
            _comms_next_turn,
            lambda s: check if delayed == CHECKS_AGAIN and s.when == NEXT_TURN else None,
            lambda s, v: s if v["success"] else _Call(LATER),
        ),
        stage(_later_checks, lambda s: check if s.when == LATER else None, lambda s, _v: s),
        stage(deviation.deviation, lambda _s: hit_faces, lambda s, v: s._replace(deviates=v["deviates"], distance=v["distance"])),
        stage(_fire, fire_args, lambda s, v: s._replace(hit=tuple(v.items()))),
    )
    return dice.chain(_Call(), stages, _outcomes)


def _outcomes(state: _Call) -> dict[str, Any]:
    """The outcomes of the last state: a unit the drifted template misses takes nothing."""
    when, drifted, distance = state.when, state.deviates, state.distance
    hit = dict(state.hit) if state.hit is not None else {"unopposed": 0, "suppressed": False, "forced_back": False}
    return {
        "fires": when,
        "deviates": drifted,
        "distance": distance,
        **hit,
        "suppressed_this_turn": when == THIS_TURN and hit["suppressed"],
    }


def _notes(inputs: dict[str, Any]) -> list[str]:
    delayed = "a failed check delays the fire for effect to next turn" if inputs["delayed"] == FIRES else (
        "a failed check delays the call to next turn, when it makes a new check (not our reading)"
    )
    deviated = next(c.label for c in DEVIATED if c.name == inputs["deviated"])
    return [
        f"Comms: {comms.comms_dice(inputs['nation'], inputs['boosts'], inputs['air_recon'])} comms dice against the opposing dice; {delayed}.",
        *deviation.notes(inputs),
        f"A template that drifts {deviated[0].lower() + deviated[1:]} (see the Interpretation note).",
        *ffe.notes(inputs),
    ]


CALCULATORS = (
    Calculator(
        id="chq-fire-mission",
        title="Combat HQ fire mission",
        system="combat-hq",
        procedure=fire_mission,
        headline=("suppressed_this_turn",),
        page=PAGE,
        description="A whole call for fire on one unit: the comms check, the deviation die and the fire for effect, in one answer.",
        fields=(
            *(_COMMS.field(name) for name in COMMS_INPUTS),
            *(_DEVIATION.field(name) for name in DEVIATION_INPUTS),
            *_FFE.fields,
            Field(
                "deviated",
                "choice",
                "A drifted template",
                "Where the unit stands once an arrow has moved the template; see the Interpretation note.",
                default=MISSES,
                choices=DEVIATED,
            ),
            Field(
                "delayed",
                "choice",
                "A failed check",
                "What a call whose comms check fails does next turn; see the Interpretation note.",
                default=FIRES,
                choices=DELAYED,
            ),
        ),
        outcomes=(
            Outcome("fires", "choice", "Fires for effect", "The turn the battery fires for effect: this turn when the comms check succeeds.", values=(THIS_TURN, NEXT_TURN)),
            Outcome("deviates", "bool", "Fire deviates", "An arrow on the deviation die, so the template moves."),
            next(o for o in _DEVIATION_OUTCOMES if o.name == "distance"),
            *(replace(o, help=f"{o.help} Nothing for a unit the drifted template misses.") for o in _FFE_OUTCOMES),
            Outcome("suppressed_this_turn", "bool", "Suppressed this turn", "The battery fires this turn and suppresses the unit."),
        ),
        notes=_notes,
        examples=(
            {"nation": "soviet", "boosts": "2"},
            {"hit_faces": "1", "deviated": "partial", "fire_dice": "6", "cover": "light"},
            {"delayed": "checks_again", "deviated": "same", "sheaf": "converged"},
        ),
    ),
)
