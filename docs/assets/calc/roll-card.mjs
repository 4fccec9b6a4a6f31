// The card a roll prints (answer-card.mjs picks it while the page shows a roll of its
// inputs, a roll link's included): the seed and the command that repeats the roll, so
// that anyone can check it; the inputs in words; every die in the order rolled, its
// faces (those that scored boxed) and what it decided, with the engine's working; each
// outcome's value. All of it the engine's text (the roll's typed answer).

import { checkIt, inputList, section } from "./card-parts.mjs";
import { el } from "./results.mjs";

/** @typedef {import("../../../types/answer.js").RollAnswer} RollAnswer */

// The seed, as the roll log says it (roll-log.mjs): a phrase with the number it stands for.
/** @param {RollAnswer} answer */
export function seedLine(answer) {
  const line = el("p", { class: "fm-card__seed" }, "Rolled with seed ", el("strong", { text: answer.seed }));
  if (answer.seed_phrase !== null) line.append(` (the phrase stands for the number ${answer.seed_number})`);
  return line;
}

/** One die (or pool) rolled: its label and dice, its faces, what it decided, the working. @param {import("../../../types/answer.js").Die} d */
function dieLine(d) {
  const faces = el("span", { class: "fm-card__faces" });
  d.faces.forEach((f, i) => {
    if (i) faces.append(" ");
    faces.append(el("span", { class: f.scored ? "fm-card__face fm-card__face--scored" : "fm-card__face", text: String(f.face) }));
  });
  return el(
    "li",
    { dataCardDie: d.dice },
    el("strong", { text: d.label }),
    ` ${d.dice}: `,
    faces,
    " \u2192 ",
    el("strong", { text: d.result }),
    el("span", { class: "fm-card__working", text: d.working }),
    d.means ? el("span", { class: "fm-card__working", text: d.means }) : null,
  );
}

/** Each outcome's value, its label before it. @param {import("../../../types/answer.js").RolledOutcome[]} outcomes */
export function rolledList(outcomes) {
  return el("dl", { class: "fm-card__inputs fm-card__rolled" }, ...outcomes.map((o) => el("div", { dataCardOutcome: o.name }, el("dt", { text: o.label }), el("dd", { text: o.value_label }))));
}

/**
 * The card's body under its head (whose lines are the headline and seedLine).
 * @param {import("../../../types/calculator.js").CalculatorSchema} schema @param {RollAnswer} answer
 */
export function rollCard(schema, answer) {
  const scored = answer.dice.some((d) => d.faces.some((f) => f.scored !== null));
  const dice = answer.dice.length ? el("ol", { class: "fm-card__dice" }, ...answer.dice.map(dieLine)) : null;
  return [
    checkIt(answer.command),
    ...section("Inputs", inputList(schema.fields, answer.inputs)),
    ...section("The dice, in the order rolled", answer.no_dice ? el("p", { text: answer.no_dice }) : null, dice, scored ? el("p", { class: "fm-card__key", text: "A face in a box scored." }) : null),
    ...section("What the roll gave", rolledList(answer.outcomes)),
  ];
}
