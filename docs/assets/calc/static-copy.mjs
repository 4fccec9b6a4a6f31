// The build's work in a calculator's page: the answers it embedded (defaults
// and examples, scripts/hooks/calculator_hooks.py), and its copy of the calculator
// (scripts/build/render_calculators.py), woken as soon as the page is parsed
// (calculator.mjs: wakeCopy; failCopy if the form code cannot load) and taken
// over by the live view with what the player did there before it came.

/** @typedef {import("../../../types/answer.js").OddsAnswer} OddsAnswer */

// The answers the build embedded in the calculator (defaults and examples), or none.
/** @param {HTMLElement} root @returns {OddsAnswer[]} */
export function readPrerendered(root) {
  const block = /** @type {HTMLElement | null} */ (root.querySelector(".fm-prerendered[data-answers]"));
  if (!block) return [];
  try {
    return JSON.parse(/** @type {string} */ (block.dataset.answers)); // the selector asks for it
  } catch {
    return []; // a damaged block: the engine answers instead
  }
}

// The embed's link and description: the root's own, or in the build's copy (which goes).
/** @param {HTMLElement} root */
export function introNodes(root) {
  const copied = root.querySelector(":scope > .fm-static > .fm-intro")?.childNodes || [];
  // A text node's textContent is a string; matches is an element's (the ?. passes the rest).
  return [...root.childNodes, ...copied].filter((n) => (n.nodeType !== Node.TEXT_NODE || /** @type {string} */ (n.textContent).trim()) && !(/** @type {Element} */ (n)).matches?.(".fm-prerendered, .fm-static"));
}

// The build's answer for exactly these inputs (every field's text equal), if it made one.
/**
 * @param {OddsAnswer[]} prerendered @param {import("../../../types/calculator.js").FieldSchema[]} fields
 * @param {Record<string, string>} raw @param {Record<string, string[]> | null} repeated a link's names given twice
 */
export function builtAnswer(prerendered, fields, raw, repeated) {
  if (Object.keys(repeated || {}).length) return null; // the engine says what is wrong with the link
  return prerendered.find((doc) => fields.every((f) => doc.inputs[f.name] === raw[f.name])) || null;
}

// The build's copy of this calculator and what the player did with it before
// this script arrived: fields changed from the copy's values (read by their
// names, against the values the copy was built with), the seed, the way of
// reading chances, which sections were open, and the field that has the
// focus. Read before the view replaces the copy; null if there is none.
/** @param {HTMLElement} root @param {import("../../../types/calculator.js").CalculatorSchema} schema */
export function readStatic(root, schema) {
  const copy = root.querySelector(":scope > .fm-static");
  if (!copy) return null;
  /** @type {Record<string, string>} */
  const typed = {};
  /** @param {HTMLInputElement} widget an input, or a select (told by its tag) */
  const changedValue = (widget) => {
    if (widget.type === "checkbox") return widget.checked === widget.defaultChecked ? null : String(widget.checked);
    if (widget.tagName === "SELECT") return [.../** @type {HTMLSelectElement} */ (/** @type {Element} */ (widget)).options].some((o) => o.selected !== o.defaultSelected) ? widget.value : null;
    return widget.value === widget.defaultValue ? null : widget.value;
  };
  for (const f of schema.fields) {
    const widget = /** @type {HTMLInputElement | null} */ (copy.querySelector(`[name="${CSS.escape(f.name)}"]`));
    const value = widget && changedValue(widget);
    if (value !== null && value !== undefined) typed[f.name] = value;
  }
  const seed = /** @type {HTMLInputElement | null} */ (copy.querySelector("input.fm-seed"));
  const mode = /** @type {HTMLInputElement | null} */ (copy.querySelector(".fm-modes input:checked"));
  const active = copy.contains(document.activeElement) ? /** @type {HTMLInputElement} */ (document.activeElement) : null;
  return {
    typed,
    seed: seed && seed.value !== seed.defaultValue ? seed.value : null,
    mode: mode && !mode.defaultChecked ? mode.value : null,
    open: [...copy.querySelectorAll("details")].map((d) => d.open),
    focus: active && { name: active.name || (active.matches(".fm-seed") ? "seed" : null), start: active.selectionStart, end: active.selectionEnd },
  };
}

/**
 * What the player did with the build's copy (readStatic), done again in the
 * live view as if they had done it there.
 * @param {import("./view.mjs").CalculatorView} view
 * @param {NonNullable<ReturnType<typeof readStatic>>} copy
 */
export function takeOver(view, { typed, seed, mode, open, focus }) {
  if (mode) /** @type {HTMLInputElement | null} */ (view.answerView.modeSwitch.querySelector(`input[value="${CSS.escape(mode)}"]`))?.click();
  const details = [...view.root.querySelectorAll("details")];
  if (details.length === open.length) details.forEach((d, i) => (d.open = open[i]));
  if (seed !== null) view.rolls?.typeSeed(seed);
  // A field that holds what the address asks (the link's inputs, put there by
  // docs/assets/head/link-inputs.js) is no change: the view has it already.
  for (const [name, value] of Object.entries(typed)) if (view.raw[name] !== value) view.changed(name, value);
  const widget = focus && (focus.name === "seed" ? view.rolls?.seedInput : view.form.widgets[/** @type {string} null names no widget */ (focus.name)]);
  if (!widget) return;
  widget.focus();
  const box = /** @type {Partial<HTMLInputElement>} a drop-down has no setSelectionRange (typeof tells) */ (widget);
  if (typeof focus.start === "number" && typeof box.setSelectionRange === "function") box.setSelectionRange(focus.start, focus.end);
}

// The copy answers its default inputs alone, and its controls come disabled
// (class fm-inert): with scripts off, or before this module runs, it shows
// the answer to the inputs it shows and takes no other. This module enables
// them, so that the player can start before the form code (view.mjs) has
// arrived, which takes over what they did; the copy's answer is withdrawn at
// their first change (its note says the calculator is loading). Should the form
// code or the calculators' list fail to load (an error of the import or the
// fetch: no time limit guesses it), the copy goes back to the inputs it
// answers, disabled, with the message first in its answer box, in view.
export const COPY = ":scope > .fm-static";
const CONTROLS = "input, select, textarea, button";

/** @param {Element} copy @param {string} text */
function copyNote(copy, text) {
  const note = /** @type {HTMLElement | null} */ (copy.querySelector(".fm-answer-box .fm-engine"));
  if (!note) return;
  note.textContent = text;
  note.hidden = !text;
}

/** @param {HTMLElement} root */
export function wakeCopy(root) {
  const copy = /** @type {HTMLElement | null} */ (root.querySelector(COPY));
  if (!copy || copy.dataset.awake) return;
  copy.dataset.awake = "true";
  for (const control of /** @type {NodeListOf<HTMLInputElement>} */ (copy.querySelectorAll(".fm-inert"))) control.disabled = false;
  /** @param {Event} event */
  const changed = (event) => {
    const target = /** @type {Element} an element, or a node without matches (?.) */ (event.target);
    if (!target.matches?.(CONTROLS) || copy.classList.contains("fm-static-failed")) return;
    if (target.closest(".fm-roll-box")) return; // the seed, Use my dice: no input changes
    copy.classList.add("fm-static-changed");
    copy.classList.remove("fm-static-words"); // the inputs' words (a link's) are no longer those shown
    copyNote(copy, "The calculator is still loading: its answer to these inputs shows once it has.");
  };
  copy.addEventListener("input", changed);
  copy.addEventListener("change", changed);
  // The inputs' button (form.mjs, InputsSummary) opens and folds the copy's form on a phone as
  // the live one's does; the live view keeps it open (view.mjs).
  for (const button of copy.querySelectorAll(".fm-inputs-button")) {
    button.addEventListener("click", () => {
      const open = button.getAttribute("aria-expanded") !== "true";
      button.setAttribute("aria-expanded", String(open));
      button.closest(".fm-layout")?.classList.toggle("fm-folded", !open);
    });
  }
}

/** @param {Element} copy @param {string} message */
export function failCopy(copy, message) {
  // Inputs, selects, textareas and buttons, told apart by their type and tag.
  for (const control of /** @type {NodeListOf<HTMLInputElement>} */ (copy.querySelectorAll(CONTROLS))) {
    if (control.type === "checkbox" || control.type === "radio") control.checked = control.defaultChecked;
    else if (control.tagName === "SELECT") for (const option of /** @type {HTMLSelectElement} */ (/** @type {Element} */ (control)).options) option.selected = option.defaultSelected;
    else if (control.tagName !== "BUTTON") control.value = control.defaultValue;
    if (control.classList.contains("fm-inert")) control.disabled = true;
  }
  copy.classList.remove("fm-static-changed");
  copy.classList.add("fm-static-failed");
  copyNote(copy, "");
  const box = /** @type {HTMLElement | null} */ (copy.querySelector(".fm-answer-box .fm-errors"));
  const query = document.documentElement.classList.contains("fm-query") ? ", not those in the address" : "";
  const text = `${message} It shows its answer to its default inputs${query}, and cannot answer others: reload the page to try again.`;
  if (box) {
    const note = document.createElement("p");
    note.className = "fm-copy-failed";
    note.textContent = text;
    box.replaceChildren(note);
    box.hidden = false;
  }
  return box ? null : text;
}
