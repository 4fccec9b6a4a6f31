// One calculator on a page: its form, its results, its roll and its link.
// Loaded by calculator.mjs only on pages that have a calculator. Generic:
// every field, outcome and message comes from the schema or the engine.

import { CompareView, VS } from "./compare.mjs";
import { textLimit } from "./grid.mjs";
import { MapGridInput, renderUnits } from "./map-grid.mjs";
import { MODES, el, hasScale, renderDetails, renderHeadline, renderNotes, renderRoll, renderSteps, renderSummary } from "./results.mjs";
import { renderCharts } from "./chart.mjs";
import { OwnDice } from "./own-dice.mjs";
import { SWEEP, SweepView } from "./sweep.mjs";

const SITE_ROOT = new URL("../../", import.meta.url);
// Parameters that are not inputs but may be in a calculator page's URL: the
// search plugin's highlight ("h"), a roll's seed (see rollFromAddress), the
// player's own dice (own-dice.mjs) and "How it changes"'s input (sweep.mjs).
const FOREIGN_PARAMS = new Set(["h", "seed", "dice", SWEEP]);
const HISTORY_KEY = "fm-roll-history"; // this tab's rolls, in sessionStorage
const HISTORY_LENGTH = 12;
// The longest text one field of a stored roll may have: its link, with a map's text in it, is the longest.
const HISTORY_TEXT_MAX = 40000;
// The longest value a field other than a map takes from the player: every one of
// them takes a word or a number of a few characters (a map's grid bounds its
// own text, grid.mjs). A longer value (a paste of a megabyte) is not taken: it
// never reaches the engine, the link or the address.
const VALUE_MAX = 200;
const DEBOUNCE_MS = 150;

let instances = 0;
const views = new Set(); // the calculators on the current page

function randomSeed() {
  const a = new Uint32Array(1);
  crypto.getRandomValues(a);
  return String(1 + (a[0] % 999999));
}

// The answers the build embedded in the calculator (defaults and examples), or none.
function readPrerendered(root) {
  const block = root.querySelector(".fm-prerendered[data-answers]");
  if (!block) return [];
  try {
    return JSON.parse(block.dataset.answers);
  } catch {
    return []; // a damaged block: the engine answers instead
  }
}

// The build's copy of this calculator (scripts/render_calculators.py), which the
// page showed until now, and what the player did with it before this script
// arrived: fields changed from the copy's values (read by their names, against
// the values the copy was built with), the seed, the way of reading chances,
// which sections were open, and the field that has the focus. The view takes
// them over as if the player had done it all in the live calculator.
function readStatic(root, schema) {
  const copy = root.querySelector(":scope > .fm-static");
  if (!copy) return null;
  const typed = {};
  const changedValue = (widget) => {
    if (widget.type === "checkbox") return widget.checked === widget.defaultChecked ? null : String(widget.checked);
    if (widget.tagName === "SELECT") return [...widget.options].some((o) => o.selected !== o.defaultSelected) ? widget.value : null;
    return widget.value === widget.defaultValue ? null : widget.value;
  };
  for (const f of schema.fields) {
    const widget = copy.querySelector(`[name="${CSS.escape(f.name)}"]`);
    const value = widget && changedValue(widget);
    if (value !== null && value !== undefined) typed[f.name] = value;
  }
  const seed = copy.querySelector("input.fm-seed");
  const mode = copy.querySelector(".fm-modes input:checked");
  const active = copy.contains(document.activeElement) ? /** @type {HTMLInputElement} */ (document.activeElement) : null;
  return {
    typed,
    seed: seed && seed.value !== seed.defaultValue ? seed.value : null,
    mode: mode && !mode.defaultChecked ? mode.value : null,
    open: [...copy.querySelectorAll("details")].map((d) => d.open),
    focus: active && { name: active.name || (active.matches(".fm-seed") ? "seed" : null), start: active.selectionStart, end: active.selectionEnd },
  };
}

// A roll of this tab's history as rolled() writes it, or null: what is read from
// storage may be another version's, or edited by hand, and is only data.
function historyEntry(e) {
  if (!e || typeof e !== "object" || Array.isArray(e)) return null;
  if (!["id", "seed", "inputs", "result", "url"].every((k) => typeof e[k] === "string" && e[k].length <= HISTORY_TEXT_MAX)) return null;
  let url;
  try {
    url = new URL(e.url, location.href);
  } catch {
    return null;
  }
  if (url.origin !== location.origin || !url.pathname.endsWith(`/calculators/${e.id}/`)) return null;
  return { id: e.id, seed: e.seed, inputs: e.inputs, result: e.result, url: url.href };
}

// At most HISTORY_LENGTH rolls of a list read from storage, each a history entry.
function historyEntries(stored) {
  const out = [];
  if (!Array.isArray(stored)) return out;
  for (const item of stored) {
    const entry = historyEntry(item);
    if (entry) out.push(entry);
    if (out.length === HISTORY_LENGTH) break;
  }
  return out;
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

// A field the focus reaches partly under the pinned answer (above it on a phone;
// beside it on a wide screen, where nothing overlaps) scrolls to below it: its
// scroll margin (calculator.css) is the pinned answer's room.
function clearOfAnswer(field, answerBox) {
  const f = field.getBoundingClientRect();
  const a = answerBox.getBoundingClientRect();
  if (f.top < a.bottom && f.bottom > a.top && f.left < a.right && a.left < f.right) field.scrollIntoView({ block: "start" });
}

export class CalculatorView {
  /**
   * @param {HTMLElement} root the calculator's root, .calculator[data-calculator]
   * @param {any} schema its entry in calculators.json
   * @param {import("./calculator.mjs").Engine} engine
   * @param {boolean} standalone whether this is the calculator's own page
   */
  constructor(root, schema, engine, standalone) {
    this.root = root;
    this.engine = engine;
    this.schema = schema;
    this.id = schema.id;
    this.n = ++instances;
    // On a calculator's own page (calculator.mjs says, from the build) the URL holds its inputs.
    this.standalone = standalone;
    this.defaults = {};
    for (const f of schema.fields) this.defaults[f.name] = f.default === null ? "" : f.default;
    this.raw = { ...this.defaults };
    this.widgets = {};
    /** @type {Record<string, MapGridInput> | undefined} the map fields' editors, once the form has one */
    this.maps = undefined;
    this.seq = 0;
    this.ignored = [];
    if (this.standalone) this.readQuery();
    this.prerendered = readPrerendered(root);
    const copy = readStatic(root, schema);
    this.build();
    for (const f of schema.fields) this.show(f.name);
    this.showAddressSeed();
    if (this.addressDice != null) this.ownDice?.fromAddress(this.addressDice);
    const stopEngine = this.engine.onChange(() => this.engineChanged());
    views.add(this);
    this.stopListening = () => {
      stopEngine();
      views.delete(this);
    };
    this.engineChanged();
    this.schedule(0);
    if (copy) this.takeOver(copy);
    this.sweep.follow(this.sweepName); // a link's sweep opens "How it changes", whatever the copy had open
  }

  // What the player did with the build's copy (readStatic), done again here.
  takeOver({ typed, seed, mode, open, focus }) {
    if (mode) this.modeSwitch.querySelector(`input[value="${CSS.escape(mode)}"]`)?.click();
    const details = [...this.root.querySelectorAll("details")];
    if (details.length === open.length) details.forEach((d, i) => (d.open = open[i]));
    if (seed !== null && this.seedInput) this.seedInput.value = seed;
    for (const [name, value] of Object.entries(typed)) this.changed(name, value);
    const widget = focus && (focus.name === "seed" ? this.seedInput : this.widgets[focus.name]);
    if (!widget) return;
    widget.focus();
    if (typeof focus.start === "number" && typeof widget.setSelectionRange === "function") widget.setSelectionRange(focus.start, focus.end);
  }

  readQuery() {
    const params = new URLSearchParams(location.search);
    const names = new Set(this.schema.fields.map((f) => f.name));
    this.raw = { ...this.defaults };
    this.ignored = [];
    this.vsRaw = {}; // option B's changes (compare.mjs)
    this.repeated = {}; // a name given twice in the link: the engine refuses it, as the CLI does
    for (const [name, value] of params) {
      if (names.has(name) && params.getAll(name).length > 1) this.repeated[name] = params.getAll(name);
      if (names.has(name)) this.raw[name] = value;
      else if (name.startsWith(VS) && names.has(name.slice(VS.length))) this.vsRaw[name.slice(VS.length)] = value;
      else if (!FOREIGN_PARAMS.has(name)) this.ignored.push(name);
    }
    this.ownSearch = location.search;
    this.addressSeed = params.get("seed"); // rolled once the first answer is in
    this.sweepName = params.get(SWEEP); // "How it changes" opens on it (sweep.mjs)
    this.addressDice = params.get("dice"); // resolved with the player's own dice (own-dice.mjs)
    this.rolledSeed = null;
  }

  // The address changed without a new page (Back or Forward between entries
  // of this same page). mkdocs-material ignores links to the page on show with
  // another query, so there is nothing to follow there.
  followAddress() {
    if (!this.standalone || location.search === this.ownSearch) return;
    this.readQuery();
    for (const f of this.schema.fields) this.show(f.name);
    this.showAddressSeed();
    this.compare.follow(this.vsRaw);
    this.sweep.follow(this.sweepName);
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
    // The embed's link and description: the root's own, or in the build's copy (which goes).
    const copied = root.querySelector(":scope > .fm-static > .fm-intro")?.childNodes || [];
    const intro = [...root.childNodes, ...copied].filter((n) => (n.nodeType !== Node.TEXT_NODE || n.textContent.trim()) && !n.matches?.(".fm-prerendered, .fm-static"));
    this.form = el("form", { class: "fm-form", noValidate: true, ariaLabel: this.schema.title });
    this.form.addEventListener("submit", (event) => event.preventDefault());
    for (const field of this.schema.fields) this.form.append(this.fieldBlock(field));

    this.engineNote = el("p", { class: "fm-engine", role: "status" });
    this.generalErrors = el("div", { class: "fm-errors", role: "alert", hidden: true });
    this.notice = el("p", { class: "fm-notice" });
    this.showNotice();

    // The answer in view: one line per outcome, beside the inputs (first on a phone).
    this.mode = "exactly";
    this.modeSwitch = el("div", { class: "fm-modes", role: "radiogroup", ariaLabel: "Read the chances as", hidden: true });
    for (const m of MODES) {
      const id = `fm-${this.n}-mode-${m.name}`;
      const radio = el("input", { type: "radio", name: `fm-${this.n}-mode`, id, value: m.name, checked: m.name === this.mode });
      radio.addEventListener("change", () => {
        this.mode = m.name;
        if (this.answer) this.showSummary();
        this.compare.redraw();
      });
      this.modeSwitch.append(el("span", { class: "fm-mode" }, radio, el("label", { htmlFor: id, text: m.label })));
    }
    this.summaryList = el("ul", { class: "fm-summary-list" });
    this.live = el("p", { class: "fm-sr fm-live", ariaLive: "polite" });
    // The answer's one line first (results.mjs, renderHeadline), pinned with the switch;
    // every outcome's line and chart (chart.mjs) follow in the page.
    this.headline = el("p", { class: "fm-headline" });
    this.headline.setAttribute("elementtiming", "fm-answer");
    this.charts = el("div", { class: "fm-charts", hidden: true });
    this.summary = el("div", { class: "fm-summary", role: "group", ariaLabel: `${this.schema.title}: every outcome` }, el("p", { class: "fm-summary-title", text: "Every outcome" }), this.summaryList, this.charts, this.live);

    this.results = el("div", { class: "fm-results" });
    this.details = el("details", { class: "fm-details" }, el("summary", { text: "All results: tables, exact fractions, at least and at most" }), this.results);
    this.readings = el("div", { class: "fm-readings", hidden: true });

    this.seedInput = el("input", { type: "text", autocomplete: "off", spellcheck: false, class: "fm-seed", id: `fm-${this.n}-seed`, value: randomSeed(), size: 14 });
    this.seedError = el("div", { class: "fm-field-error", dataFieldError: "seed", role: "alert", hidden: true });
    this.seedInput.setAttribute("aria-describedby", this.seedError.id = `fm-${this.n}-seed-error`);
    this.seedInput.addEventListener("keydown", (event) => {
      if (event.key === "Enter") this.roll();
    });
    this.rollButton = el("button", { type: "button", class: "md-button md-button--primary fm-roll-button", text: "Roll", disabled: true });
    this.rollButton.addEventListener("click", () => this.roll());
    this.copyButton = el("button", { type: "button", class: "md-button fm-copy-button", text: "Copy link" });
    this.copyButton.addEventListener("click", () => this.copyLink());
    this.link = el("a", { class: "fm-link", text: "Link to these inputs" });
    this.copyStatus = el("span", { class: "fm-copy-status", role: "status" });
    this.rollLog = el("div", { class: "fm-roll-log", hidden: true });

    const rolls = this.schema.rolls_dice !== false; // a calculator with no dice has no Seed and Roll
    this.ownDice = rolls ? new OwnDice(this) : null;
    const actions = el(
      "div",
      { class: "fm-actions" },
      rolls ? el("span", { class: "fm-seed-box" }, el("label", { class: "fm-seed-label", htmlFor: this.seedInput.id }, "Seed (a number or a phrase)"), this.seedInput) : null,
      rolls ? this.rollButton : null,
      this.ownDice?.button,
      this.copyButton,
      this.link,
      this.copyStatus,
      rolls ? this.seedError : null,
    );
    // The answer stays in view while the player scrolls through the inputs:
    // sticky above them on a phone, beside them on a wide screen.
    // The engine's note under the answer: a page shows the build's answer at once and
    // its engine starts a moment later, and "Starting…" above would push the answer down.
    const answerBox = el("div", { class: "fm-answer-box", role: "group", ariaLabel: `${this.schema.title}: the answer` }, this.generalErrors, this.headline, this.modeSwitch, this.engineNote);
    const rollBox = el("div", { class: "fm-roll-box" }, actions, this.ownDice?.element, this.rollLog, rolls ? this.buildHistory() : null);
    const layout = el("div", { class: "fm-layout" }, answerBox, this.form, this.summary, rollBox);
    this.form.addEventListener("focusin", (event) => clearOfAnswer(/** @type {HTMLElement} */ (event.target), answerBox));
    this.sweep = new SweepView(this, this.sweepName ?? null);
    root.replaceChildren(...(intro.length ? [el("div", { class: "fm-intro" }, ...intro)] : []), this.notice, layout, this.buildCompare(), this.details, this.buildSteps(), this.sweep.element, this.readings);
    this.updateLink();
  }

  fieldBlock(field) {
    const id = `fm-${this.n}-${field.name}`;
    const help = el("small", { class: "fm-help", id: `${id}-help`, text: field.help });
    const error = el("div", { class: "fm-field-error", id: `${id}-error`, dataFieldError: field.name, role: "alert", hidden: true });
    const refused = el("div", { class: "fm-field-error fm-field-refused", id: `${id}-refused`, dataFieldRefused: field.name, role: "alert", hidden: true });
    let described = `${id}-help ${id}-error`;
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
        // Longer than any map: not taken (the map says why), so no huge address or answer.
        if (this.maps[field.name].refuses(widget.value)) return void (widget.value = this.raw[field.name]);
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
      described += ` ${refused.id}`;
      widget.addEventListener("input", () => {
        if (!this.refuseOverLong(field, widget, this.raw[field.name], refused)) this.changed(field.name, widget.value, { keepWidget: true });
      });
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
        block.append(label, el("span", { class: "fm-number" }, minus, widget, plus), refused, help, error);
      } else {
        block.append(label, widget, refused, help, error);
      }
    }
    widget.setAttribute("aria-describedby", described);
    widget.dataset.input = field.name;
    // A message that waited while the player typed shows once they leave the field or press Enter.
    widget.addEventListener("change", () => this.flushErrors());
    widget.addEventListener("blur", () => this.flushErrors());
    widget.addEventListener("keydown", (event) => {
      if (event.key === "Enter") this.flushErrors();
    });
    this.widgets[field.name] = widget;
    return block;
  }

  // A value typed or pasted into `widget` that is longer than any value of the
  // field is not taken: the widget gets `previous` back and `box`, beside it,
  // says why until the field's next change. True if refused.
  refuseOverLong(field, widget, previous, box) {
    const length = widget.value.length;
    const over = length > (field.type === "map" ? textLimit(field.grid) : VALUE_MAX);
    box.hidden = !over;
    box.textContent = over ? `Not taken: ${length} characters is longer than any value of ${field.label}, which keeps its last value.` : "";
    if (over) widget.value = previous;
    return over;
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
    this.rolledSeed = null; // the roll shown was for other inputs: links no longer carry its seed
    if (this.repeated) delete this.repeated[name]; // the player chose one value
    this.revealErrors = false; // typing again: a message waits until the player leaves the field
    this.engine.start(); // the player uses the calculator: its engine starts (a prerendered answer needed none)
    if (!keepWidget) this.show(name);
    this.updateLink();
    if (this.standalone) {
      history.replaceState(history.state, "", this.pageUrl(true));
      this.ownSearch = location.search;
    }
    this.schedule(DEBOUNCE_MS);
    this.ownDice?.inputsChanged();
  }

  /** @returns {Record<string, string>} the inputs as the engine takes them, by name */
  inputs() {
    /** @type {Record<string, string>} */
    const out = {};
    for (const f of this.schema.fields) {
      const raw = this.raw[f.name];
      if (raw === "" && f.default === null) continue; // not given: the engine says if it is required
      out[f.name] = this.repeated?.[f.name] ?? raw;
    }
    return out;
  }

  query() {
    const params = new URLSearchParams();
    for (const f of this.schema.fields) if (this.raw[f.name] !== this.defaults[f.name]) params.set(f.name, this.raw[f.name]);
    for (const [name, value] of this.compare ? this.compare.params() : []) params.set(name, value);
    for (const [name, value] of this.sweep ? this.sweep.params() : []) params.set(name, value);
    if (this.rolledSeed != null) params.set("seed", this.rolledSeed);
    const dice = this.ownDice?.param();
    if (dice != null) params.set("dice", dice);
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

  // The engine's state (calculator.mjs's Engine) and this view's last request,
  // beside the calculator: a message while the engine starts, restarts or has
  // failed, or when this view's request stopped it; results dimmed while they
  // are not an answer to the inputs shown (this.problem) or cannot be renewed.
  engineChanged() {
    const { state, message, generation } = this.engine;
    let text = "";
    let bad = false;
    if (state === "failed" || state === "restarting") [text, bad] = [message, true];
    else if (state === "starting") text = engineProgress(this.engine.progress);
    else if (this.problem) [text, bad] = [this.problem, true];
    else if (message && this.answeredGeneration !== generation) [text, bad] = [message, true]; // restarted since this view's last answer
    this.engineNote.textContent = text;
    this.engineNote.hidden = !text;
    this.engineNote.classList.toggle("fm-engine-failed", bad);
    // An answer the build made for the inputs shown stays good without an engine.
    const built = this.root.dataset.source === "prerendered" && this.root.dataset.status === "ready";
    this.root.classList.toggle("fm-outdated", (state === "failed" && !built) || Boolean(this.problem));
    if (state === "failed") {
      this.rollButton.disabled = true;
      if (!built) this.setStatus("error");
    }
  }

  // A request the engine could not answer: superseded (nothing to say), or it
  // ran past its time limit or stopped the worker (say so; the next change tries again).
  requestFailed(error) {
    if (error.kind === "superseded" || error.kind === "failed") return; // failed: engineChanged() says why
    this.problem = error.message;
    this.setStatus("error");
    this.engineChanged();
  }

  schedule(delay) {
    this.seq++; // an answer still on its way is for other inputs: never show it as ready
    clearTimeout(this.timer);
    const built = this.prerenderedFor(this.raw);
    if (built) return this.showPrerendered(built); // the build answered these inputs: no engine needed
    if (this.engine.state === "failed") {
      // No engine to answer these inputs: what is shown is for others.
      this.markStale(true);
      this.root.dataset.valid = "false";
      this.root.classList.add("fm-outdated");
      return this.setStatus("error");
    }
    this.setStatus("loading");
    this.timer = setTimeout(() => this.compute(), delay);
  }

  async compute() {
    if (!this.root.isConnected) return this.stopListening(); // the page has gone (instant navigation)
    const seq = ++this.seq;
    const t0 = performance.now();
    let answer, generation;
    try {
      ({ answer, generation } = await this.engine.call({ op: "answer", id: this.id, inputs: this.inputs() }, { key: `odds ${this.n}` }));
    } catch (error) {
      if (seq === this.seq) this.requestFailed(error);
      return;
    }
    if (seq !== this.seq || !this.root.isConnected) return; // inputs changed meanwhile
    this.problem = "";
    this.answeredGeneration = generation;
    this.engineChanged();
    if (answer.error) {
      this.root.dataset.valid = "false";
      this.rollButton.disabled = true;
      this.markStale(true);
      // While a field is empty or being typed in, its message waits until the
      // player leaves it (or presses Enter); the last answer stays, dimmed.
      const typing = answer.fields.some(({ field }) => field && field === /** @type {HTMLElement | null} */ (document.activeElement)?.dataset?.input && this.root.contains(document.activeElement));
      if (typing && !this.revealErrors) this.pendingErrors = answer;
      else this.showErrors(answer);
      if (answer.internal) {
        this.setStatus("error");
        return;
      }
    } else {
      this.showErrors({});
      this.showAnswer(answer);
      this.root.dataset.valid = "true";
      this.rollButton.disabled = false;
      this.rollFromAddress();
      this.compareAnswered();
      this.root.dataset.source = "engine";
    }
    this.root.dataset.answerMs = (performance.now() - t0).toFixed(1);
    if (!this.root.dataset.firstAnswerAt) this.root.dataset.firstAnswerAt = performance.now().toFixed(0);
    this.setStatus("ready");
  }

  // The build's answer for exactly these inputs (every field's text equal), if it made one.
  prerenderedFor(raw) {
    if (Object.keys(this.repeated || {}).length) return null; // the engine says what is wrong with the link
    return this.prerendered.find((doc) => this.schema.fields.every((f) => doc.inputs[f.name] === raw[f.name])) || null;
  }

  // An answer the build computed (scripts/calculator_hooks.py), shown as a live one is:
  // it is the answer for the inputs shown, so the calculator is ready without its engine.
  showPrerendered(doc) {
    this.seq += 1; // any answer still on its way is for other inputs
    this.showErrors({});
    this.showAnswer(doc);
    this.root.dataset.valid = "true";
    this.rollButton.disabled = false;
    this.root.dataset.source = "prerendered";
    this.setStatus("ready");
    // When the first answer showed, since navigation start (the benchmark compares it with first paint).
    if (!this.root.dataset.firstAnswerAt) this.root.dataset.firstAnswerAt = performance.now().toFixed(0);
    this.rollFromAddress();
    this.compareAnswered();
  }

  showAnswer(answer) {
    this.answer = answer;
    this.modeSwitch.hidden = !hasScale(answer);
    if (!this.compare.open) renderHeadline(this.headline, answer); // comparing: compare.mjs shows A → B
    this.showSummary();
    renderDetails(this.results, answer);
    renderNotes(this.readings, answer);
    this.showSteps(answer);
    this.live.textContent = answer.summary;
    this.markStale(false);
    this.lastInputs = JSON.stringify(answer.inputs);
    for (const map of Object.values(this.maps || {})) map.drawOutcomes(answer.outcomes);
    this.rollLog.dataset.stale = String(this.rollLog.dataset.inputs !== this.lastInputs);
    this.sweep.refresh();
  }

  // The answer's lines, each marked for the Element Timing API: the benchmark reads
  // when the page first painted an answer (the build's copy of the calculator has
  // the same marks, so the earliest is the copy's where there is one).
  showSummary() {
    renderSummary(this.summaryList, this.answer, this.mode);
    renderUnits(this.summaryList, this.answer); // a map's units: one table (map-grid.mjs)
    renderCharts(this.charts, this.answer, this.mode);
    for (const line of this.summaryList.children) line.setAttribute("elementtiming", "fm-answer");
  }

  // ------------------------------------------------------------ compare (compare.mjs)

  buildCompare() {
    this.compare = new CompareView(this, this.vsRaw || {});
    return this.compare.element;
  }

  // Option B changed: the link and the address carry its changes.
  compareChanged() {
    if (!this.compare.open && this.answer) renderHeadline(this.headline, this.answer);
    this.updateLink();
    if (this.standalone) {
      history.replaceState(history.state, "", this.pageUrl(true));
      this.ownSearch = location.search;
    }
  }

  // Option A has a new answer: option B follows A where it has no change of its own.
  compareAnswered() {
    this.compare.showWidgets();
    this.compare.schedule(0);
  }

  // ------------------------------------------------------------ how it comes about

  // A collapsible list of the procedure's rolls (the answer's steps), after the results.
  buildSteps() {
    this.stepsBox = el("div", { class: "fm-steps" });
    this.stepsDetails = el("details", { class: "fm-details fm-steps-details", hidden: true }, el("summary", { text: "How it comes about: every roll, how often it is made, what it decides" }), this.stepsBox);
    return this.stepsDetails;
  }

  showSteps(answer) {
    renderSteps(this.stepsBox, answer);
    this.stepsDetails.hidden = this.schema.rolls_dice === false;
  }

  // ------------------------------------------------------------ rolls anyone can check

  // A seed in the address (?seed=...) is rolled with the address's inputs as soon as they have an answer.
  showAddressSeed() {
    if (this.addressSeed != null && this.seedInput) this.seedInput.value = this.addressSeed;
  }

  rollFromAddress() {
    if (this.addressSeed == null || this.schema.rolls_dice === false) return;
    this.addressSeed = null;
    this.roll();
  }

  // The address of a roll: its calculator's page with the inputs it was made
  // with (the engine's own text of those that differ from the defaults) and its seed.
  rollUrl(answer) {
    const page = new URL(`calculators/${this.id}/`, SITE_ROOT);
    const params = new URLSearchParams(answer.changed);
    params.set("seed", answer.seed);
    page.search = `?${params}`;
    return page.href;
  }

  // After a roll: its link in the log, in Copy link and the address bar (while
  // it is a roll of the inputs shown), and in this tab's history.
  rolled(answer) {
    const url = this.rollUrl(answer);
    const link = el("a", { class: "fm-roll-url", href: url, text: url });
    this.rollLog.append(el("p", { class: "fm-roll-link", dataRollLink: url }, "Open this link to see the same roll: ", link));
    this.rolledSeed = this.rollLog.dataset.stale === "true" ? null : answer.seed;
    this.updateLink();
    if (this.standalone && this.rolledSeed != null) {
      history.replaceState(history.state, "", this.pageUrl(true));
      this.ownSearch = location.search;
    }
    const entry = { id: this.id, seed: String(answer.seed), inputs: Object.entries(answer.changed).map(([k, v]) => `${k}=${v}`).join(" "), result: answer.outcomes.map((o) => o.summary).join("; "), url };
    const history_ = [entry, ...this.readHistory().filter((e) => e.url !== url)].slice(0, HISTORY_LENGTH);
    try {
      sessionStorage.setItem(HISTORY_KEY, JSON.stringify(history_));
    } catch {
      this.memoryHistory = history_; // storage refused (a private window): this page's rolls only
    }
    this.showHistory();
  }

  readHistory() {
    let text;
    try {
      text = sessionStorage.getItem(HISTORY_KEY);
    } catch {
      return this.memoryHistory || []; // storage refused (a private window)
    }
    try {
      return historyEntries(JSON.parse(text || "[]"));
    } catch {
      return []; // not JSON: nothing of it is a roll
    }
  }

  buildHistory() {
    this.historyList = el("ol", { class: "fm-history-list" });
    this.historyBox = el("details", { class: "fm-history", hidden: true }, el("summary", { text: "This tab's rolls with this calculator" }), this.historyList);
    this.showHistory();
    return this.historyBox;
  }

  showHistory() {
    const mine = this.readHistory().filter((e) => e.id === this.id);
    this.historyList.replaceChildren(
      ...mine.map((e) =>
        el(
          "li",
          { class: "fm-history-item", dataSeed: e.seed },
          el("a", { href: e.url, text: `Seed ${e.seed}` }),
          `, ${e.inputs ? e.inputs : "default inputs"}: `,
          el("span", { class: "fm-history-result", text: e.result }),
        ),
      ),
    );
    this.historyBox.hidden = !mine.length;
  }

  // Results for inputs that are not the ones shown stay on screen, dimmed and marked.
  markStale(stale) {
    for (const box of [this.headline, this.summary, this.results, this.stepsBox]) {
      if (stale && this.answer) box.dataset.stale = "true";
      else delete box.dataset.stale;
    }
    if (stale) this.rollLog.dataset.stale = "true";
  }

  // The player left a field or pressed Enter: show the message that waited.
  flushErrors() {
    this.revealErrors = true; // an answer still on its way shows its message at once
    if (!this.pendingErrors) return;
    const pending = this.pendingErrors;
    this.pendingErrors = null;
    if (this.root.dataset.valid === "false") this.showErrors(pending);
  }

  showErrors(answer) {
    if (!answer.error) this.pendingErrors = null;
    const fieldNames = new Set(this.schema.fields.map((f) => f.name));
    const byField = {};
    const general = [];
    for (const { field, message } of answer.error ? answer.fields : []) {
      if (field && (fieldNames.has(field) || field === "seed")) (byField[field] ??= []).push(message);
      else general.push(message);
    }
    if (answer.error && !answer.fields.length) general.push(answer.error);
    for (const name of [...fieldNames, "seed"]) {
      const box = /** @type {HTMLElement | null} */ (this.root.querySelector(`[data-field-error="${CSS.escape(name)}"]`));
      const widget = name === "seed" ? this.seedInput : this.widgets[name];
      const messages = byField[name] || [];
      if (!box) continue; // no seed field on a calculator that rolls no dice
      box.textContent = messages.join(" ");
      box.hidden = !messages.length;
      if (messages.length) widget.setAttribute("aria-invalid", "true");
      else widget.removeAttribute("aria-invalid");
    }
    this.generalErrors.replaceChildren(...general.map((m) => el("p", { text: m })));
    this.generalErrors.hidden = !general.length;
  }

  async roll() {
    if (this.rolling || this.rollButton.disabled) return;
    const seed = this.seedInput.value;
    // The button keeps its focus (Enter again rolls again): it is marked busy, not disabled.
    this.rolling = true;
    this.rollButton.setAttribute("aria-busy", "true");
    this.root.dataset.rolling = "true";
    const seq = this.seq;
    let answer;
    try {
      ({ answer } = await this.engine.call({ op: "answer", id: this.id, inputs: this.inputs(), seed }));
    } catch (error) {
      this.requestFailed(error);
      return;
    } finally {
      this.rolling = false;
      this.rollButton.removeAttribute("aria-busy");
      delete this.root.dataset.rolling;
    }
    if (answer.error) {
      this.showErrors(answer);
      return;
    }
    this.showErrors({});
    renderRoll(this.rollLog, answer);
    this.rollLog.dataset.inputs = JSON.stringify(answer.inputs);
    this.rollLog.dataset.stale = String(seq !== this.seq || this.rollLog.dataset.inputs !== this.lastInputs);
    this.rolled(answer);
    this.live.textContent = answer.summary;
    for (const map of Object.values(this.maps || {})) map.drawOutcomes(answer.outcomes);
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
