"""Combat HQ artillery deviation: does the first fire for effect land on target?

A direct-support battery rolls the deviation die the first time it fires for
effect. A face marked "Hit" leaves the Fire Template where it was placed; an
arrow moves it along the arrow by ``dice``D6 + ``add`` inches (the
``deviation_distance`` table: 1D6 + 3, so 4 to 9 inches).

The source does not say how many of the six faces read "Hit" (Interpretation
note ``chq-deviation-hit-faces``), so that is the input ``hit_faces`` = h:

    P(deviates) = (6 - h) / 6
    P(distance = d) = (6 - h) / 6 * 1/6   for d = 4..9, and P(0) = h / 6.
"""

from __future__ import annotations

from typing import Any

from ..calculator import Calculator, Field, Outcome
from ..dice import Dice, Label
from ..rule_refs import of_table
from ..tables import load

DIE = load("combat_hq", "deviation_die")
DISTANCES = load("combat_hq", "deviation_distance")
DISTANCE = DISTANCES.rows[0]
PAGE = "combat-hq/artillery.md"  # where the die's tables are: a roll's record links there from any calculator
DEFAULT_HIT_FACES = 2  # the reading of Interpretation note chq-deviation-hit-faces


# The drift die read as the inches each face moves the template (1D6 + 3: 4 to 9), so that its
# step, its roll and the player's own die all show the drift it is named for, not the face.
if DISTANCE["dice"] != 1:
    raise ValueError(f"deviation_distance: the drift is read as one die plus {DISTANCE['add']}, not {DISTANCE['dice']} dice")
DRIFT_BY_FACE = tuple(face + DISTANCE["add"] for face in range(1, 7))

HIT = DIE.lookup("result", "hit", "name")
ARROW = DIE.lookup("result", "arrow", "name")


def face_reading(hit_faces: int) -> tuple[str, ...]:
    """The deviation die as a chart (a face table): faces 1..hit_faces read Hit, the rest show arrows."""
    return tuple(HIT if face <= hit_faces else ARROW for face in range(1, 7))


def _die_label(hit_faces: int) -> str:
    if hit_faces == 0:
        return "deviation die (every face an arrow)"
    if hit_faces == 6:
        return "deviation die (every face a Hit)"
    faces = "1" if hit_faces == 1 else f"1-{hit_faces}"
    return f"deviation die (Hit on {faces}, an arrow otherwise)"


def deviation(dice: Dice, hit_faces: int) -> dict[str, Any]:
    """Roll the deviation die; on an arrow, roll how far the template drifts."""
    if dice.d6(Label(_die_label(hit_faces), of_table(DIE, PAGE)), chart=face_reading(hit_faces)) == HIT:
        return {"deviates": False, "distance": 0}
    drift = dice.d6(Label(f"drift in inches ({DISTANCE['dice']}D6 + {DISTANCE['add']})", of_table(DISTANCES, PAGE)), chart=DRIFT_BY_FACE)
    return {"deviates": True, "distance": drift}


def notes(inputs: dict[str, Any]) -> list[str]:
    h = inputs["hit_faces"]
    return [f"{h} of the die's 6 faces read Hit and {6 - h} show arrows (the source does not say; see the Interpretation note)."]


CALCULATORS = (
    Calculator(
        id="chq-deviation",
        title="Combat HQ artillery deviation",
        system="combat-hq",
        procedure=deviation,
        headline=("deviates", "distance"),
        page=PAGE,
        description="Whether a direct-support battery's first fire for effect drifts off its aiming point, and how far.",
        fields=(
            Field(
                "hit_faces",
                "int",
                "Faces reading Hit",
                "How many of the deviation die's six faces read Hit; the others show arrows. The source does not say, so set it to match your die.",
                default=DEFAULT_HIT_FACES,
                minimum=0,
                maximum=6,
            ),
        ),
        outcomes=(
            Outcome("deviates", "bool", "Fire deviates", "An arrow was rolled, so the template moves."),
            Outcome("distance", "int", "Distance moved (inches)", "How far the template moves along the arrow; 0 on a Hit."),
        ),
        notes=notes,
        examples=({"hit_faces": "1"}, {"hit_faces": "0"}),
    ),
)
