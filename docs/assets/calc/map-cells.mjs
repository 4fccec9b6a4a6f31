// The map editor's cells (map-grid.mjs): one button each, added or taken away
// as the map changes size and painted only where its text changed; each one's
// accessible name, its content; and the keyboard between them (role "grid":
// one cell in the tab order, the arrow keys, Home and End move between cells).

import { el } from "./results.mjs";

/** @typedef {import("./map-grid.mjs").MapGridInput} MapGridInput @typedef {import("./grid.mjs").Cell} Cell */

// A cell's place as the page numbers it (from 1) and its state: what a
// hover title and, ahead of the marks and labels, its accessible name say.
/** @param {MapGridInput} grid @param {Cell} cell @param {number} r @param {number} c from 0 */
function place(grid, cell, r, c) {
  return `Row ${r + 1}, column ${c + 1}: ${grid.spec.states.find((s) => s.code === cell.state)?.label || cell.state}`;
}

/** @param {MapGridInput} grid @param {Cell} cell @param {number} r @param {number} c from 0 */
export function describeCell(grid, cell, r, c) {
  const spec = grid.spec;
  const parts = [place(grid, cell, r, c)];
  for (const m of cell.marks) parts.push(spec.marks.find((x) => x.code === m)?.label || m);
  if (cell.labels.length) parts.push(`${spec.labels?.label || "label"} ${cell.labels.join(", ")}`);
  return parts.join("; ");
}

// The one cell in the tab order; focus it when asked (keyboard moves).
/** @param {MapGridInput} grid @param {number} r @param {number} c @param {boolean} focus */
export function setActive(grid, r, c, focus) {
  const [r0, c0] = grid.active;
  const before = grid.nodes[r0]?.[c0];
  const node = grid.nodes[r]?.[c];
  if (!node) return;
  if (before && before !== node) before.tabIndex = -1;
  node.tabIndex = 0;
  grid.active = [r, c];
  if (focus) node.focus();
}

// Arrow keys move a cell at a time; Home and End to the row's ends, and with
// Ctrl to the map's first and last cells (the grid pattern of WAI-ARIA).
/** @param {MapGridInput} grid @param {KeyboardEvent} event */
export function moveByKey(grid, event) {
  const cell = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest(".fm-map-cell"));
  if (!cell || !grid.rows) return;
  let [r, c] = /** @type {string} every cell has its place */ (cell.dataset.cell).split(".").map(Number);
  /** @type {Record<string, () => unknown>} */
  const moves = {
    ArrowUp: () => (r = Math.max(0, r - 1)),
    ArrowDown: () => (r = Math.min(grid.rows - 1, r + 1)),
    ArrowLeft: () => (c = Math.max(0, c - 1)),
    ArrowRight: () => (c = Math.min(grid.cols - 1, c + 1)),
    Home: () => (event.ctrlKey ? ([r, c] = [0, 0]) : (c = 0)),
    End: () => (event.ctrlKey ? ([r, c] = [grid.rows - 1, grid.cols - 1]) : (c = grid.cols - 1)),
  };
  if (!moves[event.key] || event.altKey || event.metaKey) return;
  event.preventDefault();
  moves[event.key]();
  setActive(grid, r, c, true);
}

// Buttons for rows x cols cells: rows and columns added or taken away at the
// bottom and on the right, the rest left as they are.
/** @param {MapGridInput} grid @param {number} rows @param {number} cols */
export function shape(grid, rows, cols) {
  const before = grid.nodes.length ? grid.nodes[0].length : -1;
  while (grid.lines.length > rows) {
    /** @type {HTMLElement} */ (grid.lines.pop()).remove(); // one more line than rows
    grid.nodes.pop();
    grid.keys.pop();
  }
  for (let r = 0; r < grid.lines.length; r++) {
    const nodes = grid.nodes[r];
    while (nodes.length > cols) {
      /** @type {HTMLElement} */ (nodes.pop()).remove(); // one more cell than cols
      grid.keys[r].pop();
    }
    while (nodes.length < cols) {
      const node = newCell(grid, r, nodes.length);
      nodes.push(node);
      grid.keys[r].push(null);
      grid.lines[r].append(node);
    }
  }
  if (grid.lines.length < rows) {
    const added = document.createDocumentFragment();
    for (let r = grid.lines.length; r < rows; r++) {
      const line = el("div", { class: "fm-map-row", role: "row" });
      /** @type {HTMLElement[]} */
      const nodes = [];
      for (let c = 0; c < cols; c++) nodes.push(newCell(grid, r, c));
      line.append(...nodes);
      grid.lines.push(line);
      grid.nodes.push(nodes);
      grid.keys.push(new Array(cols).fill(null));
      added.append(line);
    }
    grid.cells.append(added);
  }
  if (cols !== before) grid.cells.style.setProperty("--fm-cols", String(cols));
  if (cols !== grid.cols) queueMicrotask(() => grid.showScrollHint()); // its column count
  if (rows !== grid.rows || cols !== grid.cols) grid.overlay.setAttribute("viewBox", `0 0 ${cols} ${rows}`);
  grid.rows = rows;
  grid.cols = cols;
  // The cell in the tab order may have gone with a row or a column: the nearest one takes its place.
  const [ar, ac] = grid.active;
  const r = Math.min(ar, rows - 1);
  const c = Math.min(ac, cols - 1);
  if (grid.nodes[r]?.[c]?.tabIndex !== 0) {
    grid.active = [r, c];
    grid.nodes[r][c].tabIndex = 0;
  }
}

/** @param {MapGridInput} grid @param {number} r @param {number} c */
function newCell(grid, r, c) {
  const node = /** @type {HTMLElement} */ (grid.template.cloneNode(true));
  node.dataset.cell = `${r}.${c}`;
  return node;
}

export function clearCells(/** @type {MapGridInput} */ grid) {
  grid.cells.replaceChildren();
  grid.lines = [];
  grid.nodes = [];
  grid.keys = [];
  grid.decorated.clear();
  grid.rows = grid.cols = 0;
}

// Show one cell's state, marks and labels on its button.
// The name comes from the content (no aria-label): the place and state in
// hidden text, each mark as a symbol named by the grid, the labels as shown.
/** @param {MapGridInput} grid @param {HTMLElement} node @param {Cell} cell @param {number} r @param {number} c */
export function paint(grid, node, cell, r, c) {
  const spec = grid.spec;
  const index = spec.states.findIndex((s) => s.code === cell.state);
  node.className = `fm-map-cell fm-state-${index % 8}`;
  node.dataset.state = cell.state;
  node.title = describeCell(grid, cell, r, c);
  const [where, marks, labels] = node.children;
  where.textContent = place(grid, cell, r, c);
  marks.replaceChildren(
    ...cell.marks.flatMap((code) => {
      const i = spec.marks.findIndex((m) => m.code === code);
      return [el("span", { class: "fm-sr", text: "; " }), el("span", { class: `fm-map-mark fm-mark-${i % 4}`, role: "img", ariaLabel: spec.marks[i]?.label || code, dataMark: code })];
    }),
  );
  labels.replaceChildren(...(cell.labels.length ? [el("span", { class: "fm-sr", text: `; ${spec.labels?.label || "label"} ` }), cell.labels.join("")] : []));
}
