// The card a mission kept in play prints (In play's Print, in-play.mjs): the mission's
// name and calculator, its inputs in words, its dice so far in the engine's words, the
// next roll it needs and the odds of what happens next (or, finished, what it gave), the
// command that repeats the resolution, and a QR code of the link that carries it on
// (the calculator with its inputs and dice; the mission's key stays on this device).
// All of it the engine's text (the resolution's typed answer); nothing is worked out here.
//
// One card for the page, filled when a mission's Print is pressed; it prints alone
// (answer-card.css, html.fm-card-print, while it has a data-card-kind) and goes after
// the print, so that the browser's own Print of In play prints the page as it is.

import { CardQr, cardHead, checkIt, headline, inputList, outcomeBox, section } from "./card-parts.mjs";
import { el } from "./results.mjs";
import { rolledList } from "./roll-card.mjs";

/** @typedef {import("../../../types/answer.js").ResolveAnswer} ResolveAnswer */

export class MissionCard {
  constructor() {
    this.element = el("section", { class: "fm-card", dataCard: "", ariaHidden: "true" });
    this.qr = new CardQr();
  }

  /**
   * Prints the mission `name` (its resolution `doc`, of the calculator `schema`), its QR code `url`.
   * @param {string} name @param {ResolveAnswer} doc @param {import("../../../types/calculator.js").CalculatorSchema} schema @param {string} url
   */
  async print(name, doc, schema, url) {
    const words = doc.given_words.length ? el("ul", { class: "fm-card__words" }, ...doc.given_words.map((w) => el("li", { text: w }))) : el("p", { text: "No dice yet." });
    const notes = doc.notes.length ? el("ul", { class: "fm-card__notes" }, ...doc.notes.map((n) => el("li", { text: n }))) : null;
    const next =
      doc.status === "need" && doc.need
        ? [...section("Next roll", el("p", { dataCardNeed: "", text: `${doc.need.label} (${doc.need.dice})` })), ...section("What happens next", el("div", { class: "fm-card__outcomes" }, ...doc.outcomes.map((o) => outcomeBox(o))))]
        : section("Finished: what it gave", rolledList(doc.rolled ?? []));
    this.element.replaceChildren(
      cardHead(name, [el("p", { class: "fm-card__sub", text: `${doc.title}, kept in play` }), headline(doc.headline)], this.qr),
      ...section("Inputs", inputList(schema.fields, doc.inputs)),
      ...section("Dice so far", words),
      ...next,
      checkIt(doc.command),
      ...(notes ? section("Readings in force", notes) : []),
    );
    this.element.dataset.cardKind = "mission";
    document.documentElement.classList.add("fm-card-print"); // print shows the card alone (answer-card.css)
    await this.qr.draw(url, "Scan to carry it on");
    // Once printed, the page prints as itself again.
    addEventListener("afterprint", () => delete this.element.dataset.cardKind, { once: true });
    print();
  }
}
