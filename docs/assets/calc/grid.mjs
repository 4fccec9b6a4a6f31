// The generic map grid's notation, read and written in the page: the same
// grammar and the same errors as rules_py/grid.py (its docstring states the
// grammar), in the same words: the blanks and every message come from there,
// generated into grid-grammar.mjs. tests/map_grid_cases.json holds the cases both
// parsers must agree on; tests/grid.test.mjs runs them here (node --test), and
// tests/test_grid.py in Python. This module knows the notation only, from the
// field's `grid` in the schema, never what the states, marks or labels mean.
// No DOM: it runs in Node as in the browser. The page reads the notation itself,
// not through the engine, because the map is drawn and edited as the player
// types and taps, on a first visit seconds before the engine has arrived; the
// engine's own reading decides the answer.

import { BLANKS, MESSAGES } from "./grid-grammar.mjs";

/**
 * A map field's grid as the schema gives it (declared in rules_py/data/calculator.schema.json;
 * rules_py/grid.py's docstring has an example), and a state's code.
 * @typedef {import("../../../types/calculator.js").Grid} Grid
 * @typedef {import("../../../types/calculator.js").GridCode} Code
 * @typedef {ReturnType<typeof gridSpec>} GridSpec the grid as this module reads it
 * @typedef {{state: string, marks: string[], labels: string[]}} Cell
 * @typedef {{edges: string[], rows: Cell[][]}} GridMap a map read from its text
 */

// Message `name` (grid-grammar.mjs, MESSAGES) with its {words} filled in; a word
// not given is this module's bug, and says so rather than print "undefined".
/** @param {string} name @param {Record<string, string | number>} [words] */
function message(name, words = {}) {
  return MESSAGES[name].replace(/\{(\w+)\}/g, (_, word) => {
    if (!(word in words)) throw new Error(`grid.mjs: the message ${name} needs its word ${word}`);
    return String(words[word]);
  });
}

export class GridError extends Error {
  /** @param {string} code @param {string} message @param {Record<string, unknown>} [detail] */
  constructor(code, message, detail = {}) {
    super(message);
    this.code = code;
    this.detail = Object.fromEntries(Object.entries(detail).filter(([, v]) => v !== undefined && v !== null));
  }

  toJSON() {
    return { code: this.code, message: this.message, ...this.detail };
  }
}

/** @param {Grid} grid */
export function gridSpec(grid) {
  return {
    edgeSep: grid.edge_sep,
    rowSep: grid.row_sep,
    edges: grid.edges || [],
    states: grid.states,
    marks: grid.marks || [],
    labels: grid.labels || null,
    maxRows: grid.max_rows,
    maxCols: grid.max_cols,
    maxText: textLimit(grid),
  };
}

// The length of the longest text the grid can take (see text_limit in rules_py/grid.py).
/** @param {Grid} grid */
export function textLimit(grid) {
  const rows = grid.max_rows;
  const cols = grid.max_cols;
  const edges = (grid.edges || []).length;
  const marks = (grid.marks || []).reduce((sum, m) => sum + Math.min(m.max || rows * cols, rows * cols), 0);
  const labels = new Set([...((grid.labels && grid.labels.chars) || "")]).size;
  return (edges ? edges + 1 : 0) + rows * cols + (rows - 1) + marks + labels;
}

// A character for a message: in quotes, or as U+XXXX when it would not show.
/** @param {string} ch one character */
export function show(ch) {
  const n = /** @type {number} a character has a code point */ (ch.codePointAt(0));
  return n <= 0x20 || (n >= 0x7f && n <= 0xa0) ? `U+${n.toString(16).toUpperCase().padStart(4, "0")}` : `"${ch}"`;
}

// Characters as Python counts them (code points): a character outside the BMP
// is two UTF-16 units in text.length. Counted only when the length is in doubt.
/** @param {string} text @param {number} limit */
export function textLength(text, limit) {
  if (text.length <= limit) return text.length;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdbff || i + 1 === text.length) n++;
    else {
      const next = text.charCodeAt(i + 1);
      n++;
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  return n;
}

/** @param {string} text */
function strip(text) {
  let start = 0;
  let end = text.length;
  while (start < end && BLANKS.includes(text[start])) start++;
  while (end > start && BLANKS.includes(text[end - 1])) end--;
  return text.slice(start, end);
}

// text -> {edges: [codes], rows: [[{state, marks: [], labels: []}]]}, or throws a GridError.
// Rows and columns in errors count from 1, as a player counts them.
/** @param {GridSpec} spec @param {string} text @returns {GridMap} */
export function parseMap(spec, text) {
  const length = textLength(text, spec.maxText);
  if (length > spec.maxText) {
    throw new GridError(
      "too_long",
      message("too_long", { count: length, max_rows: spec.maxRows, max_cols: spec.maxCols, limit: spec.maxText }),
      { count: length, limit: spec.maxText },
    );
  }
  let body = strip(text);
  if (!body) throw new GridError("empty", message("empty"));
  const edgeCodes = spec.edges.map((e) => e.code);
  /** @type {string[]} */
  const edges = [];
  if (edgeCodes.length && body.includes(spec.edgeSep)) {
    const at = body.indexOf(spec.edgeSep);
    for (const ch of body.slice(0, at)) {
      if (!edgeCodes.includes(ch)) throw new GridError("edge_unknown", message("edge_unknown", { char: show(ch), sep: show(spec.edgeSep), edges: edgeCodes.join(", ") }), { char: ch });
      if (edges.includes(ch)) throw new GridError("edge_twice", message("edge_twice", { char: show(ch) }), { char: ch });
      edges.push(ch);
    }
    body = body.slice(at + spec.edgeSep.length);
  }
  const rowTexts = body.split(spec.rowSep);
  if (rowTexts.length > spec.maxRows) {
    throw new GridError("too_many_rows", message("too_many_rows", { count: rowTexts.length, limit: spec.maxRows }), { count: rowTexts.length, limit: spec.maxRows });
  }
  const stateCodes = new Set(spec.states.map((s) => s.code));
  const markMax = new Map(spec.marks.map((m) => [m.code, m.max || 0]));
  const labelChars = new Set(spec.labels ? [...spec.labels.chars] : []);
  const holders = new Map(spec.marks.map((m) => [m.code, /** @type {[number, number][]} */ ([])]));
  /** @type {Map<string, [number, number]>} */
  const labelsAt = new Map(); // label -> [row, col] from 0
  /** @type {Cell[][]} */
  const rows = [];
  for (const [r, rowText] of rowTexts.entries()) {
    if (!rowText) throw new GridError("row_empty", message("row_empty", { row: r + 1 }), { row: r + 1 });
    /** @type {Cell[]} */
    const row = [];
    let after = "";
    for (const ch of rowText) {
      if (stateCodes.has(ch)) {
        row.push({ state: ch, marks: [], labels: [] });
        after = "state";
        continue;
      }
      const c = row.length - 1;
      const cell = row[c];
      if ((markMax.has(ch) || labelChars.has(ch)) && !cell) {
        throw new GridError("no_state", message("no_state", { row: r + 1, char: show(ch) }), { row: r + 1, char: ch });
      }
      const at = { row: r + 1, col: c + 1, char: ch };
      const words = { ...at, char: show(ch) };
      if (markMax.has(ch)) {
        if (after === "label") throw new GridError("mark_after_label", message("mark_after_label", words), at);
        if (cell.marks.includes(ch)) throw new GridError("mark_twice", message("mark_twice", words), at);
        const most = markMax.get(ch);
        const held = /** @type {[number, number][]} every mark has its list */ (holders.get(ch));
        if (most && held.length >= most) {
          const [fr, fc] = held[0];
          throw new GridError(
            "mark_max",
            message("mark_max", { ...words, limit: most, s: most > 1 ? "s" : "", other_row: fr + 1, other_col: fc + 1 }),
            { ...at, other: [fr + 1, fc + 1], limit: most },
          );
        }
        held.push([r, c]);
        cell.marks.push(ch);
        after = "mark";
        continue;
      }
      if (labelChars.has(ch)) {
        if (labelsAt.has(ch)) {
          const [fr, fc] = /** @type {[number, number]} */ (labelsAt.get(ch));
          throw new GridError(
            "label_twice",
            message(fr === r && fc === c ? "label_twice.same_cell" : "label_twice", { ...words, other_row: fr + 1, other_col: fc + 1 }),
            { ...at, other: [fr + 1, fc + 1] },
          );
        }
        labelsAt.set(ch, [r, c]);
        cell.labels.push(ch);
        after = "label";
        continue;
      }
      throw new GridError("unknown_char", message("unknown_char", { char: show(ch), row: r + 1 }), { row: r + 1, char: ch });
    }
    if (row.length > spec.maxCols) {
      throw new GridError("too_many_cols", message("too_many_cols", { row: r + 1, count: row.length, limit: spec.maxCols }), { row: r + 1, count: row.length, limit: spec.maxCols });
    }
    if (rows.length && row.length !== rows[0].length) {
      throw new GridError("ragged", message("ragged", { row: r + 1, count: row.length, limit: rows[0].length }), {
        row: r + 1,
        count: row.length,
        limit: rows[0].length,
      });
    }
    rows.push(row);
  }
  return { edges, rows };
}

// The canonical text of a map: edges, marks and labels in the grid's own order.
/** @param {GridSpec} spec @param {GridMap} map */
export function serialiseMap(spec, map) {
  const edgeOrder = spec.edges.map((e) => e.code).filter((c) => map.edges.includes(c));
  const markOrder = spec.marks.map((m) => m.code);
  const labelOrder = spec.labels ? [...spec.labels.chars] : [];
  const cellText = (/** @type {Cell} */ cell) =>
    cell.marks.length || cell.labels.length
      ? cell.state + markOrder.filter((m) => cell.marks.includes(m)).join("") + labelOrder.filter((l) => cell.labels.includes(l)).join("")
      : cell.state;
  const rows = map.rows.map((row) => row.map(cellText).join(""));
  return (edgeOrder.length ? edgeOrder.join("") + spec.edgeSep : "") + rows.join(spec.rowSep);
}
