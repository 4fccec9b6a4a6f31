// One calculator on a page: its form, its results, its roll and its link.
// Loaded by calculator.mjs only on pages that have a calculator. Generic:
// every field, outcome and message comes from the schema or the engine.

import { MapGridInput } from "./map-grid.mjs";
import { Frac, el, renderOdds, renderRoll, summarise } from "./results.mjs";

const SITE_ROOT = new URL("../../", import.meta.url);
// Parameters that are not inputs but may be in a calculator page's URL: the
// search plugin's highlight ("h").
const FOREIGN_PARAMS = new Set(["h"]);
const DEBOUNCE_MS = 150;

let instances = 0;
const views = new Set(); // the calculators on the current page

function randomSeed() {
  const a = new Uint32Array(1);
  crypto.getRandomValues(a);
  return String(1 + (a[0] % 999999));
}

function isStandalone(root, id) {
  // A calculator's own page is calculators/<id>/: there the URL holds its inputs.
  return new URL(".", location.href).pathname.endsWith(`/calculators/${id}/`) && document.querySelectorAll(".calculator[data-calculator]").length === 1;
}

// What the engine is doing while it starts (engine.progress, from calculator.mjs).
function engineProgress(progress) {
  if (!progress) return "Starting the calculator engine\u2026";
  if (progress.phase === "download") {
    // A percentage, not megabytes: the worker counts bytes as the files are on
    // the site, and a host's gzip makes fewer of them cross the network.
    const percent = progress.total ? Math.floor((100 * progress.loaded) / progress.total) : 0;
    return `Downloading the calculator engine: ${percent}%\u2026`;
  }
  if (progress.phase === "python") return "Starting Python in the calculator engine\u2026";
  return "Loading the rules into the calculator engine\u2026";
}

export class CalculatorView {
  constructor(root, schema, engine) {
    this.root = root;
    this.engine = engine;
    this.schema = schema;
    this.id = schema.id;
    this.n = ++instances;
    this.standalone = isStandalone(root, this.id);
    this.defaults = {};
    for (const f of schema.fields) this.defaults[f.name] = f.default === null ? "" : f.default;
    this.raw = { ...this.defaults };
    this.widgets = {};
    this.errors = {};
    this.seq = 0;
    this.ignored = [];
    if (this.standalone) this.readQuery();
    this.build();
    for (const f of schema.fields) this.show(f.name);
    const stopEngine = this.engine.onChange(() => this.engineChanged());
    views.add(this);
    this.stopListening = () => {
      stopEngine();
      views.delete(this);
    };
    this.engineChanged();
    this.schedule(0);
  }

  readQuery() {
    const params = new URLSearchParams(location.search);
    const names = new Set(this.schema.fields.map((f) => f.name));
    this.raw = { ...this.defaults };
    this.ignored = [];
    for (const [name, value] of params) {
      if (names.has(name)) this.raw[name] = value;
      else if (!FOREIGN_PARAMS.has(name)) this.ignored.push(name);
    }
    this.ownSearch = location.search;
  }

  // The address changed without a new page (Back or Forward between entries
  // of this same page). mkdocs-material ignores links to the page on show with
  // another query, so there is nothing to follow there.
  followAddress() {
    if (!this.standalone || location.search === this.ownSearch) return;
    this.readQuery();
    for (const f of this.schema.fields) this.show(f.name);
    this.showNotice();
    this.updateLink();
    this.schedule(0);
  }

  showNotice() {
    this.notice.hidden = !this.ignored.length;
    this.notice.textContent = this.ignored.length ? `Not an input of this calculator, so ignored: ${this.ignored.join(", ")}.` : "";
  }

  // ------------------------------------------------------------ building

  build() {
    const root = this.root;
    root.classList.add("fm-calculator");
    root.querySelector(".fm-placeholder")?.remove();
    const intro = [...root.childNodes].filter((n) => n.nodeType !== Node.TEXT_NODE || n.textContent.trim()); // the embed's link and description
    this.form = el("form", { class: "fm-form", noValidate: true, ariaLabel: this.schema.title });
    this.form.addEventListener("submit", (event) => event.preventDefault());
    for (const field of this.schema.fields) this.form.append(this.fieldBlock(field));

    this.engineNote = el("p", { class: "fm-engine", role: "status" });
    this.generalErrors = el("div", { class: "fm-errors", role: "alert", hidden: true });
    this.notice = el("p", { class: "fm-notice" });
    this.showNotice();
    this.results = el("div", { class: "fm-results", ariaLive: "polite" });

    this.seedInput = el("input", { type: "text", inputMode: "numeric", autocomplete: "off", spellcheck: false, class: "fm-seed", id: `fm-${this.n}-seed`, value: randomSeed(), size: 12 });
    this.seedError = el("div", { class: "fm-field-error", dataFieldError: "seed", role: "alert", hidden: true });
    this.seedInput.setAttribute("aria-describedby", this.seedError.id = `fm-${this.n}-seed-error`);
    this.rollButton = el("button", { type: "button", class: "md-button md-button--primary fm-roll-button", text: "Roll", disabled: true });
    this.rollButton.addEventListener("click", () => this.roll());
    this.copyButton = el("button", { type: "button", class: "md-button fm-copy-button", text: "Copy link" });
    this.copyButton.addEventListener("click", () => this.copyLink());
    this.link = el("a", { class: "fm-link", text: "Link to these inputs" });
    this.copyStatus = el("span", { class: "fm-copy-status", role: "status" });
    this.rollLog = el("div", { class: "fm-roll-log", hidden: true, ariaLive: "polite" });

    const actions = el(
      "div",
      { class: "fm-actions" },
      el("label", { class: "fm-seed-label", htmlFor: this.seedInput.id }, "Seed of the next roll "),
      this.seedInput,
      " ",
      this.rollButton,
      " ",
      this.copyButton,
      " ",
      this.link,
      " ",
      this.copyStatus,
      this.seedError,
    );
    root.replaceChildren(...(intro.length ? [el("div", { class: "fm-intro" }, ...intro)] : []), this.form, this.engineNote, this.generalErrors, this.notice, this.results, actions, this.rollLog);
    this.updateLink();
  }

  fieldBlock(field) {
    const id = `fm-${this.n}-${field.name}`;
    const help = el("small", { class: "fm-help", id: `${id}-help`, text: field.help });
    const error = el("div", { class: "fm-field-error", id: `${id}-error`, dataFieldError: field.name, role: "alert", hidden: true });
    const described = `${id}-help ${id}-error`;
    const block = el("div", { class: `fm-field fm-field-${field.type}`, dataField: field.name });
    let widget;
    const label = el("label", { htmlFor: id, class: "fm-label", text: field.label });

    if (field.type === "bool") {
      widget = el("input", { type: "checkbox", id });
      widget.addEventListener("change", () => this.changed(field.name, widget.checked ? "true" : "false"));
      block.append(el("span", { class: "fm-check" }, widget, " ", label), help, error);
    } else if (field.type === "choice") {
      widget = el("select", { id });
      for (const c of field.choices) widget.append(el("option", { value: c.name, text: c.label }));
      widget.addEventListener("change", () => this.changed(field.name, widget.value));
      block.append(label, widget, help, error);
    } else if (field.type === "map") {
      widget = el("textarea", { id, rows: 3, spellcheck: false, autocomplete: "off", class: "fm-map-text" });
      widget.addEventListener("input", () => {
        this.changed(field.name, widget.value, { keepWidget: true });
        this.maps[field.name].setText(widget.value);
      });
      this.maps ??= {};
      this.maps[field.name] = new MapGridInput(field, id, (text) => {
        widget.value = text;
        this.changed(field.name, text, { keepWidget: true });
      });
      block.append(label, this.maps[field.name].element, el("label", { htmlFor: id, class: "fm-map-text-label", text: "As text (the same text goes in links)" }), widget, help, error);
    } else {
      const numeric = field.type === "int" || field.type === "number";
      widget = el("input", { type: "text", id, autocomplete: "off", spellcheck: false });
      if (field.type === "int") widget.inputMode = "numeric";
      if (field.type === "number") widget.inputMode = "decimal";
      widget.addEventListener("input", () => this.changed(field.name, widget.value, { keepWidget: true }));
      if (numeric) {
        widget.size = 8;
        const step = (delta) => {
          const now = Number(this.raw[field.name]);
          if (!Number.isFinite(now)) return;
          let next = Math.round((now + delta) * 1e6) / 1e6;
          if (field.min !== undefined) next = Math.max(Number(field.min), next);
          if (field.max !== undefined) next = Math.min(Number(field.max), next);
          this.changed(field.name, String(next));
        };
        const minus = el("button", { type: "button", class: "fm-step", ariaLabel: `${field.label}: one less`, text: "\u2212" });
        const plus = el("button", { type: "button", class: "fm-step", ariaLabel: `${field.label}: one more`, text: "+" });
        minus.addEventListener("click", () => step(-1));
        plus.addEventListener("click", () => step(1));
        block.append(label, el("span", { class: "fm-number" }, minus, widget, plus), help, error);
      } else {
        block.append(label, widget, help, error);
      }
    }
    widget.setAttribute("aria-describedby", described);
    widget.dataset.input = field.name;
    this.widgets[field.name] = widget;
    return block;
  }

  // Show the raw value in its widget, even one the widget cannot hold (from a URL).
  show(name) {
    const field = this.schema.fields.find((f) => f.name === name);
    const widget = this.widgets[name];
    const raw = this.raw[name];
    if (field.type === "bool") {
      const word = raw.trim().toLowerCase();
      widget.indeterminate = word !== "true" && word !== "false";
      widget.checked = word === "true";
    } else if (field.type === "choice") {
      for (const stray of widget.querySelectorAll("option[data-stray]")) stray.remove();
      const known = field.choices.some((c) => c.name === raw.trim());
      if (!known) widget.append(el("option", { value: raw, text: `${raw} (not allowed)`, dataStray: "true", disabled: true }));
      widget.value = known ? raw.trim() : raw;
    } else {
      widget.value = raw;
      if (field.type === "map") this.maps[name].setText(raw);
    }
  }

  // ------------------------------------------------------------ state

  changed(name, value, { keepWidget = false } = {}) {
    this.raw[name] = value;
    if (!keepWidget) this.show(name);
    this.updateLink();
    if (this.standalone) {
      history.replaceState(history.state, "", this.pageUrl(true));
      this.ownSearch = location.search;
    }
    this.schedule(DEBOUNCE_MS);
  }

  inputs() {
    const out = {};
    for (const f of this.schema.fields) {
      const raw = this.raw[f.name];
      if (raw === "" && f.default === null) continue; // not given: the engine says if it is required
      out[f.name] = raw;
    }
    return out;
  }

  query() {
    const params = new URLSearchParams();
    for (const f of this.schema.fields) if (this.raw[f.name] !== this.defaults[f.name]) params.set(f.name, this.raw[f.name]);
    return params.toString();
  }

  // This calculator's own page with these inputs (relative for the address bar, absolute to share).
  pageUrl(relative = false) {
    const page = this.standalone ? new URL(location.pathname, location.href) : new URL(`calculators/${this.id}/`, SITE_ROOT);
    const query = this.query();
    page.search = query ? `?${query}` : "";
    return relative ? page.pathname + page.search + location.hash : page.href;
  }

  updateLink() {
    this.link.href = this.pageUrl();
  }

  async copyLink() {
    const url = this.pageUrl();
    try {
      await navigator.clipboard.writeText(url);
      this.copyStatus.textContent = "Link copied.";
    } catch {
      this.copyStatus.textContent = "Copy the link from here:";
      this.link.focus();
    }
    this.root.dataset.copied = url;
  }

  setStatus(status) {
    this.root.dataset.status = status;
  }

  engineChanged() {
    const note = this.engineNote;
    if (this.engine.state === "failed") {
      note.textContent = this.engine.message;
      note.classList.add("fm-engine-failed");
      this.rollButton.disabled = true;
      this.setStatus("error");
    } else if (this.engine.state === "ready") {
      note.textContent = "";
      note.hidden = true;
    } else {
      note.hidden = false;
      note.textContent = engineProgress(this.engine.progress);
    }
  }

  schedule(delay) {
    if (this.engine.state === "failed") return;
    this.setStatus("loading");
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.compute(), delay);
  }

  async compute() {
    if (!this.root.isConnected) return this.stopListening(); // the page has gone (instant navigation)
    const seq = ++this.seq;
    const t0 = performance.now();
    let answer;
    try {
      ({ answer } = await this.engine.call({ op: "odds", id: this.id, inputs: this.inputs(), describe: true }));
    } catch {
      return; // the engine failed; engineChanged() has said so
    }
    if (seq !== this.seq || !this.root.isConnected) return; // inputs changed meanwhile
    this.showErrors(answer);
    if (answer.error) {
      this.results.replaceChildren();
      this.root.dataset.valid = "false";
      this.rollButton.disabled = true;
      for (const map of Object.values(this.maps || {})) map.clearOutcomes();
      if (answer.internal) {
        this.setStatus("error");
        return;
      }
    } else {
      const dists = {};
      for (const o of answer.described) dists[o.name] = Object.fromEntries(o.order.map((v) => [v, Frac.parse(answer.outcomes[o.name][v])]));
      const summaries = renderOdds(this.results, answer);
      for (const map of Object.values(this.maps || {})) map.drawOutcomes(answer.described, dists, summaries);
      this.root.dataset.valid = "true";
      this.rollButton.disabled = false;
      this.lastInputs = answer.inputs;
    }
    this.root.dataset.answerMs = (performance.now() - t0).toFixed(1);
    if (!this.root.dataset.firstAnswerAt) this.root.dataset.firstAnswerAt = performance.now().toFixed(0);
    this.setStatus("ready");
  }

  showErrors(answer) {
    const fieldNames = new Set(this.schema.fields.map((f) => f.name));
    const byField = {};
    const general = [];
    for (const { field, message } of answer.error ? answer.fields : []) {
      if (field && (fieldNames.has(field) || field === "seed")) (byField[field] ??= []).push(message);
      else general.push(message);
    }
    if (answer.error && !answer.fields.length) general.push(answer.error);
    for (const name of [...fieldNames, "seed"]) {
      const box = this.root.querySelector(`[data-field-error="${CSS.escape(name)}"]`);
      const widget = name === "seed" ? this.seedInput : this.widgets[name];
      const messages = byField[name] || [];
      box.textContent = messages.join(" ");
      box.hidden = !messages.length;
      if (messages.length) widget.setAttribute("aria-invalid", "true");
      else widget.removeAttribute("aria-invalid");
    }
    this.generalErrors.replaceChildren(...general.map((m) => el("p", { text: m })));
    this.generalErrors.hidden = !general.length;
  }

  async roll() {
    const seed = this.seedInput.value.trim();
    this.rollButton.disabled = true;
    this.root.dataset.rolling = "true";
    let answer;
    try {
      ({ answer } = await this.engine.call({ op: "roll", id: this.id, inputs: this.inputs(), seed, describe: true }));
    } catch {
      return;
    } finally {
      delete this.root.dataset.rolling;
    }
    this.rollButton.disabled = this.root.dataset.valid !== "true";
    if (answer.error) {
      this.showErrors(answer);
      this.rollLog.hidden = true;
      return;
    }
    this.showErrors({});
    renderRoll(this.rollLog, answer, this.defaults);
    const rolled = {};
    const summaries = {};
    for (const o of answer.described) {
      rolled[o.name] = { [answer.outcomes[o.name]]: new Frac(1n) };
      summaries[o.name] = { ...summarise({ ...o, order: [answer.outcomes[o.name]] }, { [answer.outcomes[o.name]]: "1" }), rolled: answer.outcomes[o.name] };
    }
    for (const map of Object.values(this.maps || {})) map.drawOutcomes(answer.described, rolled, summaries);
    this.seedInput.value = randomSeed(); // the next roll is a new one; this one keeps its seed in the log
  }
}


// The address changed without a new page (Back or Forward between entries of
// the same calculator page).
window.addEventListener("popstate", () => {
  for (const view of [...views]) {
    if (view.root.isConnected) view.followAddress();
    else view.stopListening();
  }
});
