// Byte-compile Python sources with Pyodide's own Python, for the rules wheel.
//
//   node scripts/pyodide_bytecode.mjs <pyodide dir> < sources.json > bytecode.json
//
// In:  {"rules_py/dice.py": "<source>", ...}
// Out: {"cache_tag": "cpython-314", "magic": "<hex>", "files": {"rules_py/__pycache__/dice.cpython-314.pyc": "<base64>"}}
//
// The .pyc files are "unchecked hash" ones (PEP 552): the interpreter uses them
// without comparing them with the source's modification time, which
// unpackArchive does not keep. scripts/build_wheel.py calls this.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const dir = resolve(process.argv[2]);
const { loadPyodide } = await import(pathToFileURL(`${dir}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${dir}/`, stdout: () => {}, stderr: (line) => process.stderr.write(line + "\n") });
pyodide.globals.set("sources_json", readFileSync(0, "utf8"));
const out = pyodide.runPython(`
import base64, importlib.util, json, posixpath, sys
from importlib._bootstrap_external import _code_to_hash_pyc

files = {}
for path, source in json.loads(sources_json).items():
    data = source.encode("utf-8")
    code = compile(data, path, "exec", dont_inherit=True, optimize=0)
    pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
    folder, name = posixpath.split(path)
    target = posixpath.join(folder, "__pycache__", name[:-3] + "." + sys.implementation.cache_tag + ".pyc")
    files[target] = base64.b64encode(bytes(pyc)).decode("ascii")
json.dumps({"cache_tag": sys.implementation.cache_tag, "magic": importlib.util.MAGIC_NUMBER.hex(), "files": files})
`);
process.stdout.write(out);
