// Fire Mission offline: registers the site's service worker (sw.js at the
// site's root, built by scripts/build_sw.mjs with Workbox), has it keep the
// calculators' engine once a calculator has used it, and tells the player when
// a new version of the site is ready.
//
// Page contract (for tests and tools): <html data-offline="pages"> once the
// service worker has every page, the search index and the sheets' PDFs;
// data-offline="engine" once it has the engine too (every calculator then
// answers with the network cut); data-offline="update" while a new version
// waits for the player's reload.
//
// Only over HTTP(S): a page opened from a file has no service worker. A page
// whose calculator's engine is starting, or will start once the page is idle,
// registers only once the engine is up, so that the precache (every page and
// PDF, about 1 MB) does not share the link with the engine's download.

const ROOT = new URL("../", import.meta.url); // this file is assets/offline.mjs
const CHECK_EVERY_MS = 30 * 60 * 1000; // instant navigation loads no new page: look for a new version now and then

const canRegister = "serviceWorker" in navigator && (location.protocol === "https:" || location.protocol === "http:");

function mark(state) {
  const html = document.documentElement;
  if (html.dataset.offline === "update") return;
  if (state === "pages" && html.dataset.offline === "engine") return;
  html.dataset.offline = state;
}

// Starting, or about to: a calculator's own page starts its engine once the
// page is idle, which comes after the load event that registers the worker.
function engineBusy() {
  const engine = window.fireMissionEngine;
  return Boolean(engine) && (engine.state === "starting" || (engine.state === "idle" && engine.startsSoon));
}

function whenEngineIdle() {
  return new Promise((resolve) => {
    if (!engineBusy()) return resolve();
    const stop = window.fireMissionEngine.onChange(() => {
      if (!engineBusy()) {
        stop();
        resolve();
      }
    });
  });
}

// Once the page's engine has answered and fetched all it will (the snapshot
// for the next visit included), the service worker copies its files into its
// engine cache. On a first visit they come from the browser's HTTP cache.
let engineAsked = false;
let listening = false;
function keepEngine(registration) {
  const engine = window.fireMissionEngine;
  if (!engine || listening) return;
  listening = true;
  const ask = () => {
    if (engineAsked || engine.state !== "ready" || engine.snapshotPrefetched === undefined) return;
    engineAsked = true;
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => {
      if (event.data && event.data.cached) mark("engine");
      else engineAsked = false; // the next change tries again
    };
    registration.active.postMessage({ type: "cache-engine", files: engine.files || [] }, [channel.port2]);
  };
  engine.onChange(ask);
  ask();
}

function offerUpdate(registration) {
  const waiting = registration.waiting;
  if (!waiting || !navigator.serviceWorker.controller || document.querySelector(".fm-update")) return;
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
    navigator.serviceWorker.addEventListener("controllerchange", () => location.reload(), { once: true });
    waiting.postMessage({ type: "SKIP_WAITING" });
  });
  bar.append(text, " ", button);
  document.body.append(bar);
}

async function register() {
  await whenEngineIdle();
  const registration = await navigator.serviceWorker.register(new URL("sw.js", ROOT));
  registration.addEventListener("updatefound", () => {
    const installing = registration.installing;
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
