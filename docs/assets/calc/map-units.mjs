// The answer's table of units, for a calculator on a map.

import { el } from "./results.mjs";

// The answer's units (rules_py.answer: `units`) as a table at the head of the
// answer's list of outcomes, whose lines for the outcomes it stands for go
// (each unit's values, and the lines drawn on the map, which All results
// lists sector by sector). Every text is the engine's; an answer without
// units leaves the list as it is. Called after each rendering of that list
// (view.mjs, showSummary).
/** @param {HTMLElement} list @param {import("./results.mjs").OutcomesAnswer} answer */
export function renderUnits(list, answer) {
  list.parentElement?.querySelector(":scope > .fm-units")?.remove();
  const units = /** @type {{units?: import("../../../types/answer.js").Units | null}} a resolution has none */ (answer).units;
  if (!units) return;
  const replaced = /** @type {Set<string | undefined>} a line that is no outcome's is in none */ (new Set(units.replaces));
  for (const item of [...list.children]) if (replaced.has(/** @type {HTMLElement} */ (item).dataset.outcome)) item.remove();
  const head = el("tr", {}, el("th", { scope: "col", text: "Unit" }), ...units.columns.map((c) => el("th", { scope: "col", text: c.label })));
  const body = el("tbody");
  for (const row of units.rows) {
    const cells = row.cells.map((cell) => (cell ? el("td", { dataOutcome: cell.outcome, dataValue: cell.value ?? undefined, text: cell.text }) : el("td", { text: "\u2014" })));
    body.append(el("tr", { dataUnit: row.unit }, el("th", { scope: "row", class: "fm-value", text: row.unit }), ...cells));
  }
  const lines = answer.outcomes.some((o) => replaced.has(o.name) && o.draw?.kind === "path");
  const box = el(
    "div",
    { class: "fm-units", dataUnits: String(units.rows.length) },
    el("div", { class: "fm-table-scroll", tabIndex: 0, role: "region", ariaLabel: "Every unit on the map" }, el("table", { class: "fm-odds fm-units-table" }, el("caption", { text: "Every unit on the map" }), el("thead", {}, head), body)),
    lines ? el("p", { class: "fm-units-note", text: "The lines are drawn on the map; All results lists their sectors." }) : null,
  );
  list.before(box);
}
