"""Konflikt '47 officers: the morale bonus a unit gets from the best officer near it.

No dice: the unit's morale becomes min(morale + bonus, ceiling), where the
bonus is that of the single highest-ranking officer within reach (ranks above
Major count as a Major) and the ceiling is the game's highest morale value.
The odds are therefore one value with probability 1.
"""

from __future__ import annotations

from typing import Any

from ..calculator import Calculator, Choice, Field, Outcome
from ..dice import Dice
from ..tables import load

BONUS = load("konflikt47", "officer_morale_bonus")
FIGURES = load("konflikt47", "hq_figures")

MORALE_CAP: int = FIGURES.lookup("figure", "morale_cap", "value")
RANGE = FIGURES.lookup("figure", "officer_range", "value")


def officer_bonus(officer: str) -> int:
    """The morale bonus of one officer; a rank with no bonus of its own counts as the rank it names."""
    if officer == "none":
        return 0
    row = BONUS.row("officer", officer)
    if row["bonus"] is None:
        row = BONUS.row("rank", row["counts_as"])
    bonus: int = row["bonus"]
    return bonus


def officer_morale(dice: Dice, morale: int, officer: str) -> dict[str, Any]:
    """The unit's morale with the bonus added, never above the ceiling."""
    return {"morale": min(morale + officer_bonus(officer), MORALE_CAP)}


CALCULATORS = (
    Calculator(
        id="k47-officer-morale",
        rolls_dice=False,
        title="Konflikt '47 officer's morale bonus",
        system="konflikt47",
        procedure=officer_morale,
        headline=("morale",),
        page="konflikt47/officers-and-medics.md",
        description=f"A unit's morale with the bonus of the best officer within {RANGE} inches, capped at {MORALE_CAP}.",
        fields=(
            Field("morale", "int", "Unit's morale", "The unit's own morale value, before any officer's bonus.", default=9, minimum=1, maximum=MORALE_CAP),
            Field(
                "officer",
                "choice",
                "Best officer in reach",
                f"The highest-ranking friendly officer within {RANGE} inches of the unit (his own unit counts); only his bonus applies.",
                default="second_lieutenant",
                choices=(Choice("none", "No officer in reach"),)
                + tuple(
                    Choice(r["officer"], f'{r["rank"]} (+{officer_bonus(r["officer"])})') for r in BONUS.rows
                ),
            ),
        ),
        outcomes=(Outcome("morale", "int", "Morale", f"The morale value the unit tests against, at most {MORALE_CAP}."),),
        examples=({"morale": "8", "officer": "captain"}, {"morale": "6", "officer": "higher"}),
    ),
)
