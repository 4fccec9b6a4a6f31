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
//               {type: "progress", phase, loaded, total} while starting (see report())
//               {type: "prefetched", ok} after the first answer (or once Python is up with
//                 nothing asked of it): the worker has fetched all
//                 it will; ok: the snapshot is among it (the next visit starts from it)
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

// ------------------------------------------------------------ progress
// What the worker is doing, for the page to show while it waits:
//   phase "download": fetching the engine's files; loaded and total count
//     their bytes as they arrive (decompressed: runtime.json lists each file's
//     size on the site, and a host's gzip on the wire does not change them);
//   phase "python": every file is in, Python is starting;
//   phase "rules": Python is up, the rules are being unpacked and imported.
// Only the files fetched with fetch() are counted: the WebAssembly, the
// standard library, Pyodide's lock file, the wheel and the snapshot; not
// pyodide.asm.mjs (0.26 MB gzipped), which Pyodide imports as a module.
const progress = { phase: "download", loaded: 0, total: 0 };
let reported = 0;
function report(force = false) {
  const now = performance.now();
  if (!force && now - reported < 100) return;
  reported = now;
  postMessage({ type: "progress", ...progress });
}
function setPhase(phase) {
  progress.phase = phase;
  report(true);
}

// Every download of one of the engine's files is counted from a clone of its
// response: the response itself goes on untouched, so the browser can still
// compile the WebAssembly as it streams in and keep the compiled code.
let runtimePromise = null;
const realFetch = self.fetch.bind(self);
const counting = new Set();
const early = new Map(); // address -> a download started early (fastLink), handed to the first fetch of it
self.fetch = async (input, init) => {
  const href = input instanceof Request ? input.url : new URL(input, location.href).href;
  if (early.has(href) && !(init && init.method && init.method !== "GET")) {
    const started = early.get(href);
    early.delete(href);
    return started;
  }
  const response = await realFetch(input, init);
  const method = (init && init.method) || (input instanceof Request ? input.method : "GET");
  if (response.ok && response.body && method === "GET" && runtimePromise) count(response);
  return response;
};

// The files every start fetches; the snapshot is added when one is used.
const WASM = "pyodide/pyodide.asm.wasm";
const ALWAYS = [WASM, "pyodide/python_stdlib.zip", "pyodide/pyodide-lock.json"];
const expected = new Map(); // file under assets/generated/ -> its size
function expect(rt, file) {
  const size = (rt.sizes || {})[file];
  if (!size || expected.has(file)) return;
  expected.set(file, size);
  progress.total += size;
  report(true);
}

async function count(response) {
  try {
    await runtimePromise;
  } catch {
    return;
  }
  const path = new URL(response.url).pathname;
  const name = [...expected.keys()].find((file) => path.endsWith(`/assets/generated/${file}`));
  if (!name || counting.has(name)) return;
  counting.add(name);
  const size = expected.get(name);
  let got = 0;
  try {
    const reader = response.clone().body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const add = Math.min(value.length, size - got);
      got += add;
      progress.loaded += add;
      report();
    }
  } catch {
    // the download failed: the boot reports that
  }
  progress.loaded += size - got; // whatever a host changed in transit, this file is in
  if (progress.loaded >= progress.total && progress.phase === "download") setPhase("python");
  else report();
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
  if (navigator.onLine === false) return null; // offline: the engine comes from the service worker
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
async function snapshotBytes(response) {
  const body = new Uint8Array(await response.arrayBuffer());
  if (body[0] !== 0x1f || body[1] !== 0x8b) return body;
  const inflated = new Blob([body]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(inflated).arrayBuffer());
}

// Restoring the build's memory snapshot skips Python's own start-up (about 5 s
// of WebAssembly here, more on a phone), but it is 6 MB: on a phone's network
// it takes longer to download than Python takes to start. So a first visit
// fetches it only on a fast link (fastLink); otherwise it boots Python the
// ordinary way and the worker fetches the snapshot once the first answer is
// out (prefetchSnapshot): from the next visit on, it is in the browser's cache
// (the service worker's, or the HTTP cache) and Python starts from it. Should
// the snapshot be refused, Pyodide boots the ordinary way too. The page asks
// for none at all (worker.mjs?snapshot=no) on a slow connection.
const WANT_SNAPSHOT = new URL(import.meta.url).searchParams.get("snapshot") !== "no";
const snapshotURL = (rt) => new URL(`${rt.snapshot}?v=${rt.snapshot_sha256}`, GENERATED);

// The snapshot's response if the browser has it already; null without asking the network.
async function cachedSnapshot(rt) {
  try {
    const response = await fetch(snapshotURL(rt), { cache: "only-if-cached", mode: "same-origin" });
    if (response.ok) return response;
  } catch {
    // not cached
  }
  return null;
}

// Whether the link is fast enough for the snapshot to pay on a first visit:
// the WebAssembly, which every start needs, is fetched first, and the rate at
// which its first PROBE_BYTES arrive (from its first byte on, so the round
// trip does not count) says how long the snapshot would take. It pays when
// that is under SNAPSHOT_PAYS_MS, which Python's ordinary start-up costs at
// the least (2.5 s to 6 s on a desktop, several times that on a phone). The
// bytes counted are as the files are on the site: when the host compressed
// the WebAssembly, fewer crossed the link, as many as the build's gzip made
// (runtime.json's wasm_gzip_size).
// On a 9 Mbit/s link the snapshot would take 5 s: no; on loopback or a fast
// Wi-Fi, it takes a fraction of a second: yes. Pyodide then gets the same
// download of the WebAssembly (the early map above): nothing is fetched twice.
const PROBE_BYTES = 1 << 20;
const SNAPSHOT_PAYS_MS = 2000;
const WASM_URL = new URL(WASM, GENERATED).href;
let wasmProbe = null; // resolves with {rate (bytes a second, as counted), encoded (the host compressed it)}

// Every start needs the WebAssembly: its download starts first of all, and
// Pyodide gets it when it asks (the early map above). Its first PROBE_BYTES
// are timed on a clone of their own, as they arrive.
function startWasm() {
  const download = self.fetch(WASM_URL);
  early.set(WASM_URL, download);
  download.catch(() => {}); // Pyodide reports it
  wasmProbe = download
    .then(async (response) => {
      const encoded = Boolean(response.headers.get("content-encoding"));
      if (!response.ok || !response.body) return { rate: 0, encoded };
      const reader = response.clone().body.getReader();
      let first = 0;
      let bytes = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (!first) first = performance.now();
        else bytes += value.length; // from the first byte on: the round trip does not count
        if (bytes >= PROBE_BYTES) break;
      }
      reader.cancel().catch(() => {});
      return { rate: bytes / (Math.max(performance.now() - first, 1) / 1000), encoded };
    })
    .catch(() => ({ rate: 0, encoded: false }));
}

async function fastLink(rt) {
  const { rate, encoded } = await wasmProbe;
  // Bytes on the link for each byte counted.
  const ratio = encoded && rt.wasm_gzip_size ? rt.wasm_gzip_size / rt.sizes[WASM] : 1;
  const ms = (1000 * rt.sizes[rt.snapshot]) / (rate * ratio);
  return ms < SNAPSHOT_PAYS_MS;
}

async function startPython(runtime) {
  if (WANT_SNAPSHOT && typeof DecompressionStream === "function") {
    const rt = await runtime;
    expect(rt, rt.snapshot); // before asking: the answer from the cache is counted as it is read
    let cached = await cachedSnapshot(rt);
    if (!cached && (await fastLink(rt))) {
      try {
        cached = await fetchOk(snapshotURL(rt));
      } catch (error) {
        console.warn(`Fire Mission: booting Pyodide without its snapshot (${(error && error.message) || error})`);
      }
    }
    if (!cached) {
      progress.total -= expected.get(rt.snapshot) || 0;
      expected.delete(rt.snapshot);
    } else {
      const snapshot = snapshotBytes(cached);
      snapshot.catch(() => {}); // loadPyodide reports it
      try {
        return { pyodide: await loadPyodide({ ...PYODIDE_OPTIONS, _loadSnapshot: snapshot }), snapshot: true };
      } catch (error) {
        console.warn(`Fire Mission: booting Pyodide without its snapshot (${(error && error.message) || error})`);
      }
    }
  }
  return { pyodide: await loadPyodide(PYODIDE_OPTIONS), snapshot: false };
}

// After the first answer (or once Python is up with nothing asked of it): fetch the snapshot for the next visit, unless Python
// started from it, read to the end so that the cache keeps it. Then say
// whether the browser has it ({type: "prefetched", ok}): all the engine will
// ever fetch has been fetched (assets/offline.mjs then has the service worker keep it).
let prefetched = false;
async function prefetchSnapshot(fromSnapshot) {
  if (prefetched) return;
  prefetched = true;
  let ok = fromSnapshot;
  if (!ok && WANT_SNAPSHOT && typeof DecompressionStream === "function") {
    try {
      const response = await realFetch(snapshotURL(await runtimePromise));
      await response.arrayBuffer();
      ok = response.ok;
    } catch {
      // the next visit boots the ordinary way again
    }
  }
  postMessage({ type: "prefetched", ok });
}

async function boot() {
  // The wheel downloads while Pyodide boots. runtime.json names it and gives
  // its hash, so a new build never meets a cached old wheel.
  const runtime = fetchOk(new URL("runtime.json", GENERATED), { cache: "no-cache" }).then((r) => r.json());
  runtimePromise = runtime;
  startWasm();
  // Pyodide's JavaScript half too: Pyodide's own import of it then finds it loaded.
  import(new URL("pyodide/pyodide.asm.mjs", GENERATED).href).catch(() => {});
  runtime.then((rt) => [...ALWAYS, rt.wheel].forEach((file) => expect(rt, file)), () => {});
  const wheel = runtime.then((rt) => fetchOk(new URL(`${rt.wheel}?v=${rt.sha256}`, GENERATED))).then((r) => r.arrayBuffer());
  wheel.catch(() => {}); // reported below, once Pyodide is up or has failed
  const phases = {};
  const { pyodide, snapshot } = await startPython(runtime);
  phases.pyodide = performance.now() - started;
  setPhase("rules");
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
    let call, booted;
    try {
      booted = await engine;
      ({ call } = booted);
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
    if (!prefetched) setTimeout(() => prefetchSnapshot(booted.snapshot), 0);
  }).finally(() => {
    unanswered -= 1;
  });
};

// A page whose answers the build embedded starts its engine with nothing to
// ask (calculator.mjs, once the page is idle): the snapshot is fetched as soon
// as Python is up and no request waits, so that the next visit, and the
// service worker's copy of the engine, have it all the same.
engine.then(
  (booted) =>
    setTimeout(() => {
      if (!prefetched && !unanswered) prefetchSnapshot(booted.snapshot);
    }, 0),
  () => {},
);

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
