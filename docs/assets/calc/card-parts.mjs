// What every printed card is made of (answer-card.mjs: a calculator's answer, a
// comparison, a roll; mission-card.mjs: a mission kept in play): its head with the
// title, the headline and the QR code of the link back to the live page, the inputs
// in words (the readings marked as readings), an outcome's table of values with
// their exact fractions. Built from the typed answers and the schema alone, with
// textContent: it computes nothing and holds no rule.
//
// The QR code is drawn here, as SVG, from the modules of npm's qrcode-generator
// (vendored into assets/generated/ by the build, scripts/build/build_pages.py),
// loaded the first time a card draws one, never from elsewhere.

import { el } from "./results.mjs";

/** @typedef {import("../../../types/calculator.js").FieldSchema} FieldSchema */
// What this module uses of qrcode-generator's factory (its dist/qrcode.d.ts declares it as a global).
/** @typedef {(typeNumber: 0, level: "L" | "M" | "Q" | "H") => {addData(data: string): void, make(): void, getModuleCount(): number, isDark(row: number, col: number): boolean}} QRCodeFactory */
/** A cumulative view of a chance, as the page's switch names it (results.mjs, MODES). @typedef {{label: string, field: "percent" | "at_least_percent" | "at_most_percent"}} Cumulative */

const SVG = "http://www.w3.org/2000/svg";
// Where the build puts the vendored QR code module, beside calculators.json.
const QR_MODULE = new URL("../generated/qrcode.mjs", import.meta.url);
// Medium error correction: a card folded or smudged at the table still scans.
const QR_LEVEL = "M";
// An outcome of more than LONG values is listed in tables of ROWS values side by side.
const LONG = 10;
const ROWS = 7;

/** @type {Promise<QRCodeFactory> | null} */
let qrFactory = null;
function loadQr() {
  qrFactory ??= import(QR_MODULE.href).then((module) => (loadedQr = /** @type {{default: QRCodeFactory}} */ (module).default));
  return qrFactory;
}
/** @type {QRCodeFactory | null} the factory once its module has come: a code is then drawn at once (in beforeprint, before the page is printed) */
let loadedQr = null;

// A value of an input in words, from the schema's own labels: a choice by its label,
// a yes/no as yes or no, anything else as the text the inputs carry.
/** @param {FieldSchema} field @param {string} value */
export function inputWords(field, value) {
  if (field.type === "choice") return field.choices?.find((c) => c.name === value)?.label ?? value;
  if (field.type === "bool") return value === "true" ? "yes" : "no";
  return value;
}

// A QR code of `text` as SVG: one square per dark module, drawn on a white ground with
// the four-module quiet zone a reader needs.
/** @param {QRCodeFactory} factory @param {string} text */
export function qrSvg(factory, text) {
  const code = factory(0, QR_LEVEL);
  code.addData(text);
  code.make();
  const count = code.getModuleCount();
  const size = count + 8;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("shape-rendering", "crispEdges");
  const ground = document.createElementNS(SVG, "rect");
  ground.setAttribute("width", String(size));
  ground.setAttribute("height", String(size));
  ground.setAttribute("fill", "#fff");
  const path = document.createElementNS(SVG, "path");
  // One path of unit squares, row by row: far fewer nodes than a rect per module.
  const parts = [];
  for (let row = 0; row < count; row += 1) {
    for (let col = 0; col < count; col += 1) if (code.isDark(row, col)) parts.push(`M${col + 4} ${row + 4}h1v1h-1z`);
  }
  path.setAttribute("d", parts.join(""));
  path.setAttribute("fill", "#000");
  svg.append(ground, path);
  return svg;
}

// Under a code: what a scan opens in words, which wrap between words, then the link, which
// wraps anywhere (it has no spaces: "Scan for the live compariso-n" broke with it).
/** @param {string} caption @param {string} url */
const qrCaption = (caption, url) => el("figcaption", {}, `${caption}: `, el("span", { class: "fm-card__url", text: url }));

// A card's QR code: the link it encodes (data-url, the tests' contract) and the link in
// words beneath it, drawn once its module has come.
export class CardQr {
  constructor() {
    this.element = el("figure", { class: "fm-card__qr", dataCardQr: "" });
    /** @type {Promise<void> | null} the code of the last link asked for, drawn */
    this.drawn = null;
  }

  /** @param {string} url @param {string} caption what a scan opens, before the link @returns {Promise<void>} once drawn */
  draw(url, caption) {
    if (this.element.dataset.url === url && this.element.dataset.caption === caption) return this.drawn ?? Promise.resolve();
    Object.assign(this.element.dataset, { url, caption });
    if (loadedQr) {
      this.element.replaceChildren(qrSvg(loadedQr, url), qrCaption(caption, url));
      return (this.drawn = Promise.resolve());
    }
    this.drawn = loadQr().then(
      (factory) => {
        if (this.element.dataset.url !== url) return; // another link came first
        this.element.replaceChildren(qrSvg(factory, url), qrCaption(caption, url));
      },
      () => this.element.replaceChildren(el("figcaption", {}, el("span", { class: "fm-card__url", text: url }))), // no code without its module; the link in words still goes
    );
    return this.drawn;
  }
}

/**
 * A card's head: its title, lines under it (the headline first), the note a stale card
 * shows, and the QR code on the right.
 * @param {string} title @param {(HTMLElement | null)[]} lines @param {CardQr} qr
 */
export function cardHead(title, lines, qr) {
  return el(
    "header",
    { class: "fm-card__head" },
    el(
      "div",
      {},
      el("h2", { class: "fm-card__title", text: title }),
      ...lines,
      el("p", { class: "fm-card__stale", text: "These figures are for other inputs than the ones shown." }),
    ),
    qr.element,
  );
}

// A card's headline line.
/** @param {string} text */
export const headline = (text) => el("p", { class: "fm-card__headline", text });

/**
 * The inputs in words, each its label and value, a reading marked with the rule it reads
 * (`skip`: the names left out, shown elsewhere on the card).
 * @param {FieldSchema[]} fields @param {Record<string, string>} inputs @param {Set<string>} [skip]
 */
export function inputList(fields, inputs, skip = new Set()) {
  const list = el("dl", { class: "fm-card__inputs" });
  for (const field of fields) {
    const value = inputs[field.name];
    if (value === undefined || skip.has(field.name)) continue;
    const words = el("dd", { text: inputWords(field, value) });
    if (field.reading) words.append(el("span", { class: "fm-card__reading", text: ` (our reading: ${field.reading.rule})` }));
    list.append(el("div", { dataCardInput: field.name }, el("dt", { text: field.label }), words));
  }
  return list;
}

/**
 * Rows of a table, in tables of ROWS side by side when there are more than LONG (the air
 * strike's hits, 0 to 18), so that the card keeps to one page; `box` says how many tables
 * (answer-card.css: two take two columns of the card's grid, more its width). `halves`: in
 * two tables, for a table too wide to stand three abreast (a comparison's).
 * @param {HTMLElement} box @param {() => HTMLTableRowElement} head @param {HTMLTableRowElement[]} rows @param {boolean} [halves]
 */
export function tablesOf(box, head, rows, halves = false) {
  const tables = el("div", { class: "fm-card__tables" });
  const size = rows.length <= LONG ? rows.length : halves ? Math.ceil(rows.length / 2) : ROWS;
  for (let start = 0; start < rows.length; start += size) tables.append(el("table", {}, el("thead", {}, head()), el("tbody", {}, ...rows.slice(start, start + size))));
  box.dataset.tables = String(tables.childElementCount);
  box.append(tables);
}

/** A table's row: its first cell a heading. @param {string} first @param {string[]} cells */
export function row(first, cells) {
  return el("tr", {}, el("th", { scope: "row", text: first }), ...cells.map((text) => el("td", { text })));
}

/** A table's head row. @param {string[]} names */
export function headRow(names) {
  return el("tr", {}, ...names.map((text) => el("th", { scope: "col", text })));
}

/**
 * One outcome of an answer's odds: a certain value on one line, a distribution as a table
 * of its values, each with its exact fraction and percentage (and the cumulative chance
 * the page shows), a number's mean and likeliest value under it in the engine's words.
 * @param {import("../../../types/answer.js").OddsOutcome} outcome
 * @param {Cumulative | undefined} [cumulative]
 */
export function outcomeBox(outcome, cumulative) {
  const box = el("div", { class: "fm-card__outcome", dataCardOutcome: outcome.name }, el("h4", { text: outcome.label }));
  if (outcome.kind === "certain") {
    box.append(el("p", { text: `${outcome.value_label} (certain)` }));
    return box;
  }
  const names = ["Value", "Chance", "Exact", ...(cumulative ? [cumulative.label] : [])];
  const rows = outcome.values.map((v) => row(v.label, [v.percent, v.p, ...(cumulative ? [v[cumulative.field] ?? ""] : [])]));
  tablesOf(box, () => headRow(names), rows);
  // A number's mean and likeliest value, in the engine's words (a yes/no's table says all).
  if (outcome.type === "int") box.append(el("p", { class: "fm-card__mean", text: outcome.summary }));
  return box;
}

/** A card's section: its heading and what it holds. @param {string} title @param {...(HTMLElement | null)} parts */
export function section(title, ...parts) {
  return [el("h3", { text: title }), ...parts.filter((p) => p !== null)];
}

/** The command that repeats the answer, which anyone can run to check it. @param {string} command */
export function checkIt(command) {
  return el("p", { class: "fm-card__check" }, "Anyone can check it with the rules engine: ", el("code", { text: command }));
}
