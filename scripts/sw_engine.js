// Fire Mission's engine cache, part of the service worker (sw.js): written
// into sw-engine-<id>.js by scripts/build_sw.mjs after a line that sets
// self.FM_ENGINE = {cache: "fire-mission-engine-<id>", files: [{url, revision, optional}]}
// (optional: the file's name under assets/generated/, for a file only some
// starts of the engine fetch: the snapshot, the WebAssembly as it is or as .xz).
//
// Workbox precaches the pages, the search index, the sheets' PDFs and the
// page glue when the service worker installs. The engine (Pyodide, the rules
// wheel, the worker, the snapshot) is not precached: a reader never downloads
// it. It is cached when a calculator first uses it:
//  - a request for one of its files that the service worker sees (a page it
//    controls) is answered from the engine cache, or fetched and kept there;
//  - on a first visit the page is not controlled yet when its engine
//    downloads, so the page asks (message "cache-engine", from
//    assets/offline.mjs, once its engine has answered and has fetched all it
//    will) and the service worker copies the files in, from the browser's HTTP
//    cache where they are already (a revalidation, not a download).
// One cache per engine: its name holds a hash of every engine file, so a build
// that changes any of them gets a new one, filled at install from the old
// (files unchanged) and the network (files changed), but only with the files
// the old one held: an engine never used stays unused. The old one is deleted
// when the new service worker takes over, together with the old pages
// (Workbox's precache): pages and engine always come from the same build.

const ENGINE = self.FM_ENGINE;
const PREFIX = "fire-mission-engine-";
const scope = new URL(self.registration.scope);
const entries = new Map(); // pathname -> {url, key, optional}
for (const file of ENGINE.files) {
  const url = new URL(file.url, scope);
  const key = new URL(url.pathname, url);
  key.searchParams.set("__fm_revision", file.revision);
  entries.set(url.pathname, { url: url.href, key: key.href, optional: file.optional || null });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return; // the worker's HEAD check of the .wasm type goes to the host
  const url = new URL(request.url);
  const entry = url.origin === scope.origin && entries.get(url.pathname);
  if (!entry) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(ENGINE.cache);
      const hit = await cache.match(entry.key);
      if (hit) return hit;
      const response = await fetch(request);
      if (response.status === 200) event.waitUntil(cache.put(entry.key, response.clone()));
      return response;
    })(),
  );
});

async function oldEngines() {
  return (await caches.keys()).filter((name) => name.startsWith(PREFIX) && name !== ENGINE.cache);
}

async function put(cache, entry, options) {
  const response = await fetch(entry.url, options);
  if (response.status !== 200) throw new Error(`${entry.url} answered ${response.status}`);
  await cache.put(entry.key, response);
}

// Install: carry the engine over from the previous build if it had been used.
// A failure (the network cut mid-way) fails the install: the old build stays, whole.
self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const names = await oldEngines();
      if (!names.length) return;
      const cache = await caches.open(ENGINE.cache);
      const held = new Map(); // pathname -> response key in an old cache
      for (const name of names) {
        for (const request of await (await caches.open(name)).keys()) held.set(new URL(request.url).pathname, [name, request]);
      }
      for (const [path, entry] of entries) {
        if (!held.has(path) || (await cache.match(entry.key))) continue;
        const [name, request] = held.get(path);
        const same = request.url === entry.key ? await (await caches.open(name)).match(request) : null;
        if (same) await cache.put(entry.key, same);
        else await put(cache, entry, { cache: "no-cache" });
      }
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(oldEngines().then((names) => Promise.all(names.map((name) => caches.delete(name)))));
});

// From the page, once its engine has answered: {type: "cache-engine", files}
// (files: the engine's files its worker used, named under assets/generated/:
// an optional file is kept only if it is among them, so the WebAssembly the
// worker did not choose is never downloaded). Answers on the message's port
// with {cached: true} or {cached: false, error}.
self.addEventListener("message", (event) => {
  if (!event.data || event.data.type !== "cache-engine") return;
  const port = event.ports && event.ports[0];
  event.waitUntil(
    (async () => {
      const cache = await caches.open(ENGINE.cache);
      for (const entry of entries.values()) {
        if (entry.optional && !(event.data.files || []).includes(entry.optional)) continue;
        if (!(await cache.match(entry.key))) await put(cache, entry);
      }
    })().then(
      () => port && port.postMessage({ cached: true }),
      (error) => port && port.postMessage({ cached: false, error: String(error) }),
    ),
  );
});
