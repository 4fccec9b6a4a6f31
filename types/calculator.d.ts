// The types of calculators.json and of the engine's refusals, generated from rules_py/data/calculator.schema.json by scripts/build/schema_types.py:
// do not edit (make check fails when they differ from what the schema gives).
// The page reads them through JSDoc: /** @typedef {import("../../../types/calculator.js").CalculatorSchema} CalculatorSchema */.

/** calculators.json: every calculator, in the registry's order. */
export type Calculators = CalculatorSchema[];

/** One calculator: what it is, its inputs and its outcomes. */
export interface CalculatorSchema {
  id: string;
  title: string;
  system: string;
  description: string;
  /** The rules page the calculator belongs to, under docs/. */
  page: string;
  /** Whether it rolls dice: a seeded roll and Use my dice are offered only then. */
  rolls_dice: boolean;
  fields: FieldSchema[];
  outcomes: OutcomeSchema[];
  /**
   * The outcomes depend on the inputs (a map's units): those listed are the defaults', or none
   * where an input is required.
   */
  dynamic_outcomes?: true;
  /**
   * For a calculator that rolls dice: the most entries (a die's face, or what a pool scored) the
   * player's own dice may hold; the engine refuses more (rules_py/given.py, MAX_ENTRIES), and the
   * page refuses them before asking it.
   */
  max_dice?: number;
}

/** One input of a calculator. */
export interface FieldSchema {
  name: Name;
  type: "int" | "bool" | "choice" | "number" | "text" | "map";
  label: string;
  help: string;
  /** The default as text; null for a required input. */
  default: string | null;
  required: boolean;
  /**
   * Whether a sweep can take it (rules_py/sweep.py): it has a finite list of values (a yes/no, a
   * choice, a whole number with both bounds). The page offers these alone.
   */
  sweepable: boolean;
  /** The least value of an int or number field, as text. */
  min?: string;
  /** The greatest value of an int or number field, as text. */
  max?: string;
  choices?: Choice[];
  /** A map's grid (rules_py/grid.py), for type map only. */
  grid?: Grid;
  /**
   * For type map only: the most characters its text may have, the largest map its grid allows
   * (rules_py/grid.py, text_limit). The page refuses a longer text before it reads it.
   */
  max_length?: number;
  /** For an input that chooses how to read a rule the source leaves open: its Interpretation note. */
  reading?: Reading;
}

/**
 * The Interpretation note an input chooses a reading of
 * (rules_py/<system>/data/interpretations.toml): its id (its anchor is interpretation-<id>) and
 * the rule it is about, in words.
 */
export interface Reading {
  id: string;
  rule: string;
}

/** One value a choice field takes: its name in links and the CLI, its label on the page. */
export interface Choice {
  name: string;
  label: string;
}

/** One result of a calculator's procedure. */
export interface OutcomeSchema {
  name: Name;
  type: "int" | "bool" | "choice";
  label: string;
  help: string;
  /** The order of a choice outcome's values. */
  values?: string[];
  /** Values other than numbers an int outcome may take (later). */
  extra?: string[];
  /** How the map editor draws it: a unit's badge, a path of cells or a set of cells. */
  draw?: "unit" | "path" | "cells";
  /** For draw unit: the label of the unit whose cell shows the value. */
  unit?: string;
}

/**
 * How a map field's text encodes a grid of cells (rules_py/grid.py states the grammar;
 * docs/assets/calc/grid.mjs reads it in the page).
 */
export interface Grid {
  edge_sep: string;
  row_sep: string;
  edges?: GridEdge[];
  states: GridCode[];
  marks?: GridMark[];
  labels?: GridLabels | null;
  max_rows: number;
  max_cols: number;
}

/** A cell's state: its one character in the text, and what it means in words. */
export interface GridCode {
  code: string;
  label: string;
}

/** An edge of the map that can be given before the rows, and the side the page draws it along. */
export interface GridEdge {
  code: string;
  label: string;
  side?: "top" | "right" | "bottom" | "left";
}

/** A mark a cell may carry after its state, on at most max cells. */
export interface GridMark {
  code: string;
  label: string;
  max?: number;
}

/** The characters that label units on cells, each on one cell at most. */
export interface GridLabels {
  chars: string;
  label: string;
}

/** The engine's refusal: its message, and each input's (field null: not one input's). */
export interface EngineError {
  error: string;
  fields: FieldError[];
  /** A failure inside the engine (a bug), not bad input. */
  internal?: true;
}

/** One message of a refusal, and the input it is about (null: the inputs as a whole). */
export interface FieldError {
  field: string | null;
  message: string;
}

/** An input's or outcome's name, as links and the CLI spell it. */
export type Name = string;
