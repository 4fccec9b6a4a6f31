"""Calculators: a procedure plus its input schema, outcomes and validation.

A :class:`Calculator` ties one rules procedure (see :mod:`rules_py.dice`) to

* ``fields``: the inputs a player sets, each a :class:`Field` with a type
  (``int``, ``bool``, ``choice``, ``number``, ``text`` or ``map``), a default,
  bounds or choices, and help text in our own words;
* ``outcomes``: what the procedure returns, each an :class:`Outcome`;
* optional ``check`` (cross-field rules, raising :class:`InputError`) and
  ``notes`` (the readings in force, shown beside the odds).

Every entry point validates first, so a procedure only ever sees clean,
typed values. Raw values may be Python values or the strings of a command
line or a URL query (``"true"``, ``"3"``, ``"soviet"``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field as dataclass_field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, get_args

from .dice import Dice, Distribution, Rolling, Step, enumerate_given, enumerate_outcomes, enumerate_steps
from .formats import format_value
from .grid import check_spec, text_limit

if TYPE_CHECKING:  # calculator.schema.json's types, generated: nothing to import at run time
    from .calculator_shapes import CalculatorSchema, EngineError, FieldSchema, Grid, OutcomeSchema

FieldType = Literal["int", "bool", "choice", "number", "text", "map"]
OutcomeType = Literal["int", "bool", "choice"]
FIELD_TYPES: tuple[FieldType, ...] = get_args(FieldType)
OUTCOME_TYPES: tuple[OutcomeType, ...] = get_args(OutcomeType)
_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
MAX_TEXT = 4000

# A field of type "map" has a ``grid`` saying how its text encodes a grid of
# cells (rules_py.grid.MAP_GRID_KEYS); rules_py.grid holds the grammar and reads it.


def quoted(raw: Any, limit: int = 80) -> str:
    """A bad value for an error message: its ``repr``, cut to the first ``limit``
    characters so that a huge value never makes a huge message."""
    text = raw if isinstance(raw, str) else repr(raw)
    if len(text) > limit:
        return repr(text[:limit]) + f"… ({len(text)} characters)"
    return repr(raw)


class InputError(ValueError):
    """Invalid input. ``errors`` lists (field name or None, message) pairs."""

    def __init__(self, errors: Sequence[tuple[str | None, str]] | str, field: str | None = None):
        if isinstance(errors, str):
            errors = [(field, errors)]
        self.errors: list[tuple[str | None, str]] = list(errors)
        super().__init__("; ".join(f"{name}: {msg}" if name else msg for name, msg in self.errors))

    def to_dict(self) -> EngineError:
        return {"error": str(self), "fields": [{"field": f, "message": m} for f, m in self.errors]}


@dataclass(frozen=True)
class Choice:
    name: str
    label: str


@dataclass(frozen=True)
class Field:
    """One input. ``minimum``/``maximum`` bound int and number fields."""

    name: str
    type: FieldType
    label: str
    help: str
    default: Any = None
    minimum: int | Fraction | None = None
    maximum: int | Fraction | None = None
    choices: tuple[Choice, ...] = ()
    required: bool = False
    # For type "map" only: how the text encodes a grid, so a generic editor can draw it.
    # See rules_py.grid; the rules that give the grid meaning stay in the procedure.
    grid: Grid | None = dataclass_field(default=None, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise ValueError(f"bad field name {self.name!r}")
        if self.type not in FIELD_TYPES:
            raise ValueError(f"{self.name}: unknown field type {self.type!r}")
        if self.type == "choice" and not self.choices:
            raise ValueError(f"{self.name}: a choice field needs choices")
        if (self.type == "map") != (self.grid is not None):
            raise ValueError(f"{self.name}: a map field, and only a map field, has a grid")
        if self.grid is not None:
            try:
                check_spec(self.grid)
            except ValueError as e:
                raise ValueError(f"{self.name}: {e}") from None
        if not self.required and self.default is not None:
            self.parse(self.default)  # a default must itself be valid

    def allowed(self) -> str:
        """What this field accepts, in words, for error messages."""
        if self.type == "bool":
            return "true or false"
        if self.type == "choice":
            return "one of " + ", ".join(c.name for c in self.choices)
        if self.type in ("int", "number"):
            kind = "a whole number" if self.type == "int" else "a number"
            if self.minimum is not None and self.maximum is not None:
                return f"{kind} from {self.minimum} to {self.maximum}"
            if self.minimum is not None:
                return f"{kind} of at least {self.minimum}"
            if self.maximum is not None:
                return f"{kind} of at most {self.maximum}"
            return kind
        if self.type == "map":
            grid = self.map_grid()
            return f"a map of at most {grid['max_rows']} rows of {grid['max_cols']} cells ({text_limit(grid)} characters)"
        return f"text of at most {MAX_TEXT} characters"

    def parse(self, raw: Any) -> Any:
        """The typed value of ``raw``, or InputError naming this field."""
        bad = InputError(f"{quoted(raw)} is not allowed: expected {self.allowed()}", self.name)
        if self.type == "bool":
            if isinstance(raw, bool):
                return raw
            if isinstance(raw, str) and raw.strip().lower() in ("true", "false"):
                return raw.strip().lower() == "true"
            raise bad
        if self.type == "choice":
            if isinstance(raw, str) and raw.strip() in {c.name for c in self.choices}:
                return raw.strip()
            raise bad
        if self.type == "int":
            if isinstance(raw, bool):
                raise bad
            if isinstance(raw, int):
                value = raw
            elif isinstance(raw, str) and re.fullmatch(r"\s*[+-]?[0-9]{1,9}\s*", raw):
                value = int(raw)
            else:
                raise bad
            return self._bounded(value, bad)
        if self.type == "number":
            if isinstance(raw, bool):
                raise bad
            if isinstance(raw, (int, Fraction)):
                number = Fraction(raw)
            elif isinstance(raw, str) and re.fullmatch(r"\s*[+-]?([0-9]{1,9}(\.[0-9]{0,6})?|\.[0-9]{1,6})\s*", raw):
                number = Fraction(raw.strip())
            else:
                raise bad
            return self._bounded(number, bad)
        # text and map: plain text, never evaluated. A map's own grammar bounds its length.
        if not isinstance(raw, str) or len(raw) > (MAX_TEXT if self.type == "text" else text_limit(self.map_grid())):
            raise bad
        return raw

    @property
    def sweepable(self) -> bool:
        """Whether it has a finite list of values, which a sweep takes one by one
        (rules_py/sweep.py, values_of): a yes/no, a choice, a whole number with both
        bounds. The page offers to sweep these alone, reading it from the schema."""
        return self.type in ("bool", "choice") or (self.type == "int" and self.minimum is not None and self.maximum is not None)

    def map_grid(self) -> Grid:
        """A map field's grid (every map field has one: see __post_init__)."""
        if self.grid is None:
            raise TypeError(f"{self.name} is not a map field")
        return self.grid

    def _bounded(self, value: int | Fraction, bad: InputError) -> int | Fraction:
        if (self.minimum is not None and value < self.minimum) or (self.maximum is not None and value > self.maximum):
            raise bad
        return value

    def schema(self) -> FieldSchema:
        out: FieldSchema = {
            "name": self.name, "type": self.type, "label": self.label, "help": self.help,
            "default": None if self.default is None else format_value(self.default), "required": self.required,
            "sweepable": self.sweepable,
        }
        if self.minimum is not None:
            out["min"] = format_value(self.minimum)
        if self.maximum is not None:
            out["max"] = format_value(self.maximum)
        if self.choices:
            out["choices"] = [{"name": c.name, "label": c.label} for c in self.choices]
        if self.grid is not None:
            out["grid"] = self.grid
            out["max_length"] = text_limit(self.grid)
        return out


@dataclass(frozen=True)
class Outcome:
    """One result of a procedure. ``values`` fixes the order of choice values;
    ``extra`` lists non-numeric values an int outcome may take ("later")."""

    name: str
    type: OutcomeType
    label: str
    help: str = ""
    values: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    # Drawing on a map input, for a generic map editor: "unit" shows the value on
    # the cell of the unit labelled ``unit``; "path" values are cell paths and
    # "cells" values are cell sets, both written "row.col row.col ..." (0-based).
    draw: Literal["", "unit", "path", "cells"] = ""
    unit: str = ""
    # True when the words in ``extra`` mean "past every number" ("later",
    # "more") and so rank above the numbers in at least / at most.
    extra_above: bool = False
    # For a unit outcome: the map legend's name for its badges, the same for
    # every unit ("modifier"). Its label is the unit's, then the key:
    # "Unit a: modifier" (see unit_label).
    key: str = ""

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise ValueError(f"bad outcome name {self.name!r}")
        if self.type not in OUTCOME_TYPES:
            raise ValueError(f"{self.name}: unknown outcome type {self.type!r}")
        if self.draw not in ("", "unit", "path", "cells") or (self.draw == "unit") != bool(self.unit):
            raise ValueError(f"{self.name}: draw {self.draw!r} with unit {self.unit!r}")
        if (self.draw == "unit") != bool(self.key) or (self.key and not self.label.endswith(f": {self.key}")):
            raise ValueError(f"{self.name}: a unit outcome, and only one, has a key, and its label ends with it: {self.label!r}, key {self.key!r}")

    @property
    def unit_label(self) -> str:
        """A unit outcome's unit as its label names it: "Unit a" of "Unit a: modifier"."""
        return self.label.removesuffix(f": {self.key}")

    def schema(self) -> OutcomeSchema:
        out: OutcomeSchema = {"name": self.name, "type": self.type, "label": self.label, "help": self.help}
        if self.values:
            out["values"] = list(self.values)
        if self.extra:
            out["extra"] = list(self.extra)
        if self.draw:
            out["draw"] = self.draw
            if self.unit:
                out["unit"] = self.unit
        return out


@dataclass(frozen=True)
class Odds:
    """What one enumeration gave: each outcome's exact distribution. The
    typed answer, the CLI's objects and the sheets' cells are made from it
    by :mod:`rules_py.answer`, never here."""

    calculator: "Calculator"
    inputs: dict[str, Any]
    outcomes: dict[str, Distribution]
    notes: list[str]
    # How the odds come about (dice.enumerate_steps), when asked for: the typed answer's steps.
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True)
class Roll:
    """What one seeded roll gave: the dice log of :class:`rules_py.dice.Rolling`
    and each outcome's value (rendered by :mod:`rules_py.answer`)."""

    calculator: "Calculator"
    inputs: dict[str, Any]
    seed: int
    dice: list[dict[str, Any]]
    outcomes: dict[str, Any]


MAX_SEED = 2**64 - 1  # rules_py.seeds parses what players type; this guards direct callers


@dataclass(frozen=True)
class Calculator:
    """A registered calculator. ``procedure(dice, **inputs) -> {outcome: value}``.

    ``outcomes`` is a tuple, or a function of the validated inputs for
    calculators whose outcomes depend on them (one per unit on a map).
    """

    id: str
    title: str
    system: str
    procedure: Callable[..., Mapping[str, Any]]
    fields: tuple[Field, ...]
    outcomes: tuple[Outcome, ...] | Callable[[dict[str, Any]], tuple[Outcome, ...]]
    description: str = ""
    page: str = ""  # the rules page that embeds it, as a docs path: "combat-hq/comms.md"
    check: Callable[[dict[str, Any]], None] | None = None
    notes: Callable[[dict[str, Any]], list[str]] | None = None
    examples: tuple[dict[str, str], ...] = dataclass_field(default_factory=tuple)
    # False for a calculator whose procedure never asks for a die (the page
    # then offers no Seed and Roll); tests check it against real rolls.
    rolls_dice: bool = True
    # The outcome or two a player decides on, first in every answer (its
    # ``headline``): outcome names, or a name ending in "*" for every outcome
    # whose name starts so (a map's units: "modifier_*").
    headline: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not _ID.match(self.id):
            raise ValueError(f"bad calculator id {self.id!r}")
        names = [f.name for f in self.fields]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.id}: duplicate field names")
        if not self.headline:
            raise ValueError(f"{self.id}: no headline: name the outcome or two a player decides on")
        if not callable(self.outcomes):
            known = {o.name for o in self.outcomes}
            unknown = [h for h in self.headline if not (h[:-1] if h.endswith("*") else h) or not any(n == h or (h.endswith("*") and n.startswith(h[:-1])) for n in known)]
            if unknown:
                raise ValueError(f"{self.id}: headline names no outcome: {unknown}")

    def field(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)

    def outcomes_for(self, inputs: dict[str, Any]) -> tuple[Outcome, ...]:
        return self.outcomes(inputs) if callable(self.outcomes) else self.outcomes

    def headline_outcomes(self, outcomes: Sequence[Outcome]) -> list[Outcome]:
        """Of these outcomes, the headline's, in the order the headline names them."""
        out: list[Outcome] = []
        for name in self.headline:
            out += [o for o in outcomes if (o.name.startswith(name[:-1]) if name.endswith("*") else o.name == name) and o not in out]
        if not out:
            raise AssertionError(f"{self.id}: no outcome of these inputs is in the headline {self.headline}")
        return out

    def validate(self, raw: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Typed inputs with defaults filled in, or InputError listing every problem."""
        raw = dict(raw or {})
        errors: list[tuple[str | None, str]] = []
        known = {f.name for f in self.fields}
        for name in raw:
            if name not in known:
                errors.append((None, f"unknown input {quoted(name)}: {self.id} takes " + (", ".join(sorted(known)) or "no inputs")))
        values: dict[str, Any] = {}
        for f in self.fields:
            if f.name in raw and isinstance(raw[f.name], (list, tuple)):
                # The CLI and a page's link give a name twice this way: refused alike.
                errors.append((f.name, f"given {len(raw[f.name])} times: give {f.name} once"))
            elif f.name in raw:
                try:
                    values[f.name] = f.parse(raw[f.name])
                except InputError as e:
                    errors.extend(e.errors)
            elif f.required:
                errors.append((f.name, f"required: {f.allowed()}"))
            else:
                values[f.name] = f.default
        if not errors and self.check:
            try:
                self.check(values)
            except InputError as e:
                errors.extend(e.errors)
        if errors:
            raise InputError(errors)
        return values

    def odds(self, raw: Mapping[str, Any] | None = None, *, with_steps: bool = False, **kwargs: Any) -> Odds:
        """Exact odds of every outcome; ``with_steps`` records how they come about
        in the same enumeration (the CLI's odds do without: it costs a little more)."""
        inputs = self.validate({**(raw or {}), **kwargs})
        items = tuple(sorted(inputs.items()))
        steps: tuple[Step, ...] = ()
        if with_steps:
            outcomes, found = enumerate_steps(self._run, items)
            steps = tuple(found)
        else:
            outcomes = enumerate_outcomes(self._run, items)
        return self.odds_of(inputs, outcomes, steps)

    def odds_given(self, inputs: dict[str, Any], values: Sequence[Any]) -> Odds:
        """Exact odds of every outcome on validated ``inputs`` with the first
        rolls' results held at ``values`` (what :class:`rules_py.dice.Given`
        recorded of the dice a player rolled): the rest enumerated."""
        return self.odds_of(inputs, enumerate_given(self._run, (tuple(sorted(inputs.items())),), list(values)))

    def odds_of(self, inputs: dict[str, Any], outcomes: dict[str, Distribution], steps: tuple[Step, ...] = ()) -> Odds:
        """The :class:`Odds` of distributions this procedure gave on validated
        ``inputs``, with the notes in force (AssertionError when the procedure
        returned other outcomes than it declares: a bug, never bad input)."""
        self._check_outcomes(inputs, outcomes)
        return Odds(self, inputs, outcomes, self.notes(inputs) if self.notes else [], steps)

    def play(self, dice: Dice, inputs: dict[str, Any]) -> Mapping[str, Any]:
        """The procedure on validated ``inputs`` with ``dice`` in any mode of
        :mod:`rules_py.dice` (the dice a player rolled: :class:`rules_py.dice.Given`)."""
        return self._run(dice, tuple(sorted(inputs.items())))

    def roll(self, seed: int, raw: Mapping[str, Any] | None = None, **kwargs: Any) -> Roll:
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise InputError(f"{seed!r} is not allowed: expected a whole number from 0 to {MAX_SEED}", "seed")
        inputs = self.validate({**(raw or {}), **kwargs})
        dice = Rolling(seed)
        result = dict(self._run(dice, tuple(sorted(inputs.items()))))
        return Roll(self, inputs, seed, dice.log, result)

    def _run(self, dice: Dice, items: tuple[tuple[str, Any], ...]) -> Mapping[str, Any]:
        return self.procedure(dice, **dict(items))

    def _check_outcomes(self, inputs: dict[str, Any], outcomes: dict[str, Distribution]) -> None:
        declared = {o.name for o in self.outcomes_for(inputs)}
        if set(outcomes) != declared:
            raise AssertionError(f"{self.id}: procedure returned {sorted(outcomes)}, declared {sorted(declared)}")

    def _field_schema(self, field: Field) -> FieldSchema:
        """A field's schema, with the Interpretation note it is a reading of, if it is one."""
        from .reference import reading_of  # late: the notes check their calculators, which the registry imports

        out = field.schema()
        note = reading_of(field)
        if note is not None:
            out["reading"] = {"id": note.id, "rule": note.rule}
        return out

    def schema(self) -> CalculatorSchema:
        """JSON-able description for generated forms and pages (calculators.json:
        rules_py/data/calculator.schema.json declares it)."""
        out: CalculatorSchema = {
            "id": self.id,
            "title": self.title,
            "system": self.system,
            "description": self.description,
            "page": self.page,
            "rolls_dice": self.rolls_dice,
            "fields": [self._field_schema(f) for f in self.fields],
            "outcomes": [o.schema() for o in self.outcomes] if not callable(self.outcomes) else
            [o.schema() for o in self.outcomes(self.validate({}))] if not any(f.required for f in self.fields) else [],
        }
        if callable(self.outcomes):
            out["dynamic_outcomes"] = True
        if self.rolls_dice:
            from .given import MAX_ENTRIES  # late: given.py reads InputError from here

            out["max_dice"] = MAX_ENTRIES
        return out
