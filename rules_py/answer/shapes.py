"""The typed answer's types, generated from rules_py/data/answer.schema.json by
scripts/build/schema_types.py: do not edit (make check fails when they differ from what
the schema gives). The answer's builders return them; mypy checks it. Imported for type
checking only, so that the engine's start pays nothing for them.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypeAlias, TypedDict


class OddsAnswer(TypedDict):
    """The exact odds of every outcome for one set of inputs (rules_py/answer/odds.py)."""

    schema: SchemaId
    kind: Literal["odds"]
    calculator: CalculatorId
    title: str
    rolls_dice: bool
    inputs: Texts
    changed: Texts
    headline: Headline
    headline_parts: list[HeadlinePart]
    outcomes: list[OddsOutcome]
    units: Units | None
    notes: list[str]
    steps: list[Step]
    summary: Summary


class RollAnswer(TypedDict):
    """One seeded roll: the seed as text, the command that repeats it, every die and each outcome's
    rolled value (rules_py/answer/rolls.py).
    """

    schema: SchemaId
    kind: Literal["roll"]
    calculator: CalculatorId
    title: str
    rolls_dice: bool
    inputs: Texts
    changed: Texts
    seed: str
    seed_number: str
    seed_phrase: str | None
    command: Command
    dice: list[Die]
    no_dice: str | None
    outcomes: list[RolledOutcome]
    units: Units | None
    headline: Headline
    headline_parts: list[HeadlinePart]
    summary: Summary


class ResolveAnswer(TypedDict):
    """A procedure resolved with the dice a player rolled: the trail so far, the next roll it needs
    and the odds given the dice so far, or once done the rolled outcomes
    (rules_py/answer/resolve.py).
    """

    schema: SchemaId
    kind: Literal["resolve"]
    calculator: CalculatorId
    title: str
    rolls_dice: bool
    inputs: Texts
    changed: Texts
    status: Literal["need", "done"]
    dice_text: str
    command: Command
    given: list[Die]
    # The trail in a few words, one per roll of given: the roll's name and what it decided ("comms
    # dice: 3 successes"), as a list of kept missions says where each stands.
    given_words: list[str]
    need: Need | None
    outcomes: list[OddsOutcome]
    notes: list[str]
    rolled: list[RolledOutcome] | None
    headline: Headline
    headline_parts: list[HeadlinePart]
    summary: Summary


class CompareAnswer(TypedDict):
    """Two options side by side: option a, option b (a's inputs with the changes in vs) and, per
    outcome they share, the differences that decide between them (rules_py/answer/compare.py).
    """

    schema: SchemaId
    kind: Literal["compare"]
    calculator: CalculatorId
    title: str
    headline: Headline
    headline_parts: list[CompareHeadlinePart]
    vs: Texts
    a: OddsAnswer
    b: OddsAnswer
    differences: list[Difference]
    summary: Summary


class SweepAnswer(TypedDict):
    """How one outcome (the one asked for, else the headline's) changes with one input: its chance
    of yes, its average (with its chance of at least 1) or its likeliest value at every value of
    the input, with bars, and what it takes (rules_py/sweep.py).
    """

    schema: SchemaId
    kind: Literal["sweep"]
    calculator: CalculatorId
    title: str
    sweep: str
    sweep_label: str
    inputs: Texts
    outcome: SweepOutcome
    measure: Literal["chance", "mean", "likeliest"]
    # For an average (measure "mean") of a number that can be 0 or less: the label of its chance of at
    # least 1 (a table's column), which each row then gives as at_least_one; else null.
    at_least_one: str | None
    values: list[SweepRow]
    # For a chance (measure "chance", or an average's chance of at least 1): the first value reaching
    # 50 %, 75 % and 90 %, each; null for a likeliest value and for an average without that chance,
    # which reach no chance.
    reaches: list[Reach] | None
    summary: Summary


class HeadlinePart(TypedDict):
    """One outcome of the headline and its text."""

    outcome: str
    text: str


class CompareHeadlinePart(TypedDict):
    """One outcome of a comparison's headline, in parts so that a page can mark option b's: text =
    lead + a + ' → ' + b + tail.
    """

    outcome: str
    lead: str
    a: str
    b: str
    tail: str
    text: str


class CertainOutcome(TypedDict):
    """An outcome with one value, of probability 1."""

    name: OutcomeName
    label: str
    help: str
    type: OutcomeType
    draw: NotRequired[Draw]
    kind: Literal["certain"]
    value: str
    value_label: str
    cells: NotRequired[Cells]
    summary: Summary
    # A unit outcome's value as its cell on the map shows it, beside the legend's draw.key: "−1".
    badge_value: NotRequired[str]
    # A unit outcome's whole badge: "modifier −1"; empty when there is nothing worth showing.
    badge: NotRequired[str]


class DistributionOutcome(TypedDict):
    """An outcome with two or more values: each with its exact chance, cumulative chances on the
    number scale and bars; its likeliest value and, for a number, its mean over the numbers.
    """

    name: OutcomeName
    label: str
    help: str
    type: OutcomeType
    draw: NotRequired[Draw]
    kind: Literal["distribution"]
    values: list[Value]
    # Whether a page draws the distribution: a number with three or more values.
    chart: bool
    likeliest: str
    mean: Fraction | None
    mean_text: str | None
    mean_leaves_out: list[str]
    mean_leaves_out_p: Probability
    summary: Summary
    # As a certain outcome's: the chance of yes, ≈ the mean, or the likeliest value.
    badge_value: NotRequired[str]
    badge: NotRequired[str]


class RolledOutcome(TypedDict):
    """An outcome's value in a roll or a resolution done."""

    name: OutcomeName
    label: str
    type: OutcomeType
    kind: Literal["rolled"]
    draw: NotRequired[Draw]
    value: str
    value_label: str
    cells: NotRequired[Cells]
    summary: Summary
    badge_value: NotRequired[str]
    badge: NotRequired[str]


class Draw(TypedDict):
    """How a map outcome is drawn: on a unit's cell (with the legend's name for its badges, key),
    as a path or as cells.
    """

    kind: Literal["unit", "path", "cells"]
    unit: NotRequired[str]
    key: NotRequired[str]


class Value(TypedDict):
    """One value of a distribution: its exact chance and, on the number scale, at least and at most
    it (null off the scale).
    """

    value: str
    label: str
    cells: NotRequired[Cells]
    p: Probability
    percent: Percent
    bar: Height
    at_least: Probability | None
    at_least_percent: Percent | None
    at_most: Probability | None
    at_most_percent: Percent | None
    # The value read as at least (≥2; a word past every number, such as later, as itself); null off
    # the number scale.
    at_least_label: str | None
    # The value read as at most (≤2; a word past every number: any, later included); null off the
    # number scale.
    at_most_label: str | None
    heights: Heights


class Heights(TypedDict):
    """A value's bar in each view of a chart, in percent of the chart's height; null where the view
    does not place it.
    """

    exactly: Height | None
    at_least: Height | None
    at_most: Height | None


class Units(TypedDict):
    """A map's unit outcomes as one table (rules_py/answer/units.py): a row per unit, a column per
    kind of unit outcome, and the outcomes it and the map's drawing stand for in a summary.
    """

    columns: list[UnitColumn]
    rows: list[UnitRow]
    replaces: list[str]


class UnitColumn(TypedDict):
    key: str
    label: str


class UnitRow(TypedDict):
    unit: str
    label: str
    cells: list[UnitCell | None]
    summary: Summary


class UnitCell(TypedDict):
    """One unit outcome in the table: its value (null for odds) and the value in words."""

    outcome: str
    value: str | None
    text: str


class Step(TypedDict):
    """One labelled roll of the procedure: the chance that it is made at all, and what it decides
    given that it is made (those p sum to 1).
    """

    label: str
    p_rolled: Probability
    p_rolled_percent: Percent
    often: str
    values: list[StepValue]
    # Every roll this step's table is for (the first is the step's own label and chance), each with
    # how often it is made.
    rolls: list[StepRoll]
    # For a step that stands for several identical rolls, what says so; null for one roll.
    same: str | None


class StepRoll(TypedDict):
    label: str
    p_rolled: Probability
    p_rolled_percent: Percent
    often: str


class StepValue(TypedDict):
    value: str
    label: str
    p: Probability
    percent: Percent


class Die(TypedDict):
    """One roll of a roll's log or a resolution's trail: its dice and what they decided, the
    arithmetic from them (working: "2D6 = 5 + 4 = 9, less 4 for flak = 5"), what the result
    means where that rests on a rule, and the rule section it applies.
    """

    label: str
    dice: str
    faces: list[Face]
    result: str
    working: str
    means: str | None
    rule: Rule | None
    # A resolution's roll only (given): the entries of the dice text it read (a pool's faces one each,
    # its score one, none for a pool of no dice), what Undo takes back.
    entries: NotRequired[list[str]]


class Face(TypedDict):
    """One die's face and whether it scored (null where a face neither scores nor fails)."""

    face: int
    scored: bool | None


class Rule(TypedDict):
    """A rule section of the site: a docs page and an anchor on it; href is its address from the
    site's root, title what a link to it says.
    """

    page: str
    anchor: str
    href: str
    title: str


class Need(TypedDict):
    """The first roll a resolution still needs: its label (as the roll log writes it), what is
    rolled (D6, 3D6), the faces per die and how many dice; a pool that counts what it scores
    also names its counts ((singular, plural) per count) and, in the typed form, every score its
    dice can make.
    """

    label: str
    dice: str
    faces: int
    count: int
    counts: NotRequired[list[list[str]] | None]
    scores: NotRequired[list[Score]]


class Score(TypedDict):
    """What a pool can score, as --dice takes it after = ("2/1") and in words."""

    value: str
    label: str


class Difference(TypedDict):
    """One outcome both options have: the chance of yes (a yes/no outcome) or the mean (a number),
    and each value's chance, as a, b and b - a.
    """

    name: str
    label: str
    type: OutcomeType
    chance: ChanceDifference | None
    mean: MeanDifference | None
    values: list[ValueDifference]
    chart: bool
    summary: Summary


class ChanceDifference(TypedDict):
    a: Probability
    b: Probability
    b_minus_a: Fraction
    a_percent: Percent
    b_percent: Percent
    # b - a in percentage points: "-15.6 points".
    difference: str


class MeanDifference(TypedDict):
    a: Fraction
    b: Fraction
    b_minus_a: Fraction
    a_text: str
    b_text: str
    difference: str
    leaves_out: LeavesOut


class LeavesOut(TypedDict):
    """Per option, the words a mean over the numbers leaves out."""

    a: list[str]
    b: list[str]


class ValueDifference(TypedDict):
    value: str
    label: str
    a: Probability
    b: Probability
    b_minus_a: Fraction
    difference: str
    heights: HeightsPair
    texts: BarTextsPair


class BarTextsPair(TypedDict):
    """Each option's chance of the value in each view of the chart (off the number scale, the
    chance of the value itself), as its bar's text says it: an option certain of its value has
    no values list of its own to read.
    """

    a: BarTexts
    b: BarTexts


class BarTexts(TypedDict):
    exactly: Percent
    at_least: Percent
    at_most: Percent


class HeightsPair(TypedDict):
    """Both options' bars for one value, on one scale."""

    a: Heights
    b: Heights


class SweepOutcome(TypedDict):
    name: str
    label: str
    type: OutcomeType


class SweepRow(TypedDict):
    """The outcome swept at one value of the swept input: its number (a chance or a mean, exact),
    its text and its bar; error where the calculator refuses the value with the other inputs.
    """

    value: str
    label: str
    error: NotRequired[str]
    number: Fraction | None
    text: str | None
    bar: Height | None
    # An average's chance of at least 1 at this value (where the sweep has at_least_one; null on an
    # error row).
    at_least_one: NotRequired[SweepChance | None]


class SweepChance(TypedDict):
    """A chance in a sweep's row: exact, and as the page shows it."""

    number: Probability
    text: Percent


class Reach(TypedDict):
    """What it takes: the first value of the swept input at which the chance reaches the target
    (null if none does).
    """

    target: Probability
    target_percent: Percent
    value: str | None
    label: str | None
    text: str


# Any typed answer, told apart by its kind.
Answer: TypeAlias = "OddsAnswer | RollAnswer | ResolveAnswer | CompareAnswer | SweepAnswer"

SchemaId: TypeAlias = Literal["fire-mission/answer/1"]

CalculatorId: TypeAlias = str

# The command that prints the same roll or resolution.
Command: TypeAlias = str

# The first line of the answer: the outcome or two a player decides on (the calculator's headline),
# its parts joined by a middle dot.
Headline: TypeAlias = str

# The answer or the outcome in one line of text (what a screen reader is told).
Summary: TypeAlias = str

# Input names and their values as text.
Texts: TypeAlias = dict[str, str]

# An exact number in lowest terms, signed: "-5/32", "0", "3".
Fraction: TypeAlias = str

# An exact chance in lowest terms: "11/32", "0", "1".
Probability: TypeAlias = str

# A chance as the page prints it: "34.4%".
Percent: TypeAlias = str

# A bar's length in percent of the chart's height or the row's width: "66.67".
Height: TypeAlias = str

OutcomeType: TypeAlias = Literal["int", "bool", "choice"]

OutcomeName: TypeAlias = str

# One outcome's odds: certain (one value with probability 1) or a distribution.
OddsOutcome: TypeAlias = "CertainOutcome | DistributionOutcome"

# Cells of a map, each [row, column] numbered from 1.
Cells: TypeAlias = list[list[int]]
