// The engine's loader: rules_py on the site's own copy of Pyodide, started in
// the worker (worker.mjs runs the message loop; this module and loader/ fetch,
// check and start). startEngine() starts everything and returns the booted
// engine.
//
// Everything is fetched from this site: Pyodide's run-time files, the memory
// snapshot Python starts from and the rules wheel, all under assets/generated/
// (see scripts/build/build_wheel.py). No micropip. The modules of loader/, each one
// concern:
//   files.mjs             the engine's files, and what is said of one that fails
//   state.mjs             all that the loader changes as it goes (LoaderState), and the progress shown
//   downloads.mjs         every download, checked, counted, inflated, and handed to Pyodide
//   link.mjs              whether the link is fast enough for the snapshot
//   sparse-snapshot.mjs   the memory snapshot's format, read as it is inflated
//   stored-zip.mjs        the wheel's files, read from its zip
//   pyodide-internals.mjs every use of Pyodide beyond its documented API, checked against one version
//
// A file that fails is named, with what is wrong with it: missing (the host's
// status), cut short (fewer bytes than runtime.json says the build made),
// damaged (the wheel's SHA-256 is not the build's; an .xz file does not
// inflate; the WebAssembly does not compile). The first such fault is the
// engine's failure (startEngine's promise rejects with it), whatever Pyodide,
// reading the same file, then says; Pyodide is never handed a failed download
// (it would leave the rejection unhandled, or hang saying nothing).

import { AGAIN, ALWAYS, GENERATED, GENERATED_HREF, WASM, cutShort, damaged, said } from "./loader/files.mjs";
import { fetchOk, fromCache, inflating, realFetch, startDownloads, steerPyodide } from "./loader/downloads.mjs";
import { WANT_SNAPSHOT, fastLink, snapshotURL } from "./loader/link.mjs";
import { withSnapshot } from "./loader/pyodide-internals.mjs";
import { snapshotBytes } from "./loader/sparse-snapshot.mjs";
import { checkBytes, expect, newState, report, setPhase, unexpect } from "./loader/state.mjs";
import { storedFiles } from "./loader/stored-zip.mjs";
import { checkWheelBuild, pageBuild, runtimeOfBuild } from "./loader/build-check.mjs";
import { sha256Hex } from "./loader/sha256.mjs";

/** @typedef {import("./protocol.mjs").WorkerMessage} WorkerMessage */
/** @typedef {import("pyodide").PyodideAPI} PyodideAPI */
/** @typedef {import("./loader/files.mjs").Runtime} Runtime */
/** @typedef {import("./loader/state.mjs").LoaderState} LoaderState */
/**
 * @typedef {object} Booted
 * @property {(request: string) => string} call rules_py.call_json
 * @property {import("./protocol.mjs").BootPhases} phases
 * @property {boolean} snapshot Python came from the build's snapshot
 * @property {PyodideAPI} pyodide
 * @property {() => string[]} importedSinceBoot the standard library modules imported since Python was up, sorted (rules_py's own left out)
 */

// Imported by address, not statically: the downloads start while it arrives.
/** @type {Promise<typeof import("pyodide")>} */
const pyodideModule = import(GENERATED_HREF("pyodide/pyodide.mjs"));
pyodideModule.catch(() => {}); // the boot reports it

/** loadPyodide's options (all of them documented by Pyodide), Pyodide's lock file as the loader fetched it. */
const pyodideOptions = (/** @type {LoaderState} */ state) => ({
  indexURL: GENERATED_HREF("pyodide/"),
  lockFileContents: /** @type {Promise<string>} startDownloads set it */ (state.lock),
  packages: [],
  stdout: () => {},
  stderr: (/** @type {string} */ line) => console.warn("rules_py:", line),
});

// How long the snapshot may take to be all in, from the moment it is asked for:
// past that, Python boots the ordinary way (a snapshot that stalls would
// otherwise hold the whole start up until the page's time limit, 60 s, and
// fail it). fastLink chose it because it comes in under 2 s; from the browser's
// cache it is read at once.
const SNAPSHOT_TIMEOUT_MS = 10000;

/**
 * The snapshot's response, or its bytes checked (snapshotBytes), or a rejection if
 * they are not in within SNAPSHOT_TIMEOUT_MS of `since`: the download is then dropped.
 * @template T
 * @param {Promise<T>} bytes
 * @param {AbortController} download aborts the snapshot's fetch
 * @param {number} since performance.now() when it was asked for
 * @returns {Promise<T>}
 */
function inTime(bytes, download, since) {
  const ms = SNAPSHOT_TIMEOUT_MS;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => {
      download.abort();
      reject(new Error(`the snapshot did not arrive within ${Math.round(ms / 1000)} s`));
    }, Math.max(0, ms - (performance.now() - since)));
  });
  return /** @type {Promise<T>} */ (Promise.race([bytes, late]).finally(() => clearTimeout(timer)));
}

/** @returns {Promise<{pyodide: PyodideAPI, snapshot: boolean}>} */
async function startPython(/** @type {LoaderState} */ state) {
  const { loadPyodide } = await pyodideModule;
  if (WANT_SNAPSHOT) {
    const rt = /** @type {Runtime} startEngine set state.runtime */ (await state.runtime);
    let since = performance.now();
    const download = new AbortController();
    let cached = await fromCache(snapshotURL(rt), realFetch);
    const arriving = !cached;
    if (cached) state.wheelMayCome();
    if (!cached && (await fastLink(state, rt))) {
      state.wheelMayCome();
      since = performance.now();
      try {
        cached = await inTime(fetchOk(snapshotURL(rt), { signal: download.signal }), download, since); // counted as it is read
      } catch (error) {
        console.warn(`Fire Mission: booting Pyodide without its snapshot (${said(error)})`);
        cached = null;
      }
    }
    if (!cached) {
      unexpect(state, rt.snapshot); // which may have been all the wheel waited for
    } else {
      state.used.add(rt.snapshot);
      const snapshot = inTime(snapshotBytes(state, cached, rt, arriving), download, since);
      snapshot.catch(() => {}); // loadPyodide reports it
      try {
        return { pyodide: await loadPyodide(withSnapshot(pyodideOptions(state), snapshot)), snapshot: true };
      } catch (error) {
        if (state.firstFault) throw state.firstFault; // not the snapshot's fault
        console.warn(`Fire Mission: booting Pyodide without its snapshot (${said(error)})`);
      }
    }
  }
  return { pyodide: await loadPyodide(pyodideOptions(state)), snapshot: false };
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
 * scripts/bench/bench_browser.py on Fast 4G (2 runs each), a repeat visit took
 * 1,572 ms from the .xz and 1,174 ms with this (the third visit 1,556 and
 * 942 ms), for 3.4 MiB more once, after the first visit's answer.
 * @param {LoaderState} state
 * @param {boolean} fromSnapshot
 */
export async function prefetchNextStart(state, fromSnapshot) {
  if (state.prefetched) return;
  state.prefetched = true;
  const rt = /** @type {Runtime} startEngine set state.runtime */ (await state.runtime);
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
  const rt = /** @type {Runtime} startEngine set state.runtime */ (await state.runtime);
  await state.wheelMay;
  const response = await fetchOk(new URL(`${rt.wheel}?v=${rt.sha256}`, GENERATED), undefined);
  const packed = await response.arrayBuffer().catch((error) => {
    throw new Error(`${rt.wheel} did not arrive whole (${said(error)}): ${AGAIN}`);
  });
  const size = rt.sizes && rt.sizes[rt.wheel];
  if (size && packed.byteLength < size) throw cutShort(rt.wheel, packed.byteLength, size);
  // Checked everywhere: crypto.subtle's digest in a secure context, sha256.mjs's where there is none (plain HTTP).
  if ((await sha256Hex(packed)) !== rt.sha256) throw damaged(rt.wheel, "its SHA-256 is not the one the build wrote in runtime.json");
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
  steerPyodide(state);
  // The page's build's (loader/build-check.mjs): another build's engine is refused before any answer.
  const page = pageBuild(self.location.href);
  state.pageBuild = page;
  const getJSON = (/** @type {URL} */ url, /** @type {RequestInit} */ init) => fetchOk(url, init).then((r) => /** @type {Promise<Runtime>} */ (r.json()));
  const runtime = runtimeOfBuild(getJSON, new URL("runtime.json", GENERATED), page);
  state.runtime = runtime;
  // Before the downloads start: what they are counted against (chooseWasm then
  // drops one WebAssembly; startPython drops the snapshot if it boots without).
  // The snapshot is counted from the start too: added once bytes had come, it
  // made the percentage shown go back (4% then 2%).
  runtime.then(
    (rt) => {
      state.wheelName = rt.wheel;
      state.used.add(rt.wheel);
      [...ALWAYS, rt.wheel, ...(WANT_SNAPSHOT ? [rt.snapshot] : [])].forEach((file) => expect(state, rt, file));
    },
    (error) => state.fault(error),
  );
  startDownloads(state);
  // Pyodide's JavaScript half too: Pyodide's own import of it then finds it loaded.
  import(GENERATED_HREF("pyodide/pyodide.asm.mjs")).catch(() => {});
  checkModules(state);
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

// The JavaScript modules the worker imports from assets/generated/ (Pyodide's own
// and the xz decoder), checked against runtime.json's sizes and file_sha256: an
// import takes no hash, so each is read once more, from the browser's cache where
// the import left it (the same address), and hashed. A damaged one is a fault,
// which fails the start before any answer. About 1.3 MB of reading and hashing,
// beside the downloads.
const MODULES = ["pyodide/pyodide.mjs", "pyodide/pyodide.asm.mjs", "xz-decompress.mjs"];

function checkModules(/** @type {LoaderState} */ state) {
  for (const name of MODULES) {
    const check = (async () => {
      const rt = /** @type {Runtime} startEngine set state.runtime */ (await state.runtime);
      if (!rt.file_sha256?.[name]) return;
      const response = await fetchOk(new URL(name, GENERATED), undefined);
      await checkBytes(state, rt, name, await response.arrayBuffer());
    })().catch(() => {}); // a fetch that fails: the import fails too, and says so
    state.checks.push(check);
  }
}

/** @returns {Promise<Booted>} */
async function boot(/** @type {LoaderState} */ state, /** @type {Promise<ArrayBuffer>} */ wheel) {
  const phases = { pyodide: 0, wheel: 0, rules: 0 };
  const { pyodide, snapshot } = await startPython(state);
  phases.pyodide = performance.now() - state.started;
  setPhase(state, "rules");
  // From the snapshot, Python's global random state is the one the build drew from a fixed stream
  // (scripts/build/pyodide_snapshot.mjs): nothing here draws from it (rolls have their own
  // random.Random(seed)), but it is reseeded from this browser's entropy all the same.
  if (snapshot) pyodide.runPython("import random\nrandom.seed()");
  const sitePackages = pyodide.runPython("import sys\nnext(p for p in sys.path if p.endswith('site-packages'))");
  const modules = () => {
    const names = pyodide.runPython("import sys\nsorted(sys.modules)");
    try {
      return /** @type {string[]} */ (names.toJs());
    } finally {
      names.destroy();
    }
  };
  const atBoot = new Set(modules());
  const packed = await wheel;
  const rt = /** @type {Runtime} startEngine set state.runtime */ (await state.runtime);
  let files;
  try {
    files = storedFiles(new Uint8Array(packed));
  } catch (error) {
    throw damaged(rt.wheel, `it inflates to no wheel Python can unpack: ${said(error)}`);
  }
  checkWheelBuild(files, state.pageBuild);
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
  const importedSinceBoot = () => modules().filter((name) => !atBoot.has(name) && !name.startsWith("rules_py"));
  await Promise.all(state.checks); // every file checked (a fault fails the start instead)
  return { call: rules.call_json, phases, snapshot, pyodide, importedSinceBoot };
}
