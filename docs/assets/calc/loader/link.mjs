// Whether this start fetches the memory snapshot: never where the browser says
// the link is slow or the reader saves data (WANT_SNAPSHOT), and on a first
// visit only if the link is fast (fastLink), measured on the standard
// library's first bytes (probe).

import { GENERATED } from "./files.mjs";

/** @typedef {import("./files.mjs").Runtime} Runtime */
/** @typedef {import("./state.mjs").LoaderState} LoaderState */

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
  !(connection && (connection.saveData || /** @type {(string | undefined)[]} */ (["slow-2g", "2g", "3g"]).includes(connection.effectiveType))) &&
  typeof DecompressionStream === "function";
export const snapshotURL = (/** @type {Runtime} */ rt) => new URL(`${rt.snapshot}?v=${rt.snapshot_sha256}`, GENERATED);

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
 * The rate at which a download's first PROBE_BYTES arrive, in bytes a second
 * (0 if it fails).
 * @param {Promise<Response>} download
 * @returns {Promise<{rate: number}>}
 */
export function probe(download) {
  return download
    .then(async (response) => {
      if (!response.ok || !response.body) return { rate: 0 };
      // Timed from the response's arrival, so the round trip does not count; a
      // file that is all in at once (a fast link) counts whole, at 1 ms at least.
      const reader = /** @type {ReadableStream<Uint8Array>} a clone of a body, checked above */ (response.clone().body).getReader();
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

export function fastLink(/** @type {LoaderState} */ state, /** @type {Runtime} */ rt) {
  state.fast ??= /** @type {Promise<{rate: number}>} startDownloads set it */ (state.linkProbe).then(({ rate }) => (1000 * rt.sizes[rt.snapshot]) / rate < SNAPSHOT_PAYS_MS);
  return state.fast;
}
