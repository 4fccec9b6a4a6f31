// A generic, clickable editor for a calculator input of type "map".
//
// It knows the notation only, from the field's `grid` in the schema (the
// grammar, its errors and its bounds are in grid.mjs, the page's twin of
// rules_py/grid.py), never what the states, marks or labels mean:
//
//   text = [EDGES edge_sep] ROW row_sep ROW ...      (top row first)
//   a cell = one state code, then mark codes, then label characters
//
// The text is the value: the editor parses it to draw the grid and writes it
// back after every click, so the grid, the text box, the URL and the engine
// always hold the same string. Text it cannot draw stays editable as text and
// the engine's message says what is wrong. A text longer than the largest map
// the grid allows is refused before anything is drawn (refuses()).
//
// Drawing keeps up with typing on the largest map: the cells' buttons stay in
// place and only those whose text changed are touched; rows and columns are
// added or removed at the ends; one listener on the grid serves every cell.
//
// Outcomes with a `draw` hint are drawn on the grid from the typed answer,
// with a legend under the map (map-drawing.mjs).
//
// The cells (map-cells.mjs) are a keyboard grid (role "grid"): one cell is in the tab order and
// the arrow keys, Home and End (Ctrl+ for the whole map) move between cells;
// Enter or Space clicks one. A cell's accessible name is its content: its
// place counted from 1 ("Row 2, column 3"), its state, its marks (symbols with
// their names), its labels and what the outcomes drawn say of it. The badges
// are drawn on a layer above the lines (hidden from assistive technology: the
// cell's name carries each whole badge, "modifier −1").
//
// Around the map (issue 23, item 6): a map wider than its box scrolls sideways
// under a hint saying so (shown only while it does not fit); the engine's
// message for a field of the calculator is shown in the answer's place too,
// where the answer for other inputs is hidden (fire-mission.css, "Konrad"),
// since under a tall map the field's own message is out of sight; and
// map-units.mjs shows the answer's table of units (rules_py.answer: units).

import { gridSpec, parseMap, serialiseMap, textLength } from "./grid.mjs";
import { clearCells, moveByKey, paint, setActive, shape } from "./map-cells.mjs";
import * as drawing from "./map-drawing.mjs";
import { svg } from "./map-drawing.mjs";
import { el } from "./results.mjs";

export { gridSpec, parseMap, serialiseMap };

/** @typedef {import("./grid.mjs").Cell} Cell @typedef {import("./grid.mjs").GridMap} GridMap */

const cellKey = (/** @type {Cell} */ cell) => `${cell.state}${cell.marks.join("")}|${cell.labels.join("")}`;


export class MapGridInput {
  /**
   * @param {import("../../../types/calculator.js").FieldSchema} field a map field
   * @param {string} idBase @param {(text: string) => void} onText a change made in the editor
   */
  constructor(field, idBase, onText) {
    this.field = field;
    // A map field has its grid and the longest text it takes (Field.schema in rules_py/calculator.py).
    this.spec = gridSpec(/** @type {import("./grid.mjs").Grid} */ (field.grid), /** @type {number} */ (field.max_length));
    this.onText = onText; // (text) => void: a change made in the editor
    this.map = /** @type {GridMap | null} */ (null);
    this.tool = "state";
    this.message = el("p", { class: "fm-map-message", role: "status" });
    // Its parts, built here in the constructor: TypeScript then knows each is there.
    const spec = this.spec;
    const tools = el("div", { class: "fm-map-tools", role: "radiogroup", ariaLabel: "What a click on a cell does" });
    const toolButton = (/** @type {string} */ value, /** @type {string} */ text, /** @type {string} */ title) => {
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
        /** @type {HTMLInputElement} */ (tools.querySelector('input[value="label"]')).checked = true;
      });
      tools.append(el("span", { class: "fm-map-tool" }, toolButton("label", spec.labels.label || "Label", "Click a cell to put this label there, or take it away"), " ", this.labelSelect));
    }

    this.edgeBoxes = /** @type {Record<string, HTMLInputElement>} */ ({});
    const edges = el("div", { class: "fm-map-edges" });
    for (const edge of spec.edges) {
      const box = el("input", { type: "checkbox", value: edge.code, dataEdge: edge.code });
      box.addEventListener("change", () => this.edit((map) => {
        map.edges = box.checked ? [...map.edges, edge.code] : map.edges.filter((c) => c !== edge.code);
      }));
      this.edgeBoxes[edge.code] = box;
      edges.append(el("label", { class: "fm-map-edge" }, box, ` ${edge.label} (${edge.code})`));
    }

    const sizeButton = (/** @type {string} */ text, /** @type {string} */ action, /** @type {string} */ label) => {
      const b = el("button", { type: "button", class: "fm-small-button", dataMapAction: action, ariaLabel: label, text });
      b.addEventListener("click", () => this.resize(action));
      return b;
    };
    this.sizeButtons = [sizeButton("+ row", "add-row", "Add a row at the bottom"), sizeButton("\u2212 row", "remove-row", "Remove the bottom row"), sizeButton("+ column", "add-col", "Add a column on the right"), sizeButton("\u2212 column", "remove-col", "Remove the right-hand column")];
    const size = el("div", { class: "fm-map-size" }, ...this.sizeButtons);

    const legendId = `${idBase}-legend`;
    this.cells = el("div", { class: "fm-map-cells", role: "grid", ariaLabel: this.field.label, ariaDescribedby: legendId });
    // One listener for every cell: a button knows its place from data-cell (from 0).
    this.cells.addEventListener("click", (event) => {
      const button = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest(".fm-map-cell"));
      if (!button || !this.cells.contains(button)) return;
      const [r, c] = /** @type {string} every cell has its place */ (button.dataset.cell).split(".").map(Number);
      setActive(this, r, c, false);
      this.click(r, c);
    });
    this.cells.addEventListener("keydown", (event) => moveByKey(this, event));
    this.active = /** @type {[number, number]} */ ([0, 0]); // the one cell in the tab order (roving tabindex)
    this.lines = /** @type {HTMLElement[]} */ ([]); // the row elements on show
    this.nodes = /** @type {HTMLElement[][]} */ ([]); // nodes[r][c]: the cell buttons on show
    this.keys = /** @type {(string | null)[][]} */ ([]); // keys[r][c]: what each button shows (cellKey), to touch only the changed ones
    this.decorated = /** @type {Set<HTMLElement>} */ (new Set()); // buttons carrying a drawn outcome (badges, shade)
    this.rows = 0; // the cells on show (map-cells.mjs: shape)
    this.cols = 0;
    this.drawn = /** @type {import("./map-drawing.mjs").Drawn[]} */ ([]); // legend entries for the outcomes on show (map-drawing.mjs)
    this.layoutMarked = false; // the calculator's layout knows it has a map (map-drawing.mjs: drawLegend)
    // A cell: its place and state (read, not shown), its marks, its labels.
    this.template = el(
      "button",
      { type: "button", role: "gridcell", class: "fm-map-cell", tabIndex: -1 },
      el("span", { class: "fm-sr" }),
      el("span", { class: "fm-map-marks" }),
      el("span", { class: "fm-map-labels" }),
    );
    this.overlay = svg("svg", { class: "fm-map-overlay", "aria-hidden": "true", preserveAspectRatio: "none" });
    this.board = el("div", { class: "fm-map-board" }, this.cells);
    // The edges given are drawn along their side of the map (the grid's edge "side").
    this.edgeBars = /** @type {Record<string, HTMLSpanElement>} */ ({});
    for (const edge of spec.edges) {
      if (!edge.side) continue;
      this.edgeBars[edge.code] = el("span", { class: "fm-map-edge-bar", dataSide: edge.side, dataEdge: edge.code, title: edge.label, hidden: true });
      this.board.append(this.edgeBars[edge.code]);
    }
    this.board.append(this.overlay);
    // Badges, shown above the lines; what they say is in their cells' names.
    this.badgeLayer = el("div", { class: "fm-map-badge-layer", ariaHidden: "true" });
    this.badgeSpots = /** @type {Map<HTMLElement, HTMLSpanElement>} */ (new Map()); // cell button -> its badges on the layer
    this.board.append(this.badgeLayer);
    this.legend = el("ul", { class: "fm-map-legend", id: legendId, ariaLabel: "Key to the map" });
    this.legendKey = "";
    this.scroller = el("div", { class: "fm-map-scroll" }, this.board);
    this.scrollHint = el("p", { class: "fm-map-scroll-hint", id: `${idBase}-scroll-hint`, hidden: true });
    this.element = el("div", { class: "fm-map" }, tools, edges.childElementCount ? edges : null, this.scrollHint, this.scroller, this.legend, size, this.message);
    // Whether the map fits its box, looked at again whenever either changes size:
    // in the next frame, not in the observer's callback, since showing the hint
    // changes the layout, and a change made there that resizes what is observed
    // is reported by the browser as an error ("ResizeObserver loop completed").
    if (typeof ResizeObserver === "function") {
      this.fits = new ResizeObserver(() => requestAnimationFrame(() => this.showScrollHint()));
      this.fits.observe(this.scroller);
      this.fits.observe(this.cells);
    }
  }

  // The hint over a map wider than its box: it scrolls sideways (a swipe, the
  // scroll bar, or the arrow keys from cell to cell), and how many columns it has.
  showScrollHint() {
    const wide = !this.board.hidden && this.scroller.scrollWidth > this.scroller.clientWidth + 1;
    this.scrollHint.hidden = !wide;
    if (wide) this.scrollHint.textContent = `\u2194 The map is wider than its box: swipe or scroll it sideways to see all ${this.cols} columns.`;
  }

  // A text longer than any map the grid allows: say so, and draw nothing. The
  // caller keeps its previous text (a paste of 200,000 characters is not taken).
  /** @param {string} text */
  refuses(text) {
    const length = textLength(text, this.spec.maxText);
    if (length <= this.spec.maxText) return false;
    this.message.textContent = `Not taken: that text has ${length} characters, more than the largest map this calculator takes (${this.spec.maxRows} rows of ${this.spec.maxCols} cells, at most ${this.spec.maxText} characters).`;
    return true;
  }

  // Show the grid for this text (a change from outside: the text box, the URL).
  /** @param {string} text */
  setText(text) {
    /** @type {[import("./map-drawing.mjs").Outcome[]] | null} what drawOutcomes drew last (map-drawing.mjs) */
    this.lastDrawing = null; // the results on show were for another map
    this.blank = !text.trim(); // no map yet: "+ row" or "+ column" starts one
    try {
      this.map = this.blank ? null : parseMap(this.spec, text);
      this.board.hidden = this.blank;
      this.message.textContent = this.blank ? "No map yet: add a row or a column to start one, or type it as text." : "";
    } catch (caught) {
      const error = /** @type {import("./grid.mjs").GridError} what parseMap throws */ (caught);
      this.map = null;
      this.board.hidden = true;
      const large = ["too_long", "too_many_rows", "too_many_cols"].includes(error.code);
      this.message.textContent = large
        ? `This map is larger than this calculator takes (${this.spec.maxRows} rows of ${this.spec.maxCols} cells): ${error.message}. It is not drawn; edit the text instead.`
        : `The grid cannot show this text (${error.message}); edit the text instead.`;
      if (large) clearCells(this); // nothing of an earlier map stays under a message about this one
    }
    this.draw();
  }

  /** @param {(map: GridMap) => void} change */
  edit(change) {
    if (!this.map) return;
    this.lastDrawing = null;
    change(this.map);
    this.draw();
    this.onText(serialiseMap(this.spec, this.map));
  }

  /** @param {string} action */
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

  /** @param {number} r @param {number} c from 0 */
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
        const mark = /** @type {import("../../../types/calculator.js").GridMark} a mark tool's mark is the grid's */ (spec.marks.find((m) => m.code === code));
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
        const labelSelect = /** @type {HTMLSelectElement} a grid with labels has it */ (this.labelSelect);
        const char = labelSelect.value;
        if (cell.labels.includes(char)) {
          cell.labels = cell.labels.filter((l) => l !== char);
          return;
        }
        // A label names one thing: placing it here takes it from where it was.
        for (const x of map.rows.flat()) x.labels = x.labels.filter((l) => l !== char);
        cell.labels.push(char);
        const free = [.../** @type {{chars: string}} */ (spec.labels).chars].find((l) => !map.rows.flat().some((x) => x.labels.includes(l)));
        if (free) labelSelect.value = free;
      }
    });
  }

  // The typed answer drawn on the map, and the legend (map-drawing.mjs).
  clearOutcomes() {
    drawing.clearOutcomes(this);
  }

  /** @param {import("./map-drawing.mjs").Outcome[]} outcomes */
  drawOutcomes(outcomes) {
    drawing.drawOutcomes(this, outcomes);
  }

  drawLegend() {
    drawing.drawLegend(this);
  }

  draw() {
    const spec = this.spec;
    for (const [code, box] of Object.entries(this.edgeBoxes)) {
      box.checked = !!this.map && this.map.edges.includes(code);
      box.disabled = !this.map;
    }
    for (const [code, bar] of Object.entries(this.edgeBars)) bar.hidden = !this.map || !this.map.edges.includes(code);
    if (!this.lastDrawing) this.clearOutcomes();
    this.drawLegend();
    if (!this.map) {
      // Only an empty text can be grown from nothing: "+ row" and "+ column" start a map.
      for (const b of this.sizeButtons) b.disabled = !(this.blank && /^add/.test(b.dataset.mapAction || ""));
      return; // the buttons stay (hidden) for the next text of the same size
    }
    const rows = this.map.rows.length;
    const cols = this.map.rows[0].length; // the grammar keeps rows the same length
    shape(this, rows, cols);
    for (let r = 0; r < rows; r++) {
      const row = this.map.rows[r];
      const keys = this.keys[r];
      for (let c = 0; c < cols; c++) {
        const key = cellKey(row[c]);
        if (keys[c] !== key) {
          keys[c] = key;
          paint(this, this.nodes[r][c], row[c], r, c);
        }
      }
    }
    const [addRow, removeRow, addCol, removeCol] = this.sizeButtons;
    addRow.disabled = rows >= spec.maxRows;
    removeRow.disabled = rows <= 1;
    addCol.disabled = cols >= spec.maxCols;
    removeCol.disabled = cols <= 1;
    if (this.lastDrawing) this.drawOutcomes(...this.lastDrawing);
  }
}
