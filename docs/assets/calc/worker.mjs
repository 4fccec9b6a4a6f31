// Fire Mission's calculator engine: rules_py on the site's own copy of Pyodide,
// in one module Web Worker per tab (started by engine.mjs's Engine). This module is
// the message loop; loader.mjs fetches the engine's files and starts Python.
//
// The messages, both ways, are typed in protocol.mjs (RequestMessage in,
// WorkerMessage out): requests are {seq, request}, request being what
// rules_py.call_json takes; answers are {type: "answer", seq, answer (JSON
// text), ms}; the others tell the page how the start goes ("alive",
// "progress", "ready" or "failed") and what the worker did after it
// ("prefetched", "loaded", "warm").

import { prefetchNextStart, startEngine } from "./loader.mjs";
// The loader's own modules, fetched with it: a module's imports are found only
// once it has arrived, so without these each would come a round trip later,
// and the engine's downloads start only once all of them are in.
import "./loader/build-check.mjs";
import "./loader/downloads.mjs";
import "./loader/files.mjs";
import "./loader/link.mjs";
import "./loader/pyodide-internals.mjs";
import "./loader/sha256.mjs";
import "./loader/sparse-snapshot.mjs";
import "./loader/state.mjs";
import "./loader/stored-zip.mjs";

/** @typedef {import("./protocol.mjs").WorkerMessage} WorkerMessage */
/** @typedef {import("./protocol.mjs").RequestMessage} RequestMessage */
/** @typedef {import("./loader.mjs").Booted} Booted */

/** @param {WorkerMessage} message */
function post(message) {
  postMessage(message);
}

// The page names each worker uniquely; the worker holds a Web Lock of that name
// until it is gone, however it goes (close(), a crash): the page, waiting for
// the same lock, learns of it at once (engine.mjs). Browsers without Web
// Locks (or an insecure context) rely on the page's time limit per answer.
if (self.name && self.navigator?.locks) {
  navigator.locks.request(self.name, () => {
    post({ type: "alive" });
    return new Promise(() => {});
  });
}

const { state, engine } = startEngine(post);

engine.then(
  ({ phases, snapshot }) => post({ type: "ready", bootMs: performance.now() - state.started, phases, snapshot }),
  (error) => post({ type: "failed", message: String((error && error.message) || error) }),
);

// The loop's own state: requests are answered one at a time, in the order they came.
const loop = {
  queue: Promise.resolve(),
  unanswered: 0, // requests received and not yet answered
};

self.onmessage = (/** @type {MessageEvent<RequestMessage>} */ event) => {
  const { seq, request } = event.data;
  loop.unanswered += 1;
  loop.queue = loop.queue
    .then(async () => {
      /** @type {Booted} */
      let booted;
      try {
        booted = await engine;
      } catch {
        return; // "failed" has been posted already
      }
      const t0 = performance.now();
      let answer;
      try {
        answer = booted.call(JSON.stringify(request));
      } catch (error) {
        // call_json never raises on bad input; this is a bug in a procedure.
        answer = JSON.stringify({ error: `the engine failed: ${String(/** @type {Error} or what else was thrown (||) */ (error).message || error).trim().split("\n").pop()}`, fields: [], internal: true });
      }
      post({ type: "answer", seq, answer, ms: performance.now() - t0 });
      if (!state.prefetched) setTimeout(() => prefetchNextStart(state, booted.snapshot), 0);
    })
    .finally(() => {
      loop.unanswered -= 1;
    });
};

// A page whose answers the build embedded starts its engine with nothing to
// ask (calculator.mjs, once the page is idle): the snapshot is fetched as soon
// as Python is up and no request waits, so that the next visit, and the
// service worker's copy of the engine, have it all the same.
engine.then(
  (booted) =>
    setTimeout(() => {
      if (!state.prefetched && !loop.unanswered) prefetchNextStart(state, booted.snapshot);
    }, 0),
  () => {},
);

/**
 * Every calculator's module imported and its tables loaded, once the first answer
 * is out or Python is up with nothing asked of it. Says which standard library
 * modules rules_py had to import ({type: "loaded", imported}): none when the
 * snapshot is current, all of the build's list after an ordinary boot.
 * @param {Booted} booted
 * @returns {string[]} every calculator's request at its defaults and at each of its examples, for warmUp()
 */
function loadEverything({ pyodide, importedSinceBoot }) {
  const t0 = performance.now();
  pyodide.pyimport("rules_py").calculators();
  const imported = importedSinceBoot();
  post({ type: "loaded", imported, ms: performance.now() - t0 });
  return pyodide
    .runPython(`import json, rules_py
[json.dumps({"op": "answer", "id": c.id, "inputs": inputs}) for c in rules_py.calculators() for inputs in ({}, *c.examples)]`)
    .toJs();
}

// Warming up, while no request waits. Restored from the snapshot, Python has
// run little code yet, and the browser compiles WebAssembly into fast code
// only once it has run hot: until then the heavier calculators answer 2 to 3
// times slower (which a 5 s ordinary boot used to hide). So, once the first
// answer is out, the worker computes every calculator's default and example
// odds WARM_UP_ROUNDS times, one at a time, and steps aside for any request.
// One round does it: measured in Chromium on loopback, fire for effect at its
// heaviest inputs then answered in 29-55 ms after one round and 31-34 ms after
// three (59-83 ms after none), while the warm-up's own time went from
// 0.7-1.9 s of this worker's CPU to 0.7-1.0 s (several times that on a phone,
// spent on every visit to a calculator page).
const WARM_UP_ROUNDS = 1;
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

// Resolves once no request waits: a message that came meanwhile is queued first.
async function idle() {
  await nextTask();
  while (loop.unanswered) {
    await loop.queue;
    await nextTask();
  }
}

async function warmUp(/** @type {Booted["call"]} */ call, /** @type {string[]} */ warmups) {
  let busy = 0;
  for (let round = 0; round < WARM_UP_ROUNDS; round++) {
    for (const request of warmups) {
      await idle();
      const t0 = performance.now();
      try {
        call(request);
      } catch {
        // a failing calculator says so when it is asked for real
      }
      busy += performance.now() - t0;
    }
  }
  post({ type: "warm", answers: WARM_UP_ROUNDS * warmups.length, ms: busy });
}

// Once no request waits (the first answer is out, or nothing was asked): every
// calculator loaded, then the warm-up. An ordinary boot ran Python for seconds
// already: no warm-up after it.
engine.then(
  async (booted) => {
    await idle();
    const warmups = loadEverything(booted);
    if (booted.snapshot) await warmUp(booted.call, warmups);
  },
  () => {},
);
