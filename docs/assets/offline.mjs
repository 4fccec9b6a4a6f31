// Fire Mission offline: registers the site's service worker (sw.js at the
// site's root, built by scripts/build/build_sw.mjs with Workbox), has it keep the
// calculators' engine once a calculator has used it, and tells the player when
// a new version of the site is ready.
//
// Page contract (for tests and tools): <html data-offline="pages"> once the
// service worker has every page and the search index, and the sheets' PDFs
// and images the host has (one missing is left out, scripts/build/sw_engine.js);
// data-offline="engine" once it has the engine too (every calculator then
// answers with the network cut); data-offline="update" while a new version
// waits for the player's reload; data-offline="failed" when no offline copy
// can be made (a file of the site's precache did not download, or the service
// worker's script did not load), which a bar then says.
//
// Only over HTTP(S): a page opened from a file has no service worker. A page
// whose calculator's engine is downloading, or will start once the page is
// idle, registers only once the engine's files are in, so that the precache
// (every page and PDF, about 1 MB) does not share the link with the engine's
// download; it then installs while Python starts, which takes the CPU and not
// the link. Registered only once the engine had answered, it was still
// installing when a player closed the tab half a second after the first
// answer and lost the network: the next page did not open, nor any engine answer.

const ROOT = new URL("../", import.meta.url); // this file is assets/offline.mjs
const CHECK_EVERY_MS = 30 * 60 * 1000; // instant navigation loads no new page: look for a new version now and then

const canRegister = "serviceWorker" in navigator && (location.protocol === "https:" || location.protocol === "http:");

/** @param {string} state */
function mark(state) {
  const html = document.documentElement;
  if (html.dataset.offline === "update" || html.dataset.offline === "failed") return;
  if (state === "pages" && html.dataset.offline === "engine") return;
  html.dataset.offline = state;
}

// Downloading, or about to: a calculator's own page starts its engine once the
// page is idle, which comes after the load event that registers the worker.
// Once the engine's files are in (its progress says Python is starting, or
// the rules are loading), the link is free.
function engineBusy() {
  const engine = window.fireMissionEngine;
  if (!engine) return false;
  if (engine.state === "starting") return !engine.progress || engine.progress.phase === "download";
  return engine.state === "idle" && engine.startsSoon;
}

function whenEngineIdle() {
  return /** @type {Promise<void>} */ (new Promise((resolve) => {
    if (!engineBusy()) return resolve();
    const stop = /** @type {import("./calc/engine.mjs").Engine} busy: there is one */ (window.fireMissionEngine).onChange(() => {
      if (!engineBusy()) {
        stop();
        resolve();
      }
    });
  }));
}

// The service worker copies the engine's files into its engine cache twice:
// as soon as the page's engine is up (what it needed to start), and once
// it has fetched all it will (the snapshot for the next visit included). On a
// first visit they come from the browser's HTTP cache. A tab closed before
// either still leaves the engine: the service worker keeps what the browser
// holds when it installs (scripts/build/sw_engine.js).
/** @type {string | null} */
let engineAsked = null; // what was asked for: "ready", then "prefetched"
let listening = false;
/** @param {ServiceWorkerRegistration} registration */
function keepEngine(registration) {
  const engine = window.fireMissionEngine;
  if (!engine || listening) return;
  listening = true;
  const ask = () => {
    if (engine.state !== "ready" || !registration.active) return;
    const stage = engine.snapshotPrefetched === undefined ? "ready" : "prefetched";
    if (engineAsked === stage || engineAsked === "prefetched") return;
    engineAsked = stage;
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => {
      if (event.data && event.data.cached) mark("engine");
      else if (stage === "prefetched") engineAsked = "ready"; // not all there yet: the next change tries again
    };
    registration.active.postMessage({ type: "cache-engine", files: engine.files || [] }, [channel.port2]);
  };
  engine.onChange(ask);
  ask();
}

// No offline copy can be made: say so, once, in a bar the player can dismiss.
/** @param {string} reason */
function noOfflineCopy(reason) {
  console.warn(`Fire Mission: no offline copy (${reason})`);
  if (navigator.serviceWorker.controller || document.querySelector(".fm-offline-failed")) return; // an earlier copy still serves
  document.documentElement.dataset.offline = "failed";
  const bar = document.createElement("div");
  bar.className = "fm-update fm-offline-failed";
  bar.setAttribute("role", "status");
  const text = document.createElement("span");
  text.textContent = "Fire Mission cannot be kept for offline use here: a file of the site did not download. The pages work while you are online.";
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = "Dismiss";
  button.addEventListener("click", () => bar.remove());
  bar.append(text, " ", button);
  document.body.append(bar);
}

// An installing service worker that said it runs (scripts/build/sw_engine.js) and
// then goes redundant failed its install: its precache could not be made. One
// that never said so was not run: the browser keeps no service workers here
// (a setting, a private window), which is not the site's fault to report.
let installRan = false;
/** @param {ServiceWorker | null} worker */
function watchInstall(worker) {
  worker?.addEventListener("statechange", () => {
    if (worker.state !== "redundant") return;
    if (installRan) noOfflineCopy("the service worker could not fetch every file it keeps");
    else console.warn("Fire Mission: no offline copy (the browser did not run the service worker)");
  });
}

// Until `worker` (an installing service worker, or none) is installed or has failed.
/** @param {ServiceWorker | null} worker */
function installed(worker) {
  return /** @type {Promise<void>} */ (new Promise((resolve) => {
    if (!worker || worker.state !== "installing") return resolve();
    worker.addEventListener("statechange", () => worker.state !== "installing" && resolve());
  }));
}

// The player took the new version. The one waiting may be older than the
// host's newest (installed on an earlier visit, or before another build was
// published): the host is asked first, and the newest build installed is the
// one that takes over, so that the reload shows what the host has now.
/** @param {ServiceWorkerRegistration} registration */
async function takeUpdate(registration) {
  try {
    await registration.update();
  } catch {
    // offline, or the host is away: the version waiting is the newest there is
  }
  await installed(registration.installing);
  const waiting = registration.waiting;
  if (!waiting) return location.reload(); // the newest took over meanwhile
  navigator.serviceWorker.addEventListener("controllerchange", () => location.reload(), { once: true });
  waiting.postMessage({ type: "SKIP_WAITING" });
}

/** @param {ServiceWorkerRegistration} registration */
function offerUpdate(registration) {
  const waiting = registration.waiting;
  if (!waiting || !navigator.serviceWorker.controller || document.querySelector(".fm-update:not(.fm-offline-failed)")) return;
  document.documentElement.dataset.offline = "update";
  const bar = document.createElement("div");
  bar.className = "fm-update";
  bar.setAttribute("role", "status");
  const text = document.createElement("span");
  text.textContent = "A new version of Fire Mission is ready.";
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = "Reload";
  button.addEventListener("click", () => {
    button.disabled = true;
    takeUpdate(registration);
  });
  bar.append(text, " ", button);
  document.body.append(bar);
}

async function register() {
  await whenEngineIdle();
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data && event.data.type === "fm-installing") installRan = true;
  });
  let registration;
  try {
    registration = await navigator.serviceWorker.register(new URL("sw.js", ROOT));
  } catch (error) {
    // A TypeError: the host did not give the service worker's script (a 404, a cut network).
    if (error instanceof TypeError) noOfflineCopy(error.message);
    else console.warn(`Fire Mission: no offline copy (${/** @type {Error} */ (error).message})`);
    return;
  }
  if (!registration) return; // a browser under automation that blocks service workers
  watchInstall(registration.installing);
  registration.addEventListener("updatefound", () => {
    const installing = registration.installing;
    watchInstall(installing);
    installing?.addEventListener("statechange", () => {
      if (installing.state === "installed") offerUpdate(registration);
    });
  });
  offerUpdate(registration);
  await navigator.serviceWorker.ready;
  mark("pages");
  keepEngine(registration);
  let checked = Date.now();
  window.document$?.subscribe?.(() => {
    if (Date.now() - checked > CHECK_EVERY_MS) {
      checked = Date.now();
      registration.update().catch(() => {});
    }
  });
}

if (canRegister) {
  const start = () => register().catch((error) => console.warn(`Fire Mission: no offline copy (${error.message})`));
  if (document.readyState === "complete") start();
  else window.addEventListener("load", start, { once: true });
}
