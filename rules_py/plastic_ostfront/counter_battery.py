"""Plastic Ostfront counter-battery fire: spotting the enemy's guns as they fire.

A counter-battery battery throws one D6 for each enemy battery as it fires, in
turn, and stops at its first success. Each throw spots on the table's score
(5, or 3 "for rockets") or more, with +2 on the die for a locator unit or an
observation aircraft: P(spot) = #{f : f + m >= s} / 6 = p. Whose rockets the 3
is for is a reading (``rockets_for``, note ``po-counter-battery-rockets``): by
default the enemy's (``rockets``), otherwise the counter-battery battery's own
(``own_rockets``).

With n enemy batteries firing, the throws are a truncated geometric series:
P(attempts = k, spotted) = (1 - p)**(k - 1) * p for k = 1..n, and
P(spotted) = 1 - (1 - p)**n; when nothing is spotted all n throws were made.
"""

from __future__ import annotations

from typing import Any

from ..calculator import Calculator, Choice, Field, Outcome
from ..dice import Dice, Label
from ..rule_refs import of_table
from ..tables import load
from .shoot import MAX_BATTERIES

TABLE = load("plastic_ostfront", "counter_battery")


def spotting_score(rockets: bool, locator: bool) -> tuple[int, int]:
    """(score to reach, modifier to the die)."""
    score = TABLE.lookup("case", "rockets" if rockets else "guns", "spots_on")
    modifier = TABLE.lookup("case", "locator", "modifier_value") if locator else 0
    return score, modifier


def rockets_count(values: dict[str, Any]) -> bool:
    """Whether the 3 "for rockets" applies, under the reading of whose rockets it means."""
    counts: bool = values["rockets"] if values["rockets_for"] == "enemy" else values["own_rockets"]
    return counts


def counter_battery(dice: Dice, rockets: bool, locator: bool, enemy_batteries: int, rockets_for: str = "enemy", own_rockets: bool = False) -> dict[str, Any]:
    """One counter-battery battery throws for each enemy battery in turn until it spots one."""
    rockets = rockets_count({"rockets": rockets, "rockets_for": rockets_for, "own_rockets": own_rockets})
    score, modifier = spotting_score(rockets, locator)
    needs = f"needs {score}+" + (f", {modifier:+d} to the die" if modifier else "")
    for attempt in range(1, enemy_batteries + 1):
        if score - modifier <= 1:
            return {"spotted": True, "attempts": attempt}  # certain: no die to throw
        if dice.d6(Label(f"spot enemy battery {attempt} ({needs})", of_table(TABLE)), chart=tuple(f + modifier >= score for f in range(1, 7))):
            return {"spotted": True, "attempts": attempt}
    return {"spotted": False, "attempts": enemy_batteries}


def notes(values: dict[str, Any]) -> list[str]:
    score, modifier = spotting_score(rockets_count(values), values["locator"])
    out = []
    if values["rockets_for"] == "enemy" and values["own_rockets"]:
        out.append("Your own rockets change nothing under this reading: the 3 is for the enemy's rockets.")
    if values["rockets_for"] == "own" and values["rockets"]:
        out.append("The enemy's rockets change nothing under this reading: the 3 is for your counter-battery battery's own rockets.")
    if score - modifier <= 1:
        return out + ["With the modifier every throw spots: the first enemy battery to fire is located."]
    return out + [f"Each throw spots on {score - modifier}+ on the die."]


ROCKETS_FOR = (
    Choice("enemy", "The enemy's rockets: rockets firing are easier to spot"),
    Choice("own", "The counter-battery battery's own rockets"),
)


CALCULATORS = (
    Calculator(
        id="po-counter-battery",
        title="Plastic Ostfront counter-battery spotting",
        system="plastic-ostfront",
        procedure=counter_battery,
        headline=("spotted",),
        page="plastic-ostfront/counter-battery.md",
        description="Whether a counter-battery battery locates one of the enemy batteries that fire this turn, and after how many throws.",
        fields=(
            Field("rockets", "bool", "Enemy fires rockets", "The enemy batteries are rockets: spotted on the lower score when the 3 for rockets is read as the enemy's (see the Interpretation note).", default=False),
            Field("locator", "bool", "Locator unit or observation aircraft", "A flash-and-sound locator unit or an observation aircraft is used: a bonus to every throw.", default=False),
            Field("rockets_for", "choice", "Whose rockets spot on 3", "The table's “3 for rockets” does not say whose rockets; see the Interpretation note.", default="enemy", choices=ROCKETS_FOR),
            Field("own_rockets", "bool", "Counter-battery battery fires rockets", "Your counter-battery battery is rockets: it counts only when the 3 for rockets is read as the counter-battery battery's own.", default=False),
            Field("enemy_batteries", "int", "Enemy batteries firing", "How many enemy batteries fire, one throw each in turn until one is spotted.", default=3, minimum=1, maximum=MAX_BATTERIES),
        ),
        outcomes=(
            Outcome("spotted", "bool", "An enemy battery spotted", "The counter-battery battery locates one of them."),
            Outcome("attempts", "int", "Throws made", "Throws until the first success, or one per enemy battery when none succeeds."),
        ),
        notes=notes,
        examples=({"enemy_batteries": "5", "locator": "true"}, {"rockets": "true", "enemy_batteries": "2"}),
    ),
)
