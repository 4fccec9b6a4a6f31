// Missions in play: resolutions a player keeps on this device ("Keep in play",
// own-dice.mjs) to carry on later (the In play page, in-play.mjs). This module
// holds the store alone: what a mission is, reading and writing it in
// localStorage, and its export and import as a small JSON text.
//
// A mission is one by its key, and only by it: Keep in play always keeps a new
// one (addMission), and a mission's dice change only where it is followed
// (followMission), and there only over the dice that page last saw, so that
// two tabs never silently write over each other's dice (every page hears of a
// change in another through the storage event: STORE_KEY). An import brings a
// mission kept here already up to the copy with more dice (importMissions).
//
// A mission: {key, calculator, inputs: {name: value}, dice (the dice text so
// far, as a link's dice= carries it), name (the player's), kept (ISO time)}.
// The store: {format: FORMAT, missions: [...]}. What is read (from storage, or
// an imported file) is data and nothing else: anything that is not exactly
// what this module writes is refused whole, with a message, and left as it is
// (it is never written over, bar the player's "Remove all"). Nothing here
// leaves the device.

export const STORE_KEY = "fm-missions";
export const FORMAT = "fire-mission missions 1";
const MAX_MISSIONS = 100;
const MAX_NAME = 80;
// The longest dice text the page takes, here and in Use my dice (own-dice.mjs): the engine's
// bound on entries (calculators.json's max_dice, 200) of a few characters each.
export const MAX_DICE_TEXT = 2000;
const MAX_VALUE = 40000; // one input's text: a map's is the longest (view.mjs, HISTORY_TEXT_MAX)
const MAX_INPUTS = 60;
const ID = /^[a-z0-9][a-z0-9-]{0,79}$/;
const NAME = /^[a-z_][a-z0-9_]{0,79}$/;
const KEY = /^[a-z0-9]{1,24}$/;
const KEYS = ["calculator", "dice", "inputs", "kept", "key", "name"]; // sorted

/** The fragment of a calculator's address that names the kept mission its dice carry on (kept-mission.mjs). @param {string} key */
export const missionFragment = (key) => `#mission=${key}`;

/** @param {unknown} v @returns {v is Record<string, unknown>} */
const isPlain = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
/** @param {unknown} v @param {number} max @returns {v is string} */
const isText = (v, max) => typeof v === "string" && v.length <= max;

// Why `m` is not a mission this module wrote, or "" if it is one.
/** @param {unknown} m */
function missionProblem(m) {
  if (!isPlain(m)) return "an entry is not a mission";
  const keys = Object.keys(m).sort();
  if (keys.join() !== KEYS.join()) return `a mission has the fields ${keys.join(", ") || "none"}, not ${KEYS.join(", ")}`;
  if (!isText(m.key, 24) || !KEY.test(m.key)) return "a mission's key is not one this page makes";
  if (!isText(m.calculator, 80) || !ID.test(m.calculator)) return "a mission names no calculator";
  if (!isText(m.name, MAX_NAME)) return `a mission's name is not a text of at most ${MAX_NAME} characters`;
  if (!isText(m.dice, MAX_DICE_TEXT)) return `a mission's dice are not a text of at most ${MAX_DICE_TEXT} characters`;
  if (!isText(m.kept, 40) || Number.isNaN(Date.parse(m.kept))) return "a mission's time is not a time";
  if (!isPlain(m.inputs)) return "a mission's inputs are not a list of names and values";
  const inputs = Object.entries(m.inputs);
  if (inputs.length > MAX_INPUTS) return "a mission has more inputs than any calculator";
  for (const [name, value] of inputs) if (!NAME.test(name) || !isText(value, MAX_VALUE)) return "a mission's inputs are not names with text values";
  return "";
}

/**
 * The missions of a parsed store, or why it is not one this page wrote.
 * @param {unknown} data
 * @returns {{missions: Mission[], problem: string}}
 */
export function checkStore(data) {
  if (!isPlain(data) || Object.keys(data).sort().join() !== "format,missions") return { missions: [], problem: "it is not a list of missions this site wrote" };
  const store = /** @type {{format: unknown, missions: unknown}} */ (data);
  if (store.format !== FORMAT) return { missions: [], problem: `it is not in this site's format ("${FORMAT}")` };
  if (!Array.isArray(store.missions) || store.missions.length > MAX_MISSIONS) return { missions: [], problem: `it does not hold a list of at most ${MAX_MISSIONS} missions` };
  const keys = new Set();
  for (const m of store.missions) {
    const problem = missionProblem(m);
    if (problem) return { missions: [], problem };
    // The key is what Rename and Remove find a mission by: this page never gives two missions one.
    if (keys.has(m.key)) return { missions: [], problem: `two missions have the key ${m.key}` };
    keys.add(m.key);
  }
  return { missions: /** @type {Mission[]} */ (store.missions.map((m) => ({ ...m, inputs: { ...m.inputs } }))), problem: "" };
}

/**
 * @typedef {{key: string, calculator: string, inputs: Record<string, string>, dice: string, name: string, kept: string}} Mission
 */

/**
 * The missions a text holds (the store's, or an imported file's), or why not.
 * @param {string | null} text
 */
export function parseStore(text) {
  if (text === null || text === "") return { missions: [], problem: "" };
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return { missions: [], problem: "it is not JSON (cut short, or edited by hand)" };
  }
  return checkStore(data);
}

/** The store's text for these missions: what is saved and what is exported. */
/** @param {Mission[]} missions */
export function storeText(missions) {
  return JSON.stringify({ format: FORMAT, missions }, null, 1);
}

/**
 * The missions kept on this device; problem says why the store was refused
 * (then nothing of it is used, and it is left as it is), or that storage is off.
 * @returns {{missions: Mission[], problem: string, unavailable?: boolean}}
 */
export function readMissions() {
  let text;
  try {
    text = localStorage.getItem(STORE_KEY);
  } catch {
    return { missions: [], problem: "This browser keeps nothing on this device for this site (storage is off, or a private window).", unavailable: true };
  }
  const read = parseStore(text);
  if (read.problem) read.problem = `The missions kept on this device were not read: ${read.problem}. They are left as they are; Remove all clears them.`;
  return read;
}

// Writes the missions; the message of what went wrong, or "".
/** @param {Mission[]} missions */
function write(missions) {
  try {
    localStorage.setItem(STORE_KEY, storeText(missions));
    return "";
  } catch (error) {
    return `Not kept: this browser refused to store it (${/** @type {Error} a DOMException */ (error).name}).`;
  }
}

function newKey() {
  const a = new Uint32Array(2);
  crypto.getRandomValues(a);
  return a[0].toString(36) + a[1].toString(36);
}

const sameInputs = (/** @type {Record<string, string>} */ a, /** @type {Record<string, string>} */ b) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());
const count = (/** @type {string} */ dice) => (dice === "" ? 0 : dice.split(",").length);

/**
 * Keeps a new mission, under its own new key: never in place of another, though
 * one of the same calculator, inputs and dice be kept (two batteries alike are an
 * ordinary case; a kept mission is replaced only by itself, through followMission).
 * It is named `name`, or else `title`, with a number after it when another mission
 * has that name already ("Smoke barrage 2"). `others` is how many other missions are in play.
 * @param {{calculator: string, inputs: Record<string, string>, dice: string, name: string | null, title: string}} mission
 * @returns {{mission?: Mission, others: number, problem: string}}
 */
export function addMission({ calculator, inputs, dice, name, title }) {
  const read = readMissions();
  if (read.problem) return { others: 0, problem: read.problem };
  const others = read.missions.length;
  if (others >= MAX_MISSIONS) return { others, problem: `Not kept: ${MAX_MISSIONS} missions are in play already; remove one first.` };
  const names = new Set(read.missions.map((m) => m.name));
  let given = (name ?? title).slice(0, MAX_NAME);
  if (name === null) for (let n = 2; names.has(given); n++) given = `${title.slice(0, MAX_NAME - 4)} ${n}`;
  /** @type {Mission} */
  const mission = { key: newKey(), calculator, inputs: { ...inputs }, dice, name: given, kept: new Date().toISOString() };
  const problem = missionProblem(mission) || write([mission, ...read.missions]);
  return problem ? { others, problem: problem.startsWith("Not kept") ? problem : `Not kept: ${problem}.` } : { mission, others, problem: "" };
}

/** Removes the mission with this key; the message of what went wrong, or "". @param {string} key */
export function removeMission(key) {
  const read = readMissions();
  return read.problem || write(read.missions.filter((m) => m.key !== key));
}

/** Renames a mission; the message of what went wrong, or "". @param {string} key @param {string} name */
export function renameMission(key, name) {
  const read = readMissions();
  if (read.problem) return read.problem;
  return write(read.missions.map((m) => (m.key === key ? { ...m, name: name.slice(0, MAX_NAME) } : m)));
}

/** Removes every mission, and a store that was refused. */
export function removeAll() {
  try {
    localStorage.removeItem(STORE_KEY);
    return "";
  } catch (error) {
    return `Not removed: this browser refused (${/** @type {Error} a DOMException */ (error).name}).`;
  }
}

/**
 * Adds the missions of an exported text to those kept. A mission kept here
 * already (the same key: the same mission, maybe carried on on another
 * device) is kept once, as the copy with more dice has it (on as many, the
 * one kept later): a mission continued elsewhere comes back with its dice,
 * and one played further here is not put back. `updated` counts the missions
 * here that the text carried further, `behind` those it has as far or less.
 * @param {string} text
 * @returns {{added: number, updated: number, behind: number, problem: string}}
 */
export function importMissions(text) {
  const none = { added: 0, updated: 0, behind: 0 };
  const read = readMissions();
  if (read.problem) return { ...none, problem: read.problem };
  const given = parseStore(text.trim());
  if (given.problem) return { ...none, problem: `Not imported: ${given.problem}.` };
  const byKey = new Map(given.missions.map((m) => [m.key, m]));
  const ahead = (/** @type {Mission} */ theirs, /** @type {Mission} */ ours) =>
    theirs.dice !== ours.dice && (count(theirs.dice) > count(ours.dice) || (count(theirs.dice) === count(ours.dice) && Date.parse(theirs.kept) > Date.parse(ours.kept)));
  let updated = 0;
  const kept = read.missions.map((m) => {
    const theirs = byKey.get(m.key);
    byKey.delete(m.key);
    if (!theirs || !ahead(theirs, m)) return m;
    updated++;
    return theirs;
  });
  const fresh = [...byKey.values()];
  const behind = given.missions.length - fresh.length - updated;
  if (kept.length + fresh.length > MAX_MISSIONS) return { ...none, problem: `Not imported: more than ${MAX_MISSIONS} missions in all.` };
  const problem = write([...kept, ...fresh]);
  return problem ? { ...none, problem } : { added: fresh.length, updated, behind, problem: "" };
}

/**
 * The kept mission a calculator page opened from a link carries on: the one
 * whose key the address names (In play's Continue: `#mission=KEY`), if it is of
 * this calculator and inputs, whatever its dice now (the caller compares
 * them); with no key, the one mission of this calculator, inputs and exactly
 * these dice (none when two are alike: which is which, only a key says).
 * @param {{key: string | null, calculator: string, inputs: Record<string, string>, dice: string}} at
 * @returns {Mission | null}
 */
export function findMission({ key, calculator, inputs, dice }) {
  const ours = readMissions().missions.filter((m) => m.calculator === calculator && sameInputs(m.inputs, inputs));
  if (key) return ours.find((m) => m.key === key) ?? null;
  const alike = ours.filter((m) => m.dice === dice);
  return alike.length === 1 ? alike[0] : null;
}

/** The kept mission with this key, or null (none, or the store refused). @param {string} key */
export function missionByKey(key) {
  return readMissions().missions.find((m) => m.key === key) ?? null;
}

/**
 * A kept mission followed where it is played (kept-mission.mjs): its dice are
 * now these (a die entered or taken back), its name kept. It is written only
 * over the dice this page last saw it with (`base`): a mission carried on
 * meanwhile in another tab is not written over but returned as `moved`, so
 * that no tab's dice silently replace another's. `mission` is undefined when
 * it is no longer kept (removed meanwhile, on another page) or the store was
 * refused (then `problem` says why).
 * @param {string} key
 * @param {string} dice
 * @param {string} base
 * @returns {{mission?: Mission, moved?: Mission, problem: string}}
 */
export function followMission(key, dice, base) {
  const read = readMissions();
  if (read.problem) return { problem: read.problem };
  const kept = read.missions.find((m) => m.key === key);
  if (!kept) return { problem: "" };
  if (kept.dice === dice) return { mission: kept, problem: "" };
  if (kept.dice !== base) return { moved: kept, problem: "" };
  const mission = { ...kept, dice, kept: new Date().toISOString() };
  const problem = missionProblem(mission) || write(read.missions.map((m) => (m.key === key ? mission : m)));
  return problem ? { problem: problem.startsWith("Not kept") ? problem : `Not kept: ${problem}.` } : { mission, problem: "" };
}
