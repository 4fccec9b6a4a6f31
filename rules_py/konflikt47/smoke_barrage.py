"""Konflikt '47 smoke barrage: when the smoke lands, and how long the screen lasts.

Arrival: at the start of each turn after the token is placed, one D6 on the
smoke barrage chart. With m the chance of a miscalculation, s of smoke on
target and d = 1 - m - s of a delay, the barrage lands on turn t with
probability d^(t-1) * (m + s), moved by the enemy with d^(t-1) * m, and is
still pending after T turns with probability d^T.

Duration: while smoke is on the table, one D6 at each turn start; only the
"blown away" result r removes it (a drift moves it but it stays). The screen
survives exactly k checks with probability (1 - r)^k * r, and more than T
checks with (1 - r)^(T+1). The two stages are independent parts
(``dice.parts``), so the odds take (2T + 1) + (T + 2) replays, not their product.

Past the horizon. The smoke's checks are counted from whenever it lands, so
when it has not landed by turn T (``later``, ``not_yet``) the table goes on
rolling the chart (a delay sends the caller back to it next turn) until it
does, and only then rolls the dispersal checks. A seeded roll does the same,
and the player's own dice are asked for the next turn's chart roll, labelled
as past the turns looked ahead (``dice.beyond``): never a dispersal check for
smoke that has not come down. The outcomes stay those of the T turns (the
landing that comes later is counted as ``later``, ``not_yet``), so the odds do
not change: with probability 1 the smoke lands some turn, and the checks
after it do not depend on which. The chart's data must keep a result that
ends the wait, or a roll would never end: checked on load below.
"""

from __future__ import annotations

from typing import Any

from ..calculator import Calculator, Field, Outcome
from ..dice import Dice, Label, past_horizon
from ..formats import means_of
from ..rule_refs import of_table
from ..tables import load
from .notation import chart, dice as notation

BARRAGE = load("konflikt47", "smoke_barrage_chart")
DISPERSAL = load("konflikt47", "smoke_dispersal")
BARRAGE_BY_FACE = chart(BARRAGE, "result")
DISPERSAL_BY_FACE = chart(DISPERSAL, "result")
DRIFT = DISPERSAL.lookup("result", "drifts", "drift")
MAX_TURNS = 12
BARRAGE_MEANS = means_of(BARRAGE.rows, "result")
DISPERSAL_MEANS = means_of(DISPERSAL.rows, "result")
if set(BARRAGE_BY_FACE) <= {"delay"} or "delay" not in BARRAGE_BY_FACE:
    raise ValueError("smoke_barrage_chart: the chart must both delay the smoke on some face and bring it down on another")


def _chart_roll(dice: Dice, turn: int, turns: int) -> str:
    """The chart's D6 at the start of ``turn``; past the ``turns`` looked ahead its label says so."""
    result: str = dice.d6(Label(f"smoke barrage chart, start of turn {turn}{past_horizon(turn, turns)}", of_table(BARRAGE), BARRAGE_MEANS), chart=BARRAGE_BY_FACE)
    return result


def _until_it_lands(dice: Dice, turns: int) -> None:
    """Past the horizon: the chart again each turn until the smoke lands (see :meth:`rules_py.dice.Dice.beyond`)."""
    turn = turns + 1
    while _chart_roll(dice, turn, turns) == "delay":
        turn += 1


def barrage_arrival(dice: Dice, turns: int) -> dict[str, Any]:
    """Roll the chart each turn until the smoke lands or ``turns`` have passed;
    past them the chart is rolled on (for a roll and given dice) until it lands."""
    for turn in range(1, turns + 1):
        result = _chart_roll(dice, turn, turns)
        if result == "miscalculation":
            return {"arrival_turn": turn, "landing": "moved_by_enemy"}
        if result == "smoke":
            return {"arrival_turn": turn, "landing": "on_target"}
    dice.beyond(_until_it_lands, turns)
    return {"arrival_turn": "later", "landing": "not_yet"}


def dispersal_check(dice: Dice, check: int) -> bool:
    """One turn-start check; True when the smoke is still on the table after it.

    A drift moves the smoke but keeps it; its distance is rolled for the
    player's log and does not change whether the smoke stays.
    """
    result: str = dice.d6(Label(f"smoke dispersal, check {check} after landing", of_table(DISPERSAL), DISPERSAL_MEANS), chart=DISPERSAL_BY_FACE)
    if result == "drifts":
        count, sides, modifier = notation(DRIFT)
        dice.sum_of(count, sides, Label(f"smoke drifts after check {check} ({DRIFT} inches, one random direction for all)", of_table(DISPERSAL)))
    return result != "removed"


def smoke_duration(dice: Dice, turns: int) -> dict[str, Any]:
    """How many checks the screen survives: 0..turns, or "more"."""
    for survived in range(turns + 1):
        if not dice.sub(dispersal_check, survived + 1):
            return {"smoke_stays": survived}
    return {"smoke_stays": "more"}


def smoke_barrage(dice: Dice, turns: int) -> dict[str, Any]:
    """When the barrage lands within ``turns`` turns, and how long its smoke then lasts."""
    return dice.parts((barrage_arrival, turns), (smoke_duration, turns))


def _notes(inputs: dict[str, Any]) -> list[str]:
    return [
        "smoke_stays counts the turn-start dispersal checks the screen survives once it is down, "
        "whenever it lands; the first check is at the start of the turn after it lands (see the Interpretation note).",
        "The Artillery Barrage chart is not in the source, so only the smoke barrage is calculated.",
    ]


CALCULATORS = (
    Calculator(
        id="k47-smoke-barrage",
        title="Konflikt '47 smoke barrage",
        system="konflikt47",
        procedure=smoke_barrage,
        headline=("arrival_turn",),
        page="konflikt47/artillery-observers.md",
        description="On which turn an observer's smoke barrage lands, where, and how many turn-start checks its smoke survives.",
        fields=(
            Field(
                "turns",
                "int",
                "Turns to look ahead",
                "How many turn starts to follow, counting the first roll on the chart as turn 1.",
                default=3,
                minimum=1,
                maximum=MAX_TURNS,
            ),
        ),
        outcomes=(
            Outcome("arrival_turn", "int", "Lands on turn", "The turn whose chart roll brings the smoke down; later if it has not landed yet.", extra=("later",), extra_above=True),
            Outcome(
                "landing",
                "choice",
                "Where it lands",
                "On the aiming point, wherever the enemy moved the token after a miscalculation, or not yet.",
                values=("on_target", "moved_by_enemy", "not_yet"),
            ),
            Outcome(
                "smoke_stays",
                "int",
                "Checks the smoke survives",
                "Turn-start dispersal checks the screen survives before it is blown away; more if it outlasts the turns counted.",
                extra=("more",),
                extra_above=True,
            ),
        ),
        notes=_notes,
        examples=({"turns": "1"}, {"turns": "5"}),
    ),
)
