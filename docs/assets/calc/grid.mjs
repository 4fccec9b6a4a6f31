// The generic map grid's notation, read and written in the page. Its rules are
// rules_py/grid.py's GRAMMAR (its docstring states the grammar), generated into
// grid-grammar.mjs: what a character may follow, how often it may be given, the
// sizes, the blanks and every refusal's words. This module holds none of them, and
// nothing of what the states, marks or labels mean: it knows the notation's shape
// (edges before the separator, rows, cells) and what a character it takes builds,
// as grid.py's parse_grid does. tests/map_grid_cases.json holds the cases both
// parsers must read alike (tests/grid.test.mjs runs them here, tests/test_grid.py in
// Python, which also changes rules and sees both parsers follow). No DOM: it runs
// in Node as in the browser. The page reads the notation itself, not through the
// engine, because the map is drawn and edited as the player types and taps, on a
// first visit seconds before the engine has arrived; the engine's own reading
// decides the answer.

import { GRAMMAR as BUILT } from "./grid-grammar.mjs";

/**
 * A map field's grid as the schema gives it (declared in rules_py/data/calculator.schema.json;
 * rules_py/grid.py's docstring has an example), and a state's code.
 * @typedef {import("../../../types/calculator.js").Grid} Grid
 * @typedef {import("../../../types/calculator.js").GridCode} Code
 * @typedef {ReturnType<typeof gridSpec>} GridSpec the grid as this module reads it
 * @typedef {{state: string, marks: string[], labels: string[]}} Cell
 * @typedef {{edges: string[], rows: Cell[][]}} GridMap a map read from its text
 * @typedef {import("./grid-grammar.mjs").Grammar} Grammar
 * @typedef {import("./grid-grammar.mjs").Kind} Kind
 * @typedef {import("./grid-grammar.mjs").CountRule} CountRule
 * @typedef {import("./grid-grammar.mjs").SizeRule} SizeRule
 */

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

// A grid as this module reads it. `maxText` is the longest text the grid takes, which
// the engine works out from it (rules_py/grid.py, text_limit) and the schema gives as
// a map field's max_length.
/** @param {Grid} grid @param {number} maxText */
export function gridSpec(grid, maxText) {
  return {
    edgeSep: grid.edge_sep,
    rowSep: grid.row_sep,
    edges: grid.edges || [],
    states: grid.states,
    marks: grid.marks || [],
    labels: grid.labels || null,
    maxRows: grid.max_rows,
    maxCols: grid.max_cols,
    maxText,
  };
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

/** @param {string} text @param {string} blanks */
function strip(text, blanks) {
  let start = 0;
  let end = text.length;
  while (start < end && blanks.includes(text[start])) start++;
  while (end > start && blanks.includes(text[end - 1])) end--;
  return text.slice(start, end);
}

// Characters as Python counts them, whatever the length.
/** @param {string} text */
const codePoints = (text) => (/[\ud800-\udfff]/.test(text) ? [...text].length : text.length);

// text -> {edges: [codes], rows: [[{state, marks: [], labels: []}]]}, or throws a
// GridError, by the rules of `grammar` (rules_py/grid.py's GRAMMAR; the tests give
// others). Rows and columns in errors count from 1, as a player counts them.
/** @param {GridSpec} spec @param {string} text @param {Grammar} [grammar] @returns {GridMap} */
export function parseMap(spec, text, grammar = BUILT) {
  const reading = new Reading(spec, grammar);
  reading.size("text", textLength(text, spec.maxText));
  let body = strip(text, grammar.blanks);
  reading.size("body", codePoints(body));
  if (spec.edges.length && body.includes(spec.edgeSep)) {
    const at = body.indexOf(spec.edgeSep);
    reading.read("edges", body.slice(0, at));
    body = body.slice(at + spec.edgeSep.length);
  }
  const rowTexts = body.split(spec.rowSep);
  reading.size("rows", rowTexts.length);
  /** @type {Cell[][]} */
  const rows = [];
  for (const [r, rowText] of rowTexts.entries()) {
    reading.size("row", codePoints(rowText), r);
    // The usual row holds states only, which a grammar takes one by one as cells (plainRows).
    const row = reading.plainRows && reading.statesOnly.test(rowText) ? plainRow(rowText) : reading.read("row", rowText, r);
    reading.size("cells", row.length, r);
    rows.push(row);
    reading.bounds.first_row = rows[0].length;
  }
  return { edges: reading.edges, rows };
}

// The list `map` holds at `key`, a new one put there if it holds none.
/** @template K, V @param {Map<K, V[]>} map @param {K} key @returns {V[]} */
function listAt(map, key) {
  let list = map.get(key);
  if (!list) map.set(key, (list = []));
  return list;
}

/** @param {string} states @returns {Cell[]} */
function plainRow(states) {
  const cells = [];
  for (const ch of states) cells.push({ state: ch, marks: [], labels: [] });
  return cells;
}

// One text read under one grid: the grammar's rules, the places they count, and what
// is read (grid.py's _Reading, in the same steps).
class Reading {
  /** @param {GridSpec} spec @param {Grammar} grammar */
  constructor(spec, grammar) {
    this.spec = spec;
    this.grammar = grammar;
    /** @type {Record<"edges" | "row", Map<string, Kind>>} */
    this.kindOf = {
      edges: new Map(spec.edges.map((e) => [e.code, "edge"])),
      row: new Map([
        ...spec.states.map((s) => /** @type {[string, Kind]} */ ([s.code, "state"])),
        ...spec.marks.map((m) => /** @type {[string, Kind]} */ ([m.code, "mark"])),
        ...[...(spec.labels ? spec.labels.chars : "")].map((ch) => /** @type {[string, Kind]} */ ([ch, "label"])),
      ]),
    };
    // Whether a row of states alone is its cells, one each (true of GRAMMAR): parseMap then
    // makes them without taking the row character by character (a 100 by 100 map is 10,000).
    this.plainRows = Object.values(grammar.read.row).every((actions) => actions.state === true);
    this.statesOnly = new RegExp(`^[${spec.states.map((s) => s.code.replace(/[\\\]^-]/g, "\\$&")).join("")}]+$`, "u");
    this.markMax = new Map(spec.marks.map((m) => [m.code, m.max || 0]));
    /** @type {Record<string, number | null>} */
    this.bounds = { text_limit: spec.maxText, max_rows: spec.maxRows, max_cols: spec.maxCols, first_row: null };
    /** @type {Map<string, ([number, number] | null)[]>} (rule, character, cell or map) -> where given */
    this.held = new Map();
    /** @type {Map<string, SizeRule[]>} what each size is held to, in order */
    this.sizes = new Map();
    for (const rule of grammar.sizes) listAt(this.sizes, rule.of).push(rule);
    /** @type {Map<Kind, [number, CountRule][]>} each kind's counts, numbered */
    this.counts = new Map();
    for (const [i, rule] of grammar.counts.entries()) listAt(this.counts, rule.kind).push([i, rule]);
    /** @type {string[]} */
    this.edges = [];
  }

  /** @param {string} of @param {number} count @param {number} [r] */
  size(of, count, r) {
    for (const rule of this.sizes.get(of) || []) {
      const bound = typeof rule.bound === "number" ? rule.bound : this.bounds[rule.bound];
      if (bound === null || bound === undefined) continue;
      const kept = rule.count === "at_most" ? count <= bound : rule.count === "at_least" ? count >= bound : count === bound;
      if (!kept) throw this.refusal(rule.refusal, { row: r, count, limit: bound });
    }
  }

  // Take `chars`, a part of the text (the edges, or row `r`): a row's cells.
  /** @param {"edges" | "row"} part @param {string} chars @param {number} [r] */
  read(part, chars, r) {
    const table = this.grammar.read[part];
    const kindOf = this.kindOf[part];
    /** @type {Cell[]} */
    const cells = [];
    let after = "";
    for (const ch of chars) {
      const kind = kindOf.get(ch) || "other";
      const action = table[after][kind];
      if (kind === "state" && action === true) {
        cells.push({ state: ch, marks: [], labels: [] }); // the usual one: a new cell (nothing counts states)
        after = kind;
        continue;
      }
      const c = cells.length - 1; // the cell a mark or label goes on; -1 before the first
      if (action !== true) throw this.refusal(action, { row: r, cell: r !== undefined && c >= 0 ? [r, c] : null, char: ch });
      if (this.counts.has(kind)) this.count(kind, ch, r !== undefined && c >= 0 ? [r, c] : null, r);
      if (kind === "edge") this.edges.push(ch);
      else if (kind === "state") cells.push({ state: ch, marks: [], labels: [] });
      else if (kind === "mark") cells[c].marks.push(ch);
      else if (kind === "label") cells[c].labels.push(ch);
      after = kind;
    }
    return cells;
  }

  // Refuse `ch` given once too often (the grammar's counts), else count it where it is.
  /** @param {Kind} kind @param {string} ch @param {[number, number] | null} cell @param {number} [r] */
  count(kind, ch, cell, r) {
    const rules = this.counts.get(kind) || [];
    const key = (/** @type {number} */ i, /** @type {CountRule} */ rule) => `${i} ${ch} ${rule.within === "cell" && cell ? cell.join(".") : ""}`;
    for (const [i, rule] of rules) {
      const held = this.held.get(key(i, rule)) || [];
      const most = rule.most === "max" ? this.markMax.get(ch) || 0 : rule.most;
      if (most && held.length >= most) {
        const other = rule.within === "map" ? held[0] : null;
        const same = other !== null && cell !== null && other[0] === cell[0] && other[1] === cell[1];
        throw this.refusal(rule.same_cell && same ? rule.same_cell : rule.refusal, { row: r, cell, char: ch, other, limit: most });
      }
    }
    for (const [i, rule] of rules) listAt(this.held, key(i, rule)).push(cell);
  }

  // The GridError `name` (a message of the grammar's), placed: rows and columns from 1.
  // A word its message needs and this place lacks is this module's bug, and says so.
  /** @param {string} name @param {{row?: number, cell?: [number, number] | null, char?: string, other?: [number, number] | null, count?: number, limit?: number}} at */
  refusal(name, { row, cell, char, other, count, limit }) {
    const place = {
      row: row === undefined ? undefined : row + 1,
      col: cell ? cell[1] + 1 : undefined,
      char,
      other: other ? [other[0] + 1, other[1] + 1] : undefined,
      count,
      limit,
    };
    /** @type {Record<string, string | number | undefined>} */
    const words = {
      row: place.row,
      col: place.col,
      count,
      limit,
      char: char === undefined ? undefined : show(char),
      other_row: place.other && place.other[0],
      other_col: place.other && place.other[1],
      sep: show(this.spec.edgeSep),
      edges: this.spec.edges.map((e) => e.code).join(", "),
      max_rows: this.spec.maxRows,
      max_cols: this.spec.maxCols,
      s: limit && limit > 1 ? "s" : "",
    };
    const message = this.grammar.messages[name].replace(/\{(\w+)\}/g, (_, word) => {
      if (words[word] === undefined) throw new Error(`grid.mjs: the message ${name} needs its word ${word}`);
      return String(words[word]);
    });
    return new GridError(name.split(".")[0], message, place);
  }
}

// The canonical text of a map: edges, marks and labels in the grid's own order, a
// cell's marks before its labels where the grammar takes a label after a mark (GRAMMAR
// does), else after them.
/** @param {GridSpec} spec @param {GridMap} map @param {Grammar} [grammar] */
export function serialiseMap(spec, map, grammar = BUILT) {
  const edgeOrder = spec.edges.map((e) => e.code).filter((c) => map.edges.includes(c));
  const markOrder = spec.marks.map((m) => m.code);
  const labelOrder = spec.labels ? [...spec.labels.chars] : [];
  const marksFirst = grammar.read.row.mark.label === true;
  const cellText = (/** @type {Cell} */ cell) => {
    if (!cell.marks.length && !cell.labels.length) return cell.state;
    const marks = markOrder.flatMap((m) => cell.marks.filter((x) => x === m)).join(""); // each as often as given
    const labels = labelOrder.filter((l) => cell.labels.includes(l)).join("");
    return cell.state + (marksFirst ? marks + labels : labels + marks);
  };
  const rows = map.rows.map((row) => row.map(cellText).join(""));
  return (edgeOrder.length ? edgeOrder.join("") + spec.edgeSep : "") + rows.join(spec.rowSep);
}
