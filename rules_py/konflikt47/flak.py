"""Konflikt '47 flak: friendly flak holding its fire, and the hits an aircraft takes.

Holding fire: each of u friendly flak units rolls a D6 and holds on h or
more, so it fires with probability q = (h - 1)/6 and the number firing is
Binomial(u, q).

Hits on an aircraft: hits already known plus one for each of n flak shots
that scores its needed roll. The total is capped at the abort threshold A
(6): at A or more the strike is called off, and the exact count beyond A
changes nothing, so the stage has at most A + 1 values whatever n is; the
pool declares it (``alike_from``), so the odds follow the totals from A - known
up as one path, not one per total (100 shots: 7 paths, not 101).
"""

from __future__ import annotations

from typing import Any

from ..calculator import Calculator, Choice, Field, Outcome
from ..dice import Dice, Label
from ..rule_refs import of_table, section
from ..tables import load

HOLD_FIRE = load("konflikt47", "flak_hold_fire")
FIGURES = load("konflikt47", "flak_figures")

ABORT_HITS: int = FIGURES.lookup("figure", "abort_hits", "value")
TO_HIT = FIGURES.lookup("figure", "to_hit", "value")
FLAK_RULE = section("enemy-flak", "Enemy flak")


def flak_total(dice: Dice, known_hits: int, shots: int, hit_on: int, whose: str = "") -> int:
    """Total flak hits on the aircraft, capped at the abort threshold.

    ``whose`` names the flak in a roll's record ("friendly "); it changes no odds."""
    hits = known_hits
    if shots and hits < ABORT_HITS:
        # Every total that reaches the threshold ends the same way (min below): one path for them all.
        label = Label(f"{whose}flak at the aircraft: {shots} shots hitting on {hit_on}+", FLAK_RULE)
        hits += dice.successes(shots, hit_on, label, alike_from=ABORT_HITS - known_hits)
        if known_hits:
            dice.then(f"plus {known_hits} {'hit' if known_hits == 1 else 'hits'} already", hits)
        if hits >= ABORT_HITS:
            dice.then(f"{ABORT_HITS} or more", "the aircraft is driven off")
    return min(hits, ABORT_HITS)


def hold_fire(dice: Dice, experience: str, units: int) -> dict[str, Any]:
    """How many friendly flak units fail to hold their fire."""
    holds_on = HOLD_FIRE.lookup("experience", experience, "holds_on")
    held = dice.successes(units, holds_on, Label(f"friendly flak holds fire on {holds_on}+ ({units} units)", of_table(HOLD_FIRE)))
    return {"firing": dice.then(f"{units} {'unit' if units == 1 else 'units'} less {held} holding fire", units - held)}


CALCULATORS = (
    Calculator(
        id="k47-flak-hold-fire",
        title="Konflikt '47 friendly flak holding fire",
        system="konflikt47",
        procedure=hold_fire,
        headline=("firing",),
        page="konflikt47/air-strikes.md",
        description="How many of your own flak units open fire on your aircraft because they fail to hold their fire.",
        fields=(
            Field(
                "experience",
                "choice",
                "Experience",
                "The flak units' experience: it sets the roll they need to hold fire.",
                default="regular",
                choices=tuple(Choice(r["experience"], f'{r["name"]} (holds on {r["holds_on"]}+)') for r in HOLD_FIRE.rows),
            ),
            Field(
                "units",
                "int",
                "Flak units testing",
                "Friendly flak units of that experience, not Down, with the aircraft marker in arc and range.",
                default=2,
                minimum=1,
                maximum=10,
            ),
        ),
        outcomes=(Outcome("firing", "int", "Units firing", "Friendly flak units that shoot at the aircraft as if it were the enemy's."),),
        examples=({"experience": "inexperienced", "units": "3"}, {"experience": "veteran", "units": "10"}),
    ),
)
