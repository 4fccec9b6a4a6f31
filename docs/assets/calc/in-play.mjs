// The In play page (docs/in-play.md, root [data-in-play]): the missions kept on
// this device (missions.mjs), each with the next roll it needs and the odds of
// what happens next, as the engine answers them now; a tap carries on in the
// calculator (its link, with the inputs and the dice so far). Mounted by
// calculator.mjs, which lends it the engine and the calculators' list.
//
// A mission is checked against the calculator as this build has it: one
// whose calculator has gone, whose inputs it no longer has, or whose inputs or
// dice it now refuses, says so and can be removed; it never reaches the page
// as anything but text. DOM contract: root data-status = loading | ready;
// each mission [data-mission="<key>"][data-state = need | done | changed];
// its next roll [data-need-label][data-need-faces]; a finished one's outcomes
// [data-roll-outcome][data-value].

import { importMissions, readMissions, removeAll, removeMission, renameMission, storeText } from "./missions.mjs";
import { el, renderSummary } from "./results.mjs";

const SITE_ROOT = new URL("../../", import.meta.url);
const MAX_IMPORT = 1_000_000; // bytes: far more than 100 missions take

/** @typedef {import("../../../types/calculator.js").CalculatorSchema} CalculatorSchema @typedef {import("./missions.mjs").Mission} Mission */

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
    this.problem = el("p", { class: "fm-in-play-problem", role: "alert", hidden: true });
    this.status = el("p", { class: "fm-in-play-status", role: "status" });
    this.list = el("ol", { class: "fm-missions" });
    this.empty = el("p", { class: "fm-in-play-empty", text: "No missions in play on this device. Keep one from a calculator: Use my dice, then Keep in play." });
    // The tools' boxes that show() and an import fill (tools() lays them out).
    this.exportLink = el("a", { class: "md-button fm-export", dataExport: "true", download: "fire-mission-missions.json", text: "Export as a file" });
    this.exportText = el("textarea", { class: "fm-export-text", rows: 4, readOnly: true, spellcheck: false, ariaLabel: "The missions as text, to copy" });
    this.importText = el("textarea", { class: "fm-import-text", id: "fm-import-text", rows: 3, spellcheck: false });
    root.replaceChildren(this.problem, this.empty, this.list, this.tools(), this.status);
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
        el("p", { class: "fm-help", text: "Nothing is sent anywhere: the file or the text is yours to carry. Importing adds missions to those here." }),
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
    const { added, problem } = importMissions(text);
    this.said(problem || `${added} mission${added === 1 ? "" : "s"} imported.`);
    if (!problem) this.importText.value = "";
    this.show();
  }

  show() {
    const seq = ++this.seq;
    this.root.dataset.status = "loading";
    const { missions, problem } = readMissions();
    this.problem.textContent = problem;
    this.problem.hidden = !problem;
    this.empty.hidden = Boolean(missions.length || problem);
    const text = storeText(missions);
    this.exportText.value = text;
    URL.revokeObjectURL(this.exportLink.href);
    this.exportLink.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    const items = missions.map((m) => this.item(m));
    this.list.replaceChildren(...items.map((i) => i.element));
    // One request at a time, in order; the page is ready once every mission has its answer.
    (async () => {
      for (const item of items) {
        if (seq !== this.seq) return;
        await item.answer();
      }
      if (seq === this.seq) this.root.dataset.status = "ready";
    })();
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
    const about = el("p", { class: "fm-mission-about", text: `${schema ? schema.title : m.calculator}, ${inputs}; dice so far: ${m.dice || "none"}` });
    const next = el("p", { class: "fm-mission-next", text: "Asking the calculator\u2026" });
    const summary = el("ul", { class: "fm-summary-list fm-mission-odds" });
    const odds = el("details", { class: "fm-details fm-mission-odds-box", hidden: true }, el("summary", { text: "The odds of what happens next" }), summary);
    const outcome = el("dl", { class: "fm-roll-outcomes fm-mission-outcome", hidden: true });
    const element = el("li", { class: "fm-mission", dataMission: m.key, dataCalculator: m.calculator }, name, about, next, outcome, odds, el("p", {}, remove));
    const changed = (/** @type {string} */ text) => {
      element.dataset.state = "changed";
      next.replaceChildren(el("strong", { text: "This calculator has changed since the mission was kept: " }), text, " Remove it, or keep it to read its dice.");
    };
    const answer = async () => {
      if (!schema) return changed(`there is no calculator \u201c${m.calculator}\u201d any more.`);
      const names = new Set(schema.fields.map((f) => f.name));
      const gone = Object.keys(m.inputs).filter((k) => !names.has(k));
      if (gone.length) return changed(`it has no input ${gone.join(", ")} any more (renamed or removed).`);
      /** @type {import("../../../types/answer.js").ResolveAnswer | import("../../../types/calculator.js").EngineError} */
      let doc;
      try {
        ({ answer: doc } = await this.engine.call({ op: "answer", id: m.calculator, inputs: m.inputs, dice: m.dice }));
      } catch (error) {
        element.dataset.state = "error";
        next.textContent = /** @type {Error} */ (error).message;
        return;
      }
      if ("error" in doc) return changed(`it refuses ${doc.fields.some((f) => f.field === "dice") ? "the dice" : "the inputs"} now: ${doc.fields.map((f) => f.message).join(" ") || doc.error}`);
      element.dataset.state = doc.status;
      const link = el("a", { class: "fm-mission-continue", href: this.link(m) });
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
    };
    return { element, answer };
  }

  /** @param {Mission} m */
  link(m) {
    const page = new URL(`calculators/${m.calculator}/`, SITE_ROOT);
    const params = new URLSearchParams(m.inputs);
    params.set("dice", m.dice);
    page.search = `?${params}`;
    return page.href;
  }
}
