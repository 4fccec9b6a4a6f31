"""Face tables: what each face of a die reads, as data.

A table is a tuple whose entry ``i`` is what face ``i + 1`` reads: the face
itself (:func:`faces`), a success or not (:func:`at_least`), a chart's
result, or a vector such as (success, six) that a pool adds up coordinate by
coordinate. The engine's caches are keyed on the table's value, so two calls
that read the dice the same way share one distribution, however the table
was built.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import lru_cache

FaceTable = tuple[Hashable, ...]  # entry i: what face i + 1 reads
Counts = tuple[tuple[str, str], ...]  # what a pool key counts, for a roll in words: ((singular, plural), ...)
SUCCESSES: Counts = (("success", "successes"),)


def face_table(sides: int, read: Callable[[int], Hashable] | FaceTable) -> FaceTable:
    """What each face of a die reads, as data: ``(read(1), ..., read(sides))``.

    Args:
        sides: the die's number of faces.
        read: a function of the face, or a table already.

    Returns:
        The table; a table given is returned as it is, once its length is checked
        (ValueError when it is not ``sides``).
    """
    if isinstance(read, tuple):
        if len(read) != sides:
            raise ValueError(f"a table for a {sides}-sided die needs {sides} entries, not {len(read)}")
        return read
    return tuple(read(face) for face in range(1, sides + 1))


@lru_cache(maxsize=None)
def faces(sides: int) -> FaceTable:
    """The table of a die read as its own number: (1, 2, ..., sides)."""
    return tuple(range(1, sides + 1))


@lru_cache(maxsize=None)
def at_least(target: int, sides: int = 6) -> FaceTable:
    """The table of a die that counts 1 when it shows ``target`` or more, else 0."""
    return tuple(1 if face >= target else 0 for face in range(1, sides + 1))


def counting(sides: int, table: FaceTable) -> bool:
    """Whether a pool read through ``table`` counts scoring dice (one number a
    die, not the face itself): what a roll's record and a step call "counting".
    A vector table counts several things at once and is named by its counts instead."""
    return table != faces(sides) and not isinstance(table[0], tuple)
