// "How it changes": one outcome (the headline's, or the one the player picks)
// across every value of one input the player picks, the other inputs as
// given, and what it takes (the first value reaching 50 %, 75 % and 90 %).
//
// Computed in the worker (op "answer" with "sweep" and "sweep_of": rules_py/sweep.py gives
// every value's number, text and bar height, a number's chance of at least 1, and `reaches`
// for a chance), drawn here with chart.mjs. No arithmetic and no rule: which inputs can be
// swept is the schema's (each field's `sweepable`), the outcomes are the
// schema's; the link carries the input's name as `sweep=NAME` and the outcome's as
// `sweep_of=OUTCOME`. A name the engine refuses (`?sweep=`, `?sweep=unknown`,
// `?sweep_of=unknown`, either given twice) is sent to it all the same, and its message
// shown beside the pickers, as the CLI refuses it: never ignored, never a wrong chart.

import { barChart } from "./chart.mjs";
import { el } from "./results.mjs";

/** @typedef {import("../../../types/calculator.js").CalculatorSchema} CalculatorSchema */
/** @typedef {import("../../../types/calculator.js").FieldSchema} FieldSchema */
/** @typedef {import("../../../types/calculator.js").EngineError} EngineError */
/** @typedef {import("../../../types/answer.js").SweepAnswer} SweepAnswer */

export const SWEEP = "sweep"; // the link's parameters: the input swept
export const SWEEP_OF = "sweep_of"; // and the outcome it follows

// The inputs the engine can sweep: the schema says which (rules_py/sweep.py decides).
/** @param {CalculatorSchema} schema @returns {FieldSchema[]} */
export function sweepable(schema) {
  return schema.fields.filter((f) => f.sweepable);
}

export class SweepView {
  /**
   * @param {import("./view.mjs").CalculatorView} view the calculator's CalculatorView (view.mjs): its schema, engine, id, n, address, inputs() and compareChanged()
   * @param {string | null} name the input swept from the link, or null
   * @param {string[] | null} [all] every name of a link that gave sweep= more than once, which the engine refuses
   */
  constructor(view, name, all = null) {
    this.view = view;
    this.fields = sweepable(view.schema);
    this.seq = 0;
    /** @type {string | null} the input swept: one of `fields`, or a link's name the engine refuses */
    this.name = null;
    /** @type {string[] | null} */
    this.repeated = null;
    /** @type {string | null} the outcome followed (null: the headline's) */
    this.of = null;
    /** @type {string[] | null} */
    this.ofRepeated = null;
    const id = `fm-${this.view.n}-sweep`;
    this.select = el("select", { id, class: "fm-sweep-select" }, el("option", { value: "", text: "Choose an input" }));
    for (const f of this.fields) this.select.append(el("option", { value: f.name, text: f.label }));
    this.select.addEventListener("change", () => this.choose(this.select.value || null));
    this.headlineOption = el("option", { value: "", text: "The headline" });
    this.ofSelect = el("select", { id: `${id}-of`, class: "fm-sweep-select fm-sweep-of" }, this.headlineOption);
    for (const o of view.schema.outcomes) this.ofSelect.append(el("option", { value: o.name, text: o.label }));
    this.ofSelect.addEventListener("change", () => this.chooseOutcome(this.ofSelect.value || null));
    this.status = el("p", { class: "fm-sweep-status", role: "status" });
    this.out = el("div", { class: "fm-sweep-out" });
    this.details = el(
      "details",
      { class: "fm-details fm-sweep-details" },
      el("summary", { text: "How it changes: the odds across one input's values" }),
      el("p", { class: "fm-sweep-pick" }, el("label", { htmlFor: id, text: "Input to change " }), this.select),
      el("p", { class: "fm-sweep-pick" }, el("label", { htmlFor: `${id}-of`, text: "Outcome to follow " }), this.ofSelect),
      this.status,
      this.out,
    );
    this.element = this.details;
    this.follow(name, all);
  }

  // The link's parameters: the input swept and the outcome followed, each if any.
  params() {
    return [...(this.name !== null ? [[SWEEP, this.name]] : []), ...(this.of !== null ? [[SWEEP_OF, this.of]] : [])];
  }

  /** @param {string | null} name */
  choose(name) {
    this.name = name;
    this.repeated = null;
    this.view.compareChanged(); // the link and the address carry it
    this.refresh();
  }

  /** @param {string | null} name */
  chooseOutcome(name) {
    this.of = name;
    this.ofRepeated = null;
    this.view.compareChanged();
    this.refresh();
  }

  // The address's sweep and outcome (a link, Back or Forward): `name` and the
  // view's address's sweep_of; `all`, every name if it gave sweep= more than once.
  /** @param {string | null} name @param {string[] | null} [all] */
  follow(name, all = null) {
    const address = this.view.address;
    this.name = all ? null : name;
    this.repeated = all;
    this.ofRepeated = address?.twice[SWEEP_OF] ?? null;
    this.of = this.ofRepeated ? null : (address?.sweepOf ?? null);
    this.select.value = this.fields.some((f) => f.name === this.name) ? /** @type {string} */ (this.name) : "";
    this.ofSelect.value = this.view.schema.outcomes.some((o) => o.name === this.of) ? /** @type {string} */ (this.of) : "";
    const asked = this.name !== null || this.repeated !== null || this.of !== null || this.ofRepeated !== null;
    this.details.hidden = !this.fields.length && !asked;
    if (asked) this.details.open = true;
  }

  // The inputs changed and have an answer: sweep again with them.
  async refresh() {
    const seq = ++this.seq;
    // An outcome alone waits for an input to sweep; one the calculator has not (or given
    // twice) goes to the engine, whose message says so.
    const badOutcome = this.ofRepeated !== null || (this.of !== null && !this.view.schema.outcomes.some((o) => o.name === this.of));
    if (this.name === null && !this.repeated && !badOutcome) {
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
    const of = this.ofRepeated ?? this.of;
    /** @type {SweepAnswer | EngineError} */
    let answer;
    try {
      ({ answer } = await this.view.engine.call("sweep", { id: this.view.id, inputs, sweep: this.repeated ?? this.name, ...(of !== null ? { sweep_of: of } : {}) }, { key: `sweep ${this.view.n}` }));
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
    this.render(answer, of === null);
    this.details.dataset.sweepStatus = "ready";
  }

  /** @param {SweepAnswer} answer @param {boolean} headline whether it is the headline's outcome (no sweep_of asked) */
  render(answer, headline) {
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
    // A number's chance of at least 1 (the engine's at_least_one) is a column of its own.
    const some = answer.at_least_one;
    const head = el("tr", {}, el("th", { scope: "col", text: answer.sweep_label }), el("th", { scope: "col", text: column }), some ? el("th", { scope: "col", text: some }) : null, el("th", { scope: "col", text: "What it takes" }));
    const body = el("tbody");
    for (const v of answer.values) {
      const chance = some ? el("td", { class: "fm-pct fm-sweep-some", dataSweepNumber: v.at_least_one?.number, text: v.at_least_one?.text ?? "" }) : null;
      body.append(el("tr", { dataValue: v.value, class: marks.has(v.value) ? "fm-sweep-marked" : undefined }, el("th", { scope: "row", text: v.label }), el("td", { class: "fm-pct", dataSweepNumber: v.number, text: v.error ?? v.text }), chance, el("td", { text: marks.get(v.value) ?? "" })));
    }
    const table = el("div", { class: "fm-table-scroll", tabIndex: 0, role: "region", ariaLabel: `${answer.outcome.label} by ${answer.sweep_label}` }, el("table", { class: "fm-odds fm-sweep-table" }, el("thead", {}, head), body));
    this.out.replaceChildren(el("p", { class: "fm-sweep-title", text: `For each value of ${answer.sweep_label}, the other inputs as above; what it takes is marked.` }), chart, reaches, table);
    this.out.dataset.sweep = answer.sweep;
    this.out.dataset.sweepOf = answer.outcome.name;
    // The headline's outcome, named once the engine has said which it is.
    if (headline) this.headlineOption.textContent = `The headline: ${answer.outcome.label}`;
  }
}
