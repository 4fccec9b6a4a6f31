// The answer card: what a calculator's own page prints (the browser's Print, or the
// Print button beside Link to these inputs) in place of the web page: one A4 page to
// take to the table with the calculator's title, every input as set in words (the
// readings marked as readings), the headline, every outcome with its exact fraction
// and percentage (and the cumulative chances the page shows), the readings in force,
// and a QR code of the link to these inputs, so that a scan opens the live calculator.
//
// Built from the typed answer and the schema alone, with textContent; it computes
// nothing (every figure is the engine's) and holds no rule. On screen it is not shown
// (calculator.css: .fm-card); print shows it and nothing else of the page. The QR code
// is drawn here, as SVG, from the modules of npm's qrcode-generator (vendored into
// assets/generated/ by the build, scripts/build/build_pages.py), loaded once the first
// answer is shown, never from elsewhere.
//
// DOM contract (tests): section.fm-card[data-card] with [data-card-input] per input
// (its name), [data-card-outcome] per outcome, [data-card-qr] holding the link it
// encodes as data-url, and data-stale="true" while the answer is for other inputs.

import { el, MODES } from "./results.mjs";

/** @typedef {import("../../../types/answer.js").OddsAnswer} OddsAnswer */
/** @typedef {import("../../../types/calculator.js").CalculatorSchema} CalculatorSchema */
// What this module uses of qrcode-generator's factory (its dist/qrcode.d.ts declares it as a global).
/** @typedef {(typeNumber: 0, level: "L" | "M" | "Q" | "H") => {addData(data: string): void, make(): void, getModuleCount(): number, isDark(row: number, col: number): boolean}} QRCodeFactory */

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
  qrFactory ??= import(QR_MODULE.href).then((module) => /** @type {{default: QRCodeFactory}} */ (module).default);
  return qrFactory;
}

// A value of an input in words, from the schema's own labels: a choice by its label,
// a yes/no as yes or no, anything else as the text the inputs carry.
/** @param {import("../../../types/calculator.js").FieldSchema} field @param {string} value */
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

export class AnswerCard {
  /**
   * @param {CalculatorSchema} schema the calculator's entry in calculators.json
   * @param {() => string} url the link to the inputs shown (address.mjs: AddressLink.pageUrl)
   * @param {import("./answer-view.mjs").AnswerView} view the answer on the page, whose Exactly / At least / At most the card follows
   */
  constructor(schema, url, view) {
    this.schema = schema;
    this.url = url;
    this.element = el("section", { class: "fm-card", dataCard: "", ariaHidden: "true" });
    document.documentElement.classList.add("fm-card-print"); // print shows the card alone (answer-card.css)
    this.printButton = el("button", { type: "button", class: "md-button fm-print-button", text: "Print" });
    this.printButton.addEventListener("click", () => print());
    /** @type {OddsAnswer | null} */
    this.answer = null;
    this.view = view;
    // The page's switch moved: the card shows the same cumulative chances.
    view.modeSwitch.addEventListener("change", () => this.answer && this.show(this.answer));
    this.qr = el("figure", { class: "fm-card__qr", dataCardQr: "" });
    // The address may have changed since the answer (a sweep opened, option B): the QR code follows it to paper.
    addEventListener("beforeprint", () => this.drawQr());
  }

  /**
   * Show the answer the page shows (view.mjs, with each new answer), read as the page reads it.
   * @param {OddsAnswer} answer
   */
  show(answer) {
    this.answer = answer;
    const mode = this.view.mode;
    this.element.dataset.stale = "false";
    const fields = this.schema.fields;
    const inputs = el("dl", { class: "fm-card__inputs" });
    for (const field of fields) {
      const value = answer.inputs[field.name];
      if (value === undefined) continue;
      const words = el("dd", { text: inputWords(field, value) });
      if (field.reading) words.append(el("span", { class: "fm-card__reading", text: ` (our reading: ${field.reading.rule})` }));
      inputs.append(el("div", { dataCardInput: field.name }, el("dt", { text: field.label }), words));
    }
    const cumulative = MODES.find((m) => m.name === mode && m.name !== "exactly");
    const outcomes = el("div", { class: "fm-card__outcomes" });
    for (const outcome of answer.outcomes) outcomes.append(this.outcome(outcome, cumulative));
    const notes = answer.notes.length ? el("ul", { class: "fm-card__notes" }, ...answer.notes.map((n) => el("li", { text: n }))) : null;
    this.element.replaceChildren(
      el(
        "header",
        { class: "fm-card__head" },
        el(
          "div",
          {},
          el("h2", { class: "fm-card__title", text: answer.title }),
          el("p", { class: "fm-card__headline", text: answer.headline }),
          el("p", { class: "fm-card__stale", text: "These figures are for other inputs than the ones shown." }),
        ),
        this.qr,
      ),
      el("h3", { text: "Inputs" }),
      inputs,
      el("h3", { text: "Every outcome" }),
      outcomes,
      ...(notes ? [el("h3", { text: "Readings in force" }), notes] : []),
    );
    this.drawQr();
  }

  /**
   * One outcome: a certain value on one line, a distribution as a table of its values,
   * each with its exact fraction and percentage (and the cumulative chance the page shows).
   * @param {import("../../../types/answer.js").OddsOutcome} outcome
   * @param {(typeof MODES)[number] | undefined} cumulative
   */
  outcome(outcome, cumulative) {
    const box = el("div", { class: "fm-card__outcome", dataCardOutcome: outcome.name }, el("h4", { text: outcome.label }));
    if (outcome.kind === "certain") {
      box.append(el("p", { text: `${outcome.value_label} (certain)` }));
      return box;
    }
    const head = () => {
      const row = el("tr", {}, el("th", { scope: "col", text: "Value" }), el("th", { scope: "col", text: "Chance" }), el("th", { scope: "col", text: "Exact" }));
      if (cumulative) row.append(el("th", { scope: "col", text: cumulative.label }));
      return row;
    };
    const rows = outcome.values.map((v) => {
      const row = el("tr", {}, el("th", { scope: "row", text: v.label }), el("td", { text: v.percent }), el("td", { text: v.p }));
      if (cumulative) row.append(el("td", { text: v[cumulative.field] ?? "" }));
      return row;
    });
    // A long list of values (the air strike's hits, 0 to 18) in tables of ROWS side by side, so that the card keeps to one page.
    const tables = el("div", { class: "fm-card__tables" });
    const size = rows.length > LONG ? ROWS : rows.length;
    for (let start = 0; start < rows.length; start += size) tables.append(el("table", {}, el("thead", {}, head()), el("tbody", {}, ...rows.slice(start, start + size))));
    // Two tables take two columns of the card's grid, more take its width (answer-card.css).
    box.dataset.tables = String(tables.childElementCount);
    box.append(tables);
    // A number's mean and likeliest value, in the engine's words (a yes/no's table says all).
    if (outcome.type === "int") box.append(el("p", { class: "fm-card__mean", text: outcome.summary }));
    return box;
  }

  // The answer shown is for other inputs (view.mjs: markStale): the card says so.
  /** @param {boolean} stale */
  markStale(stale) {
    this.element.dataset.stale = String(stale);
  }

  // The QR code of the link to the inputs shown, drawn once its module has come.
  drawQr() {
    if (!this.answer) return;
    const url = this.url();
    if (this.qr.dataset.url === url) return;
    this.qr.dataset.url = url;
    loadQr().then(
      (factory) => {
        if (this.qr.dataset.url !== url) return; // another link came first
        this.qr.replaceChildren(qrSvg(factory, url), el("figcaption", { text: `Scan for the live calculator: ${url}` }));
      },
      () => this.qr.replaceChildren(el("figcaption", { text: url })), // no code without its module; the link in words still goes
    );
  }
}
