"""Plastic Ostfront table 7: does cover that is hit collapse, and what cover is left?

A hit on cover throws dice plus barrage points against the table's score to
collapse (the prepared-for-defence score for a prepared structure). The source
says "6dice"; the number of dice is an input (``dice_thrown``), whose default
is our reading (Interpretation note ``po-collapse-dice``; table 7's note on the
page and the sheet is filled from the same default). With N dice and
barrage points b against a score c, P(collapse) = P(ND6 >= c - b), the
N-dice total counted exactly (6D6 has 46656 equally likely throws). Whether the
throw must reach the score or beat it is a reading (``collapse_on``, note
``po-collapse-reaches``): beating it is reaching c + 1.

A multi-storey structure's score is per level, from the top down. Three
readings (an input): ``whole``, one throw against the per-level score times the
levels; ``one_level``, one throw against the per-level score that brings down
the top level only; ``cascade``, a throw per level from the top until one holds.
With per-level probability q, a cascade over L levels leaves L - k standing with
probability q**k * (1 - q) for k < L, and none with q**L.

Hasty cover has no score (not applicable): it never collapses here.
"""

from __future__ import annotations

from typing import Any

from ..calculator import Calculator, Choice, Field, InputError, Outcome
from ..dice import Dice, Label
from ..rule_refs import of_table
from ..tables import load

COVER = load("plastic_ostfront", "cover")
RULE = of_table(COVER)
# Barrage points are never defined in the excerpt; the calculator starts at the usual intensity.
USUAL_INTENSITY = load("plastic_ostfront", "intensity").row("usual", True)["level"]
MAX_LEVELS = 12
COLLAPSE_ON = (
    Choice("reach", "The throw equals or beats the score"),
    Choice("beat", "The throw must beat the score"),
)
STOREYS = (
    Choice("whole", "One throw against the per-level score times the levels"),
    Choice("one_level", "One throw against the per-level score: the top level falls"),
    Choice("cascade", "A throw per level from the top, until one holds"),
)
# Cover values in table order (which is also the order of protection), for the outcome's display.
COVER_VALUES = tuple(dict.fromkeys(COVER.column("value")))


def _throw(dice: Dice, n: int, target: int, *, label: str, added: int = 0) -> bool:
    """nD6 >= target, as one choice point: collapsed or not. ``added`` (the
    barrage points, already taken off ``target``) is for the roll's record:
    it shows the throw with them added against the score."""
    if target <= n:
        return True  # the lowest throw already makes it: no dice needed
    if target > 6 * n:
        return False
    thrown = dice.sum_of(n, 6, Label(label, RULE))
    if added:
        dice.then(f"plus {added} barrage {'point' if added == 1 else 'points'}", thrown + added)
    collapsed: bool = dice.then(f"needs {target + added}+, collapses", thrown >= target)
    return collapsed


def _row_figures(cover: str, prepared: bool) -> tuple[str, int | None, str | None]:
    row = COVER.row("cover", cover)
    if prepared:
        return row["prepared_value"], row["prepared_score"], row["prepared_after"]
    return row["value"], row["collapse_score"], row["after_collapse"]


def cover_collapse(dice: Dice, cover: str, prepared: bool, levels: int, barrage_points: int, dice_thrown: int, storeys: str, collapse_on: str = "reach") -> dict[str, Any]:
    """Cover that is hit: collapsed, levels left standing, and the cover value left."""
    value, score, after = _row_figures(cover, prepared)
    beat = 1 if collapse_on == "beat" else 0  # beating a score is reaching one more
    per_level = COVER.lookup("cover", cover, "per_level")
    if not per_level:
        levels = 1  # the input counts only for a multi-storey structure
    if score is None:
        return {"collapsed": False, "levels_left": levels, "cover_left": value}

    def needs(target: int) -> str:
        return f"collapse throw, {dice_thrown}D6 + {barrage_points} barrage points (needs {target + beat}+)"

    if not per_level:
        down = dice.sub(_throw, dice_thrown, score + beat - barrage_points, label=needs(score), added=barrage_points)
        return {"collapsed": down, "levels_left": 0 if down else levels, "cover_left": after if down else value}
    if storeys == "whole":
        target = score * levels
        down = dice.sub(_throw, dice_thrown, target + beat - barrage_points, label=needs(target), added=barrage_points)
        left = 0 if down else levels
    elif storeys == "one_level":
        left = levels - dice.sub(_throw, dice_thrown, score + beat - barrage_points, label=needs(score) + ", top level", added=barrage_points)
    else:
        left = levels
        while left and dice.sub(_throw, dice_thrown, score + beat - barrage_points, label=needs(score) + f", level {left} from the ground", added=barrage_points):
            left -= 1
    return {"collapsed": left == 0, "levels_left": left, "cover_left": after if left == 0 else value}


def check(values: dict[str, Any]) -> None:
    row = COVER.row("cover", values["cover"])
    if values["prepared"] and not row["structure"]:
        raise InputError(f"only a structure can be prepared for defence; {row['name'].lower()} has its own row", "prepared")
    if row["per_level"] and values["levels"] < 2:
        raise InputError("a multi-storey structure has 2 levels or more", "levels")


def notes(values: dict[str, Any]) -> list[str]:
    value, score, after = _row_figures(values["cover"], values["prepared"])
    out = []
    if not COVER.lookup("cover", values["cover"], "per_level") and values["levels"] != 1:
        out.append("Levels count only for a multi-storey structure; this cover is treated as one level.")
    if score is None:
        return out + ["Table 7 gives hasty cover no score to collapse (not applicable): it stays as it is."]
    out += [f"Score to collapse {score}" + (" per level" if COVER.lookup("cover", values["cover"], "per_level") else "") + f"; cover {value}, {after} after collapse."]
    if COVER.lookup("cover", values["cover"], "per_level"):
        out.append("Multi-storey: " + next(c.label for c in STOREYS if c.name == values["storeys"]).lower() + ".")
    return out


CALCULATORS = (
    Calculator(
        id="po-cover-collapse",
        title="Plastic Ostfront cover collapse",
        system="plastic-ostfront",
        procedure=cover_collapse,
        headline=("collapsed",),
        page="plastic-ostfront/cover.md",
        description="When a hit lands on cover, table 7: the chance it collapses and the cover value left afterwards.",
        fields=(
            Field("cover", "choice", "Cover", "The cover that is hit, as table 7 lists it.", default="heavy", choices=tuple(Choice(r["cover"], r["name"]) for r in COVER.rows)),
            Field("prepared", "bool", "Prepared for defence", "A structure prepared for defence: table 7's prepared columns (structures only).", default=False),
            Field("levels", "int", "Levels", "Storeys of a multi-storey structure (2 or more); any other cover counts as one level.", default=1, minimum=1, maximum=MAX_LEVELS),
            Field("barrage_points", "int", "Barrage points", "Added to the collapse throw. Our excerpt never defines them: enter the figure your full rules give (see the Interpretation note).", default=USUAL_INTENSITY, minimum=0, maximum=60),
            Field("dice_thrown", "int", "Dice thrown", "The source says “6dice”: the Interpretation note gives our reading, the number this starts at; set 6 to throw six dice as written.", default=1, minimum=1, maximum=6),
            Field("storeys", "choice", "Multi-storey reading", "How “per level, top down” works; see the Interpretation note.", default="whole", choices=STOREYS),
            Field("collapse_on", "choice", "Collapse on", "Whether the throw must equal or beat the score to collapse, or beat it; see the Interpretation note.", default="reach", choices=COLLAPSE_ON),
        ),
        outcomes=(
            Outcome("collapsed", "bool", "Collapsed", "The cover collapses (every level of a multi-storey structure)."),
            Outcome("levels_left", "int", "Levels left standing", "Of a multi-storey structure; 1 or 0 for anything else."),
            Outcome("cover_left", "choice", "Cover left", "The cover value the spot gives afterwards.", values=COVER_VALUES),
        ),
        check=check,
        notes=notes,
        examples=(
            {"cover": "multi_storey", "levels": "3", "storeys": "cascade", "dice_thrown": "1", "barrage_points": "5"},
            {"cover": "multi_storey", "levels": "3", "prepared": "true"},
            {"cover": "light", "dice_thrown": "1", "barrage_points": "0"},
            {"cover": "fortification", "dice_thrown": "2", "barrage_points": "3"},
        ),
    ),
)
