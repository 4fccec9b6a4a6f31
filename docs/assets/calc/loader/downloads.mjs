// The engine's downloads: every file Python needs to start, fetched at once
// as the worker starts (startDownloads), each checked as it arrives (a
// failure is a fault: see files.mjs), counted for the progress shown
// (state.mjs), and handed to Pyodide when it asks (steerPyodide). The
// WebAssembly, the standard library and the wheel come xz-compressed (a third
// fewer bytes than a host's gzip) and are inflated here as they arrive, by
// xz-embedded compiled to WebAssembly (npm's xz-decompress).

import { GENERATED, GENERATED_HREF, INFLATED, LOCK, STDLIB, WASM, bytes, cutShort, damaged, missing, said } from "./files.mjs";
import { fastLink, probe } from "./link.mjs";
import { serveCompiled, steerFetches } from "./pyodide-internals.mjs";
import { count, unexpect } from "./state.mjs";

/** @typedef {import("./files.mjs").Inflated} Inflated */
/** @typedef {import("./files.mjs").Runtime} Runtime */
/** @typedef {import("./state.mjs").LoaderState} LoaderState */

// Imported by address, not statically: the downloads start while it arrives.
/** @type {Promise<typeof import("xz-decompress")>} */
const xzModule = import(GENERATED_HREF("xz-decompress.mjs"));
xzModule.catch(() => {}); // the boot reports it

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
export async function inflating(state, file, body, size) {
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
        state.fault(said(error).startsWith(file) ? /** @type {Error} the inflater's own, naming the file */ (error) : damaged(file, `it does not inflate: ${said(error)}`));
        await new Promise(() => {});
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

// Every download of one of the engine's files is counted from a clone of its
// response, taken at once (before anything reads or locks the body): the
// response itself goes on untouched, to the inflater and on to Pyodide,
// which compiles the WebAssembly as it streams in.
/** @type {typeof fetch} */
export const realFetch = self.fetch.bind(self);

/** A download of this worker's own (past the early map), counted if it is one of the engine's files. */
export async function countedFetch(/** @type {LoaderState} */ state, /** @type {RequestInfo | URL} */ input, /** @type {RequestInit | undefined} */ init = undefined) {
  const method = (init && init.method) || (input instanceof Request ? input.method : "GET");
  const response = await realFetch(input, init);
  if (response.ok && response.body && method === "GET" && state.runtime) count(state, response.clone());
  return response;
}

/** The response if it is ok; else an error that names the file and what the host answered. */
export async function fetchOk(/** @type {URL} */ url, /** @type {RequestInit | undefined} */ options, fetcher = realFetch) {
  const response = await fetcher(url, options);
  if (!response.ok) throw new Error(missing(/** @type {string} a split has a last part */ (url.pathname.split("/assets/generated/").pop()), response.status));
  return response;
}

// Pyodide's fetches of its WebAssembly and standard library go through here
// (pyodide-internals.mjs, steerFetches): what the boot started for it is
// handed over (the early map), the inflated files again if it asks again (a
// refused snapshot), the rest fetched and counted. Its instantiation of the
// WebAssembly is served from the module compiled as it arrived (compileEarly).
export function steerPyodide(/** @type {LoaderState} */ state) {
  steerFetches(
    (href) => {
      if (state.early.has(href)) {
        const started = /** @type {Promise<Response>} it has it */ (state.early.get(href));
        state.early.delete(href);
        return started;
      }
      if (href === GENERATED_HREF(WASM) && state.wasmFile === WASM) {
        return forPyodide(fetchOk(new URL(href), undefined).then(asWasm)); // asked again
      }
      if (INFLATED.has(href)) return forPyodide(inflated(state, /** @type {Inflated} */ (INFLATED.get(href)))); // asked again
      return null;
    },
    (input, init) => countedFetch(state, input, init),
  );
  serveCompiled((response) => {
    const module = state.compiling.get(response);
    if (!module) return null;
    state.compiling.delete(response);
    return module.catch(() => new Promise(() => {})); // the fault is the engine's failure
  });
}

/**
 * What Pyodide is handed for a download: the response, or, if the download
 * failed, a promise that never settles (the failure is the engine's, reported
 * once; Pyodide would report it again, unhandled, or as its own exit(1)).
 * @template T
 * @param {Promise<T>} download
 * @returns {Promise<T>}
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
    const rt = /** @type {Runtime} startEngine set state.runtime */ (await state.runtime);
    const stream = await inflating(state, `${file}.xz`, /** @type {ReadableStream<Uint8Array>} an ok download's */ (response.body), rt.sizes && rt.sizes[`${file}.xz`]);
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
export async function fromCache(url, fetcher) {
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
  const rt = /** @type {Runtime} startEngine set state.runtime */ (await state.runtime);
  const counted = (/** @type {RequestInfo | URL} */ input, /** @type {RequestInit | undefined} */ init) => countedFetch(state, input, init);
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
// two inflated) when it asks (the early map above), the lock file as
// loadPyodide's lockFileContents (state.lock). A failed one is a fault
// (missing from the host, say): Pyodide, refused a file, can hang saying nothing.
export function startDownloads(/** @type {LoaderState} */ state) {
  const stdlibHref = GENERATED_HREF(`${STDLIB}.xz`);
  const stdlibDownload = countedFetch(state, stdlibHref);
  stdlibDownload.catch(() => {}); // reported below
  state.linkProbe = probe(stdlibDownload, stdlibHref);
  const wasm = chooseWasm(state)
    .then((response) =>
      state.wasmFile === WASM ? asWasm(response) : inflated(state, /** @type {Inflated} */ (INFLATED.get(GENERATED_HREF(WASM))), Promise.resolve(response)),
    )
    .then((response) => compileEarly(state, response));
  // After the WebAssembly's inflater, if it has one: the decoder takes one file
  // at a time, and Pyodide compiles the WebAssembly as it is inflated.
  const stdlib = wasm.catch(() => {}).then(() => inflated(state, /** @type {Inflated} */ (INFLATED.get(GENERATED_HREF(STDLIB))), stdlibDownload));
  for (const [file, download] of [[WASM, wasm], [STDLIB, stdlib]]) {
    const response = /** @type {Promise<Response>} */ (download);
    response.catch((error) => state.fault(error));
    state.early.set(GENERATED_HREF(/** @type {string} */ (file)), forPyodide(response));
  }
  const lock = /** @type {Promise<Runtime>} startEngine set it */ (state.runtime).then((rt) => fetchLock(state, rt));
  lock.catch((error) => state.fault(error));
  state.lock = forPyodide(lock);
}

/**
 * Pyodide's lock file, checked: Pyodide parses it and would say only what the
 * JSON parser says of a damaged one, unhandled.
 * @param {LoaderState} state
 * @param {Runtime} rt
 * @returns {Promise<string>} its text
 */
async function fetchLock(state, rt) {
  const response = await fetchOk(new URL(LOCK, GENERATED), undefined, (url, init) => countedFetch(state, url, init));
  const body = new Uint8Array(await response.arrayBuffer());
  const size = rt.sizes && rt.sizes[LOCK];
  if (size && body.length < size) throw cutShort(LOCK, body.length, size);
  const text = new TextDecoder().decode(body);
  try {
    JSON.parse(text);
  } catch (error) {
    throw damaged(LOCK, `it is not JSON: ${said(error)}`);
  }
  return text;
}

// Pyodide compiles its WebAssembly only when it instantiates it, and a start
// from the snapshot instantiates it only once the snapshot is in and inflated
// (loadPyodide awaits it first): 50 to 100 ms of compiling (more on a phone),
// after 0.2 to 0.4 s of inflating, on the way to the first answer. So the
// WebAssembly is compiled as it arrives, beside the snapshot's download, and
// Pyodide's instantiation of the response it got from the early map is served
// from that compiled module (steerPyodide).
function compileEarly(/** @type {LoaderState} */ state, /** @type {Response} */ response) {
  const module = WebAssembly.compileStreaming(response).catch((error) => {
    // An inflater's fault names itself; a policy that refuses WebAssembly is the host's, not the file's.
    if (state.firstFault) throw state.firstFault;
    if (/Refused/.test(said(error))) throw new Error(`${WASM} may not be compiled on this site (${said(error)})`);
    throw damaged(/** @type {string} chosen before it is compiled */ (state.wasmFile), `it is not WebAssembly: ${said(error)}`);
  });
  module.catch((error) => state.fault(error));
  state.compiling.set(response, module);
  return response;
}
