// Fire Mission's calculator engine: rules_py on the site's own copy of Pyodide,
// in one module Web Worker per tab (started by calculator.mjs).
//
// Messages in:  {seq, request}   where request is what rules_py.call_json takes
// Messages out: {type: "ready", bootMs, phases: {pyodide, wheel, rules} (ms),
//                snapshot (true when Python came from the snapshot)}
//               {type: "loaded", imported, ms} every calculator is loaded (after the first
//                 answer); imported: the standard library modules rules_py had to import
//               {type: "warm", answers, ms} (the warm-up below is over; ms of Python)
//               {type: "failed", message}
//               {type: "answer", seq, answer (JSON text), ms}
//               {type: "alive"} (the worker holds the Web Lock named after it, below)
//               {type: "progress", phase, loaded, total} while starting (see report())
//               {type: "prefetched", ok, files} after the first answer (or once Python is up with
//                 nothing asked of it): the worker has fetched all
//                 it will; ok: the snapshot is among it (the next visit starts from it);
//                 files: the engine's files it used, under assets/generated/
//
// Everything is fetched from this site: Pyodide's run-time files, the memory
// snapshot Python starts from and the rules wheel, all under assets/generated/
// (see scripts/build_wheel.py). No micropip. The WebAssembly, the standard
// library and the wheel come xz-compressed (a third fewer bytes than a host's
// gzip) and are inflated here as they arrive, by xz-embedded compiled to
// WebAssembly (npm's xz-decompress): Pyodide, asking for the WebAssembly and
// the standard library by their own names, is handed the inflated files.

// Imported, not statically: the downloads below start while these two arrive.
const pyodideModule = import("../generated/pyodide/pyodide.mjs");
const xzModule = import("../generated/xz-decompress.mjs");
pyodideModule.catch(() => {}); // the boot reports it
xzModule.catch(() => {});

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
// Every file but the wheel is in before Python can start: once they are,
// the phase is "python" (the wheel arrives while Python starts).
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
// response, taken at once (before anything reads or locks the body): the
// response itself goes on untouched, to the inflater and on to Pyodide,
// which compiles the WebAssembly as it streams in.
let runtimePromise = null;
const realFetch = self.fetch.bind(self);
const counting = new Set();
const GENERATED_HREF = (file) => new URL(file, GENERATED).href;
const WASM = "pyodide/pyodide.asm.wasm";
const STDLIB = "pyodide/python_stdlib.zip";
// What Pyodide asks for by name, fetched as name.xz and inflated here, with the
// type Pyodide expects. The WebAssembly may come as it is instead (wasmFile).
const INFLATED = new Map([
  [GENERATED_HREF(WASM), { file: WASM, type: "application/wasm" }],
  [GENERATED_HREF(STDLIB), { file: STDLIB, type: "application/zip" }],
]);
let wasmFile = null; // WASM or WASM.xz, once chosen (chooseWasm)
const early = new Map(); // address -> its inflated download, started at boot, handed to Pyodide's first fetch of it
self.fetch = async (input, init) => {
  const href = input instanceof Request ? input.url : new URL(input, location.href).href;
  const method = (init && init.method) || (input instanceof Request ? input.method : "GET");
  if (method === "GET" && early.has(href)) {
    const started = early.get(href);
    early.delete(href);
    return started;
  }
  if (method === "GET" && href === GENERATED_HREF(WASM) && wasmFile === WASM) return asWasm(await realFetch(href)); // asked again
  if (method === "GET" && INFLATED.has(href)) return inflated(INFLATED.get(href)); // asked again (a refused snapshot)
  return countedFetch(input, init);
};

// A download of this worker's own (past the early map), counted if it is one of the engine's files.
async function countedFetch(input, init) {
  const method = (init && init.method) || (input instanceof Request ? input.method : "GET");
  const response = await realFetch(input, init);
  if (response.ok && response.body && method === "GET" && runtimePromise) count(response.clone());
  return response;
}

// A file of the engine's, fetched as its .xz and inflated as it arrives: a
// response Pyodide takes as the file itself (the WebAssembly's type is ours to
// give, so a host's type for either file no longer matters). The decoder
// inflates one file at a time (xz-decompress queues the others), so each is
// inflated to its end as its bytes come, whether or not Pyodide reads it yet:
// a file Pyodide reads later cannot hold up one it reads now.
function inflated({ file, type }, download = fetch(GENERATED_HREF(`${file}.xz`))) {
  return download.then(async (response) => {
    if (!response.ok) throw new Error(missing(`${file}.xz`, response.status));
    const { XzReadableStream } = await xzModule;
    const [forPyodide, pump] = new XzReadableStream(response.body).tee();
    drain(pump);
    return new Response(forPyodide, { headers: { "Content-Type": type } });
  });
}

async function drain(stream) {
  const reader = stream.getReader();
  try {
    while (!(await reader.read()).done);
  } catch {
    // the other branch, Pyodide's, meets the same error and reports it
  }
}

// The WebAssembly as it is, with the type Pyodide needs whatever the host said.
function asWasm(response) {
  if (!response.ok) throw new Error(missing(WASM, response.status));
  const type = (response.headers.get("content-type") || "").split(";")[0].trim();
  return type === "application/wasm" ? response : new Response(response.body, { headers: { "Content-Type": "application/wasm" } });
}

function missing(file, status) {
  return status === 404 || status === 410
    ? `${file} is missing from the server (it answered ${status}): publish the whole of the built site/ folder`
    : `${file} answered ${status}`;
}

// The files every start fetches: the WebAssembly both ways until one is chosen;
// the snapshot is added when one is used.
const LOCK = "pyodide/pyodide-lock.json";
const ALWAYS = [WASM, `${WASM}.xz`, `${STDLIB}.xz`, LOCK];
const used = new Set([`${STDLIB}.xz`, LOCK]); // what this start fetched, for the service worker to keep

function unexpect(file) {
  progress.total -= expected.get(file) || 0;
  expected.delete(file);
  checkPythonFiles();
}
const expected = new Map(); // file under assets/generated/ -> its size
function expect(rt, file) {
  const size = (rt.sizes || {})[file];
  if (!size || expected.has(file)) return;
  expected.set(file, size);
  progress.total += size;
  report(true);
}

const counted = new Set();
let wheelName = null;
// The wheel's download may start (fetchWheel): once every file Python needs is
// in, or at once on a fast link or from the cache, where it takes no time from them.
let wheelMayCome;
const wheelMay = new Promise((resolve) => {
  wheelMayCome = resolve;
});

// Reads `copy` (a clone of a response) to the end, counting its bytes.
async function count(copy) {
  try {
    await runtimePromise;
  } catch {
    copy.body.cancel().catch(() => {});
    return;
  }
  const path = new URL(copy.url).pathname;
  const name = [...expected.keys()].find((file) => path.endsWith(`/assets/generated/${file}`));
  const tally = name ? counter(name) : null;
  if (!tally) {
    copy.body.cancel().catch(() => {});
    return;
  }
  try {
    const reader = copy.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      tally.add(value.length);
    }
  } catch {
    // the download failed: the boot reports that
  }
  tally.done();
}

// Counts one expected file's bytes as they come; null if it is not expected or is counted already.
function counter(name) {
  if (!expected.has(name) || counting.has(name)) return null;
  counting.add(name);
  const size = expected.get(name);
  let got = 0;
  return {
    add(bytes) {
      const add = Math.min(bytes, size - got);
      got += add;
      progress.loaded += add;
      report();
    },
    done() {
      progress.loaded += size - got; // whatever a host changed in transit, this file is in
      got = size;
      counted.add(name);
      checkPythonFiles();
      report();
    },
  };
}

// Once every file Python needs to start has been counted: the wheel may come, and the phase is "python".
function checkPythonFiles() {
  if (wheelName === null || ![...expected.keys()].every((file) => file === wheelName || counted.has(file))) return;
  wheelMayCome();
  if (progress.phase === "download") setPhase("python");
}

async function fetchOk(url, options, fetcher = fetch) {
  const response = await fetcher(url, options);
  if (!response.ok) throw new Error(missing(new URL(url).pathname.split("/assets/generated/").pop(), response.status));
  return response;
}

// The snapshot is stored gzipped. A host that labels .gz files with
// Content-Encoding: gzip has the browser inflate it already: then it does not
// start with gzip's magic number and is used as it came. It is on the way to a
// start from it, so it is read by this worker alone (no clone of the response:
// a tee'd body crosses this worker's thread twice, and under a start's load the
// bytes reached it 0.15 to 0.4 s after the network had them) and inflated in one
// write, a third faster than through a Blob's stream, and faster than chunk by
// chunk as it arrives once the CPU is slow (0.07 to 0.3 s with it slowed 4
// times, scripts/bench_browser.py). From the network (arriving) it is counted as
// it comes, for the progress shown; from the browser's cache it is read whole.
async function snapshotBytes(response, rt, arriving) {
  const tally = counter(rt.snapshot);
  try {
    let body;
    if (arriving) {
      const pieces = [];
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (tally) tally.add(value.length);
        pieces.push(value);
      }
      body = joined(pieces);
    } else {
      body = new Uint8Array(await response.arrayBuffer());
    }
    if (body[0] !== 0x1f || body[1] !== 0x8b) return body; // inflated by the browser already
    const inflater = new DecompressionStream("gzip");
    const writer = inflater.writable.getWriter();
    writer.write(body).catch(() => {}); // an error reaches the reader
    writer.close().catch(() => {});
    const pieces = [];
    const reader = inflater.readable.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return joined(pieces);
      pieces.push(value);
    }
  } finally {
    if (tally) tally.done();
  }
}

function joined(pieces) {
  if (pieces.length === 1) return pieces[0];
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

// Restoring the build's memory snapshot skips Python's own start-up (about 5 s
// of WebAssembly here, more on a phone), but it is 6 MB: on a phone's network
// it takes longer to download than Python takes to start. So a first visit
// fetches it only on a fast link (fastLink); otherwise it boots Python the
// ordinary way and the worker fetches the snapshot once the first answer is
// out (prefetchSnapshot): from the next visit on, it is in the browser's cache
// (the service worker's, or the HTTP cache) and Python starts from it. Should
// the snapshot be refused, Pyodide boots the ordinary way too. Where the
// browser says the connection is slow or the reader saves data (Chromium's
// Network Information API, which workers have too), it is never fetched.
const connection = self.navigator && self.navigator.connection;
const WANT_SNAPSHOT = !(connection && (connection.saveData || ["slow-2g", "2g", "3g"].includes(connection.effectiveType)));
const snapshotURL = (rt) => new URL(`${rt.snapshot}?v=${rt.snapshot_sha256}`, GENERATED);

// Whether the link is fast: the standard library, which every start needs, is
// fetched first, and the rate at which its first PROBE_BYTES arrive (from its
// first byte on, so the round trip does not count) says how long the snapshot
// would take. The link is fast when that is under SNAPSHOT_PAYS_MS, which
// Python's ordinary start-up costs at the least (2.5 s to 6 s on a desktop,
// several times that on a phone). The bytes counted are the .xz file's, which
// no host compresses again: those that crossed the link.
// On a 9 Mbit/s link the snapshot would take 5 s: slow; on loopback or a fast
// Wi-Fi, it takes a fraction of a second: fast. A fast link gets the snapshot,
// and the WebAssembly as it is (the host's gzip, inflated by the browser at no
// cost to this worker); a slow one gets neither, and the WebAssembly's .xz,
// 0.9 MB smaller, inflated here (about 0.3 s of this worker's time).
const PROBE_BYTES = 256 << 10;
const SNAPSHOT_PAYS_MS = 2000;
let linkProbe = null; // resolves with {rate (bytes a second that crossed the link)}

// A file's response if the browser holds it already (its HTTP cache, or the
// service worker's); null without asking the network. Counted from a clone
// unless fetched with realFetch (the snapshot, which snapshotBytes counts).
async function fromCache(url, fetcher = countedFetch) {
  try {
    const response = await fetcher(url, { cache: "only-if-cached", mode: "same-origin" });
    if (response.ok) return response;
  } catch {
    // not held
  }
  return null;
}

// The WebAssembly's download: as it is if the browser holds it (it keeps its
// compiled code too), else its .xz if the browser holds that, else as the
// link's speed says (fastLink).
async function chooseWasm(runtime) {
  const rt = await runtime;
  let response = await fromCache(GENERATED_HREF(WASM));
  wasmFile = WASM;
  if (!response) {
    response = await fromCache(GENERATED_HREF(`${WASM}.xz`));
    wasmFile = `${WASM}.xz`;
  }
  if (!response) {
    wasmFile = (await fastLink(rt)) ? WASM : `${WASM}.xz`;
    response = await countedFetch(GENERATED_HREF(wasmFile)); // not fetch(): the early map holds what this makes
  }
  used.add(wasmFile);
  unexpect(wasmFile === WASM ? `${WASM}.xz` : WASM);
  return response;
}

// Every start needs the WebAssembly and the standard library: their downloads
// start first of all, and Pyodide gets them, inflated, when it asks (the early
// map above). Returns a promise that never resolves and rejects when one of
// them fails (missing from the host, say): Pyodide, refused a file, can hang
// saying nothing.
function startDownloads(runtime) {
  const stdlibDownload = fetch(GENERATED_HREF(`${STDLIB}.xz`));
  stdlibDownload.catch(() => {}); // reported below
  linkProbe = probe(stdlibDownload);
  const wasmDownload = chooseWasm(runtime);
  const wasm = wasmDownload
    .then((response) =>
      wasmFile === WASM ? asWasm(response) : inflated(INFLATED.get(GENERATED_HREF(WASM)), Promise.resolve(response)),
    )
    .then(compileEarly);
  // After the WebAssembly's inflater, if it has one: the decoder takes one file
  // at a time, and Pyodide compiles the WebAssembly as it is inflated.
  const stdlib = wasm.catch(() => {}).then(() => inflated(INFLATED.get(GENERATED_HREF(STDLIB)), stdlibDownload));
  early.set(GENERATED_HREF(WASM), wasm);
  early.set(GENERATED_HREF(STDLIB), stdlib);
  return Promise.all([wasm, stdlib]).then(() => new Promise(() => {}));
}

// Pyodide compiles its WebAssembly only when it instantiates it, and a start
// from the snapshot instantiates it only once the snapshot is in and inflated
// (loadPyodide awaits it first): 50 to 100 ms of compiling (more on a phone),
// after 0.2 to 0.4 s of inflating, on the way to the first answer. So the
// WebAssembly is compiled as it arrives, beside the snapshot's download, and
// Pyodide's WebAssembly.instantiateStreaming of the response it got from the
// early map is served from that compiled module (Pyodide takes no module of
// ours otherwise). Any other response goes to the browser's own function.
const compiling = new WeakMap(); // the WebAssembly's response, as handed to Pyodide -> its module
const instantiateStreaming = WebAssembly.instantiateStreaming.bind(WebAssembly);
WebAssembly.instantiateStreaming = async (source, imports) => {
  const response = await source;
  const module = compiling.get(response);
  if (!module) return instantiateStreaming(response, imports);
  compiling.delete(response);
  const compiled = await module;
  return { module: compiled, instance: await WebAssembly.instantiate(compiled, imports) };
};

function compileEarly(response) {
  const module = WebAssembly.compileStreaming(response);
  module.catch(() => {}); // Pyodide meets the same error when it instantiates
  compiling.set(response, module);
  return response;
}

function probe(download) {
  return download
    .then(async (response) => {
      if (!response.ok || !response.body) return { rate: 0 };
      // Timed from the response's arrival, so the round trip does not count; a
      // file that is all in at once (a fast link) counts whole, at 1 ms at least.
      const reader = response.clone().body.getReader();
      const start = performance.now();
      let bytes = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.length;
        if (bytes >= PROBE_BYTES) break;
      }
      reader.cancel().catch(() => {});
      return { rate: bytes / (Math.max(performance.now() - start, 1) / 1000) };
    })
    .catch(() => ({ rate: 0 }));
}

let fast = null;
function fastLink(rt) {
  fast ??= linkProbe.then(({ rate }) => (1000 * rt.sizes[rt.snapshot]) / rate < SNAPSHOT_PAYS_MS);
  return fast;
}

async function startPython(runtime) {
  const { loadPyodide } = await pyodideModule;
  if (WANT_SNAPSHOT && typeof DecompressionStream === "function") {
    const rt = await runtime;
    expect(rt, rt.snapshot); // before asking: the answer from the cache is counted as it is read
    let cached = await fromCache(snapshotURL(rt), realFetch);
    const arriving = !cached;
    if (cached) wheelMayCome();
    if (!cached && (await fastLink(rt))) {
      wheelMayCome();
      try {
        cached = await fetchOk(snapshotURL(rt), undefined, realFetch); // counted as it is read
      } catch (error) {
        console.warn(`Fire Mission: booting Pyodide without its snapshot (${(error && error.message) || error})`);
      }
    }
    if (!cached) {
      unexpect(rt.snapshot); // which may have been all the wheel waited for
    } else {
      used.add(rt.snapshot);
      const snapshot = snapshotBytes(cached, rt, arriving);
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
  if (ok) used.add((await runtimePromise).snapshot);
  postMessage({ type: "prefetched", ok, files: [...used] });
}

// The wheel (runtime.json names it and gives its hash, so a new build never
// meets a cached old wheel), inflated. On a slow link it is fetched once every
// file Python needs to start is in, so it does not share the link with them
// (Python takes longer to start than the wheel to arrive); on a fast one, at
// once (wheelMay). It is counted once it is all in, before the rules are unpacked.
async function fetchWheel(runtime) {
  const rt = await runtime;
  await wheelMay;
  const response = await realFetch(new URL(`${rt.wheel}?v=${rt.sha256}`, GENERATED));
  if (!response.ok) throw new Error(missing(rt.wheel, response.status));
  const packed = await response.arrayBuffer();
  progress.loaded += expected.get(rt.wheel) || 0;
  report(true);
  const { XzReadableStream } = await xzModule;
  return new Response(new XzReadableStream(new Blob([packed]).stream())).arrayBuffer();
}

async function boot() {
  const runtime = fetchOk(new URL("runtime.json", GENERATED), { cache: "no-cache" }).then((r) => r.json());
  runtimePromise = runtime;
  // Before the downloads start: what they are counted against (chooseWasm then drops one WebAssembly).
  runtime.then((rt) => {
    wheelName = rt.wheel;
    used.add(rt.wheel);
    [...ALWAYS, rt.wheel].forEach((file) => expect(rt, file));
  }, () => {});
  downloadFailed = startDownloads(runtime);
  // Pyodide's JavaScript half too: Pyodide's own import of it then finds it loaded.
  import(new URL("pyodide/pyodide.asm.mjs", GENERATED).href).catch(() => {});
  const wheel = fetchWheel(runtime);
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
  // The first answer imports its calculator's module alone (rules_py.registry and
  // the wheel's index); every other one is imported once it is out (loadEverything).
  const rules = pyodide.pyimport("rules_py");
  phases.rules = performance.now() - started - phases.pyodide - phases.wheel;
  return { call: rules.call_json, phases, snapshot, pyodide };
}

// Every calculator's module imported and its tables loaded, once the first answer
// is out or Python is up with nothing asked of it. Says which standard library
// modules rules_py had to import ({type: "loaded", imported}): none when the
// snapshot is current, all of the build's list after an ordinary boot. Returns
// every calculator's request at its defaults and at each of its examples, for warmUp().
function loadEverything({ pyodide }) {
  const t0 = performance.now();
  pyodide.pyimport("rules_py").calculators();
  const imported = pyodide
    .runPython("sorted(n for n in set(sys.modules) - _modules_at_boot if not n.startswith('rules_py'))")
    .toJs();
  pyodide.runPython("del _modules_at_boot");
  postMessage({ type: "loaded", imported, ms: performance.now() - t0 });
  return pyodide
    .runPython(`import json, rules_py
[json.dumps({"op": "answer", "id": c.id, "inputs": inputs}) for c in rules_py.calculators() for inputs in ({}, *c.examples)]`)
    .toJs();
}

let downloadFailed; // set by boot() before its first await
const booting = boot();
const engine = Promise.race([booting, downloadFailed]);

engine.then(
  ({ phases, snapshot }) => postMessage({ type: "ready", bootMs: performance.now() - started, phases, snapshot }),
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

// Resolves once no request waits: a message that came meanwhile is queued first.
async function idle() {
  await nextTask();
  while (unanswered) {
    await queue;
    await nextTask();
  }
}

async function warmUp(call, warmups) {
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
  postMessage({ type: "warm", answers: WARM_UP_ROUNDS * warmups.length, ms: busy });
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
