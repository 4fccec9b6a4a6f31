"""Hypothesis strategies for calculator inputs, drawn from each input schema.

``valid_inputs(calc)`` draws a value for every field within its declared
type and bounds; ``invalid_inputs(calc)`` draws inputs with exactly one thing
wrong (unknown name, wrong type, out of bounds, unknown choice). A field type
with structure of its own (the map grid) registers its strategies in
``FIELD_STRATEGIES`` below, by type.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from rules_py.calculator import Calculator, Field

# type -> (valid strategy factory, invalid strategy factory); extended by rule systems' tests.
FIELD_STRATEGIES: dict[str, tuple] = {}

# Unbounded int fields are drawn up to this far above their minimum, so odds stay quick.
INT_SPAN = 12


def valid_value(f: Field) -> st.SearchStrategy:
    if f.type in FIELD_STRATEGIES:
        return FIELD_STRATEGIES[f.type][0](f)
    if f.type == "bool":
        return st.booleans()
    if f.type == "choice":
        return st.sampled_from([c.name for c in f.choices])
    if f.type == "int":
        lo = f.minimum if f.minimum is not None else -INT_SPAN
        hi = f.maximum if f.maximum is not None else lo + INT_SPAN
        return st.integers(lo, hi)
    if f.type == "number":
        lo = f.minimum if f.minimum is not None else Fraction(-INT_SPAN)
        hi = f.maximum if f.maximum is not None else lo + INT_SPAN
        return st.fractions(lo, hi, max_denominator=100)
    return st.text(max_size=40)


def as_text(value) -> str:
    """A value as a command line or URL would carry it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{float(value):.6f}"
    return str(value)


@st.composite
def valid_inputs(draw, calc: Calculator, as_strings: bool | None = None):
    values = {f.name: draw(valid_value(f)) for f in calc.fields}
    strings = draw(st.booleans()) if as_strings is None else as_strings
    if strings:
        values = {k: as_text(v) for k, v in values.items()}
    return values


def invalid_value(f: Field) -> st.SearchStrategy:
    if f.type in FIELD_STRATEGIES:
        return FIELD_STRATEGIES[f.type][1](f)
    wrong_type = st.sampled_from(["", "abc", "1.5x", "null", "[]", "{}", "__import__('os')"])
    if f.type == "bool":
        return st.one_of(wrong_type, st.integers(), st.just("yes"))
    if f.type == "choice":
        names = {c.name for c in f.choices}
        return st.one_of(wrong_type, st.text(min_size=1, max_size=12).filter(lambda s: s.strip() not in names), st.integers())
    if f.type in ("int", "number"):
        options = [wrong_type, st.booleans(), st.just(None)]
        if f.minimum is not None:
            options.append(st.integers(max_value=int(f.minimum) - 1))
        if f.maximum is not None:
            options.append(st.integers(min_value=int(f.maximum) + 1))
        if f.type == "int":
            options.append(st.just("2.5"))
        return st.one_of(*options)
    return st.one_of(st.integers(), st.none(), st.text(min_size=4001, max_size=4100))


@st.composite
def invalid_inputs(draw, calc: Calculator):
    values = draw(valid_inputs(calc))
    if not calc.fields or draw(st.booleans()):
        values[draw(st.sampled_from(["bogus", "x", "__class__", "seed_"]))] = "1"
        return values
    f = draw(st.sampled_from(calc.fields))
    values[f.name] = draw(invalid_value(f))
    return values
