// What rules_py's Calculator.schema() gives (rules_py/calculator.py: Field.schema,
// Outcome.schema), the entries of calculators.json the page builds its forms from;
// and what the engine answers for bad input (InputError.to_dict, rules_py.call_json).
// Types only, for tsc: nothing imports this file at run time.

export interface Choice {
  name: string;
  label: string;
}

export interface FieldSchema {
  name: string;
  type: "int" | "bool" | "choice" | "number" | "text" | "map";
  label: string;
  help: string;
  /** The default as text; null for a required input. */
  default: string | null;
  required: boolean;
  min?: string;
  max?: string;
  choices?: Choice[];
  /** A map's grid (rules_py/grid.py), for type "map" only. */
  grid?: import("../docs/assets/calc/grid.mjs").Grid;
}

export interface OutcomeSchema {
  name: string;
  type: "int" | "bool" | "choice";
  label: string;
  help: string;
  values?: string[];
  extra?: string[];
  draw?: "unit" | "path" | "cells";
  unit?: string;
}

export interface CalculatorSchema {
  id: string;
  title: string;
  system: string;
  description: string;
  page: string;
  rolls_dice: boolean;
  fields: FieldSchema[];
  outcomes: OutcomeSchema[];
  dynamic_outcomes?: boolean;
}

/** The engine's refusal: its message, and each input's (field null: not one input's). */
export interface EngineError {
  error: string;
  fields: { field: string | null; message: string }[];
  /** A failure inside the engine (a bug), not bad input. */
  internal?: boolean;
}
