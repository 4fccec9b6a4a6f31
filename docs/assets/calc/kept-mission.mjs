// Keep in play, from Use my dice (own-dice.mjs): a resolution kept under In play
// (missions.mjs) follows it from then on. Each die entered or taken back updates
// the kept mission, a finished one shows finished with a link to In play, and
// Start again or other inputs let it go. Nothing here knows a rule.
//
// Which mission, by its key alone: Keep in play keeps a new one every time
// (two batteries with the same inputs and dice are two missions), and only the
// page following a mission writes its dice. In play's Continue names the key
// in the address's fragment (#mission=KEY), which stays there while the page
// follows that mission, so a reload carries on the same one; a plain link's
// dice are followed only where exactly one kept mission has them.
//
// Another tab may carry the same mission on: every page hears of it (the
// storage event). A page whose dice were the mission's as kept shows the dice
// as they now stand; one with dice of its own not yet kept (a die entered,
// the engine still answering; a pool half entered) lets the mission go and
// says so, its dice written over nothing: Keep in play keeps them as another
// mission, or "Show it as it now stands" takes the mission's.
//
// Start again is another mission (the kept one stays where it was) and can
// be undone: Undo with no dice left brings back what it set aside.

import { STORE_KEY, addMission, findMission, followMission, missionFragment, readMissions, renameMission } from "./missions.mjs";
import { el } from "./results.mjs";

/** @typedef {import("./own-dice.mjs").OwnDice} OwnDice @typedef {import("./missions.mjs").Mission} Mission */

// The In play page, which lists the missions kept on this device (in-play.mjs).
const IN_PLAY = new URL("../../in-play/", import.meta.url);
const FRAGMENT = /^#mission=([a-z0-9]{1,24})$/; // missionFragment's

// The sections of this page following a kept mission: each hears of a change
// another tab made to the store (a tab never hears its own).
/** @type {Set<KeptMission>} */
const following = new Set();
addEventListener("storage", (event) => {
  if (event.key !== STORE_KEY && event.key !== null) return;
  for (const kept of [...following]) kept.changedElsewhere();
});

const rollsOf = (/** @type {string} */ dice) => (dice === "" ? [] : dice.split(",").map((e) => [e]));
const diceCount = (/** @type {string} */ dice) => (dice === "" ? "no dice" : `${dice.split(",").length} ${dice.includes(",") ? "dice" : "die"}`);

export class KeptMission {
  /** @param {OwnDice} own the Use my dice whose dice it keeps: its view, rolls, pending, text, doc and set() */
  constructor(own) {
    this.own = own;
    this.key = /** @type {string | null} */ (null); // the kept mission the dice entered here carry on
    this.dice = ""; // its dice as the store had them when this page last saw it: the only dice it writes over
    this.name = "";
    this.fromLink = false; // the dice came from a link, maybe a kept mission's Continue
    this.named = false; // the player typed a name for the mission
    this.sticky = false; // the status says something a new die must not hide (these dice are not kept)
    this.note = /** @type {string | undefined} */ (undefined); // said before "Kept in play" once the dice it took are answered
    /** @type {{rolls: string[][], key: string | null, dice: string, name: string, named: boolean}[]} */
    this.before = []; // what each Start again set aside, for Undo
    const title = own.view.schema.title;
    this.nameInput = el("input", { type: "text", class: "fm-mission-name", id: `fm-${own.view.n}-mission-name`, maxLength: 80, value: title, autocomplete: "off" });
    this.nameInput.addEventListener("input", () => (this.named = true));
    this.nameInput.addEventListener("change", () => {
      const name = this.nameInput.value.trim();
      if (!this.key || !name) return;
      const problem = renameMission(this.key, name);
      if (!problem) this.name = name.slice(0, 80);
      this.say(problem || `Renamed \u201c${name}\u201d under In play.`);
    });
    this.button = el("button", { type: "button", class: "md-button fm-keep", dataKeep: "true", text: "Keep in play", disabled: true });
    this.button.addEventListener("click", () => this.keep());
    this.status = el("p", { class: "fm-keep-status", role: "status" });
    this.box = el("div", { class: "fm-keep-box" }, el("label", { htmlFor: this.nameInput.id, class: "fm-label", text: "Name, to find it under In play" }), this.nameInput);
  }

  // The status: data-kept says whether the dice here are a kept mission's (none when it says nothing).
  /** @param {...(string | Node)} parts */
  say(...parts) {
    this.sticky = false;
    if (parts.length) this.status.dataset.kept = this.key ? "true" : "false";
    else delete this.status.dataset.kept;
    this.status.replaceChildren(...parts);
  }

  // Says what a new die must not hide: these dice are not the kept mission's.
  /** @param {...(string | Node)} parts */
  warn(...parts) {
    this.say(...parts);
    this.sticky = true;
  }

  // The address of the calculator's own page names the mission followed (none: the fragment goes).
  /** @param {string | null} key */
  address(key) {
    if (!this.own.view.standalone) return;
    const hash = key ? missionFragment(key) : FRAGMENT.test(location.hash) ? "" : location.hash;
    if (hash !== location.hash) history.replaceState(history.state, "", location.pathname + location.search + hash);
  }

  /** Follow this mission from now on. @param {Mission} m */
  take(m) {
    Object.assign(this, { key: m.key, dice: m.dice, name: m.name });
    this.nameInput.value = m.name;
    following.add(this);
    this.address(m.key);
  }

  /** The dice here are no longer the kept mission's; the status says `note`. @param {...string} note */
  letGo(...note) {
    this.key = null;
    following.delete(this);
    this.address(null);
    if (note.length) this.say(...note);
    else if (!this.sticky) this.say();
  }

  // Keep the resolution in play: a new mission, under the name the player typed
  // (or the calculator's title); the one followed here stays itself, renamed if a name was typed.
  keep() {
    const own = this.own;
    if (!own.doc || own.doc.status !== "need") return;
    const name = (this.named && this.nameInput.value.trim()) || null;
    if (this.key && readMissions().missions.some((m) => m.key === this.key)) {
      if (name && name !== this.name) renameMission(this.key, name);
      this.name = name ?? this.name;
      return this.follow(own.doc);
    }
    const { mission, others, problem } = addMission({ calculator: own.view.id, inputs: own.doc.changed, dice: own.text, name, title: own.view.schema.title });
    if (!mission) return this.warn(problem);
    this.take(mission);
    this.shown(mission, others ? `, beside ${others} other mission${others === 1 ? "" : "s"}` : "");
  }

  // The dice here were answered (own-dice.mjs, show): the mission followed carries them.
  // A link's dice are a kept mission's when its Continue opened them (the fragment
  // names it), or when exactly one mission of these inputs has them.
  /** @param {{changed: Record<string, string>}} doc */
  follow(doc) {
    const own = this.own;
    if (this.fromLink && !this.key) this.fromAddress(doc);
    this.fromLink = false;
    if (!this.key) return;
    const { mission, moved, problem } = followMission(this.key, own.text, this.dice);
    if (problem) return this.warn(problem);
    if (moved) return this.lost(moved);
    if (!mission) return this.letGo(`\u201c${this.name}\u201d is no longer in play (removed on another page): these dice are not kept. Keep in play keeps them again.`);
    this.dice = mission.dice;
    this.shown(mission);
  }

  /** @param {{changed: Record<string, string>}} doc */
  fromAddress(doc) {
    const own = this.own;
    const named = own.view.standalone ? FRAGMENT.exec(location.hash) : null;
    const m = findMission({ key: named ? named[1] : null, calculator: own.view.id, inputs: doc.changed, dice: own.text });
    if (!m) return this.address(null);
    if (m.dice === own.text) return this.take(m);
    this.address(null);
    this.warn(`\u201c${m.name}\u201d has moved on since this link: it has ${diceCount(m.dice)} now, and these dice are not kept. `, this.showButton(m), " or Keep in play keeps these as another mission.");
  }

  // "Show it as it now stands": the mission's dice, here, followed.
  /** @param {Mission} m */
  showButton(m) {
    const button = el("button", { type: "button", class: "md-button fm-take-kept", dataTakeKept: m.key, text: "Show it as it now stands" });
    button.addEventListener("click", () => {
      const now = readMissions().missions.find((x) => x.key === m.key);
      if (!now) return this.warn(`\u201c${m.name}\u201d is no longer in play.`);
      this.take(now);
      this.say(`\u201c${now.name}\u201d as it now stands\u2026`);
      this.own.set(rollsOf(now.dice));
    });
    return button;
  }

  // Another tab carried the mission on while dice entered here were not kept yet:
  // neither is written over the other; the player chooses.
  /** @param {Mission} m */
  lost(m) {
    this.letGo();
    this.warn(`Not kept: \u201c${m.name}\u201d was carried on in another tab (${diceCount(m.dice)} now) while these dice were entered here, and neither is written over the other. `, this.showButton(m), " or Keep in play keeps these as another mission.");
  }

  // The store changed in another tab (the storage event): the mission followed here, as it now stands.
  changedElsewhere() {
    const own = this.own;
    if (!own.view.root.isConnected || !this.key) return following.delete(this);
    const { missions, problem } = readMissions();
    if (problem) return this.letGo(problem);
    const m = missions.find((x) => x.key === this.key);
    if (!m) return this.letGo(`\u201c${this.name}\u201d was removed in another tab: these dice are not kept. Keep in play keeps them again.`);
    if (m.name !== this.name && document.activeElement !== this.nameInput) this.nameInput.value = m.name;
    const renamed = m.name !== this.name;
    this.name = m.name;
    if (m.dice === this.dice) return renamed ? this.shown(m) : undefined;
    if (own.text !== this.dice || own.pending.length) return this.lost(m);
    this.dice = m.dice;
    this.note = `\u201c${m.name}\u201d was carried on in another tab: its dice show here as they now stand. `;
    own.set(rollsOf(m.dice));
  }

  // What became of Keep in play: the mission's name, and a link to the In play page.
  /** @param {Mission} mission @param {string} [beside] how many others are in play, when it was kept just now */
  shown(mission, beside = "") {
    const link = el("a", { href: IN_PLAY.href, text: "In play" });
    const name = `\u201c${mission.name}\u201d`;
    const note = this.note ?? "";
    this.note = undefined;
    if (this.own.doc?.status === "done") this.say(note, `${name} is finished: `, link, " shows its outcome, and can remove it.");
    else this.say(note, `Kept in play as ${name}${beside}: each die entered here carries it on, under `, link, ".");
  }

  // New dice here (own-dice.mjs, set): a status that was for the dice before goes.
  diceChanged() {
    if (!this.key && !this.sticky) this.say();
  }

  // Use my dice closed: the mission stays as it is under In play (opened again, it starts with no dice).
  closed() {
    this.before = [];
    this.letGo();
  }

  // Other inputs: a kept mission is for the inputs it was kept with.
  inputsChanged() {
    const name = this.key ? this.name : null;
    this.before = [];
    this.letGo(...(name ? [`\u201c${name}\u201d stays under In play with the inputs it was kept with: these are others.`] : []));
  }

  // Start again: another mission, with no dice; the kept one stays where it was.
  startAgain() {
    const own = this.own;
    const was = this.key ? this.name : null;
    const set = { rolls: own.rolls, key: this.key, dice: this.dice, name: this.nameInput.value, named: this.named };
    if (set.rolls.length) this.before.push(set); // (none: a link's dice= given twice, refused)
    this.sticky = false;
    this.letGo();
    this.nameInput.value = own.view.schema.title;
    this.named = false;
    own.set([]);
    this.say(`Started again${was ? `, as another mission: \u201c${was}\u201d keeps its dice under In play` : ""}.${set.rolls.length ? ` Undo brings back the ${diceCount(set.rolls.flat().join(","))} before.` : ""}`);
  }

  // Undo with no dice left: the dice the last Start again set aside, and the mission
  // they carried on if it still stands where they left it. False if there is none.
  undoStart() {
    const b = this.before.pop();
    if (!b) return false;
    this.nameInput.value = b.name;
    this.named = b.named;
    const m = b.key ? readMissions().missions.find((x) => x.key === b.key) : undefined;
    if (m && m.dice === b.dice) this.take(m);
    this.own.set(b.rolls);
    if (m && m.dice !== b.dice) this.lost(m);
    return true;
  }
}
