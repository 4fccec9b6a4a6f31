// "How it changes": the calculator's headline outcome across every value of
// one input the player picks, the other inputs as given, and what it takes
// (the first value reaching 50 %, 75 % and 90 %).
//
// Computed in the worker (op "answer" with "sweep": rules_py/sweep.py gives
// every value's number, text and bar height, and `reaches` for a chance), drawn here with
// chart.mjs. No arithmetic and no rule: which inputs can be swept is the
// schema's (an int with both bounds, a choice, a yes/no); the link carries
// the input's name as `sweep=NAME`.

import { barChart } from "./chart.mjs";
import { el } from "./results.mjs";

/** @typedef {import("../../../types/calculator.js").CalculatorSchema} CalculatorSchema */
/** @typedef {import("../../../types/calculator.js").FieldSchema} FieldSchema */
/** @typedef {import("../../../types/calculator.js").EngineError} EngineError */
/** @typedef {import("../../../types/answer.js").SweepAnswer} SweepAnswer */

export const SWEEP = "sweep"; // the link's parameter

// The inputs the engine can sweep, by the schema's types and bounds.
/** @param {CalculatorSchema} schema @returns {FieldSchema[]} */
export function sweepable(schema) {
  return schema.fields.filter((f) => f.type === "bool" || f.type === "choice" || (f.type === "int" && f.min !== undefined && f.min !== null && f.max !== undefined && f.max !== null));
}

export class SweepView {
  /**
   * @param {import("./view.mjs").CalculatorView} view the calculator's CalculatorView (view.mjs): its schema, engine, id, n, inputs() and compareChanged()
   * @param {string | null} name the input swept from the link, or null
   * @param {string[] | null} [all] every name of a link that gave sweep= more than once, which the engine refuses
   */
  constructor(view, name, all = null) {
    this.view = view;
    this.fields = sweepable(view.schema);
    this.name = !all && this.fields.some((f) => f.name === name) ? name : null;
    this.repeated = all;
    this.seq = 0;
    const id = `fm-${this.view.n}-sweep`;
    this.select = el("select", { id, class: "fm-sweep-select" }, el("option", { value: "", text: "Choose an input" }));
    for (const f of this.fields) this.select.append(el("option", { value: f.name, text: f.label }));
    this.select.value = this.name ?? "";
    this.select.addEventListener("change", () => this.choose(this.select.value || null));
    this.status = el("p", { class: "fm-sweep-status", role: "status" });
    this.out = el("div", { class: "fm-sweep-out" });
    this.details = el(
      "details",
      { class: "fm-details fm-sweep-details", hidden: !this.fields.length, open: this.name !== null || this.repeated !== null },
      el("summary", { text: "How it changes: the odds across one input's values" }),
      el("p", { class: "fm-sweep-pick" }, el("label", { htmlFor: id, text: "Input to change " }), this.select),
      this.status,
      this.out,
    );
    this.element = this.details;
  }

  // The link's parameters: the input swept, if any.
  params() {
    return this.name ? [[SWEEP, this.name]] : [];
  }

  /** @param {string | null} name */
  choose(name) {
    this.name = name;
    this.repeated = null;
    this.view.compareChanged(); // the link and the address carry it
    this.refresh();
  }

  // The address's sweep (a link, Back or Forward); `all`, every name if it gave sweep= more than once.
  /** @param {string | null} name @param {string[] | null} [all] */
  follow(name, all = null) {
    this.name = !all && this.fields.some((f) => f.name === name) ? name : null;
    this.repeated = all;
    this.select.value = this.name ?? "";
    if (this.name || all) this.details.open = true;
  }

  // The inputs changed and have an answer: sweep again with them.
  async refresh() {
    const seq = ++this.seq;
    if (!this.name && !this.repeated) {
      this.out.replaceChildren();
      this.status.textContent = "";
      delete this.details.dataset.sweepStatus;
      return;
    }
    const inputs = { ...this.view.inputs() };
    if (this.name) delete inputs[this.name]; // the swept input takes every value: the engine refuses it given too
    this.details.dataset.sweepStatus = "loading";
    this.status.textContent = "Working out every value\u2026";
    this.out.dataset.stale = "true";
    /** @type {SweepAnswer | EngineError} */
    let answer;
    try {
      ({ answer } = await this.view.engine.call({ op: "answer", id: this.view.id, inputs, sweep: this.repeated ?? this.name }, { key: `sweep ${this.view.n}` }));
    } catch (caught) {
      const error = /** @type {Error & {kind?: string}} */ (caught); // engine.mjs rejects with an Error and its kind
      if (seq !== this.seq || error.kind === "superseded") return;
      this.status.textContent = error.message;
      this.details.dataset.sweepStatus = "error";
      return;
    }
    if (seq !== this.seq) return;
    delete this.out.dataset.stale;
    if ("error" in answer) {
      this.status.textContent = answer.error;
      this.out.replaceChildren();
      this.details.dataset.sweepStatus = "error";
      return;
    }
    this.status.textContent = "";
    this.render(answer);
    this.details.dataset.sweepStatus = "ready";
  }

  /** @param {SweepAnswer} answer */
  render(answer) {
    const reached = answer.reaches ?? []; // null for an average or a likeliest value: they reach no chance
    /** @type {Map<string, string>} */
    const marks = new Map();
    for (const r of reached) if (r.value !== null && !marks.has(r.value)) marks.set(r.value, `first to reach ${r.target_percent}`);
    for (const r of reached) if (r.value !== null && marks.get(r.value) !== `first to reach ${r.target_percent}`) marks.set(r.value, `${marks.get(r.value)} and ${r.target_percent}`);
    const measure = { chance: "chance", mean: "mean", likeliest: "most likely" }[answer.measure] ?? answer.measure;
    const column = { chance: "Chance", mean: "Mean", likeliest: "Most likely" }[answer.measure] ?? answer.measure;
    const slots = answer.values.map((v) => ({ label: v.label, value: v.value, mark: marks.get(v.value), bars: [{ series: "one", height: v.bar, text: v.error ?? v.text ?? "" }] }));
    const chart = barChart({ name: "sweep", title: answer.summary, heading: `${answer.outcome.label} (${measure}) by ${answer.sweep_label}`, caption: `${answer.outcome.label} (${measure}) by ${answer.sweep_label}`, columns: [`${answer.outcome.label}: ${measure}`], slots });
    const reaches = el("ul", { class: "fm-sweep-reaches", hidden: !reached.length });
    for (const r of reached) reaches.append(el("li", { dataTarget: r.target, dataValue: r.value ?? undefined, text: r.text }));
    const head = el("tr", {}, el("th", { scope: "col", text: answer.sweep_label }), el("th", { scope: "col", text: column }), el("th", { scope: "col", text: "What it takes" }));
    const body = el("tbody");
    for (const v of answer.values) {
      body.append(el("tr", { dataValue: v.value, class: marks.has(v.value) ? "fm-sweep-marked" : undefined }, el("th", { scope: "row", text: v.label }), el("td", { class: "fm-pct", dataSweepNumber: v.number, text: v.error ?? v.text }), el("td", { text: marks.get(v.value) ?? "" })));
    }
    const table = el("div", { class: "fm-table-scroll", tabIndex: 0, role: "region", ariaLabel: `${answer.outcome.label} by ${answer.sweep_label}` }, el("table", { class: "fm-odds fm-sweep-table" }, el("thead", {}, head), body));
    this.out.replaceChildren(el("p", { class: "fm-sweep-title", text: `For each value of ${answer.sweep_label}, the other inputs as above; what it takes is marked.` }), chart, reaches, table);
    this.out.dataset.sweep = answer.sweep;
  }
}
