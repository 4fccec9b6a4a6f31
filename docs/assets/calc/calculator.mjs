// Fire Mission's calculators in the page: forms drawn from the schema, exact
// odds and seeded rolls from rules_py running in a Web Worker (worker.mjs).
//
// Generic: nothing here knows a rule. Every element
//   <div class="calculator" data-calculator="<id>"></div>
// becomes a form for that calculator's fields (assets/generated/calculators.json,
// written by scripts/build/build_pages.py). Every answer shown is the engine's: one
// computed now by the worker, or one the build computed with the same engine
// and embedded in the page (view.mjs shows those before the engine has started).
//
// DOM contract, for tests and tools:
//   root: data-calculator="<id>", data-status = loading | ready | error,
//         data-valid = true | false (the current inputs), data-answer-ms
//   every probability cell: data-outcome, data-value, data-p (the CLI's fraction)
//   field errors: [data-field-error="<name>"]; the roll log: [data-seed]
//     (a seed= link lands on it, focused; the seed box holds the seed shown)
//   the answer's first line: [data-headline], option B's part [data-option="b"];
//     inputs with no answer: .fm-headline[data-error], the engine's message
//   a chart: svg[role=img][data-chart="<outcome>"], "How it changes": [data-chart="sweep"]
//   own dice: [data-resolve = need | done], [data-need-label][data-need-faces],
//     done: [data-roll-outcome="<name>"][data-value]; missions: [data-keep],
//     the In play page [data-in-play], each kept mission [data-mission]
//   in a link beside the inputs: vs.<name>, seed, dice, sweep
// The build writes each calculator at its defaults into its page
// (scripts/build/render_calculators.py: <div class="fm-static"> in the root, which
// carries none of these attributes and no data-status): the view replaces it,
// taking over what the player typed there (static-copy.mjs, readStatic). That copy
// never shows a number for inputs it does not answer (see "the build's copy").
//
// Loaded once (mkdocs-material's instant navigation keeps this module alive):
// document$ tells us about each new page; one worker serves every page of the
// tab, and it starts only on a page that has a calculator, after first paint.
// It imports only the engine (engine.mjs) and the build's copy's wake-up
// (static-copy.mjs), both preloaded on a calculator's page with the form's
// modules (form-modules.json), so it runs as soon as the page is parsed and
// starts the engine before the form code (view.mjs) has even arrived: pages
// without a calculator fetch neither the form code nor the engine's worker.

import { Engine } from "./engine.mjs";
import { COPY, failCopy, readPrerendered, wakeCopy } from "./static-copy.mjs";

const ASSETS = new URL("../", import.meta.url);

const engine = new Engine();

// The build embeds each calculator's answers for its defaults and examples
// (scripts/hooks/calculator_hooks.py), so a page shows them without the engine. The
// engine starts when a calculator needs it (a request: calls start it), when
// the player uses one (view.mjs), or, on a calculator's own page, once the
// page is idle: a reader of a rules page downloads none of it.
function startWhenIdle() {
  let done = false;
  const go = () => {
    if (!done) {
      done = true;
      engine.start();
    }
  };
  if (typeof requestIdleCallback === "function") requestIdleCallback(go, { timeout: 4000 });
  else setTimeout(go, 1000);
}

// Whether this is a calculator's own page (calculators/<id>/, that calculator
// alone): the build decides (scripts/hooks/calculator_hooks.py, own_calculator_page)
// and says so on the calculator's embedded answers; the page reads it here
// alone, and tells the view (CalculatorView's `standalone`).
function ownCalculatorPage() {
  return document.querySelector(".calculator[data-calculator] > .fm-prerendered[data-own-page]") !== null;
}

// ---------------------------------------------------------------- the calculators' list

// calculators.json carries the id of the build that wrote it ({"build", "calculators"}:
// scripts/hooks/calculator_hooks.py), as runtime.json and the wheel do (loader/build-check.mjs):
// another build's list beside this build's page (a host mid-upload, a stale cache) would draw
// its fields beside this build's answers. Asked for once more past every cache if it is
// another build's; then refused, as the engine is. Its shape is checked too: a form is
// never drawn from a list that is not one.

/** @typedef {import("../../../types/calculator.js").CalculatorSchema} CalculatorSchema */

/** @type {Promise<CalculatorSchema[]> | null} */
let schemaPromise = null;

const pageBuild = () => document.querySelector('meta[name="fire-mission-build"]')?.getAttribute("content") || null;

/** @param {URL} url @param {RequestInit} init */
async function fetchList(url, init) {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`the calculators' list answered ${response.status}`);
  try {
    return await response.json();
  } catch {
    throw new Error("the calculators' list (assets/generated/calculators.json) arrived damaged: it is not JSON. Reload to fetch it again");
  }
}

/** The calculators' list of `json`, if it has the shape the forms are drawn from; else an error that says what is wrong. @param {any} json */
function checkedList(json) {
  const bad = (/** @type {string} */ what) =>
    new Error(`the calculators' list (assets/generated/calculators.json) is damaged: ${what}. Reload to fetch it again; if this site is self-hosted, publish the built site/ folder's files as they are`);
  const list = json && json.calculators;
  if (!Array.isArray(list)) throw bad("it holds no list of calculators");
  const text = (/** @type {any} */ v) => typeof v === "string";
  for (const c of list) {
    if (!c || !text(c.id) || !text(c.title) || !Array.isArray(c.fields) || !Array.isArray(c.outcomes)) throw bad(`an entry (${c && text(c.id) ? c.id : "with no id"}) is not a calculator's`);
    for (const f of c.fields) {
      const choices = f && (f.type !== "choice" || Array.isArray(f.choices));
      if (!f || !text(f.name) || !text(f.label) || !text(f.type) || !choices || !(f.default === null || text(f.default))) throw bad(`${c.id} has a field that is not one`);
    }
  }
  return /** @type {CalculatorSchema[]} */ (list);
}

function loadSchema() {
  schemaPromise ??= (async () => {
    const url = new URL("generated/calculators.json", ASSETS);
    let json = await fetchList(url, { cache: "no-cache" });
    const page = pageBuild();
    if (page && json?.build !== page) {
      url.searchParams.set("build", page);
      json = await fetchList(url, { cache: "reload" });
      if (json?.build !== page) {
        const short = (/** @type {unknown} */ id) => (typeof id === "string" && id ? id.slice(0, 12) : "an older one that names none");
        throw new Error(
          `the site is in the middle of an update: this page comes from build ${short(page)}, and the host's calculators' list from build ${short(json?.build)}. Reload the page in a minute`,
        );
      }
    }
    return checkedList(json);
  })();
  return schemaPromise;
}

// Whether `schema` is the one this page's build answered with: the inputs of its
// embedded answers (static-copy.mjs) are the schema's fields, name for name. A
// list of the same build id whose entry lost a field would otherwise drop that
// input from a link (?casualties=4) and show the build's default answer as ready.
/** @param {HTMLElement} root @param {CalculatorSchema} schema */
function matchesPage(root, schema) {
  const built = readPrerendered(root)[0];
  if (!built || !built.inputs) return true; // nothing embedded to compare with
  const names = schema.fields.map((f) => f.name).sort();
  const inputs = Object.keys(built.inputs).sort();
  return names.length === inputs.length && names.every((name, i) => name === inputs[i]);
}

// ---------------------------------------------------------------- mounting

/** @type {Promise<typeof import("./view.mjs")> | null} */
let viewModule = null;

// An error's message, with the file of the site's it came from when the message does not
// name one (a damaged module: "$ is not defined"), from the first of its stack's frames there.
/** @param {Error} error */
function withFile(error) {
  const message = String(error.message || error).replace(/\.$/, "");
  if (/assets\/|calculators' list/.test(message)) return message;
  const frame = String(error.stack || "").match(/https?:\/\/[^\s)]*?\/(assets\/[^\s):?]+)/);
  return frame ? `${frame[1]}: ${message}` : message;
}

/** @param {HTMLElement} root @param {string} message */
function failed(root, message) {
  root.dataset.status = "error";
  const copy = root.querySelector(COPY);
  const left = copy ? failCopy(copy, message) : message;
  if (!left) return;
  const note = document.createElement("p");
  note.className = "fm-engine fm-engine-failed";
  note.textContent = left;
  root.append(note);
}

// The In play page (docs/in-play.md): the missions kept on this device, each
// answered by this engine (in-play.mjs).
function mountInPlay() {
  const root = /** @type {HTMLElement | null} */ (document.querySelector("[data-in-play]:not([data-status])"));
  if (!root) return;
  root.dataset.status = "loading";
  import("./in-play.mjs").then(
    (module) => module.mountInPlay(root, engine, loadSchema),
    (error) => {
      root.dataset.status = "error";
      root.textContent = `The missions cannot be shown: ${error.message}.`;
    },
  );
}

async function mountAll() {
  mountInPlay();
  const roots = [.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".calculator[data-calculator]:not([data-status])"))];
  if (!roots.length) return; // no calculator here: fetch nothing
  for (const root of roots) {
    root.dataset.status = "loading";
    wakeCopy(root);
  }
  const own = ownCalculatorPage();
  if (own) startWhenIdle();
  viewModule ??= import("./view.mjs");
  let schemas, CalculatorView;
  try {
    [schemas, { CalculatorView }] = await Promise.all([loadSchema(), viewModule]);
  } catch (error) {
    for (const root of roots) {
      failed(root, `The calculator could not load: ${withFile(/** @type {Error} */ (error))}.`);
    }
    return;
  }
  for (const root of roots) {
    const schema = schemas.find((s) => s.id === root.dataset.calculator);
    if (!schema) {
      failed(root, `There is no calculator "${root.dataset.calculator}".`);
      continue;
    }
    if (!matchesPage(root, schema)) {
      failed(
        root,
        `The calculator could not load: the calculators' list (assets/generated/calculators.json) does not give this calculator the inputs this page was built with. Reload the page; if this site is self-hosted, publish the built site/ folder's files as they are.`,
      );
      continue;
    }
    try {
      new CalculatorView(root, schema, engine, own);
    } catch (error) {
      failed(root, `The calculator could not start: ${withFile(/** @type {Error} */ (error))}.`);
    }
  }
}

// The page is parsed when a module runs: on a first load with a calculator,
// fetch the form code now, before Material's own start-up and its document$
// (which mounts the forms, on this page and every later one).
if (document.querySelector(".calculator[data-calculator]")) {
  for (const root of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".calculator[data-calculator]"))) wakeCopy(root);
  viewModule ??= import("./view.mjs");
  loadSchema().catch(() => {}); // mountAll reports a failure
  // Said now, before the page's load event: assets/offline.mjs then holds the
  // service worker's precache back until the engine is up, rather than have
  // it take the link while the engine downloads.
  if (ownCalculatorPage()) {
    engine.startsSoon = true;
    // Inputs or a seed in the address: the build's answers are for the
    // defaults and the examples, so the first answer most likely needs the
    // engine (which this page starts once it is idle anyway). Start it now,
    // before the form code has arrived: a few hundred milliseconds sooner.
    if (location.search.length > 1) engine.start();
  }
}

// A page's calculators come with the build's copy of each at its defaults
// (scripts/build/render_calculators.py), which the stylesheet hides while <html> is
// marked fm-query: the address has a query, which may ask for other inputs.
// The head's script marks a page loaded in full (docs/assets/head/flags.js);
// instant navigation keeps <html>, so the mark follows the address here, as
// Material changes it (location$, before the new page is swapped in: its copy
// is never shown under an address it does not answer) and once it is in.
/** @param {URL | Location} url */
function markQuery(url) {
  document.documentElement.classList.toggle("fm-query", url.search !== "");
}

if (window.location$ && typeof window.location$.subscribe === "function") window.location$.subscribe(markQuery);

if (window.document$ && typeof window.document$.subscribe === "function") {
  window.document$.subscribe(() => {
    markQuery(location);
    mountAll();
  });
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", () => mountAll());
} else {
  mountAll();
}

// For the benchmark and for debugging: how the engine started.
window.fireMissionEngine = engine;
