// A calculator's fields as a form: one widget per field of the schema, with
// its label, help, − / + buttons for a number, the map editor for a map
// (map-grid.mjs), and the boxes its messages go in. Option A (view.mjs) and
// option B (compare.mjs) are each one FieldForm; what a change means is
// theirs (onChange), as is each field's value (value). Knows no rule: the
// bounds the − / + buttons keep to are the schema's. InputsSummary, below,
// says option A's inputs in words and folds its form on a phone.

import { MapGridInput } from "./map-grid.mjs";
import { el } from "./results.mjs";

// The longest value a field other than a map takes from the player: every one of
// them takes a word or a number of a few characters (a map's grid bounds its
// own text: its max_length). A longer value (a paste of a megabyte) is not taken: it
// never reaches the engine, the link or the address.
const VALUE_MAX = 200;

/** @typedef {import("../../../types/calculator.js").FieldSchema} FieldSchema */
/** @typedef {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} Widget a field's widget */

// A value typed or pasted into `widget` that is longer than any value of the
// field is not taken: the widget gets `previous` back and `box`, beside it,
// says why until the field's next change. True if refused.
/** @param {FieldSchema} field @param {Widget} widget @param {string} previous @param {HTMLElement} box */
export function refuseOverLong(field, widget, previous, box) {
  const length = widget.value.length;
  const over = length > (field.type === "map" ? /** @type {number} a map field has its max_length */ (field.max_length) : VALUE_MAX);
  box.hidden = !over;
  box.textContent = over ? `Not taken: ${length} characters is longer than any value of ${field.label}, which keeps its last value.` : "";
  if (over) widget.value = previous;
  return over;
}

// A drop-down shows its choice on one line, and a long label (an Interpretation's reading)
// is cut at its box's edge, on a phone and in a rules page's column alike: then the
// chosen label is written out in full under it, where it wraps (fitChoice).
/** @type {CanvasRenderingContext2D | null} */
let measure = null;

/** Whether the chosen option's label is wider than its drop-down shows. @param {HTMLSelectElement} select */
function choiceCut(select) {
  const option = select.selectedOptions[0];
  if (!option || !select.isConnected || select.clientWidth === 0) return false; // not on show (a phone's folded form): fitted once it shows, by its ResizeObserver
  const style = getComputedStyle(select);
  measure ??= /** @type {CanvasRenderingContext2D} a canvas has a 2d context */ (document.createElement("canvas").getContext("2d"));
  measure.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  // The box's inner width, less the room its arrow takes (about 1.6em in every engine).
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 1.6 * parseFloat(style.fontSize);
  return measure.measureText(option.text).width > room;
}

/** Writes the chosen label out under its drop-down when the drop-down cuts it. @param {HTMLSelectElement} select @param {HTMLElement} full @param {boolean} [cut] */
function fitChoice(select, full, cut = choiceCut(select)) {
  full.hidden = !cut;
  full.textContent = cut ? select.selectedOptions[0].text : "";
}

// Drop-downs to fit: measured when the page is laid out already, so that measuring lays
// out nothing (a ResizeObserver's callback, after layout; or just after a frame is drawn),
// then written. Measured as the page set each value (a link's inputs, an answer's) or
// resized each, each measure laid the page out anew: 0.22 s of a phone's first answer
// (CPU slowed 4 times) on a calculator with option B's form too. A resized drop-down is
// fitted before the paint, not a frame later: a frame later, the labels written out under
// a phone's drop-downs moved the form as it unfolded. One whose value the page set is
// fitted with the next resized ones (a new form's first layout resizes them all), or just
// after the next frame.
/** @type {WeakMap<Element, HTMLElement>} each drop-down's label written out */
const fulls = new WeakMap();
/** @type {Set<HTMLSelectElement>} */
const toFit = new Set();
function fitAll() {
  const measured = [...toFit].map((s) => /** @type {const} */ ([s, choiceCut(s)]));
  toFit.clear();
  for (const [s, cut] of measured) fitChoice(s, /** @type {HTMLElement} every drop-down fitted has one */ (fulls.get(s)), cut);
}
/** @param {HTMLSelectElement} select */
function fitSoon(select) {
  if (!toFit.size) requestAnimationFrame(() => setTimeout(fitAll));
  toFit.add(select);
}
// One observer for every drop-down: those resized in a frame are fitted together.
const resized = new ResizeObserver((entries) => {
  for (const { target } of entries) toFit.add(/** @type {HTMLSelectElement} only drop-downs are observed */ (target));
  fitAll();
});

export class FieldForm {
  /**
   * @param {object} options
   * @param {FieldSchema[]} options.fields the schema's fields
   * @param {string} options.idPrefix the widgets' ids start with it (unique on the page)
   * @param {string} options.prefix before a field's name in data-field, data-field-error and data-field-refused ("" or "vs.")
   * @param {"input" | "vsInput"} options.mark the widget's data attribute holding the field's name
   * @param {string} options.label the form's accessible name
   * @param {string} [options.className] classes besides fm-form
   * @param {(name: string) => string} options.value a field's raw value now
   * @param {(name: string, value: string, typing: boolean) => void} options.onChange
   *   the player changed a field (typing: in a text box, whose text is theirs to keep)
   * @param {boolean} [options.help] with each field's help text
   * @param {boolean} [options.grids] a map field with its map editor (else its text alone)
   * @param {() => void} [options.onLeave] the player left a field or pressed Enter in it
   */
  constructor(options) {
    this.options = options;
    this.fields = options.fields;
    /** @type {Record<string, Widget>} each field's widget, by name */
    this.widgets = {};
    /** @type {Record<string, MapGridInput>} the map fields' editors */
    this.maps = {};
    // A form with a map editor is marked: the map stays out of option A's fold on a phone (InputsSummary).
    const map = options.grids && options.fields.some((f) => f.type === "map") ? " fm-form-map" : "";
    this.element = el("form", { class: `fm-form${options.className ? ` ${options.className}` : ""}${map}`, noValidate: true, ariaLabel: options.label });
    this.element.addEventListener("submit", (event) => event.preventDefault());
    for (const field of this.fields) this.element.append(this.fieldBlock(field));
  }

  /** @param {FieldSchema} field */
  fieldBlock(field) {
    const { idPrefix, prefix, mark, value, onChange, onLeave } = this.options;
    const id = `${idPrefix}-${field.name}`;
    const name = prefix + field.name;
    // No help (option B's form): an empty text node, which Element.append takes as nothing.
    const help = this.options.help ? el("small", { class: "fm-help", id: `${id}-help`, text: field.help }) : document.createTextNode("");
    const error = el("div", { class: "fm-field-error", id: `${id}-error`, dataFieldError: name, role: "alert", hidden: true });
    const refused = el("div", { class: "fm-field-error fm-field-refused", id: `${id}-refused`, dataFieldRefused: name, role: "alert", hidden: true });
    const described = [this.options.help ? `${id}-help` : "", error.id];
    const block = el("div", { class: `fm-field fm-field-${field.type}`, dataField: name });
    const label = el("label", { htmlFor: id, class: "fm-label", text: field.label });
    /** @type {Widget} */
    let widget;

    if (field.type === "bool") {
      widget = el("input", { type: "checkbox", id });
      widget.addEventListener("change", () => onChange(field.name, /** @type {HTMLInputElement} */ (widget).checked ? "true" : "false", false));
      block.append(el("span", { class: "fm-check" }, widget, " ", label), help, error);
    } else if (field.type === "choice") {
      widget = el("select", { id });
      for (const c of /** @type {import("../../../types/calculator.js").Choice[]} a choice field's */ (field.choices)) widget.append(el("option", { value: c.name, text: c.label }));
      // The chosen label in full, for the eye (a screen reader reads the drop-down's own).
      const full = el("span", { class: "fm-choice-full", ariaHidden: "true", hidden: true });
      const select = widget;
      fulls.set(select, full);
      resized.observe(select);
      widget.addEventListener("change", () => {
        fitChoice(select, full); // the player's choice: fitted as it is made
        onChange(field.name, widget.value, false);
      });
      block.append(label, widget, full, help, error);
    } else if (field.type === "map" && this.options.grids) {
      widget = el("textarea", { id, rows: 3, spellcheck: false, autocomplete: "off", class: "fm-map-text" });
      const map = new MapGridInput(field, id, (/** @type {string} */ text) => {
        widget.value = text;
        onChange(field.name, text, true);
      });
      this.maps[field.name] = map;
      widget.addEventListener("input", () => {
        // Longer than any map: not taken (the map says why), so no huge address or answer.
        if (map.refuses(widget.value)) return void (widget.value = value(field.name));
        onChange(field.name, widget.value, true);
        map.setText(widget.value);
      });
      block.append(label, map.element, el("label", { htmlFor: id, class: "fm-map-text-label", text: "As text (the same text goes in links)" }), widget, help, error);
    } else {
      widget = field.type === "map" ? el("textarea", { id, rows: 3, spellcheck: false, autocomplete: "off", class: "fm-map-text" }) : el("input", { type: "text", id, autocomplete: "off", spellcheck: false });
      if (field.type === "int") widget.inputMode = "numeric";
      if (field.type === "number") widget.inputMode = "decimal";
      described.push(refused.id);
      widget.addEventListener("input", () => {
        if (!refuseOverLong(field, widget, value(field.name), refused)) onChange(field.name, widget.value, true);
      });
      if (field.type === "int" || field.type === "number") {
        /** @type {HTMLInputElement} */ (widget).size = 8; // a number's widget is an input
        block.append(label, el("span", { class: "fm-number" }, ...this.steppers(field, widget)), refused, help, error);
      } else {
        block.append(label, widget, refused, help, error);
      }
    }
    widget.setAttribute("aria-describedby", described.filter(Boolean).join(" "));
    widget.dataset[mark] = field.name;
    if (onLeave) {
      widget.addEventListener("change", onLeave);
      widget.addEventListener("blur", onLeave);
      widget.addEventListener("keydown", (/** @type {Event} */ event) => {
        if (/** @type {KeyboardEvent} */ (event).key === "Enter") onLeave();
      });
    }
    this.widgets[field.name] = widget;
    return block;
  }

  // − and + either side of a number's box: one less or one more than its value
  // now, kept within the schema's bounds (a value that is not a number stays).
  /** @param {FieldSchema} field @param {Widget} widget */
  steppers(field, widget) {
    const { value, onChange } = this.options;
    const step = (/** @type {number} */ delta) => {
      const now = Number(value(field.name));
      if (!Number.isFinite(now)) return;
      let next = Math.round((now + delta) * 1e6) / 1e6;
      if (field.min !== undefined && field.min !== null) next = Math.max(Number(field.min), next);
      if (field.max !== undefined && field.max !== null) next = Math.min(Number(field.max), next);
      onChange(field.name, String(next), false);
    };
    const minus = el("button", { type: "button", class: "fm-step", ariaLabel: `${field.label}: one less`, text: "\u2212" });
    const plus = el("button", { type: "button", class: "fm-step", ariaLabel: `${field.label}: one more`, text: "+" });
    minus.addEventListener("click", () => step(-1));
    plus.addEventListener("click", () => step(1));
    return [minus, widget, plus];
  }

  // Show a raw value in its widget, even one the widget cannot hold (from a URL).
  /** @param {string} name @param {string} raw */
  show(name, raw) {
    const field = /** @type {FieldSchema} a name of the form's */ (this.fields.find((f) => f.name === name));
    const widget = this.widgets[name];
    if (field.type === "bool") {
      const word = raw.trim().toLowerCase();
      const box = /** @type {HTMLInputElement} a yes/no field's widget is a checkbox */ (widget);
      box.indeterminate = word !== "true" && word !== "false";
      box.checked = word === "true";
    } else if (field.type === "choice") {
      for (const stray of widget.querySelectorAll("option[data-stray]")) stray.remove();
      const known = /** @type {import("../../../types/calculator.js").Choice[]} */ (field.choices).some((c) => c.name === raw.trim());
      if (!known) widget.append(el("option", { value: raw, text: `${raw} (not allowed)`, dataStray: "true", disabled: true }));
      widget.value = known ? raw.trim() : raw;
      fitSoon(/** @type {HTMLSelectElement} a choice field's widget */ (widget));
    } else {
      widget.value = raw;
      this.maps[name]?.setText(raw);
    }
  }

  // Every drop-down fitted now (one layout): the form has just unfolded (InputsSummary), so
  // that a script scrolling to a field next finds it where it stays; its ResizeObserver
  // would fit them only once the frame is laid out.
  fitNow() {
    for (const widget of Object.values(this.widgets)) if (fulls.has(widget)) toFit.add(/** @type {HTMLSelectElement} a drop-down */ (widget));
    fitAll();
  }

  // The engine's messages, by field name (without the prefix), each beside its field.
  /** @param {Record<string, string[]>} byField */
  showErrors(byField) {
    for (const [name, widget] of Object.entries(this.widgets)) {
      const box = /** @type {HTMLElement} */ (this.element.querySelector(`[data-field-error="${CSS.escape(this.options.prefix + name)}"]`));
      const messages = byField[name] || [];
      box.textContent = messages.join(" ");
      box.hidden = !messages.length;
      if (messages.length) widget.setAttribute("aria-invalid", "true");
      else widget.removeAttribute("aria-invalid");
    }
  }
}

// A field's value in the player's words: a choice's label (the schema's), a yes/no
// field's "yes" or "no", a number or a text as it is. Words only: no rule.
/** @param {FieldSchema} field @param {string} raw */
export function valueWords(field, raw) {
  if (field.type === "choice") return /** @type {import("../../../types/calculator.js").Choice[]} a choice field's */ (field.choices).find((c) => c.name === raw.trim())?.label ?? `${raw} (not allowed)`;
  if (field.type === "bool") {
    const word = raw.trim().toLowerCase();
    return word === "true" ? "yes" : word === "false" ? "no" : `${raw} (not allowed)`;
  }
  return raw === "" ? "not given" : raw;
}

// On a phone, option A's form folds under one button that says its inputs in
// words (the schema's labels, the options' labels): the answer's headline, the
// inputs and Use my dice then share the first screen (calculator.css, "One
// screen at the table"). The button opens and closes the form (aria-expanded);
// a wide screen shows the form whatever the button says, and hides the button.
// A map is the input and the picture of its answer, so it stays out of the
// fold; the button speaks for the other fields. The words name the inputs that
// differ from their defaults and count the rest: a full list of a calculator
// of thirty inputs would be screens long, which is what the fold is for.
export class InputsSummary {
  /**
   * @param {object} options
   * @param {FieldForm} options.form the form it folds (its element gets an id)
   * @param {Record<string, string>} options.defaults each field's text at its default
   * @param {(open: boolean) => void} options.onFold the form opened (true) or folded
   */
  constructor({ form, defaults, onFold }) {
    this.form = form;
    this.defaults = defaults;
    this.onFold = onFold;
    this.open = false;
    form.element.id ||= `${form.options.idPrefix}-form`;
    this.list = el("span", { class: "fm-inputs-list" });
    this.action = el("span", { class: "fm-inputs-action" });
    const words = el("span", { class: "fm-inputs-words" }, el("span", { class: "fm-inputs-title", text: "Inputs: " }), this.list);
    this.element = el("button", { type: "button", class: "fm-inputs-button", ariaExpanded: "false", ariaControls: form.element.id }, words, this.action);
    this.element.addEventListener("click", () => this.setOpen(!this.open));
    this.action.textContent = "Change"; // folded: its owner's layout starts folded (view.mjs)
  }

  /** @param {boolean} open */
  setOpen(open) {
    this.open = open;
    this.element.setAttribute("aria-expanded", String(open));
    this.action.textContent = open ? "Done" : "Change";
    this.onFold(open);
    if (open) this.form.fitNow(); // before anything scrolls to a field: its labels do not move it after
  }

  // The words for the values `value` gives (a field's raw text, by name).
  /** @param {(name: string) => string} value */
  show(value) {
    const fields = this.form.fields.filter((f) => f.type !== "map");
    // A required input not given yet is said too ("not given"), never counted as a default.
    const changed = fields.filter((f) => value(f.name) !== this.defaults[f.name] || (f.default === null && value(f.name) === ""));
    const said = changed.map((f) => `${f.label}: ${valueWords(f, value(f.name))}`);
    const rest = fields.length - changed.length;
    if (!changed.length) said.push(fields.length === 1 ? "at its default" : "every one at its default");
    else if (rest) said.push(rest === 1 ? "the other at its default" : `the other ${rest} at their defaults`);
    this.list.textContent = `${said.join("; ")}. `;
  }
}
