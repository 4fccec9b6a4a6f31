// This tab's rolls with a calculator: each roll's seed, inputs, result and
// link, kept in sessionStorage (in memory where storage is refused) and
// listed under the roll log. What is read back is only data: another
// version's entries, or entries edited by hand, are checked and dropped.

import { el } from "./results.mjs";

const HISTORY_KEY = "fm-roll-history"; // this tab's rolls, in sessionStorage
const HISTORY_LENGTH = 12;
// The longest text one field of a stored roll may have: its link, with a map's text in it, is the longest.
const HISTORY_TEXT_MAX = 40000;

/** A roll of this tab's history, each field text. @typedef {{id: string, seed: string, inputs: string, result: string, url: string}} HistoryEntry */

/** @type {HistoryEntry[] | null} storage refused (a private window): this page's rolls only */
let memoryHistory = null;

// A roll of this tab's history as add() writes it, or null.
/** @param {unknown} stored @returns {HistoryEntry | null} */
function historyEntry(stored) {
  if (!stored || typeof stored !== "object" || Array.isArray(stored)) return null;
  const e = /** @type {Record<string, unknown>} */ (stored);
  if (!["id", "seed", "inputs", "result", "url"].every((k) => typeof e[k] === "string" && e[k].length <= HISTORY_TEXT_MAX)) return null;
  const entry = /** @type {HistoryEntry} */ (e); // every field is text, checked above
  let url;
  try {
    url = new URL(entry.url, location.href);
  } catch {
    return null;
  }
  if (url.origin !== location.origin || !url.pathname.endsWith(`/calculators/${entry.id}/`)) return null;
  return { id: entry.id, seed: entry.seed, inputs: entry.inputs, result: entry.result, url: url.href };
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
    return memoryHistory || [];
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

  // A roll (the engine's typed answer to it) and its link, first in the list.
  /** @param {import("../../../types/answer.js").RollAnswer} answer @param {string} url */
  add(answer, url) {
    const entry = { id: this.id, seed: String(answer.seed), inputs: Object.entries(answer.changed).map(([k, v]) => `${k}=${v}`).join(" "), result: answer.outcomes.map((o) => o.summary).join("; "), url };
    const rolls = [entry, ...readHistory().filter((e) => e.url !== url)].slice(0, HISTORY_LENGTH);
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
          `, ${e.inputs ? e.inputs : "default inputs"}: `,
          el("span", { class: "fm-history-result", text: e.result }),
        ),
      ),
    );
    this.element.hidden = !mine.length;
  }
}
