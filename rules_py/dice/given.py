"""Given mode: the dice a player rolled at the table, and the odds that follow.

:class:`Given` reads the player's dice in the order the procedure asks for
its rolls (the order a seeded roll logs them) and logs each roll as a roll
does; a pool is given by its faces or by what it scored (:class:`Counted`).
When the dice run out, the first roll still needed is raised as
:class:`NeedRoll`: that is the resolution's answer, "roll this next".

What happens next is :func:`rules_py.dice.enumerate_given`: the odds with
the first rolls fixed at the values the given dice decided,
``P(outcome | those rolls)``. Each fixed roll has weight 1 on every path, so
the weights of the paths sum to 1 over what is still to be rolled; every
kind of step takes its share of the fixed values in the order a roll makes
them (see :mod:`.odds`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any, NamedTuple

from .distribution import _pool
from .faces import Counts, FaceTable, counting, face_table
from .roll import Recording


class Counted(NamedTuple):
    """A pool given by what it scored (its key's sum: successes, or successes
    and sixes) rather than by its faces: quicker at the table, the same result."""

    value: Hashable


class NeedRoll(Exception):
    """Given dice ran out: the first roll the procedure still needs. ``dice``
    reads as the roll log writes it ("D6", "3D6"); ``count`` dice of ``sides``
    faces; ``table`` the pool's face table (None for one die read by a chart or
    as itself), ``names`` what a pool counts (as :meth:`Dice.pool` takes them)."""

    def __init__(self, label: str, sides: int, count: int, table: FaceTable | None, names: Counts | None):
        super().__init__(label)
        self.label, self.sides, self.count, self.table, self.names = label, sides, count, table, names
        self.dice = f"{count}D{sides}" if table is not None else f"D{sides}"


class GivenError(ValueError):
    """A given die that the roll it is given for cannot show (its label, and why)."""


_SHOWN = 40  # the longest score a message writes whole


def _score_text(value: Any) -> str:
    """A score as a player writes it (``2/1``), cut short when it is long: a
    message about a score of 60,000 counts stays one short line."""
    text = "/".join(map(str, value)) if isinstance(value, tuple) else str(value)
    if len(text) <= _SHOWN:
        return text
    counts = f", {len(value)} counts" if isinstance(value, tuple) else ""
    return f"{text[:_SHOWN]}… ({len(text)} characters{counts})"


def _cannot_score(label: str, n: int, sides: int, table: FaceTable, names: Counts | None, value: Any) -> str:
    """Why ``n`` dice read through ``table`` cannot have scored ``value``.

    A pool that counts several things at once (successes and 6s, say) is
    given every count, in the order it counts them: a score with too few
    counts (``=2`` for a pool of successes and 6s) is told which counts are
    missing, and why they are wanted, with a score of the right shape that
    begins as the one given."""
    head = f"{label}: {n}D{sides} cannot score ={_score_text(value)}"
    width = len(table[0]) if isinstance(table[0], tuple) else 1
    given = len(value) if isinstance(value, tuple) else 1
    if width == given:
        return head
    counted = [plural for _, plural in names] if names and len(names) == width else [f"count {i + 1}" for i in range(width)]
    first = value[0] if isinstance(value, tuple) else value
    scores = list(_pool(n, sides, table))
    like = next((v for v in scores if (v[0] if width > 1 and isinstance(v, tuple) else v) == first), scores[0])
    what = " and ".join(counted) if width > 1 else f"{counted[0]} only"
    if given < width:
        return (
            f"{head}: this pool counts {what}, so give its {' and '.join(counted[given:])} too, such as ={_score_text(like)}"
            f" (in that order): each die is read for every count, even where a reading leaves one out"
        )
    return f"{head}: this pool counts {what}, so give {width} {'number' if width == 1 else 'numbers'}, such as ={_score_text(like)}"


class Given(Recording):
    """Given mode, the third: the dice a player rolled at the table, in the
    order the procedure asks for them, each roll logged as a seeded roll
    (:class:`.roll.Rolling`) logs it. A die takes one face; a pool takes its
    ``n`` faces, or one :class:`Counted` value that ``n`` dice can score. When the entries run out
    the first roll still needed raises :class:`NeedRoll`; ``values`` lists
    what each roll decided, in order, which :func:`enumerate_given` holds fixed.

    It is a :class:`.roll.Recording`, as a seeded roll is, whose faces are
    the player's rather than the seed's: it says only where the faces come
    from (:meth:`_faces`), so a die's chart and a pool's sum are read by the
    one rule both share. It has no seed."""

    def __init__(self, entries: Iterable[int | Counted]) -> None:
        super().__init__()
        self.entries = list(entries)
        self.used = 0  # entries read
        self.values: list[Any] = []

    def _face(self, sides: int, label: str) -> int:
        entry = self.entries[self.used]
        if isinstance(entry, Counted) or isinstance(entry, bool) or not isinstance(entry, int) or not 1 <= entry <= sides:
            shown = f"={_score_text(entry.value)}" if isinstance(entry, Counted) else repr(entry)
            raise GivenError(f"{label}: {shown} is not a face of a D{sides}")
        self.used += 1
        return entry

    def _faces(self, sides: int, n: int, label: str) -> list[int]:
        """The next ``n`` entries, each a face of a D``sides`` (GivenError if
        not); the caller has checked that there are ``n``."""
        return [self._face(sides, label) for _ in range(n)]

    def die(self, sides: int, label: str, chart: FaceTable | Callable[[int], Hashable] | None = None) -> Any:
        if self.used >= len(self.entries):
            raise NeedRoll(label, sides, 1, None, None)
        value = super().die(sides, label, chart)
        self.values.append(value)
        return value

    def pool(
        self, n: int, sides: int, label: str, key: FaceTable | Callable[[int], Hashable], counts: Counts | None = None,
        alike_from: int | None = None,
    ) -> Any:
        # alike_from only lets the odds join totals: given dice give the total they show.
        table = face_table(sides, key)
        left = len(self.entries) - self.used
        if n and not left:
            raise NeedRoll(label, sides, n, table, counts)
        entry = self.entries[self.used] if n else None
        if isinstance(entry, Counted):
            if entry.value not in _pool(n, sides, table):
                raise GivenError(_cannot_score(label, n, sides, table, counts, entry.value))
            self.used += 1
            self.values.append(entry.value)
            return self._shown(label, f"{n}D{sides}", [], entry.value, {"given_as": "counts", "counting": counting(sides, table), "names": counts})
        if left < n:
            raise GivenError(f"{label}: {n}D{sides} needs {n} faces, and {left} {'is' if left == 1 else 'are'} given")
        value = super().pool(n, sides, label, table, counts, alike_from)  # the faces read by _faces
        self.values.append(value)
        return value
