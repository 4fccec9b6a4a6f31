// Take the memory snapshot the browser boots Pyodide from: the vendored
// Pyodide, booted by Node, with the standard library modules that the worker's
// start-up needs (unpacking the wheel, importing rules_py) already imported.
//
//   node scripts/pyodide_snapshot.mjs <pyodide dir> <out file> <module> ...
//
// Booting Python takes Pyodide about 5 s of WebAssembly here (most of a
// calculator page's wait); restoring this snapshot takes under 1 s. It holds
// no rules: rules_py still comes as the wheel, unpacked and imported after the
// restore, so the snapshot changes only with Pyodide or the module list.
// `_makeSnapshot` and `makeMemorySnapshot` are Pyodide's own (they are how
// Cloudflare's Python Workers start); scripts/build_wheel.py calls this and
// gzips the answer.

import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [dirArg, outArg, ...modules] = process.argv.slice(2);
const dir = resolve(dirArg);
const { loadPyodide } = await import(pathToFileURL(`${dir}/pyodide.mjs`).href);
const pyodide = await loadPyodide({
  indexURL: `${dir}/`,
  packages: [],
  stdout: () => {},
  stderr: (line) => process.stderr.write(line + "\n"),
  _makeSnapshot: true,
});
pyodide.globals.set("modules", pyodide.toPy(modules));
pyodide.runPython(`
def _warm(names):
    import importlib, os
    for name in names:
        importlib.import_module(name)
    # Emscripten names the program in $_: under Node, this script's path on the build machine.
    os.environ.pop("_", None)
_warm(modules)
del _warm, modules
`);
writeFileSync(resolve(outArg), pyodide.makeMemorySnapshot());
