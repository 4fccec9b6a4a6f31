// One calculator on a page: its parts put together, and the requests to the engine that keep its
// answer current. Loaded by calculator.mjs only on pages that have a calculator. Generic: every
// field, outcome and message comes from the schema or the engine. Each part has its module:
//   form.mjs         the fields (option A's here, option B's in compare.mjs), and the
//                    button that says option A's in words and folds them on a phone
//   address.mjs      the link and the address bar, Back and Forward, the share sheet
//   static-copy.mjs  the build's answers and its copy of the calculator
//   answer-view.mjs  the answer: headline, switch, lines, charts, tables, steps
//   roll-log.mjs     seed, Roll and the roll log (roll-history.mjs: this tab's rolls)
//   compare.mjs      option B; sweep.mjs "How it changes"; own-dice.mjs "Use my dice"; answer-card.mjs, print

import { AddressLink, followAddress, readAddress } from "./address.mjs";
import { AnswerCard } from "./answer-card.mjs";
import { AnswerView } from "./answer-view.mjs";
import { CompareView } from "./compare.mjs";
import { FieldForm, InputsSummary } from "./form.mjs";
import { OwnDice } from "./own-dice.mjs";
import { InputMessages, SAY_STALE_MS, engineNote, saysStale } from "./messages.mjs";
import { el } from "./results.mjs";
import { RollLog } from "./roll-log.mjs";
import { builtAnswer, introNodes, readPrerendered, readStatic, takeOver } from "./static-copy.mjs";
import { SweepView } from "./sweep.mjs";

const DEBOUNCE_MS = 150;

let instances = 0;

// Whether the page is where a link lands `element`: its top at its scroll-margin-top
// (below the pinned answer), give or take 4 px.
/** @param {HTMLElement} element */
function onLanding(element) {
  const at = parseFloat(getComputedStyle(element).scrollMarginTop) || 0;
  return Math.abs(element.getBoundingClientRect().top - at) <= 4;
}

export class CalculatorView {
  /**
   * @param {HTMLElement} root the calculator's root, .calculator[data-calculator]
   * @param {import("../../../types/calculator.js").CalculatorSchema} schema its entry in calculators.json
   * @param {import("./engine.mjs").Engine} engine
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
    /** @type {Record<string, string>} */
    this.defaults = {};
    for (const f of schema.fields) this.defaults[f.name] = f.default === null ? "" : f.default;
    this.seq = 0;
    this.problem = ""; // why the engine gave no answer to the last request (not the inputs' fault)
    this.messages = new InputMessages(this);
    this.address = readAddress(schema, this.defaults, this.standalone ? location.search : "");
    this.raw = { ...this.address.raw };
    this.repeated = this.address.repeated;
    this.prerendered = readPrerendered(root);
    const copy = readStatic(root, schema);
    // Its parts, built here in the constructor: TypeScript then knows each is there.
    root.classList.add("fm-calculator");
    root.querySelector(".fm-placeholder")?.remove();
    this.rolledSeed = null;
    /** @type {HTMLElement | null} the place a link landed on (land) */
    this.landedOn = null;
    const intro = introNodes(root);
    // The build's copy's form, opened by the player before this view came (static-copy.mjs), stays open.
    const copyOpen = root.querySelector(":scope > .fm-static .fm-inputs-button")?.getAttribute("aria-expanded") === "true";
    this.form = new FieldForm({
      fields: schema.fields,
      idPrefix: `fm-${this.n}`,
      prefix: "",
      mark: "input",
      label: schema.title,
      value: (/** @type {string} */ name) => this.raw[name],
      onChange: (/** @type {string} */ name, /** @type {string} */ value, /** @type {boolean} */ typing) => this.changed(name, value, { keepWidget: typing }),
      help: true,
      grids: true,
      onLeave: () => this.messages.flush(), // a message that waited while the player typed
    });
    this.maps = this.form.maps;
    const rolls = schema.rolls_dice !== false; // a calculator with no dice has no Seed and Roll
    this.answerView = new AnswerView({ n: this.n, title: schema.title, rolls, onMode: () => this.compare.redraw() });
    const answer = this.answerView;
    this.headline = answer.headline;

    this.addressLink = new AddressLink(this);
    this.addressLink.showNotice(this.address.ignored);
    const { copyButton, link, status } = this.addressLink;
    this.rolls = rolls ? new RollLog(this) : null;
    this.ownDice = rolls ? new OwnDice(this) : null;
    // What the calculator's own page prints: the answer card (answer-card.mjs), with its Print button.
    this.card = standalone ? new AnswerCard(schema, () => this.addressLink.pageUrl(), answer) : null;
    const actions = el("div", { class: "fm-actions" }, this.rolls?.seedBox, this.rolls?.button, this.ownDice?.button, copyButton, link, this.card?.printButton, status, this.rolls?.seedError);
    if (this.ownDice) this.ownDice.element.tabIndex = -1; // where a dice= link lands
    const rollBox = el("div", { class: "fm-roll-box" }, actions, this.ownDice?.element, this.rolls?.log, this.rolls?.history.element);
    this.compare = new CompareView(this, this.address.vsRaw, this.address.vsRepeated);
    // The answer stays in view while the player scrolls through the inputs, option B's
    // included: sticky above them on a phone, beside them on a wide screen. On a phone the
    // form folds under its inputs' summary (form.mjs), and the roll's row shows before every
    // outcome's line: answer, inputs and dice share one screen (calculator.css).
    this.inputsSummary = new InputsSummary({ form: this.form, defaults: this.defaults, onFold: (open) => layout.classList.toggle("fm-folded", !open) });
    const layout = el("div", { class: "fm-layout fm-folded" }, answer.box, this.inputsSummary.element, this.form.element, answer.summary, rollBox, this.compare.element);
    answer.keepClear(this.form.element);
    answer.keepClear(this.compare.element);
    this.sweep = new SweepView(this, this.address.sweep ?? null, this.address.twice.sweep);
    root.replaceChildren(...(intro.length ? [el("div", { class: "fm-intro" }, ...intro)] : []), this.addressLink.notice, layout, answer.details, answer.stepsDetails, this.sweep.element, answer.readings, this.card?.element ?? "");
    this.updateLink();
    for (const f of schema.fields) this.form.show(f.name, this.raw[f.name]);
    this.showInputs();
    // A link that leaves a required input unset opens the form on it (as an input's message does, showHeadline).
    if (copyOpen || schema.fields.some((f) => f.default === null && this.raw[f.name] === "")) this.inputsSummary.setOpen(true);
    this.compare.showWidgets(); // option B's fields as the link has them, not their first choices
    this.rolls?.fromAddress(this.address.seed, this.address.twice.seed);
    if (this.address.dice != null) this.ownDice?.fromAddress(this.address.dice, this.address.twice.dice);
    // A roll link landed on the copy's place for the roll (docs/assets/head/link-inputs.js): the
    // live one is held there from now on, in this same frame.
    if (this.rolls && this.address.seed != null && !this.address.twice.seed) this.land(this.rolls.log);
    const stopEngine = this.engine.onChange(() => this.engineChanged());
    const stopAddress = followAddress(this);
    this.stopListening = () => {
      stopEngine();
      stopAddress();
    };
    this.engineChanged();
    this.schedule(0);
    if (copy) takeOver(this, copy);
    this.sweep.follow(this.address.sweep, this.address.twice.sweep); // a link's sweep opens "How it changes", whatever the copy had open
  }

  // The address changed without a new page (Back or Forward between entries of this same page).
  followAddress() {
    if (!this.standalone || location.search === this.addressLink.ownSearch) return;
    this.address = readAddress(this.schema, this.defaults, location.search);
    this.raw = { ...this.address.raw };
    this.repeated = this.address.repeated;
    this.rolledSeed = null;
    for (const f of this.schema.fields) this.form.show(f.name, this.raw[f.name]);
    this.showInputs();
    this.rolls?.fromAddress(this.address.seed, this.address.twice.seed);
    this.compare.follow(this.address.vsRaw, this.address.vsRepeated);
    this.sweep.follow(this.address.sweep, this.address.twice.sweep);
    this.addressLink.showNotice(this.address.ignored);
    this.updateLink();
    this.schedule(0);
  }

  // ------------------------------------------------------------ state

  /** @param {string} name @param {string} value @param {{keepWidget?: boolean}} [options] */
  changed(name, value, { keepWidget = false } = {}) {
    this.raw[name] = value;
    this.rolledSeed = null; // the roll shown was for other inputs: links no longer carry its seed
    if (this.repeated) delete this.repeated[name]; // the player chose one value
    this.messages.typing(); // a message waits until the player leaves the field
    this.engine.start(); // the player uses the calculator: its engine starts (a prerendered answer needed none)
    if (!keepWidget) this.form.show(name, value);
    this.showInputs();
    this.keepAddress();
    this.schedule(DEBOUNCE_MS);
    this.ownDice?.inputsChanged();
  }

  // The inputs' summary says the values shown (form.mjs, InputsSummary).
  showInputs() {
    this.inputsSummary.show((name) => this.raw[name]);
  }

  /** @returns {Record<string, string | string[]>} the inputs as the engine takes them, by name (a name the link gave twice: its values, which the engine refuses) */
  inputs() {
    /** @type {Record<string, string | string[]>} */
    const out = {};
    for (const f of this.schema.fields) {
      const raw = this.raw[f.name];
      if (raw === "" && f.default === null) continue; // not given: the engine says if it is required
      out[f.name] = this.repeated?.[f.name] ?? raw;
    }
    return out;
  }

  // The link and the address say what the page shows (address.mjs).
  updateLink() {
    this.addressLink.update();
  }

  keepAddress() {
    this.addressLink.keep();
  }

  /** @param {string} status */
  setStatus(status) {
    this.root.dataset.status = status;
  }

  // ------------------------------------------------------------ the engine

  // The engine's state (engine.mjs's Engine) and this view's last request,
  // beside the calculator: a message while the engine starts, restarts or has
  // failed, or when this view's request stopped it; results dimmed while they
  // are not an answer to the inputs shown (this.problem) or cannot be renewed.
  engineChanged() {
    const state = this.engine.state;
    const { text: said, bad } = engineNote(this.engine, this.problem, this.answeredGeneration, saysStale(this));
    // Nothing on screen answers yet (a link's inputs, the build's answers being for others):
    // say so in words until the answer is there, never an empty box.
    const waiting = !this.answerView.answer && this.root.dataset.status === "loading";
    const text = said || (waiting ? "Working out the answer to these inputs\u2026" : "");
    const note = this.answerView.engineNote;
    this.hold(() => {
      note.textContent = text;
      note.hidden = !text;
      note.classList.toggle("fm-engine-failed", bad);
      // An answer the build made for the inputs shown stays good without an engine.
      const built = this.root.dataset.source === "prerendered" && this.root.dataset.status === "ready";
      this.root.classList.toggle("fm-outdated", (state === "failed" && !built) || Boolean(this.problem));
      if (state === "failed") {
        if (this.rolls) this.rolls.button.disabled = true;
        if (!built) this.setStatus("error");
      }
      if (this.compare.open && !this.compare.answer) this.showHeadline(); // what option B waits for
    });
  }

  // A place a link landed on, where the page still is, stays put through `change` (scrolled back in the same
  // frame): the engine's note, a phone's answer lines, the roll; so does Use my dice, open (Undo stays put).
  /** @param {() => void} change */
  hold(change) {
    const held = this.landedOn && onLanding(this.landedOn) ? this.landedOn : null;
    const dice = !held && this.ownDice?.active ? { at: this.ownDice.element, top: this.ownDice.element.getBoundingClientRect().top } : null;
    change();
    if (held && !onLanding(held)) held.scrollIntoView({ block: "start" });
    if (dice) scrollBy(0, dice.at.getBoundingClientRect().top - dice.top);
  }

  // Where a link lands (seed=: the roll's place; dice=: the player's dice), focused for a screen reader,
  // below the pinned answer, and held there (hold: scroll anchoring alone moved a desktop's roll 57 px).
  /** @param {HTMLElement} element */
  land(element) {
    this.landedOn = element;
    element.dataset.landed = "true"; // the roll's place is kept (calculator.css)
    if (!onLanding(element)) element.scrollIntoView({ block: "start" });
    element.focus({ preventScroll: true });
  }

  // A request the engine could not answer: superseded (nothing to say), or it
  // ran past its time limit or stopped the worker (say so; the next change tries again).
  /** @param {unknown} error what call() rejected with: an Error with its kind */
  requestFailed(error) {
    const failure = /** @type {Error & {kind?: string}} */ (error);
    if (failure.kind === "superseded" || failure.kind === "failed") return; // failed: engineChanged() says why
    this.problem = failure.message;
    this.setStatus("error");
    this.engineChanged();
  }

  // The build's answer for these raw inputs, if it computed one (own-dice.mjs asks too).
  /** @param {Record<string, string>} raw */
  prerenderedFor(raw) {
    return builtAnswer(this.prerendered, this.schema.fields, raw, this.repeated);
  }

  /** @param {number} delay ms */
  schedule(delay) {
    this.seq++; // an answer still on its way is for other inputs: never show it as ready
    clearTimeout(this.timer);
    const built = this.prerenderedFor(this.raw);
    if (built) return this.showPrerendered(built); // the build answered these inputs: no engine needed
    // Until their answer, whatever the engine does, the answer on show is for other inputs: marked so.
    if (this.answerView.answer) this.markStale(true);
    if (this.engine.state === "failed") {
      // No engine to answer these inputs: what is shown is for others (marked above).
      this.root.dataset.valid = "false";
      this.root.classList.add("fm-outdated");
      this.setStatus("error");
      return this.engineChanged();
    }
    this.setStatus("loading");
    this.engineChanged(); // what it is doing, in words, while nothing answers these inputs
    this.timer = setTimeout(() => this.compute(), delay);
  }

  async compute() {
    if (!this.root.isConnected) return this.stopListening(); // the page has gone (instant navigation)
    const seq = ++this.seq;
    const t0 = performance.now();
    /** @type {import("../../../types/answer.js").OddsAnswer | import("../../../types/calculator.js").EngineError} */
    let answer;
    /** @type {number} */
    let generation;
    try {
      ({ answer, generation } = await this.engine.call("odds", { id: this.id, inputs: this.inputs() }, { key: `odds ${this.n}` }));
    } catch (error) {
      if (seq === this.seq) this.requestFailed(error);
      return;
    }
    if (seq !== this.seq || !this.root.isConnected) return; // inputs changed meanwhile
    this.problem = "";
    this.answeredGeneration = generation;
    this.engineChanged();
    if ("error" in answer) {
      this.root.dataset.valid = "false";
      if (this.rolls) this.rolls.button.disabled = true;
      this.markStale(true);
      this.messages.received(answer); // shown now, or once the player leaves the field
      if (answer.internal) {
        this.setStatus("error");
        return;
      }
    } else {
      this.messages.show({});
      this.showAnswer(answer);
      this.root.dataset.source = "engine";
      this.answered();
    }
    this.root.dataset.answerMs = (performance.now() - t0).toFixed(1);
    if (!this.root.dataset.firstAnswerAt) this.root.dataset.firstAnswerAt = performance.now().toFixed(0);
    this.setStatus("ready");
    this.engineChanged(); // the words of the wait go
  }

  // An answer the build computed (scripts/hooks/calculator_hooks.py), shown as a live one is:
  // it is the answer for the inputs shown, so the calculator is ready without its engine.
  /** @param {import("../../../types/answer.js").OddsAnswer} doc */
  showPrerendered(doc) {
    this.seq += 1; // any answer still on its way is for other inputs
    this.messages.show({});
    this.showAnswer(doc);
    this.root.dataset.source = "prerendered";
    this.setStatus("ready");
    this.engineChanged(); // the words of the wait go
    // When the first answer showed, since navigation start (the benchmark compares it with first paint).
    if (!this.root.dataset.firstAnswerAt) this.root.dataset.firstAnswerAt = performance.now().toFixed(0);
    this.answered();
  }

  // The inputs shown have an answer: a roll can be made (the address's first),
  // option B follows A where it has no change of its own, and a dice= link lands.
  answered() {
    this.root.dataset.valid = "true";
    if (this.rolls) this.rolls.button.disabled = false;
    this.rolls?.rollFromAddress();
    this.compare.showWidgets();
    this.compare.schedule(0);
    if (this.address.dice != null && this.ownDice && !this.landed) {
      this.landed = true;
      this.land(this.ownDice.element);
    }
  }

  /** @param {import("../../../types/answer.js").OddsAnswer} answer */
  showAnswer(answer) {
    this.hold(() => this.answerView.show(answer, this.compare.open)); // on a phone, above a roll link's place
    this.card?.show(answer);
    this.lastInputs = JSON.stringify(answer.inputs);
    for (const map of Object.values(this.maps)) map.drawOutcomes(answer.outcomes);
    this.rolls?.answered(this.lastInputs);
    this.sweep.refresh();
    this.showHeadline();
  }

  // The pinned line: the inputs' problem, else the comparison's (compare.mjs), else the answer's.
  showHeadline() {
    const view = this.answerView;
    if (this.messages.problem) this.inputsSummary.setOpen(true); // an input's message never hides in the fold
    if (this.messages.problem) view.showProblem(this.messages.problem);
    else if (!this.compare.showHeadline(view) && view.answer) view.showHeadline(view.answer);
  }

  // Option B, the sweep or the player's dice changed: the link, the address and the headline follow.
  compareChanged() {
    this.showHeadline();
    this.keepAddress();
  }

  // After a roll (roll-log.mjs): its seed in Copy link and the address bar,
  // while it is a roll of the inputs shown; what it gave, told to a screen reader and the map.
  /** @param {import("../../../types/answer.js").RollAnswer} answer */
  rolled(answer) {
    this.rolledSeed = /** @type {RollLog} a roll came from it */ (this.rolls).log.dataset.stale === "true" ? null : answer.seed;
    if (this.rolledSeed != null) this.keepAddress();
    else this.updateLink();
    this.answerView.live.textContent = answer.summary;
    for (const map of Object.values(this.maps)) map.drawOutcomes(answer.outcomes);
  }

  // ------------------------------------------------------------ messages

  // Results for inputs that are not the ones shown stay on screen, dimmed and marked.
  /** @param {boolean} stale */
  markStale(stale) {
    this.answerView.markStale(stale);
    this.card?.markStale(stale);
    clearTimeout(this.staleTimer);
    if (stale) this.rolls?.markStale();
    if (stale) this.staleTimer = setTimeout(() => this.engineChanged(), SAY_STALE_MS); // said in words once late (saysStale)
  }
}
