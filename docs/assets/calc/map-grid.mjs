// A generic, clickable editor for a calculator input of type "map".
//
// It knows the notation only, from the field's `grid` in the schema (see
// MAP_GRID_KEYS in rules_py/calculator.py), never what the states, marks or
// labels mean:
//
//   text = [EDGES edge_sep] ROW row_sep ROW ...      (top row first)
//   a cell = one state code, then mark codes, then label characters
//
// The text is the value: the editor parses it to draw the grid and writes it
// back after every click, so the grid, the text box, the URL and the engine
// always hold the same string. Text it cannot draw stays editable as text and
// the engine's message says what is wrong.
//
// Outcomes with a `draw` hint are drawn on the grid: "unit" puts the value on
// the cell that holds that label, "path" draws "row.col row.col ..." as a line
// and "cells" shades the cells of a "row.col ..." set.

import { el } from "./results.mjs";

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

export function gridSpec(grid) {
  return {
    edgeSep: grid.edge_sep ?? ":",
    rowSep: grid.row_sep ?? "/",
    edges: grid.edges || [],
    states: grid.states || [],
    marks: grid.marks || [],
    labels: grid.labels || null,
    maxRows: grid.max_rows || 40,
    maxCols: grid.max_cols || 40,
  };
}

// text -> {edges: [codes], rows: [[{state, marks: [], labels: []}]]}, or throws with a reason
export function parseMap(spec, text) {
  const stateCodes = new Set(spec.states.map((s) => s.code));
  const markCodes = new Set(spec.marks.map((m) => m.code));
  const labelChars = new Set(spec.labels ? [...spec.labels.chars] : []);
  const edgeCodes = new Set(spec.edges.map((e) => e.code));
  let body = text.replace(/\s+/g, "");
  const edges = [];
  if (spec.edges.length && body.includes(spec.edgeSep)) {
    const at = body.indexOf(spec.edgeSep);
    for (const c of body.slice(0, at)) {
      if (!edgeCodes.has(c)) throw new Error(`"${c}" is not a map edge`);
      if (edges.includes(c)) throw new Error(`edge "${c}" is given twice`);
      edges.push(c);
    }
    body = body.slice(at + spec.edgeSep.length);
  }
  if (!body) throw new Error("the map has no cells");
  const rows = body.split(spec.rowSep).map((rowText, r) => {
    const row = [];
    for (const c of rowText) {
      if (stateCodes.has(c)) row.push({ state: c, marks: [], labels: [] });
      else if (!row.length) throw new Error(`row ${r + 1} must begin with a cell state, not "${c}"`);
      else if (markCodes.has(c)) row[row.length - 1].marks.push(c);
      else if (labelChars.has(c)) row[row.length - 1].labels.push(c);
      else throw new Error(`"${c}" is not a state, mark or label of this map`);
    }
    if (!row.length) throw new Error(`row ${r + 1} is empty`);
    return row;
  });
  return { edges, rows };
}

export function serialiseMap(spec, map) {
  const edgeOrder = spec.edges.map((e) => e.code).filter((c) => map.edges.includes(c));
  const markOrder = spec.marks.map((m) => m.code);
  const labelOrder = spec.labels ? [...spec.labels.chars] : [];
  const rows = map.rows.map((row) =>
    row
      .map((cell) => cell.state + markOrder.filter((m) => cell.marks.includes(m)).join("") + labelOrder.filter((l) => cell.labels.includes(l)).join(""))
      .join(""),
  );
  return (edgeOrder.length ? edgeOrder.join("") + spec.edgeSep : "") + rows.join(spec.rowSep);
}

// "2.3 2.4 3.4" -> [[2,3],[2,4],[3,4]], or null when the value is not a cell list
export function parseCells(value) {
  const parts = String(value).trim().split(/\s+/).filter(Boolean);
  if (!parts.length) return null;
  const cells = [];
  for (const part of parts) {
    const m = /^(\d+)\.(\d+)$/.exec(part);
    if (!m) return null;
    cells.push([Number(m[1]), Number(m[2])]);
  }
  return cells;
}

export class MapGridInput {
  constructor(field, idBase, onText) {
    this.field = field;
    this.spec = gridSpec(field.grid);
    this.onText = onText; // (text) => void: a change made in the editor
    this.map = null;
    this.tool = "state";
    this.message = el("p", { class: "fm-map-message", role: "status" });
    this.build(idBase);
  }

  build(idBase) {
    const spec = this.spec;
    const tools = el("div", { class: "fm-map-tools", role: "radiogroup", ariaLabel: "What a click on a cell does" });
    const toolButton = (value, text, title) => {
      const input = el("input", { type: "radio", name: `${idBase}-tool`, value, checked: value === "state" });
      input.addEventListener("change", () => {
        this.tool = value;
        this.message.textContent = "";
      });
      return el("label", { class: "fm-map-tool", title }, input, " ", text);
    };
    tools.append(toolButton("state", "Cell state", `Each click moves a cell to the next state: ${spec.states.map((s) => `${s.code} ${s.label}`).join(", ")}`));
    for (const mark of spec.marks) tools.append(toolButton(`mark:${mark.code}`, `${mark.label} (${mark.code})`, `Click a cell to put or take away: ${mark.label}`));
    if (spec.labels && spec.labels.chars) {
      this.labelSelect = el("select", { class: "fm-map-label-char", ariaLabel: spec.labels.label || "Label" });
      for (const c of spec.labels.chars) this.labelSelect.append(el("option", { value: c, text: c }));
      this.labelSelect.addEventListener("change", () => {
        this.tool = "label";
        tools.querySelector('input[value="label"]').checked = true;
      });
      tools.append(el("span", { class: "fm-map-tool" }, toolButton("label", spec.labels.label || "Label", "Click a cell to put this label there, or take it away"), " ", this.labelSelect));
    }

    this.edgeBoxes = {};
    const edges = el("div", { class: "fm-map-edges" });
    for (const edge of spec.edges) {
      const box = el("input", { type: "checkbox", value: edge.code, dataEdge: edge.code });
      box.addEventListener("change", () => this.edit((map) => {
        map.edges = box.checked ? [...map.edges, edge.code] : map.edges.filter((c) => c !== edge.code);
      }));
      this.edgeBoxes[edge.code] = box;
      edges.append(el("label", { class: "fm-map-edge" }, box, ` ${edge.label} (${edge.code})`));
    }

    const sizeButton = (text, action, label) => {
      const b = el("button", { type: "button", class: "fm-small-button", dataMapAction: action, ariaLabel: label, text });
      b.addEventListener("click", () => this.resize(action));
      return b;
    };
    this.sizeButtons = [sizeButton("+ row", "add-row", "Add a row at the bottom"), sizeButton("\u2212 row", "remove-row", "Remove the bottom row"), sizeButton("+ column", "add-col", "Add a column on the right"), sizeButton("\u2212 column", "remove-col", "Remove the right-hand column")];
    const size = el("div", { class: "fm-map-size" }, ...this.sizeButtons);

    this.cells = el("div", { class: "fm-map-cells", role: "grid" });
    this.overlay = svg("svg", { class: "fm-map-overlay", "aria-hidden": "true", preserveAspectRatio: "none" });
    this.board = el("div", { class: "fm-map-board" }, this.cells);
    this.board.append(this.overlay);
    this.legend = el("p", { class: "fm-map-legend" });
    for (const [i, s] of spec.states.entries()) this.legend.append(el("span", { class: `fm-map-key fm-state-${i % 8}`, text: s.code }), ` ${s.label}  `);
    this.element = el("div", { class: "fm-map" }, tools, edges.childElementCount ? edges : null, el("div", { class: "fm-map-scroll" }, this.board), this.legend, size, this.message);
  }

  // Show the grid for this text (a change from outside: the text box, the URL).
  setText(text) {
    this.lastDrawing = null; // the results on show were for another map
    this.blank = !text.trim(); // no map yet: "+ row" or "+ column" starts one
    try {
      this.map = this.blank ? null : parseMap(this.spec, text);
      this.board.hidden = this.blank;
      this.message.textContent = this.blank ? "No map yet: add a row or a column to start one, or type it as text." : "";
    } catch (error) {
      this.map = null;
      this.board.hidden = true;
      this.message.textContent = `The grid cannot show this text (${error.message}); edit the text instead.`;
    }
    this.draw();
  }

  edit(change) {
    if (!this.map) return;
    this.lastDrawing = null;
    change(this.map);
    this.draw();
    this.onText(serialiseMap(this.spec, this.map));
  }

  resize(action) {
    const spec = this.spec;
    const first = spec.states[0].code;
    if (!this.map && this.blank && action.startsWith("add")) {
      // Start a map of one cell of the first state; the resize below adds to it.
      this.map = { edges: [], rows: [[{ state: first, marks: [], labels: [] }]] };
      this.blank = false;
      this.board.hidden = false;
      this.message.textContent = "";
      this.edit(() => {});
      return;
    }
    this.edit((map) => {
      const cols = Math.max(...map.rows.map((r) => r.length));
      if (action === "add-row" && map.rows.length < spec.maxRows) map.rows.push(Array.from({ length: cols }, () => ({ state: first, marks: [], labels: [] })));
      if (action === "remove-row" && map.rows.length > 1) map.rows.pop();
      if (action === "add-col" && cols < spec.maxCols) for (const row of map.rows) row.push({ state: first, marks: [], labels: [] });
      if (action === "remove-col" && cols > 1) for (const row of map.rows) if (row.length === cols) row.pop();
    });
  }

  click(r, c) {
    const spec = this.spec;
    const tool = this.tool;
    this.message.textContent = "";
    this.edit((map) => {
      const cell = map.rows[r][c];
      if (tool === "state") {
        const codes = spec.states.map((s) => s.code);
        cell.state = codes[(codes.indexOf(cell.state) + 1) % codes.length];
      } else if (tool.startsWith("mark:")) {
        const code = tool.slice(5);
        const mark = spec.marks.find((m) => m.code === code);
        if (cell.marks.includes(code)) {
          cell.marks = cell.marks.filter((m) => m !== code);
          return;
        }
        const holders = map.rows.flat().filter((x) => x.marks.includes(code));
        if (mark.max && holders.length >= mark.max) {
          if (mark.max !== 1) {
            this.message.textContent = `At most ${mark.max} cells may have: ${mark.label}. Take one away first.`;
            return;
          }
          holders[0].marks = holders[0].marks.filter((m) => m !== code); // only one allowed: move it here
        }
        cell.marks.push(code);
      } else if (tool === "label") {
        const char = this.labelSelect.value;
        if (cell.labels.includes(char)) {
          cell.labels = cell.labels.filter((l) => l !== char);
          return;
        }
        // A label names one thing: placing it here takes it from where it was.
        for (const x of map.rows.flat()) x.labels = x.labels.filter((l) => l !== char);
        cell.labels.push(char);
        const free = [...spec.labels.chars].find((l) => !map.rows.flat().some((x) => x.labels.includes(l)));
        if (free) this.labelSelect.value = free;
      }
    });
  }

  describeCell(cell, r, c) {
    const spec = this.spec;
    const parts = [`row ${r}, column ${c}: ${spec.states.find((s) => s.code === cell.state)?.label || cell.state}`];
    for (const m of cell.marks) parts.push(spec.marks.find((x) => x.code === m)?.label || m);
    if (cell.labels.length) parts.push(`${spec.labels?.label || "label"} ${cell.labels.join(", ")}`);
    return parts.join("; ");
  }

  draw() {
    const spec = this.spec;
    for (const [code, box] of Object.entries(this.edgeBoxes)) {
      box.checked = !!this.map && this.map.edges.includes(code);
      box.disabled = !this.map;
    }
    this.cells.replaceChildren();
    if (!this.map) {
      // Only an empty text can be grown from nothing: "+ row" and "+ column" start a map.
      for (const b of this.sizeButtons) b.disabled = !(this.blank && /^add/.test(b.dataset.mapAction || ""));
      return;
    }
    const rows = this.map.rows.length;
    const cols = Math.max(...this.map.rows.map((r) => r.length));
    this.rows = rows;
    this.cols = cols;
    this.cells.style.gridTemplateColumns = `repeat(${cols}, var(--fm-cell))`;
    this.cellNodes = new Map();
    for (const [r, row] of this.map.rows.entries()) {
      const line = el("div", { class: "fm-map-row", role: "row" });
      line.style.display = "contents";
      for (let c = 0; c < cols; c++) {
        const cell = row[c];
        if (!cell) {
          line.append(el("span", { class: "fm-map-gap" }));
          continue;
        }
        const index = spec.states.findIndex((s) => s.code === cell.state);
        const button = el(
          "button",
          { type: "button", role: "gridcell", class: `fm-map-cell fm-state-${index % 8}`, dataCell: `${r}.${c}`, dataState: cell.state, ariaLabel: this.describeCell(cell, r, c), title: this.describeCell(cell, r, c) },
          el("span", { class: "fm-map-marks", text: cell.marks.join("") }),
          el("span", { class: "fm-map-labels", text: cell.labels.join("") }),
        );
        button.addEventListener("click", () => this.click(r, c));
        this.cellNodes.set(`${r}.${c}`, button);
        line.append(button);
      }
      this.cells.append(line);
    }
    const [addRow, removeRow, addCol, removeCol] = this.sizeButtons;
    addRow.disabled = rows >= spec.maxRows;
    removeRow.disabled = rows <= 1;
    addCol.disabled = cols >= spec.maxCols;
    removeCol.disabled = cols <= 1;
    this.overlay.setAttribute("viewBox", `0 0 ${cols} ${rows}`);
    this.overlay.replaceChildren();
    if (this.lastDrawing) this.drawOutcomes(...this.lastDrawing);
  }

  clearOutcomes() {
    this.lastDrawing = null;
    this.overlay.replaceChildren();
    for (const node of this.cells.querySelectorAll(".fm-map-badges")) node.remove();
    for (const node of this.cells.querySelectorAll("[data-shade]")) {
      node.style.removeProperty("--fm-shade");
      delete node.dataset.shade;
    }
  }

  // outcomes: the typed answer's (rules_py.answer), odds or a roll. Cells come
  // numbered from 1, as the page shows them; every text is the engine's.
  drawOutcomes(outcomes) {
    this.clearOutcomes();
    this.lastDrawing = [outcomes];
    if (!this.map) return;
    const cellOf = (label) => {
      for (const [r, row] of this.map.rows.entries()) for (const [c, cell] of row.entries()) if (cell.labels.includes(label)) return this.cellNodes.get(`${r}.${c}`);
      return null;
    };
    const node = ([r, c]) => this.cellNodes.get(`${r - 1}.${c - 1}`);
    for (const outcome of outcomes) {
      if (!outcome.draw) continue;
      // A distribution draws every value it may take; a certain or rolled outcome its one value.
      const drawn = outcome.kind === "distribution" ? outcome.values.filter((v) => v.p !== "0") : [{ value: outcome.value, label: outcome.value_label, cells: outcome.cells, percent: null }];
      if (outcome.draw.kind === "unit") {
        const cell = cellOf(outcome.draw.unit);
        if (!cell || !outcome.badge) continue; // a certain "no" says nothing worth a badge
        let badges = cell.querySelector(".fm-map-badges");
        if (!badges) cell.append((badges = el("span", { class: "fm-map-badges" })));
        badges.append(el("span", { class: "fm-map-badge", dataOutcome: outcome.name, title: outcome.summary, text: outcome.badge }));
      } else if (outcome.draw.kind === "path") {
        for (const v of drawn) {
          const cells = v.cells || [];
          if (!cells.length || cells.some((rc) => !node(rc))) continue;
          const points = cells.map(([r, c]) => `${c - 0.5},${r - 0.5}`).join(" ");
          const line = svg(cells.length > 1 ? "polyline" : "circle", cells.length > 1 ? { points } : { cx: cells[0][1] - 0.5, cy: cells[0][0] - 0.5, r: 0.18 });
          line.setAttribute("class", "fm-map-path");
          line.setAttribute("data-outcome", outcome.name);
          line.setAttribute("data-value", v.value);
          line.append(Object.assign(svg("title"), { textContent: v.percent === null ? `${outcome.label}: ${v.label}` : `${outcome.label}: ${v.label} (${v.percent})` }));
          this.overlay.append(line);
        }
      } else if (outcome.draw.kind === "cells") {
        for (const v of drawn) {
          for (const rc of v.cells || []) {
            const cell = node(rc);
            if (!cell) continue;
            cell.dataset.shade = outcome.name;
            cell.title += v.percent === null ? ` \u2014 ${outcome.label}` : ` \u2014 ${outcome.label} (${v.percent})`;
          }
        }
      }
    }
  }
}
