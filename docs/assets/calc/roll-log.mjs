// Rolls anyone can check: the seed box, the Roll button, the roll log (every
// die in order, what it decided, each outcome's value, the command that
// repeats it) with the roll's link, and this tab's rolls (roll-history.mjs).
// The seed box always holds the seed of the roll shown, until the player
// types another; pressing Roll with the shown roll's seed untouched draws a
// new one, so that each press is a new roll. Generic: the dice and what they
// decide are the engine's words (the typed answer of a roll).

import { el } from "./results.mjs";
import { RollHistory } from "./roll-history.mjs";

const SITE_ROOT = new URL("../../", import.meta.url);

function randomSeed() {
  const a = new Uint32Array(1);
  crypto.getRandomValues(a);
  return String(1 + (a[0] % 999999));
}

// One die (or pool) rolled, as a list item: its label, its dice, its faces
// (marked scored or not where the roll says) and what it decided, then the
// engine's arithmetic from them (`working`), what the result means (`means`)
// and a link to the rule section it applies (`rule.href`, from the site's
// root). The roll log's and own-dice.mjs's trail of the player's dice alike.
/** @param {import("../../../types/answer.js").Die} d @param {Record<string, unknown>} [attrs] */
export function dieItem(d, attrs = {}) {
  const faces = el("span", { class: "fm-faces" });
  for (const f of d.faces) {
    const state = f.scored === null ? "" : f.scored ? " fm-scored" : " fm-missed";
    const word = f.scored === null ? "" : f.scored ? "scored" : "did not score";
    faces.append(el("span", { class: `fm-face${state}`, title: word || undefined, text: String(f.face) }, word ? el("span", { class: "fm-sr", text: ` (${word})` }) : null));
  }
  return el(
    "li",
    { ...attrs, dataLabel: d.label, dataFaces: d.faces.map((f) => f.face).join(" ") },
    el("span", { class: "fm-die-label", text: d.label }),
    " ",
    el("span", { class: "fm-die-spec", text: d.dice }),
    " ",
    faces,
    " \u2192 ",
    el("strong", { class: "fm-die-result", text: d.result }),
    el("span", { class: "fm-die-working", text: d.working }),
    d.means ? el("span", { class: "fm-die-means", text: d.means }) : null,
    d.rule ? el("a", { class: "fm-die-rule", href: new URL(d.rule.href, SITE_ROOT).href, dataRule: d.rule.href, text: `Rule: ${d.rule.title}` }) : null,
  );
}

// A roll's typed answer in the log: its seed and command, its dice, its outcomes.
/** @param {HTMLElement} container @param {import("../../../types/answer.js").RollAnswer} answer */
export function renderRoll(container, answer) {
  const head = el("p", { class: "fm-roll-head" }, "Rolled with seed ", el("strong", { class: "fm-roll-seed", text: answer.seed }));
  if (answer.seed_phrase !== null) head.append(` (the phrase stands for the number ${answer.seed_number})`);
  head.append(". Anyone can check it: ", el("code", { class: "fm-roll-command", text: answer.command }));
  /** @type {HTMLElement[]} */
  const parts = [head];
  if (answer.no_dice) parts.push(el("p", { class: "fm-roll-nodice", text: answer.no_dice }));
  if (answer.dice.length) parts.push(el("ol", { class: "fm-dice" }, ...answer.dice.map((d) => dieItem(d, { dataDice: d.dice }))));
  const outcomes = el("dl", { class: "fm-roll-outcomes" });
  for (const o of answer.outcomes) {
    outcomes.append(el("dt", { text: o.label }), el("dd", { dataOutcome: o.name, dataRollOutcome: o.name, dataValue: o.value, text: o.value_label }));
  }
  parts.push(outcomes, el("p", { class: "fm-roll-stale-note", text: "These dice were rolled for other inputs: roll again for these." }));
  container.replaceChildren(...parts);
  container.dataset.seed = answer.seed;
  container.hidden = false;
}

// The address of a roll: its calculator's page with the inputs it was made
// with (the engine's own text of those that differ from the defaults) and its seed.
/** @param {string} id @param {import("../../../types/answer.js").RollAnswer} answer */
function rollUrl(id, answer) {
  const page = new URL(`calculators/${id}/`, SITE_ROOT);
  const params = new URLSearchParams(answer.changed);
  params.set("seed", answer.seed);
  page.search = `?${params}`;
  return page.href;
}

export class RollLog {
  /**
   * @param {import("./view.mjs").CalculatorView} view the calculator's view (view.mjs): its engine, id, n,
   *   inputs(), seq and lastInputs (what the answer shown is for), and
   *   requestFailed(), messages (messages.mjs) and rolled() (after a roll: the link and the address)
   */
  constructor(view) {
    this.view = view;
    const n = view.n;
    this.typed = true; // the box's seed is not a roll's yet: Roll rolls it
    this.seedInput = el("input", { type: "text", autocomplete: "off", spellcheck: false, class: "fm-seed", id: `fm-${n}-seed`, value: randomSeed(), size: 14 });
    this.seedInput.addEventListener("input", () => (this.typed = true));
    this.seedError = el("div", { class: "fm-field-error", dataFieldError: "seed", role: "alert", hidden: true, id: `fm-${n}-seed-error` });
    this.seedInput.setAttribute("aria-describedby", this.seedError.id);
    this.seedInput.addEventListener("keydown", (event) => {
      if (event.key === "Enter") this.roll();
    });
    this.button = el("button", { type: "button", class: "md-button md-button--primary fm-roll-button", text: "Roll", disabled: true });
    this.button.addEventListener("click", () => this.roll());
    this.seedBox = el("span", { class: "fm-seed-box" }, el("label", { class: "fm-seed-label", htmlFor: this.seedInput.id }, "Seed (a number or a phrase)"), this.seedInput);
    // The log is where a roll link lands (tabindex -1: focused for a screen reader, not a tab stop).
    this.log = el("div", { class: "fm-roll-log", hidden: true, tabIndex: -1, role: "region", ariaLabel: `${view.schema.title}: the roll` });
    this.history = new RollHistory(view.id);
    /** @type {string | string[] | null} a link's seed, or every one of a link that gave it twice */
    this.addressSeed = null;
    this.rolling = false; // a roll is being worked out
  }

  // A seed the player typed (or typed in the build's copy): the next roll's.
  /** @param {string} seed */
  typeSeed(seed) {
    this.seedInput.value = seed;
    this.typed = true;
  }

  // A seed in the address (?seed=...): rolled with the address's inputs as
  // soon as they have an answer (rollFromAddress), and the page lands on it.
  // The roll's place is shown, with words, and reserved from now on (calculator.css), and
  // the view holds the page on it (view.mjs: land at once, hold; the page's head script
  // landed on the build's copy's place already): the roll shows in it when it comes, with
  // no jump (on a slowed phone it came 3 to 9 s later, and the page jumped 1,950 px from its
  // top to it then; later it was pushed about, a layout shift of 1.92 in all).
  // A seed given more than once (`all`, every text) is sent as it came: the
  // engine refuses it, and its message shows beside the seed.
  /** @param {string | null} seed @param {string[] | null} [all] */
  fromAddress(seed, all = null) {
    this.addressSeed = all ?? seed;
    if (seed == null) return;
    this.typeSeed(seed);
    if (all) return; // refused by the engine beside the seed: no roll comes to hold a place for
    this.log.hidden = false;
    this.log.replaceChildren(el("p", { class: "fm-roll-wait", text: `Rolling with seed ${seed}: the roll shows here as soon as the calculator has worked it out\u2026` }));
  }

  rollFromAddress() {
    if (this.addressSeed == null) return;
    const seed = this.addressSeed;
    this.addressSeed = null;
    this.view.land(this.log); // a screen reader reads the roll from its start
    this.roll({ land: true, seed });
  }

  // The engine's messages for the seed, beside it.
  /** @param {string[]} messages */
  showErrors(messages) {
    this.seedError.textContent = messages.join(" ");
    this.seedError.hidden = !messages.length;
    if (messages.length) this.seedInput.setAttribute("aria-invalid", "true");
    else this.seedInput.removeAttribute("aria-invalid");
  }

  // The inputs changed: the roll shown (if any) is for others.
  markStale() {
    this.log.dataset.stale = "true";
    this.view.card?.showRoll(null); // the printed card is the answer's again
    delete this.log.dataset.landed; // the place a link kept for its roll (view.land) is the player's again
  }

  // An answer for `inputs` (JSON) is shown: the roll is current if it was rolled with them.
  /** @param {string} inputs */
  answered(inputs) {
    this.log.dataset.stale = String(this.log.dataset.inputs !== inputs);
    if (this.log.dataset.seed && this.log.dataset.stale === "true") delete this.log.dataset.landed; // a roll of other inputs: its kept place goes
  }

  /** @param {{land?: boolean, seed?: string | string[] | null}} [options] */
  async roll({ land = false, seed: given = null } = {}) {
    if (this.rolling || this.button.disabled) return;
    if (!land) delete this.log.dataset.landed; // the player's own roll: the place a link kept for it goes
    // The seed shown is the last roll's and the player has not typed another: a new roll, a new seed.
    if (!this.typed) this.seedInput.value = randomSeed();
    const seed = Array.isArray(given) ? given : this.seedInput.value; // a link's seeds, or the box's
    const view = this.view;
    // The button keeps its focus (Enter again rolls again): it is marked busy, not disabled.
    this.rolling = true;
    this.button.setAttribute("aria-busy", "true");
    view.root.dataset.rolling = "true";
    const seq = view.seq;
    /** @type {import("../../../types/answer.js").RollAnswer | import("../../../types/calculator.js").EngineError} */
    let answer;
    try {
      ({ answer } = await view.engine.call("roll", { id: view.id, inputs: view.inputs(), seed }));
    } catch (error) {
      view.requestFailed(error);
      return;
    } finally {
      this.rolling = false;
      this.button.removeAttribute("aria-busy");
      delete view.root.dataset.rolling;
    }
    view.messages.show("error" in answer ? answer : {}); // a bad seed's message beside the seed
    if ("error" in answer) return;
    const url = rollUrl(view.id, answer);
    // Where a roll link landed, the roll comes in place (view.hold: its top stays where it is).
    view.hold(() => {
      renderRoll(this.log, answer);
      this.log.append(el("p", { class: "fm-roll-link", dataRollLink: url }, "Open this link to see the same roll: ", el("a", { class: "fm-roll-url", href: url, text: url })));
    });
    this.seedInput.value = String(answer.seed); // the box holds the seed of the roll shown (the engine's text of it)
    this.typed = false;
    this.log.dataset.inputs = JSON.stringify(answer.inputs);
    this.log.dataset.stale = String(seq !== view.seq || this.log.dataset.inputs !== view.lastInputs);
    this.history.add(url);
    view.rolled(answer);
    // The printed card is the roll's while it is the roll of the inputs shown (the address carries its seed).
    view.card?.showRoll(answer, url, () => view.rolledSeed === answer.seed);
    // A roll link: the page landed on the roll's place already (view.land, which holds it
    // there); focus, no scroll.
    if (land) this.log.focus({ preventScroll: true });
  }
}
