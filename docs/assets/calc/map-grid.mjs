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
// Outcomes with a `draw` hint are drawn on the grid from the typed answer:
// "unit" puts the engine's badge on the cell that holds that label, "path"
// draws its cells (numbered from 1) as a line and "cells" shades its cells.
// Styles go by position, never by name: each path outcome takes the next line
// style (colour, dash and a small offset, so lines along the same cells stay
// apart), each cells outcome the next shading, and each kind of badge (the
// answer's draw.key, "modifier") the next badge colour. The legend under the
// map is made from the same things: the grid's states, marks, labels and the
// edges given, then the outcomes drawn, each named with the engine's words.
//
// The cells are a keyboard grid (role "grid"): one cell is in the tab order and
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
// renderUnits() shows the answer's table of units (rules_py.answer: units).

import { gridSpec, parseMap, serialiseMap, textLength } from "./grid.mjs";
import { el } from "./results.mjs";

export { gridSpec, parseMap, serialiseMap };

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

const cellKey = (cell) => `${cell.state}${cell.marks.join("")}|${cell.labels.join("")}`;


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
        /** @type {HTMLInputElement} */ (tools.querySelector('input[value="label"]')).checked = true;
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

    const legendId = `${idBase}-legend`;
    this.cells = el("div", { class: "fm-map-cells", role: "grid", ariaLabel: this.field.label, ariaDescribedby: legendId });
    // One listener for every cell: a button knows its place from data-cell (from 0).
    this.cells.addEventListener("click", (event) => {
      const button = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest(".fm-map-cell"));
      if (!button || !this.cells.contains(button)) return;
      const [r, c] = button.dataset.cell.split(".").map(Number);
      this.setActive(r, c, false);
      this.click(r, c);
    });
    this.cells.addEventListener("keydown", (event) => this.key(event));
    this.active = [0, 0]; // the one cell in the tab order (roving tabindex)
    this.lines = []; // the row elements on show
    this.nodes = []; // nodes[r][c]: the cell buttons on show
    this.keys = []; // keys[r][c]: what each button shows (cellKey), to touch only the changed ones
    this.decorated = new Set(); // buttons carrying a drawn outcome (badges, shade)
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
    this.edgeBars = {};
    for (const edge of spec.edges) {
      if (!edge.side) continue;
      this.edgeBars[edge.code] = el("span", { class: "fm-map-edge-bar", dataSide: edge.side, dataEdge: edge.code, title: edge.label, hidden: true });
      this.board.append(this.edgeBars[edge.code]);
    }
    this.board.append(this.overlay);
    // Badges, shown above the lines; what they say is in their cells' names.
    this.badgeLayer = el("div", { class: "fm-map-badge-layer", ariaHidden: "true" });
    this.badgeSpots = new Map(); // cell button -> its badges on the layer
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
  refuses(text) {
    const length = textLength(text, this.spec.maxText);
    if (length <= this.spec.maxText) return false;
    this.message.textContent = `Not taken: that text has ${length} characters, more than the largest map this calculator takes (${this.spec.maxRows} rows of ${this.spec.maxCols} cells, at most ${this.spec.maxText} characters).`;
    return true;
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
      const large = ["too_long", "too_many_rows", "too_many_cols"].includes(error.code);
      this.message.textContent = large
        ? `This map is larger than this calculator takes (${this.spec.maxRows} rows of ${this.spec.maxCols} cells): ${error.message}. It is not drawn; edit the text instead.`
        : `The grid cannot show this text (${error.message}); edit the text instead.`;
      if (large) this.clearCells(); // nothing of an earlier map stays under a message about this one
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

  // A cell's place as the page numbers it (from 1) and its state: what a
  // hover title and, ahead of the marks and labels, its accessible name say.
  place(cell, r, c) {
    return `Row ${r + 1}, column ${c + 1}: ${this.spec.states.find((s) => s.code === cell.state)?.label || cell.state}`;
  }

  describeCell(cell, r, c) {
    const spec = this.spec;
    const parts = [this.place(cell, r, c)];
    for (const m of cell.marks) parts.push(spec.marks.find((x) => x.code === m)?.label || m);
    if (cell.labels.length) parts.push(`${spec.labels?.label || "label"} ${cell.labels.join(", ")}`);
    return parts.join("; ");
  }

  // The one cell in the tab order; focus it when asked (keyboard moves).
  setActive(r, c, focus) {
    const [r0, c0] = this.active;
    const before = this.nodes[r0]?.[c0];
    const node = this.nodes[r]?.[c];
    if (!node) return;
    if (before && before !== node) before.tabIndex = -1;
    node.tabIndex = 0;
    this.active = [r, c];
    if (focus) node.focus();
  }

  // Arrow keys move a cell at a time; Home and End to the row's ends, and with
  // Ctrl to the map's first and last cells (the grid pattern of WAI-ARIA).
  key(event) {
    const cell = event.target.closest(".fm-map-cell");
    if (!cell || !this.rows) return;
    let [r, c] = cell.dataset.cell.split(".").map(Number);
    const moves = {
      ArrowUp: () => (r = Math.max(0, r - 1)),
      ArrowDown: () => (r = Math.min(this.rows - 1, r + 1)),
      ArrowLeft: () => (c = Math.max(0, c - 1)),
      ArrowRight: () => (c = Math.min(this.cols - 1, c + 1)),
      Home: () => (event.ctrlKey ? ([r, c] = [0, 0]) : (c = 0)),
      End: () => (event.ctrlKey ? ([r, c] = [this.rows - 1, this.cols - 1]) : (c = this.cols - 1)),
    };
    if (!moves[event.key] || event.altKey || event.metaKey) return;
    event.preventDefault();
    moves[event.key]();
    this.setActive(r, c, true);
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
    this.shape(rows, cols);
    for (let r = 0; r < rows; r++) {
      const row = this.map.rows[r];
      const keys = this.keys[r];
      for (let c = 0; c < cols; c++) {
        const key = cellKey(row[c]);
        if (keys[c] !== key) {
          keys[c] = key;
          this.paint(this.nodes[r][c], row[c], r, c);
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

  // Buttons for rows x cols cells: rows and columns added or taken away at the
  // bottom and on the right, the rest left as they are.
  shape(rows, cols) {
    const before = this.nodes.length ? this.nodes[0].length : -1;
    while (this.lines.length > rows) {
      this.lines.pop().remove();
      this.nodes.pop();
      this.keys.pop();
    }
    for (let r = 0; r < this.lines.length; r++) {
      const nodes = this.nodes[r];
      while (nodes.length > cols) {
        nodes.pop().remove();
        this.keys[r].pop();
      }
      while (nodes.length < cols) {
        const node = this.newCell(r, nodes.length);
        nodes.push(node);
        this.keys[r].push(null);
        this.lines[r].append(node);
      }
    }
    if (this.lines.length < rows) {
      const added = document.createDocumentFragment();
      for (let r = this.lines.length; r < rows; r++) {
        const line = el("div", { class: "fm-map-row", role: "row" });
        const nodes = [];
        for (let c = 0; c < cols; c++) nodes.push(this.newCell(r, c));
        line.append(...nodes);
        this.lines.push(line);
        this.nodes.push(nodes);
        this.keys.push(new Array(cols).fill(null));
        added.append(line);
      }
      this.cells.append(added);
    }
    if (cols !== before) this.cells.style.setProperty("--fm-cols", String(cols));
    if (cols !== this.cols) queueMicrotask(() => this.showScrollHint()); // its column count
    if (rows !== this.rows || cols !== this.cols) this.overlay.setAttribute("viewBox", `0 0 ${cols} ${rows}`);
    this.rows = rows;
    this.cols = cols;
    // The cell in the tab order may have gone with a row or a column: the nearest one takes its place.
    const [ar, ac] = this.active;
    const r = Math.min(ar, rows - 1);
    const c = Math.min(ac, cols - 1);
    if (this.nodes[r]?.[c]?.tabIndex !== 0) {
      this.active = [r, c];
      this.nodes[r][c].tabIndex = 0;
    }
  }

  newCell(r, c) {
    const node = /** @type {HTMLElement} */ (this.template.cloneNode(true));
    node.dataset.cell = `${r}.${c}`;
    return node;
  }

  clearCells() {
    this.cells.replaceChildren();
    this.lines = [];
    this.nodes = [];
    this.keys = [];
    this.decorated.clear();
    this.rows = this.cols = 0;
  }

  // Show one cell's state, marks and labels on its button.
  // The name comes from the content (no aria-label): the place and state in
  // hidden text, each mark as a symbol named by the grid, the labels as shown.
  paint(node, cell, r, c) {
    const spec = this.spec;
    const index = spec.states.findIndex((s) => s.code === cell.state);
    node.className = `fm-map-cell fm-state-${index % 8}`;
    node.dataset.state = cell.state;
    node.title = this.describeCell(cell, r, c);
    const [place, marks, labels] = node.children;
    place.textContent = this.place(cell, r, c);
    marks.replaceChildren(
      ...cell.marks.flatMap((code) => {
        const i = spec.marks.findIndex((m) => m.code === code);
        return [el("span", { class: "fm-sr", text: "; " }), el("span", { class: `fm-map-mark fm-mark-${i % 4}`, role: "img", ariaLabel: spec.marks[i]?.label || code, dataMark: code })];
      }),
    );
    labels.replaceChildren(...(cell.labels.length ? [el("span", { class: "fm-sr", text: `; ${spec.labels?.label || "label"} ` }), cell.labels.join("")] : []));
  }

  clearOutcomes() {
    this.lastDrawing = null;
    this.drawn = []; // legend entries for the outcomes on show
    if (this.overlay.firstChild) this.overlay.replaceChildren();
    for (const node of this.decorated) {
      for (const extra of node.querySelectorAll(".fm-map-note")) extra.remove();
      if (node.dataset.shade) {
        for (const name of [...node.classList]) if (name.startsWith("fm-shade-")) node.classList.remove(name);
        delete node.dataset.shade;
      }
      // The title carried the outcomes' text: paint it afresh.
      const [r, c] = node.dataset.cell.split(".").map(Number);
      if (this.map && this.map.rows[r]?.[c]) node.title = this.describeCell(this.map.rows[r][c], r, c);
    }
    this.decorated.clear();
    this.badgeSpots.clear();
    if (this.badgeLayer.firstChild) this.badgeLayer.replaceChildren();
  }

  // outcomes: the typed answer's (rules_py.answer), odds or a roll. Cells come
  // numbered from 1, as the page shows them; every text is the engine's.
  drawOutcomes(outcomes) {
    this.clearOutcomes();
    this.lastDrawing = [outcomes];
    if (!this.map) return this.drawLegend();
    const labelled = new Map(); // label -> its cell's button and how many labels share it
    for (const [r, row] of this.map.rows.entries()) for (const [c, cell] of row.entries()) for (const label of cell.labels) labelled.set(label, [this.nodes[r]?.[c], cell.labels.length]);
    const node = ([r, c]) => this.nodes[r - 1]?.[c - 1] || null; // the answer numbers cells from 1
    const mark = (cell) => {
      this.decorated.add(cell);
      return cell;
    };
    const keys = []; // badge kinds (draw.key) in the order first met: their style
    let paths = 0;
    let shades = 0;
    // Lines that run along the same cells are drawn side by side: each is moved
    // a little across the cells (down and right), by its position among the lines.
    const lines = outcomes.filter((o) => o.draw?.kind === "path").length;
    const step = lines > 1 ? Math.min(0.12, 0.5 / lines) : 0;
    for (const outcome of outcomes) {
      if (!outcome.draw) continue;
      // A distribution draws every value it may take; a certain or rolled outcome its one value.
      const drawn = outcome.kind === "distribution" ? outcome.values.filter((v) => v.p !== "0") : [{ value: outcome.value, label: outcome.value_label, cells: outcome.cells, percent: null }];
      const cellsOf = drawn.flatMap((v) => v.cells || []);
      if (outcome.draw.kind === "unit") {
        const [cell, sharing] = labelled.get(outcome.draw.unit) || [];
        const value = outcome.badge_value ?? outcome.badge;
        if (!cell || !outcome.badge || !value) continue; // a certain "no" says nothing worth a badge
        const key = outcome.draw.key || outcome.label;
        if (!keys.includes(key)) keys.push(key);
        const style = keys.indexOf(key);
        if (!this.drawn.some((d) => d.kind === "badge" && d.key === key)) this.drawn.push({ kind: "badge", key, style, label: key, sample: value });
        // The badge is drawn on a layer above the lines (a cell's row paints below
        // them); the cell itself carries the whole badge as text, for its name.
        let badges = this.badgeSpots.get(cell);
        if (!badges) {
          const [r, c] = cell.dataset.cell.split(".").map(Number);
          badges = el("span", { class: "fm-map-badges", dataCell: cell.dataset.cell });
          badges.style.setProperty("--fm-r", String(r));
          badges.style.setProperty("--fm-c", String(c));
          this.badgeSpots.set(cell, badges);
          this.badgeLayer.append(badges);
        }
        badges.append(el("span", { class: `fm-map-badge fm-badge-${style % 4}`, dataOutcome: outcome.name, text: sharing > 1 ? `${outcome.draw.unit}\u00a0${value}` : value }));
        mark(cell).append(el("span", { class: "fm-sr fm-map-note", dataOutcome: outcome.name, text: sharing > 1 ? `; ${outcome.draw.unit}: ${outcome.badge}` : `; ${outcome.badge}` }));
        cell.title += ` \u2014 ${outcome.summary}`;
      } else if (outcome.draw.kind === "path") {
        const style = paths++;
        this.drawn.push({ kind: "path", name: outcome.name, style, label: outcome.label, none: !cellsOf.length ? outcome.value_label || "none" : null });
        for (const v of drawn) {
          const cells = v.cells || [];
          if (!cells.length || cells.some((rc) => !node(rc))) continue;
          const line = svg("g", { class: `fm-map-path fm-path-${style % 6}`, "data-outcome": outcome.name, "data-value": v.value });
          const shift = ((style - (lines - 1) / 2) * step).toFixed(3);
          if (step) line.setAttribute("transform", `translate(${shift} ${shift})`);
          line.append(Object.assign(svg("title"), { textContent: v.percent === null ? `${outcome.label}: ${v.label}` : `${outcome.label}: ${v.label} (${v.percent})` }));
          const points = cells.map(([r, c]) => `${c - 0.5},${r - 0.5}`).join(" ");
          if (cells.length > 1) line.append(svg("polyline", { points }));
          // Its first cell (where the line starts) gets a dot, so a line is found from its end.
          line.append(svg("circle", { cx: cells[0][1] - 0.5, cy: cells[0][0] - 0.5, r: 0.13 }));
          this.overlay.append(line);
        }
      } else if (outcome.draw.kind === "cells") {
        const style = shades++;
        this.drawn.push({ kind: "cells", name: outcome.name, style, label: outcome.label, none: !cellsOf.length ? outcome.value_label || "none" : null });
        for (const v of drawn) {
          for (const rc of v.cells || []) {
            const cell = node(rc);
            if (!cell) continue;
            mark(cell);
            cell.dataset.shade = cell.dataset.shade ? `${cell.dataset.shade} ${outcome.name}` : outcome.name;
            cell.classList.add(`fm-shade-${style % 4}`);
            const note = v.percent === null ? `; ${outcome.label}` : `; ${outcome.label} (${v.percent})`;
            cell.title += ` \u2014 ${note.slice(2)}`;
            cell.append(el("span", { class: "fm-sr fm-map-note", text: note }));
          }
        }
      }
    }
    this.drawLegend();
  }

  // The key to the map: the grid's states, marks and labels, the edges given,
  // then each kind of badge, each line and each shading on show, in the
  // engine's words. Rebuilt only when what it lists changes.
  drawLegend() {
    const spec = this.spec;
    // The calculator's layout gives a map the whole width on a wide screen
    // (calculator.css: fm-layout-map); marked once the editor is on the page.
    if (!this.layoutMarked && this.element.isConnected) {
      this.element.closest(".fm-layout")?.classList.add("fm-layout-map");
      this.layoutMarked = true;
    }

    const edges = this.map ? spec.edges.filter((e) => e.side && this.map.edges.includes(e.code)) : [];
    const drawn = this.drawn || [];
    const key = JSON.stringify([edges.map((e) => e.code), drawn]);
    if (key === this.legendKey) return;
    this.legendKey = key;
    const entry = (kind, sample, text, attrs = {}) => el("li", { class: "fm-map-legend-entry", dataLegend: kind, ...attrs }, el("span", { class: "fm-map-sample", ariaHidden: "true" }, sample), el("span", { class: "fm-map-legend-text", text }));
    const items = [];
    for (const [i, s] of spec.states.entries()) items.push(entry("state", el("span", { class: `fm-map-swatch fm-state-${i % 8}` }), s.label, { dataCode: s.code }));
    for (const [i, m] of spec.marks.entries()) items.push(entry("mark", el("span", { class: `fm-map-mark fm-mark-${i % 4}` }), m.label, { dataCode: m.code }));
    if (spec.labels && spec.labels.chars) items.push(entry("label", el("span", { class: "fm-map-swatch fm-map-label-sample", text: spec.labels.chars[0] }), spec.labels.label || "Label"));
    for (const e of edges) items.push(entry("edge", el("span", { class: "fm-map-edge-sample", dataSide: e.side }), e.label, { dataCode: e.code }));
    for (const d of drawn) {
      const text = d.none ? `${d.label}: ${d.none}` : d.label;
      if (d.kind === "badge") items.push(entry("badge", el("span", { class: `fm-map-badge fm-badge-${d.style % 4}`, text: d.sample }), text, { dataKey: d.key }));
      if (d.kind === "path") {
        const sample = svg("svg", { class: "fm-map-path-sample", viewBox: "0 0 2 0.6" });
        const g = svg("g", { class: `fm-map-path fm-path-${d.style % 6}` });
        g.append(svg("polyline", { points: "0.2,0.3 1.8,0.3" }), svg("circle", { cx: 0.2, cy: 0.3, r: 0.13 }));
        sample.append(g);
        items.push(entry("path", sample, text, { dataOutcome: d.name, dataStyle: String(d.style % 6) }));
      }
      if (d.kind === "cells") items.push(entry("cells", el("span", { class: `fm-map-swatch fm-shade-${d.style % 4}` }), text, { dataOutcome: d.name, dataStyle: String(d.style % 4) }));
    }
    this.legend.replaceChildren(...items);
  }
}

// The answer's units (rules_py.answer: `units`) as a table at the head of the
// answer's list of outcomes, whose lines for the outcomes it stands for go
// (each unit's values, and the lines drawn on the map, which All results
// lists sector by sector). Every text is the engine's; an answer without
// units leaves the list as it is. Called after each rendering of that list
// (view.mjs, showSummary).
export function renderUnits(list, answer) {
  list.parentElement?.querySelector(":scope > .fm-units")?.remove();
  const units = answer.units;
  if (!units) return;
  const replaced = new Set(units.replaces);
  for (const item of [...list.children]) if (replaced.has(/** @type {HTMLElement} */ (item).dataset.outcome)) item.remove();
  const head = el("tr", {}, el("th", { scope: "col", text: "Unit" }), ...units.columns.map((c) => el("th", { scope: "col", text: c.label })));
  const body = el("tbody");
  for (const row of units.rows) {
    const cells = row.cells.map((cell) => (cell ? el("td", { dataOutcome: cell.outcome, dataValue: cell.value ?? undefined, text: cell.text }) : el("td", { text: "\u2014" })));
    body.append(el("tr", { dataUnit: row.unit }, el("th", { scope: "row", class: "fm-value", text: row.unit }), ...cells));
  }
  const lines = answer.outcomes.some((o) => replaced.has(o.name) && o.draw?.kind === "path");
  const box = el(
    "div",
    { class: "fm-units", dataUnits: String(units.rows.length) },
    el("div", { class: "fm-table-scroll", tabIndex: 0, role: "region", ariaLabel: "Every unit on the map" }, el("table", { class: "fm-odds fm-units-table" }, el("caption", { text: "Every unit on the map" }), el("thead", {}, head), body)),
    lines ? el("p", { class: "fm-units-note", text: "The lines are drawn on the map; All results lists their sectors." }) : null,
  );
  list.before(box);
}
