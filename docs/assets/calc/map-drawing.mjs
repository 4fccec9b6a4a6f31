// The map editor's drawing of the typed answer (map-grid.mjs: drawOutcomes),
// and its legend.
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
// The badges are drawn on a layer above the lines (hidden from assistive
// technology: the cell's name carries each whole badge, "modifier −1").

import { describeCell } from "./map-cells.mjs";
import { el } from "./results.mjs";

/** @typedef {import("./map-grid.mjs").MapGridInput} MapGridInput */
/** @typedef {import("../../../types/answer.js").OddsOutcome | import("../../../types/answer.js").RolledOutcome} Outcome */
/**
 * A legend entry for an outcome drawn: a kind of badge (key, sample), a line or a shading (name, none).
 * @typedef {{kind: "badge" | "path" | "cells", style: number, label: string, key?: string, sample?: string, name?: string, none?: string | null}} Drawn
 */

const SVG = "http://www.w3.org/2000/svg";

/** @param {string} tag @param {Record<string, string | number>} [attrs] */
export function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, /** @type {string} a number too: an attribute takes it as text */ (v));
  return node;
}

export function clearOutcomes(/** @type {MapGridInput} */ grid) {
  grid.lastDrawing = null;
  grid.drawn = []; // legend entries for the outcomes on show
  if (grid.overlay.firstChild) grid.overlay.replaceChildren();
  for (const node of grid.decorated) {
    for (const extra of node.querySelectorAll(".fm-map-note")) extra.remove();
    if (node.dataset.shade) {
      for (const name of [...node.classList]) if (name.startsWith("fm-shade-")) node.classList.remove(name);
      delete node.dataset.shade;
    }
    // The title carried the outcomes' text: paint it afresh.
    const [r, c] = /** @type {string} every cell has its place */ (node.dataset.cell).split(".").map(Number);
    if (grid.map && grid.map.rows[r]?.[c]) node.title = describeCell(grid, grid.map.rows[r][c], r, c);
  }
  grid.decorated.clear();
  grid.badgeSpots.clear();
  if (grid.badgeLayer.firstChild) grid.badgeLayer.replaceChildren();
}

// outcomes: the typed answer's (rules_py.answer), odds or a roll. Cells come
// numbered from 1, as the page shows them; every text is the engine's.
export function drawOutcomes(/** @type {MapGridInput} */ grid, /** @type {Outcome[]} */ outcomes) {
  grid.clearOutcomes();
  grid.lastDrawing = [outcomes];
  if (!grid.map) return drawLegend(grid);
  /** @type {Map<string, [HTMLElement | undefined, number]>} */
  const labelled = new Map(); // label -> its cell's button and how many labels share it
  for (const [r, row] of grid.map.rows.entries()) for (const [c, cell] of row.entries()) for (const label of cell.labels) labelled.set(label, [grid.nodes[r]?.[c], cell.labels.length]);
  const node = (/** @type {[number, number]} */ [r, c]) => grid.nodes[r - 1]?.[c - 1] || null; // the answer numbers cells from 1
  const mark = (/** @type {HTMLElement} */ cell) => {
    grid.decorated.add(cell);
    return cell;
  };
  /** @type {string[]} */
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
      const [cell, sharing] = labelled.get(/** @type {string} a unit outcome names its unit */ (outcome.draw.unit)) || [];
      const value = outcome.badge_value ?? outcome.badge;
      if (!cell || !outcome.badge || !value) continue; // a certain "no" says nothing worth a badge
      const key = outcome.draw.key || outcome.label;
      if (!keys.includes(key)) keys.push(key);
      const style = keys.indexOf(key);
      if (!grid.drawn.some((d) => d.kind === "badge" && d.key === key)) grid.drawn.push({ kind: "badge", key, style, label: key, sample: value });
      // The badge is drawn on a layer above the lines (a cell's row paints below
      // them); the cell itself carries the whole badge as text, for its name.
      let badges = grid.badgeSpots.get(cell);
      if (!badges) {
        const [r, c] = /** @type {string} */ (cell.dataset.cell).split(".").map(Number);
        badges = el("span", { class: "fm-map-badges", dataCell: cell.dataset.cell });
        badges.style.setProperty("--fm-r", String(r));
        badges.style.setProperty("--fm-c", String(c));
        grid.badgeSpots.set(cell, badges);
        grid.badgeLayer.append(badges);
      }
      badges.append(el("span", { class: `fm-map-badge fm-badge-${style % 4}`, dataOutcome: outcome.name, text: /** @type {number} a cell's with it */ (sharing) > 1 ? `${outcome.draw.unit}\u00a0${value}` : value }));
      mark(cell).append(el("span", { class: "fm-sr fm-map-note", dataOutcome: outcome.name, text: /** @type {number} */ (sharing) > 1 ? `; ${outcome.draw.unit}: ${outcome.badge}` : `; ${outcome.badge}` }));
      cell.title += ` \u2014 ${outcome.summary}`;
    } else if (outcome.draw.kind === "path") {
      const style = paths++;
      grid.drawn.push({ kind: "path", name: outcome.name, style, label: outcome.label, none: !cellsOf.length ? /** @type {{value_label?: string}} a distribution has none */ (outcome).value_label || "none" : null });
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
        grid.overlay.append(line);
      }
    } else if (outcome.draw.kind === "cells") {
      const style = shades++;
      grid.drawn.push({ kind: "cells", name: outcome.name, style, label: outcome.label, none: !cellsOf.length ? /** @type {{value_label?: string}} a distribution has none */ (outcome).value_label || "none" : null });
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
  drawLegend(grid);
}

// The key to the map: the grid's states, marks and labels, the edges given,
// then each kind of badge, each line and each shading on show, in the
// engine's words. Rebuilt only when what it lists changes.
export function drawLegend(/** @type {MapGridInput} */ grid) {
  const spec = grid.spec;
  // The calculator's layout gives a map the whole width on a wide screen
  // (calculator.css: fm-layout-map); marked once the editor is on the page.
  if (!grid.layoutMarked && grid.element.isConnected) {
    grid.element.closest(".fm-layout")?.classList.add("fm-layout-map");
    grid.layoutMarked = true;
  }

  const map = grid.map;
  const edges = map ? spec.edges.filter((e) => e.side && map.edges.includes(e.code)) : [];
  const drawn = grid.drawn || [];
  const key = JSON.stringify([edges.map((e) => e.code), drawn]);
  if (key === grid.legendKey) return;
  grid.legendKey = key;
  /** @param {string} kind @param {Node} sample @param {string} text @param {Record<string, unknown>} [attrs] */
  const entry = (kind, sample, text, attrs = {}) => el("li", { class: "fm-map-legend-entry", dataLegend: kind, ...attrs }, el("span", { class: "fm-map-sample", ariaHidden: "true" }, sample), el("span", { class: "fm-map-legend-text", text }));
  /** @type {HTMLLIElement[]} */
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
  grid.legend.replaceChildren(...items);
}
