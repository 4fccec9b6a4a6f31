"""The roll answer (``"kind": "roll"``): one seeded roll, every die in words.

It gives the seed as text (a phrase seed keeps its phrase, see
:mod:`rules_py.seeds`), the command that repeats it, every die with its face
and whether it scored, each pooled result in words, and each outcome's
rolled value with its label. Each roll also has its ``working``, the
arithmetic from the dice to what the procedure made of them ("2D6 = 5 + 4 =
9, less 4 for flak = 5", from ``dice.then``), what its result ``means`` where
that rests on a rule (a chart's row), and the ``rule`` section it applies
(see :mod:`rules_py.rule_refs`). A resolution's trail (``given``) is the
same log, and a resolution done gives its outcomes as a roll does
(:func:`rolled_docs`).
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ..calculator import Calculator, Outcome, Roll
from ..formats import dice_words, format_value, is_number, number_text, value_label, working_text
from ..rule_refs import rule_doc
from ..seeds import Seed
from .odds import head
from .units import badged, drawn, in_cells, units_table, value_said
from .wording import headline_text, labelled, value_headline

if TYPE_CHECKING:
    from . import shapes

NO_DICE = "No dice were rolled: with these inputs every result is certain."
NO_DICE_AT_ALL = "This calculator rolls no dice: its result follows from the inputs."


def _jsonable(value: Any) -> Any:
    if isinstance(value, bool) or isinstance(value, (int, str)) or value is None:
        return value
    if isinstance(value, Fraction):
        return format_value(value)
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return str(value)


def die_doc(entry: Mapping[str, Any], page: str = "") -> shapes.Die:
    """One entry of a roll's dice log, for reading: each face and whether it
    scored, what the dice decided in words (``result``), the arithmetic from
    the dice to what the procedure made of them (``working``), what the
    result means where that rests on a rule (``means``, or None), and the
    rule section the roll applies (``rule``, on ``page`` unless it names
    another; None for a roll that names none)."""
    result = entry["result"]
    per_face = entry.get("per_face")
    faces: list[shapes.Face] = []
    for i, face in enumerate(entry["faces"]):
        scored = None
        if per_face is not None:
            v = per_face[i]
            if isinstance(v, tuple):
                scored = any(v)
            elif entry.get("counting"):
                scored = bool(v)
        elif isinstance(result, bool):
            scored = result
        faces.append({"face": face, "scored": scored})
    counting = bool(entry.get("counting"))
    adds = is_number(result) and not counting and per_face is not None
    decided = dice_words(result, entry.get("names"), counting)
    said = f"total {number_text(result)}" if adds and len(entry["faces"]) > 1 else decided
    label = entry["label"]
    means = getattr(label, "means", None)
    rule = getattr(label, "rule", None)
    return {
        "label": str(label),
        "dice": entry["dice"],
        "faces": faces,
        "result": said,
        "working": working_text(entry["dice"], entry["faces"], decided, adds, entry.get("then", ())),
        "means": means.get(result) if means else None,
        "rule": rule_doc(rule, page) if rule is not None else None,
    }


def cli_die(entry: Mapping[str, Any]) -> dict[str, Any]:
    """One die of a roll's log as ``roll`` prints it: its label, dice, faces and
    result (the typed answer's :func:`die_doc` adds the working, its meaning and its rule)."""
    return {"label": str(entry["label"]), "dice": entry["dice"], "faces": list(entry["faces"]), "result": _jsonable(entry["result"])}


def rolled_doc(outcome: Outcome, value: Any) -> shapes.RolledOutcome:
    """An outcome's rolled value, as a roll lists it."""
    return {
        "name": outcome.name,
        "label": outcome.label,
        "type": outcome.type,
        "kind": "rolled",
        **drawn(outcome),
        "value": format_value(value),
        "value_label": value_label(outcome, value),
        **in_cells(outcome, value),
        "summary": labelled(outcome.label, value_label(outcome, value)),
        **badged(outcome, value),
    }


def rolled_docs(calc: Calculator, inputs: Mapping[str, Any], values: Mapping[str, Any]) -> list[shapes.RolledOutcome]:
    """Each outcome's rolled value, in the calculator's order."""
    return [rolled_doc(o, values[o.name]) for o in calc.outcomes_for(dict(inputs))]


def rolled_headline(calc: Calculator, inputs: Mapping[str, Any], values: Mapping[str, Any]) -> list[shapes.HeadlinePart]:
    """The headline of rolled values: each headline outcome and its value."""
    return [{"outcome": o.name, "text": value_headline(o, values[o.name])} for o in calc.headline_outcomes(calc.outcomes_for(dict(inputs)))]


def rolled_units(calc: Calculator, inputs: Mapping[str, Any], values: Mapping[str, Any]) -> shapes.Units | None:
    """The units' table of rolled values, on a map."""
    return units_table([value_said(o, values[o.name]) for o in calc.outcomes_for(dict(inputs))])


def command(verb: str, calc: Calculator, changed: Mapping[str, str], before: Sequence[str] = (), after: Sequence[str] = ()) -> str:
    """The command line that prints the same roll or resolution: ``before`` and
    ``after`` the inputs that differ from their defaults."""
    return shlex.join(["python", "-m", "rules_py", verb, calc.id, *before, *(f"{k}={v}" for k, v in changed.items()), *after])


class RollAnswer:
    """One seeded roll: :meth:`doc` is the typed answer, :meth:`cli` what
    ``python -m rules_py roll`` prints."""

    def __init__(self, calc: Calculator, seed: Seed, raw: Mapping[str, Any] | None = None):
        self.calc = calc
        self.seed = seed
        self.roll: Roll = calc.roll(seed.number, raw)

    def cli(self) -> dict[str, Any]:
        roll = self.roll
        out = {
            "calculator": self.calc.id,
            "inputs": {k: format_value(v) for k, v in roll.inputs.items()},
            "seed": roll.seed,
            "dice": [cli_die(d) for d in roll.dice],
            "outcomes": {o.name: format_value(roll.outcomes[o.name]) for o in self.calc.outcomes_for(roll.inputs)},
        }
        if self.seed.phrase is not None:
            out["seed_phrase"] = self.seed.phrase
        return out

    def doc(self) -> shapes.RollAnswer:
        calc, roll, seed = self.calc, self.roll, self.seed
        first = head(calc, roll.inputs, "roll")
        outcomes = rolled_docs(calc, roll.inputs, roll.outcomes)
        parts = rolled_headline(calc, roll.inputs, roll.outcomes)
        return {
            **first,
            "seed": seed.text,
            "seed_number": str(seed.number),
            "seed_phrase": seed.phrase,
            "command": command("roll", calc, first["changed"], before=("--seed", seed.text)),
            "dice": [die_doc(d, calc.page) for d in roll.dice],
            "no_dice": None if roll.dice else (NO_DICE if calc.rolls_dice else NO_DICE_AT_ALL),
            "outcomes": outcomes,
            "units": rolled_units(calc, roll.inputs, roll.outcomes),
            "headline": headline_text(parts),
            "headline_parts": parts,
            "summary": f"Rolled with seed {seed.text}: " + "; ".join(o["summary"] for o in outcomes),
        }


def roll_answer(calc: Calculator, seed: Seed, raw: Mapping[str, Any] | None = None) -> shapes.RollAnswer:
    """The typed answer for one seeded roll (InputError on bad input)."""
    return RollAnswer(calc, seed, raw).doc()

