// One build on screen, never two (issue 35): the engine's worker refuses an
// engine from another build than its page's. A calculator's page carries the
// id of the build that made it (<meta name="fire-mission-build">, the commit,
// scripts/hooks/calculator_hooks.py), and starts its worker as worker.mjs?build=<id>;
// runtime.json and the rules wheel (rules_py/data/build.json) carry the id of
// theirs (scripts/build/build_wheel.py). A host mid-upload, a stale cache or CDN
// edge can serve an older runtime.json and wheel beside the new pages: the
// page's numbers, prerendered by one build, and the engine's, from another,
// would then mix on one page. The worker asks for runtime.json once more,
// past every cache (the id in its address, cache: "reload"); if that is still
// another build's, it fails before any answer, saying the site is mid-update.
// The snapshot and Pyodide's files carry no id: they are checked by their
// content (runtime.json's hashes and sizes), so an id never has them sent again.

/** The build the page was made by (worker.mjs?build=<id>), or null for a page that does not say. */
export function pageBuild(/** @type {string} */ workerHref) {
  return new URL(workerHref).searchParams.get("build");
}

/** What the page shows when the engine is another build's. */
export function midUpdate(/** @type {string | null | undefined} */ engineBuild, /** @type {string} */ page) {
  const short = (/** @type {string | null | undefined} */ id) => (id ? id.slice(0, 12) : "an older one that names none");
  return new Error(
    `the site is in the middle of an update: this page comes from build ${short(page)}, and the host's engine from build ${short(engineBuild)}. ` +
      "No answer is shown from an engine that is not this page's: reload the page in a minute",
  );
}

/**
 * runtime.json of the page's build: fetched by `get(url, init)` as the worker
 * always did, then, if it names another build, once more past the caches.
 * @template {{build?: string}} R
 * @param {(url: URL, init: RequestInit) => Promise<R>} get
 * @param {URL} url runtime.json's address
 * @param {string | null} page the page's build (null: nothing to check against)
 * @returns {Promise<R>}
 */
export async function runtimeOfBuild(get, url, page) {
  const rt = await get(url, { cache: "no-cache" });
  if (!page || rt.build === page) return rt;
  const again = new URL(url);
  again.searchParams.set("build", page);
  const fresh = await get(again, { cache: "reload" });
  if (fresh.build === page) return fresh;
  throw midUpdate(fresh.build, page);
}

/**
 * Checks the wheel's own record of its build (rules_py/data/build.json) against the page's.
 * @param {Array<[string, Uint8Array]> | null} files the wheel's files (null: a wheel read by Pyodide, not here)
 * @param {string | null} page
 */
export function checkWheelBuild(files, page) {
  if (!page || !files) return;
  const entry = files.find(([name]) => name === "rules_py/data/build.json");
  let build = null;
  try {
    build = entry ? JSON.parse(new TextDecoder().decode(entry[1])).build : null;
  } catch {
    // a record that does not read names no build
  }
  if (build !== page) throw midUpdate(build, page);
}
