// The loader's uses of Pyodide beyond its documented API
// (docs/assets/calc/loader/pyodide-internals.mjs), checked against the vendored
// Pyodide (node_modules/pyodide, pinned by package-lock.json), so that an
// upgrade that breaks one fails here, in make check, before any browser test:
//   - the version is the one the module says it was checked against;
//   - loadPyodide, given the loader's kind of options (an http indexURL, the
//     lock file as lockFileContents, a snapshot as _loadSnapshot), fetches the
//     WebAssembly and the standard library, and nothing else, through the
//     global fetch that steerFetches replaced, awaits the snapshot, and then
//     instantiates the very response it was handed with
//     WebAssembly.instantiateStreaming, which serveCompiled replaced;
//   - the build's side of the snapshot (_makeSnapshot, makeMemorySnapshot) is
//     still declared.
// Pyodide is not started: once it instantiates, the test has seen all it needs
// (a start under Node takes seconds, too long for make check).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

// Node dressed as the module worker the loader runs in, before Pyodide is
// imported (it tells where it runs as it loads): so Pyodide takes the browser's
// ways of fetching its files, the ones the loader steers.
process.browser = true;
globalThis.self = globalThis;
globalThis.location = new URL("http://fire-mission.test/assets/calc/worker.mjs");
globalThis.WorkerGlobalScope = class WorkerGlobalScope {
  static [Symbol.hasInstance](object) {
    return object === globalThis;
  }
};
delete globalThis.MessageChannel; // a browser's Pyodide keeps a channel open for its scheduler, which would keep Node from exiting

const PYODIDE = new URL("../node_modules/pyodide/", import.meta.url);
const { PYODIDE_CHECKED, serveCompiled, steerFetches, withSnapshot } = await import("../docs/assets/calc/loader/pyodide-internals.mjs");

test("the vendored Pyodide is the version the internals were checked against", async () => {
  const npm = JSON.parse(readFileSync(new URL("package.json", PYODIDE), "utf8")).version;
  const { version } = await import(new URL("pyodide.mjs", PYODIDE).href);
  assert.equal(npm, PYODIDE_CHECKED, "an upgraded Pyodide: check each use in pyodide-internals.mjs against it, then its PYODIDE_CHECKED");
  assert.equal(version, PYODIDE_CHECKED);
});

test("the build's snapshot options are still Pyodide's", () => {
  const declared = readFileSync(new URL("pyodide.d.ts", PYODIDE), "utf8");
  assert.match(declared, /\b_makeSnapshot\?: boolean;/);
  assert.match(declared, /\b_loadSnapshot\?: Uint8Array \| ArrayBuffer \| PromiseLike<Uint8Array \| ArrayBuffer>;/);
  assert.match(declared, /\bstatic makeMemorySnapshot\(/);
  assert.match(declared, /\blockFileContents\?: Lockfile \| string \| Promise<Lockfile \| string>;/);
});

test("Pyodide fetches its WebAssembly and standard library through fetch, awaits the snapshot, then instantiates what it was handed", { timeout: 30000 }, async () => {
  const indexURL = new URL("../generated/pyodide/", globalThis.location).href;
  const files = {
    [`${indexURL}pyodide.asm.wasm`]: ["pyodide.asm.wasm", "application/wasm"],
    [`${indexURL}python_stdlib.zip`]: ["python_stdlib.zip", "application/zip"],
  };
  const lock = readFileSync(new URL("pyodide-lock.json", PYODIDE), "utf8");
  const events = [];
  const handed = new Map(); // address -> the response handed to Pyodide
  const realFetch = globalThis.fetch;
  const realInstantiate = WebAssembly.instantiateStreaming;
  let instantiated;
  const seen = new Promise((resolve) => {
    instantiated = resolve;
  });
  try {
    steerFetches(
      (href) => {
        events.push(`fetch ${href}`);
        if (!files[href]) return null;
        const [file, type] = files[href];
        const response = new Response(readFileSync(new URL(file, PYODIDE)), { headers: { "Content-Type": type } });
        handed.set(href, response);
        return Promise.resolve(response);
      },
      async (input) => {
        throw new Error(`Pyodide fetched ${input}, which the loader does not answer`);
      },
    );
    serveCompiled((response) => {
      events.push("instantiate");
      instantiated(response);
      return new Promise(() => {}); // not started: see the top of this file
    });
    const snapshot = {
      then(resolve) {
        events.push("snapshot awaited");
        resolve(new Uint8Array(16));
      },
    };
    const { loadPyodide } = await import(new URL("pyodide.mjs", PYODIDE).href);
    const { default: createPyodideModule } = await import(new URL("pyodide.asm.mjs", PYODIDE).href);
    // createPyodideModule: Node cannot import pyodide.asm.mjs from an http address (a worker imports it from indexURL).
    const options = withSnapshot({ indexURL, lockFileContents: Promise.resolve(lock), packages: [], createPyodideModule }, snapshot);
    assert.equal(options._loadSnapshot, snapshot);
    loadPyodide(options).catch((error) => events.push(`failed ${error}`));
    const response = await seen;
    assert.equal(response, handed.get(`${indexURL}pyodide.asm.wasm`), "Pyodide instantiates the WebAssembly's response it was handed");
    assert.deepEqual(events.toSorted(), [
      `fetch ${indexURL}pyodide.asm.wasm`,
      `fetch ${indexURL}python_stdlib.zip`,
      "instantiate",
      "snapshot awaited",
    ]);
    assert.ok(events.indexOf("snapshot awaited") < events.indexOf("instantiate"), events.join(", "));
  } finally {
    globalThis.fetch = realFetch;
    WebAssembly.instantiateStreaming = realInstantiate;
  }
});
