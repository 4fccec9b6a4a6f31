"""Key odds for the quick-reference sheets, computed at build time by rules_py.

A sheet prints a few grids of odds so that it needs no JavaScript at the
table. Each grid is a :class:`Grid`: one calculator, one outcome, the inputs
that vary along its rows and its columns, and what each cell shows (the
probability of one value, the chance of at least a value, the mean, or a
certain value). Every cell is read off the same answer the CLI and the page
are made from (:class:`rules_py.answer.OddsAnswer`), a row or a column at a
time by the same sweep as the page's "How it changes"
(:func:`rules_py.sweep.sweep_odds`), in the words of
:mod:`rules_py.formats`, and carries the exact inputs and fraction in
``data-`` attributes, so a test can check the sheet against
``python -m rules_py odds``.

Grids are declared per rule system in ``GRIDS`` below. The cells are worked out as a
long table (one record per row and column) and pivoted into the grid with
pandas; a column that is 0 in every row says nothing and is left out, with a
note that says so. Row labels and notes that quote a rules figure read it from
the tables, so no figure is typed here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import pandas as pd

from rules_py import get
from rules_py.answer import OddsAnswer
from rules_py.calculator import Calculator, InputError
from rules_py.formats import decimal, format_probability, format_value, input_label, modifier_text, signed, whole_percent
from rules_py.sweep import sweep_odds
from rules_py.tables import load
from scripts.build.page_templates import fragment


@dataclass(frozen=True)
class Grid:
    title: str
    calculator: str
    outcome: str
    # Each axis is (input name, its values), one row or column per value; or
    # ("", ((label, {input: value, ...}), ...)) where a row stands for several inputs.
    rows: tuple[str, tuple[Any, ...]]
    cols: tuple[str, tuple[Any, ...]]
    # "p": P(outcome == value); "at_least": P(outcome >= value); "mean": E[outcome];
    # "value": the outcome itself, for a calculator whose answer is certain (probability 1)
    show: str = "p"
    value: Any = True
    fixed: dict[str, Any] = field(default_factory=dict)  # other inputs held constant
    row_label: str = ""
    col_label: str = ""
    note: str = ""


def axis(calc: Calculator, spec: tuple[str, tuple[Any, ...]]) -> list[tuple[str, dict[str, Any]]]:
    """(label, inputs) for each row or column of a grid axis."""
    name, values = spec
    if name:
        return [(input_label(calc.field(name), v), {name: v}) for v in values]
    return [(label, dict(inputs)) for label, inputs in values]


def cell(grid: Grid, inputs: dict[str, Any], answer: OddsAnswer) -> tuple[str, dict[str, str], Fraction | Any]:
    """The text of one cell, its data attributes, and the number it shows, from the answer at its inputs."""
    odds = answer.outcome(grid.outcome)
    attrs = {
        "data-calculator": grid.calculator,
        "data-inputs": json.dumps({k: format_value(v) for k, v in inputs.items()}, sort_keys=True),
        "data-outcome": grid.outcome,
    }
    if grid.show == "value":
        if not odds.is_certain:
            raise ValueError(f"{grid.title}: {grid.outcome} is not certain for {inputs}")
        attrs["data-value"] = format_value(odds.certain)
        attrs["data-p"] = "1"
        attrs["data-show"] = "value"
        return modifier_text(odds.certain), attrs, odds.certain
    if grid.show == "mean":
        if odds.mean is None:
            raise ValueError(f"{grid.title}: {grid.outcome} has no mean for {inputs} (not a number, or no chance of one)")
        attrs["data-mean"] = signed(odds.mean)
        return decimal(odds.mean, 2), attrs, odds.mean
    if grid.show == "at_least":
        p = odds.at_least(grid.value)
        attrs["data-at-least"] = format_value(grid.value)
    else:
        p = odds.p(grid.value)
        attrs["data-value"] = format_value(grid.value)
    attrs["data-p"] = format_probability(p)
    return whole_percent(p), attrs, p


def answers(grid: Grid) -> dict[tuple[int, int], tuple[dict[str, Any], OddsAnswer]]:
    """Each cell's inputs and answer, (row, column) -> (inputs, answer): a sweep
    (rules_py.sweep.sweep_odds, the page's "How it changes") along the columns'
    input for each row, or along the rows' input for each column."""
    calc = get(grid.calculator)
    rows, cols = axis(calc, grid.rows), axis(calc, grid.cols)
    swept, across, other = (grid.cols, rows, False) if grid.cols[0] else (grid.rows, cols, True)
    if not swept[0]:
        raise ValueError(f"{grid.title}: a grid sweeps one input along its rows or its columns")
    name, values = swept
    out = {}
    for i, (_, fixed) in enumerate(across):
        inputs = {**grid.fixed, **fixed}
        _, found = sweep_odds(calc, inputs, name, [format_value(v) for v in values])
        for j, ((_, answer), value) in enumerate(zip(found, values)):
            if isinstance(answer, InputError):
                raise answer
            out[(j, i) if other else (i, j)] = ({**inputs, name: value}, answer)
    return out


def grid_frame(grid: Grid) -> pd.DataFrame:
    """Every cell of a grid as one record: row, column, the number, its text and attributes."""
    calc = get(grid.calculator)
    found = answers(grid)
    records = []
    for r, (row_label, _) in enumerate(axis(calc, grid.rows)):
        for c, (col_label, _) in enumerate(axis(calc, grid.cols)):
            text, attrs, number = cell(grid, *found[(r, c)])
            td = fragment("sheet_odds.html", "cell", attrs=attrs, text=text)
            records.append({"r": r, "row": row_label, "c": c, "col": col_label, "number": number, "td": td})
    return pd.DataFrame.from_records(records)


def pivot(grid: Grid) -> tuple[pd.DataFrame, list[str]]:
    """The grid as rows by columns of <td> cells, and the labels of the columns left out as 0 in every row."""
    cells = grid_frame(grid)
    # A certain modifier of 0 is an answer ("no penalty"); a chance or an average of 0 in every row is not.
    says_nothing = cells.groupby(["c", "col"])["number"].agg(lambda numbers: grid.show != "value" and all(n == 0 for n in numbers))
    dropped = [col for (_, col), nothing in says_nothing.items() if nothing]
    kept = cells[~cells["col"].isin(dropped)]
    table = kept.pivot(index=["r", "row"], columns=["c", "col"], values="td").sort_index(axis=0).sort_index(axis=1)
    return table, dropped


def grid_html(grid: Grid) -> str:
    calc = get(grid.calculator)
    row_head = grid.row_label or calc.field(grid.rows[0]).label
    col_head = grid.col_label or calc.field(grid.cols[0]).label
    table, dropped = pivot(grid)
    notes = [grid.note] if grid.note else []
    if dropped:
        zero = "0" if grid.show in ("mean", "value") else "0%"
        notes.append(f"Not shown: {', '.join(dropped)} ({col_head}), {zero} in every row.")
    rows = [(row_label, list(tds)) for (_, row_label), tds in table.iterrows()]
    columns = [col for _, col in table.columns]
    return fragment("sheet_odds.html", "grid", title=grid.title, corner=f"{row_head} \\ {col_head}", columns=columns, rows=rows, note=" ".join(notes)) + "\n"


# Plastic Ostfront table 3: a modifier total made of the modifiers named, each
# read from the table (its value, and its short name for the label).
_PO_MODIFIERS = load("plastic_ostfront", "effectiveness_modifiers")


def modifier_total(*ids: str) -> tuple[str, dict[str, bool]]:
    rows = [_PO_MODIFIERS.row("modifier", i) for i in ids]
    total = modifier_text(sum(row["modifier_value"] for row in rows))
    named = f" ({', '.join(row['short'] for row in rows)})" if rows else ""
    return total + named, {i: True for i in ids}


MODIFIER_TOTALS = tuple(
    modifier_total(*ids)
    for ids in (("poor", "non_foo"), ("poor",), ("non_foo",), (), ("veteran",), ("veteran", "foo_in_aeroplane"))
)

# Combat HQ's whole fire mission at its defaults, in words read from its own fields.
_MISSION = get("chq-fire-mission")
_COVER = load("combat_hq", "cover_dice")
MISSION_NOTE = (
    f"{_MISSION.field('fire_dice').default} Fire Dice against {_MISSION.field('reaction_dice').default} Reaction Dice, "
    f"{_COVER.lookup('cover', _MISSION.field('cover').default, 'name').lower()}; "
    f"{_MISSION.field('hit_faces').default} Hit faces on the deviation die, and a template that drifts "
    f"{input_label(_MISSION.field('deviated'), _MISSION.field('deviated').default).lower()} "
    "(the calculator's defaults: see its Interpretation notes)."
)

# Konrad: the isolated row of the supply penalties, whatever the distance or the depot.
KONRAD_ISOLATED = load("konrad", "supply_penalties").lookup("key", "isolated", "modifier")
REACTION_TARGET = next(f.default for f in get("chq-fire-for-effect").fields if f.name == "reaction_target")  # ours, not the rules'

GRIDS: dict[str, tuple[Grid, ...]] = {
    "combat-hq": (
        Grid(
            title="Comms check: chance of success",
            calculator="chq-comms-check",
            outcome="success",
            rows=("nation", ("commonwealth", "germany", "soviet", "usa")),
            cols=("boosts", (0, 1, 2, 3)),
            fixed={"air_recon": False},
            col_label="boosts",
            note="Air recon adds a die, the same as one more boost.",
        ),
        Grid(
            title="Fire for effect: chance the target is Forced Back",
            calculator="chq-fire-for-effect",
            outcome="forced_back",
            rows=("fire_dice", (2, 3, 4, 5, 6)),
            cols=("reaction_dice", (0, 1, 2, 3, 4)),
            fixed={"sheaf": "regular", "target": "firepower", "cover": "none", "partial": False},
            row_label="Fire Dice",
            col_label="Reaction Dice",
            note=f"Regular sheaf, Firepower target, no cover; Reaction Dice on {REACTION_TARGET}+, a figure of ours, not the rules' (see the Interpretation note).",
        ),
        Grid(
            title="Fire mission: chance the barrage suppresses the unit this turn",
            calculator="chq-fire-mission",
            outcome="suppressed_this_turn",
            rows=("nation", ("commonwealth", "germany", "soviet", "usa")),
            cols=("boosts", (0, 1, 2, 3)),
            col_label="boosts",
            note=MISSION_NOTE,
        ),
    ),
    "konflikt47": (
        Grid(
            title="Air strike: average hits on infantry",
            calculator="k47-air-strike",
            outcome="hits",
            rows=("flak_hits", (0, 1, 2, 3, 4, 5)),
            cols=("down", (False, True)),
            show="mean",
            fixed={"target": "infantry"},
            row_label="flak hits taken",
            col_label="target Down",
            note="Averaged over the three attack types as rolled; hits are 0 once the aircraft aborts. Halving rounds down and flak comes off first (the calculator's defaults).",
        ),
        Grid(
            title="Medic: chance to save at least one casualty",
            calculator="k47-medic",
            outcome="saved",
            rows=("casualties", (1, 2, 3, 4, 6, 8)),
            cols=("cause", ("small_arms", "heavy_weapon")),
            show="at_least",
            value=1,
            row_label="casualties",
            col_label="cause",
        ),
    ),
    "plastic-ostfront": (
        Grid(
            title="Effectiveness (table 3): chance the fire has any effect",
            calculator="po-artillery-shoot",
            outcome="effective_intensity",
            rows=("", MODIFIER_TOTALS),
            cols=("intensity", (1, 2, 3)),
            show="at_least",
            value=1,
            row_label="modifier total",
            col_label="intensity called",
        ),
        Grid(
            title="Effectiveness (table 3): average intensity that arrives",
            calculator="po-artillery-shoot",
            outcome="effective_intensity",
            rows=("", MODIFIER_TOTALS),
            cols=("intensity", (1, 2, 3)),
            show="mean",
            row_label="modifier total",
            col_label="intensity called",
            note="Each total is made with the modifiers named; any other way to the same total gives the same odds.",
        ),
        Grid(
            title="Counter-battery: chance to spot one of the enemy batteries that fire",
            calculator="po-counter-battery",
            outcome="spotted",
            rows=("enemy_batteries", (1, 2, 3, 4, 6)),
            cols=("", (
                ("guns", {"rockets": False, "locator": False}),
                ("guns, locator", {"rockets": False, "locator": True}),
                ("rockets", {"rockets": True, "locator": False}),
                ("rockets, locator", {"rockets": True, "locator": True}),
            )),
            row_label="enemy batteries firing",
            col_label="target, aid",
        ),
    ),
    "konrad": (
        Grid(
            title="Supply modifier to morale and REMO by distance",
            calculator="konrad-supply",
            outcome="modifier",
            rows=("distance", (0, 5, 6, 8, 9, 15)),
            cols=("depot_moving", (False, True)),
            show="value",
            row_label="sectors from the depot",
            col_label="depot moved in the last two days",
            note=f"An isolated unit takes {modifier_text(KONRAD_ISOLATED)} whatever its distance, depot moving or not.",
        ),
    ),
}


def sheet_odds_markdown(slug: str) -> str:
    return "\n".join(grid_html(g) for g in GRIDS.get(slug, ()))
