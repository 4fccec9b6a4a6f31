"""Combat HQ comms checks: calling and adjusting artillery over the radio.

The check: roll the battle group's comms dice (by nation, +1 die per boost,
+1 for air recon), each scoring on 4+, against 3 opposing dice scoring on 4+.
It succeeds with at least one unopposed success, i.e. when the comms dice
score strictly more successes than the opposing dice.

With c comms dice and o opposing dice, each succeeding with p = 1/2,
P(success) = sum over k of P(Bin(c, 1/2) = k) * P(Bin(o, 1/2) < k), and the
margin C - O is distributed as Bin(c + o, 1/2) - o, since o - O ~ Bin(o, 1/2).
"""

from __future__ import annotations

from typing import Any

from ..calculator import Calculator, Choice, Field, Outcome
from ..dice import SUCCESSES, Dice, Label, Pool, at_least
from ..rule_refs import of_table
from ..tables import load

NATIONS = load("combat_hq", "comms_dice")
POOLS = load("combat_hq", "comms_check")
MODIFIERS = load("combat_hq", "comms_modifiers")
PAGE = "combat-hq/comms.md"  # where the check's tables are: a roll's record links there from any calculator


def comms_dice(nation: str, boosts: int, air_recon: bool) -> int:
    """How many comms dice a check rolls."""
    dice: int = NATIONS.lookup("nation", nation, "dice")
    dice += boosts * MODIFIERS.lookup("modifier", "boost", "dice")
    if air_recon:
        dice += MODIFIERS.lookup("modifier", "air_recon", "dice")
    return dice


def comms_check(dice: Dice, nation: str, boosts: int, air_recon: bool, when: str = "") -> dict[str, Any]:
    """One comms check: success when comms successes exceed the opposing ones.

    ``when`` tells a later check's dice from the first's in a roll's record
    (", next turn"); it changes no odds."""
    target, opposing_target = POOLS.lookup("pool", "comms", "target"), POOLS.lookup("pool", "opposing", "target")
    own = Pool(comms_dice(nation, boosts, air_recon), 6, Label(f"comms dice{when}", of_table(POOLS, PAGE)), at_least(target), SUCCESSES)
    opposing = Pool(POOLS.lookup("pool", "opposing", "dice"), 6, Label(f"opposing dice{when}", of_table(POOLS, PAGE)), at_least(opposing_target), SUCCESSES)
    return dice.fold((own, opposing), _verdict, working=_working)


def _working(own: int, opposed: int) -> list[tuple[str, Any]]:
    """The check's arithmetic, for a roll's record: the margin, and whether it gets through."""
    verdict = _verdict(own, opposed)
    return [(f"margin {own} \u2212 {opposed}", verdict["margin"]), ("more comms successes than opposing ones", verdict["success"])]


def _verdict(own: int, opposed: int) -> dict[str, Any]:
    """The check's outcomes from the two sides' successes."""
    return {"success": own > opposed, "margin": own - opposed}


CALCULATORS = (
    Calculator(
        id="chq-comms-check",
        title="Combat HQ comms check",
        system="combat-hq",
        procedure=comms_check,
        headline=("success",),
        page=PAGE,
        description="The chance that a radio call gets through: your comms dice against three opposing dice, all scoring on 4+.",
        fields=(
            Field(
                "nation",
                "choice",
                "Nation",
                "Whose battle group is calling: it sets the number of comms dice.",
                default="germany",
                choices=tuple(Choice(r["nation"], f'{r["name"]} ({r["dice"]}D)') for r in NATIONS.rows),
            ),
            Field("boosts", "int", "Boosts", "Staff Orders or Wild Dice spent on this check; each adds a die.", default=0, minimum=0, maximum=20),
            Field("air_recon", "bool", "Air recon", "An air recon asset supports the call: one more die.", default=False),
        ),
        outcomes=(
            Outcome("success", "bool", "Check succeeds", "More comms successes than opposing successes."),
            Outcome("margin", "int", "Margin", "Comms successes minus opposing successes."),
        ),
        examples=({"nation": "soviet", "boosts": "1"},),
    ),
)
