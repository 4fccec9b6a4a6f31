// Results of a calculator, rendered from the engine's typed answer
// (rules_py.answer, declared by rules_py/data/answer.schema.json; its types,
// types/answer.d.ts, are generated from it and checked here by tsc).
//
// Generic and arithmetic-free: every number, percentage, mean and label on
// screen comes from the answer as text. This module only chooses which of
// them to show (exactly / at least / at most) and builds the DOM with
// textContent.

/** @typedef {import("../../../types/answer.js").OddsAnswer} OddsAnswer */
/** @typedef {import("../../../types/answer.js").ResolveAnswer} ResolveAnswer */
/** @typedef {import("../../../types/answer.js").CompareAnswer} CompareAnswer */
/** @typedef {import("../../../types/answer.js").OddsOutcome} OddsOutcome */
/** @typedef {import("../../../types/answer.js").DistributionOutcome} DistributionOutcome */
/** @typedef {import("../../../types/answer.js").HeadlinePart} HeadlinePart */
/** @typedef {import("../../../types/answer.js").CompareHeadlinePart} CompareHeadlinePart */
/** An answer with every outcome's odds: the odds, or a resolution's given the dice so far. @typedef {OddsAnswer | ResolveAnswer} OutcomesAnswer */
/** The views of a chance, as the switch names them. @typedef {"exactly" | "at_least" | "at_most"} Mode */

// A fraction as the answer gives it, with a place to break after its "/" where a
// narrow table needs one (a phone's): "12094669/" over "15116544", never a digit alone.
/** @param {string} text */
const breakable = (text) => (text.includes("/") ? [text.slice(0, text.indexOf("/") + 1), el("wbr"), text.slice(text.indexOf("/") + 1)] : [text]);

/**
 * An element with its attributes and children: "class" and "text" set its
 * class and text, data*, aria*, title, role, style and scope are attributes
 * (dataFooBar: data-foo-bar), any other name a property (tabIndex, hidden);
 * an attribute undefined, null or false is left out.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, unknown>} [attrs]
 * @param {...(Node | string | null | undefined)} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = String(v);
    else if (k === "text") node.textContent = String(v);
    else if (k.startsWith("data") || k.startsWith("aria") || k === "title" || k === "role" || k === "style" || k === "scope") node.setAttribute(k.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase()), String(v));
    else Reflect.set(node, k, v);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

// The three ways a chance can be read, and the answer's field for each.
/** @type {{name: Mode, label: string, field: "percent" | "at_least_percent" | "at_most_percent"}[]} */
export const MODES = [
  { name: "exactly", label: "Exactly", field: "percent" },
  { name: "at_least", label: "At least", field: "at_least_percent" },
  { name: "at_most", label: "At most", field: "at_most_percent" },
];

// Rows a player can get: impossible ones are not shown.
/** @param {DistributionOutcome} outcome */
const possible = (outcome) => outcome.values.filter((v) => v.p !== "0");

// Does any outcome of this answer read differently at least / at most?
/** @param {OutcomesAnswer} answer */
export function hasScale(answer) {
  return answer.outcomes.some((o) => o.kind === "distribution" && o.values.some((v) => v.at_least !== null));
}

// ---------------------------------------------------------------- summary

// One line per outcome, in view beside the inputs: the engine's headline,
// and for a number the chance of each value read the way the switch says.
/** @param {HTMLElement} list @param {OutcomesAnswer} answer @param {Mode} mode */
export function renderSummary(list, answer, mode) {
  const field = MODES[MODES.findIndex((m) => m.name === mode)].field;
  list.replaceChildren();
  for (const o of answer.outcomes) {
    const item = el("li", { class: `fm-sum fm-sum-${o.kind}`, dataOutcome: o.name });
    const said = el("span", { class: "fm-sum-text", text: o.summary.slice(o.label.length + 2) });
    item.append(el("span", { class: "fm-sum-label", text: `${o.label}: ` }), said);
    if (o.kind === "certain") {
      said.dataset.value = o.value;
      Object.assign(said.dataset, { outcome: o.name, p: "1" });
    } else if (o.type !== "bool") {
      const chips = el("span", { class: "fm-sum-values" });
      for (const v of possible(o)) {
        const text = v[field] ?? v.percent;
        const shown = (mode !== "exactly" && v[`${mode}_label`]) || v.label;
        chips.append(el("span", { class: "fm-chip", dataValue: v.value }, el("span", { class: "fm-chip-value", text: shown }), " ", el("span", { class: "fm-chip-p", text })));
      }
      item.append(chips);
    }
    list.append(item);
  }
}

// ---------------------------------------------------------------- details

/** @param {DistributionOutcome} outcome */
function oddsTable(outcome) {
  const scale = outcome.values.some((v) => v.at_least !== null);
  const head = el(
    "tr",
    {},
    el("th", { scope: "col", text: "Result" }),
    el("th", { scope: "col", text: "Chance" }),
    el("th", { scope: "col", class: "fm-barcell", ariaHidden: "true" }),
    el("th", { scope: "col", text: "Exact" }),
    scale ? el("th", { scope: "col", text: "At least", title: "The chance of this result or a higher one" }) : null,
    scale ? el("th", { scope: "col", text: "At most", title: "The chance of this result or a lower one" }) : null,
  );
  const body = el("tbody");
  for (const v of possible(outcome)) {
    const attrs = { dataOutcome: outcome.name, dataValue: v.value, dataP: v.p };
    body.append(
      el(
        "tr",
        {},
        el("th", { scope: "row", class: "fm-value", text: v.label }),
        el("td", { class: "fm-pct", ...attrs, text: v.percent }),
        el("td", { class: "fm-barcell", ariaHidden: "true" }, el("span", { class: "fm-bar", style: `width: ${v.bar}%` })),
        el("td", { class: "fm-frac", ...attrs }, ...breakable(v.p)),
        scale ? el("td", { class: "fm-atleast", dataOutcome: outcome.name, dataValue: v.value, dataPAtLeast: v.at_least ?? undefined, title: v.at_least ?? undefined, text: v.at_least_percent ?? "\u2014" }) : null,
        scale ? el("td", { class: "fm-atmost", dataOutcome: outcome.name, dataValue: v.value, dataPAtMost: v.at_most ?? undefined, title: v.at_most ?? undefined, text: v.at_most_percent ?? "\u2014" }) : null,
      ),
    );
  }
  return el("div", { class: "fm-table-scroll", tabIndex: 0, role: "region", ariaLabel: outcome.label }, el("table", { class: "fm-odds" }, el("thead", {}, head), body));
}

/** @param {OddsOutcome} outcome */
function outcomeSection(outcome) {
  const section = el("section", { class: "fm-outcome", dataOutcome: outcome.name }, el("p", { class: "fm-outcome-title", text: outcome.label }));
  if (outcome.help) section.append(el("p", { class: "fm-outcome-help", text: outcome.help }));
  if (outcome.kind === "certain") {
    section.append(el("p", { class: "fm-certain" }, "Certain: ", el("strong", { dataOutcome: outcome.name, dataValue: outcome.value, dataP: "1", text: outcome.value_label })));
    return section;
  }
  section.append(oddsTable(outcome));
  if (outcome.mean !== null) {
    const mean = el("p", { class: "fm-mean", dataOutcome: outcome.name, dataMean: outcome.mean });
    mean.append("Mean ", el("strong", { text: outcome.mean_text }));
    if (outcome.mean.includes("/")) mean.append(` (exactly ${outcome.mean})`);
    if (outcome.mean_leaves_out.length) mean.append(`, over the numbers only: it leaves out ${outcome.mean_leaves_out.join(" and ")} (${outcome.mean_leaves_out_p} of the time)`);
    section.append(mean);
  }
  return section;
}

/** @param {HTMLElement} container @param {OutcomesAnswer} answer */
export function renderDetails(container, answer) {
  container.replaceChildren(...answer.outcomes.map(outcomeSection));
}

/** @param {HTMLElement} container @param {OutcomesAnswer} answer */
export function renderNotes(container, answer) {
  container.replaceChildren();
  container.hidden = !answer.notes.length;
  if (!answer.notes.length) return;
  const list = el("ul", { class: "fm-notes" });
  for (const note of answer.notes) list.append(el("li", { text: note }));
  container.append(el("p", { class: "fm-readings-title", text: "Readings in force" }), list);
}

// ---------------------------------------------------------------- how it comes about

// The answer's steps: each labelled roll, how often it is made, and what it
// decides given that it is made (rules_py.dice.enumerate_steps).
/** @param {HTMLElement} container @param {OutcomesAnswer} answer a resolution has no steps */
export function renderSteps(container, answer) {
  const steps = answer.kind === "odds" ? answer.steps : []; // a resolution has none
  container.replaceChildren();
  if (!steps.length) {
    container.append(el("p", { class: "fm-steps-none", text: "No dice are rolled with these inputs: every result follows from them." }));
    return;
  }
  container.append(el("p", { class: "fm-steps-intro", text: "Every roll the procedure can make, in the order it first comes up: how often it is made at all, and what it decides when it is made (each roll's chances add up to 100%)." }));
  const list = el("ol", { class: "fm-steps-list" });
  steps.forEach((step, i) => {
    const often = step.often;
    const body = el("tbody");
    for (const v of step.values) {
      const attrs = { dataStep: String(i), dataValue: v.value, dataP: v.p };
      body.append(el("tr", {}, el("th", { scope: "row", class: "fm-value", text: v.label }), el("td", { class: "fm-pct", ...attrs, text: v.percent }), el("td", { class: "fm-frac", ...attrs, text: v.p })));
    }
    const head = el("tr", {}, el("th", { scope: "col", text: "Result" }), el("th", { scope: "col", text: "Chance", title: "The chance of this result when the roll is made" }), el("th", { scope: "col", text: "Exact" }));
    list.append(
      el(
        "li",
        { class: "fm-step-item", dataStep: String(i), dataLabel: step.label, dataPRolled: step.p_rolled },
        step.same === null
          ? el("p", { class: "fm-step-head" }, el("strong", { class: "fm-step-label", text: step.label }), ": ", el("span", { class: "fm-step-often", text: often }))
          : el("div", { class: "fm-step-head fm-step-same" }, el("p", { class: "fm-step-same-text", text: step.same }), el("ul", { class: "fm-step-rolls" }, ...step.rolls.map((r) => el("li", { dataLabel: r.label, dataPRolled: r.p_rolled }, el("strong", { class: "fm-step-label", text: r.label }), ": ", el("span", { class: "fm-step-often", text: r.often }))))),
        el("div", { class: "fm-table-scroll", tabIndex: 0, role: "region", ariaLabel: step.label }, el("table", { class: "fm-odds fm-step-table" }, el("thead", {}, head), body)),
      ),
    );
  });
  container.append(list);
}

// ---------------------------------------------------------------- roll

// A roll's log (renderRoll) and one die of it (dieItem) are roll-log.mjs's.

// ---------------------------------------------------------------- headline

// The answer's one line (the engine's `headline`, from its `headline_parts`),
// first in the answer. A comparison's parts read A → B, B's part marked
// data-option="b" (and A's "a"), so a player sees what option B changed.
/** @param {HTMLElement} line @param {OutcomesAnswer | CompareAnswer | import("../../../types/answer.js").RollAnswer} answer */
export function renderHeadline(line, answer) {
  line.replaceChildren();
  /** @type {(HeadlinePart | CompareHeadlinePart)[]} */ (answer.headline_parts).forEach((part, i) => {
    if (i) line.append(" \u00b7 ");
    const item = el("span", { class: "fm-headline-part", dataOutcome: part.outcome });
    if (!("b" in part)) item.textContent = part.text;
    else item.append(part.lead, el("span", { dataOption: "a", text: part.a }), " \u2192 ", el("span", { class: "fm-headline-b", dataOption: "b", text: part.b }), part.tail);
    line.append(item);
  });
  line.dataset.headline = answer.headline;
}
