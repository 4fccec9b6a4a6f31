// Inlined on a calculator's own page right after its article (scripts/hooks/calculator_hooks.py),
// so it runs as soon as the calculator is parsed, long before the page's modules: on a
// slowed phone those came 5 s and more after the first paint, which showed no calculator
// at all under a link's address (flags.js hides the build's copy there: its answer is the
// defaults'). This shows the copy with the link's inputs in its fields, its answer (for
// the defaults) withdrawn, and words saying that the answer to these inputs is on its way
// (the copy's classes fm-static-link and fm-static-changed, calculator.css). A link that
// asks for anything else (a seed, dice, option B, a sweep, an input the copy has not, a
// choice it does not offer, a name twice) leaves the copy hidden, as before: it is shown
// with the link's values, or not at all. The live view takes the fields over as they are
// (static-copy.mjs: a value equal to the address's is not a change). A roll link lands on
// the roll's place at once (roll-log.mjs holds it, and the roll shows there).
(function (html) {
  if (!html.classList.contains("fm-query")) return;
  var copy = document.querySelector(".calculator[data-calculator] > .fm-static");
  if (!copy || document.querySelectorAll(".calculator[data-calculator]").length !== 1) return;
  var params = new URLSearchParams(location.search);
  /** @type {Record<string, boolean>} */
  var seen = {};
  /** @type {[HTMLInputElement | HTMLSelectElement, string][]} */
  var fills = [];
  var ok = true;
  // A roll link (seed=): the page lands at once where the roll will show (the copy's roll
  // log, in its place: the copy is hidden, not gone), not at its top to jump there later.
  /** @type {HTMLElement | null} */
  var log = params.has("seed") ? copy.querySelector(".fm-roll-log") : null;
  if (log) {
    log.hidden = false;
    log.scrollIntoView({ block: "start" });
  }
  params.forEach(function (value, name) {
    /** @type {Element | null} */
    var control = !seen[name] && /^[a-z_][a-z0-9_]*$/.test(name) && value.length <= 200 ? /** @type {Element} the copy, found above */ (copy).querySelector('[name="' + name + '"]') : null;
    seen[name] = true;
    if (!control || control.closest(".fm-compare-box, .fm-own-dice")) return void (ok = false);
    if (control instanceof HTMLSelectElement) {
      if (!Array.prototype.some.call(control.options, function (/** @type {HTMLOptionElement} */ o) { return o.value === value; })) return void (ok = false);
    } else if (!(control instanceof HTMLInputElement) || (control.type === "checkbox" ? value !== "true" && value !== "false" : control.type !== "text")) {
      return void (ok = false);
    }
    fills.push([control, value]);
  });
  if (!ok || !fills.length) return;
  fills.forEach(function (fill) {
    var control = fill[0];
    if (control instanceof HTMLInputElement && control.type === "checkbox") control.checked = fill[1] === "true";
    else control.value = fill[1];
  });
  /** @type {HTMLElement | null} */
  var note = copy.querySelector(".fm-answer-box .fm-engine");
  if (note) {
    note.textContent = "Working out the answer to these inputs: the calculator is loading\u2026";
    note.hidden = false;
  }
  copy.classList.add("fm-static-link", "fm-static-changed");
  // On a phone the form is folded under its inputs' button (calculator.css): its words, the
  // copy's defaults', become the link's, as the live view words them (form.mjs, InputsSummary:
  // the fields whose value is not the default, by label, then how many others are).
  /** @type {HTMLElement | null} */
  var list = copy.querySelector(".fm-inputs-list");
  if (!list) return;
  /** @type {string[]} */
  var said = [];
  var fields = copy.querySelectorAll(".fm-layout > .fm-form > .fm-field:not(.fm-field-map)");
  Array.prototype.forEach.call(fields, function (/** @type {HTMLElement} */ field) {
    /** @type {HTMLInputElement | HTMLSelectElement | null} */
    var control = field.querySelector("[name]");
    var label = field.querySelector(".fm-label");
    if (!control || !label) return;
    if (control instanceof HTMLSelectElement) {
      var chosen = control.options[control.selectedIndex];
      if (chosen && !chosen.defaultSelected) said.push(label.textContent + ": " + chosen.text);
    } else if (control.type === "checkbox") {
      if (control.checked !== control.defaultChecked) said.push(label.textContent + ": " + (control.checked ? "yes" : "no"));
    } else if (control.value !== control.defaultValue) said.push(label.textContent + ": " + control.value);
  });
  var rest = fields.length - said.length;
  if (!said.length) said.push(fields.length === 1 ? "at its default" : "every one at its default");
  else if (rest) said.push(rest === 1 ? "the other at its default" : "the other " + rest + " at their defaults");
  list.textContent = said.join("; ") + ". ";
  copy.classList.add("fm-static-words");
})(document.documentElement);
