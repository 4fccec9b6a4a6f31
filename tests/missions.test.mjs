// The store of missions in play (docs/assets/calc/missions.mjs), on Node with a
// localStorage of its own: a mission is one by its key, and only by it (issue 44,
// Data and trust 1 and 7); a page writes a mission's dice only over those it saw.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

/** A localStorage as a page has one: text values by key. */
class Storage {
  constructor() {
    this.items = new Map();
  }
  /** @param {string} key */
  getItem(key) {
    return this.items.has(key) ? this.items.get(key) : null;
  }
  /** @param {string} key @param {string} value */
  setItem(key, value) {
    this.items.set(key, String(value));
  }
  /** @param {string} key */
  removeItem(key) {
    this.items.delete(key);
  }
}
globalThis.localStorage = /** @type {any} */ (new Storage());

const { STORE_KEY, addMission, findMission, followMission, importMissions, missionFragment, readMissions, storeText } = await import("../docs/assets/calc/missions.mjs");

const SMOKE = { calculator: "k47-smoke-barrage", inputs: {}, title: "Smoke barrage" };

beforeEach(() => localStorage.removeItem(STORE_KEY));

test("Keep in play of the same inputs and dice keeps two missions, each under its own key", () => {
  // Issue 44, Data and trust 1: Battery A at a 5, Start again, Battery B at a 5. On main the
  // second replaced the first (one of the same inputs whose dice the new ones carry on from).
  const a = addMission({ ...SMOKE, dice: "5", name: "Battery A" });
  const b = addMission({ ...SMOKE, dice: "5", name: "Battery B" });
  assert.equal(a.problem, "");
  assert.equal(b.problem, "");
  assert.deepEqual([a.others, b.others], [0, 1]);
  assert.notEqual(a.mission?.key, b.mission?.key);
  assert.deepEqual(readMissions().missions.map((m) => [m.name, m.dice]), [["Battery B", "5"], ["Battery A", "5"]]);
  // Nor does a new one with more dice replace one it carries on from: only following does.
  addMission({ ...SMOKE, dice: "5,3", name: "Battery C" });
  assert.deepEqual(readMissions().missions.map((m) => m.name), ["Battery C", "Battery B", "Battery A"]);
});

test("a mission kept under the calculator's title, with one of that name kept, is numbered", () => {
  addMission({ ...SMOKE, dice: "", name: null });
  addMission({ ...SMOKE, dice: "2", name: null });
  addMission({ ...SMOKE, dice: "3", name: null });
  assert.deepEqual(readMissions().missions.map((m) => m.name), ["Smoke barrage 3", "Smoke barrage 2", "Smoke barrage"]);
});

test("a mission's dice are written only over the dice the page last saw", () => {
  const { mission } = addMission({ ...SMOKE, dice: "2", name: "Battery A" });
  const key = /** @type {string} */ (mission?.key);
  // This page saw "2": one more die is written.
  assert.equal(followMission(key, "2,3", "2").mission?.dice, "2,3");
  // Another page, which last saw "2", enters a 4: the store has moved on, and is not written over.
  const late = followMission(key, "2,4", "2");
  assert.equal(late.mission, undefined);
  assert.equal(late.moved?.dice, "2,3");
  assert.equal(readMissions().missions[0].dice, "2,3");
  // The same dice as the store's: nothing to write, the mission as it is.
  assert.equal(followMission(key, "2,3", "2").mission?.dice, "2,3");
  // Removed meanwhile: neither a mission nor a problem.
  assert.deepEqual(followMission("nosuchkey", "2", "2"), { problem: "" });
});

test("a link's mission: by the key its fragment names, else the one mission with exactly its dice", () => {
  const a = /** @type {any} */ (addMission({ ...SMOKE, dice: "5", name: "Battery A" }).mission);
  const b = /** @type {any} */ (addMission({ ...SMOKE, dice: "5", name: "Battery B" }).mission);
  const at = { calculator: SMOKE.calculator, inputs: {}, dice: "5" };
  assert.equal(findMission({ ...at, key: a.key })?.name, "Battery A");
  assert.equal(findMission({ ...at, key: b.key })?.name, "Battery B");
  assert.equal(findMission({ ...at, key: null }), null); // two alike: only a key says which
  assert.equal(findMission({ ...at, key: a.key, inputs: { turns: "3" } }), null); // another mission's inputs
  assert.equal(findMission({ ...at, key: null, dice: "5,1" }), null);
  addMission({ ...SMOKE, dice: "6", name: "Battery C" });
  assert.equal(findMission({ ...at, key: null, dice: "6" })?.name, "Battery C");
  // Found by key whatever its dice now: the page compares them.
  followMission(a.key, "5,2", "5");
  assert.equal(findMission({ ...at, key: a.key })?.dice, "5,2");
  assert.equal(missionFragment(a.key), `#mission=${a.key}`);
});

test("an import brings a mission kept here up to the copy with more dice, and never back", () => {
  // Issue 44, Data and trust 7: exported at "2", carried on on another device to "2,3,1",
  // imported back. On main the older copy stayed ("0 missions imported").
  const a = /** @type {any} */ (addMission({ ...SMOKE, dice: "2", name: "Battery A" }).mission);
  const exported = storeText(readMissions().missions);
  const further = storeText([{ ...a, dice: "2,3,1", kept: "2030-01-01T00:00:00.000Z" }, { ...a, key: "other1", dice: "4", name: "Battery D" }]);
  assert.deepEqual(importMissions(further), { added: 1, updated: 1, behind: 0, problem: "" });
  assert.deepEqual(readMissions().missions.map((m) => [m.key, m.dice]), [[a.key, "2,3,1"], ["other1", "4"]]);
  // The old export again: the copy here is further on and stays.
  assert.deepEqual(importMissions(exported), { added: 0, updated: 0, behind: 1, problem: "" });
  assert.equal(readMissions().missions[0].dice, "2,3,1");
  // As many dice, other ones: the one kept later.
  const earlier = storeText([{ ...a, dice: "2,3,6", kept: "2020-01-01T00:00:00.000Z" }]);
  assert.deepEqual(importMissions(earlier), { added: 0, updated: 0, behind: 1, problem: "" });
  const later = storeText([{ ...a, dice: "2,3,6", name: "Battery A, turn 4", kept: "2031-01-01T00:00:00.000Z" }]);
  assert.deepEqual(importMissions(later), { added: 0, updated: 1, behind: 0, problem: "" });
  assert.deepEqual([readMissions().missions[0].dice, readMissions().missions[0].name], ["2,3,6", "Battery A, turn 4"]);
});
