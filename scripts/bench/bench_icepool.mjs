// The Pyodide half of scripts/bench/bench_icepool.py, bench_resolve.py and
// bench_missions.py (which run it; see their docstrings).
//
//   node scripts/bench/bench_icepool.mjs PYODIDE_DIR ICEPOOL_WHEEL|- ENGINE_DIR BENCH_PY < config.json
//
// Boots the vendored Pyodide, unpacks icepool's wheel (checked by pip against
// its pinned hash; "-" for none) into site-packages, copies ENGINE_DIR/rules_py
// there, and the benchmark's Python file with timing.py (what the benchmarks
// share) beside it as the package scripts.bench (so they import as installed
// packages do, and as they do in CPython, with nothing added to sys.path), and prints the
// JSON that the benchmark module's pyodide_main returns for the configuration on stdin.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideArg, wheelArg, engineDir, benchPy] = process.argv.slice(2);
const pyodideDir = resolve(pyodideArg);
const wheelPath = wheelArg === "-" ? null : resolve(wheelArg);
const config = readFileSync(0, "utf8");
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/`, stdout: (line) => process.stderr.write(line + "\n"), stderr: (line) => process.stderr.write(line + "\n") });

const sitePackages = pyodide.runPython("import sys\nnext(p for p in sys.path if p.endswith('site-packages'))");
if (wheelPath) pyodide.unpackArchive(new Uint8Array(readFileSync(wheelPath)), "wheel", { extractDir: sitePackages });

// The engine's sources and data, as they are on disk (no bytecode: Pyodide compiles its own).
function copyTree(from, to) {
  pyodide.FS.mkdirTree(to);
  for (const name of readdirSync(from)) {
    if (name === "__pycache__") continue;
    const path = join(from, name);
    if (statSync(path).isDirectory()) copyTree(path, `${to}/${name}`);
    else pyodide.FS.writeFile(`${to}/${name}`, readFileSync(path));
  }
}
copyTree(join(resolve(engineDir), "rules_py"), `${sitePackages}/rules_py`);
const module = basename(benchPy, ".py");
const benchDir = dirname(resolve(benchPy));
pyodide.FS.mkdirTree(`${sitePackages}/scripts/bench`);
pyodide.FS.writeFile(`${sitePackages}/scripts/__init__.py`, readFileSync(join(benchDir, "..", "__init__.py")));
for (const name of new Set(["__init__", "timing", module])) {
  pyodide.FS.writeFile(`${sitePackages}/scripts/bench/${name}.py`, readFileSync(join(benchDir, `${name}.py`)));
}

pyodide.globals.set("config", config);
let out;
try {
  out = pyodide.runPython(`
from scripts.bench import ${module}
${module}.pyodide_main(config)
`);
} catch (e) {
  process.stderr.write(String(e.message) + "\n"); // Python's traceback, not Node's minified line
  process.exit(1);
}
process.stdout.write(out);
