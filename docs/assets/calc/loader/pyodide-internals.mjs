// Every use the engine's loader makes of Pyodide beyond what Pyodide documents
// and exports, in this one module, checked against PYODIDE_CHECKED, the version
// package-lock.json pins: tests/pyodide_internals.test.mjs runs the vendored
// Pyodide under Node through these functions and fails when an upgrade changes
// one of them. Everything else the loader asks of Pyodide is its documented
// API: loadPyodide's indexURL, lockFileContents, packages, stdout and stderr;
// and pyodide.FS, unpackArchive, runPython, pyimport and toJs.
//
// 1. Which files Pyodide fetches, and how (steerFetches). As loadPyodide
//    starts, Pyodide 314.0.7 fetches `${indexURL}pyodide.asm.wasm` and
//    `${indexURL}python_stdlib.zip` (its default stdLibURL) with the global
//    fetch (its emscripten-settings.ts: getInstantiateWasmFunc, installStdlib);
//    no option hands it their bytes. The loader fetches both itself (as .xz
//    files, inflated as they arrive, or the WebAssembly as it is) and answers
//    Pyodide's own fetches of them.
// 2. How it instantiates its WebAssembly (serveCompiled): with
//    WebAssembly.instantiateStreaming, of the response its fetch got and with
//    imports of its own; it takes no compiled module. The loader compiles the
//    WebAssembly as it arrives and serves that call from the module.
// 3. The memory snapshot (withSnapshot): loadPyodide's `_loadSnapshot` option
//    (marked @ignore in pyodide.d.ts), which Pyodide awaits before it
//    instantiates the WebAssembly, restores a snapshot that the same Pyodide
//    made with `_makeSnapshot` and makeMemorySnapshot()
//    (scripts/build/pyodide_snapshot.mjs, at build time).

/** @typedef {import("pyodide").PyodideAPI} PyodideAPI */
/** @typedef {Parameters<typeof import("pyodide").loadPyodide>[0]} PyodideOptions */

export const PYODIDE_CHECKED = "314.0.7";

/**
 * Pyodide's fetches answered by the loader: from now on, every GET the
 * worker's global fetch is asked for goes to `answer` first, which gives the
 * response for an address it knows (the files of 1. above) or null; anything
 * else goes to `through`.
 * @param {(href: string) => Promise<Response> | null} answer
 * @param {typeof fetch} through
 */
export function steerFetches(answer, through) {
  self.fetch = async (input, init) => {
    const href = input instanceof Request ? input.url : new URL(input, self.location && self.location.href).href;
    const method = (init && init.method) || (input instanceof Request ? input.method : "GET");
    const answered = method === "GET" ? answer(href) : null;
    return answered || through(input, init);
  };
}

/**
 * Pyodide's instantiation of its WebAssembly served from a module compiled
 * already: `compiledFor` gives the module for a response the loader handed
 * Pyodide (see 2. above), or null, and any other response goes to the
 * browser's own WebAssembly.instantiateStreaming.
 * @param {(response: Response) => Promise<WebAssembly.Module> | null} compiledFor
 */
export function serveCompiled(compiledFor) {
  const instantiateStreaming = WebAssembly.instantiateStreaming.bind(WebAssembly);
  WebAssembly.instantiateStreaming = async (source, imports) => {
    const response = await source;
    const module = compiledFor(response);
    if (!module) return instantiateStreaming(response, imports);
    const compiled = await module;
    return { module: compiled, instance: await WebAssembly.instantiate(compiled, imports) };
  };
}

/**
 * loadPyodide's options, to start from a memory snapshot (see 3. above).
 * @param {PyodideOptions} options
 * @param {Promise<Uint8Array>} snapshot Pyodide's memory snapshot, as makeMemorySnapshot() made it
 * @returns {PyodideOptions}
 */
export function withSnapshot(options, snapshot) {
  return { ...options, _loadSnapshot: snapshot };
}
