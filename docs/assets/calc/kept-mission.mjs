// Keep in play, from Use my dice (own-dice.mjs): a resolution kept under In play
// (missions.mjs) follows it from then on. Each die entered or taken back updates
// the kept mission, a finished one shows finished with a link to In play, and
// Start again or other inputs let it go. Each function takes the OwnDice whose
// dice it follows; nothing here knows a rule.

import { findMission, followMission, keepMission } from "./missions.mjs";
import { el } from "./results.mjs";

// The In play page, which lists the missions kept on this device (in-play.mjs).
const IN_PLAY = new URL("../../in-play/", import.meta.url);

/** Keep the resolution in play, under the name the player typed (or its calculator's title). @param {import("./own-dice.mjs").OwnDice} own */
export function keep(own) {
  if (!own.doc || own.doc.status !== "need") return;
  // A name the player did not type leaves a mission kept before (this one, fewer dice ago) its own.
  const name = (own.named && own.nameInput.value.trim()) || null;
  const { mission, problem } = keepMission({ calculator: own.view.id, inputs: own.doc.changed, dice: own.text, name, title: own.view.schema.title });
  own.kept = mission ? mission.key : null;
  showKept(own, mission, problem);
}

// The kept mission carries on with the dice answered here: each die entered or taken
// back updates it, and a finished one shows finished under In play. The dice of a
// link that a kept mission's Continue opened are that mission's: followed too.
/** @param {import("./own-dice.mjs").OwnDice} own @param {{status: string, changed: Record<string, string>}} doc */
export function follow(own, doc) {
  if (own.fromLink && !own.kept) own.kept = findMission({ calculator: own.view.id, inputs: doc.changed, dice: own.text })?.key ?? null;
  own.fromLink = false;
  if (!own.kept) return;
  const { mission, problem } = followMission(own.kept, own.text);
  if (!mission && !problem) return unfollow(own); // removed meanwhile
  showKept(own, mission, problem);
}

/** The dice here are no longer the kept mission's. @param {import("./own-dice.mjs").OwnDice} own */
export function unfollow(own) {
  own.kept = null;
  own.keepStatus.textContent = "";
  delete own.keepStatus.dataset.kept;
}

// What became of Keep in play: the mission's name, and a link to the In play page.
/**
 * @param {import("./own-dice.mjs").OwnDice} own
 * @param {import("./missions.mjs").Mission | undefined} mission
 * @param {string} problem
 */
function showKept(own, mission, problem) {
  own.keepStatus.dataset.kept = problem ? "false" : "true";
  if (problem || !mission) return own.keepStatus.replaceChildren(problem);
  own.nameInput.value = mission.name;
  const link = el("a", { href: IN_PLAY.href, text: "In play" });
  const name = `\u201c${mission.name}\u201d`;
  if (own.doc?.status === "done") own.keepStatus.replaceChildren(`${name} is finished: `, link, " shows its outcome, and can remove it.");
  else own.keepStatus.replaceChildren(`Kept in play as ${name}: each die entered here carries it on, under `, link, ".");
}
