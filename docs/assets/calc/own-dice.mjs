// "Use my dice": one calculator's procedure resolved with the dice the player
// rolled at the table, one roll at a time. The engine does it all (the answer
// op with `dice`, rules_py.answer.Resolution): the next roll it needs, in the
// roll log's words; the odds of every outcome given the dice so far; once
// every roll is in, the outcomes as a roll gives them. This module shows what
// it says, keeps the dice text (the link's dice=), and knows no rule.
//
// DOM contract: the root [data-resolve="need" | "done"]; while it needs a
// roll, [data-need-label] (the label) and [data-need-faces] (faces per die);
// when done, [data-roll-outcome][data-value] per outcome; the odds of what
// happens next as the usual [data-outcome][data-value][data-p] cells; the
// trail [data-given] per die; Keep in play [data-keep]. While dice wait for
// an engine that is still starting, the root says data-resolve="waiting" and
// shows no odds: those shown before were for fewer dice.
//
// The first prompt needs no engine where the build embedded it: the
// resolution with no dice at the calculator's defaults (data-first-roll,
// scripts/hooks/calculator_hooks.py), whose odds are the default answer's. The
// build's copy of the page draws it closed (scripts/build/render_calculators.py),
// its Use my dice a checkbox and its faces radio buttons, which work before
// this module has come: what the player chose there is taken over here.

import { KeptMission } from "./kept-mission.mjs";
import { MAX_DICE_TEXT } from "./missions.mjs";
import { el, renderDetails, renderSummary } from "./results.mjs";
import { dieItem } from "./roll-log.mjs";

/** @typedef {import("./view.mjs").CalculatorView} View @typedef {import("../../../types/answer.js").ResolveAnswer} ResolveAnswer */

// The engine reads at most so many entries (rules_py/given.py, MAX_ENTRIES), which
// calculators.json gives as the calculator's max_dice: more, or a longer text than the
// page keeps (missions.mjs, MAX_DICE_TEXT), is refused here, before it costs a request,
// a link or an address.

/**
 * Why a dice text is refused before it reaches the engine, or "".
 * @param {string} text
 * @param {number | undefined} maxDice the calculator's max_dice (calculators.json); none: the engine alone decides
 */
export function diceTextProblem(text, maxDice) {
  if (text.length > MAX_DICE_TEXT) return `Not taken: ${text.length} characters of dice is more than any procedure reads.`;
  const entries = text.split(",").length;
  if (maxDice !== undefined && entries > maxDice) return `Not taken: ${entries} dice is more than the ${maxDice} a procedure may be given.`;
  return "";
}

// "Use my dice"'s first prompt at the defaults, as the build embedded it, with the
// default answer's odds and notes (the build left them out: with no dice they are
// the same, which it checks), or null.
/** @param {View} view @returns {ResolveAnswer | null} */
function readFirstRoll(view) {
  const block = /** @type {HTMLElement | null} */ (view.root.querySelector(".fm-prerendered[data-first-roll]"));
  if (!block) return null;
  let first;
  try {
    first = JSON.parse(/** @type {string} */ (block.dataset.firstRoll)); // the selector asks for it
  } catch {
    return null; // a damaged block: the engine answers instead
  }
  if (!first || first.status !== "need" || !first.need || !first.inputs) return null;
  const plain = view.prerendered.find((doc) => JSON.stringify(doc.inputs) === JSON.stringify(first.inputs));
  return plain ? { ...first, outcomes: plain.outcomes, notes: plain.notes } : null;
}

// What the player chose in the build's copy before this module came: Use my dice
// opened (then the dice chosen: a face, or a pool's score), or null.
/** @param {HTMLElement} root @returns {string[][] | null} */
function readCopy(root) {
  const copy = root.querySelector(":scope > .fm-static:not(.fm-static-failed)");
  if (!copy?.querySelector(".fm-own-dice-open:checked")) return null;
  const face = /** @type {HTMLInputElement | null} */ (copy.querySelector(".fm-own-dice .fm-face-button input:checked"));
  const score = /** @type {HTMLSelectElement | null} */ (copy.querySelector(".fm-own-dice .fm-score-select"));
  if (face) return [[face.value]];
  return score?.value ? [[`=${score.value}`]] : [];
}

export class OwnDice {
  /**
   * @param {View} view the calculator's view (view.mjs): its engine, id, schema, inputs(), n
   */
  constructor(view) {
    this.view = view;
    this.rolls = /** @type {string[][]} */ ([]); // the entries so far, one list per roll (a pool's faces are one roll)
    /** @type {string[] | null} */
    this.repeated = null; // every dice= of a link that gave it more than once (sent as it came: the engine refuses it)
    this.refused = /** @type {string | null} */ (null); // a link's dice= longer than any procedure reads: kept in the address, not sent
    this.pending = /** @type {string[]} */ ([]); // the faces of a pool entered so far, sent once every die of it is in
    this.active = false;
    this.seq = 0;
    this.notice = "";
    /** @type {ResolveAnswer | undefined} */
    this.doc = undefined; // the resolution shown
    this.button = el("button", { type: "button", class: "md-button fm-own-dice-button", text: "Use my dice", ariaExpanded: "false" });
    this.button.addEventListener("click", () => (this.active ? this.close() : this.open([])));
    this.first = readFirstRoll(view);
    const n = this.view.n;
    this.headline = el("p", { class: "fm-resolve-headline", role: "status" });
    this.message = el("p", { class: "fm-resolve-message", role: "alert", dataFieldError: "dice", hidden: true });
    this.needLabel = el("strong", { class: "fm-need-label" });
    this.needDice = el("span", { class: "fm-need-dice" });
    this.faces = el("div", { class: "fm-face-buttons", role: "group" });
    this.scores = el("select", { class: "fm-score-select", id: `fm-${n}-scores` });
    this.scores.addEventListener("change", () => {
      if (this.scores.value) this.enter([`=${this.scores.value}`]);
    });
    this.scoreBox = el("p", { class: "fm-score-box", hidden: true }, el("label", { htmlFor: this.scores.id, text: "Or what the pool scored: " }), this.scores);
    this.pendingText = el("p", { class: "fm-pending", ariaLive: "polite", hidden: true });
    this.need = el("div", { class: "fm-need" }, el("p", { class: "fm-need-head" }, "Next roll: ", this.needLabel, " ", this.needDice), this.faces, this.pendingText, this.scoreBox);
    this.oddsTitle = el("p", { class: "fm-resolve-odds-title", text: "What happens next, given the dice so far" });
    this.summary = el("ul", { class: "fm-summary-list fm-resolve-summary" });
    this.tables = el("div", { class: "fm-resolve-tables" });
    this.odds = el("div", { class: "fm-resolve-odds" }, this.oddsTitle, this.summary, el("details", { class: "fm-details" }, el("summary", { text: "Exact fractions" }), this.tables));
    this.outcomes = el("dl", { class: "fm-roll-outcomes fm-resolve-outcomes", hidden: true });
    this.trail = el("ol", { class: "fm-dice fm-trail" });
    this.trailBox = el("div", { class: "fm-trail-box", hidden: true }, el("p", { class: "fm-trail-title", text: "Your dice so far" }), this.trail);
    this.undoButton = el("button", { type: "button", class: "md-button fm-undo", text: "Undo", disabled: true });
    this.undoButton.addEventListener("click", () => this.undo());
    this.clearButton = el("button", { type: "button", class: "md-button fm-clear", text: "Start again", disabled: true });
    this.mission = new KeptMission(this); // Keep in play, its name and what became of it
    this.clearButton.addEventListener("click", () => this.mission.startAgain());
    this.command = el("code", { class: "fm-resolve-command" });
    this.keepButton = this.mission.button;
    // Undo, Keep in play and Start again (well apart) first: nothing above them changes
    // as dice are entered, so they stay where the thumb found them, tap after tap.
    // The prompt and its faces next, then the odds and the trail; the mission's name at the foot.
    this.actions = el("div", { class: "fm-resolve-actions" }, this.undoButton, this.keepButton, this.clearButton);
    this.element = el(
      "section",
      { class: "fm-own-dice", ariaLabel: `${this.view.schema.title}: my own dice`, hidden: true },
      this.actions,
      this.headline,
      this.message,
      this.need,
      this.outcomes,
      this.mission.status,
      this.odds,
      this.trailBox,
      (this.check = el("p", { class: "fm-resolve-check" }, "Anyone can check it: ", this.command)),
      this.mission.box,
    );
    // Opened in the build's copy: opened here once the view is built (a link's dice come first).
    const chosen = readCopy(view.root);
    if (chosen)
      queueMicrotask(() => {
        if (!this.active) this.open(chosen);
      });
  }

  // The dice a link carried (dice=): resolved at once, or refused if longer than any procedure reads.
  // The text goes to the engine as it is, one entry a comma (no entry dropped, none
  // trimmed): its parser, the CLI's, decides what it takes, and its message shows here.
  // A link that gives dice= more than once (`all`, every text) opens with no dice: the
  // engine is sent them all, and refuses them as the CLI refuses --dice given twice.
  /** @param {string} text @param {string[] | null} [all] */
  fromAddress(text, all = null) {
    const problem = all ? "" : diceTextProblem(text, this.view.schema.max_dice);
    this.notice = problem; // said once the engine has answered for no dice
    this.mission.fromLink = true;
    this.open(problem || all || text === "" ? [] : text.split(",").map((e) => [e]), all, problem ? text : null);
  }

  get text() {
    return this.rolls.flat().join(",");
  }

  /** The dice= the link carries (a link's that were refused, as it gave them), or null when the player is not using their own dice. */
  param() {
    return this.active ? (this.refused ?? this.text) : null;
  }

  /** @param {string[][]} rolls @param {string[] | null} [repeated] @param {string | null} [refused] */
  open(rolls, repeated = null, refused = null) {
    this.active = true;
    this.element.hidden = false;
    this.view.root.dataset.ownDice = "true"; // the stylesheet lets the plain odds scroll away on a phone
    this.button.setAttribute("aria-expanded", "true");
    this.set(rolls, repeated, refused);
  }

  close() {
    this.active = false;
    this.seq++;
    this.mission.closed();
    this.element.hidden = true;
    delete this.element.dataset.resolve;
    delete this.view.root.dataset.ownDice;
    this.button.setAttribute("aria-expanded", "false");
    this.view.compareChanged(); // the link and the address drop dice=
  }

  /** @param {string} text */
  say(text) {
    this.message.textContent = text;
    this.message.hidden = !text;
  }

  // One more roll (its entries: a face, a pool's faces, or "=2/1" for a pool's score).
  /** @param {string[]} roll */
  enter(roll) {
    this.set([...this.rolls, roll]);
  }

  // A face of a pool: kept here until every die of the pool is in.
  /** @param {string} face @param {number} count */
  enterFace(face, count) {
    this.pending.push(face);
    if (this.pending.length < count) return this.showPending();
    const roll = this.pending;
    this.pending = [];
    this.enter(roll);
  }

  showPending() {
    this.pendingText.hidden = !this.pending.length;
    this.pendingText.textContent = this.pending.length ? `This roll so far: ${this.pending.join(", ")}` : "";
    this.undoButton.disabled = !this.rolls.length && !this.pending.length && !this.mission.before.length;
  }

  // Undo: the last face of a pool being entered, or else the last roll, or else Start again.
  undo() {
    if (this.pending.length) {
      this.pending.pop();
      return this.showPending();
    }
    if (!this.rolls.length && this.mission.undoStart()) return;
    this.set(this.rolls.slice(0, -1));
  }

  // The dice are these rolls: a die more than any procedure reads is refused with a
  // message, and the dice and the address stay as they were.
  /** @param {string[][]} rolls @param {string[] | null} [repeated] @param {string | null} [refused] */
  set(rolls, repeated = null, refused = null) {
    const problem = diceTextProblem(rolls.flat().join(","), this.view.schema.max_dice);
    if (problem) return this.say(problem);
    this.repeated = repeated; // a link's dice= given more than once, until the player enters a die or starts again
    this.refused = refused; // likewise a link's refused dice=
    this.rolls = rolls;
    this.pending = [];
    this.showPending();
    this.mission.diceChanged();
    this.view.compareChanged(); // the link and the address carry the dice
    this.resolve();
  }

  // The inputs changed (view.mjs): the same dice, resolved for the new ones.
  inputsChanged() {
    this.mission.inputsChanged();
    if (this.active) this.resolve();
  }

  // The build's first prompt, if it is the answer for the inputs and dice shown (none yet).
  builtAnswer() {
    if (this.rolls.length || this.repeated || !this.first) return null;
    const built = this.view.prerenderedFor(this.view.raw);
    return built && JSON.stringify(built.inputs) === JSON.stringify(this.first.inputs) ? this.first : null;
  }

  async resolve() {
    const seq = ++this.seq;
    this.clearButton.disabled = !this.rolls.length && !this.repeated && !this.refused;
    const built = this.builtAnswer();
    if (built) {
      delete this.element.dataset.busy;
      this.say(this.notice || "");
      this.notice = "";
      return this.show(built);
    }
    this.element.dataset.busy = "true";
    if (this.view.engine.state !== "ready") this.waiting();
    /** @type {ResolveAnswer | import("../../../types/calculator.js").EngineError} */
    let answer;
    try {
      ({ answer } = await this.view.engine.call("resolve", { id: this.view.id, inputs: this.view.inputs(), dice: this.repeated ?? this.text }, { key: `resolve ${this.view.n}` }));
    } catch (error) {
      if (seq === this.seq && /** @type {{kind?: string}} */ (error).kind !== "superseded") {
        delete this.element.dataset.busy;
        if (this.element.dataset.resolve === "waiting") {
          this.element.dataset.resolve = "error";
          this.headline.textContent = "";
        }
        this.say(/** @type {Error} */ (error).message);
      }
      return;
    }
    if (seq !== this.seq) return; // more dice came meanwhile
    delete this.element.dataset.busy;
    if ("error" in answer) {
      const dice = answer.fields.filter((f) => f.field === "dice").map((f) => f.message);
      // The engine's messages end without a full stop (they are the CLI's error lines too).
      this.say(dice.length ? `${dice.join("; ")}. Undo it, or start again.` : "These inputs are not valid: the calculator above says why.");
      if (this.element.dataset.resolve === "waiting") this.headline.textContent = ""; // the engine is up: it was "starting"
      this.element.dataset.resolve = "error";
      this.keepButton.disabled = true;
      this.withdraw(); // what showed was for other dice or inputs
      return;
    }
    this.say(this.notice || "");
    this.notice = "";
    this.show(answer);
  }

  // Dice the engine has not answered yet, and it is starting: what they do is not
  // known, so neither the prompt nor the odds before them stay (they were for fewer dice).
  waiting() {
    this.element.dataset.resolve = "waiting";
    this.keepButton.disabled = true;
    this.withdraw();
    this.headline.textContent = this.rolls.length
      ? `Your dice so far: ${this.text}. The calculator engine is starting: what they do shows as soon as it is up.`
      : "The calculator engine is starting: the first roll shows as soon as it is up.";
  }

  // No prompt, no odds, no outcomes: they were for other dice or inputs.
  withdraw() {
    delete this.need.dataset.needLabel;
    delete this.need.dataset.needFaces;
    delete this.need.dataset.needCount;
    this.need.hidden = true;
    this.odds.hidden = true;
    this.outcomes.hidden = true;
    this.check.hidden = true; // its command was for the dice before
  }

  /** @param {ResolveAnswer} doc */
  show(doc) {
    this.doc = doc;
    this.regroup(doc.given);
    const done = doc.status === "done";
    this.element.dataset.resolve = doc.status;
    this.element.dataset.dice = doc.dice_text;
    this.headline.textContent = doc.headline;
    this.command.textContent = doc.command;
    this.need.hidden = done;
    this.odds.hidden = done;
    this.check.hidden = false;
    this.keepButton.disabled = done;
    if (done) {
      delete this.need.dataset.needLabel;
      delete this.need.dataset.needFaces;
      delete this.need.dataset.needCount;
      this.outcomes.replaceChildren(.../** @type {import("../../../types/answer.js").RolledOutcome[]} a done resolution's */ (doc.rolled).flatMap((o) => [el("dt", { text: o.label }), el("dd", { dataRollOutcome: o.name, dataValue: o.value, text: o.value_label })]));
    } else {
      this.showNeed(/** @type {import("../../../types/answer.js").Need} one that needs a roll says which */ (doc.need));
      renderSummary(this.summary, doc, "exactly");
      renderDetails(this.tables, doc);
    }
    this.outcomes.hidden = !done;
    if (done) {
      this.summary.replaceChildren();
      this.tables.replaceChildren();
    }
    this.trail.replaceChildren(...doc.given.map((d, i) => this.trailItem(d, i)));
    this.trailBox.hidden = !doc.given.length;
    this.mission.follow(doc);
  }

  /** @param {import("../../../types/answer.js").Need} need */
  showNeed(need) {
    this.need.dataset.needLabel = need.label;
    this.need.dataset.needFaces = String(need.faces);
    this.need.dataset.needCount = String(need.count); // dice in the roll (a pool's faces are entered one by one)
    this.needLabel.textContent = need.label;
    this.needDice.textContent = need.count > 1 ? `(${need.dice}: enter each die, or what the pool scored)` : `(${need.dice})`;
    this.faces.setAttribute("aria-label", `${need.label}: the face rolled`);
    const buttons = [];
    for (let face = 1; face <= need.faces; face++) {
      const button = el("button", { type: "button", class: "fm-face-button", dataFace: String(face), text: String(face) });
      button.addEventListener("click", () => (need.count > 1 ? this.enterFace(String(face), need.count) : this.enter([String(face)])));
      buttons.push(button);
    }
    this.faces.replaceChildren(...buttons);
    this.faces.dataset.count = String(need.faces);
    const scores = need.scores || [];
    this.scoreBox.hidden = !scores.length;
    this.scores.replaceChildren(el("option", { value: "", text: "choose\u2026" }), ...scores.map((s) => el("option", { value: s.value, text: s.label })));
  }

  // The rolls of a link's dice, one entry each until now, grouped as the
  // engine read them (a pool's faces, one roll; a pool of no dice read no
  // entry and is no roll to take back), so that Undo takes a roll back.
  /** @param {ResolveAnswer["given"]} given */
  regroup(given) {
    this.rolls = given.map((d) => /** @type {string[]} a resolution's dice carry their entries */ (d.entries)).filter((entries) => entries.length);
  }

  /** @param {import("../../../types/answer.js").Die} d @param {number} i */
  trailItem(d, i) {
    return dieItem(d, { dataGiven: String(i) }); // as the roll log lists a die
  }
}
