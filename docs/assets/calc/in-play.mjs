// The In play page (docs/in-play.md, root [data-in-play]): the missions kept on
// this device (missions.mjs), each with its dice so far in the engine's words
// (the resolution's given_words), the next roll it needs and the odds of what
// happens next, as the engine answers them now; a tap carries on in the
// calculator (its link, with the inputs and the dice so far, and the mission's
// key in the fragment: kept-mission.mjs). Mounted by calculator.mjs, which
// lends it the engine and the calculators' list.
//
// An import adds the missions of a text (another device's export); one kept
// here already, by its key, takes the copy with more dice (missions.mjs,
// importMissions), and the message says which were brought up to date.
//
// Live: a die entered in another tab, a mission kept, renamed or removed
// there, shows here at once (the storage event; on coming back to the tab,
// too); each mission's answer is asked once for its dice. Continue opens the
// mission as the store has it when tapped, never as an older view showed it.
//
// A mission is checked against the calculator as this build has it: one
// whose calculator or inputs this build does not have says so, one whose
// inputs or dice the calculator refuses says that; either can be removed, and
// never reaches the page as anything but text. DOM contract: root
// data-status = loading | ready; each mission [data-mission="<key>"]
// [data-state = need | done | changed (no such calculator or input) | invalid
// (inputs or dice refused) | error]; its dice so far [data-dice-words]; its
// next roll [data-need-label][data-need-faces]; a finished one's outcomes
// [data-roll-outcome][data-value].

import { MissionCard } from "./mission-card.mjs";
import { STORE_KEY, importMissions, missionFragment, readMissions, removeAll, removeMission, renameMission, storeText } from "./missions.mjs";
import { el, renderSummary } from "./results.mjs";

const SITE_ROOT = new URL("../../", import.meta.url);
const MAX_IMPORT = 1_000_000; // bytes: far more than 100 missions take

/** @typedef {import("../../../types/calculator.js").CalculatorSchema} CalculatorSchema @typedef {import("./missions.mjs").Mission} Mission */
/** @typedef {{doc?: import("../../../types/answer.js").ResolveAnswer | import("../../../types/calculator.js").EngineError, failed?: string}} Answered */
/** @typedef {{sig: string, element: HTMLElement, answer: () => Promise<void>, answered?: Promise<void>}} Item */

/**
 * @param {HTMLElement} root
 * @param {import("./engine.mjs").Engine} engine
 * @param {() => Promise<CalculatorSchema[]>} loadSchema the calculators' list
 */
export async function mountInPlay(root, engine, loadSchema) {
  root.dataset.status = "loading";
  let schemas;
  try {
    schemas = await loadSchema();
  } catch (error) {
    root.replaceChildren(el("p", { class: "fm-engine fm-engine-failed", text: `The missions cannot be shown: ${/** @type {Error} */ (error).message}.` }));
    root.dataset.status = "error";
    return;
  }
  new InPlay(root, engine, schemas).show();
}

class InPlay {
  /** @param {HTMLElement} root @param {import("./engine.mjs").Engine} engine @param {CalculatorSchema[]} schemas */
  constructor(root, engine, schemas) {
    this.root = root;
    this.engine = engine;
    this.schemas = schemas;
    this.seq = 0;
    this.shownText = /** @type {string | null | undefined} */ (undefined); // the store's text as last shown
    /** @type {Map<string, Promise<Answered>>} each mission's answer, by its calculator, inputs and dice */
    this.answers = new Map();
    /** @type {Map<string, Item>} each mission's item, by key */
    this.items = new Map();
    this.problem = el("p", { class: "fm-in-play-problem", role: "alert", hidden: true });
    this.status = el("p", { class: "fm-in-play-status", role: "status" });
    this.list = el("ol", { class: "fm-missions" });
    this.empty = el("p", { class: "fm-in-play-empty", text: "No missions in play on this device. Keep one from a calculator: Use my dice, then Keep in play." });
    // The tools' boxes that show() and an import fill (tools() lays them out).
    this.exportLink = el("a", { class: "md-button fm-export", dataExport: "true", download: "fire-mission-missions.json", text: "Export as a file" });
    this.exportText = el("textarea", { class: "fm-export-text", rows: 4, readOnly: true, spellcheck: false, ariaLabel: "The missions as text, to copy" });
    this.importText = el("textarea", { class: "fm-import-text", id: "fm-import-text", rows: 3, spellcheck: false });
    this.card = new MissionCard(); // what a mission's Print prints (mission-card.mjs)
    root.replaceChildren(this.problem, this.empty, this.list, this.tools(), this.status, this.card.element);
    // Another tab changed the store, or this one comes back into view (a storage
    // event may have passed it by, in the back-forward cache): shown as it now stands.
    const again = (/** @type {Event} */ event) => {
      if (!root.isConnected) return ["storage", "pageshow", "visibilitychange"].forEach((type) => removeEventListener(type, again));
      if (event.type === "storage" && /** @type {StorageEvent} */ (event).key !== STORE_KEY && /** @type {StorageEvent} */ (event).key !== null) return;
      if (document.visibilityState === "visible" || event.type === "storage") this.show(true);
    };
    for (const type of ["storage", "pageshow", "visibilitychange"]) addEventListener(type, again);
  }

  tools() {
    const removeAllButton = el("button", { type: "button", class: "md-button fm-remove-all", dataRemoveAll: "true", text: "Remove all" });
    removeAllButton.addEventListener("click", () => {
      if (!confirm("Remove every mission kept on this device?")) return;
      this.said(removeAll() || "Every mission was removed.");
      this.show();
    });
    const file = el("input", { type: "file", accept: ".json,application/json,text/plain", class: "fm-import-file", id: "fm-import-file" });
    file.addEventListener("change", async () => {
      const chosen = file.files?.[0];
      file.value = "";
      if (!chosen) return;
      if (chosen.size > MAX_IMPORT) return this.said(`Not imported: ${chosen.name} is larger than any list of missions.`);
      this.imported(await chosen.text());
    });
    const importButton = el("button", { type: "button", class: "md-button fm-import", dataImport: "true", text: "Import the text" });
    importButton.addEventListener("click", () => {
      if (this.importText.value.length > MAX_IMPORT) return this.said("Not imported: the text is longer than any list of missions.");
      this.imported(this.importText.value);
    });
    return el(
      "div",
      { class: "fm-in-play-tools" },
      el("p", {}, removeAllButton),
      el("details", { class: "fm-details" }, el("summary", { text: "Move them to another device: export, import" }),
        el("p", { class: "fm-help", text: "Nothing is sent anywhere: the file or the text is yours to carry. Importing adds missions to those here; one that is here already takes whichever copy has more dice." }),
        el("p", {}, this.exportLink),
        this.exportText,
        el("p", {}, el("label", { htmlFor: file.id, text: "Import a file: " }), file),
        el("p", {}, el("label", { htmlFor: this.importText.id, text: "Or paste the text here:" })),
        this.importText,
        el("p", {}, importButton)),
    );
  }

  /** @param {string} text */
  said(text) {
    this.status.textContent = text;
  }

  /** @param {string} text */
  imported(text) {
    const { added, updated, behind, problem } = importMissions(text);
    const plural = (/** @type {number} */ n, /** @type {string} */ one, /** @type {string} */ many) => `${n} ${n === 1 ? one : many}`;
    const said = [`${plural(added, "mission", "missions")} imported.`];
    if (updated) said.push(`${plural(updated, "mission kept here was", "missions kept here were")} brought up to the text's copy, which has more dice (or as many, kept later).`);
    if (behind) said.push(`${plural(behind, "mission kept here is", "missions kept here are")} as far on as the text's copy or further: left as ${behind === 1 ? "it is" : "they are"}.`);
    this.said(problem || said.join(" "));
    if (!problem) this.importText.value = "";
    this.show();
  }

  // The missions as the store has them. `again`: only if it changed since last shown
  // (another tab, or this one back in view); a mission that has not changed keeps its
  // item, and each answer is asked once for its calculator, inputs and dice.
  show(again = false) {
    const { missions, problem } = readMissions();
    const text = problem ? null : storeText(missions);
    if (again && text === this.shownText) return;
    this.shownText = text;
    const seq = ++this.seq;
    this.root.dataset.status = "loading";
    this.problem.textContent = problem;
    this.problem.hidden = !problem;
    this.empty.hidden = Boolean(missions.length || problem);
    this.exportText.value = text ?? storeText([]);
    URL.revokeObjectURL(this.exportLink.href);
    this.exportLink.href = URL.createObjectURL(new Blob([this.exportText.value], { type: "application/json" }));
    const items = missions.map((m) => {
      const sig = JSON.stringify([m.calculator, m.inputs, m.dice, m.name]);
      const had = this.items.get(m.key);
      return had?.sig === sig ? had : { sig, ...this.item(m) };
    });
    this.items = new Map(missions.map((m, i) => [m.key, items[i]]));
    const elements = items.map((i) => i.element);
    if (elements.length !== this.list.children.length || elements.some((e, i) => this.list.children[i] !== e)) {
      const focused = document.activeElement;
      this.list.replaceChildren(...elements);
      if (focused instanceof HTMLElement && focused !== document.activeElement && focused.isConnected) focused.focus();
    }
    // One request at a time, in order (an item answered already is left as it is); the page is ready once every mission has its answer.
    (async () => {
      for (const item of items) {
        if (seq !== this.seq) return;
        await (item.answered ??= item.answer());
        if (item.element.dataset.state === "error") item.answered = undefined; // the engine failed: asked again next time
      }
      if (seq === this.seq) this.root.dataset.status = "ready";
    })();
  }

  // A mission's answer from the engine, asked once for its calculator, inputs and dice.
  /** @param {Mission} m @returns {Promise<Answered>} */
  ask(m) {
    const key = JSON.stringify([m.calculator, Object.entries(m.inputs).sort(), m.dice]);
    let answered = this.answers.get(key);
    if (!answered) {
      answered = this.engine.call("resolve", { id: m.calculator, inputs: m.inputs, dice: m.dice }).then(
        ({ answer }) => ({ doc: answer }),
        (error) => ({ failed: /** @type {Error} */ (error).message }),
      );
      this.answers.set(key, answered);
      answered.then((a) => a.failed && this.answers.delete(key)); // asked again next time
    }
    return answered;
  }

  /** @param {Mission} m */
  item(m) {
    const schema = this.schemas.find((s) => s.id === m.calculator);
    const name = el("input", { type: "text", class: "fm-mission-name", value: m.name, maxLength: 80, ariaLabel: "The mission's name" });
    name.addEventListener("change", () => this.said(renameMission(m.key, name.value.trim() || m.name) || "Renamed."));
    const remove = el("button", { type: "button", class: "md-button fm-remove", dataRemove: "true", text: "Remove" });
    remove.addEventListener("click", () => {
      this.said(removeMission(m.key) || `\u201c${m.name}\u201d was removed.`);
      this.show();
    });
    const inputs = Object.entries(m.inputs).map(([k, v]) => `${k}=${v}`).join(" ") || "default inputs";
    const about = el("p", { class: "fm-mission-about", text: `${schema ? schema.title : m.calculator}, ${inputs}` });
    const dice = el("p", { class: "fm-mission-dice", dataDiceWords: "" });
    const next = el("p", { class: "fm-mission-next", text: "Asking the calculator\u2026" });
    const summary = el("ul", { class: "fm-summary-list fm-mission-odds" });
    const odds = el("details", { class: "fm-details fm-mission-odds-box", hidden: true }, el("summary", { text: "The odds of what happens next" }), summary);
    const outcome = el("dl", { class: "fm-roll-outcomes fm-mission-outcome", hidden: true });
    // Print: the mission's card, once it has its answer; on a line of its own, away from Remove (which asks nothing).
    const printButton = el("button", { type: "button", class: "md-button fm-print-button", dataPrint: "true", text: "Print" });
    const printLine = el("p", { hidden: true }, printButton);
    const element = el("li", { class: "fm-mission", dataMission: m.key, dataCalculator: m.calculator }, name, about, dice, next, outcome, odds, printLine, el("p", {}, remove));
    // What cannot be answered: the dice as they were kept, and why.
    const cannot = (/** @type {string} */ state, /** @type {string} */ why) => {
      element.dataset.state = state;
      dice.textContent = m.dice ? `Dice as kept: ${m.dice}` : "No dice yet.";
      next.replaceChildren(el("strong", { text: why }), " Remove it, or keep it to read its dice.");
    };
    const answer = async () => {
      if (!schema) return cannot("changed", `This site has no calculator \u201c${m.calculator}\u201d (renamed or removed since the mission was kept, or the mission was edited).`);
      const names = new Set(schema.fields.map((f) => f.name));
      const gone = Object.keys(m.inputs).filter((k) => !names.has(k));
      if (gone.length) return cannot("changed", `The calculator has no input ${gone.join(", ")} (renamed or removed since the mission was kept, or the mission was edited).`);
      const { doc, failed } = await this.ask(m);
      if (failed !== undefined || !doc) {
        element.dataset.state = "error";
        next.textContent = failed ?? "";
        return;
      }
      if ("error" in doc) {
        const refused = doc.fields.some((f) => f.field === "dice") ? "dice" : "inputs";
        return cannot("invalid", `The calculator does not take this mission's ${refused}: ${doc.fields.map((f) => f.message).join("; ") || doc.error}.`);
      }
      element.dataset.state = doc.status;
      dice.textContent = doc.given_words.length ? `Dice so far: ${doc.given_words.join("; ")}.` : "No dice yet.";
      const link = el("a", { class: "fm-mission-continue", href: this.link(m) });
      link.addEventListener("click", (event) => this.continued(event, link, m));
      if (doc.status === "need") {
        const need = /** @type {import("../../../types/answer.js").Need} one that needs a roll says which */ (doc.need);
        Object.assign(link.dataset, { needLabel: need.label, needFaces: String(need.faces) });
        link.append("Continue: ", el("strong", { text: need.label }), ` (${need.dice})`);
      } else {
        link.append(el("strong", { text: "Finished" }), ": open it");
      }
      next.replaceChildren(link, el("span", { class: "fm-mission-headline", text: ` ${doc.headline}` }));
      // A finished mission's outcome, as a roll gives it; it stays until removed.
      outcome.hidden = doc.status !== "done";
      if (doc.status === "done") outcome.replaceChildren(.../** @type {import("../../../types/answer.js").RolledOutcome[]} a done one's */ (doc.rolled).flatMap((o) => [el("dt", { text: o.label }), el("dd", { dataRollOutcome: o.name, dataValue: o.value, text: o.value_label })]));
      if (doc.status === "need") renderSummary(summary, doc, "exactly");
      odds.hidden = doc.status !== "need";
      printLine.hidden = false;
      printButton.onclick = () => this.card.print(name.value.trim() || m.name, doc, schema, this.link(m, false));
    };
    return { element, answer };
  }

  // Continue opens the mission as the store has it now (it may have moved on in
  // another tab since this view was drawn), or, removed meanwhile, nothing.
  /** @param {MouseEvent} event @param {HTMLAnchorElement} link @param {Mission} m */
  continued(event, link, m) {
    const now = readMissions().missions.find((x) => x.key === m.key);
    if (now) {
      link.href = this.link(now); // read by the browser, and by instant navigation after this
      return;
    }
    event.preventDefault();
    event.stopPropagation(); // instant navigation (on the body) would follow it
    this.said(`\u201c${m.name}\u201d is no longer in play: it was removed on another page.`);
    this.show();
  }

  // The calculator's page with the mission's inputs and dice, its key in the fragment (kept-mission.mjs);
  // on paper (keyed: false) without it, the key being this device's alone.
  /** @param {Mission} m */
  link(m, keyed = true) {
    const page = new URL(`calculators/${m.calculator}/`, SITE_ROOT);
    const params = new URLSearchParams(m.inputs);
    params.set("dice", m.dice);
    page.search = `?${params}`;
    if (keyed) page.hash = missionFragment(m.key);
    return page.href;
  }
}
