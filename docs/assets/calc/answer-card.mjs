// The answer card: what a calculator's own page prints (the browser's Print, or the
// Print button beside Link to these inputs) in place of the web page: one A4 page to
// take to the table, with a QR code of the link back to the live calculator. It prints
// what the page is about:
//   a roll of the inputs shown (a roll link's included): the roll's card (roll-card.mjs),
//     its seed and command, its dice and outcomes, the QR code the roll's link;
//   else, while option B is open with its answer, the comparison's (compare-card.mjs),
//     the QR code the comparison's link;
//   else the answer's: the calculator's title, every input as set in words (the readings
//     marked as readings), the headline, every outcome with its exact fraction and
//     percentage (and the cumulative chances the page shows), the readings in force.
//
// Built from the typed answers and the schema alone, with textContent (card-parts.mjs);
// it computes nothing and holds no rule. On screen it is not shown (answer-card.css:
// .fm-card); print shows it and nothing else of the page. So it is drawn when the page
// is idle, and at the latest as the page prints (beforeprint), never on the way to an
// answer: drawn with each answer, it and its QR code took 0.2 s of a phone's first answer
// (CPU slowed 4 times).
//
// DOM contract (tests): section.fm-card[data-card][data-card-kind = odds | compare | roll]
// with [data-card-input] per input (its name), [data-card-outcome] per outcome,
// [data-card-qr] holding the link it encodes as data-url, and data-stale="true" while the
// answer is for other inputs.

import { CardQr, cardHead, headline, inputList, outcomeBox, section } from "./card-parts.mjs";
import { compareCard } from "./compare-card.mjs";
import { el, MODES } from "./results.mjs";
import { rollCard, seedLine } from "./roll-card.mjs";

/** @typedef {import("../../../types/answer.js").OddsAnswer} OddsAnswer */
/** @typedef {import("../../../types/answer.js").CompareAnswer} CompareAnswer */
/** @typedef {import("../../../types/answer.js").RollAnswer} RollAnswer */
/** @typedef {import("../../../types/calculator.js").CalculatorSchema} CalculatorSchema */

export class AnswerCard {
  /**
   * @param {CalculatorSchema} schema the calculator's entry in calculators.json
   * @param {() => string} url the link to the inputs shown (address.mjs: AddressLink.pageUrl)
   * @param {import("./answer-view.mjs").AnswerView} view the answer on the page, whose Exactly / At least / At most the card follows
   */
  constructor(schema, url, view) {
    this.schema = schema;
    this.url = url;
    this.element = el("section", { class: "fm-card", dataCard: "", ariaHidden: "true" });
    document.documentElement.classList.add("fm-card-print"); // print shows the card alone (answer-card.css)
    this.printButton = el("button", { type: "button", class: "md-button fm-print-button", text: "Print" });
    this.printButton.addEventListener("click", () => print());
    /** @type {OddsAnswer | null} */
    this.answer = null;
    /** @type {CompareAnswer | null} the comparison while option B is open (compare.mjs) */
    this.comparison = null;
    this.comparisonStale = false;
    /** @type {{answer: RollAnswer, url: string, current: () => boolean} | null} the last roll (roll-log.mjs), printed while current */
    this.roll = null;
    this.stale = false;
    this.view = view;
    // The page's switch moved: the card shows the same cumulative chances.
    view.modeSwitch.addEventListener("change", () => this.render());
    this.qr = new CardQr();
    this.drawAsked = false;
    // The address may have changed since the answer (a sweep opened, a roll of other inputs): the card follows it to paper.
    addEventListener("beforeprint", () => this.draw());
  }

  /**
   * Show the answer the page shows (view.mjs, with each new answer), read as the page reads it.
   * @param {OddsAnswer} answer
   */
  show(answer) {
    this.answer = answer;
    this.stale = false;
    this.render();
  }

  /** The comparison shown (compare.mjs), or none: option B closed, or other changes of it. @param {CompareAnswer | null} answer */
  showCompare(answer) {
    this.comparison = answer;
    this.comparisonStale = false;
    this.render();
  }

  // Option B changed: the comparison on the card is for other inputs until its answer comes.
  compareStale() {
    this.comparisonStale = true;
    this.sayStale();
  }

  /**
   * A roll made (roll-log.mjs): printed while `current` says it is the roll of the inputs
   * shown, its link in the QR code; null: the roll shown is for other inputs.
   * @param {RollAnswer | null} answer @param {string} [url] @param {() => boolean} [current]
   */
  showRoll(answer, url = "", current = () => true) {
    this.roll = answer ? { answer, url, current } : null;
    this.render();
  }

  // The answer shown is for other inputs (view.mjs: markStale): the card says so.
  /** @param {boolean} stale */
  markStale(stale) {
    this.stale = stale;
    this.sayStale();
  }

  // The card's mark (data-stale: answer-card.css prints its "for other inputs" line), written here alone.
  sayStale() {
    this.element.dataset.stale = String(this.isStale());
  }

  isStale() {
    const kind = this.kind();
    return kind === "compare" ? this.stale || this.comparisonStale : kind === "odds" && this.stale;
  }

  // What the page is about (the module's head says which).
  kind() {
    return this.roll?.current() ? "roll" : this.comparison ? "compare" : "odds";
  }

  // The card to draw anew: once the page is idle (or as it prints).
  render() {
    this.sayStale();
    if (this.drawAsked || !this.answer) return;
    this.drawAsked = true;
    if ("requestIdleCallback" in window) requestIdleCallback(() => this.draw(), { timeout: 2000 });
    else setTimeout(() => this.draw(), 200);
  }

  // The card of what the page is about, drawn now.
  draw() {
    this.drawAsked = false;
    if (!this.answer) return;
    const roll = this.roll?.current() ? this.roll : null;
    if (roll) {
      this.element.dataset.cardKind = "roll";
      const a = roll.answer;
      this.element.replaceChildren(cardHead(a.title, [headline(a.headline), seedLine(a)], this.qr), ...rollCard(this.schema, a));
      this.qr.draw(roll.url, "Scan to see the same roll");
    } else if (this.comparison) {
      this.element.dataset.cardKind = "compare";
      const c = this.comparison;
      const lines = [headline(c.headline), el("p", { class: "fm-card__sub", text: "Option A against option B" })];
      this.element.replaceChildren(cardHead(c.title, lines, this.qr), ...compareCard(this.schema, c));
      this.qr.draw(this.url(), "Scan for the live comparison");
    } else {
      this.element.dataset.cardKind = "odds";
      this.element.replaceChildren(cardHead(this.answer.title, [headline(this.answer.headline)], this.qr), ...this.odds(this.answer));
      this.qr.draw(this.url(), "Scan for the live calculator");
    }
    this.sayStale();
  }

  /** The answer's card under its head. @param {OddsAnswer} answer */
  odds(answer) {
    const mode = this.view.mode;
    const cumulative = MODES.find((m) => m.name === mode && m.name !== "exactly");
    const outcomes = el("div", { class: "fm-card__outcomes" }, ...answer.outcomes.map((o) => outcomeBox(o, cumulative)));
    const notes = answer.notes.length ? el("ul", { class: "fm-card__notes" }, ...answer.notes.map((n) => el("li", { text: n }))) : null;
    return [...section("Inputs", inputList(this.schema.fields, answer.inputs)), ...section("Every outcome", outcomes), ...(notes ? section("Readings in force", notes) : [])];
  }
}
