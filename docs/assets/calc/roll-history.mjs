// This tab's rolls with a calculator: each roll's link (its calculator's page
// with the roll's inputs and seed), kept in sessionStorage (in memory where
// storage is refused) and listed under the roll log as its seed and inputs,
// read from the link. Nothing else is stored, so nothing stored is shown as a
// result: a stored text could say anything (edited by hand), and the link
// opens the roll the engine makes of it. What is read back is only data:
// another version's entries, or entries edited by hand, are checked and dropped.

import { el } from "./results.mjs";

const HISTORY_KEY = "fm-roll-history"; // this tab's rolls, in sessionStorage
const HISTORY_LENGTH = 12;
// The longest text one field of a stored roll may have: its link, with a map's text in it, is the longest.
const HISTORY_TEXT_MAX = 40000;

/** A roll of this tab's history, as stored. @typedef {{id: string, url: string}} StoredRoll */
/** A roll of this tab's history, as shown: its seed and inputs read from its link. @typedef {{id: string, url: string, seed: string, inputs: string}} HistoryEntry */

/** @type {StoredRoll[] | null} storage refused (a private window): this page's rolls only */
let memoryHistory = null;

// A roll of this tab's history as add() writes it ({id, url}), or null; what
// it shows (its seed, its inputs) is read from its link, the roll it opens.
/** @param {unknown} stored @returns {HistoryEntry | null} */
function historyEntry(stored) {
  if (!stored || typeof stored !== "object" || Array.isArray(stored)) return null;
  const fields = /** @type {Record<string, unknown>} */ (stored);
  if (!["id", "url"].every((k) => typeof fields[k] === "string" && fields[k].length <= HISTORY_TEXT_MAX)) return null;
  const e = /** @type {StoredRoll} */ (fields); // both fields are text, checked above
  let url;
  try {
    url = new URL(e.url, location.href);
  } catch {
    return null;
  }
  if (url.origin !== location.origin || !url.pathname.endsWith(`/calculators/${e.id}/`) || url.searchParams.getAll("seed").length !== 1) return null;
  const inputs = [...url.searchParams].filter(([k]) => k !== "seed").map(([k, v]) => `${k}=${v}`);
  return { id: e.id, url: url.href, seed: url.searchParams.get("seed") ?? "", inputs: inputs.join(" ") };
}

// At most HISTORY_LENGTH rolls of a list read from storage, each a history entry.
/** @param {unknown} stored @returns {HistoryEntry[]} */
function historyEntries(stored) {
  /** @type {HistoryEntry[]} */
  const out = [];
  if (!Array.isArray(stored)) return out;
  for (const item of stored) {
    const entry = historyEntry(item);
    if (entry) out.push(entry);
    if (out.length === HISTORY_LENGTH) break;
  }
  return out;
}

/** @returns {HistoryEntry[]} */
function readHistory() {
  let text;
  try {
    text = sessionStorage.getItem(HISTORY_KEY);
  } catch {
    return historyEntries(memoryHistory || []);
  }
  try {
    return historyEntries(JSON.parse(text || "[]"));
  } catch {
    return []; // not JSON: nothing of it is a roll
  }
}

export class RollHistory {
  /** @param {string} id the calculator's id: its rolls alone are listed */
  constructor(id) {
    this.id = id;
    this.list = el("ol", { class: "fm-history-list" });
    this.element = el("details", { class: "fm-history", hidden: true }, el("summary", { text: "This tab's rolls with this calculator" }), this.list);
    this.show();
  }

  // A roll's link (its inputs and seed), first in the list.
  /** @param {string} url */
  add(url) {
    const rolls = [{ id: this.id, url }, ...readHistory().filter((e) => e.url !== url).map((e) => ({ id: e.id, url: e.url }))].slice(0, HISTORY_LENGTH);
    try {
      sessionStorage.setItem(HISTORY_KEY, JSON.stringify(rolls));
    } catch {
      memoryHistory = rolls;
    }
    this.show();
  }

  show() {
    const mine = readHistory().filter((e) => e.id === this.id);
    this.list.replaceChildren(
      ...mine.map((e) =>
        el(
          "li",
          { class: "fm-history-item", dataSeed: e.seed },
          el("a", { href: e.url, text: `Seed ${e.seed}` }),
          `, ${e.inputs ? e.inputs : "default inputs"}`,
        ),
      ),
    );
    this.element.hidden = !mine.length;
  }
}
