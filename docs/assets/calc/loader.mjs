// The engine's loader: rules_py on the site's own copy of Pyodide, started in
// the worker (worker.mjs runs the message loop; this module fetches, checks
// and starts). startEngine() starts everything and returns the booted engine.
//
// Everything is fetched from this site: Pyodide's run-time files, the memory
// snapshot Python starts from and the rules wheel, all under assets/generated/
// (see scripts/build_wheel.py). No micropip. The WebAssembly, the standard
// library and the wheel come xz-compressed (a third fewer bytes than a host's
// gzip) and are inflated here as they arrive, by xz-embedded compiled to
// WebAssembly (npm's xz-decompress): Pyodide, asking for the WebAssembly and
// the standard library by their own names, is handed the inflated files.
//
// A file that fails is named, with what is wrong with it: missing (the host's
// status), cut short (fewer bytes than runtime.json says the build made),
// damaged (the wheel's SHA-256 is not the build's; an .xz file does not
// inflate; the WebAssembly does not compile). The first such fault is the
// engine's failure (startEngine's promise rejects with it), whatever Pyodide,
// reading the same file, then says; Pyodide is never handed a failed download
// (it would leave the rejection unhandled, or hang saying nothing).
//
// All that the loader changes as it goes is one object, LoaderState (below).

/** @typedef {import("./protocol.mjs").WorkerMessage} WorkerMessage */
/** @typedef {import("./protocol.mjs").BootPhase} BootPhase */
/** @typedef {import("pyodide").PyodideAPI} PyodideAPI */
/** @typedef {{file: string, type: string}} Inflated */
/**
 * runtime.json, written by scripts/build_wheel.py.
 * @typedef {{wheel: string, sha256: string, snapshot: string, snapshot_sha256: string, sizes: Record<string, number>}} Runtime
 */
/**
 * @typedef {object} Booted
 * @property {(request: string) => string} call rules_py.call_json
 * @property {import("./protocol.mjs").BootPhases} phases
 * @property {boolean} snapshot Python came from the build's snapshot
 * @property {PyodideAPI} pyodide
 */

export const GENERATED = new URL("../generated/", import.meta.url);
const GENERATED_HREF = (/** @type {string} */ file) => new URL(file, GENERATED).href;
const WASM = "pyodide/pyodide.asm.wasm";
const STDLIB = "pyodide/python_stdlib.zip";
const LOCK = "pyodide/pyodide-lock.json";
// The files every start fetches: the WebAssembly both ways until one is chosen;
// the snapshot is added when one is used.
const ALWAYS = [WASM, `${WASM}.xz`, `${STDLIB}.xz`, LOCK];
// What Pyodide asks for by name, fetched as name.xz and inflated here, with the
// type Pyodide expects. The WebAssembly may come as it is instead (wasmFile).
/** @type {Map<string, Inflated>} */
const INFLATED = new Map([
  [GENERATED_HREF(WASM), { file: WASM, type: "application/wasm" }],
  [GENERATED_HREF(STDLIB), { file: STDLIB, type: "application/zip" }],
]);

// Imported by address, not statically: the downloads below start while these two arrive.
/** @type {Promise<typeof import("pyodide")>} */
const pyodideModule = import(GENERATED_HREF("pyodide/pyodide.mjs"));
/** @type {Promise<typeof import("xz-decompress")>} */
const xzModule = import(GENERATED_HREF("xz-decompress.mjs"));
pyodideModule.catch(() => {}); // the boot reports it
xzModule.catch(() => {});

const PYODIDE_OPTIONS = {
  indexURL: GENERATED_HREF("pyodide/"),
  packages: [],
  stdout: () => {},
  stderr: (/** @type {string} */ line) => console.warn("rules_py:", line),
};

// Restoring the build's memory snapshot skips Python's own start-up (about 5 s
// of WebAssembly here, more on a phone), but it is 6 MB: on a phone's network
// it takes longer to download than Python takes to start. So a first visit
// fetches it only on a fast link (fastLink); otherwise it boots Python the
// ordinary way and the worker fetches the snapshot once the first answer is
// out (prefetchNextStart): from the next visit on, it is in the browser's cache
// (the service worker's, or the HTTP cache) and Python starts from it. Should
// the snapshot be refused, Pyodide boots the ordinary way too. Where the
// browser says the connection is slow or the reader saves data (Chromium's
// Network Information API, which workers have too), it is never fetched.
const connection = self.navigator && self.navigator.connection;
export const WANT_SNAPSHOT =
  !(connection && (connection.saveData || ["slow-2g", "2g", "3g"].includes(connection.effectiveType))) &&
  typeof DecompressionStream === "function";
const snapshotURL = (/** @type {Runtime} */ rt) => new URL(`${rt.snapshot}?v=${rt.snapshot_sha256}`, GENERATED);

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
// 0.9 MB smaller, inflated here (about 0.3 s of this worker's time), and the
// WebAssembly as it is once the first answer is out, for the next visits
// (prefetchNextStart).
const PROBE_BYTES = 256 << 10;
const SNAPSHOT_PAYS_MS = 2000;

/**
 * Everything the loader changes as the engine starts.
 * @typedef {object} LoaderState
 * @property {(message: WorkerMessage) => void} post to the page
 * @property {number} started performance.now() when the worker started
 * @property {{phase: BootPhase, loaded: number, total: number, network: boolean | null}} progress what the page is told
 *   (network: whether the engine's files come over the network, null until the WebAssembly's
 *   source is known: from the browser's cache, they are read, not downloaded)
 * @property {number} reported when progress was last posted
 * @property {Promise<Runtime> | null} runtime runtime.json, once asked for
 * @property {string | null} wasmFile WASM or WASM.xz, once chosen (chooseWasm)
 * @property {Map<string, Promise<Response>>} early address -> its download, started at boot, handed to Pyodide's first fetch of it
 * @property {Map<string, number>} expected file under assets/generated/ -> its size, the bytes progress counts
 * @property {Set<string>} counting files whose bytes are being counted
 * @property {Set<string>} counted files all in
 * @property {Set<string>} used what this start fetched, for the service worker to keep
 * @property {string | null} wheelName the wheel's file, once runtime.json is in
 * @property {() => void} wheelMayCome lets the wheel's download start (see fetchWheel)
 * @property {Promise<void>} wheelMay
 * @property {Promise<{rate: number}> | null} linkProbe bytes a second that crossed the link
 * @property {Promise<boolean> | null} fast whether the link is fast (fastLink)
 * @property {WeakMap<Response, Promise<WebAssembly.Module>>} compiling the WebAssembly's response, as handed to Pyodide -> its module
 * @property {(error: Error) => void} fault a file failed: the first fault is the engine's failure
 * @property {Promise<never>} faulted rejects with the first fault
 * @property {Error | null} firstFault
 * @property {boolean} prefetched prefetchNextStart has run
 */

/** @returns {LoaderState} */
function newState(/** @type {(message: WorkerMessage) => void} */ post) {
  /** @type {() => void} */
  let wheelMayCome = () => {};
  const wheelMay = new Promise((resolve) => {
    wheelMayCome = () => resolve(undefined);
  });
  /** @type {(error: Error) => void} */
  let reject = () => {};
  /** @type {Promise<never>} */
  const faulted = new Promise((_, r) => {
    reject = r;
  });
  faulted.catch(() => {}); // startEngine reports it
  const state = {
    post,
    started: performance.now(),
    progress: { phase: /** @type {BootPhase} */ ("download"), loaded: 0, total: 0, network: null },
    reported: 0,
    runtime: null,
    wasmFile: null,
    early: new Map(),
    expected: new Map(),
    counting: new Set(),
    counted: new Set(),
    used: new Set([`${STDLIB}.xz`, LOCK]),
    wheelName: null,
    wheelMayCome,
    wheelMay,
    linkProbe: null,
    fast: null,
    compiling: new WeakMap(),
    fault(/** @type {Error} */ error) {
      state.firstFault ??= error;
      reject(error);
    },
    faulted,
    firstFault: null,
    prefetched: false,
  };
  return state;
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
function report(/** @type {LoaderState} */ state, force = false) {
  const now = performance.now();
  if (!force && now - state.reported < 100) return;
  state.reported = now;
  state.post({ type: "progress", ...state.progress });
}

function setPhase(/** @type {LoaderState} */ state, /** @type {BootPhase} */ phase) {
  state.progress.phase = phase;
  report(state, true);
}

function expect(/** @type {LoaderState} */ state, /** @type {Runtime} */ rt, /** @type {string} */ file) {
  const size = (rt.sizes || {})[file];
  if (!size || state.expected.has(file)) return;
  state.expected.set(file, size);
  state.progress.total += size;
  report(state, true);
}

function unexpect(/** @type {LoaderState} */ state, /** @type {string} */ file) {
  state.progress.total -= state.expected.get(file) || 0;
  state.expected.delete(file);
  checkPythonFiles(state);
}

// Counts one expected file's bytes as they come; null if it is not expected or is counted already.
function counter(/** @type {LoaderState} */ state, /** @type {string} */ name) {
  if (!state.expected.has(name) || state.counting.has(name)) return null;
  state.counting.add(name);
  const size = state.expected.get(name);
  let got = 0;
  return {
    add(/** @type {number} */ bytes) {
      const add = Math.min(bytes, size - got);
      got += add;
      state.progress.loaded += add;
      report(state);
    },
    done() {
      state.progress.loaded += size - got; // whatever a host changed in transit, this file is in
      got = size;
      state.counted.add(name);
      checkPythonFiles(state);
      report(state);
    },
  };
}

// Once every file Python needs to start has been counted: the wheel may come, and the phase is "python".
function checkPythonFiles(/** @type {LoaderState} */ state) {
  const { wheelName } = state;
  if (wheelName === null || ![...state.expected.keys()].every((file) => file === wheelName || state.counted.has(file))) return;
  state.wheelMayCome();
  if (state.progress.phase === "download") setPhase(state, "python");
}

// Reads `copy` (a clone of a response) to the end, counting its bytes.
async function count(/** @type {LoaderState} */ state, /** @type {Response} */ copy) {
  try {
    await state.runtime;
  } catch {
    copy.body.cancel().catch(() => {});
    return;
  }
  const path = new URL(copy.url).pathname;
  const name = [...state.expected.keys()].find((file) => path.endsWith(`/assets/generated/${file}`));
  const tally = name ? counter(state, name) : null;
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
  heardFrom(state, copy.url);
}

// Whether the engine's files come over the network (a download the page shows in
// percent) or from the browser's cache, read (or revalidated: a 304 carries no
// body), said by the first file in and by any later one that came over the
// network: from its resource timing, most of its body crossed the network or not.
function heardFrom(/** @type {LoaderState} */ state, /** @type {string} */ url) {
  setTimeout(() => {
    const entry = /** @type {PerformanceResourceTiming | undefined} */ (performance.getEntriesByName(url).at(-1));
    if (!entry || state.progress.network) return;
    state.progress.network = entry.transferSize > entry.encodedBodySize / 2;
    report(state, true);
  });
}

// ------------------------------------------------------------ what is wrong with a file

function missing(/** @type {string} */ file, /** @type {number} */ status) {
  return status === 404 || status === 410
    ? `${file} is missing from the server (it answered ${status}): publish the whole of the built site/ folder`
    : `${file} answered ${status}`;
}

const bytes = (/** @type {number} */ n) => n.toLocaleString("en-US");
const AGAIN = "reload to fetch it again; if this site is self-hosted, publish the built site/ folder's files as they are";

function cutShort(/** @type {string} */ file, /** @type {number} */ got, /** @type {number} */ size) {
  return new Error(`${file} arrived cut short (${bytes(got)} of its ${bytes(size)} bytes): ${AGAIN}`);
}

function damaged(/** @type {string} */ file, /** @type {string} */ what) {
  return new Error(`${file} arrived damaged (${what}): ${AGAIN}`);
}

const said = (/** @type {unknown} */ error) => String((error && /** @type {Error} */ (error).message) || error);

/**
 * An .xz file's body inflated, checked as it comes: fewer or more bytes than
 * runtime.json gives (`size`, if it gives one) or a stream that does not
 * inflate are a fault (state.fault, with an error that names the file), and
 * the stream stops there, unended.
 * @param {LoaderState} state
 * @param {string} file the .xz file, under assets/generated/
 * @param {ReadableStream<Uint8Array>} body
 * @param {number | undefined} size
 * @returns {Promise<ReadableStream<Uint8Array>>}
 */
async function inflating(state, file, body, size) {
  const { XzReadableStream } = await xzModule;
  let got = 0;
  const measured = body.pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        got += chunk.length;
        controller.enqueue(chunk);
      },
      flush(controller) {
        if (size && got < size) controller.error(cutShort(file, got, size));
        else if (size && got > size) controller.error(damaged(file, `${bytes(got)} bytes, where the build made ${bytes(size)}`));
      },
    }),
  );
  const reader = new XzReadableStream(measured).getReader();
  return new ReadableStream({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        // The fault is the engine's failure; the stream stops here, so that its
        // reader (Pyodide) has no error of its own to leave unhandled.
        state.fault(said(error).startsWith(file) ? error : damaged(file, `it does not inflate: ${said(error)}`));
        await new Promise(() => {});
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

// ------------------------------------------------------------ downloads

// Every download of one of the engine's files is counted from a clone of its
// response, taken at once (before anything reads or locks the body): the
// response itself goes on untouched, to the inflater and on to Pyodide,
// which compiles the WebAssembly as it streams in.
/** @type {typeof fetch} */
const realFetch = self.fetch.bind(self);

/** A download of this worker's own (past the early map), counted if it is one of the engine's files. */
async function countedFetch(/** @type {LoaderState} */ state, /** @type {RequestInfo | URL} */ input, /** @type {RequestInit} */ init = undefined) {
  const method = (init && init.method) || (input instanceof Request ? input.method : "GET");
  const response = await realFetch(input, init);
  if (response.ok && response.body && method === "GET" && state.runtime) count(state, response.clone());
  return response;
}

/** The response if it is ok; else an error that names the file and what the host answered. */
async function fetchOk(/** @type {URL} */ url, /** @type {RequestInit} */ options, fetcher = realFetch) {
  const response = await fetcher(url, options);
  if (!response.ok) throw new Error(missing(url.pathname.split("/assets/generated/").pop(), response.status));
  return response;
}

// Pyodide's fetches go through here: what the boot started for it is handed
// over (the early map), the inflated files again if it asks again (a refused
// snapshot), the rest fetched and counted.
function patchFetch(/** @type {LoaderState} */ state) {
  self.fetch = async (input, init) => {
    const href = input instanceof Request ? input.url : new URL(input, location.href).href;
    const method = (init && init.method) || (input instanceof Request ? input.method : "GET");
    if (method === "GET" && state.early.has(href)) {
      const started = state.early.get(href);
      state.early.delete(href);
      return started;
    }
    if (method === "GET" && href === GENERATED_HREF(WASM) && state.wasmFile === WASM) {
      return forPyodide(fetchOk(new URL(href), undefined).then(asWasm)); // asked again
    }
    if (method === "GET" && INFLATED.has(href)) return forPyodide(inflated(state, INFLATED.get(href))); // asked again
    return countedFetch(state, input, init);
  };
}

/**
 * What Pyodide is handed for a download: the response, or, if the download
 * failed, a promise that never settles (the failure is the engine's, reported
 * once; Pyodide would report it again, unhandled, or as its own exit(1)).
 * @param {Promise<Response>} download
 * @returns {Promise<Response>}
 */
function forPyodide(download) {
  return download.catch(() => new Promise(() => {}));
}

// A file of the engine's, fetched as its .xz and inflated as it arrives: a
// response Pyodide takes as the file itself (the WebAssembly's type is ours to
// give, so a host's type for either file no longer matters). The decoder
// inflates one file at a time (xz-decompress queues the others), so each is
// inflated to its end as its bytes come, whether or not Pyodide reads it yet:
// a file Pyodide reads later cannot hold up one it reads now.
function inflated(/** @type {LoaderState} */ state, /** @type {Inflated} */ { file, type }, download = countedFetch(state, GENERATED_HREF(`${file}.xz`))) {
  return download.then(async (response) => {
    if (!response.ok) throw new Error(missing(`${file}.xz`, response.status));
    const rt = await state.runtime;
    const stream = await inflating(state, `${file}.xz`, response.body, rt.sizes && rt.sizes[`${file}.xz`]);
    const [forPyodide, pump] = stream.tee();
    drain(pump);
    return new Response(forPyodide, { headers: { "Content-Type": type } });
  });
}

async function drain(/** @type {ReadableStream} */ stream) {
  const reader = stream.getReader();
  try {
    while (!(await reader.read()).done);
  } catch {
    // inflating() has named the fault
  }
}

// The WebAssembly as it is, with the type Pyodide needs whatever the host said.
function asWasm(/** @type {Response} */ response) {
  if (!response.ok) throw new Error(missing(WASM, response.status));
  const type = (response.headers.get("content-type") || "").split(";")[0].trim();
  return type === "application/wasm" ? response : new Response(response.body, { headers: { "Content-Type": "application/wasm" } });
}

/**
 * A file's response if the browser holds it already (its HTTP cache, or the
 * service worker's); null without asking the network. Counted from a clone
 * unless fetched with realFetch (the snapshot, which snapshotBytes counts).
 * @param {URL | string} url
 * @param {typeof fetch} fetcher
 */
async function fromCache(url, fetcher) {
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
async function chooseWasm(/** @type {LoaderState} */ state) {
  const rt = await state.runtime;
  const counted = (/** @type {RequestInfo | URL} */ input, /** @type {RequestInit} */ init) => countedFetch(state, input, init);
  let response = await fromCache(GENERATED_HREF(WASM), counted);
  state.wasmFile = WASM;
  if (!response) {
    response = await fromCache(GENERATED_HREF(`${WASM}.xz`), counted);
    state.wasmFile = `${WASM}.xz`;
  }
  if (!response) {
    state.wasmFile = (await fastLink(state, rt)) ? WASM : `${WASM}.xz`;
    response = await countedFetch(state, GENERATED_HREF(state.wasmFile)); // not fetch(): the early map holds what this makes
  }
  state.used.add(state.wasmFile);
  unexpect(state, state.wasmFile === WASM ? `${WASM}.xz` : WASM);
  return response;
}

// Every start needs the WebAssembly, the standard library and Pyodide's lock
// file: their downloads start first of all, and Pyodide gets them (the first
// two inflated) when it asks (the early map above). A failed one is a fault
// (missing from the host, say): Pyodide, refused a file, can hang saying nothing.
function startDownloads(/** @type {LoaderState} */ state) {
  const stdlibDownload = countedFetch(state, GENERATED_HREF(`${STDLIB}.xz`));
  stdlibDownload.catch(() => {}); // reported below
  state.linkProbe = probe(stdlibDownload);
  const wasm = chooseWasm(state)
    .then((response) =>
      state.wasmFile === WASM ? asWasm(response) : inflated(state, INFLATED.get(GENERATED_HREF(WASM)), Promise.resolve(response)),
    )
    .then((response) => compileEarly(state, response));
  // After the WebAssembly's inflater, if it has one: the decoder takes one file
  // at a time, and Pyodide compiles the WebAssembly as it is inflated.
  const stdlib = wasm.catch(() => {}).then(() => inflated(state, INFLATED.get(GENERATED_HREF(STDLIB)), stdlibDownload));
  const lock = state.runtime.then((rt) => fetchLock(state, rt));
  for (const [file, download] of [[WASM, wasm], [STDLIB, stdlib], [LOCK, lock]]) {
    const href = GENERATED_HREF(/** @type {string} */ (file));
    const response = /** @type {Promise<Response>} */ (download);
    response.catch((error) => state.fault(error));
    state.early.set(href, forPyodide(response));
  }
}

/**
 * Pyodide's lock file, checked: Pyodide reads it with response.json() and
 * would say only what the JSON parser says of a damaged one, unhandled.
 * @param {LoaderState} state
 * @param {Runtime} rt
 */
async function fetchLock(state, rt) {
  const response = await fetchOk(new URL(LOCK, GENERATED), undefined, (url, init) => countedFetch(state, url, init));
  const body = new Uint8Array(await response.arrayBuffer());
  const size = rt.sizes && rt.sizes[LOCK];
  if (size && body.length < size) throw cutShort(LOCK, body.length, size);
  try {
    JSON.parse(new TextDecoder().decode(body));
  } catch (error) {
    throw damaged(LOCK, `it is not JSON: ${said(error)}`);
  }
  return new Response(body, { headers: { "Content-Type": "application/json" } });
}

// Pyodide compiles its WebAssembly only when it instantiates it, and a start
// from the snapshot instantiates it only once the snapshot is in and inflated
// (loadPyodide awaits it first): 50 to 100 ms of compiling (more on a phone),
// after 0.2 to 0.4 s of inflating, on the way to the first answer. So the
// WebAssembly is compiled as it arrives, beside the snapshot's download, and
// Pyodide's WebAssembly.instantiateStreaming of the response it got from the
// early map is served from that compiled module (Pyodide takes no module of
// ours otherwise). Any other response goes to the browser's own function.
function patchInstantiate(/** @type {LoaderState} */ state) {
  const instantiateStreaming = WebAssembly.instantiateStreaming.bind(WebAssembly);
  WebAssembly.instantiateStreaming = async (source, imports) => {
    const response = await source;
    const module = state.compiling.get(response);
    if (!module) return instantiateStreaming(response, imports);
    state.compiling.delete(response);
    /** @type {WebAssembly.Module} */
    const compiled = await module.catch(() => new Promise(() => {})); // the fault is the engine's failure
    return { module: compiled, instance: await WebAssembly.instantiate(compiled, imports) };
  };
}

function compileEarly(/** @type {LoaderState} */ state, /** @type {Response} */ response) {
  const module = WebAssembly.compileStreaming(response).catch((error) => {
    // An inflater's fault names itself; a policy that refuses WebAssembly is the host's, not the file's.
    if (state.firstFault) throw state.firstFault;
    if (/Refused/.test(said(error))) throw new Error(`${WASM} may not be compiled on this site (${said(error)})`);
    throw damaged(state.wasmFile, `it is not WebAssembly: ${said(error)}`);
  });
  module.catch((error) => state.fault(error));
  state.compiling.set(response, module);
  return response;
}

function probe(/** @type {Promise<Response>} */ download) {
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

function fastLink(/** @type {LoaderState} */ state, /** @type {Runtime} */ rt) {
  state.fast ??= state.linkProbe.then(({ rate }) => (1000 * rt.sizes[rt.snapshot]) / rate < SNAPSHOT_PAYS_MS);
  return state.fast;
}

// ------------------------------------------------------------ the snapshot

// The snapshot is stored sparse and gzipped (scripts/build_wheel.py): Pyodide's
// 30 MiB snapshot of its memory less the runs of zeros, 14 MiB (sparseSnapshot
// below). A host that labels .gz files with Content-Encoding: gzip has the
// browser inflate it already: then it does not start with gzip's magic number
// and is expanded as it came. It is on the way to a
// start from it, so it is read by this worker alone (no clone of the response:
// a tee'd body crosses this worker's thread twice, and under a start's load the
// bytes reached it 0.15 to 0.4 s after the network had them) and inflated in one
// write, a third faster than through a Blob's stream, and faster than chunk by
// chunk as it arrives once the CPU is slow (0.07 to 0.3 s with it slowed 4
// times, scripts/bench_browser.py). From the network (arriving) it is counted as
// it comes, for the progress shown; from the browser's cache it is read whole.
async function snapshotBytes(/** @type {LoaderState} */ state, /** @type {Response} */ response, /** @type {Runtime} */ rt, /** @type {boolean} */ arriving) {
  const tally = counter(state, rt.snapshot);
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
    const memory = sparseSnapshot();
    if (body[0] !== 0x1f || body[1] !== 0x8b) return memory.add(body).end(); // inflated by the browser already
    const inflater = new DecompressionStream("gzip");
    const writer = inflater.writable.getWriter();
    writer.write(/** @type {Uint8Array<ArrayBuffer>} */ (body)).catch(() => {}); // an error reaches the reader
    writer.close().catch(() => {});
    const reader = inflater.readable.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return memory.end();
      memory.add(value);
    }
  } finally {
    if (tally) tally.done();
  }
}

// The sparse snapshot's layout (little-endian u32s, written by build_wheel.py's
// sparse_snapshot): "FMz1", the length of Pyodide's snapshot, the number N of
// stretches kept, N pairs (offset, length), then the stretches' bytes one after
// the other; everything between them is zero.
const SPARSE_MAGIC = 0x317a4d46; // "FMz1" read as a little-endian u32

/**
 * Pyodide's memory snapshot from the sparse one's bytes, given piece by piece
 * as they are inflated: each stretch is written straight to its place in one
 * zeroed buffer (no copy of the pieces, no zeros inflated). end() gives the
 * snapshot; add() and end() throw on bytes that are not a sparse snapshot, or
 * one cut short (Python then boots the ordinary way).
 */
export function sparseSnapshot() {
  /** @type {Uint8Array[]} */
  let head = []; // the pieces before the stretches' table is whole
  let headBytes = 0;
  /** @type {Uint8Array | null} */
  let out = null;
  /** @type {Uint32Array | null} */
  let table = null; // offset, length, offset, length ...
  let stretch = 0; // the stretch being written
  let within = 0; // bytes of it written
  const bad = (/** @type {string} */ why) => new Error(`the snapshot is damaged: ${why}`);

  function begin() {
    const bytes = joined(head);
    head = [];
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (view.getUint32(0, true) !== SPARSE_MAGIC) throw bad("it is not a sparse snapshot");
    const total = view.getUint32(4, true);
    const count = view.getUint32(8, true);
    const start = 12 + 8 * count;
    if (bytes.length < start) {
      head = [bytes]; // the table is not all in yet
      return;
    }
    table = new Uint32Array(2 * count);
    let end = 0;
    for (let i = 0; i < 2 * count; i += 2) {
      table[i] = view.getUint32(12 + 4 * i, true);
      table[i + 1] = view.getUint32(16 + 4 * i, true);
      if (table[i] < end || table[i] + table[i + 1] > total) throw bad(`stretch ${i / 2 + 1} of ${count} lies outside its place`);
      end = table[i] + table[i + 1];
    }
    out = new Uint8Array(total);
    write(bytes.subarray(start));
  }

  function write(/** @type {Uint8Array} */ piece) {
    let at = 0;
    while (at < piece.length) {
      if (2 * stretch >= table.length) throw bad("it is longer than its stretches");
      const length = table[2 * stretch + 1];
      const take = Math.min(length - within, piece.length - at);
      out.set(piece.subarray(at, at + take), table[2 * stretch] + within);
      at += take;
      within += take;
      if (within === length) {
        stretch += 1;
        within = 0;
      }
    }
  }

  const memory = {
    add(/** @type {Uint8Array} */ piece) {
      if (out) {
        write(piece);
      } else {
        head.push(piece);
        headBytes += piece.length;
        if (headBytes >= 12) begin();
      }
      return memory;
    },
    end() {
      if (!out || 2 * stretch < table.length) throw bad("it is cut short");
      return out;
    },
  };
  return memory;
}

function joined(/** @type {Uint8Array[]} */ pieces) {
  if (pieces.length === 1) return pieces[0];
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

/** @returns {Promise<{pyodide: PyodideAPI, snapshot: boolean}>} */
async function startPython(/** @type {LoaderState} */ state) {
  const { loadPyodide } = await pyodideModule;
  if (WANT_SNAPSHOT) {
    const rt = await state.runtime;
    expect(state, rt, rt.snapshot); // before asking: the answer from the cache is counted as it is read
    let cached = await fromCache(snapshotURL(rt), realFetch);
    const arriving = !cached;
    if (cached) state.wheelMayCome();
    if (!cached && (await fastLink(state, rt))) {
      state.wheelMayCome();
      try {
        cached = await fetchOk(snapshotURL(rt), undefined); // counted as it is read
      } catch (error) {
        console.warn(`Fire Mission: booting Pyodide without its snapshot (${said(error)})`);
      }
    }
    if (!cached) {
      unexpect(state, rt.snapshot); // which may have been all the wheel waited for
    } else {
      state.used.add(rt.snapshot);
      const snapshot = snapshotBytes(state, cached, rt, arriving);
      snapshot.catch(() => {}); // loadPyodide reports it
      try {
        return { pyodide: await loadPyodide({ ...PYODIDE_OPTIONS, _loadSnapshot: snapshot }), snapshot: true };
      } catch (error) {
        if (state.firstFault) throw state.firstFault; // not the snapshot's fault
        console.warn(`Fire Mission: booting Pyodide without its snapshot (${said(error)})`);
      }
    }
  }
  return { pyodide: await loadPyodide(PYODIDE_OPTIONS), snapshot: false };
}

/**
 * After the first answer (or once Python is up with nothing asked of it):
 * fetch what the next visit starts from, each read to the end so that the
 * cache keeps it: the snapshot, unless Python started from it, and the
 * WebAssembly as it is, if this start took its .xz. Then say whether the
 * browser has the snapshot ({type: "prefetched", ok}): all the engine will
 * ever fetch has been fetched (assets/offline.mjs then has the service worker
 * keep it). Neither is fetched where the browser says the connection is slow
 * or the reader saves data (WANT_SNAPSHOT).
 *
 * The WebAssembly as it is: a start from its .xz inflates 9.6 MB in this
 * worker (0.2 to 0.3 s here, several times that on a phone) and compiles a
 * stream this worker made, whose compiled code the browser cannot keep; the
 * file as it is, from the cache, is compiled as it is read, and from the
 * start after next with the code the browser kept of it. Measured with
 * scripts/bench_browser.py on Fast 4G (2 runs each), a repeat visit took
 * 1,572 ms from the .xz and 1,174 ms with this (the third visit 1,556 and
 * 942 ms), for 3.4 MiB more once, after the first visit's answer.
 * @param {LoaderState} state
 * @param {boolean} fromSnapshot
 */
export async function prefetchNextStart(state, fromSnapshot) {
  if (state.prefetched) return;
  state.prefetched = true;
  const rt = await state.runtime;
  const readWhole = async (/** @type {URL | string} */ url) => {
    try {
      const response = await realFetch(url);
      await response.arrayBuffer();
      return response.ok;
    } catch {
      return false; // the next visit starts as this one did
    }
  };
  let ok = fromSnapshot;
  if (!ok && WANT_SNAPSHOT) ok = await readWhole(snapshotURL(rt));
  if (ok) state.used.add(rt.snapshot);
  if (state.wasmFile === `${WASM}.xz` && WANT_SNAPSHOT && (await readWhole(GENERATED_HREF(WASM)))) state.used.add(WASM);
  state.post({ type: "prefetched", ok, files: [...state.used] });
}

// ------------------------------------------------------------ the wheel

/**
 * The wheel (runtime.json names it and gives its hash, so a new build never
 * meets a cached old wheel), checked against that hash and inflated. On a slow
 * link it is fetched once every file Python needs to start is in, so it does
 * not share the link with them (Python takes longer to start than the wheel
 * to arrive); on a fast one, at once (wheelMay). It is counted once it is all
 * in, before the rules are unpacked.
 * @returns {Promise<ArrayBuffer>} the wheel, inflated
 */
async function fetchWheel(/** @type {LoaderState} */ state) {
  const rt = await state.runtime;
  await state.wheelMay;
  const response = await fetchOk(new URL(`${rt.wheel}?v=${rt.sha256}`, GENERATED), undefined);
  const packed = await response.arrayBuffer().catch((error) => {
    throw new Error(`${rt.wheel} did not arrive whole (${said(error)}): ${AGAIN}`);
  });
  const size = rt.sizes && rt.sizes[rt.wheel];
  if (size && packed.byteLength < size) throw cutShort(rt.wheel, packed.byteLength, size);
  // crypto.subtle is there in a secure context (HTTPS, or this machine's own address).
  if (self.crypto && self.crypto.subtle) {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", packed));
    const hex = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
    if (hex !== rt.sha256) throw damaged(rt.wheel, "its SHA-256 is not the one the build wrote in runtime.json");
  }
  state.progress.loaded += state.expected.get(rt.wheel) || 0;
  report(state, true);
  const stream = await inflating(state, rt.wheel, new Blob([packed]).stream(), size); // a fault of its own, if it does not inflate
  return new Response(stream).arrayBuffer();
}

// ------------------------------------------------------------ the start

/**
 * Starts the engine: runtime.json, then every download, then Python, the
 * wheel and rules_py. The promise rejects with the first fault of a file, if
 * there is one (see the top of this module), else with what failed.
 * @param {(message: WorkerMessage) => void} post
 * @returns {{state: LoaderState, engine: Promise<Booted>}}
 */
export function startEngine(post) {
  const state = newState(post);
  patchFetch(state);
  patchInstantiate(state);
  const runtime = fetchOk(new URL("runtime.json", GENERATED), { cache: "no-cache" }).then((r) => /** @type {Promise<Runtime>} */ (r.json()));
  state.runtime = runtime;
  // Before the downloads start: what they are counted against (chooseWasm then drops one WebAssembly).
  runtime.then(
    (rt) => {
      state.wheelName = rt.wheel;
      state.used.add(rt.wheel);
      [...ALWAYS, rt.wheel].forEach((file) => expect(state, rt, file));
    },
    (error) => state.fault(error),
  );
  startDownloads(state);
  // Pyodide's JavaScript half too: Pyodide's own import of it then finds it loaded.
  import(GENERATED_HREF("pyodide/pyodide.asm.mjs")).catch(() => {});
  const wheel = fetchWheel(state);
  wheel.catch((error) => state.fault(error));
  const booting = boot(state, wheel);
  // A fault wins over what the boot then says of it: the boot, reading the same
  // file, fails a moment later, with a message further from the cause.
  const engine = Promise.race([booting, state.faulted]).catch(async (error) => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    throw state.firstFault || error;
  });
  return { state, engine };
}

// The wheel is a zip whose entries are stored, not deflated (scripts/build_wheel.py:
// the .xz around it compresses them): its files are the zip's own bytes, written to
// Pyodide's file system from here. Pyodide's unpackArchive would run Python's
// zipfile, cold after a start from the snapshot: 0.1 to 0.25 s of this worker's
// time on the way to the first answer, against 0.01 to 0.03 s here
// (scripts/bench_browser.py has the start's phases).
/**
 * Every file of a zip whose entries are all stored, as [name, bytes] (views
 * into ``zip``), folders left out; null if an entry is compressed (Pyodide's
 * unpackArchive takes it then). Throws on a zip that is not one, or names a
 * file outside its own folder.
 * @param {Uint8Array} zip
 * @returns {Array<[string, Uint8Array]> | null}
 */
export function storedFiles(zip) {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let end = zip.length - 22; // the end of central directory record, found from the end (a comment may follow it)
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0) throw new Error("no zip directory at its end");
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const names = new TextDecoder("utf-8", { fatal: true });
  /** @type {Array<[string, Uint8Array]>} */
  const out = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || view.getUint32(at, true) !== 0x02014b50) throw new Error(`entry ${i + 1} of the zip's directory is damaged`);
    const method = view.getUint16(at + 10, true);
    const packedSize = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const local = view.getUint32(at + 42, true);
    const name = names.decode(zip.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (name.startsWith("/") || name.split("/").some((part) => part === "..")) throw new Error(`it names a file outside its folder: ${name}`);
    if (name.endsWith("/")) continue;
    if (method !== 0 || packedSize !== size) return null;
    if (local + 30 > zip.length || view.getUint32(local, true) !== 0x04034b50) throw new Error(`${name}: its entry is damaged`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (start + size > zip.length) throw new Error(`${name} is cut short`);
    out.push([name, zip.subarray(start, start + size)]);
  }
  return out;
}

/** @returns {Promise<Booted>} */
async function boot(/** @type {LoaderState} */ state, /** @type {Promise<ArrayBuffer>} */ wheel) {
  const phases = { pyodide: 0, wheel: 0, rules: 0 };
  const { pyodide, snapshot } = await startPython(state);
  phases.pyodide = performance.now() - state.started;
  setPhase(state, "rules");
  const sitePackages = pyodide.runPython("import sys\nnext(p for p in sys.path if p.endswith('site-packages'))");
  pyodide.runPython("_modules_at_boot = frozenset(sys.modules)");
  const packed = await wheel;
  const rt = await state.runtime;
  let files;
  try {
    files = storedFiles(new Uint8Array(packed));
  } catch (error) {
    throw damaged(rt.wheel, `it inflates to no wheel Python can unpack: ${said(error)}`);
  }
  if (files) {
    for (const [name, bytes] of files) {
      const path = `${sitePackages}/${name}`;
      pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
      pyodide.FS.writeFile(path, bytes);
    }
    // The new files, for the import system: site-packages' finder forgets what it listed
    // (importlib.invalidate_caches() would import importlib.metadata, which the cut
    // standard library leaves out).
    pyodide.runPython(`finder = sys.path_importer_cache.get(${JSON.stringify(sitePackages)})
if finder is not None:
    finder.invalidate_caches()
del finder`);
  } else {
    try {
      pyodide.unpackArchive(packed, "wheel", { extractDir: sitePackages });
    } catch (error) {
      throw damaged(rt.wheel, `it inflates to no wheel Python can unpack: ${said(error).trim().split("\n").pop()}`);
    }
  }
  phases.wheel = performance.now() - state.started - phases.pyodide;
  // The first answer imports its calculator's module alone (rules_py.registry and
  // the wheel's index); every other one is imported once it is out (loadEverything).
  const rules = pyodide.pyimport("rules_py");
  phases.rules = performance.now() - state.started - phases.pyodide - phases.wheel;
  return { call: rules.call_json, phases, snapshot, pyodide };
}
