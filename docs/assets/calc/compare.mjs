// Option B beside option A: a calculator's second set of inputs, both answers
// side by side (stacked on a phone) and the differences between them.
//
// Generic and arithmetic-free like results.mjs: the engine's "compare" op
// (rules_py.answer.compare_answer) gives both typed answers and every
// difference as text; this module keeps option B's changes from option A
// (the `vs.` parameters of a link) and builds the DOM with textContent.

import { renderDifferenceCharts } from "./chart.mjs";
import { el, renderDetails, renderHeadline, renderSummary } from "./results.mjs";

const DEBOUNCE_MS = 150;
export const VS = "vs."; // the prefix of option B's parameters in a link

export class CompareView {
  // `view` is the CalculatorView of option A; `vs` option B's changes from it ({name: raw text}).
  constructor(view, vs) {
    this.view = view;
    this.vs = { ...vs };
    this.open = Object.keys(vs).length > 0;
    this.seq = 0;
    this.widgets = {};
    this.build();
  }

  // ------------------------------------------------------------ building

  build() {
    const n = this.view.n;
    this.toggle = el("button", { type: "button", class: "md-button fm-compare-button", ariaExpanded: String(this.open) });
    this.toggle.addEventListener("click", () => this.setOpen(!this.open));
    this.form = el("form", { class: "fm-form fm-compare-form", noValidate: true, ariaLabel: `${this.view.schema.title}: option B` });
    this.form.addEventListener("submit", (event) => event.preventDefault());
    for (const field of this.view.schema.fields) this.form.append(this.fieldBlock(field, n));
    this.errors = el("div", { class: "fm-errors", role: "alert", hidden: true });
    this.options = {};
    for (const [option, title] of [
      ["a", "Option A: the inputs above"],
      ["b", "Option B"],
    ]) {
      const list = el("ul", { class: "fm-summary-list" });
      const results = el("div", { class: "fm-results" });
      const heading = el("p", { class: "fm-summary-title", text: title });
      const box = el("div", { class: "fm-compare-option", dataOption: option }, heading, list, el("details", { class: "fm-details" }, el("summary", { text: "All results" }), results));
      this.options[option] = { box, list, results, heading };
    }
    this.diffs = el("div", { class: "fm-compare-diffs" });
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

  fieldBlock(field, n) {
    const id = `fm-${n}-vs-${field.name}`;
    const label = el("label", { htmlFor: id, class: "fm-label", text: field.label });
    const error = el("div", { class: "fm-field-error", id: `${id}-error`, dataFieldError: `vs.${field.name}`, role: "alert", hidden: true });
    const block = el("div", { class: `fm-field fm-field-${field.type}`, dataField: `vs.${field.name}` });
    let widget;
    if (field.type === "bool") {
      widget = el("input", { type: "checkbox", id });
      widget.addEventListener("change", () => this.changed(field.name, widget.checked ? "true" : "false"));
      block.append(el("span", { class: "fm-check" }, widget, " ", label), error);
    } else if (field.type === "choice") {
      widget = el("select", { id });
      for (const c of field.choices) widget.append(el("option", { value: c.name, text: c.label }));
      widget.addEventListener("change", () => this.changed(field.name, widget.value));
      block.append(label, widget, error);
    } else {
      widget = field.type === "map" ? el("textarea", { id, rows: 3, spellcheck: false, autocomplete: "off", class: "fm-map-text" }) : el("input", { type: "text", id, autocomplete: "off", spellcheck: false });
      if (field.type === "int") widget.inputMode = "numeric";
      if (field.type === "number") widget.inputMode = "decimal";
      const refused = el("div", { class: "fm-field-error fm-field-refused", id: `${id}-refused`, dataFieldRefused: `vs.${field.name}`, role: "alert", hidden: true });
      widget.addEventListener("input", () => {
        if (!this.view.refuseOverLong(field, widget, this.value(field.name), refused)) this.changed(field.name, widget.value, true);
      });
      block.append(label, widget, refused, error);
      widget.setAttribute("aria-describedby", `${error.id} ${refused.id}`);
    }
    if (!widget.hasAttribute("aria-describedby")) widget.setAttribute("aria-describedby", error.id);
    widget.dataset.vsInput = field.name;
    this.widgets[field.name] = widget;
    return block;
  }

  // Option B's value of a field: its change, or option A's value.
  value(name) {
    return name in this.vs ? this.vs[name] : this.view.raw[name];
  }

  showWidgets() {
    for (const field of this.view.schema.fields) {
      const widget = this.widgets[field.name];
      const raw = this.value(field.name);
      if (widget === document.activeElement) continue; // never rewrite what the player is typing
      if (field.type === "bool") widget.checked = raw.trim().toLowerCase() === "true";
      else widget.value = raw;
      widget.closest(".fm-field").classList.toggle("fm-changed", field.name in this.vs);
    }
  }

  showOpen() {
    this.toggle.textContent = this.open ? "Stop comparing" : "Compare with another option";
    this.toggle.setAttribute("aria-expanded", String(this.open));
    this.panel.hidden = !this.open;
    this.view.root.classList.toggle("fm-comparing", this.open);
  }

  setOpen(open) {
    this.open = open;
    if (!open) this.vs = {};
    this.showOpen();
    this.showWidgets();
    this.view.compareChanged();
    if (open) this.schedule(0);
  }

  // ------------------------------------------------------------ state

  changed(name, value, typing = false) {
    if (value === this.view.raw[name]) delete this.vs[name];
    else this.vs[name] = value;
    if (!typing) this.showWidgets();
    else this.widgets[name].closest(".fm-field").classList.toggle("fm-changed", name in this.vs);
    this.view.compareChanged();
    this.schedule(DEBOUNCE_MS);
  }

  // The address changed (Back or Forward): option B's changes are the address's.
  follow(vs) {
    this.vs = { ...vs };
    this.open = Object.keys(vs).length > 0;
    this.showOpen();
    this.showWidgets();
  }

  // The link's parameters for option B (empty when not comparing).
  params() {
    return this.open ? Object.entries(this.vs).map(([k, v]) => [VS + k, v]) : [];
  }

  schedule(delay) {
    if (!this.open) return;
    this.seq++;
    this.view.root.dataset.compareStatus = "loading";
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.compute(), delay);
  }

  async compute() {
    if (!this.open || !this.view.root.isConnected) return;
    const seq = ++this.seq;
    let answer;
    try {
      ({ answer } = await this.view.engine.call({ op: "compare", id: this.view.id, inputs: this.view.inputs(), vs: this.vs }, { key: `compare ${this.view.n}` }));
    } catch (error) {
      if (seq === this.seq && error.kind !== "superseded") this.showErrors({ error: error.message, fields: [] });
      return;
    }
    if (seq !== this.seq || !this.open) return;
    if (answer.error) {
      this.showErrors(answer);
      this.panel.dataset.stale = "true";
      this.view.root.dataset.compareStatus = "error";
      return;
    }
    this.showErrors({});
    delete this.panel.dataset.stale;
    this.render(answer);
    this.view.root.dataset.compareStatus = "ready";
  }

  showErrors(answer) {
    const general = [];
    const byField = {};
    for (const { field, message } of answer.error ? answer.fields : []) {
      if (field && field.startsWith(VS) && this.widgets[field.slice(VS.length)]) (byField[field] ??= []).push(message);
      else if (!field) general.push(message); // option A's own field errors show beside option A's fields
    }
    if (answer.error && !answer.fields.length) general.push(answer.error);
    for (const [name, widget] of Object.entries(this.widgets)) {
      const box = this.form.querySelector(`[data-field-error="${CSS.escape(VS + name)}"]`);
      const messages = byField[VS + name] || [];
      box.textContent = messages.join(" ");
      box.hidden = !messages.length;
      if (messages.length) widget.setAttribute("aria-invalid", "true");
      else widget.removeAttribute("aria-invalid");
    }
    this.errors.replaceChildren(...general.map((m) => el("p", { text: m })));
    this.errors.hidden = !general.length;
  }

  // ------------------------------------------------------------ results

  // The switch changed: the charts in its view.
  redraw() {
    if (this.open && this.answer) renderDifferenceCharts(this.charts, this.answer, this.view.mode);
  }

  render(answer) {
    this.answer = answer;
    renderHeadline(this.view.headline, answer); // the pinned line reads A → B
    this.redraw();
    for (const option of ["a", "b"]) {
      const { list, results } = this.options[option];
      renderSummary(list, answer[option], "exactly");
      renderDetails(results, answer[option]);
    }
    const changes = Object.entries(answer.vs).map(([k, v]) => {
      const field = this.view.schema.fields.find((f) => f.name === k);
      const shown = field?.type === "choice" ? (field.choices.find((c) => c.name === v)?.label ?? v) : v;
      return `${field?.label ?? k}: ${shown}`;
    });
    this.options.b.heading.textContent = changes.length ? `Option B: ${changes.join(", ")}` : "Option B: no change yet";
    const body = el("tbody");
    for (const d of answer.differences) {
      const what = d.chance ? "chance of yes" : d.mean ? "mean" : "most likely";
      const pair = d.chance ? [d.chance.a_percent, d.chance.b_percent, d.chance.difference, d.chance.b_minus_a] : d.mean ? [d.mean.a_text, d.mean.b_text, d.mean.difference, d.mean.b_minus_a] : null;
      const row = el("tr", { dataOutcome: d.name }, el("th", { scope: "row", text: `${d.label} (${what})` }));
      if (pair) {
        row.append(el("td", { dataOption: "a", text: pair[0] }), el("td", { dataOption: "b", text: pair[1] }), el("td", { class: "fm-diff", dataDiff: pair[3], text: pair[2] }));
      } else {
        row.append(el("td", { colSpan: 3, text: d.summary.slice(d.label.length + 2) }));
      }
      body.append(row);
    }
    const head = el("tr", {}, el("th", { scope: "col", text: "Outcome" }), el("th", { scope: "col", text: "A" }), el("th", { scope: "col", text: "B" }), el("th", { scope: "col", text: "B \u2212 A" }));
    this.diffs.replaceChildren(
      el("p", { class: "fm-summary-title", text: "The difference" }),
      el("div", { class: "fm-table-scroll", tabIndex: 0, role: "region", ariaLabel: "The difference between the options" }, el("table", { class: "fm-odds fm-compare-table" }, el("thead", {}, head), body)),
    );
    this.live.textContent = answer.summary;
  }
}
