// The engine's files, by their names under assets/generated/ (written there by
// scripts/build/build_wheel.py), and what the loader says of one that fails: missing
// (the host's status), cut short (fewer bytes than runtime.json says the build
// made) or damaged (a wrong SHA-256, an .xz file that does not inflate,
// WebAssembly that does not compile). The messages name the file and what the
// reader can do, since a self-hosted copy is the usual cause.

/** @typedef {{file: string, type: string}} Inflated */
/**
 * runtime.json, written by scripts/build/build_wheel.py.
 * snapshot_inflated_sha256: the snapshot's hash once gzip is undone (a host's Content-Encoding);
 * file_sha256: the hash of each of the engine's files nothing else checks (checkBytes in loader/state.mjs; checkModules in loader.mjs).
 * @typedef {{build?: string, wheel: string, sha256: string, snapshot: string, snapshot_sha256: string, snapshot_inflated_sha256?: string, file_sha256?: Record<string, string>, sizes: Record<string, number>}} Runtime
 */

export const GENERATED = new URL("../../generated/", import.meta.url);
export const GENERATED_HREF = (/** @type {string} */ file) => new URL(file, GENERATED).href;
export const WASM = "pyodide/pyodide.asm.wasm";
export const STDLIB = "pyodide/python_stdlib.zip";
export const LOCK = "pyodide/pyodide-lock.json";
// The files every start fetches: the WebAssembly both ways until one is chosen;
// the snapshot is added when one is used.
export const ALWAYS = [WASM, `${WASM}.xz`, `${STDLIB}.xz`, LOCK];
// What Pyodide asks for by name, fetched as name.xz and inflated here, with the
// type Pyodide expects. The WebAssembly may come as it is instead (wasmFile).
/** @type {Map<string, Inflated>} */
export const INFLATED = new Map([
  [GENERATED_HREF(WASM), { file: WASM, type: "application/wasm" }],
  [GENERATED_HREF(STDLIB), { file: STDLIB, type: "application/zip" }],
]);

export function missing(/** @type {string} */ file, /** @type {number} */ status) {
  return status === 404 || status === 410
    ? `${file} is missing from the server (it answered ${status}): publish the whole of the built site/ folder`
    : `${file} answered ${status}`;
}

export const bytes = (/** @type {number} */ n) => n.toLocaleString("en-US");
export const AGAIN = "reload to fetch it again; if this site is self-hosted, publish the built site/ folder's files as they are";

export function cutShort(/** @type {string} */ file, /** @type {number} */ got, /** @type {number} */ size) {
  return new Error(`${file} arrived cut short (${bytes(got)} of its ${bytes(size)} bytes): ${AGAIN}`);
}

export function damaged(/** @type {string} */ file, /** @type {string} */ what) {
  return new Error(`${file} arrived damaged (${what}): ${AGAIN}`);
}

export const said = (/** @type {unknown} */ error) => String((error && /** @type {Error} */ (error).message) || error);
