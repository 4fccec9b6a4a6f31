// The map grid's grammar as data, generated from rules_py/grid.py (BLANKS, MESSAGES) by
// scripts/build/schema_types.py: do not edit (make check fails when it differs from what grid.py gives).
// grid.mjs reads it, so that the page refuses a map in the engine's very words.

// Only these count as blanks around a map's text.
export const BLANKS = " \t\n\r\f\u000b";

// Each refusal's message by name (its error's code, or the code and a variant after a dot),
// its {words} filled in where it is refused (grid.mjs, message).
/** @type {Readonly<Record<string, string>>} */
export const MESSAGES = Object.freeze({
  "too_long": "the map text has {count} characters: the largest map it may hold ({max_rows} rows of {max_cols} cells) takes at most {limit}",
  "empty": "the map is empty",
  "edge_unknown": "{char} is not a map edge: the edges before {sep} are {edges}",
  "edge_twice": "map edge {char} is given twice",
  "too_many_rows": "the map has {count} rows: at most {limit}",
  "row_empty": "row {row} is empty: every row needs at least one cell",
  "no_state": "row {row} starts with {char}: a cell starts with its state",
  "mark_after_label": "in row {row}, column {col} the mark {char} comes after a label: marks come first",
  "mark_twice": "row {row}, column {col} has the mark {char} twice",
  "mark_max": "the mark {char} is on more than {limit} cell{s}: in row {other_row}, column {other_col} and in row {row}, column {col}",
  "label_twice": "the label {char} is on the map twice (row {other_row}, column {other_col} and row {row}, column {col}): each label names one thing",
  "label_twice.same_cell": "the label {char} is on the map twice in row {row}, column {col}: each label names one thing",
  "unknown_char": "unknown character {char} in row {row}",
  "too_many_cols": "row {row} has {count} cells: at most {limit}",
  "ragged": "row {row} has {count} cells but row 1 has {limit}: every row needs the same number",
});
