// Fire Mission's calculators in the page: forms drawn from the schema, exact
// odds and seeded rolls from rules_py running in a Web Worker (worker.mjs).
//
// Generic: nothing here knows a rule. Every element
//   <div class="calculator" data-calculator="<id>"></div>
// becomes a form for that calculator's fields (assets/generated/calculators.json,
// written by scripts/build_pages.py), and every answer comes from the engine.
//
// DOM contract, for tests and tools:
//   root: data-calculator="<id>", data-status = loading | ready | error,
//         data-valid = true | false (the current inputs), data-answer-ms
//   every probability cell: data-outcome, data-value, data-p (the CLI's fraction)
//   field errors: [data-field-error="<name>"]; the roll log: [data-seed]
//
// Loaded once (mkdocs-material's instant navigation keeps this module alive):
// document$ tells us about each new page; one worker serves every page of the
// tab, and it starts only on a page that has a calculator, after first paint.
// This module has no static imports, so it runs as soon as the page is parsed
// and starts the engine before the form code (view.mjs) has even arrived:
// pages without a calculator fetch neither.

const ASSETS = new URL("../", import.meta.url);

// ---------------------------------------------------------------- the engine

class Engine {
  constructor() {
    this.state = "idle"; // idle | starting | ready | failed
    this.message = "";
    // While starting: what the worker is doing, from its "progress" messages.
    // phase: "download" (loaded of total bytes of the engine's files have
    // arrived), "python" (all in; Python is starting) or "rules" (Python is
    // up; the rules are being imported). null before the worker's first word.
    this.progress = null;
    this.seq = 0;
    this.waiting = new Map(); // seq -> {resolve, reject}
    this.unsent = [];
    this.listeners = new Set();
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
    this.state = "starting";
    this.startedAt = performance.now(); // since navigation start: how long the page kept the engine waiting
    this.notify();
    const seconds = Math.round((window.fireMissionBootTimeoutMs || 60000) / 1000);
    this.timer = setTimeout(() => {
      if (this.state === "starting") {
        this.fail(
          `The calculators' engine did not start within ${seconds} seconds. If this site is self-hosted, check that ` +
            "the server sends .wasm files as application/wasm and .mjs files as JavaScript (a wrong type makes the engine hang), then reload.",
        );
      }
    }, seconds * 1000);
    try {
      const script = new URL("./worker.mjs", import.meta.url);
      if (slowConnection()) script.searchParams.set("snapshot", "no");
      this.worker = new Worker(script, { type: "module", name: "fire-mission-engine" });
    } catch (error) {
      this.fail(`The calculators' engine could not start: ${error.message}`);
      return;
    }
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault();
      this.fail(`The calculators' engine could not start: ${event.message || "its script did not load"}.`);
    };
    for (const message of this.unsent.splice(0)) this.worker.postMessage(message);
  }

  receive(message) {
    if (message.type === "ready") {
      clearTimeout(this.timer);
      this.state = "ready";
      this.bootMs = message.bootMs;
      this.phases = message.phases;
      this.fromSnapshot = message.snapshot;
      this.imported = message.imported;
      this.notify();
    } else if (message.type === "progress") {
      if (this.state !== "starting") return;
      this.progress = { phase: message.phase, loaded: message.loaded, total: message.total };
      this.notify();
    } else if (message.type === "prefetched") {
      // The worker has fetched all it will; true if the snapshot is among it (the next visit starts from it).
      this.snapshotPrefetched = message.ok;
      this.notify();
    } else if (message.type === "warm") {
      this.warmUp = { answers: message.answers, ms: message.ms };
    } else if (message.type === "failed") {
      this.fail(`The calculators' engine could not start: ${message.message}`);
    } else if (message.type === "answer") {
      const waiter = this.waiting.get(message.seq);
      this.waiting.delete(message.seq);
      if (waiter) waiter.resolve({ answer: JSON.parse(message.answer), ms: message.ms });
    }
  }

  fail(message) {
    clearTimeout(this.timer);
    if (this.state === "failed") return;
    this.state = "failed";
    this.message = message;
    if (this.worker) this.worker.terminate();
    for (const waiter of this.waiting.values()) waiter.reject(new Error(message));
    this.waiting.clear();
    this.notify();
  }

  // One request to rules_py.call_json; answers come in order.
  call(request) {
    if (this.state === "failed") return Promise.reject(new Error(this.message));
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      this.waiting.set(seq, { resolve, reject });
      const message = { seq, request };
      if (this.worker) this.worker.postMessage(message);
      else this.unsent.push(message);
    });
  }
}

// The worker restores a 6 MB memory snapshot of Python rather than boot it
// (about 5 s of computing). Where the browser says the connection is slow or
// the reader saves data (Chromium's Network Information API), those 6 MB cost
// more than they save: the worker boots Python the ordinary way.
function slowConnection() {
  const connection = navigator.connection;
  return Boolean(connection && (connection.saveData || ["slow-2g", "2g", "3g"].includes(connection.effectiveType)));
}

const engine = new Engine();

function startAfterFirstPaint() {
  // Painted already (the usual case by the time this runs): start now.
  if (performance.getEntriesByType?.("paint").length) {
    engine.start();
    return;
  }
  let done = false;
  const go = () => {
    if (!done) {
      done = true;
      engine.start();
    }
  };
  requestAnimationFrame(() => setTimeout(go, 0));
  setTimeout(go, 1000); // a hidden tab paints nothing
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

// ---------------------------------------------------------------- mounting

let viewModule = null;

function failed(root, message) {
  const note = document.createElement("p");
  note.className = "fm-engine fm-engine-failed";
  note.textContent = message;
  root.append(note);
  root.dataset.status = "error";
}

async function mountAll() {
  const roots = [...document.querySelectorAll(".calculator[data-calculator]:not([data-status])")];
  if (!roots.length) return; // no calculator here: fetch nothing
  for (const root of roots) root.dataset.status = "loading";
  startAfterFirstPaint();
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
    new CalculatorView(root, schema, engine);
  }
}

// The page is parsed when a module runs: on a first load with a calculator,
// start the engine and fetch the form code now, before Material's own start-up
// and its document$ (which mounts the forms, on this page and every later one).
if (document.querySelector(".calculator[data-calculator]")) {
  startAfterFirstPaint();
  viewModule ??= import("./view.mjs");
  loadSchema().catch(() => {}); // mountAll reports a failure
}

if (window.document$ && typeof window.document$.subscribe === "function") {
  window.document$.subscribe(() => mountAll());
} else if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", () => mountAll());
} else {
  mountAll();
}

// For the benchmark and for debugging: how the engine started.
window.fireMissionEngine = engine;
