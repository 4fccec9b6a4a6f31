// Bar charts of a typed answer, drawn as SVG by this page's renderer.
//
// Why SVG drawn here rather than a vendored chart library: a bar chart of
// heights the engine has already worked out needs no scales, ticks or
// layout maths. Measured (npm pack, gzip -9): this module is 7.4 kB, 2.9 kB
// gzipped; uPlot 1.6.32's uPlot.iife.min.js 51 kB (22 kB gzipped) and
// Chart.js 4.5.1's chart.umd.min.js 209 kB (70 kB gzipped), both drawing on
// a <canvas>, which has no text for a screen reader, cannot be in the
// build's HTML and prints as a bitmap. An SVG here is in the build's copy of
// the page (scripts/build/render_calculators.py copies the DOM), so it shows with
// the first paint and with no script; it
// takes the theme's colours from mkdocs-material's CSS variables, light and
// dark; it prints as vectors; and its values are in a table beside it.
//
// Arithmetic-free: every bar's height is a percent of the chart's height as
// the engine gives it (rules_py.answer: "heights", a sweep's "bar"); a bar's
// place is its position in the list. Each value gets a slot one unit wide
// (the outer viewBox is as wide as there are values), and each series a
// column of its slot (the slot's own viewBox), drawn upwards from the base
// by flipping the slot's y axis: no coordinate is computed from the data.

import { el } from "./results.mjs";

/** @typedef {import("./results.mjs").Mode} Mode */
/** @typedef {import("./results.mjs").OutcomesAnswer} OutcomesAnswer */
/** @typedef {import("../../../types/answer.js").DistributionOutcome} DistributionOutcome */
/** @typedef {import("../../../types/answer.js").CompareAnswer} CompareAnswer */
/** @typedef {import("../../../types/answer.js").Difference} Difference */

const SVG = "http://www.w3.org/2000/svg";

/**
 * An SVG element with its attributes (undefined and null left out) and children.
 * @param {string} tag @param {Record<string, unknown>} [attrs] @param {...(Node | null | undefined)} children
 */
function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  for (const child of children) if (child) node.append(child);
  return node;
}

/**
 * A bar chart in a figure: the SVG (role="img", data-chart=`name`, named by
 * `title`), the values' labels under it and a table of every bar for screen readers.
 * @param {object} spec
 * @param {string} spec.name the data-chart attribute: an outcome's name, or "sweep"
 * @param {string} spec.title the chart's accessible name (the engine's summary)
 * @param {string} spec.heading the line shown above the chart
 * @param {string} spec.caption what the table's columns hold
 * @param {string[]} spec.columns the table's headings after the value's: one per series
 * @param {{label: string, value: string, mark?: string, bars: {series: string, height: string | null, text: string}[]}[]} spec.slots
 */
export function barChart({ name, title, heading, caption, columns, slots }) {
  const series = slots.length ? slots[0].bars.length : 1;
  const chart = svg("svg", { class: "fm-chart", role: "img", "aria-label": title, "data-chart": name, viewBox: `0 0 ${slots.length} 100`, preserveAspectRatio: "none", focusable: "false" });
  slots.forEach((slot, i) => {
    const column = svg("svg", { x: i, y: 0, width: 1, height: 100, viewBox: `0 0 ${series} 100`, preserveAspectRatio: "none", class: slot.mark ? "fm-chart-slot fm-chart-marked" : "fm-chart-slot" });
    const up = svg("g", { transform: "matrix(1 0 0 -1 0 100)" });
    slot.bars.forEach((bar, j) => {
      if (bar.height === null) return; // off the number scale: no bar, the label says what it is
      const rect = svg("rect", { class: `fm-chart-bar fm-chart-${bar.series}`, x: j, y: 0, width: 1, height: bar.height, "vector-effect": "non-scaling-stroke", "data-value": slot.value, "data-option": bar.series === "one" ? undefined : bar.series, "data-height": bar.height });
      rect.append(svg("title", {}, document.createTextNode(`${slot.label}: ${bar.text}`)));
      up.append(rect);
    });
    column.append(up);
    chart.append(column);
  });
  // Labels under the bars, one grid column per slot (laid out by CSS, no position computed).
  const axis = el("div", { class: slots.length > 12 ? "fm-chart-x fm-chart-crowded" : "fm-chart-x", ariaHidden: "true", style: `grid-template-columns: repeat(${slots.length}, minmax(0, 1fr))` });
  for (const slot of slots) axis.append(el("span", { class: slot.mark ? "fm-chart-label fm-chart-marked" : "fm-chart-label", text: slot.label }));
  const marked = slots.some((s) => s.mark);
  const head = el("tr", {}, el("th", { scope: "col", text: "Value" }), ...columns.map((c) => el("th", { scope: "col", text: c })), marked ? el("th", { scope: "col", text: "Marked" }) : null);
  const body = el("tbody");
  for (const slot of slots) {
    body.append(el("tr", { dataValue: slot.value }, el("th", { scope: "row", text: slot.label }), ...slot.bars.map((b) => el("td", { dataOption: b.series === "one" ? undefined : b.series, text: b.text })), marked ? el("td", { text: slot.mark ?? "" }) : null));
  }
  // Hidden in a box, not as the table itself: a table ignores the 1 px width of
  // .fm-sr and stayed as wide as its columns, widening a phone's page past 390 px.
  // (Its own class keeps Material's styling of plain tables, a scrolling box, off it.)
  const table = el("div", { class: "fm-sr fm-chart-table" }, el("table", { class: "fm-chart-values" }, el("caption", { text: caption }), el("thead", {}, head), body));
  return el("figure", { class: "fm-chart-figure", dataChartFor: name }, el("figcaption", { class: "fm-chart-title", ariaHidden: "true", text: heading }), chart, axis, table);
}

// The answer's field of a value's chance for each view of the switch.
/** @type {Record<Mode, "percent" | "at_least_percent" | "at_most_percent">} */
const TEXT = { exactly: "percent", at_least: "at_least_percent", at_most: "at_most_percent" };
const VIEW = { exactly: "exactly", at_least: "at least", at_most: "at most" };

/** The chart of one outcome of a typed answer (chart: true), in the switch's view.
 * @param {DistributionOutcome} outcome @param {Mode} mode */
export function outcomeChart(outcome, mode) {
  const slots = outcome.values
    .filter((v) => v.p !== "0")
    .map((v) => ({ label: v.label, value: v.value, bars: [{ series: "one", height: v.heights[mode], text: v[TEXT[mode]] ?? v.percent }] }));
  return barChart({ name: outcome.name, title: `${outcome.summary} (chart of the chance of each result, ${VIEW[mode]})`, heading: `${outcome.label}, ${VIEW[mode]}`, caption: `${outcome.label}: the chance of each result, ${VIEW[mode]}`, columns: ["Chance"], slots });
}

/** The charts of every outcome of a typed answer that has one.
 * @param {HTMLElement} container @param {OutcomesAnswer} answer @param {Mode} mode */
export function renderCharts(container, answer, mode) {
  container.replaceChildren(...answer.outcomes.flatMap((o) => (o.kind === "distribution" && o.chart ? [outcomeChart(o, mode)] : [])));
  container.hidden = !container.children.length;
}

/**
 * A comparison's difference with chart: true, A and B in one chart on one scale:
 * each bar's height and text the difference's own (an option certain of its
 * value has no values of its own to read them from).
 * @param {Difference} difference @param {Mode} mode
 */
export function differenceChart(difference, mode) {
  const slots = difference.values
    .filter((v) => v.a !== "0" || v.b !== "0")
    .map((v) => ({
      label: v.label,
      value: v.value,
      bars: [
        { series: "a", height: v.heights.a[mode], text: `A ${v.texts.a[mode]}` },
        { series: "b", height: v.heights.b[mode], text: `B ${v.texts.b[mode]}` },
      ],
    }));
  return barChart({ name: difference.name, title: `${difference.summary} (chart: option A and option B, ${VIEW[mode]})`, heading: `${difference.label}, ${VIEW[mode]}: A and B`, caption: `${difference.label}: option A and option B, ${VIEW[mode]}`, columns: ["Option A", "Option B"], slots });
}

/** The charts of a comparison: every difference that has one.
 * @param {HTMLElement} container @param {CompareAnswer} answer @param {Mode} mode */
export function renderDifferenceCharts(container, answer, mode) {
  container.replaceChildren(...answer.differences.filter((d) => d.chart).map((d) => differenceChart(d, mode)));
  container.hidden = !container.children.length;
}
