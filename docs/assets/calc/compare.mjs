// Option B beside option A: a calculator's second set of inputs, both answers
// side by side (stacked on a phone) and the differences between them.
//
// Generic and arithmetic-free like results.mjs: the engine's "compare" op
// (rules_py.answer.compare_answer) gives both typed answers and every
// difference as text; this module keeps option B's changes from option A
// (the `vs.` parameters of a link) and builds the DOM with textContent.

import { VS } from "./address.mjs";
import { renderDifferenceCharts } from "./chart.mjs";
import { FieldForm } from "./form.mjs";
import { el, renderDetails, renderSummary } from "./results.mjs";

const DEBOUNCE_MS = 150;

/** @typedef {import("./view.mjs").CalculatorView} View @typedef {import("../../../types/calculator.js").EngineError} EngineError */

// One line of the difference between the options, as the page's table and the printed
// card (compare-card.mjs) give it: what it compares (a yes/no's chance, a number's mean, or
// else the likeliest value) and A, B and B − A in the engine's words (B − A exact as well);
// a likeliest value has the engine's sentence instead (said).
/** @param {import("../../../types/answer.js").Difference} d */
export function differenceCells(d) {
  const what = d.chance ? "chance of yes" : d.mean ? "mean" : "most likely";
  const said = d.summary.slice(d.label.length + 2);
  if (d.chance) return { what, said, cells: [d.chance.a_percent, d.chance.b_percent, d.chance.difference], exact: d.chance.b_minus_a };
  if (d.mean) return { what, said, cells: [d.mean.a_text, d.mean.b_text, d.mean.difference], exact: d.mean.b_minus_a };
  return { what, said, cells: null, exact: null };
}

export class CompareView {
  // `view` is the CalculatorView of option A; `vs` option B's changes from it ({name: raw text});
  // `repeated` those a link gave more than once ({name: every text}), which the engine refuses.
  /** @param {View} view @param {Record<string, string>} vs @param {Record<string, string[]>} [repeated] */
  constructor(view, vs, repeated = {}) {
    this.view = view;
    this.vs = { ...vs };
    this.repeated = { ...repeated };
    this.open = Object.keys(vs).length > 0;
    this.seq = 0;
    /** @type {import("../../../types/answer.js").CompareAnswer | null} the last comparison shown */
    this.answer = null;
    this.problem = ""; // why option B has no answer, while it has none
    // Its parts, built here in the constructor: TypeScript then knows each is there.
    const n = this.view.n;
    this.toggle = el("button", { type: "button", class: "md-button fm-compare-button", ariaExpanded: String(this.open) });
    this.toggle.addEventListener("click", () => this.setOpen(!this.open));
    // Option B's fields: the same form as option A's (form.mjs), − / + included, its names prefixed vs.
    this.fieldForm = new FieldForm({
      fields: this.view.schema.fields,
      idPrefix: `fm-${n}-vs`,
      prefix: VS,
      mark: "vsInput",
      label: `${this.view.schema.title}: option B`,
      className: "fm-compare-form",
      value: (/** @type {string} */ name) => this.value(name),
      onChange: (/** @type {string} */ name, /** @type {string} */ value, /** @type {boolean} */ typing) => this.changed(name, value, typing),
    });
    this.form = this.fieldForm.element;
    this.widgets = this.fieldForm.widgets;
    this.errors = el("div", { class: "fm-errors", role: "alert", hidden: true });
    this.options = /** @type {Record<"a" | "b", {box: HTMLDivElement, list: HTMLUListElement, results: HTMLDivElement, heading: HTMLParagraphElement}>} */ ({});
    for (const [option, title] of /** @type {const} */ ([
      ["a", "Option A: the inputs above"],
      ["b", "Option B"],
    ])) {
      const list = el("ul", { class: "fm-summary-list" });
      const results = el("div", { class: "fm-results" });
      const heading = el("p", { class: "fm-summary-title", text: title });
      const box = el("div", { class: "fm-compare-option", dataOption: option }, heading, list, el("details", { class: "fm-details" }, el("summary", { text: "All results" }), results));
      this.options[option] = { box, list, results, heading };
    }
    this.diffs = el("div", { class: "fm-compare-diffs" });
    this.scrollHint = el("p", { class: "fm-scroll-hint", hidden: true, text: "The table scrolls sideways: B \u2212 A is on its right." });
    // In the next frame, as the map's hint is (map-grid.mjs says why).
    this.fits = new ResizeObserver((entries) => requestAnimationFrame(() => entries.forEach((e) => this.showFit(e.target))));
    this.charts = el("div", { class: "fm-charts fm-compare-charts", hidden: true }); // A and B in one chart each (chart.mjs)
    this.live = el("p", { class: "fm-sr fm-live", ariaLive: "polite" });
    this.panel = el(
      "section",
      { class: "fm-compare", ariaLabel: "Compare two options" },
      el("h3", { class: "fm-compare-title", text: "Option B: change any input to compare" }),
      this.form,
      this.errors,
      el("div", { class: "fm-compare-options" }, this.options.a.box, this.options.b.box),
      this.diffs,
      this.charts,
      this.live,
    );
    this.element = el("div", { class: "fm-compare-box" }, this.toggle, this.panel);
    this.showOpen();
  }

  // Option B's value of a field: its change, or option A's value.
  /** @param {string} name */
  value(name) {
    return name in this.vs ? this.vs[name] : this.view.raw[name];
  }

  showWidgets() {
    for (const field of this.view.schema.fields) {
      // Never rewrite what the player is typing.
      if (this.widgets[field.name] !== document.activeElement) this.fieldForm.show(field.name, this.value(field.name));
      this.markChanged(field.name);
    }
  }

  /** @param {string} name */
  markChanged(name) {
    /** @type {Element} every widget is in its field */ (this.widgets[name].closest(".fm-field")).classList.toggle("fm-changed", name in this.vs);
  }

  showOpen() {
    this.toggle.textContent = this.open ? "Stop comparing" : "Compare with another option";
    this.toggle.setAttribute("aria-expanded", String(this.open));
    this.panel.hidden = !this.open;
    this.view.root.classList.toggle("fm-comparing", this.open);
  }

  /** @param {boolean} open */
  setOpen(open) {
    this.open = open;
    if (!open) this.vs = {};
    if (!open) this.repeated = {};
    this.answer = null;
    this.problem = "";
    this.view.card?.showCompare(null); // the printed card is the answer's again, until option B's comes
    this.showOpen();
    this.showWidgets();
    this.view.compareChanged();
    if (open) this.schedule(0);
  }

  // ------------------------------------------------------------ state

  /** @param {string} name @param {string} value @param {boolean} [typing] */
  changed(name, value, typing = false) {
    delete this.repeated[name]; // the player chose one value
    if (value === this.view.raw[name]) delete this.vs[name];
    else this.vs[name] = value;
    if (!typing) this.showWidgets();
    else this.markChanged(name);
    this.view.compareChanged();
    this.schedule(DEBOUNCE_MS);
  }

  // The address changed (Back or Forward): option B's changes are the address's.
  /** @param {Record<string, string>} vs @param {Record<string, string[]>} [repeated] */
  follow(vs, repeated = {}) {
    this.vs = { ...vs };
    this.repeated = { ...repeated };
    this.open = Object.keys(vs).length > 0;
    this.answer = null;
    this.problem = "";
    this.view.card?.showCompare(null); // the comparison printed was another's
    this.showOpen();
    this.showWidgets();
  }

  // The link's parameters for option B (empty when not comparing).
  params() {
    return this.open ? Object.entries(this.vs).map(([k, v]) => [VS + k, v]) : [];
  }

  /** @param {number} delay ms */
  schedule(delay) {
    if (!this.open) return;
    this.seq++;
    this.view.root.dataset.compareStatus = "loading";
    this.view.card?.compareStale(); // the comparison printed is for other inputs until this one's answer
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.compute(), delay);
  }

  async compute() {
    if (!this.open || !this.view.root.isConnected) return;
    const seq = ++this.seq;
    /** @type {import("../../../types/answer.js").CompareAnswer | EngineError} */
    let answer;
    try {
      ({ answer } = await this.view.engine.call("compare", { id: this.view.id, inputs: this.view.inputs(), vs: { ...this.vs, ...this.repeated } }, { key: `compare ${this.view.n}` }));
    } catch (error) {
      const failure = /** @type {Error & {kind?: string}} what call() rejects with */ (error);
      if (seq === this.seq && failure.kind !== "superseded") this.failed({ error: failure.message, fields: [] });
      return;
    }
    if (seq !== this.seq || !this.open) return;
    if ("error" in answer) return this.failed(answer);
    this.showErrors({});
    this.problem = "";
    delete this.panel.dataset.stale;
    this.render(answer);
    this.view.root.dataset.compareStatus = "ready";
  }

  // No comparison for these inputs: the engine's messages beside option B's
  // fields, and in the headline's place (option A's own field errors are
  // option A's to show); the last comparison's numbers are withdrawn.
  /** @param {EngineError} answer */
  failed(answer) {
    const mine = this.showErrors(answer);
    this.panel.dataset.stale = "error";
    this.view.root.dataset.compareStatus = "error";
    this.problem = mine.length ? `Option B has no answer: ${mine.join(" ")}` : "";
    this.view.showHeadline();
  }

  // The messages for option B beside its fields, the rest above its results; returns
  // option B's messages, each after its field's label.
  /** @param {EngineError | {error?: undefined, fields?: undefined}} answer ({} for none) @returns {string[]} */
  showErrors(answer) {
    /** @type {string[]} */
    const general = [];
    /** @type {Record<string, string[]>} */
    const byField = {};
    /** @type {string[]} */
    const mine = [];
    for (const { field, message } of answer.error ? answer.fields : []) {
      const name = field && field.startsWith(VS) ? field.slice(VS.length) : null;
      if (name && this.widgets[name]) {
        (byField[name] ??= []).push(message);
        mine.push(`${/** @type {import("../../../types/calculator.js").FieldSchema} a widget's */ (this.view.schema.fields.find((f) => f.name === name)).label}: ${message}`);
      } else if (!field) general.push(message); // option A's own field errors show beside option A's fields
    }
    if (answer.error && !answer.fields.length) general.push(answer.error);
    this.fieldForm.showErrors(byField);
    this.errors.replaceChildren(...general.map((m) => el("p", { text: m })));
    this.errors.hidden = !general.length;
    return [...mine, ...general];
  }

  // The pinned headline while comparing: A → B once the comparison is in;
  // before, option A's with what option B is waiting for; option B's message
  // when it has no answer. False when it is not this view's to write.
  /** @param {import("./answer-view.mjs").AnswerView} answerView */
  showHeadline(answerView) {
    if (!this.open) return false;
    if (this.problem) answerView.showProblem(this.problem, false); // option A's numbers stand
    else if (this.answer) answerView.showHeadline(this.answer);
    else if (answerView.answer) {
      answerView.showHeadline(answerView.answer);
      const state = this.view.engine.state;
      const waiting = state === "failed" ? "no answer, the calculator engine having failed" : state === "ready" || state === "restarting" ? "being worked out" : "waiting for the calculator engine";
      answerView.headline.append(el("span", { class: "fm-headline-pending", text: ` \u00b7 Option B: ${waiting}\u2026` }));
    } else return false;
    return true;
  }

  // ------------------------------------------------------------ results

  // The switch changed: the charts in its view.
  redraw() {
    if (this.open && this.answer) renderDifferenceCharts(this.charts, this.answer, this.view.answerView.mode);
  }

  /** @param {import("../../../types/answer.js").CompareAnswer} answer */
  render(answer) {
    this.answer = answer;
    this.view.showHeadline(); // the pinned line reads A → B
    this.view.card?.showCompare(answer); // and the printed card is the comparison's
    this.redraw();
    for (const option of /** @type {const} */ (["a", "b"])) {
      const { list, results } = this.options[option];
      renderSummary(list, answer[option], "exactly");
      renderDetails(results, answer[option]);
    }
    const changes = Object.entries(answer.vs).map(([k, v]) => {
      const field = this.view.schema.fields.find((f) => f.name === k);
      const shown = field?.type === "choice" ? (/** @type {import("../../../types/calculator.js").Choice[]} a choice's */ (field.choices).find((c) => c.name === v)?.label ?? v) : v;
      return `${field?.label ?? k}: ${shown}`;
    });
    this.options.b.heading.textContent = changes.length ? `Option B: ${changes.join(", ")}` : "Option B: no change yet";
    const body = el("tbody");
    for (const d of answer.differences) {
      const { what, cells, said, exact } = differenceCells(d);
      const row = el("tr", { dataOutcome: d.name }, el("th", { scope: "row", text: `${d.label} (${what})` }));
      if (cells) {
        row.append(el("td", { dataOption: "a", text: cells[0] }), el("td", { dataOption: "b", text: cells[1] }), el("td", { class: "fm-diff", dataDiff: exact, text: cells[2] }));
      } else {
        row.append(el("td", { colSpan: 3, text: said }));
      }
      body.append(row);
    }
    const head = el("tr", {}, el("th", { scope: "col", text: "Outcome" }), el("th", { scope: "col", text: "A" }), el("th", { scope: "col", text: "B" }), el("th", { scope: "col", text: "B \u2212 A" }));
    const scroll = el("div", { class: "fm-table-scroll", tabIndex: 0, role: "region", ariaLabel: "The difference between the options" }, el("table", { class: "fm-odds fm-compare-table" }, el("thead", {}, head), body));
    this.diffs.replaceChildren(el("p", { class: "fm-summary-title", text: "The difference" }), scroll, this.scrollHint);
    this.fits.disconnect();
    this.fits.observe(scroll);
    this.live.textContent = answer.summary;
  }

  // The difference table wider than its room (a long label on a phone) says it scrolls.
  /** @param {Element} scroll */
  showFit(scroll) {
    this.scrollHint.hidden = scroll.scrollWidth <= scroll.clientWidth + 1;
  }
}
