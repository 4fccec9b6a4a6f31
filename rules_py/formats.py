"""How values, chances and differences read: the one place that turns them into text.

Every text a player or a script sees is made here, from exact values:

* ``format_value``: a value as a key of the CLI's JSON, a link's query and
  the command line ("true", "3", "soviet"; a Fraction as "3" or "2.5").
* ``format_probability`` and ``signed``: an exact chance or difference in
  lowest terms ("11/32", "0", "1"; "-5/32").
* ``decimal``: an exact number rounded half away from zero to a number of
  decimals, with a true minus sign, never through a float.
* ``percent``: a chance as the page prints it (one decimal; two below 1 %
  and above 99 %; never "0%" or "100%" unless exactly so), and
  ``whole_percent``: as a printed sheet prints it ("<1%" and ">99%" kept
  honest).
* ``points`` and ``plus``: a difference of two chances in percentage points,
  and of two means, with their signs ("no change" when there is none).
* ``number_text``, ``modifier_text``: a number as a player reads it ("−2"),
  and a modifier as players write one ("+1", "0", "−1").
* ``value_label``: one value of an outcome (yes/no, words with spaces,
  cells numbered from 1), and ``input_label`` one value of an input (a
  choice's label); ``dice_words``: what a roll of dice decided, in words
  ("2 successes, no sixes"); ``working_text``: a roll's arithmetic, from
  its dice to what they decided ("2D6 = 5 + 4 = 9, less 4 for flak = 5").

The answer (:mod:`rules_py.answer`), the CLI and the quick-reference sheets
all call these, so that one value always reads one way.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .calculator import Field, Outcome

MINUS = "\u2212"


def format_value(value: Any) -> str:
    """The text of a value in JSON keys, URLs and the command line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{float(value):.6f}".rstrip("0").rstrip(".")
    return str(value)


def format_probability(p: Fraction) -> str:
    """An exact probability in lowest terms: "n/d", or "0" and "1"."""
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def signed(x: Fraction) -> str:
    """An exact signed fraction as text: "-5/32", "0", "3/4", "2"."""
    return "-" + format_probability(-x) if x < 0 else format_probability(x)


def decimal(x: Fraction, digits: int) -> str:
    """x to ``digits`` decimals, half away from zero, from the exact value (no float)."""
    scaled = abs(x) * 10**digits
    whole = int(scaled + Fraction(1, 2))
    sign = MINUS if x < 0 and whole else ""
    text = str(whole).rjust(digits + 1, "0")
    return f"{sign}{text[:-digits]}.{text[-digits:]}" if digits else f"{sign}{text}"


def percent(p: Fraction) -> str:
    """A probability as a percentage for reading: rounded, but never "0%" or
    "100%" unless exactly so (1 decimal; 2 below 1% and above 99%)."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    x = p * 100
    if x < Fraction(1, 100):
        return "<0.01%"
    if x > Fraction(9999, 100):
        return ">99.99%"
    digits = 2 if x < 1 or x > 99 else 1
    return f"{decimal(x, digits)}%"


def whole_percent(p: Fraction) -> str:
    """A probability as a whole percentage (a printed sheet's cell), rounded
    as :func:`decimal` rounds, with "<1%" and ">99%" kept honest."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    text = decimal(p * 100, 0)
    if text == "0":
        return "<1%"
    if text == "100":
        return ">99%"
    return f"{text}%"


def points(d: Fraction) -> str:
    """A difference of two chances in percentage points, with its sign: "no change" only when
    there is none, and one too small to show at one decimal in words ("slightly higher, under
    0.1 points"), never a sign beside a bare or bracketed zero ("+0.0", "-<0.1")."""
    if d == 0:
        return "no change"
    text = decimal(abs(d) * 100, 1)
    if text == "0.0":
        return f"slightly {'higher' if d > 0 else 'lower'}, under 0.1 points"
    return f"{'+' if d > 0 else MINUS}{text} points"


def plus(d: Fraction) -> str:
    """A difference of two means, to two decimals, with its sign: "no change" only when there
    is none, and one too small to show at two decimals in words ("slightly more, under 0.01"),
    never "+0.00"."""
    if d == 0:
        return "no change"
    text = decimal(abs(d), 2)
    if text == "0.00":
        return f"slightly {'more' if d > 0 else 'less'}, under 0.01"
    return f"{'+' if d > 0 else MINUS}{text}"


def number_text(value: Any) -> str:
    """An int or a Fraction as a player reads it: a true minus sign."""
    text = format_value(value)
    return MINUS + text[1:] if text.startswith("-") else text


def modifier_text(value: Any) -> str:
    """A modifier as players write it: with a plus sign, 0, or a true minus sign."""
    if isinstance(value, int) and not isinstance(value, bool):
        return f"+{value}" if value > 0 else number_text(value)
    return format_value(value)


def words(word: str) -> str:
    """A choice's or a word value's name as it reads: spaces, not underscores ("none" for nothing)."""
    return word.replace("_", " ") if word else "none"


def cells_of(text: str) -> list[list[int]]:
    """The cells of a ``draw`` value ("0.2 1.1", 0-based) as [row, column] from 1, as the page numbers them."""
    out = []
    for cell in text.split():
        row, col = cell.split(".")
        out.append([int(row) + 1, int(col) + 1])
    return out


def cells_label(cells: list[list[int]]) -> str:
    return "; ".join(f"row {r} column {c}" for r, c in cells) or "none"


def is_number(value: Any) -> bool:
    return isinstance(value, (int, Fraction)) and not isinstance(value, bool)


def value_label(outcome: Outcome, value: Any) -> str:
    """How one value of an outcome (a :class:`rules_py.calculator.Outcome`) reads:
    yes/no, a true minus sign, words with spaces, cells from 1."""
    if outcome.draw in ("cells", "path"):
        return cells_label(cells_of(value))
    if isinstance(value, bool):
        return "yes" if value else "no"
    if is_number(value):
        return number_text(value)
    return words(str(value))


def input_label(field: Field, value: Any) -> str:
    """How one value of an input (a :class:`rules_py.calculator.Field`, typed
    value) reads: a choice's label, yes/no, a number with a true minus sign."""
    for choice in field.choices:
        if choice.name == value:
            return choice.label
    if isinstance(value, bool):
        return "yes" if value else "no"
    if is_number(value):
        return number_text(value)
    return words(str(value))


def count_words(count: int, singular: str, plural: str) -> str:
    """"no sixes", "1 six", "3 sixes"."""
    if count == 0:
        return f"no {plural}"
    return f"{count} {singular if count == 1 else plural}"


SCORED = ("die scored", "dice scored")  # what a counting pool counts when it names nothing


def dice_words(value: Any, names: Sequence[tuple[str, str]] | None, counting: bool) -> str:
    """What a roll of dice decided, in words: a count of what a pool counts
    (``names``, as :meth:`rules_py.dice.Dice.pool` takes them), several counts
    ("2 successes, no sixes"), yes/no, a number or a word."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        if names:
            return ", ".join(count_words(n, *name) for n, name in zip(value, names))
        return ", ".join(number_text(v) for v in value)
    if counting:
        return count_words(value, *(names[0] if names else SCORED))
    if is_number(value):
        return number_text(value)
    return words(str(value))


def then_words(value: Any) -> str:
    """A value worked out after a roll, as its record shows it: " = 5", or ": no" for a yes/no or a word."""
    if is_number(value):
        return f" = {number_text(value)}"
    return f": {dice_words(value, None, False)}"


def working_text(dice: str, faces: Sequence[int], decided: str, adds: bool, then: Sequence[tuple[str, Any]]) -> str:
    """A roll's arithmetic in one line: the dice and what they decided, then
    each step worked out from it ("how", value), in order.

    ``adds`` for dice whose faces add up (a total): their sum is shown
    ("3D6 = 3 + 2 + 6 = 11"); otherwise what the dice decided ("4D6 = 2
    successes", "D6 = 1: rookie pilot"). A pool given by its score has no
    faces: "4D6 scored 2 successes"."""
    if not faces:
        text = f"{dice} scored {decided}"
    elif adds and len(faces) > 1:
        text = f"{dice} = {' + '.join(map(str, faces))} = {decided}"
    elif adds or decided == str(faces[0]):
        text = f"{dice} = {decided}"
    else:
        text = f"{dice} = {faces[0]}: {decided}" if len(faces) == 1 else f"{dice} = {decided}"
    return text + "".join(f", {how}{then_words(value)}" for how, value in then)


def adjusted(by: int) -> str:
    """A modifier applied to a roll, in words: "plus 3", "less 1"."""
    return f"plus {by}" if by >= 0 else f"less {-by}"


def means_of(rows: Sequence[Any], key: str, name: str = "name", effect: str = "effect") -> dict[Any, str]:
    """What each result of a chart means, from its table's rows: "Rookie pilot: the opposing player
    chooses …" ("Here it comes! The aircraft …" after a name that ends a sentence)."""
    out = {}
    for row in rows:
        title, text = row[name], row[effect]
        out[row[key]] = f"{title} {text}" if title[-1:] in "!?." else f"{title}: {text[:1].lower()}{text[1:]}"
    return out
