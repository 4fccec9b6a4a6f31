// Byte-compile the rules wheel's modules with Pyodide's own Python (the
// vendored one, so the bytecode is exactly what the browser's interpreter would
// make), list the standard library modules that importing it adds
// (pyodide_snapshot.mjs imports them into the snapshot; unpacking the wheel is
// not counted: the worker does that in JavaScript), and byte-compile every
// standard library file a start reads.
//
//   node scripts/build/pyodide_bytecode.mjs <pyodide dir> <wheel> > bytecode.json
//
// Out: {"cache_tag": "cpython-314",
//       "files":  {"rules_py/__pycache__/dice.cpython-314.pyc": "<base64>", ...},
//       "stdlib_modules": ["_csv", "csv", "fractions", "tomllib", ...],
//       "stdlib_files": ["encodings/__init__.py", "json/decoder.py", ...],
//       "stdlib_bytecode": {"encodings/__init__.pyc": "<base64>", ...}}
//
// "files" go into the wheel beside their modules, as "unchecked hash" .pyc
// files (PEP 552): used without comparing them with a source's modification
// time, which unpackArchive does not keep. "stdlib_modules" is every module
// of Pyodide's standard library that importing rules_py (and loading every
// calculator) adds to a freshly booted interpreter that has the wheel's files: pyodide_snapshot.mjs
// imports them before it takes the memory snapshot the browser boots from.
// "stdlib_files" is every file of Pyodide's python_stdlib.zip that Python
// read by the end: the boot, the wheel, rules_py, then every calculator's
// odds and a roll for its defaults and each example, and a bad request. The
// browser gets a python_stdlib.zip cut to these (build_wheel.py), each module
// as its "stdlib_bytecode": an unchecked .pyc beside where its source was,
// which zipimport takes before a .py. Pyodide ships the standard library as
// source, so an ordinary start (no snapshot: a first visit on a slow link, a
// browser that saves data) compiled some 140 modules of it, 3 MB of Python,
// before the first answer: Pyodide's boot took 4.2 s under Node with the
// sources and 1.3 s with this bytecode. Each is compiled under the name its
// source had in the zip, so a traceback names the same file.
// scripts/build/build_wheel.py calls this and caches the answer.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const dir = resolve(process.argv[2]);
const { loadPyodide } = await import(pathToFileURL(`${dir}/pyodide.mjs`).href);
// A fixed hash seed: a set's constants are written into the bytecode in the
// order their hashes give, so a salted run made other bytes every time.
const pyodide = await loadPyodide({
  indexURL: `${dir}/`,
  env: { PYTHONHASHSEED: "0" },
  stdout: () => {},
  stderr: (line) => process.stderr.write(line + "\n"),
});

const sitePackages = pyodide.runPython("import sys\nnext(p for p in sys.path if p.endswith('site-packages'))");
// The wheel comes as a file, not on stdin: a synchronous read of a piped stdin
// can fail with EAGAIN when the pipe is non-blocking.
pyodide.unpackArchive(new Uint8Array(readFileSync(resolve(process.argv[3]))), "wheel", { extractDir: sitePackages });
// Counted from here: the worker writes the site's wheel (stored entries) from
// JavaScript (storedFiles in docs/assets/calc/loader/stored-zip.mjs), so what Python's
// zipfile imports to unpack this one (pip's, deflated) is no start's concern.
const booted = pyodide.runPython("sorted(sys.modules)").toJs();
pyodide.globals.set("booted", pyodide.toPy(booted));
pyodide.globals.set("site_packages", sitePackages);

// First, before anything else is imported: the standard library modules that
// unpacking the wheel and importing rules_py add to the booted interpreter.
const stdlibModules = pyodide.runPython(`
before = set(booted)
import rules_py
rules_py.calculators()
sorted(
    name
    for name in set(sys.modules) - before
    if not name.startswith("rules_py") and "site-packages" not in (getattr(sys.modules[name], "__file__", None) or "")
)
`).toJs();

const out = pyodide.runPython(`
import base64, importlib.util, json, os, posixpath, sys
from importlib._bootstrap_external import _code_to_hash_pyc

def pyc(source: bytes, filename: str) -> str:
    code = compile(source, filename, "exec", dont_inherit=True, optimize=0)
    return base64.b64encode(bytes(_code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False))).decode("ascii")

# The wheel's own modules, beside their sources.
files = {}
for folder, _, names in os.walk(posixpath.join(site_packages, "rules_py")):
    for name in names:
        if name.endswith(".py"):
            path = posixpath.join(folder, name)
            rel = posixpath.relpath(path, site_packages)
            with open(path, "rb") as f:
                source = f.read()
            target = posixpath.join(posixpath.dirname(rel), "__pycache__", name[:-3] + "." + sys.implementation.cache_tag + ".pyc")
            files[target] = pyc(source, rel)

json.dumps({"cache_tag": sys.implementation.cache_tag, "files": files})
`);
// Last, every request a page makes, so that whatever they import lazily is listed too.
const stdlibFiles = pyodide.runPython(`
import json, sys, rules_py
for calc in rules_py.calculators():
    for inputs in ({}, *calc.examples):
        for op in ("odds", "roll"):
            rules_py.call_json(json.dumps({"op": op, "id": calc.id, "inputs": inputs, "seed": 7, "describe": True}))
rules_py.call_json(json.dumps({"op": "odds", "id": calc.id, "inputs": {"no such field": "x"}}))
rules_py.call_json("not json")
rules_py.call_json(json.dumps({"op": "schema"}))
try:
    raise ValueError("a traceback, as Pyodide formats one for an uncaught error")
except ValueError:
    import traceback
    traceback.format_exc()
zips = [p for p in sys.path if p.endswith(".zip")]
used = set()
for module in list(sys.modules.values()):
    origin = getattr(getattr(module, "__spec__", None), "origin", None) or getattr(module, "__file__", None) or ""
    for z in zips:
        if origin.startswith(z + "/"):
            used.add(origin[len(z) + 1:])
sorted(used)
`).toJs();
pyodide.globals.set("stdlib_files", pyodide.toPy(stdlibFiles));
const stdlibBytecode = pyodide.runPython(`
import zipfile
stdlib_zip = next(p for p in sys.path if p.endswith(".zip"))
bytecode = {}
with zipfile.ZipFile(stdlib_zip) as z:
    for name in stdlib_files:
        if name.endswith(".py"):
            bytecode[name + "c"] = pyc(z.read(name), posixpath.join(stdlib_zip, name))
json.dumps(bytecode)
`);
process.stdout.write(JSON.stringify({ ...JSON.parse(out), stdlib_modules: stdlibModules, stdlib_files: stdlibFiles, stdlib_bytecode: JSON.parse(stdlibBytecode) }));
