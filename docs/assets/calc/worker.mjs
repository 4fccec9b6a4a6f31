// Fire Mission's calculator engine: rules_py on the site's own copy of Pyodide,
// in one module Web Worker per tab (started by calculator.mjs).
//
// Messages in:  {seq, request}   where request is what rules_py.call_json takes
// Messages out: {type: "ready", bootMs, phases: {pyodide, wheel, rules} (ms),
//                snapshot (true when Python came from the snapshot),
//                imported (standard library modules rules_py had to import)}
//               {type: "warm", answers, ms} (the warm-up below is over; ms of Python)
//               {type: "failed", message}
//               {type: "answer", seq, answer (JSON text), ms}
//               {type: "alive"} (the worker holds the Web Lock named after it, below)
//
// Everything is fetched from this site: Pyodide's run-time files, the memory
// snapshot Python starts from and the rules wheel, all under assets/generated/
// (see scripts/build_wheel.py). No micropip.

import { loadPyodide } from "../generated/pyodide/pyodide.mjs";

const GENERATED = new URL("../generated/", import.meta.url);
const PYODIDE_OPTIONS = {
  indexURL: new URL("pyodide/", GENERATED).href,
  packages: [],
  stdout: () => {},
  stderr: (line) => console.warn("rules_py:", line),
};
const started = performance.now();

// The page names each worker uniquely; the worker holds a Web Lock of that name
// until it is gone, however it goes (close(), a crash): the page, waiting for
// the same lock, learns of it at once (calculator.mjs). Browsers without Web
// Locks (or an insecure context) rely on the page's time limit per answer.
if (self.name && self.navigator?.locks) {
  navigator.locks.request(self.name, () => {
    postMessage({ type: "alive" });
    return new Promise(() => {});
  });
}

async function fetchOk(url, options) {
  const response = await fetch(url, options);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response;
}

// Pyodide hangs, saying nothing, when the server sends the .wasm with another
// type, and takes a missing one (a 404 page) for one of the wrong type; a HEAD
// request (in parallel with the boot) turns either into a message at once.
// It never rejects: anything else that goes wrong is the boot's to report.
async function wasmProblem() {
  try {
    const response = await fetch(new URL("pyodide/pyodide.asm.wasm", GENERATED), { method: "HEAD", cache: "no-cache" });
    if (response.status === 404 || response.status === 410) {
      return `pyodide.asm.wasm is missing from the server (it answered ${response.status}): publish the whole of the built site/ folder`;
    }
    const type = (response.headers.get("content-type") || "").split(";")[0].trim();
    if (response.ok && type && type !== "application/wasm") {
      return `the server sends pyodide.asm.wasm as "${type}"; it must be "application/wasm" (fix the host's MIME types)`;
    }
  } catch {
    // the boot will say what failed
  }
  return null;
}

// The snapshot is stored gzipped. A host that labels .gz files with
// Content-Encoding: gzip has the browser inflate it already: then it does not
// start with gzip's magic number and is used as it came. (Inflating it as it
// arrives instead gained nothing measurable.)
async function snapshotBytes(url) {
  const body = new Uint8Array(await (await fetchOk(url)).arrayBuffer());
  if (body[0] !== 0x1f || body[1] !== 0x8b) return body;
  const inflated = new Blob([body]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(inflated).arrayBuffer());
}

// Restoring the build's memory snapshot skips Python's own start-up (about 5 s
// of WebAssembly here, more on a phone). Should the snapshot be missing or
// refused, or the page ask for none (worker.mjs?snapshot=no, on a slow
// connection), Pyodide boots the ordinary way: slower, same answers.
const WANT_SNAPSHOT = new URL(import.meta.url).searchParams.get("snapshot") !== "no";

async function startPython(runtime) {
  if (WANT_SNAPSHOT && typeof DecompressionStream === "function") {
    const snapshot = runtime.then((rt) => snapshotBytes(new URL(`${rt.snapshot}?v=${rt.snapshot_sha256}`, GENERATED)));
    snapshot.catch(() => {}); // loadPyodide reports it
    try {
      return { pyodide: await loadPyodide({ ...PYODIDE_OPTIONS, _loadSnapshot: snapshot }), snapshot: true };
    } catch (error) {
      console.warn(`Fire Mission: booting Pyodide without its snapshot (${(error && error.message) || error})`);
    }
  }
  return { pyodide: await loadPyodide(PYODIDE_OPTIONS), snapshot: false };
}

async function boot() {
  // The wheel downloads while Pyodide boots. runtime.json names it and gives
  // its hash, so a new build never meets a cached old wheel.
  const runtime = fetchOk(new URL("runtime.json", GENERATED), { cache: "no-cache" }).then((r) => r.json());
  const wheel = runtime.then((rt) => fetchOk(new URL(`${rt.wheel}?v=${rt.sha256}`, GENERATED))).then((r) => r.arrayBuffer());
  wheel.catch(() => {}); // reported below, once Pyodide is up or has failed
  const phases = {};
  const { pyodide, snapshot } = await startPython(runtime);
  phases.pyodide = performance.now() - started;
  const sitePackages = pyodide.runPython(
    "import sys\nnext(p for p in sys.path if p.endswith('site-packages'))",
  );
  pyodide.runPython("_modules_at_boot = frozenset(sys.modules)");
  pyodide.unpackArchive(await wheel, "wheel", { extractDir: sitePackages });
  phases.wheel = performance.now() - started - phases.pyodide;
  const rules = pyodide.pyimport("rules_py");
  rules.calculators(); // imports every procedure and loads its tables now, not on the first answer
  phases.rules = performance.now() - started - phases.pyodide - phases.wheel;
  // The standard library modules rules_py still had to import: none when the
  // snapshot is current, all of the build's list after an ordinary boot.
  const imported = pyodide
    .runPython("sorted(n for n in set(sys.modules) - _modules_at_boot if not n.startswith('rules_py'))")
    .toJs();
  pyodide.runPython("del _modules_at_boot");
  // Every calculator at its defaults and at each of its examples, for warmUp().
  const warmups = pyodide
    .runPython(`import json, rules_py
[json.dumps({"op": "answer", "id": c.id, "inputs": inputs}) for c in rules_py.calculators() for inputs in ({}, *c.examples)]`)
    .toJs();
  return { call: rules.call_json, phases, snapshot, imported, warmups };
}

const engine = Promise.race([
  boot(),
  wasmProblem().then((problem) => (problem ? Promise.reject(new Error(problem)) : new Promise(() => {}))),
]);

engine.then(
  ({ phases, snapshot, imported }) => postMessage({ type: "ready", bootMs: performance.now() - started, phases, snapshot, imported }),
  (error) => postMessage({ type: "failed", message: String((error && error.message) || error) }),
);

// Requests are answered one at a time, in the order they came.
let queue = Promise.resolve();
let unanswered = 0;
self.onmessage = (event) => {
  const { seq, request } = event.data;
  unanswered += 1;
  queue = queue.then(async () => {
    let call;
    try {
      ({ call } = await engine);
    } catch {
      return; // "failed" has been posted already
    }
    const t0 = performance.now();
    let answer;
    try {
      answer = call(JSON.stringify(request));
    } catch (error) {
      // call_json never raises on bad input; this is a bug in a procedure.
      answer = JSON.stringify({ error: `the engine failed: ${String(error.message || error).trim().split("\n").pop()}`, fields: [], internal: true });
    }
    postMessage({ type: "answer", seq, answer, ms: performance.now() - t0 });
  }).finally(() => {
    unanswered -= 1;
  });
};

// Warming up, while no request waits. Restored from the snapshot, Python has
// run little code yet, and the browser compiles WebAssembly into fast code
// only once it has run hot: until then the heavier calculators answer 2 to 3
// times slower (which a 5 s ordinary boot used to hide). So, once the first
// answer is out, the worker computes every calculator's default and example
// odds WARM_UP_ROUNDS times, one at a time, and steps aside for any request.
const WARM_UP_ROUNDS = 3;
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

async function warmUp({ call, warmups }) {
  let busy = 0;
  for (let round = 0; round < WARM_UP_ROUNDS; round++) {
    for (const request of warmups) {
      await nextTask(); // a message that came meanwhile is queued first
      while (unanswered) {
        await queue;
        await nextTask();
      }
      const t0 = performance.now();
      try {
        call(request);
      } catch {
        // a failing calculator says so when it is asked for real
      }
      busy += performance.now() - t0;
    }
  }
  postMessage({ type: "warm", answers: WARM_UP_ROUNDS * warmups.length, ms: busy });
}

// An ordinary boot ran Python for seconds already: no warm-up after it.
engine.then((booted) => booted.snapshot && warmUp(booted), () => {});
