// Build the site's service worker with Workbox (workbox-build, pinned in
// package.json): run by `make site` after the pages and the PDFs are built.
//
//   node scripts/build/build_sw.mjs [site]
//
// Writes site/sw.js (Workbox's generateSW: a precache of every page, the search
// index, the page glue and the manifest, each with its revision) and
// site/sw-engine-<id>.js (scripts/build/sw_engine.js, after the list of the engine's
// files and that of the optional files, the sheets' PDFs and the images, with
// theirs), which sw.js imports. See sw_engine.js for why the engine and the
// optional files are cached apart, and assets/offline.mjs for the page's side.

import { createHash } from "node:crypto";
import { readFileSync, readdirSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { generateSW } from "workbox-build";

const here = dirname(fileURLToPath(import.meta.url));
const site = resolve(process.argv[2] ?? resolve(here, "..", "..", "site"));
const runtime = JSON.parse(readFileSync(`${site}/assets/generated/runtime.json`, "utf8"));

const revision = (path) => createHash("sha256").update(readFileSync(`${site}/${path}`)).digest("hex").slice(0, 16);

// The engine: everything a calculator's worker fetches. The wheel and the
// snapshot are asked for with ?v=<sha256> (see assets/calc/loader/link.mjs and loader.mjs): the same address
// here, so the copy the page's first engine left in the HTTP cache is used.
// Some are fetched only by some starts: the snapshot, and the WebAssembly as
// it is or as .xz (loader/downloads.mjs, chooseWasm). Those are "optional": kept only
// once a worker has used them (sw_engine.js).
const OPTIONAL = new Set([runtime.snapshot, "pyodide/pyodide.asm.wasm", "pyodide/pyodide.asm.wasm.xz"]);
// The worker too, as the pages start it: with their build's id (calculator_hooks.py), so
// that the copy a first visit left in the HTTP cache is the one found.
const engineFiles = [
  { path: "assets/calc/worker.mjs", query: runtime.build ? `?build=${encodeURIComponent(runtime.build)}` : "" },
  { path: "assets/calc/loader.mjs" },
  ...readdirSync(`${site}/assets/calc/loader`)
    .filter((name) => name.endsWith(".mjs"))
    .sort()
    .map((name) => ({ path: `assets/calc/loader/${name}` })),
  { path: "assets/generated/runtime.json" },
  ...Object.keys(runtime.sizes).map((file) => ({
    path: `assets/generated/${file}`,
    query: file === runtime.wheel ? `?v=${runtime.sha256}` : file === runtime.snapshot ? `?v=${runtime.snapshot_sha256}` : "",
    optional: OPTIONAL.has(file) ? file : undefined,
  })),
];
// The WebAssembly is one of two files: an engine holds one of them (sw_engine.js).
const CHOICES = { "pyodide/pyodide.asm.wasm": "webassembly", "pyodide/pyodide.asm.wasm.xz": "webassembly" };
const files = engineFiles.map(({ path, query = "", optional }) => ({
  url: path + query,
  revision: revision(path),
  ...(optional ? { optional } : {}),
  ...(CHOICES[optional] ? { choice: CHOICES[optional] } : {}),
}));

// Optional files: no page needs them to open or to answer. Kept offline each
// on its own (sw_engine.js), so that one missing from a host leaves the rest of
// the offline copy whole; in Workbox's precache one missing file fails it all.
const OPTIONAL_FILES = /\.(pdf|png|svg|ico)$/;
const extras = readdirSync(site, { recursive: true })
  .map((path) => path.split("\\").join("/"))
  .filter((path) => OPTIONAL_FILES.test(path) && !path.startsWith("assets/generated/pyodide/") && statSync(`${site}/${path}`).isFile())
  .sort()
  .map((path) => ({ url: path, revision: revision(path) }));
const id = createHash("sha256").update(JSON.stringify([files, extras])).digest("hex").slice(0, 12);

for (const name of readdirSync(site)) if (/^sw-engine-.*\.js$|^sw\.js$/.test(name)) unlinkSync(`${site}/${name}`);
const engineScript = `sw-engine-${id}.js`;
writeFileSync(
  `${site}/${engineScript}`,
  `self.FM_ENGINE = ${JSON.stringify({ cache: `fire-mission-engine-${id}`, files })};\n` +
    `self.FM_EXTRAS = ${JSON.stringify({ cache: `fire-mission-extras-${id}`, files: extras })};\n` +
    readFileSync(`${here}/sw_engine.js`, "utf8"),
);

const { count, size, warnings } = await generateSW({
  globDirectory: site,
  globPatterns: ["**/*.{html,css,js,mjs,json,xml,webmanifest}"],
  globIgnores: [
    ...engineFiles.map((f) => f.path),
    "assets/generated/pyodide/**",
    "sw.js",
    "sw-engine-*.js",
    "**/*.map",
    // Search in other languages than English: never loaded by this site.
    "assets/javascripts/lunr/**",
  ],
  swDest: `${site}/sw.js`,
  importScripts: [engineScript],
  inlineWorkboxRuntime: true,
  mode: "production",
  sourcemap: false,
  cacheId: "fire-mission",
  // A new version waits until the player reloads (assets/offline.mjs offers it);
  // the first one takes the open page at once, so that it works offline already.
  skipWaiting: false,
  clientsClaim: true,
  cleanupOutdatedCaches: true,
  directoryIndex: "index.html",
  // calculators/<id>/?name=value is the same page as calculators/<id>/.
  ignoreURLParametersMatching: [/./],
  maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
});
for (const warning of warnings) console.warn(`build_sw: ${warning}`);
console.log(
  `service worker: ${count} files precached (${(size / 1024).toFixed(0)} KiB), ${extras.length} optional files, engine cache ${id} (${files.length} files, cached on first use)`,
);
