"""Roll mode: real dice from a seed, every die shown with what it decided.

``dice`` draws from ``random.Random(seed)`` and logs every die shown to the
player. Only ``randrange`` is used, whose output for an integer seed is the
same on CPython 3.11 and on the Python 3.14 inside Pyodide, so a seed gives
the same roll everywhere. Every kind of step is rolled one roll at a time, in
the order the procedure asks for it (a composite step by its own ``run``).

How a die and a pool are read and recorded is :class:`Recording`'s, once:
given dice (:mod:`.given`) are a recording too, whose faces are the player's.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from typing import Any

from .convolve import _add
from .distribution import zero_of
from .faces import Counts, FaceTable, counting, face_table
from .plan import Composite, Dice, Worked


class Recording(Dice):
    """A mode that rolls one roll at a time and records every die it shows:
    the rule a seeded roll and the player's own dice (:class:`.given.Given`)
    share. A die's chart and a pool's sum are read here, once; a mode says
    only where the faces come from (:meth:`_faces`).

    ``log`` lists, in the order rolled, one dict per roll:
    ``{"label", "dice" (such as "3D6"), "faces" (each die shown), "result"}``,
    and ``then``, the (how, value) steps the procedure worked out from it
    (:meth:`Dice.then`), when there are any.
    """

    def __init__(self) -> None:
        self.log: list[dict[str, Any]] = []

    def _faces(self, sides: int, n: int, label: str) -> list[int]:
        """The faces of ``n`` dice of ``sides``, as the mode gets them."""
        raise NotImplementedError

    def die(self, sides: int, label: str, chart: FaceTable | Callable[[int], Hashable] | None = None) -> Any:
        face = self._faces(sides, 1, label)[0]
        value = face if chart is None else face_table(sides, chart)[face - 1]
        return self._shown(label, f"D{sides}", [face], value)

    def pool(
        self, n: int, sides: int, label: str, key: FaceTable | Callable[[int], Hashable], counts: Counts | None = None,
        alike_from: int | None = None,
    ) -> Any:
        # alike_from only lets the odds join totals: a roll returns the total rolled.
        table = face_table(sides, key)
        shown = self._faces(sides, n, label)
        value = zero_of(sides, table)
        for face in shown:
            value = _add(value, table[face - 1])
        # What each die counted, for a roll in words (rules_py.answer): a key
        # other than the faces themselves counts something on each die.
        counted = {"per_face": [table[face - 1] for face in shown], "counting": counting(sides, table), "names": counts}
        return self._shown(label, f"{n}D{sides}", shown, value, counted)

    def _shown(self, label: str, spec: str, faces: list[int], value: Any, counted: dict[str, Any] | None = None) -> Any:
        self.log.append({"label": label, "dice": spec, "faces": faces, "result": value, **(counted or {})})
        return value

    def then(self, how: str, value: Worked) -> Worked:
        # The arithmetic that follows the last roll, in its record ("then").
        if self.log:
            self.log[-1].setdefault("then", []).append((how, value))
        return value

    def sub(self, fn: Callable[..., Any], *args: Hashable, **labels: Any) -> Any:
        return fn(self, *args, **labels)

    def take(self, step: Composite) -> dict[str, Any]:
        return step.run(self)

    def beyond(self, fn: Callable[..., Any], *args: Hashable) -> None:
        # Past the horizon a roll goes on as the table does, until the wait is over.
        fn(self, *args)


class Rolling(Recording):
    """Roll mode: real dice from ``random.Random(seed)``, every die recorded
    (``log``, as :class:`Recording` keeps it)."""

    def __init__(self, seed: int):
        super().__init__()
        self.seed = seed
        self.rng = random.Random(seed)

    def _faces(self, sides: int, n: int, label: str) -> list[int]:
        """The faces of ``n`` dice of ``sides``, as rolled."""
        return [self.rng.randrange(sides) + 1 for _ in range(n)]
