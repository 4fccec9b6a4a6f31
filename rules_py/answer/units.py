"""A map's outcomes: how each is drawn, a unit's badge, and the units as one table.

A map outcome carries ``draw`` (``kind``: ``"unit"``, ``"path"`` or
``"cells"``) and its cells numbered from 1. A unit outcome also has
``draw.key``, the name the map's legend gives its badges ("modifier": the
same for every unit, :attr:`rules_py.calculator.Outcome.key`), ``badge``,
the whole text ("modifier \u22121"; empty when there is nothing worth
showing) and ``badge_value``, the text the cell shows beside the legend
("\u22121").

An answer whose outcomes include unit outcomes (a supply modifier per unit)
also carries ``units``, the same values as one table, so that a page shows a
row per unit instead of a line per outcome: ``columns`` (one per kind of
unit outcome, ``draw.key``, in the order first met, each with its heading),
``rows`` (one per unit, in the order first met: its letter, its ``label``
("Unit a") and one cell per column, with the outcome's name and its value in
words, or ``null`` where the unit has no such outcome, and the row in one
phrase, ``summary``, which the answer's own ``summary`` says instead of each
of those outcomes and its line's sectors) and ``replaces``, the outcomes the
table and the map's drawing stand for in a one-line-per-outcome summary: the
unit outcomes and the lines (``"path"``) drawn on the map. Without unit
outcomes ``units`` is ``null``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, TypedDict

from ..calculator import Outcome
from ..formats import cells_of, decimal, format_value, percent, value_label
from .outcome_odds import OutcomeOdds
from .wording import labelled, likeliest_label

if TYPE_CHECKING:
    from . import shapes


class Said(NamedTuple):
    """One outcome of an answer as its summary says it, kept apart: the outcome,
    its value as text (None for odds) and what it is in words (after its label)."""

    outcome: Outcome
    value: str | None
    text: str


# The keys a map adds to an outcome or a value, each empty off a map: a
# builder unpacks them in its answer's order ({"label": ..., **drawn(outcome), ...}).


class Drawn(TypedDict, total=False):
    draw: shapes.Draw


class InCells(TypedDict, total=False):
    cells: shapes.Cells


class Badged(TypedDict, total=False):
    badge_value: str
    badge: str


def drawn(outcome: Outcome) -> Drawn:
    """How a map outcome is drawn; nothing for an outcome a map does not show."""
    if outcome.draw == "":
        return {}
    if not outcome.unit:
        return {"draw": {"kind": outcome.draw}}
    # The legend's name for this kind of badge: one entry for every unit's "modifier".
    return {"draw": {"kind": outcome.draw, "unit": outcome.unit, "key": outcome.key}}


def in_cells(outcome: Outcome, value: Any) -> InCells:
    """The cells a value names on the map; nothing for an outcome not drawn as cells."""
    return {"cells": cells_of(value)} if outcome.draw in ("cells", "path") else {}


def badged(outcome: Outcome, value: Any = None, odds: OutcomeOdds | None = None) -> Badged:
    """A unit outcome's badge (:func:`badge_value`, :func:`badge`); nothing for any other outcome."""
    if outcome.draw != "unit":
        return {}
    shown = badge_value(outcome, value, odds)
    return {"badge_value": shown, "badge": badge(outcome, shown)}


def badge_value(outcome: Outcome, value: Any = None, odds: OutcomeOdds | None = None) -> str:
    """What a unit's cell on a map shows for this outcome, beside a legend
    naming the outcome (``draw.key``, "modifier"): for a value (certain or
    rolled), a yes the outcome's name and a no nothing, a number its value,
    "none" nothing; for ``odds`` the chance of yes, the mean, or the likeliest value."""
    if odds is None or odds.is_certain:
        value = odds.certain if odds is not None else value
        if outcome.type == "bool":
            return outcome.key if value is True else ""
        return "" if value == "none" else value_label(outcome, value)
    if outcome.type == "bool":
        return percent(odds.p(True))
    if odds.mean is not None:
        return f"\u2248{decimal(odds.mean, 2)}"
    return likeliest_label(odds)


def badge(outcome: Outcome, value: str) -> str:
    """A unit's whole badge: the legend's name and the value ("modifier \u22121"),
    the name alone when that is the value, "" when there is nothing to show."""
    return "" if not value else value if value == outcome.key else f"{outcome.key} {value}"


def units_table(said: Sequence[Said]) -> shapes.Units | None:
    """The unit outcomes of an answer's outcomes, in order, as one table (see
    the module's docstring); None when there are none. A cell says the value
    in words: a certain or rolled outcome its value's label, odds what their
    summary says."""
    units = [s for s in said if s.outcome.draw == "unit"]
    if not units:
        return None
    keys = list(dict.fromkeys(s.outcome.key for s in units))
    by_unit: dict[str, dict[str, shapes.UnitCell]] = {}
    names: dict[str, str] = {}
    for s in units:
        by_unit.setdefault(s.outcome.unit, {})[s.outcome.key] = {"outcome": s.outcome.name, "value": s.value, "text": s.text}
        names.setdefault(s.outcome.unit, s.outcome.unit_label)
    rows: list[shapes.UnitRow] = []
    for unit, cells in by_unit.items():
        row = ", ".join(f"{k} {cells[k]['text']}" for k in keys if k in cells)
        rows.append({"unit": unit, "label": names[unit], "cells": [cells.get(k) for k in keys], "summary": labelled(names[unit], row)})
    return {
        "columns": [{"key": k, "label": k[:1].upper() + k[1:]} for k in keys],
        "rows": rows,
        "replaces": [s.outcome.name for s in said if s.outcome.draw in ("unit", "path")],
    }


def value_said(outcome: Outcome, value: Any) -> Said:
    """A certain or rolled value as its summary says it."""
    return Said(outcome, format_value(value), value_label(outcome, value))
