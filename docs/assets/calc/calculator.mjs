// Fire Mission's calculators in the page: forms drawn from the schema, exact
// odds and seeded rolls from rules_py running in a Web Worker (worker.mjs).
//
// Generic: nothing here knows a rule. Every element
//   <div class="calculator" data-calculator="<id>"></div>
// becomes a form for that calculator's fields (assets/generated/calculators.json,
// written by scripts/build_pages.py). Every answer shown is the engine's: one
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
// (scripts/render_calculators.py: <div class="fm-static"> in the root, which
// carries none of these attributes and no data-status): the view replaces it,
// taking over what the player typed there (static-copy.mjs, readStatic). That copy
// never shows a number for inputs it does not answer (see "the build's copy").
//
// Loaded once (mkdocs-material's instant navigation keeps this module alive):
// document$ tells us about each new page; one worker serves every page of the
// tab, and it starts only on a page that has a calculator, after first paint.
// This module has no static imports, so it runs as soon as the page is parsed
// and starts the engine before the form code (view.mjs) has even arrived:
// pages without a calculator fetch neither.

const ASSETS = new URL("../", import.meta.url);

// ---------------------------------------------------------------- the engine

// How long the engine may take: to start (download and boot Python), and to
// answer one request once it has started. Pages and tests may lower them
// (window.fireMissionBootTimeoutMs, window.fireMissionAnswerTimeoutMs).
const BOOT_TIMEOUT_MS = 60000;
const ANSWER_TIMEOUT_MS = 30000;
// A worker that stops this many times in a row without answering anything in
// between is not started again: something is wrong that a restart cannot mend.
const MAX_RESTARTS = 3;

function engineError(kind, message) {
  return Object.assign(new Error(message), { kind });
}

function seconds(ms) {
  const s = Math.round(ms / 1000);
  return `${s} second${s === 1 ? "" : "s"}`;
}

// One Web Worker (worker.mjs) at a time runs rules_py. The engine sends it one
// request at a time and keeps the rest here, so that a request superseded by a
// newer one with the same key is dropped before it costs anything, and each
// request's time limit runs from the moment the worker takes it.
//
// States, told to every listener (onChange) with a message for the player:
//   idle        not started (no calculator on the page yet)
//   starting    the first worker is booting; message ""
//   ready       answering; message "" or, after a restart, what happened
//               (a view shows it until it has an answer of the new worker:
//               compare the `generation` call() gives with engine.generation)
//   restarting  a worker stopped (crash, close(), uncaught error) or ran past
//               a time limit and a new one is booting; message says why
//   failed      the engine cannot run here; message says why (final)
// call() rejects with an Error whose `kind` is "superseded" (a newer request
// with the same key came; nothing to show), "timeout" or "crashed" (this
// request stopped the worker, which has been restarted: its message is for
// the player) or "failed" (the engine's message says why).
export class Engine {
  constructor() {
    this.state = "idle";
    this.message = "";
    // While starting: what the worker is doing, from its "progress" messages.
    // phase: "download" (loaded of total bytes of the engine's files have
    // arrived), "python" (all in; Python is starting) or "rules" (Python is
    // up; the rules are being imported). null before the worker's first word.
    this.progress = null;
    this.seq = 0;
    this.queue = []; // requests not yet sent to the worker
    this.current = null; // the request the worker has
    this.listeners = new Set();
    this.generation = 0; // workers started
    this.startsSoon = false; // idle, but this page will start it (its calculator's own page)
    this.restarts = 0; // restarts since the last answer
  }

  onChange(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  notify() {
    for (const fn of [...this.listeners]) fn(this.state, this.message);
  }

  start() {
    if (this.state !== "idle") return;
    if (location.protocol === "file:") {
      this.fail("The calculators need the site to be served over HTTP: a page opened from a file cannot start their engine. Run `make serve`, or any static web server, and open the page from it.");
      return;
    }
    if (typeof Worker === "undefined" || typeof WebAssembly === "undefined") {
      this.fail("This browser cannot run the calculators' engine (it needs Web Workers and WebAssembly).");
      return;
    }
    this.startedAt = performance.now(); // since navigation start: how long the page kept the engine waiting
    this.spawn();
  }

  // A new worker. Its name is unique, and the worker holds a Web Lock of that
  // name for as long as it lives: the page asks for the same lock, and is
  // granted it the moment the worker is gone, however it went (close(), a
  // crash), which no event on the Worker object tells.
  spawn() {
    const generation = ++this.generation;
    this.state = generation === 1 ? "starting" : "restarting";
    this.booted = false;
    this.notify();
    const bootMs = window.fireMissionBootTimeoutMs || BOOT_TIMEOUT_MS;
    this.timer = setTimeout(() => {
      if (this.booted || this.generation !== generation) return;
      this.fail(
        `The calculators' engine did not start within ${seconds(bootMs)}: its files have not all arrived. Reload to try again; ` +
          "if this site is self-hosted, check that the whole of the built site/ folder was published.",
      );
    }, bootMs);
    /** @type {Worker & {lockName?: string}} */
    let worker;
    // The first worker of a page loaded with inputs in its address may have been
    // started already, by the page's head (docs/assets/head/early-worker.js):
    // taken over here, with what it said meanwhile.
    const early = generation === 1 ? window.fireMissionEarlyWorker : null;
    delete window.fireMissionEarlyWorker;
    if (generation === 1) this.startedInHead = Boolean(early); // for tests and the benchmark
    try {
      const name = early ? early.name : `fire-mission-engine ${generation} ${Math.random().toString(36).slice(2)}`;
      worker = early ? early.worker : new Worker(new URL("./worker.mjs", import.meta.url), { type: "module", name });
      worker.lockName = name;
    } catch (error) {
      this.fail(`The calculators' engine could not start: ${error.message}`);
      return;
    }
    this.worker = worker;
    const failed = (message) => this.died(message ? `an error: ${message}` : "its script did not load");
    worker.onmessage = (event) => {
      if (this.worker === worker) this.receive(event.data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      if (this.worker === worker) failed(event.message);
    };
    for (const message of early ? early.messages.splice(0) : []) if (this.worker === worker) this.receive(message);
    if (early && early.failed && this.worker === worker) failed(early.error);
    this.dispatch();
  }

  /** @param {import("./protocol.mjs").WorkerMessage} message */
  receive(message) {
    if (message.type === "alive") {
      const worker = this.worker;
      navigator.locks?.request(worker.lockName, () => {
        if (this.worker === worker) this.died("it was closed or crashed");
      });
    } else if (message.type === "ready") {
      clearTimeout(this.timer);
      this.booted = true;
      this.state = "ready";
      if (this.generation === 1) {
        this.bootMs = message.bootMs;
        this.phases = message.phases;
        this.fromSnapshot = message.snapshot;
      } else {
        this.message = this.stoppedBecause;
      }
      this.notify();
      this.startTimer();
    } else if (message.type === "progress") {
      if (this.state !== "starting") return;
      this.progress = { phase: message.phase, loaded: message.loaded, total: message.total };
      this.notify();
    } else if (message.type === "prefetched") {
      // The worker has fetched all it will; true if the snapshot is among it (the next visit starts from it).
      this.snapshotPrefetched = message.ok;
      this.files = message.files; // the engine's files this worker fetched (assets/offline.mjs has them kept)
      this.notify();
    } else if (message.type === "loaded") {
      if (this.generation === 1) this.imported = message.imported; // for tests
    } else if (message.type === "warm") {
      this.warmUp = { answers: message.answers, ms: message.ms };
    } else if (message.type === "failed") {
      this.fail(`The calculators' engine could not start: ${message.message.replace(/\.?$/, ".")}`);
    } else if (message.type === "answer") {
      const request = this.current;
      if (!request || request.seq !== message.seq) return;
      clearTimeout(request.timer);
      this.current = null;
      this.restarts = 0;
      if (request.superseded) request.reject(engineError("superseded", "a newer request replaced this one"));
      else request.resolve({ answer: JSON.parse(message.answer), ms: message.ms, generation: this.generation });
      this.dispatch();
    }
  }

  // The next request to the worker, once it has none. One sent before the
  // worker is ready waits in the worker (so it is answered first, before the
  // warm-up); its time limit starts when the worker is ready.
  dispatch() {
    if (this.current || !this.worker || !this.queue.length) return;
    this.current = this.queue.shift();
    /** @type {import("./protocol.mjs").RequestMessage} */
    const message = { seq: this.current.seq, request: this.current.request };
    this.worker.postMessage(message);
    if (this.booted) this.startTimer();
  }

  startTimer() {
    const request = this.current;
    if (!request || request.timer !== undefined) return;
    request.timer = setTimeout(() => {
      if (this.current !== request) return;
      this.current = null;
      const limit = seconds(request.timeoutMs);
      request.reject(
        engineError("timeout", `This answer took longer than ${limit}, so the calculators' engine was stopped and started again. Change an input to try again.`),
      );
      this.restart(`an answer took longer than ${limit}`);
    }, request.timeoutMs);
  }

  // The worker has gone (or sent an uncaught error, after which it cannot be trusted).
  died(reason) {
    if (this.state === "failed") return;
    if (!this.booted) {
      this.fail(`The calculators' engine could not start: ${reason}.`);
      return;
    }
    const request = this.current;
    this.current = null;
    if (request) {
      clearTimeout(request.timer);
      // Not sent again: it may be what stops the worker.
      request.reject(engineError("crashed", `The calculators' engine stopped while working this out (${reason}) and was started again. Change an input to try again.`));
    }
    this.restart(reason);
  }

  restart(reason) {
    this.terminate();
    if (++this.restarts > MAX_RESTARTS) {
      this.fail(`The calculators' engine stopped ${this.restarts} times in a row (the last time, ${reason}). Reload the page to try again.`);
      return;
    }
    this.message = `The calculators' engine stopped (${reason}); starting it again\u2026`;
    this.stoppedBecause = `The calculators' engine stopped (${reason}) and was started again.`;
    this.spawn(); // requests still waiting go to the new worker
  }

  terminate() {
    clearTimeout(this.timer);
    const worker = this.worker;
    this.worker = null;
    worker?.terminate();
  }

  fail(message) {
    if (this.state === "failed") return;
    this.terminate();
    this.state = "failed";
    this.message = message;
    const lost = [...(this.current ? [this.current] : []), ...this.queue.splice(0)];
    this.current = null;
    for (const request of lost) {
      clearTimeout(request.timer);
      request.reject(engineError("failed", message));
    }
    this.notify();
  }

  // One request to rules_py.call_json. `key` (say, one per calculator view):
  // a newer request with the same key supersedes this one, which is then
  // dropped unsent, or its answer is (promise rejected, kind "superseded").
  /**
   * @param {import("./protocol.mjs").EngineRequest} request
   * @param {{key?: unknown, timeoutMs?: number}} [options]
   * @returns {Promise<{answer: any, ms: number, generation: number}>}
   */
  call(request, { key, timeoutMs } = {}) {
    if (this.state === "failed") return Promise.reject(engineError("failed", this.message));
    this.start(); // the engine starts when a calculator first needs it
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      if (key !== undefined) {
        this.queue = this.queue.filter((old) => {
          if (old.key !== key) return true;
          old.reject(engineError("superseded", "a newer request replaced this one"));
          return false;
        });
        if (this.current && this.current.key === key) this.current.superseded = true;
      }
      timeoutMs ??= window.fireMissionAnswerTimeoutMs || ANSWER_TIMEOUT_MS;
      this.queue.push({ seq, request, key, timeoutMs, resolve, reject });
      this.dispatch();
    });
  }
}

const engine = new Engine();

// The build embeds each calculator's answers for its defaults and examples
// (scripts/calculator_hooks.py), so a page shows them without the engine. The
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
// alone): the build decides (scripts/calculator_hooks.py, own_calculator_page)
// and says so on the calculator's embedded answers; the page reads it here
// alone, and tells the view (CalculatorView's `standalone`).
function ownCalculatorPage() {
  return document.querySelector(".calculator[data-calculator] > .fm-prerendered[data-own-page]") !== null;
}

// ---------------------------------------------------------------- schema

let schemaPromise = null;

function loadSchema() {
  schemaPromise ??= fetch(new URL("generated/calculators.json", ASSETS), { cache: "no-cache" }).then((response) => {
    if (!response.ok) throw new Error(`the calculators' list answered ${response.status}`);
    return response.json();
  });
  return schemaPromise;
}

// ---------------------------------------------------------------- the build's copy

// The copy answers its default inputs alone, and its controls come disabled
// (class fm-inert): with scripts off, or before this module runs, it shows
// the answer to the inputs it shows and takes no other. This module enables
// them, so that the player can start before the form code (view.mjs) has
// arrived, which takes over what they did; the copy's answer is withdrawn at
// their first change (its note says the calculator is loading). Should the form
// code or the calculators' list fail to load (an error of the import or the
// fetch: no time limit guesses it), the copy goes back to the inputs it
// answers, disabled, with the message first in its answer box, in view.
const COPY = ":scope > .fm-static";
const CONTROLS = "input, select, textarea, button";

function copyNote(copy, text) {
  const note = copy.querySelector(".fm-answer-box .fm-engine");
  if (!note) return;
  note.textContent = text;
  note.hidden = !text;
}

function wakeCopy(root) {
  const copy = root.querySelector(COPY);
  if (!copy || copy.dataset.awake) return;
  copy.dataset.awake = "true";
  for (const control of copy.querySelectorAll(".fm-inert")) control.disabled = false;
  const changed = (event) => {
    if (!event.target.matches?.(CONTROLS) || copy.classList.contains("fm-static-failed")) return;
    if (event.target.closest(".fm-roll-box")) return; // the seed, Use my dice: no input changes
    copy.classList.add("fm-static-changed");
    copyNote(copy, "The calculator is still loading: its answer to these inputs shows once it has.");
  };
  copy.addEventListener("input", changed);
  copy.addEventListener("change", changed);
}

function failCopy(copy, message) {
  for (const control of copy.querySelectorAll(CONTROLS)) {
    if (control.type === "checkbox" || control.type === "radio") control.checked = control.defaultChecked;
    else if (control.tagName === "SELECT") for (const option of control.options) option.selected = option.defaultSelected;
    else if (control.tagName !== "BUTTON") control.value = control.defaultValue;
    if (control.classList.contains("fm-inert")) control.disabled = true;
  }
  copy.classList.remove("fm-static-changed");
  copy.classList.add("fm-static-failed");
  copyNote(copy, "");
  const box = copy.querySelector(".fm-answer-box .fm-errors");
  const query = document.documentElement.classList.contains("fm-query") ? ", not those in the address" : "";
  const text = `${message} It shows its answer to its default inputs${query}, and cannot answer others: reload the page to try again.`;
  if (box) {
    const note = document.createElement("p");
    note.className = "fm-copy-failed";
    note.textContent = text;
    box.replaceChildren(note);
    box.hidden = false;
  }
  return box ? null : text;
}

// ---------------------------------------------------------------- mounting

let viewModule = null;

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
      failed(root, `The calculator could not load: ${error.message}.`);
    }
    return;
  }
  for (const root of roots) {
    const schema = schemas.find((s) => s.id === root.dataset.calculator);
    if (!schema) {
      failed(root, `There is no calculator "${root.dataset.calculator}".`);
      continue;
    }
    try {
      new CalculatorView(root, schema, engine, own);
    } catch (error) {
      failed(root, `The calculator could not start: ${error.message}.`);
    }
  }
}

// The page is parsed when a module runs: on a first load with a calculator,
// fetch the form code now, before Material's own start-up and its document$
// (which mounts the forms, on this page and every later one).
if (document.querySelector(".calculator[data-calculator]")) {
  for (const root of document.querySelectorAll(".calculator[data-calculator]")) wakeCopy(root);
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
// (scripts/render_calculators.py), which the stylesheet hides while <html> is
// marked fm-query: the address has a query, which may ask for other inputs.
// The head's script marks a page loaded in full (docs/assets/head/flags.js);
// instant navigation keeps <html>, so the mark follows the address here, as
// Material changes it (location$, before the new page is swapped in: its copy
// is never shown under an address it does not answer) and once it is in.
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
