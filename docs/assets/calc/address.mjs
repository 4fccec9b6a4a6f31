// A calculator's address: what a link to its page says (its inputs, option
// B's changes, a seed, the player's own dice, the input "How it changes"
// sweeps and the outcome it follows), and the address bar kept equal to what the page shows. Back and
// Forward between entries of the same page are followed here (popstate).
// Knows no rule: the names are the schema's.

import { el } from "./results.mjs";
import { SWEEP, SWEEP_OF } from "./sweep.mjs";

// A phone: a touch screen as narrow as Material's own phone layout (calculator.css folds the form there).
const PHONE = "(pointer: coarse) and (max-width: 44.9375em)";

export const VS = "vs."; // the prefix of option B's parameters in a link (compare.mjs)
const NOTICE_NAMES = 8; // the most of a link's ignored names the notice lists
const SITE_ROOT = new URL("../../", import.meta.url);
// Parameters that are not inputs but may be in a calculator page's URL: the
// search plugin's highlight ("h"), a roll's seed, the player's own dice
// (own-dice.mjs) and "How it changes"'s input and outcome (sweep.mjs).
const FOREIGN_PARAMS = new Set(["h", "seed", "dice", SWEEP, SWEEP_OF]);

/**
 * What an address asks of a calculator.
 * @param {import("../../../types/calculator.js").CalculatorSchema} schema the calculator's entry in calculators.json
 * @param {Record<string, string>} defaults each field's text at its default
 * @param {string} search the address's query, as location.search
 */
export function readAddress(schema, defaults, search) {
  const params = new URLSearchParams(search);
  const names = new Set(schema.fields.map((f) => f.name));
  const raw = { ...defaults };
  /** @type {string[]} */
  const ignored = [];
  /** @type {Record<string, string>} option B's changes (compare.mjs) */
  const vsRaw = {};
  // A name given twice in the link, with all its values: the engine refuses it, as the
  // CLI does (repeated: inputs; vsRepeated: option B's; twice: seed, dice, sweep and sweep_of).
  /** @type {Record<string, string[]>} */
  const repeated = {};
  /** @type {Record<string, string[]>} */
  const vsRepeated = {};
  /** @type {Record<string, string[]>} */
  const twice = {};
  for (const [name, value] of params) {
    const all = params.getAll(name);
    if (names.has(name) && all.length > 1) repeated[name] = all;
    if (names.has(name)) raw[name] = value;
    else if (name.startsWith(VS) && names.has(name.slice(VS.length))) {
      vsRaw[name.slice(VS.length)] = value;
      if (all.length > 1) vsRepeated[name.slice(VS.length)] = all;
    } else if (FOREIGN_PARAMS.has(name)) {
      if (all.length > 1 && name !== "h") twice[name] = all;
    } else ignored.push(name);
  }
  return { raw, vsRaw, repeated, vsRepeated, twice, ignored, seed: params.get("seed"), sweep: params.get(SWEEP), sweepOf: params.get(SWEEP_OF), dice: params.get("dice") };
}

/**
 * A calculator page's query: the inputs that differ from their defaults, then `extra` ([name, value] pairs).
 * @param {import("../../../types/calculator.js").CalculatorSchema} schema
 * @param {Record<string, string>} raw
 * @param {Record<string, string>} defaults
 * @param {string[][]} extra
 */
export function addressQuery(schema, raw, defaults, extra) {
  const params = new URLSearchParams();
  for (const f of schema.fields) if (raw[f.name] !== defaults[f.name]) params.set(f.name, raw[f.name]);
  for (const [name, value] of extra) params.set(name, value);
  return params.toString();
}

// A calculator's own page with a query (relative for the address bar, absolute to share).
/** @param {string} id @param {boolean} standalone @param {string} query @param {boolean} [relative] */
export function calculatorUrl(id, standalone, query, relative = false) {
  const page = standalone ? new URL(location.pathname, location.href) : new URL(`calculators/${id}/`, SITE_ROOT);
  page.search = query ? `?${query}` : "";
  return relative ? page.pathname + page.search + location.hash : page.href;
}

// The calculators on the current page that follow the address: each has a
// root, followAddress() and stopListening(), called once its page has gone.
const views = new Set();

/** @param {{root: HTMLElement, followAddress: () => void, stopListening: () => void}} view @returns {() => void} stops following */
export function followAddress(view) {
  views.add(view);
  return () => views.delete(view);
}

// The address changed without a new page (Back or Forward between entries of
// the same calculator page). mkdocs-material ignores links to the page on show
// with another query, so there is nothing else to follow.
window.addEventListener("popstate", () => {
  for (const view of [...views]) {
    if (view.root.isConnected) view.followAddress();
    else view.stopListening();
  }
});

// "Copy link" and "Link to these inputs": the address of what the calculator
// shows, kept in the address bar on its own page; and the notice of what the
// address had that the calculator does not take.
export class AddressLink {
  /** @param {import("./view.mjs").CalculatorView} view the calculator's view (view.mjs): its root, schema, defaults, raw, standalone, rolledSeed and parts */
  constructor(view) {
    this.view = view;
    this.notice = el("p", { class: "fm-notice" });
    this.ownSearch = location.search; // the query this page last wrote (Back and Forward change it)
    this.copyButton = el("button", { type: "button", class: "md-button fm-copy-button", text: "Copy link" });
    this.copyButton.addEventListener("click", () => this.copy());
    this.link = el("a", { class: "fm-link", text: "Link to these inputs" });
    this.status = el("span", { class: "fm-copy-status", role: "status" });
    this.shareOnPhones();
  }

  // On a phone, Link to these inputs opens the system's share sheet where the browser has one,
  // with the answer's headline as its text (a tap on it would only reload the page shown).
  // Elsewhere it is the link it was (Copy link copies the address); should the sheet fail for
  // another reason than the player's cancel, the address is copied as Copy link does.
  shareOnPhones() {
    const link = this.link;
    link.addEventListener("click", (event) => {
      if (typeof navigator.share !== "function" || !matchMedia(PHONE).matches) return;
      event.preventDefault();
      const shared = { title: document.title, text: (this.view.headline.textContent || "").trim(), url: link.href };
      navigator.share(shared).catch((/** @type {Error} */ error) => {
        if (error.name !== "AbortError") void this.copy();
      });
    });
  }

  // A link's names that are no inputs, said once: the first NOTICE_NAMES of them, and how many
  // there are in all where there are more (a crafted link of thousands would fill the screen).
  /** @param {string[]} ignored */
  showNotice(ignored) {
    this.notice.hidden = !ignored.length;
    const named = ignored.length > NOTICE_NAMES ? `${ignored.slice(0, NOTICE_NAMES).join(", ")}… (${ignored.length} names in all)` : ignored.join(", ");
    this.notice.textContent = ignored.length ? `Not an input of this calculator, so ignored: ${named}.` : "";
  }

  // The calculator's own page with its inputs, option B's, the sweep, the roll's seed and the player's dice.
  pageUrl(relative = false) {
    const view = this.view;
    const extra = [...(view.compare ? view.compare.params() : []), ...(view.sweep ? view.sweep.params() : [])];
    if (view.rolledSeed != null) extra.push(["seed", view.rolledSeed]);
    const dice = view.ownDice?.param();
    if (dice != null) extra.push(["dice", dice]);
    return calculatorUrl(view.id, view.standalone, addressQuery(view.schema, view.raw, view.defaults, extra), relative);
  }

  update() {
    this.link.href = this.pageUrl();
  }

  // The link, and on the calculator's own page the address bar, say what the page shows.
  keep() {
    this.update();
    if (!this.view.standalone) return;
    history.replaceState(history.state, "", this.pageUrl(true));
    this.ownSearch = location.search;
  }

  async copy() {
    const url = this.pageUrl();
    try {
      await navigator.clipboard.writeText(url);
      this.status.textContent = "Link copied.";
    } catch {
      this.status.textContent = "Copy the link from here:";
      this.link.focus();
    }
    this.view.root.dataset.copied = url;
  }
}
