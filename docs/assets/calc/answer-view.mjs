// A calculator's answer on the page: the pinned box (the engine's messages,
// the headline and the Exactly / At least / At most switch), every outcome's
// line and chart after the form, the full tables, the readings in force and
// "How it comes about". Shows a typed answer (results.mjs renders it, chart.mjs
// draws it), marks one that no longer answers the inputs shown, and puts a
// message in the headline's place when the inputs have no answer. Computes nothing.

import { renderCharts } from "./chart.mjs";
import { renderUnits } from "./map-units.mjs";
import { MODES, el, hasScale, renderDetails, renderHeadline, renderNotes, renderSteps, renderSummary } from "./results.mjs";

export class AnswerView {
  /**
   * @param {object} options
   * @param {number} options.n the calculator's number on the page (ids)
   * @param {string} options.title the calculator's title (accessible names)
   * @param {boolean} options.rolls whether it rolls dice (no "How it comes about" if not)
   * @param {() => void} options.onMode the switch changed (this.mode)
   */
  constructor({ n, title, rolls, onMode }) {
    this.rolls = rolls;
    /** @type {import("./results.mjs").OutcomesAnswer | null} the answer shown */
    this.answer = null;
    /** @type {number | null} when the answer shown stopped answering the inputs shown (markStale) */
    this.staleSince = null;
    /** @type {import("./results.mjs").Mode} */
    this.mode = "exactly";
    this.engineNote = el("p", { class: "fm-engine", role: "status" });
    this.generalErrors = el("div", { class: "fm-errors", role: "alert", hidden: true });
    this.modeSwitch = el("div", { class: "fm-modes", role: "radiogroup", ariaLabel: "Read the chances as", hidden: true });
    for (const m of MODES) {
      const id = `fm-${n}-mode-${m.name}`;
      const radio = el("input", { type: "radio", name: `fm-${n}-mode`, id, value: m.name, checked: m.name === this.mode });
      radio.addEventListener("change", () => {
        this.mode = m.name;
        if (this.answer) this.showSummary();
        onMode();
      });
      this.modeSwitch.append(el("span", { class: "fm-mode" }, radio, el("label", { htmlFor: id, text: m.label })));
    }
    // The answer's one line first (results.mjs, renderHeadline), pinned with the switch;
    // every outcome's line and chart (chart.mjs) follow in the page.
    this.headline = el("p", { class: "fm-headline" });
    this.headline.setAttribute("elementtiming", "fm-answer");
    // The engine's note under the answer: a page shows the build's answer at once and
    // its engine starts a moment later, and "Starting…" above would push the answer down.
    this.box = el("div", { class: "fm-answer-box", role: "group", ariaLabel: `${title}: the answer` }, this.generalErrors, this.headline, this.modeSwitch, this.engineNote);

    this.summaryList = el("ul", { class: "fm-summary-list" });
    this.live = el("p", { class: "fm-sr fm-live", ariaLive: "polite" });
    this.charts = el("div", { class: "fm-charts", hidden: true });
    this.summary = el("div", { class: "fm-summary", role: "group", ariaLabel: `${title}: every outcome` }, el("p", { class: "fm-summary-title", text: "Every outcome" }), this.summaryList, this.charts, this.live);
    this.results = el("div", { class: "fm-results" });
    this.details = el("details", { class: "fm-details" }, el("summary", { text: "All results: tables, exact fractions, at least and at most" }), this.results);
    this.readings = el("div", { class: "fm-readings", hidden: true });
    this.stepsBox = el("div", { class: "fm-steps" });
    this.stepsDetails = el("details", { class: "fm-details fm-steps-details", hidden: true }, el("summary", { text: "How it comes about: every roll, how often it is made, what it decides" }), this.stepsBox);
  }

  /** @param {import("./results.mjs").OutcomesAnswer} answer a typed answer @param {boolean} comparing compare.mjs writes the headline (A → B) */
  show(answer, comparing) {
    this.answer = answer;
    this.modeSwitch.hidden = !hasScale(answer);
    if (!comparing) this.showHeadline(answer);
    this.showSummary();
    renderDetails(this.results, answer);
    renderNotes(this.readings, answer);
    renderSteps(this.stepsBox, answer);
    this.stepsDetails.hidden = !this.rolls;
    this.live.textContent = answer.summary;
    this.markStale(false);
  }

  // The headline of a typed answer (a comparison's reads A → B).
  /** @param {import("./results.mjs").OutcomesAnswer | import("../../../types/answer.js").CompareAnswer} answer */
  showHeadline(answer) {
    delete this.headline.dataset.error;
    renderHeadline(this.headline, answer);
  }

  // The inputs have no answer: the message stands where the headline was, and
  // (withdraw) the last answer's numbers are taken from view (data-stale="error"),
  // not left readable, dimmed, beside it.
  /** @param {string} text @param {boolean} [withdraw] */
  showProblem(text, withdraw = true) {
    this.headline.replaceChildren(el("span", { class: "fm-headline-problem", text }));
    delete this.headline.dataset.headline;
    this.headline.dataset.error = "true";
    if (!withdraw) return;
    this.markStale("error");
    this.modeSwitch.hidden = true; // nothing to read at least or at most (show() brings it back)
  }

  // A field the focus reaches in `container` partly under the pinned answer
  // (above it on a phone; beside it on a wide screen, where nothing overlaps)
  // scrolls to below it: its scroll margin (calculator.css) is the pinned answer's room.
  /** @param {HTMLElement} container */
  keepClear(container) {
    container.addEventListener("focusin", (event) => {
      const field = /** @type {HTMLElement} */ (event.target);
      const f = field.getBoundingClientRect();
      const a = this.box.getBoundingClientRect();
      if (f.top < a.bottom && f.bottom > a.top && f.left < a.right && a.left < f.right) field.scrollIntoView({ block: "start" });
    });
  }

  // The answer's lines, each marked for the Element Timing API: the benchmark reads
  // when the page first painted an answer (the build's copy of the calculator has
  // the same marks, so the earliest is the copy's where there is one).
  // Called once there is an answer (show, or the switch with one shown).
  showSummary() {
    const answer = /** @type {import("./results.mjs").OutcomesAnswer} */ (this.answer);
    renderSummary(this.summaryList, answer, this.mode);
    renderUnits(this.summaryList, answer); // a map's units: one table (map-units.mjs)
    renderCharts(this.charts, answer, this.mode);
    for (const line of this.summaryList.children) line.setAttribute("elementtiming", "fm-answer");
  }

  /**
   * Results for inputs that are not the ones shown: kept on screen, dimmed and
   * marked (true: while the player types), or withdrawn ("error": the inputs
   * have no answer), or current again (false).
   * @param {boolean | "error"} stale
   */
  markStale(stale) {
    for (const box of [this.headline, this.summary, this.results, this.stepsBox]) {
      if (stale && this.answer && !(box === this.headline && stale === "error")) box.dataset.stale = String(stale);
      else delete box.dataset.stale;
    }
    // The pinned box too, for what it says: the engine's note (view.mjs) tells
    // the player, in words, that the answer shown is for other inputs.
    if (stale === true && this.answer) {
      this.staleSince ??= performance.now();
      this.box.dataset.stale = "true";
    } else {
      this.staleSince = null;
      delete this.box.dataset.stale;
    }
  }

  // Whether the answer shown is for other inputs than those shown (markStale(true)),
  // and since when (performance.now()); null if it is theirs, or none is shown.
  /** @returns {number | null} */
  staleFor() {
    return this.staleSince ?? null;
  }
}
