// All that the loader changes as the engine starts is one object, LoaderState
// (newState), and what the page is told of it as it goes (the progress below).

import { LOCK, STDLIB, cutShort, damaged } from "./files.mjs";
import { sha256Hex } from "./sha256.mjs";

/** @typedef {import("../protocol.mjs").WorkerMessage} WorkerMessage */
/** @typedef {import("../protocol.mjs").BootPhase} BootPhase */
/** @typedef {import("./files.mjs").Runtime} Runtime */

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
 * @property {Promise<string> | null} lock Pyodide's lock file, checked, for loadPyodide's lockFileContents
 * @property {Map<string, number>} expected file under assets/generated/ -> its size, the bytes progress counts
 * @property {Set<string>} counting files whose bytes are being counted
 * @property {Set<string>} counted files all in
 * @property {Set<string>} used what this start fetched, for the service worker to keep
 * @property {string | null} wheelName the wheel's file, once runtime.json is in
 * @property {string | null} pageBuild the build the page comes from (build-check.mjs), if it says
 * @property {() => void} wheelMayCome lets the wheel's download start (see fetchWheel)
 * @property {Promise<void>} wheelMay
 * @property {Promise<import("./link.mjs").LinkRate> | null} linkProbe the rate at which the standard library crossed the link (probe)
 * @property {Promise<boolean> | null} fast whether the link is fast (fastLink)
 * @property {WeakMap<Response, Promise<WebAssembly.Module>>} compiling the WebAssembly's response, as handed to Pyodide -> its module
 * @property {(error: Error) => void} fault a file failed: the first fault is the engine's failure
 * @property {Promise<never>} faulted rejects with the first fault
 * @property {Error | null} firstFault
 * @property {boolean} prefetched prefetchNextStart has run
 * @property {Promise<void>[]} checks the checks of files' hashes under way (count, checkModules): the engine is up only once they are done
 */

/** @returns {LoaderState} */
export function newState(/** @type {(message: WorkerMessage) => void} */ post) {
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
  /** @type {LoaderState} */
  const state = {
    post,
    started: performance.now(),
    progress: { phase: /** @type {BootPhase} */ ("download"), loaded: 0, total: 0, network: null },
    reported: 0,
    runtime: null,
    wasmFile: null,
    early: new Map(),
    lock: null,
    expected: new Map(),
    counting: new Set(),
    counted: new Set(),
    used: new Set([`${STDLIB}.xz`, LOCK]),
    wheelName: null,
    pageBuild: null,
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
    checks: [],
  };
  return state;
}

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
export function report(/** @type {LoaderState} */ state, force = false) {
  const now = performance.now();
  if (!force && now - state.reported < 100) return;
  state.reported = now;
  state.post({ type: "progress", ...state.progress });
}

export function setPhase(/** @type {LoaderState} */ state, /** @type {BootPhase} */ phase) {
  state.progress.phase = phase;
  report(state, true);
}

export function expect(/** @type {LoaderState} */ state, /** @type {Runtime} */ rt, /** @type {string} */ file) {
  const size = (rt.sizes || {})[file];
  if (!size || state.expected.has(file)) return;
  state.expected.set(file, size);
  state.progress.total += size;
  report(state, true);
}

export function unexpect(/** @type {LoaderState} */ state, /** @type {string} */ file) {
  state.progress.total -= state.expected.get(file) || 0;
  state.expected.delete(file);
  checkPythonFiles(state);
}

// Counts one expected file's bytes as they come; null if it is not expected or is counted already.
export function counter(/** @type {LoaderState} */ state, /** @type {string} */ name) {
  if (!state.expected.has(name) || state.counting.has(name)) return null;
  state.counting.add(name);
  const size = /** @type {number} expected: asked above */ (state.expected.get(name));
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
export function checkPythonFiles(/** @type {LoaderState} */ state) {
  const { wheelName } = state;
  if (wheelName === null || ![...state.expected.keys()].every((file) => file === wheelName || state.counted.has(file))) return;
  state.wheelMayCome();
  if (state.progress.phase === "download") setPhase(state, "python");
}

// Reads `copy` (a clone of a response) to the end, counting its bytes; and,
// for a file runtime.json gives a hash of (file_sha256: the WebAssembly as it
// is), checks its size and hash once it is all in (see checkBytes).
export async function count(/** @type {LoaderState} */ state, /** @type {Response} */ copy) {
  let rt;
  try {
    rt = /** @type {Runtime} */ (await state.runtime);
  } catch {
    /** @type {ReadableStream} a download's copy has a body */ (copy.body).cancel().catch(() => {});
    return;
  }
  const path = new URL(copy.url).pathname;
  const name = [...state.expected.keys()].find((file) => path.endsWith(`/assets/generated/${file}`));
  const tally = name ? counter(state, name) : null;
  if (!tally || !name) {
    /** @type {ReadableStream} */ (copy.body).cancel().catch(() => {});
    return;
  }
  const hashed = rt.file_sha256?.[name];
  /** @type {Uint8Array[] | null} */
  const pieces = hashed ? [] : null;
  let whole = false;
  /** @type {() => void} */
  let checked = () => {};
  if (hashed) state.checks.push(new Promise((resolve) => (checked = () => resolve(undefined))));
  try {
    const reader = /** @type {ReadableStream<Uint8Array>} */ (copy.body).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      tally.add(value.length);
      pieces?.push(value);
    }
    whole = true;
  } catch {
    // the download failed: the boot reports that
  }
  tally.done();
  heardFrom(state, copy.url);
  if (pieces && whole) await checkBytes(state, rt, name, joinedBuffer(pieces));
  checked();
}

/**
 * A file of the engine's, all in, against its size and runtime.json's file_sha256:
 * a fault if either differs (the first fault is the engine's failure, before any answer).
 * @param {LoaderState} state
 * @param {Runtime} rt
 * @param {string} name under assets/generated/
 * @param {ArrayBuffer} bytes
 */
export async function checkBytes(state, rt, name, bytes) {
  const size = rt.sizes?.[name];
  if (size && bytes.byteLength < size) return state.fault(cutShort(name, bytes.byteLength, size));
  if (size && bytes.byteLength > size) return state.fault(damaged(name, `${bytes.byteLength} bytes, where the build made ${size}`));
  const want = rt.file_sha256?.[name];
  if (want && (await sha256Hex(bytes)) !== want) state.fault(damaged(name, "its SHA-256 is not the one the build wrote in runtime.json"));
}

function joinedBuffer(/** @type {Uint8Array[]} */ pieces) {
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out.buffer;
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
