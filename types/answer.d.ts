// The typed answer's types, generated from rules_py/data/answer.schema.json by scripts/build/schema_types.py:
// do not edit (make check fails when they differ from what the schema gives).
// The page's renderers read them through JSDoc: /** @typedef {import("../../../types/answer.js").OddsAnswer} OddsAnswer */.

/** Any typed answer, told apart by its kind. */
export type Answer = OddsAnswer | RollAnswer | ResolveAnswer | CompareAnswer | SweepAnswer;

/** The exact odds of every outcome for one set of inputs (rules_py/answer/odds.py). */
export interface OddsAnswer {
  schema: SchemaId;
  kind: "odds";
  calculator: CalculatorId;
  title: string;
  rolls_dice: boolean;
  inputs: Texts;
  changed: Texts;
  headline: Headline;
  headline_parts: HeadlinePart[];
  outcomes: OddsOutcome[];
  units: Units | null;
  notes: string[];
  steps: Step[];
  summary: Summary;
}

/**
 * One seeded roll: the seed as text, the command that repeats it, every die and each outcome's
 * rolled value (rules_py/answer/rolls.py).
 */
export interface RollAnswer {
  schema: SchemaId;
  kind: "roll";
  calculator: CalculatorId;
  title: string;
  rolls_dice: boolean;
  inputs: Texts;
  changed: Texts;
  seed: string;
  seed_number: string;
  seed_phrase: string | null;
  command: Command;
  dice: Die[];
  no_dice: string | null;
  outcomes: RolledOutcome[];
  units: Units | null;
  headline: Headline;
  headline_parts: HeadlinePart[];
  summary: Summary;
}

/**
 * A procedure resolved with the dice a player rolled: the trail so far, the next roll it needs and
 * the odds given the dice so far, or once done the rolled outcomes (rules_py/answer/resolve.py).
 */
export interface ResolveAnswer {
  schema: SchemaId;
  kind: "resolve";
  calculator: CalculatorId;
  title: string;
  rolls_dice: boolean;
  inputs: Texts;
  changed: Texts;
  status: "need" | "done";
  dice_text: string;
  command: Command;
  given: Die[];
  /**
   * The trail in a few words, one per roll of given: the roll's name and what it decided ("comms
   * dice: 3 successes"), as a list of kept missions says where each stands.
   */
  given_words: string[];
  need: Need | null;
  outcomes: OddsOutcome[];
  notes: string[];
  rolled: RolledOutcome[] | null;
  headline: Headline;
  headline_parts: HeadlinePart[];
  summary: Summary;
}

/**
 * Two options side by side: option a, option b (a's inputs with the changes in vs) and, per
 * outcome they share, the differences that decide between them (rules_py/answer/compare.py).
 */
export interface CompareAnswer {
  schema: SchemaId;
  kind: "compare";
  calculator: CalculatorId;
  title: string;
  headline: Headline;
  headline_parts: CompareHeadlinePart[];
  vs: Texts;
  a: OddsAnswer;
  b: OddsAnswer;
  differences: Difference[];
  summary: Summary;
}

/**
 * How one outcome (the one asked for, else the headline's) changes with one input: its chance of
 * yes, its average (with its chance of at least 1) or its likeliest value at every value of the
 * input, with bars, and what it takes (rules_py/sweep.py).
 */
export interface SweepAnswer {
  schema: SchemaId;
  kind: "sweep";
  calculator: CalculatorId;
  title: string;
  sweep: string;
  sweep_label: string;
  inputs: Texts;
  outcome: SweepOutcome;
  measure: "chance" | "mean" | "likeliest";
  /**
   * For an average (measure "mean") of a number that can be 0 or less: the label of its chance of
   * at least 1 (a table's column), which each row then gives as at_least_one; else null.
   */
  at_least_one: string | null;
  values: SweepRow[];
  /**
   * For a chance (measure "chance", or an average's chance of at least 1): the first value
   * reaching 50 %, 75 % and 90 %, each; null for a likeliest value and for an average without that
   * chance, which reach no chance.
   */
  reaches: Reach[] | null;
  summary: Summary;
}

export type SchemaId = "fire-mission/answer/1";

export type CalculatorId = string;

/** The command that prints the same roll or resolution. */
export type Command = string;

/**
 * The first line of the answer: the outcome or two a player decides on (the calculator's
 * headline), its parts joined by a middle dot.
 */
export type Headline = string;

/** The answer or the outcome in one line of text (what a screen reader is told). */
export type Summary = string;

/** Input names and their values as text. */
export type Texts = Record<string, string>;

/** An exact number in lowest terms, signed: "-5/32", "0", "3". */
export type Fraction = string;

/** An exact chance in lowest terms: "11/32", "0", "1". */
export type Probability = string;

/** A chance as the page prints it: "34.4%". */
export type Percent = string;

/** A bar's length in percent of the chart's height or the row's width: "66.67". */
export type Height = string;

/** One outcome of the headline and its text. */
export interface HeadlinePart {
  outcome: string;
  text: string;
}

/**
 * One outcome of a comparison's headline, in parts so that a page can mark option b's: text = lead
 * + a + ' → ' + b + tail.
 */
export interface CompareHeadlinePart {
  outcome: string;
  lead: string;
  a: string;
  b: string;
  tail: string;
  text: string;
}

export type OutcomeType = "int" | "bool" | "choice";

export type OutcomeName = string;

/** One outcome's odds: certain (one value with probability 1) or a distribution. */
export type OddsOutcome = CertainOutcome | DistributionOutcome;

/** An outcome with one value, of probability 1. */
export interface CertainOutcome {
  name: OutcomeName;
  label: string;
  help: string;
  type: OutcomeType;
  draw?: Draw;
  kind: "certain";
  value: string;
  value_label: string;
  cells?: Cells;
  summary: Summary;
  /** A unit outcome's value as its cell on the map shows it, beside the legend's draw.key: "−1". */
  badge_value?: string;
  /** A unit outcome's whole badge: "modifier −1"; empty when there is nothing worth showing. */
  badge?: string;
}

/**
 * An outcome with two or more values: each with its exact chance, cumulative chances on the number
 * scale and bars; its likeliest value and, for a number, its mean over the numbers.
 */
export interface DistributionOutcome {
  name: OutcomeName;
  label: string;
  help: string;
  type: OutcomeType;
  draw?: Draw;
  kind: "distribution";
  values: Value[];
  /** Whether a page draws the distribution: a number with three or more values. */
  chart: boolean;
  likeliest: string;
  mean: Fraction | null;
  mean_text: string | null;
  mean_leaves_out: string[];
  mean_leaves_out_p: Probability;
  summary: Summary;
  /** As a certain outcome's: the chance of yes, ≈ the mean, or the likeliest value. */
  badge_value?: string;
  badge?: string;
}

/** An outcome's value in a roll or a resolution done. */
export interface RolledOutcome {
  name: OutcomeName;
  label: string;
  type: OutcomeType;
  kind: "rolled";
  draw?: Draw;
  value: string;
  value_label: string;
  cells?: Cells;
  summary: Summary;
  badge_value?: string;
  badge?: string;
}

/** Cells of a map, each [row, column] numbered from 1. */
export type Cells = ([number, number])[];

/**
 * How a map outcome is drawn: on a unit's cell (with the legend's name for its badges, key), as a
 * path or as cells.
 */
export interface Draw {
  kind: "unit" | "path" | "cells";
  unit?: string;
  key?: string;
}

/**
 * One value of a distribution: its exact chance and, on the number scale, at least and at most it
 * (null off the scale).
 */
export interface Value {
  value: string;
  label: string;
  cells?: Cells;
  p: Probability;
  percent: Percent;
  bar: Height;
  at_least: Probability | null;
  at_least_percent: Percent | null;
  at_most: Probability | null;
  at_most_percent: Percent | null;
  /**
   * The value read as at least (≥2; a word past every number, such as later, as itself); null off
   * the number scale.
   */
  at_least_label: string | null;
  /**
   * The value read as at most (≤2; a word past every number: any, later included); null off the
   * number scale.
   */
  at_most_label: string | null;
  heights: Heights;
}

/**
 * A value's bar in each view of a chart, in percent of the chart's height; null where the view
 * does not place it.
 */
export interface Heights {
  exactly: Height | null;
  at_least: Height | null;
  at_most: Height | null;
}

/**
 * A map's unit outcomes as one table (rules_py/answer/units.py): a row per unit, a column per kind
 * of unit outcome, and the outcomes it and the map's drawing stand for in a summary.
 */
export interface Units {
  columns: UnitColumn[];
  rows: UnitRow[];
  replaces: string[];
}

export interface UnitColumn {
  key: string;
  label: string;
}

export interface UnitRow {
  unit: string;
  label: string;
  cells: (UnitCell | null)[];
  summary: Summary;
}

/** One unit outcome in the table: its value (null for odds) and the value in words. */
export interface UnitCell {
  outcome: string;
  value: string | null;
  text: string;
}

/**
 * One labelled roll of the procedure: the chance that it is made at all, and what it decides given
 * that it is made (those p sum to 1).
 */
export interface Step {
  label: string;
  p_rolled: Probability;
  p_rolled_percent: Percent;
  often: string;
  values: StepValue[];
  /**
   * Every roll this step's table is for (the first is the step's own label and chance), each with
   * how often it is made.
   */
  rolls: StepRoll[];
  /** For a step that stands for several identical rolls, what says so; null for one roll. */
  same: string | null;
}

export interface StepRoll {
  label: string;
  p_rolled: Probability;
  p_rolled_percent: Percent;
  often: string;
}

export interface StepValue {
  value: string;
  label: string;
  p: Probability;
  percent: Percent;
}

/**
 * One roll of a roll's log or a resolution's trail: its dice and what they decided, the arithmetic
 * from them (working: "2D6 = 5 + 4 = 9, less 4 for flak = 5"), what the result means where that
 * rests on a rule, and the rule section it applies.
 */
export interface Die {
  label: string;
  dice: string;
  faces: Face[];
  result: string;
  working: string;
  means: string | null;
  rule: Rule | null;
  /**
   * A resolution's roll only (given): the entries of the dice text it read (a pool's faces one
   * each, its score one, none for a pool of no dice), what Undo takes back.
   */
  entries?: string[];
}

/** One die's face and whether it scored (null where a face neither scores nor fails). */
export interface Face {
  face: number;
  scored: boolean | null;
}

/**
 * A rule section of the site: a docs page and an anchor on it; href is its address from the site's
 * root, title what a link to it says.
 */
export interface Rule {
  page: string;
  anchor: string;
  href: string;
  title: string;
}

/**
 * The first roll a resolution still needs: its label (as the roll log writes it), what is rolled
 * (D6, 3D6), the faces per die and how many dice; a pool that counts what it scores also names its
 * counts ((singular, plural) per count) and, in the typed form, every score its dice can make.
 */
export interface Need {
  label: string;
  dice: string;
  faces: number;
  count: number;
  counts?: (string[])[] | null;
  scores?: Score[];
}

/** What a pool can score, as --dice takes it after = ("2/1") and in words. */
export interface Score {
  value: string;
  label: string;
}

/**
 * One outcome both options have: the chance of yes (a yes/no outcome) or the mean (a number), and
 * each value's chance, as a, b and b - a.
 */
export interface Difference {
  name: string;
  label: string;
  type: OutcomeType;
  chance: ChanceDifference | null;
  mean: MeanDifference | null;
  values: ValueDifference[];
  chart: boolean;
  summary: Summary;
}

export interface ChanceDifference {
  a: Probability;
  b: Probability;
  b_minus_a: Fraction;
  a_percent: Percent;
  b_percent: Percent;
  /** b - a in percentage points: "-15.6 points". */
  difference: string;
}

export interface MeanDifference {
  a: Fraction;
  b: Fraction;
  b_minus_a: Fraction;
  a_text: string;
  b_text: string;
  difference: string;
  leaves_out: LeavesOut;
}

/** Per option, the words a mean over the numbers leaves out. */
export interface LeavesOut {
  a: string[];
  b: string[];
}

export interface ValueDifference {
  value: string;
  label: string;
  a: Probability;
  b: Probability;
  b_minus_a: Fraction;
  difference: string;
  heights: HeightsPair;
  texts: BarTextsPair;
}

/**
 * Each option's chance of the value in each view of the chart (off the number scale, the chance of
 * the value itself), as its bar's text says it: an option certain of its value has no values list
 * of its own to read.
 */
export interface BarTextsPair {
  a: BarTexts;
  b: BarTexts;
}

export interface BarTexts {
  exactly: Percent;
  at_least: Percent;
  at_most: Percent;
}

/** Both options' bars for one value, on one scale. */
export interface HeightsPair {
  a: Heights;
  b: Heights;
}

export interface SweepOutcome {
  name: string;
  label: string;
  type: OutcomeType;
}

/**
 * The outcome swept at one value of the swept input: its number (a chance or a mean, exact), its
 * text and its bar; error where the calculator refuses the value with the other inputs.
 */
export interface SweepRow {
  value: string;
  label: string;
  error?: string;
  number: Fraction | null;
  text: string | null;
  bar: Height | null;
  /**
   * An average's chance of at least 1 at this value (where the sweep has at_least_one; null on an
   * error row).
   */
  at_least_one?: SweepChance | null;
}

/** A chance in a sweep's row: exact, and as the page shows it. */
export interface SweepChance {
  number: Probability;
  text: Percent;
}

/**
 * What it takes: the first value of the swept input at which the chance reaches the target (null
 * if none does).
 */
export interface Reach {
  target: Probability;
  target_percent: Percent;
  value: string | null;
  label: string | null;
  text: string;
}
