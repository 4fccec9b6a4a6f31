"""The dice a player rolled, as text: what ``--dice`` and a link's ``dice=`` carry.

A list of entries separated by commas, in the order the procedure asks for
its rolls (the order a seeded roll logs them): each entry is either one
die's face (``3``) or, for a pool of several dice, what the pool scored
instead of its faces, after an ``=`` (``=2`` for two successes; ``=2/1`` for
two successes and one six, in the order the pool counts them). A pool's
faces are given one entry each; both ways give the same result. Blanks
around entries are ignored; an empty text gives no dice.

    >>> parse_dice("6, 3,4,=2/1")
    [6, 3, 4, Counted(value=(2, 1))]
    >>> dice_text([6, 3, 4, Counted((2, 1))])
    '6,3,4,=2/1'

Each roll of a resolution reads its own entries (:func:`entries_by_roll`):
a die one face, a pool its faces or one score, a pool of no dice none.

Whether a face suits its die (a 7 is no face of a D6) is checked as the
procedure reads it, which knows the die (:class:`rules_py.dice.Given`).
"""

from __future__ import annotations

import re
from typing import Any

from .calculator import InputError, quoted
from .dice import Counted

MAX_ENTRIES = 200  # far more rolls than any procedure makes; a bound on what a link may carry
_NUMBER = re.compile(r"[0-9]{1,3}")


def parse_dice(text: str) -> list[int | Counted]:
    """The entries of a dice text, or :class:`InputError` on the ``dice`` field."""
    if not isinstance(text, str):
        raise InputError(f"{quoted(text)} is not dice: give faces separated by commas", "dice")
    if not text.strip():
        return []
    parts = text.split(",")
    if len(parts) > MAX_ENTRIES:
        raise InputError(f"{len(parts)} dice given: at most {MAX_ENTRIES}", "dice")
    out: list[int | Counted] = []
    for n, part in enumerate(parts, start=1):
        entry = part.strip()
        if entry.startswith("="):
            counts = [c.strip() for c in entry[1:].split("/")]
            if not all(_NUMBER.fullmatch(c) for c in counts):
                raise InputError(f"die {n}: {quoted(entry)} is not what a pool scored (=2, or =2/1 for two counts)", "dice")
            numbers = tuple(int(c) for c in counts)
            out.append(Counted(numbers[0] if len(numbers) == 1 else numbers))
        elif _NUMBER.fullmatch(entry):
            out.append(int(entry))
        else:
            raise InputError(f"die {n}: {quoted(entry)} is not a face (a whole number such as 4) nor what a pool scored (=2)", "dice")
    return out


def dice_text(entries: list[int | Counted]) -> str:
    """The text of a list of entries, as :func:`parse_dice` reads it."""
    out = []
    for entry in entries:
        if isinstance(entry, Counted):
            value = entry.value
            out.append("=" + ("/".join(map(str, value)) if isinstance(value, tuple) else str(value)))
        else:
            out.append(str(entry))
    return ",".join(out)


def entries_by_roll(entries: list[int | Counted], log: list[dict[str, Any]]) -> list[list[str]]:
    """The entries each logged roll read, as text, in order (what Undo takes
    back): a pool given by its score read that one entry, any other roll one
    entry per face it shows, so a pool of no dice read none.

    >>> entries_by_roll([2, 1, Counted(2)], [{"faces": [2, 1]}, {"faces": []}, {"faces": [], "given_as": "counts"}])
    [['2', '1'], [], ['=2']]
    """
    out, at = [], 0
    for roll in log:
        n = 1 if roll.get("given_as") == "counts" else len(roll["faces"])
        out.append([dice_text([e]) for e in entries[at : at + n]])
        at += n
    return out
