// Fire Mission's own caches, part of the service worker (sw.js): the engine's
// and the site's optional files'. Written into sw-engine-<id>.js by
// scripts/build/build_sw.mjs after two lines that set
// self.FM_ENGINE = {cache: "fire-mission-engine-<id>", files: [{url, revision, optional, choice}]}
// (optional: the file's name under assets/generated/, for a file only some
// starts of the engine fetch: the snapshot, the WebAssembly as it is or as .xz;
// choice: a name shared by files of which an engine needs one, the WebAssembly's two)
// and self.FM_EXTRAS = {cache: "fire-mission-extras-<id>", files: [{url, revision}]}.
//
// Workbox precaches the pages, the search index and the page glue when the
// service worker installs: all of them or none (one missing, and the install
// fails; assets/offline.mjs says so). The sheets' PDFs and the images are
// optional: no page needs them to open or to answer, so they are fetched at
// install too, into their own cache, each on its own: one missing from the
// host is left out (and fetched from the host when asked for) and the offline
// copy is made without it.
//
// The engine (Pyodide, the rules wheel, the worker, the snapshot) is not
// precached: a reader never downloads it. It is kept as the worker fetches it:
//  - a request for one of its files that the service worker sees (a page it
//    controls) is answered from the engine cache, or fetched and kept there
//    (the copy is written by the service worker, which lives on when the tab
//    closes: a download that is under way when it does is kept whole); with
//    no network, from the browser's HTTP cache where it holds this build's
//    copy (a worker's download the service worker was not yet there to keep);
//  - on a first visit the page is not controlled yet when its engine
//    downloads: the files are in the browser's HTTP cache. The service
//    worker copies those it finds there when it installs (never downloading
//    any), so a tab closed right after its first answer, before the page has
//    said anything, still leaves an engine that answers offline; and the page
//    asks again (message "cache-engine", from assets/offline.mjs) once its
//    engine has answered, and once it has fetched all it will (the snapshot).
// One cache per engine: its name holds a hash of every engine file, so a build
// that changes any of them gets a new one, filled at install from the old
// (files unchanged) and the network (files changed), but only with the files
// the old one held: an engine never used stays unused. The old one is deleted
// when the new service worker takes over, together with the old pages
// (Workbox's precache): pages and engine always come from the same build.

const ENGINE = self.FM_ENGINE;
const EXTRAS = self.FM_EXTRAS;
const PREFIX = "fire-mission-engine-";
const EXTRAS_PREFIX = "fire-mission-extras-";
const scope = new URL(self.registration.scope);

// pathname -> {url, key, optional}: the key holds the file's revision, so a
// new build's file is never taken for the old one.
function entriesOf(files) {
  const out = new Map();
  for (const file of files) {
    const url = new URL(file.url, scope);
    const key = new URL(url.pathname, url);
    key.searchParams.set("__fm_revision", file.revision);
    out.set(url.pathname, { url: url.href, key: key.href, optional: file.optional || null, choice: file.choice || null });
  }
  return out;
}
const entries = entriesOf(ENGINE.files);
const extras = entriesOf(EXTRAS.files);

// A file of the engine or an optional one: from its cache, else from the host
// (kept, if it answers 200).
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return; // the worker's HEAD check of the .wasm type goes to the host
  const url = new URL(request.url);
  if (url.origin !== scope.origin) return;
  const [entry, name] = entries.has(url.pathname) ? [entries.get(url.pathname), ENGINE.cache] : [extras.get(url.pathname), EXTRAS.cache];
  if (!entry) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(name);
      const hit = await cache.match(entry.key);
      // A copy kept for another address of the same file (the worker's ?build=
      // of an older build whose worker.mjs had the same bytes) is given as a
      // new response: a kept response keeps the address it was fetched from,
      // and a worker takes its location, so its page's build, from it.
      if (hit) return hit.url === request.url ? hit : new Response(hit.body, { status: hit.status, statusText: hit.statusText, headers: hit.headers });
      let response;
      try {
        response = await fetch(request);
      } catch (error) {
        // No network: the copy the browser holds of this build's file, if any
        // (a worker fetched it before this service worker could keep it: a
        // tab closed before its page asked, heldCopy), kept from now on.
        const copy = await heldCopy(entry, request.url);
        if (!copy) throw error;
        response = copy;
      }
      if (response.status === 200) event.waitUntil(cache.put(entry.key, response.clone()));
      return response;
    })(),
  );
});

async function older(prefix, current) {
  return (await caches.keys()).filter((name) => name.startsWith(prefix) && name !== current);
}

async function put(cache, entry, options) {
  const response = await fetch(entry.url, options);
  if (response.status !== 200) throw new Error(`${entry.url} answered ${response.status}`);
  await cache.put(entry.key, response);
}

// The file if the browser holds it already (its HTTP cache) and its bytes are
// this build's (the revision is the start of their SHA-256, build_sw.mjs): a
// copy the HTTP cache kept from an older build is not taken for this one's.
// Read without asking the network: the response, or null. `url`: the address
// it was fetched from, if not the file's own (the worker's ?build=).
async function heldCopy(entry, url = entry.url) {
  const revision = new URL(entry.key).searchParams.get("__fm_revision");
  let response;
  try {
    response = await fetch(url, { cache: "only-if-cached", mode: "same-origin" });
  } catch {
    return null; // not held
  }
  if (response.status !== 200) return null;
  const bytes = await response.clone().arrayBuffer();
  const digest = [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
  return digest.startsWith(revision) ? response : null;
}

// Responses of older caches with these prefixes, by pathname: [cache name, request].
async function heldBefore(prefix, current) {
  const held = new Map();
  for (const name of await older(prefix, current)) {
    for (const request of await (await caches.open(name)).keys()) held.set(new URL(request.url).pathname, [name, request]);
  }
  return held;
}

// The optional files, each on its own: from the previous build's cache when
// unchanged, else from the host; one that cannot be fetched is left out.
async function fillExtras() {
  const cache = await caches.open(EXTRAS.cache);
  const held = await heldBefore(EXTRAS_PREFIX, EXTRAS.cache);
  const missing = [];
  for (const [path, entry] of extras) {
    if (await cache.match(entry.key)) continue;
    const [name, request] = held.get(path) || [];
    const same = request && request.url === entry.key ? await (await caches.open(name)).match(request) : null;
    try {
      if (same) await cache.put(entry.key, same);
      else await put(cache, entry, { cache: "no-cache" });
    } catch (error) {
      missing.push(path);
      console.warn(`Fire Mission: kept offline without ${path} (${error.message})`);
    }
  }
  return missing;
}

// Install: the optional files; then carry the engine over from the previous
// build if it had been used, and keep what of it the browser holds already.
// A failure to carry the engine over (the network cut mid-way) fails the
// install: the old build stays, whole.
self.addEventListener("install", (event) => {
  // The pages are told that this service worker runs: if it then fails, its
  // install failed (assets/offline.mjs says so), rather than the browser
  // refusing service workers.
  self.clients.matchAll({ includeUncontrolled: true, type: "window" }).then((clients) => {
    for (const client of clients) client.postMessage({ type: "fm-installing" });
  });
  event.waitUntil(
    (async () => {
      await fillExtras();
      // Opened (so made) only for a file to keep: a reader who never used a calculator gets no engine cache.
      let cache = null;
      const into = async () => (cache ??= await caches.open(ENGINE.cache));
      const held = await heldBefore(PREFIX, ENGINE.cache);
      for (const [path, entry] of entries) {
        if (await caches.match(entry.key, { cacheName: ENGINE.cache })) continue;
        const [name, request] = held.get(path) || [];
        if (!request) {
          const copy = await heldCopy(entry); // fetched by a worker before this service worker came, if at all
          if (copy) await (await into()).put(entry.key, copy);
          continue;
        }
        const same = request.url === entry.key ? await (await caches.open(name)).match(request) : null;
        if (same) await (await into()).put(entry.key, same);
        else await put(await into(), entry, { cache: "no-cache" });
      }
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    Promise.all([older(PREFIX, ENGINE.cache), older(EXTRAS_PREFIX, EXTRAS.cache)]).then((lists) => Promise.all(lists.flat().map((name) => caches.delete(name)))),
  );
});

// Whether the engine cache holds an engine that starts: every file that is not
// optional, and one file of each choice.
async function complete(cache) {
  const chosen = new Map(); // choice -> held one of its files
  for (const entry of entries.values()) {
    const held = Boolean(await cache.match(entry.key));
    if (!entry.optional && !held) return false;
    if (entry.choice) chosen.set(entry.choice, chosen.get(entry.choice) || held);
  }
  return [...chosen.values()].every(Boolean);
}

// From the page, once its engine has answered: {type: "cache-engine", files}
// (files: the engine's files its worker used, named under assets/generated/,
// as far as the page knows yet). Each file is taken from the browser's HTTP
// cache where it holds this build's copy, else fetched; an optional file is
// fetched only if it is among `files` (the worker used it), so a WebAssembly
// no worker fetched (the .xz where the first start took the file as it is)
// is never downloaded. Answers on the message's port
// with {cached: true} once the cache holds an engine that starts, or
// {cached: false, error}.
self.addEventListener("message", (event) => {
  if (!event.data || event.data.type !== "cache-engine") return;
  const port = event.ports && event.ports[0];
  event.waitUntil(
    (async () => {
      const cache = await caches.open(ENGINE.cache);
      for (const entry of entries.values()) {
        if (await cache.match(entry.key)) continue;
        // What the worker fetched is in the browser's HTTP cache: copied from
        // there, with no network, so that a tab closed and a network cut the
        // moment the engine answers still leave it whole (the host revalidates
        // every request, and it may be gone by the time a fetch would reach it).
        const copy = await heldCopy(entry);
        if (copy) await cache.put(entry.key, copy);
        else if (!entry.optional || (event.data.files || []).includes(entry.optional)) await put(cache, entry);
      }
      if (!(await complete(cache))) throw new Error("the engine's files are not all known yet");
    })().then(
      () => port && port.postMessage({ cached: true }),
      (error) => port && port.postMessage({ cached: false, error: String(error) }),
    ),
  );
});
