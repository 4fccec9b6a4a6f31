"""Past the horizon: a roll and the player's own dice never go ahead of the table.

A calculator follows a wait (the smoke barrage chart, the air strike chart,
a delayed call's comms checks) for so many turns, its horizon, and counts
what has not come by then as ``later``. The table goes on: the sources say
"Roll again at the beginning of the next turn" (smoke and air strike charts)
and "Fire for effect delayed until next turn" (a failed comms check). So past
the horizon a seeded roll and a resolution go on with the wait's own die, the
next turn's chart or check, and roll or ask for what follows only once the
wait is over. The outcomes and their odds are those of the turns followed.

The oracle below is written from the source texts, not from the procedures:
which results of which rolls mean "wait a turn, then roll this again"
(:data:`WAITS`). Over every calculator that rolls dice, the dice a seeded roll
rolls and the dice a resolution asks for, one die at a time with dice drawn
by hypothesis, keep to it; and every die rolled is a step the odds count
(how the outcomes come about) unless it continues a wait past the horizon.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

import rules_py
from rules_py.calculator import Calculator, InputError
from rules_py.dice import Given, NeedRoll
from strategies import valid_inputs

CALCS = rules_py.calculators()
DICE = [c for c in CALCS if c.rolls_dice]
MOST_DICE = 120  # a resolution drawn die by die stops here (a wait may go on for ever)


def _chart_wait(chart: str, waiting: str) -> Callable[[Mapping[str, Any], Sequence[dict], int], tuple[str, ...] | None]:
    """A chart rolled every turn until its result is other than ``waiting``."""

    def wait(_inputs, log, i):
        entry = log[i]
        return (chart,) if entry["label"].startswith(chart) and entry["result"] == waiting else None

    return wait


def _comms_wait(inputs: Mapping[str, Any], log: Sequence[dict], i: int) -> tuple[str, ...] | None:
    """A comms check fails when its comms dice score no more successes than
    the opposing dice (rolled right after them): the fire for effect is
    delayed a turn. Under the reading ``checks_again`` the call makes a new
    check then; under the source's own (``fires``) it fires then, no new die
    to wait for."""
    entry = log[i]
    if inputs["delayed"] != "checks_again" or not entry["label"].startswith("opposing dice"):
        return None
    own = log[i - 1]
    assert own["label"].startswith("comms dice"), own
    return ("comms dice", "opposing dice") if own["result"] <= entry["result"] else None


# calculator id -> the rolls that must come after the i-th roll of a log (each a label's
# beginning), or None: the waits of the sources.
WAITS = {
    "k47-smoke-barrage": _chart_wait("smoke barrage chart", "delay"),  # "Delay ... Roll again at the beginning of the next turn."
    "k47-air-strike": _chart_wait("air strike chart", "empty"),  # "The skies are empty ... Roll again at the beginning of the next turn."
    "chq-fire-mission": _comms_wait,  # "Failure: Fire for effect delayed until next turn."
}


def _base(label: str) -> str:
    """A step's label without the "(2nd roll)" that tells repeated rolls apart."""
    return label.rsplit(" (", 1)[0] if label.endswith(" roll)") else label


def keeps_to_the_table(calc: Calculator, inputs: Mapping[str, Any], log: Sequence[dict], need: str | None, steps: set[str] | None = None) -> None:
    """The rolls of ``log`` (each {"label", "result"}), then the roll ``need``
    (None when the procedure ended), keep to the waits of the sources: after a
    result that waits a turn comes that roll again, and a procedure never ends
    on one. With ``steps`` (the labels of the odds' steps), every roll is a
    step the odds count, or a roll that continues a wait past the horizon."""
    wait = WAITS.get(calc.id)
    labels = [str(e["label"]) for e in log] + ([need] if need is not None else [])
    waited = [False] * len(labels)
    for i in range(len(log)):
        again = wait(inputs, log, i) if wait else None
        if again is None:
            continue
        assert i + 1 < len(labels), f"{calc.id} {dict(inputs)}: it ends on {labels[i]!r}, which waits for {again[0]!r} next turn"
        for j, roll in enumerate(again, start=i + 1):
            if j < len(labels):
                assert labels[j].startswith(roll), (
                    f"{calc.id} {dict(inputs)}: after {labels[i]!r} ({log[i]['result']}) comes {labels[j]!r}: the table rolls {roll!r} next"
                )
                waited[j] = True
    if steps is not None:
        for label, after_a_wait in zip(labels, waited, strict=True):
            assert label in steps or after_a_wait, f"{calc.id} {dict(inputs)}: {label!r} is no step of the odds and continues no wait"


def _drawn_resolution(calc: Calculator, inputs: Mapping[str, Any], data, steps: set[str]) -> None:
    """The player's own dice, one roll at a time: each roll a resolution asks
    for is answered with faces hypothesis draws, and every prefix keeps to the
    table. Some examples show one face on every die (every chart roll a delay,
    every check failed, for as long as the table lets it), so that a wait long
    enough to pass the horizon is met often, not only by luck."""
    same = data.draw(st.one_of(st.none(), st.integers(1, 6)), label="every die shows")
    entries: list[int] = []
    while True:
        dice = Given(entries)
        try:
            calc.play(dice, dict(inputs))
            need = None
        except NeedRoll as asked:
            need = asked
        keeps_to_the_table(calc, inputs, dice.log, need.label if need else None, steps)
        if need is None or len(entries) >= MOST_DICE:
            return
        face = st.integers(1, need.sides) if same is None else st.just(min(same, need.sides))
        entries += [data.draw(face, label=need.label) for _ in range(need.count)]


def _keeps_to_the_table(calc: Calculator, data, seed: int) -> None:
    """A seeded roll and a resolution drawn die by die, on drawn inputs, keep to the table."""
    raw = data.draw(valid_inputs(calc))
    try:
        inputs = calc.validate(raw)
    except InputError:
        reject()  # a cross-field check refuses the combination
    steps = {_base(s.label) for s in calc.odds(raw, with_steps=True).steps}
    roll = calc.roll(seed, raw)
    keeps_to_the_table(calc, inputs, roll.dice, None, steps)
    _drawn_resolution(calc, inputs, data, steps)


WAITING = [c for c in DICE if c.id in WAITS]
NOT_WAITING = [c for c in DICE if c.id not in WAITS]


@pytest.mark.parametrize("calc", WAITING, ids=[c.id for c in WAITING])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_no_die_is_rolled_or_asked_for_before_its_step_is_reached(calc, data, seed):
    _keeps_to_the_table(calc, data, seed)


@pytest.mark.parametrize("calc", NOT_WAITING, ids=[c.id for c in NOT_WAITING])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_no_die_is_rolled_or_asked_for_before_its_step_is_reached_where_nothing_waits(calc, data, seed):
    # No source makes these wait a turn: every die is a step the odds count, and the rolls come in the procedure's order.
    _keeps_to_the_table(calc, data, seed)


def test_each_wait_is_a_calculator_that_rolls_dice():
    # A wait left behind by a renamed calculator would leave its dice unchecked.
    assert {c.id for c in WAITING} == set(WAITS)


HORIZON = [c for c in DICE if any(f.name == "turns" for f in c.fields)]


@pytest.mark.parametrize("calc", HORIZON, ids=[c.id for c in HORIZON])
@settings(max_examples=15, deadline=None)
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_the_dice_at_the_table_do_not_depend_on_the_turns_looked_ahead(calc, data, seed):
    # How far the answer looks ahead changes what it counts as "later", never
    # the dice the table rolls: the same seed rolls the same faces for the same
    # rolls, the shorter horizon's roll the start of the longer's (it may stop
    # sooner: the smoke's checks past it decide nothing but "more").
    raw = data.draw(valid_inputs(calc))
    try:
        calc.validate(raw)
    except InputError:
        reject()
    field = calc.field("turns")
    shown = data.draw(st.integers(field.minimum, field.maximum))
    short = calc.roll(seed, {**raw, "turns": shown}).dice
    long = calc.roll(seed, {**raw, "turns": field.maximum}).dice
    assert len(short) <= len(long)
    # The same rolls: the labels differ only past the shorter horizon, where it says so.
    for a, b in zip(short, long):
        assert a["faces"] == b["faces"]
        assert a["label"] == b["label"] or ("later" in a["label"] and a["label"].split(",")[0] == b["label"].split(",")[0]), (a["label"], b["label"])


# ---------------------------------------------------------------- the audit's commands


def _labels(doc: dict) -> list[str]:
    return [d["label"] for d in doc.get("given", doc.get("dice", []))]


def test_smoke_delayed_past_the_turns_asks_for_the_next_chart_roll():
    # Three delays (2, 3, 2) with turns=3: the smoke has not landed, so the
    # next die at the table is the chart's, at the start of turn 4.
    doc = rules_py.resolve("k47-smoke-barrage", {"turns": "3"}, "2,3,2")
    assert doc["status"] == "need"
    assert doc["need"]["label"].startswith("smoke barrage chart, start of turn 4") and "later" in doc["need"]["label"]
    assert doc["odds"]["arrival_turn"] == {"later": "1"}
    # Its 5 brings the smoke down (counted as later); then the first dispersal check.
    doc = rules_py.resolve("k47-smoke-barrage", {"turns": "3"}, "2,3,2,5")
    assert _labels(doc)[-1].startswith("smoke barrage chart, start of turn 4") and doc["given"][-1]["result"] == "smoke"
    assert doc["need"]["label"] == "smoke dispersal, check 1 after landing"
    # The smoke lasts as long from whenever it lands: 1 then 5/6 each check.
    assert doc["odds"]["smoke_stays"] == {"0": "1/6", "1": "5/36", "2": "25/216", "3": "125/1296", "more": "625/1296"}
    # The page's words say so too: the kept mission shows what it needs next.
    typed = rules_py.answer("k47-smoke-barrage", {"turns": "3"}, dice="2,3,2")
    assert typed["summary"].startswith("Next: smoke barrage chart, start of turn 4")


def test_an_air_strike_not_come_asks_for_the_next_chart_roll():
    doc = rules_py.resolve("k47-air-strike", {"turns": "3"}, "2,3,2")
    assert doc["need"]["label"].startswith("air strike chart, start of turn 4") and "later" in doc["need"]["label"]
    # Still empty at turn 4 (a 3): turn 5's chart; a rookie then (a 1), and only now the spotting pins.
    doc = rules_py.resolve("k47-air-strike", {"turns": "3"}, "2,3,2,3")
    assert doc["need"]["label"].startswith("air strike chart, start of turn 5")
    doc = rules_py.resolve("k47-air-strike", {"turns": "3"}, "2,3,2,3,1")
    assert doc["need"]["label"].startswith("spotting pins")
    assert doc["odds"]["arrival_turn"] == {"later": "1"} and doc["odds"]["rookie"] == {"false": "1", "true": "0"}


def test_a_call_delayed_twice_asks_for_a_third_comms_check():
    # Germany under checks_again: 4 comms dice 1,1,1,1 against 6,6,6 fail twice;
    # the next roll at the table is a third check, not the deviation die.
    doc = rules_py.resolve("chq-fire-mission", {"delayed": "checks_again"}, "1,1,1,1,6,6,6,1,1,1,1,6,6,6")
    assert doc["status"] == "need"
    assert doc["need"]["label"].startswith("comms dice, turn 3") and "later" in doc["need"]["label"]
    assert doc["need"]["dice"] == "4D6"
    assert doc["odds"]["fires"] == {"this_turn": "0", "next_turn": "0", "later": "1"}
    # It gets through (4 successes against none): then, and only then, the deviation die.
    doc = rules_py.resolve("chq-fire-mission", {"delayed": "checks_again"}, "1,1,1,1,6,6,6,1,1,1,1,6,6,6,=4,=0")
    assert doc["need"]["label"].startswith("deviation die")
    third = [g["label"] for g in doc["given"]][-2:]
    assert third[0].startswith("comms dice, turn 3") and third[1].startswith("opposing dice, turn 3")


def test_a_roll_of_smoke_not_landed_rolls_the_chart_until_it_lands():
    # Seed 1 rolls a 2 (a delay) on turn 1; with turns=1 the roll went on to
    # two dispersal checks and smoke_stays 1 for smoke that had not landed.
    roll = rules_py.roll("k47-smoke-barrage", 1, {"turns": "1"})
    labels = _labels(roll)
    assert roll["dice"][0]["result"] == "delay"
    assert labels[1].startswith("smoke barrage chart, start of turn 2") and "later" in labels[1]
    landed = next(i for i, d in enumerate(roll["dice"]) if d["result"] in ("smoke", "miscalculation"))
    assert all(label.startswith("smoke barrage chart") for label in labels[: landed + 1])
    assert all(label.startswith("smoke dispersal") for label in labels[landed + 1 :])
    assert roll["outcomes"]["arrival_turn"] == "later" and roll["outcomes"]["landing"] == "not_yet"
    # The same seed with turns=12 rolls the same faces: the table does not change with the horizon.
    assert [d["faces"] for d in roll["dice"]] == [d["faces"] for d in rules_py.roll("k47-smoke-barrage", 1, {"turns": "12"})["dice"]]


def test_a_roll_of_an_aircraft_not_come_rolls_the_chart_until_it_comes():
    roll = rules_py.roll("k47-air-strike", 1, {"turns": "1", "flak_hits": "6", "flak_shots": "2"})
    labels = _labels(roll)
    assert roll["dice"][0]["result"] == "empty"
    came = next(i for i, d in enumerate(roll["dice"]) if d["result"] in ("rookie", "attack"))
    assert came > 0 and all(label.startswith("air strike chart") for label in labels[: came + 1])
    assert labels[came + 1].startswith("spotting pins")
    assert roll["outcomes"]["arrival_turn"] == "later" and roll["outcomes"]["aborted"] == "true"


def test_the_odds_given_dice_past_the_horizon_take_those_dice():
    # turns=1: a delay (2), then past the horizon a delay (3) and the smoke (5);
    # its first check a 4 (stays). The odds still count only turn 1 (later,
    # not yet); the smoke has survived check 1, so with turns=1 (checks up to
    # 2 counted) it lasts 1 check with 1/6 (a 1 next), more with 5/6.
    doc = rules_py.resolve("k47-smoke-barrage", {"turns": "1"}, "2,3,5,4")
    assert doc["need"]["label"] == "smoke dispersal, check 2 after landing"
    assert doc["odds"]["arrival_turn"] == {"later": "1"}
    assert doc["odds"]["smoke_stays"] == {"1": "1/6", "more": "5/6"}
    # The air strike: empty (2), past the horizon the aircraft (4), then a 3 on the
    # spotting D3: 2 pins, certain; the run still all to come (plain odds: at the
    # defaults no flak, so never driven off).
    doc = rules_py.resolve("k47-air-strike", {"turns": "1"}, "2,4,3")
    assert doc["odds"]["spotting_pins"] == {"2": "1"}
    assert doc["odds"]["aborted"] == {"false": "1", "true": "0"}
    assert doc["need"]["label"] == "air strike resolution: the attack"
    # A call through on its third check: the deviation die still to come, an arrow with 4/6.
    doc = rules_py.resolve("chq-fire-mission", {"delayed": "checks_again"}, "1,1,1,1,6,6,6,1,1,1,1,6,6,6,=4,=0")
    assert doc["odds"]["deviates"] == {"false": "1/3", "true": "2/3"}
    assert doc["odds"]["fires"] == {"this_turn": "0", "next_turn": "0", "later": "1"}
