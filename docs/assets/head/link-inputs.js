// Inlined on a calculator's own page right after its article (scripts/hooks/calculator_hooks.py),
// so it runs as soon as the calculator is parsed, long before the page's modules: on a
// slowed phone those came 5 s and more after the first paint, which showed no calculator
// at all under a link's address (flags.js hides the build's copy there: its answer is the
// defaults'). This shows the copy with the link's inputs in its fields, its answer (for
// the defaults) withdrawn unless every input is at its default, and words saying that the
// answer to these inputs is on its way (the copy's classes fm-static-link and
// fm-static-changed, calculator.css); flags.js holds the first paint until this has run. Every kind of
// link: option B's changes (vs.NAME) open the copy's comparison with B's fields as the link
// has them (A's values where it changes nothing), sweep=NAME opens "How it changes" on that
// input, seed= shows the roll's place with the seed and words, dice= says the player's dice
// are being worked out; h (the search's highlight) and sweep_of (the sweep's outcome, the
// live view's to show) change nothing here. A link this cannot show in full (an input the
// copy has not, a choice it does not offer, a name twice) shows none of the copy's fields
// (one of them could show another value) but its words in the answer's place, never a blank
// box (fm-static-wait). The live view takes the fields over as they are (static-copy.mjs: a
// value equal to the address's is not a change). A roll link lands on the roll's place at
// once, held there (roll-log.mjs, view.mjs's land), the rest of the screen kept for it.
(function (html) {
  if (!html.classList.contains("fm-query")) return;
  var copy = document.querySelector(".calculator[data-calculator] > .fm-static");
  if (!copy || document.querySelectorAll(".calculator[data-calculator]").length !== 1) return;
  var params = new URLSearchParams(location.search);
  /** @type {Record<string, boolean>} */
  var seen = {};
  /** @type {[HTMLInputElement | HTMLSelectElement, string][]} option A's fields */
  var fills = [];
  /** @type {Record<string, string>} option B's changes, by input */
  var vs = {};
  /** @type {string | null} */
  var seed = null;
  /** @type {string | null} */
  var dice = null;
  /** @type {HTMLSelectElement | null} "How it changes"'s input, when the link names one it offers */
  var sweep = null;
  var ok = true;
  var NAME = /^[a-z_][a-z0-9_]*$/;
  /** @param {string} selector @returns {Element | null} */
  var find = function (selector) {
    return /** @type {Element} the copy, found above */ (copy).querySelector(selector);
  };
  // Whether `control` can show `value` as the live form would: a choice it offers, yes or no, a text.
  /** @param {Element | null} control @param {string} value */
  var takes = function (control, value) {
    if (control instanceof HTMLSelectElement) return Array.prototype.some.call(control.options, function (/** @type {HTMLOptionElement} */ o) { return o.value === value; });
    return control instanceof HTMLInputElement && (control.type === "checkbox" ? value === "true" || value === "false" : control.type === "text");
  };
  /** @param {Element} control @param {string} value */
  var put = function (control, value) {
    if (control instanceof HTMLInputElement && control.type === "checkbox") control.checked = value === "true";
    else /** @type {HTMLInputElement} a text box or a drop-down (takes) */ (control).value = value;
  };
  params.forEach(function (value, name) {
    if (seen[name] || value.length > 200) return void (ok = false);
    seen[name] = true;
    if (name === "h" || name === "sweep_of") return;
    if (name === "seed") return void (seed = value);
    if (name === "dice") return void (dice = value);
    if (name === "sweep") {
      var select = /** @type {HTMLSelectElement | null} */ (find(".fm-sweep-select"));
      // An input it cannot sweep: the live view leaves "How it changes" closed too.
      if (select && value && NAME.test(value) && takes(select, value)) sweep = select;
      return;
    }
    var b = name.slice(0, 3) === "vs." ? name.slice(3) : null;
    var input = b === null ? name : b;
    var control = NAME.test(input) ? find(b === null ? '[name="' + input + '"]' : '.fm-compare-form [id$="-vs-' + input + '"]') : null;
    if (!control || (b === null && control.closest(".fm-compare-box, .fm-own-dice")) || !takes(control, value)) return void (ok = false);
    if (b === null) fills.push([/** @type {HTMLInputElement} takes says */ (control), value]);
    else vs[input] = value;
  });
  var compare = Object.keys(vs).length > 0;
  // Every input of the link at its default, the player's dice not asked for: the copy's
  // answer is the link's (a seed, option B or a sweep add to it), and it stays.
  var answered = ok && dice === null && fills.every(function (fill) {
    var control = fill[0];
    if (control instanceof HTMLSelectElement) return Array.prototype.some.call(control.options, function (/** @type {HTMLOptionElement} */ o) { return o.defaultSelected && o.value === fill[1]; });
    return control.type === "checkbox" ? control.defaultChecked === (fill[1] === "true") : control.defaultValue === fill[1];
  });
  var note = /** @type {HTMLElement | null} */ (find(".fm-answer-box .fm-engine"));
  if (note && !answered) {
    note.textContent = ok
      ? "Working out the answer to these inputs" + (compare ? " and to option B" : dice !== null ? " and to your dice" : "") + ": the calculator is loading\u2026"
      : "Working out the answer to this link: the calculator is loading\u2026";
    note.hidden = false;
  }
  if (!ok) return void copy.classList.add("fm-static-wait");
  fills.forEach(function (fill) {
    put(fill[0], fill[1]);
    // Option B follows option A where the link changes nothing of B's.
    var twin = fill[0].name in vs ? null : find('.fm-compare-form [id$="-vs-' + fill[0].name + '"]');
    if (twin) put(twin, fill[1]);
  });
  if (compare) {
    Object.keys(vs).forEach(function (input) {
      var control = /** @type {Element} found above */ (find('.fm-compare-form [id$="-vs-' + input + '"]'));
      put(control, vs[input]);
      var field = control.closest(".fm-field");
      if (field) field.classList.add("fm-changed");
    });
    var panel = /** @type {HTMLElement | null} */ (find(".fm-compare"));
    var toggle = find(".fm-compare-button");
    if (panel) panel.hidden = false;
    if (toggle) {
      toggle.textContent = "Stop comparing";
      toggle.setAttribute("aria-expanded", "true");
    }
    copy.classList.add("fm-static-vs");
    var root = /** @type {Element} the copy's root */ (copy.parentElement);
    root.classList.add("fm-comparing");
  }
  var swept = /** @type {HTMLSelectElement | null} set in the loop above */ (sweep);
  if (swept) {
    swept.value = /** @type {string} the link's, taken above */ (params.get("sweep"));
    var details = /** @type {HTMLDetailsElement | null} */ (swept.closest("details"));
    var status = find(".fm-sweep-status");
    if (details) details.open = true;
    if (status) status.textContent = "Working out every value\u2026";
  }
  copy.classList.add("fm-static-link");
  if (!answered) copy.classList.add("fm-static-changed");
  // A roll link (seed=): the roll's place, with the seed and words, and the page lands
  // there at once (the place reserved for the roll, calculator.css), not at its top to
  // jump there later. The live view holds the same place (roll-log.mjs, view.mjs's land).
  var log = /** @type {HTMLElement | null} */ (seed !== null ? find(".fm-roll-log") : null);
  var box = /** @type {HTMLInputElement | null} */ (find("input.fm-seed"));
  if (log && seed !== null) {
    if (box) box.value = seed;
    var wait = document.createElement("p");
    wait.className = "fm-roll-wait";
    wait.textContent = "Rolling with seed " + seed + ": the roll shows here as soon as the calculator has worked it out\u2026";
    log.replaceChildren(wait);
    log.hidden = false;
    log.scrollIntoView({ block: "start" });
  }
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
