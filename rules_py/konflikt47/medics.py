"""Konflikt '47 medics: casualties from small-arms fire ignored on a 6.

When the medic may roll (a medic model in reach, and a cause the medic can
treat), each of the n casualties is saved independently with probability
(7 - s)/6 for the score s in the table, so saved ~ Binomial(n, (7 - s)/6) and
lost = n - saved. Otherwise nothing is rolled: saved = 0, lost = n.
"""

from __future__ import annotations

from typing import Any

from ..calculator import Calculator, Choice, Field, Outcome
from ..dice import Dice, Label
from ..rule_refs import of_table
from ..tables import load

CASES = load("konflikt47", "medic_cases")
RANGE = load("konflikt47", "hq_figures").lookup("figure", "medic_range", "value")


def medic(dice: Dice, casualties: int, medic_in_range: bool, cause: str) -> dict[str, Any]:
    """Roll one die per casualty when the medic may act; each success saves a man."""
    row = CASES.row("cause", cause)
    saved = 0
    if medic_in_range and row["medic_rolls"] and casualties:
        saved = dice.successes(casualties, row["saved_on"], Label(f"medic: one die per casualty, saved on {row['saved_on']}+", of_table(CASES)))
        dice.then(f"{casualties} {'casualty' if casualties == 1 else 'casualties'} less {saved} saved", casualties - saved)
    return {"saved": saved, "lost": casualties - saved}


CALCULATORS = (
    Calculator(
        id="k47-medic",
        title="Konflikt '47 medic",
        system="konflikt47",
        procedure=medic,
        headline=("saved",),
        page="konflikt47/officers-and-medics.md",
        description="How many of a unit's casualties a medic saves, one die per casualty.",
        fields=(
            Field("casualties", "int", "Casualties", "Casualties the unit has just suffered from one cause.", default=3, minimum=0, maximum=30),
            Field(
                "medic_in_range",
                "bool",
                "Medic in reach",
                f"The unit is infantry or artillery (the medic team itself included) and has a medic model within {RANGE} inches.",
                default=True,
            ),
            Field(
                "cause",
                "choice",
                "Cause",
                "What inflicted the casualties: a medic can only treat small-arms fire.",
                default="small_arms",
                choices=tuple(Choice(r["cause"], r["name"]) for r in CASES.rows),
            ),
        ),
        outcomes=(
            Outcome("saved", "int", "Saved", "Casualties the medic ignores."),
            Outcome("lost", "int", "Lost", "Casualties that stand."),
        ),
        examples=({"casualties": "5"}, {"casualties": "4", "cause": "close_quarters"}, {"casualties": "2", "medic_in_range": "false"}),
    ),
)
