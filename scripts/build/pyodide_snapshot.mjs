// Take the memory snapshot the browser boots Pyodide from: the vendored
// Pyodide, booted by Node, with the standard library modules that the worker's
// start-up needs (unpacking the wheel, importing rules_py) already imported.
//
//   node scripts/build/pyodide_snapshot.mjs <pyodide dir> <out file> <module> ...
//
// Booting Python takes Pyodide about 5 s of WebAssembly here (most of a
// calculator page's wait); restoring this snapshot takes under 1 s. It holds
// no rules: rules_py still comes as the wheel, unpacked and imported after the
// restore, so the snapshot changes only with Pyodide or the module list.
// `_makeSnapshot` and `makeMemorySnapshot` are Pyodide's own (they are how
// Cloudflare's Python Workers start); scripts/build/build_wheel.py calls this and
// gzips the answer.
//
// The same Pyodide and modules give the same bytes, on any machine, in any
// folder, at any time (a returning player keeps the 6 MB snapshot across
// builds that do not change it; guides/publishing.md). Left alone, two runs
// differ in 6.8 million bytes: Python's string hashes are salted at start-up
// (so every dict and set lays out differently), and what start-up reads from
// the machine lands in memory: entropy (Emscripten's getentropy, which under
// Node is node:crypto's randomFillSync: mimalloc's ChaCha state and the
// `random` module's Mersenne Twister are seeded from it) and the clock
// (Emscripten's clock_gettime reads Date.now and performance.now: file times
// in importlib's caches, the time zone). So the run below sees a fixed hash seed, a fixed
// entropy stream and a clock that starts at a fixed instant and moves one
// millisecond a reading, in UTC, and a fixed locale (Emscripten takes LANG from the
// machine's navigator.language, which Node 21 and later have).
//
// Why that is safe: the browser restores this memory and, from then on, reads
// its own entropy and clock (crypto.getRandomValues, Date.now); only values
// drawn before the snapshot are fixed, and every player got the same ones
// already (they all restore one build's snapshot), only not the same from one
// build to the next. The rolls draw from their own random.Random(seed)
// (rules_py/dice.py), and their seeds come from the page
// (crypto.getRandomValues in roll-log.mjs), never from Python's global
// `random`; the worker reseeds that all the same after the restore (loader),
// so that nothing later can draw a stream every player shares. The hash seed
// only orders dicts' insides: no answer depends on it (CPython's iteration
// order is insertion order), and a flood of colliding keys is no threat to
// a calculator that hashes its own inputs.

import nodeCrypto from "node:crypto";
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

// The entropy: SHA-256 of a counter, a fixed stream.
let drawn = 0;
let pool = Buffer.alloc(0);
function fixedFill(/** @type {ArrayBufferView} */ view, offset = 0, size = undefined) {
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  const end = size === undefined ? bytes.length : offset + size;
  for (let i = offset; i < end; i++) {
    if (pool.length === 0) pool = nodeCrypto.createHash("sha256").update(`fire-mission snapshot entropy ${drawn++}`).digest();
    bytes[i] = pool[0];
    pool = pool.subarray(1);
  }
  return view;
}
nodeCrypto.randomFillSync = /** @type {any} */ (fixedFill);
if (globalThis.crypto) globalThis.crypto.getRandomValues = /** @type {any} */ ((view) => fixedFill(view));

// The clock: 2000-01-01T00:00:00Z, one millisecond further at each reading
// (`new Date()` too: Emscripten's tzset asks it for the year), in UTC
// (tzset writes the machine's time zone and its names into memory).
process.env.TZ = "UTC";
const EPOCH_MS = 946684800000;
let ticks = 0;
const RealDate = Date;
globalThis.Date = /** @type {DateConstructor} */ (
  class extends RealDate {
    constructor(/** @type {any[]} */ ...args) {
      if (args.length) super(...args);
      else super(EPOCH_MS + ticks++);
    }
    static now() {
      return EPOCH_MS + ticks++;
    }
  }
);
performance.now = () => ticks++;

const [dirArg, outArg, ...modules] = process.argv.slice(2);
// Emscripten takes the program's name (Python's sys.executable and argv[0])
// from this script's path and its arguments from the command line: neither
// may reach the snapshot (another folder, another length, every allocation
// after it moved).
process.argv = [process.argv[0], "/pyodide_snapshot.mjs"];
const dir = resolve(dirArg);
const { loadPyodide } = await import(pathToFileURL(`${dir}/pyodide.mjs`).href);
const pyodide = await loadPyodide({
  indexURL: `${dir}/`,
  packages: [],
  // $_ would be this script's path (Emscripten names the program there): its
  // length alone would move every allocation after it in another folder.
  env: { PYTHONHASHSEED: "0", LANG: "C.UTF-8", _: undefined },
  stdout: () => {},
  stderr: (line) => process.stderr.write(line + "\n"),
  _makeSnapshot: true,
});
pyodide.globals.set("modules", pyodide.toPy(modules));
pyodide.runPython(`
def _warm(names):
    import importlib
    for name in names:
        importlib.import_module(name)
_warm(modules)
del _warm, modules
`);
writeFileSync(resolve(outArg), pyodide.makeMemorySnapshot());
