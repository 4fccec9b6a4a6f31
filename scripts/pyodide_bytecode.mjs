// Byte-compile the rules wheel, and the standard library modules it imports,
// with Pyodide's own Python (the vendored one, so the bytecode is exactly what
// the browser's interpreter would make).
//
//   node scripts/pyodide_bytecode.mjs <pyodide dir> <wheel> > bytecode.json
//
// Out: {"cache_tag": "cpython-314",
//       "files":  {"rules_py/__pycache__/dice.cpython-314.pyc": "<base64>", ...},
//       "stdlib": {"fractions.pyc": "<base64>", "tomllib/__init__.pyc": ..., ...}}
//
// "files" go into the wheel beside their modules. "stdlib" is every module of
// Pyodide's standard library that importing rules_py (and loading every
// calculator) adds to a freshly booted interpreter, as sourceless bytecode:
// the worker puts them first on sys.path, so the browser does not compile
// them from python_stdlib.zip's sources on every visit.
//
// All are "unchecked hash" .pyc files (PEP 552): used without comparing them
// with a source's modification time, which unpackArchive does not keep.
// scripts/build_wheel.py calls this and caches the answer.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const dir = resolve(process.argv[2]);
const { loadPyodide } = await import(pathToFileURL(`${dir}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${dir}/`, stdout: () => {}, stderr: (line) => process.stderr.write(line + "\n") });

const booted = pyodide.runPython("import sys\nsorted(sys.modules)").toJs();
const sitePackages = pyodide.runPython("next(p for p in sys.path if p.endswith('site-packages'))");
// The wheel comes as a file, not on stdin: a synchronous read of a piped stdin
// can fail with EAGAIN when the pipe is non-blocking.
pyodide.unpackArchive(new Uint8Array(readFileSync(resolve(process.argv[3]))), "wheel", { extractDir: sitePackages });
pyodide.globals.set("booted", pyodide.toPy(booted));
pyodide.globals.set("site_packages", sitePackages);

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

# The standard library modules that importing rules_py adds after boot. (A
# submodule of a package that the boot imported already, such as
# importlib.resources, is looked up in that package's __path__: the worker
# puts the zip's folder of that package first there too.)
before = set(sys.modules) | set(booted)
import rules_py
rules_py.calculators()
stdlib = {}
for name in sorted(set(sys.modules) - before):
    module = sys.modules[name]
    source_file = getattr(module, "__file__", None) or ""
    if name.startswith("rules_py") or not source_file.endswith(".py") or "site-packages" in source_file:
        continue
    source = module.__loader__.get_source(name).encode("utf-8")
    is_package = hasattr(module, "__path__")
    rel = name.replace(".", "/") + ("/__init__.pyc" if is_package else ".pyc")
    stdlib[rel] = pyc(source, source_file)

json.dumps({"cache_tag": sys.implementation.cache_tag, "files": files, "stdlib": stdlib})
`);
process.stdout.write(out);
