// The Pyodide half of scripts/bench_icepool.py (which runs it; see its docstring).
//
//   node scripts/bench_icepool.mjs PYODIDE_DIR ICEPOOL_WHEEL ENGINE_DIR BENCH_PY < config.json
//
// Boots the vendored Pyodide, unpacks icepool's wheel (checked by pip against
// its pinned hash) into site-packages, copies ENGINE_DIR/rules_py and the
// benchmark's Python file into Pyodide's file system, and prints the JSON
// that bench_icepool.pyodide_main returns for the configuration on stdin.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, wheelPath, engineDir, benchPy] = process.argv.slice(2).map((p) => resolve(p));
const config = readFileSync(0, "utf8");
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/`, stdout: (line) => process.stderr.write(line + "\n"), stderr: (line) => process.stderr.write(line + "\n") });

const sitePackages = pyodide.runPython("import sys\nnext(p for p in sys.path if p.endswith('site-packages'))");
pyodide.unpackArchive(new Uint8Array(readFileSync(wheelPath)), "wheel", { extractDir: sitePackages });

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
copyTree(join(engineDir, "rules_py"), "/bench/rules_py");
pyodide.FS.writeFile("/bench/bench_icepool.py", readFileSync(benchPy));

pyodide.globals.set("config", config);
let out;
try {
  out = pyodide.runPython(`
import sys
sys.path.insert(0, "/bench")
import bench_icepool
bench_icepool.pyodide_main(config)
`);
} catch (e) {
  process.stderr.write(String(e.message) + "\n"); // Python's traceback, not Node's minified line
  process.exit(1);
}
process.stdout.write(out);
