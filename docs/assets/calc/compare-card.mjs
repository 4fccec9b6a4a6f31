// The card a comparison prints (answer-card.mjs picks it while option B is open): the
// inputs the two options differ in, A's value beside B's; the inputs they share, once;
// the difference line by line as the page's table has it; and every value of every
// outcome the options share with its chance and exact fraction for A and for B, and
// B − A. All of it the engine's text (rules_py.answer.compare_answer's typed answer);
// nothing is worked out here.

import { headRow, inputList, inputWords, outcomeBox, row, section, tablesOf } from "./card-parts.mjs";
import { differenceCells } from "./compare.mjs";
import { el } from "./results.mjs";

/** @typedef {import("../../../types/answer.js").CompareAnswer} CompareAnswer */

/**
 * The card's body under its head.
 * @param {import("../../../types/calculator.js").CalculatorSchema} schema @param {CompareAnswer} answer
 */
export function compareCard(schema, answer) {
  const changed = new Set(Object.keys(answer.vs));
  const differ = el("tbody");
  for (const field of schema.fields) {
    if (!changed.has(field.name)) continue;
    const [a, b] = [answer.a, answer.b].map((o) => inputWords(field, o.inputs[field.name] ?? ""));
    differ.append(Object.assign(row(field.label, [a, b]), { className: "fm-card__differ" }));
  }
  const differs = changed.size
    ? el("table", { class: "fm-card__vs" }, el("thead", {}, headRow(["Input", "Option A", "Option B"])), differ)
    : el("p", { text: "Option B has no change from option A yet." });
  const lines = el("tbody");
  for (const d of answer.differences) {
    const { what, cells, said } = differenceCells(d);
    lines.append(cells ? row(`${d.label} (${what})`, cells) : row(`${d.label} (${what})`, [said]));
  }
  const shared = new Set(answer.differences.map((d) => d.name));
  const outcomes = el("div", { class: "fm-card__outcomes" });
  for (const d of answer.differences) {
    const box = el("div", { class: "fm-card__outcome", dataCardOutcome: d.name }, el("h4", { text: d.label }));
    const rows = d.values.map((v) => row(v.label, [v.texts.a.exactly, v.a, v.texts.b.exactly, v.b, v.difference]));
    tablesOf(box, () => headRow(["Value", "A", "A exact", "B", "B exact", "B \u2212 A"]), rows, true);
    outcomes.append(box);
  }
  // An outcome one option has and the other not (none of the calculators today): each option's own.
  for (const [option, odds] of /** @type {const} */ ([["A", answer.a], ["B", answer.b]])) {
    for (const outcome of odds.outcomes) {
      if (shared.has(outcome.name)) continue;
      const box = outcomeBox(outcome);
      box.querySelector("h4")?.append(` (option ${option})`);
      outcomes.append(box);
    }
  }
  return [
    ...section("Where the options differ", differs),
    ...section("Inputs of both", inputList(schema.fields, answer.a.inputs, changed)),
    ...section("The difference", el("table", { class: "fm-card__diff" }, el("thead", {}, headRow(["Outcome", "A", "B", "B \u2212 A"])), lines)),
    ...section("Every outcome, option A and option B", outcomes),
  ];
}
