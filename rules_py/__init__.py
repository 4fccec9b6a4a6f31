"""Fire Mission's rules engine: exact odds and seeded rolls for WWII wargame rules.

Standard library only; runs on CPython 3.11+ and on Pyodide.

    >>> import rules_py
    >>> rules_py.odds("chq-comms-check", {"nation": "soviet"})["outcomes"]["success"]["true"]
    '11/32'

The three JSON-shaped functions below are what the CLI prints and what any
other front end (the site's Web Worker included) calls; they take raw string
or Python values and raise :class:`InputError` on bad input.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from .answer import Comparison, OddsAnswer, Resolution, RollAnswer, compare_answer, odds_answer, roll_answer, shapes
from .calculator import Calculator, InputError
from .calculator_shapes import CalculatorSchema
from .registry import calculators, get
from .given import parse_dice
from .seeds import Seed, parse_seed
from .sweep import outcome_named, sweep, sweep_answer

__all__ = ["Calculator", "InputError", "Seed", "calculators", "get", "odds", "roll", "answer", "resolve", "compare", "compare_odds", "schema", "parse_seed", "call_json", "sweep"]


def odds(calculator_id: str, inputs: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Exact odds of every outcome, as the CLI's ``odds`` prints them."""
    return OddsAnswer.of(get(calculator_id), inputs).cli()


def roll(calculator_id: str, seed: object, inputs: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """One seeded roll with every die shown, as the CLI's ``roll`` prints it.

    ``seed`` is a whole number or what a player typed (see :mod:`rules_py.seeds`):
    anything else (a request's null or list, say) is refused as a bad seed.
    """
    return RollAnswer(get(calculator_id), seed if isinstance(seed, Seed) else parse_seed(seed), inputs).cli()


def answer(calculator_id: str, inputs: Mapping[str, Any] | None = None, seed: int | str | Seed | None = None, *, dice: str | None = None) -> shapes.OddsAnswer | shapes.RollAnswer | shapes.ResolveAnswer:
    """The typed answer the page renders (see :mod:`rules_py.answer`): the odds,
    with ``seed`` one seeded roll, with ``dice`` (the dice a player rolled, as
    :mod:`rules_py.given` writes them) the typed resolution."""
    calc = get(calculator_id)
    if dice is not None:
        if seed is not None:
            raise InputError("give the dice rolled at the table, or a seed to roll with, not both", "dice")
        return Resolution(calc, inputs, parse_dice(dice)).doc()
    if seed is None:
        return odds_answer(calc, inputs)
    return roll_answer(calc, seed if isinstance(seed, Seed) else parse_seed(seed), inputs)


def resolve(calculator_id: str, inputs: Mapping[str, Any] | None = None, dice: str = "") -> dict[str, Any]:
    """The procedure resolved with the dice a player rolled, as ``python -m
    rules_py resolve`` prints it: ``status`` ("need" or "done"), the trail
    ``given``, the first roll still needed (``need``), the exact odds of what
    happens next (``odds``) and, once done, the ``outcomes``."""
    return Resolution(get(calculator_id), inputs, parse_dice(dice)).cli()


def compare(calculator_id: str, inputs: Mapping[str, Any] | None = None, vs: Mapping[str, Any] | None = None) -> shapes.CompareAnswer:
    """Two options side by side, as the page renders them (see :func:`rules_py.answer.compare_answer`):
    option a with ``inputs``, option b with ``vs`` changed from them, and the differences."""
    return compare_answer(get(calculator_id), inputs, vs)


def compare_odds(calculator_id: str, inputs: Mapping[str, Any] | None = None, vs: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """What ``python -m rules_py odds ID ... --vs ...`` prints: each option's ``odds``
    object, b's changes, and per outcome the differences as exact fractions
    (a mean says what it leaves out; a certain number is its own mean)."""
    return Comparison(get(calculator_id), inputs, vs).cli()


def schema() -> list[CalculatorSchema]:
    """Every calculator's input schema and outcomes."""
    return [c.schema() for c in calculators()]


def call_json(request: str) -> str:
    """One JSON request in, one JSON answer out; never raises, whatever it is given.

    Request: ``{"op": "answer"|"compare"|"odds"|"roll"|"resolve"|"sweep"|"schema", "id": ..., "inputs": {...}, "seed": "...", "dice": "...", "sweep": "...", "sweep_of": "...", "vs": {...}}``.
    ``answer`` gives the typed answer (with ``seed``, a roll's; with ``dice``,
    the typed resolution of the dice a player rolled; with ``sweep``, an
    input's name, the typed sweep, of the outcome ``sweep_of`` names if given,
    else of the headline's); ``resolve`` and ``sweep`` the CLI's
    objects; ``compare``
    two typed odds answers, option b's inputs being ``inputs`` changed by
    ``vs``, and their differences; ``odds`` and ``roll`` the CLI's objects. Seeds are best sent as strings, as typed.
    A link's ``seed``, ``dice``, ``sweep`` or ``sweep_of`` given more than once comes as the list of
    its texts, and is refused as a repeated input is.
    Bad input: ``{"error": ..., "fields": [{"field", "message"}]}``; a failure
    inside the engine (a bug) also has ``"internal": true``.
    """
    try:
        try:
            req = json.loads(request)
        except json.JSONDecodeError as e:
            return json.dumps({"error": f"not JSON: {e}", "fields": []})
        except ValueError:  # a number past the 4,300 digits Python converts: no seed or input is that long
            return json.dumps({"error": "a number in the request is far too long: send seeds and inputs as text", "fields": []})
        if not isinstance(req, dict):
            raise InputError("a request must be a JSON object")
        op = req.get("op")
        inputs = req.get("inputs") or {}
        if not isinstance(inputs, dict):
            raise InputError("inputs must be an object")
        given_id = req.get("id")
        if op in ("answer", "compare", "odds", "roll", "resolve", "sweep") and not isinstance(given_id, str):
            raise InputError("id must be a calculator id; 'list' shows them")
        calc_id = given_id if isinstance(given_id, str) else ""  # "" only for an op that names no calculator
        for name in ("seed", "dice", "sweep", "sweep_of"):
            # A link that gives one more than once (seed=1&seed=2), sent as the list of its
            # texts: refused as a repeated input is (Calculator.validate), never one taken silently.
            given = req.get(name)
            if isinstance(given, list) and len(given) > 1 and all(isinstance(v, str) for v in given):
                raise InputError(f"given {len(given)} times: give {name} once", name)
        dice = req.get("dice")
        if dice is not None and not isinstance(dice, str):
            raise InputError("dice must be text: faces separated by commas", "dice")
        swept = req.get("sweep")
        if (op == "sweep" or swept is not None) and not isinstance(swept, str):
            raise InputError("sweep must be the name of an input", "sweep")
        of = req.get("sweep_of")
        if of is not None:
            if not isinstance(of, str):
                raise InputError("sweep_of must be the name of an outcome", "sweep_of")
            if op not in ("answer", "sweep") or swept is None:
                if op in ("answer", "sweep") and not callable(get(calc_id).outcomes):
                    outcome_named(get(calc_id), None, of)  # an unknown outcome says so first
                raise InputError("sweep_of names the outcome a sweep follows: give sweep, the input to sweep, too", "sweep_of")
        if op == "answer" and swept is not None:
            if dice is not None or req.get("seed") is not None:
                raise InputError("a sweep takes neither dice nor a seed", "sweep")
            result: Any = sweep_answer(calc_id, inputs, swept, of)
        elif op == "answer":
            result = answer(calc_id, inputs, req.get("seed"), dice=dice)
        elif op == "sweep":
            assert isinstance(swept, str)  # a sweep names its input: checked above
            result = sweep(calc_id, inputs, swept, of)
        elif op == "resolve":
            result = resolve(calc_id, inputs, dice or "")
        elif op == "compare":
            vs = req.get("vs") or {}
            if not isinstance(vs, dict):
                raise InputError("vs must be an object")
            result = compare(calc_id, inputs, vs)
        elif op == "odds":
            result = odds(calc_id, inputs)
        elif op == "roll":
            result = roll(calc_id, req.get("seed"), inputs)
        elif op == "schema":
            result = schema()
        else:
            raise InputError(f"unknown op {str(op)[:80]!r}")
        return json.dumps(result)
    except InputError as e:
        return json.dumps(e.to_dict())
    except (json.JSONDecodeError, UnicodeError) as e:
        return json.dumps({"error": f"not JSON: {e}", "fields": []})
    except RecursionError:
        return json.dumps({"error": "the request is nested too deeply", "fields": []})
    except Exception as e:  # a bug in a procedure: say so, never raise into the page
        return json.dumps({"error": f"the engine failed: {type(e).__name__}: {str(e)[:200]}", "fields": [], "internal": True})
