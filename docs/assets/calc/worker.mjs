// Fire Mission's calculator engine: rules_py on the site's own copy of Pyodide,
// in one module Web Worker per tab (started by calculator.mjs).
//
// Messages in:  {seq, request}   where request is what rules_py.call_json takes
// Messages out: {type: "ready", bootMs, phases: {pyodide, wheel, rules}} (ms)
//               {type: "failed", message}
//               {type: "answer", seq, answer (JSON text), ms}
//
// Everything is fetched from this site: Pyodide's run-time files and the rules
// wheel, both under assets/generated/ (see scripts/build_wheel.py). No micropip.

import { loadPyodide } from "../generated/pyodide/pyodide.mjs";

const GENERATED = new URL("../generated/", import.meta.url);
const STDLIB_ZIP = "/lib/fire-mission-stdlib.zip";
const started = performance.now();

async function fetchOk(url, options) {
  const response = await fetch(url, options);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response;
}

// Pyodide hangs, saying nothing, when the server sends the .wasm with another
// type; a HEAD request (in parallel with the boot) turns that into a message.
// It never rejects: anything else that goes wrong is the boot's to report.
async function wrongWasmType() {
  try {
    const response = await fetch(new URL("pyodide/pyodide.asm.wasm", GENERATED), { method: "HEAD", cache: "no-cache" });
    const type = (response.headers.get("content-type") || "").split(";")[0].trim();
    if (response.ok && type && type !== "application/wasm") {
      return `the server sends pyodide.asm.wasm as "${type}"; it must be "application/wasm" (fix the host's MIME types)`;
    }
  } catch {
    // the boot will say what failed
  }
  return null;
}

async function boot() {
  // The wheel downloads while Pyodide boots. runtime.json names it and gives
  // its hash, so a new build never meets a cached old wheel.
  const runtime = fetchOk(new URL("runtime.json", GENERATED), { cache: "no-cache" }).then((r) => r.json());
  const download = (name, hash) => runtime.then((rt) => fetchOk(new URL(`${rt[name]}?v=${rt[hash]}`, GENERATED))).then((r) => r.arrayBuffer());
  const wheel = download("wheel", "sha256");
  const stdlib = download("stdlib", "stdlib_sha256");
  wheel.catch(() => {}); // reported below, once Pyodide is up or has failed
  stdlib.catch(() => {});
  const phases = {};
  const pyodide = await loadPyodide({
    indexURL: new URL("pyodide/", GENERATED).href,
    packages: [],
    stdout: () => {},
    stderr: (line) => console.warn("rules_py:", line),
  });
  phases.pyodide = performance.now() - started;
  const sitePackages = pyodide.runPython(
    "import sys\nnext(p for p in sys.path if p.endswith('site-packages'))",
  );
  pyodide.unpackArchive(await wheel, "wheel", { extractDir: sitePackages });
  // Bytecode of the standard library modules rules_py imports (built by
  // scripts/build_wheel.py with this same Pyodide), found before the sources
  // in python_stdlib.zip, so they are not compiled on every visit.
  pyodide.FS.writeFile(STDLIB_ZIP, new Uint8Array(await stdlib));
  pyodide.runPython(`
import sys, zipfile
sys.path.insert(0, "${STDLIB_ZIP}")
for top in {n.split("/")[0] for n in zipfile.ZipFile("${STDLIB_ZIP}").namelist() if "/" in n}:
    package = sys.modules.get(top)
    if package is not None and isinstance(getattr(package, "__path__", None), list):
        package.__path__.insert(0, "${STDLIB_ZIP}/" + top)  # a package the boot imported already
`);
  phases.wheel = performance.now() - started - phases.pyodide;
  const rules = pyodide.pyimport("rules_py");
  rules.calculators(); // imports every procedure and loads its tables now, not on the first answer
  phases.rules = performance.now() - started - phases.pyodide - phases.wheel;
  return { call: rules.call_json, phases };
}

const engine = Promise.race([
  boot(),
  wrongWasmType().then((problem) => (problem ? Promise.reject(new Error(problem)) : new Promise(() => {}))),
]);

engine.then(
  ({ phases }) => postMessage({ type: "ready", bootMs: performance.now() - started, phases }),
  (error) => postMessage({ type: "failed", message: String((error && error.message) || error) }),
);

// Requests are answered one at a time, in the order they came.
let queue = Promise.resolve();
self.onmessage = (event) => {
  const { seq, request } = event.data;
  queue = queue.then(async () => {
    let call;
    try {
      ({ call } = await engine);
    } catch {
      return; // "failed" has been posted already
    }
    const t0 = performance.now();
    let answer;
    try {
      answer = call(JSON.stringify(request));
    } catch (error) {
      // call_json never raises on bad input; this is a bug in a procedure.
      answer = JSON.stringify({ error: `the engine failed: ${String(error.message || error).trim().split("\n").pop()}`, fields: [], internal: true });
    }
    postMessage({ type: "answer", seq, answer, ms: performance.now() - t0 });
  });
};
