// Run by tests/test_wheel.py (test_pyodide_imports_the_wheel_from_its_own_bytecode):
//   node tests/node/pyodide_imports_the_wheel.mjs <pyodide dir> <wheel>
// Boots the site's vendored Pyodide, unpacks the wheel into site-packages as
// the engine's loader does, then overwrites every rules_py source with a syntax
// error before importing it; prints what Python says of its bytecode, as JSON,
// with where each standard library module it imported from the site's cut
// python_stdlib.zip came from (bytecode or source, by the file's suffix).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
const [dir, wheelPath] = process.argv.slice(2).map((p) => resolve(p));
const { loadPyodide } = await import(pathToFileURL(`${dir}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${dir}/`, stdout: () => {}, stderr: (line) => process.stderr.write(line + "\n") });
const sitePackages = pyodide.runPython("import sys\nnext(p for p in sys.path if p.endswith('site-packages'))");
pyodide.unpackArchive(new Uint8Array(readFileSync(wheelPath)), "wheel", { extractDir: sitePackages });
pyodide.globals.set("site_packages", sitePackages);
let out;
try {
  out = pyodide.runPython(`
import importlib.util, json, os, posixpath, sys
broken = 0
for folder, _, names in os.walk(posixpath.join(site_packages, "rules_py")):
    for name in names:
        if name.endswith(".py"):
            with open(posixpath.join(folder, name), "w") as f:
                f.write("this is not Python (\\n")
            broken += 1
import rules_py
json.dumps({
    "magic": importlib.util.MAGIC_NUMBER.hex(),
    "cache_tag": sys.implementation.cache_tag,
    "version": list(sys.version_info[:2]),
    "broken_sources": broken,
    "success": rules_py.odds("chq-comms-check", {"nation": "soviet"})["outcomes"]["success"],
    "stdlib_from": sorted(
        posixpath.splitext(origin)[1]
        for origin in (getattr(getattr(module, "__spec__", None), "origin", None) or "" for module in list(sys.modules.values()))
        if origin.startswith(next(p for p in sys.path if p.endswith(".zip")) + "/")
    ),
})
`);
} catch (e) {
  // Python's traceback only: Node would print the minified line that threw.
  process.stderr.write(String(e.message) + "\n");
  process.exit(1);
}
process.stdout.write(out);
