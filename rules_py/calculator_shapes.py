"""The types of calculators.json and of the engine's refusals, generated from
rules_py/data/calculator.schema.json by scripts/build/schema_types.py: do not edit (make
check fails when they differ from what the schema gives). Calculator.schema() returns
them; mypy checks it. Imported for type checking only, so that the engine's start pays
nothing for them.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypeAlias, TypedDict


class CalculatorSchema(TypedDict):
    """One calculator: what it is, its inputs and its outcomes."""

    id: str
    title: str
    system: str
    description: str
    # The rules page the calculator belongs to, under docs/.
    page: str
    # Whether it rolls dice: a seeded roll and Use my dice are offered only then.
    rolls_dice: bool
    fields: list[FieldSchema]
    outcomes: list[OutcomeSchema]
    # The outcomes depend on the inputs (a map's units): those listed are the defaults', or none where
    # an input is required.
    dynamic_outcomes: NotRequired[Literal[True]]
    # For a calculator that rolls dice: the most entries (a die's face, or what a pool scored) the
    # player's own dice may hold; the engine refuses more (rules_py/given.py, MAX_ENTRIES), and the
    # page refuses them before asking it.
    max_dice: NotRequired[int]


class FieldSchema(TypedDict):
    """One input of a calculator."""

    name: Name
    type: Literal["int", "bool", "choice", "number", "text", "map"]
    label: str
    help: str
    # The default as text; null for a required input.
    default: str | None
    required: bool
    # Whether a sweep can take it (rules_py/sweep.py): it has a finite list of values (a yes/no, a
    # choice, a whole number with both bounds). The page offers these alone.
    sweepable: bool
    # The least value of an int or number field, as text.
    min: NotRequired[str]
    # The greatest value of an int or number field, as text.
    max: NotRequired[str]
    choices: NotRequired[list[Choice]]
    # A map's grid (rules_py/grid.py), for type map only.
    grid: NotRequired[Grid]
    # For type map only: the most characters its text may have, the largest map its grid allows
    # (rules_py/grid.py, text_limit). The page refuses a longer text before it reads it.
    max_length: NotRequired[int]
    # For an input that chooses how to read a rule the source leaves open: its Interpretation note.
    reading: NotRequired[Reading]


class Reading(TypedDict):
    """The Interpretation note an input chooses a reading of
    (rules_py/<system>/data/interpretations.toml): its id (its anchor is interpretation-<id>)
    and the rule it is about, in words.
    """

    id: str
    rule: str


class Choice(TypedDict):
    """One value a choice field takes: its name in links and the CLI, its label on the page."""

    name: str
    label: str


class OutcomeSchema(TypedDict):
    """One result of a calculator's procedure."""

    name: Name
    type: Literal["int", "bool", "choice"]
    label: str
    help: str
    # The order of a choice outcome's values.
    values: NotRequired[list[str]]
    # Values other than numbers an int outcome may take (later).
    extra: NotRequired[list[str]]
    # How the map editor draws it: a unit's badge, a path of cells or a set of cells.
    draw: NotRequired[Literal["unit", "path", "cells"]]
    # For draw unit: the label of the unit whose cell shows the value.
    unit: NotRequired[str]


class Grid(TypedDict):
    """How a map field's text encodes a grid of cells (rules_py/grid.py states the grammar;
    docs/assets/calc/grid.mjs reads it in the page).
    """

    edge_sep: str
    row_sep: str
    edges: NotRequired[list[GridEdge]]
    states: list[GridCode]
    marks: NotRequired[list[GridMark]]
    labels: NotRequired[GridLabels | None]
    max_rows: int
    max_cols: int


class GridCode(TypedDict):
    """A cell's state: its one character in the text, and what it means in words."""

    code: str
    label: str


class GridEdge(TypedDict):
    """An edge of the map that can be given before the rows, and the side the page draws it along."""

    code: str
    label: str
    side: NotRequired[Literal["top", "right", "bottom", "left"]]


class GridMark(TypedDict):
    """A mark a cell may carry after its state, on at most max cells."""

    code: str
    label: str
    max: NotRequired[int]


class GridLabels(TypedDict):
    """The characters that label units on cells, each on one cell at most."""

    chars: str
    label: str


class EngineError(TypedDict):
    """The engine's refusal: its message, and each input's (field null: not one input's)."""

    error: str
    fields: list[FieldError]
    # A failure inside the engine (a bug), not bad input.
    internal: NotRequired[Literal[True]]


class FieldError(TypedDict):
    """One message of a refusal, and the input it is about (null: the inputs as a whole)."""

    field: str | None
    message: str


# calculators.json: every calculator, in the registry's order.
Calculators: TypeAlias = "list[CalculatorSchema]"

# An input's or outcome's name, as links and the CLI spell it.
Name: TypeAlias = str
