// Whether this start fetches the memory snapshot: never where the browser says
// the link is slow or the reader saves data (WANT_SNAPSHOT), and on a first
// visit only if the link is fast (fastLink), measured on the standard
// library's download (probe).

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
// fetched first, and the rate at which it crosses the link says how long the
// snapshot would take. The link is fast when that is under SNAPSHOT_PAYS_MS, which
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
//
// The rate is the link's, not this worker's. Timed by this worker's clock as
// it reads them, the bytes say how busy its thread is as much as how fast they
// came: held up (a busy phone; a loaded machine) while they arrive, it reads
// them late and calls a fast link slow, or it starts counting late, reads at
// once the bytes that came meanwhile, and calls a slow link fast (both seen
// in browser tests on a loaded machine: loopback called slow, a 16 Mbit/s
// link called fast; tests/test_browser_snapshot.py holds a worker up both
// ways). So (probe):
// - early: the first PROBE_BYTES over the time since the download was asked
//   for. The round trip, and any hold-up, only lower that rate: a link it
//   calls fast is fast (loopback or a fast Wi-Fi, on a worker not held up).
// - else, once the whole file is in: its bytes over the time from its first
//   byte to its last as the browser's network stack saw them (its Resource
//   Timing entry), which no hold-up of this worker moves. At the slowest fast
//   link the file takes 0.3 s, against 0.1 s for PROBE_BYTES; on a slow link,
//   the WebAssembly's .xz waits for it to be in, on a link it would have shared
//   (on a paced host at 9 Mbit/s and 60 ms, first visits, 6 runs each: the .xz
//   asked for 0.8 s later, the first answer in 7.99 s against 7.89 s, medians,
//   within one run's noise).
// - a browser that gives no entry for a worker's download: this worker's own
//   clock, from the response's arrival to the file's end.
const PROBE_BYTES = 256 << 10;
const SNAPSHOT_PAYS_MS = 2000;
// How long to wait for the standard library's Resource Timing entry once its
// last byte has been read: the browser adds it as the download ends.
const ENTRY_WAIT_MS = 1000;

/**
 * What probe says of the link, in bytes a second.
 * @typedef {object} LinkRate
 * @property {number} atLeast the early rate (0 if the download failed): the link's is no lower
 * @property {Promise<number>} rate the link's, once the whole file is in (0 if it failed)
 */

/** A failed download's: nothing crossed. */
const NOTHING = () => ({ atLeast: 0, rate: Promise.resolve(0) });

/**
 * The rate at which a download crosses the link (see above).
 * @param {Promise<Response>} download
 * @param {string} href its address, which names its Resource Timing entry
 * @returns {Promise<LinkRate>}
 */
export function probe(download, href) {
  const asked = performance.now();
  return download
    .then(async (response) => {
      if (!response.ok || !response.body) return NOTHING();
      // Read from a clone, which leaves the response to its reader (the inflater).
      const arrived = performance.now();
      const reader = /** @type {ReadableStream<Uint8Array>} a clone of a body, checked above */ (response.clone().body).getReader();
      let bytes = 0;
      let done = false;
      const read = async () => {
        const next = await reader.read();
        done = next.done;
        if (next.value) bytes += next.value.length;
      };
      while (!done && bytes < PROBE_BYTES) await read();
      const atLeast = bytes / (Math.max(performance.now() - asked, 1) / 1000);
      const rate = (async () => {
        while (!done) await read();
        const ended = performance.now();
        const entry = await timing(href);
        const ms = entry && entry.responseStart > 0 ? entry.responseEnd - entry.responseStart : ended - arrived;
        return bytes / (Math.max(ms, 1) / 1000); // a file all in at once counts at 1 ms at least
      })().catch(() => 0);
      return { atLeast, rate };
    })
    .catch(NOTHING);
}

/**
 * The download's Resource Timing entry, or null if the browser gives none within ENTRY_WAIT_MS.
 * @param {string} href
 * @returns {Promise<PerformanceResourceTiming | null>}
 */
function timing(href) {
  return new Promise((resolve) => {
    if (typeof PerformanceObserver !== "function") return resolve(null);
    const settle = (/** @type {PerformanceResourceTiming | null} */ entry) => {
      clearTimeout(timer);
      observer.disconnect();
      resolve(entry);
    };
    const observer = new PerformanceObserver((list) => {
      const [entry] = list.getEntriesByName(href, "resource");
      if (entry) settle(/** @type {PerformanceResourceTiming} a "resource" entry */ (entry));
    });
    const timer = setTimeout(() => settle(null), ENTRY_WAIT_MS);
    try {
      observer.observe({ type: "resource", buffered: true }); // the entry may be in already
    } catch {
      settle(null); // no Resource Timing here
    }
  });
}

export function fastLink(/** @type {LoaderState} */ state, /** @type {Runtime} */ rt) {
  state.fast ??= (async () => {
    const needed = (1000 * rt.sizes[rt.snapshot]) / SNAPSHOT_PAYS_MS; // bytes a second: the snapshot in SNAPSHOT_PAYS_MS
    const { atLeast, rate } = await /** @type {Promise<LinkRate>} startDownloads set it */ (state.linkProbe);
    return atLeast > needed || (await rate) > needed;
  })();
  return state.fast;
}
