"""Die-roll ranges and dice notation as the Konflikt '47 tables write them.

The tables keep the source's own notation ("2–3" on a chart, "3D6" hits,
"D3−1" pins) so that a page shows exactly what the data holds; the
procedures read the same cells through these helpers instead of repeating
the numbers in code.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from ..tables import Table

_DASHES = "\u2013\u2212-"  # en dash, minus sign, hyphen
_RANGE = re.compile(rf"^\s*(\d+)\s*(?:[{_DASHES}]\s*(\d+))?\s*$")
_DICE = re.compile(rf"^\s*(\d*)D(\d+)\s*(?:([+{_DASHES}])\s*(\d+))?\s*$")


def faces(text: str) -> range:
    """The die faces a chart row covers: "1" is 1, "2–3" is 2 and 3."""
    match = _RANGE.match(text)
    if not match:
        raise ValueError(f"not a die-roll range: {text!r}")
    low = int(match.group(1))
    high = int(match.group(2) or low)
    if high < low:
        raise ValueError(f"die-roll range runs backwards: {text!r}")
    return range(low, high + 1)


def chart(table: Table, key: str, sides: int = 6, roll: str = "roll") -> tuple[str, ...]:
    """The chart as a face table (see :func:`rules_py.dice.face_table`): entry
    i is the ``key`` column of the row whose ``roll`` range holds face i + 1.

    Checks that the rows cover every face of the die exactly once, so a chart
    with a gap or an overlap fails at import rather than at the table.
    """
    lookup: dict[int, str] = {}
    for row in table.rows:
        for face in faces(row[roll]):
            if face in lookup:
                raise ValueError(f"{table.id}: face {face} appears twice")
            lookup[face] = row[key]
    if sorted(lookup) != list(range(1, sides + 1)):
        raise ValueError(f"{table.id}: the rows cover faces {sorted(lookup)}, not 1 to {sides}")
    return tuple(lookup[face] for face in range(1, sides + 1))


@lru_cache(maxsize=None)
def dice(text: str) -> tuple[int, int, int]:
    """(count, sides, modifier) of dice notation: "3D6" is (3, 6, 0), "D3−1" is (1, 3, -1)."""
    match = _DICE.match(text)
    if not match:
        raise ValueError(f"not dice notation: {text!r}")
    count = int(match.group(1) or 1)
    sides = int(match.group(2))
    modifier = int(match.group(4) or 0)
    if match.group(3) and match.group(3) != "+":
        modifier = -modifier
    return count, sides, modifier


def by_key(table: Table, key: str) -> Mapping[str, Mapping[str, Any]]:
    """Every row of a table by its key column."""
    return {row[key]: row for row in table.rows}
