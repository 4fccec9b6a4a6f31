// The form's modules that pages preload (docs/assets/calc/form-modules.json,
// read by scripts/calculator_hooks.py) against what view.mjs really imports,
// module by module, as TypeScript's own parser reads the imports (no regex).
// Run with `node --test tests/` (make check-js).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import ts from "typescript";

const CALC = new URL("../docs/assets/calc/", import.meta.url);

/** The module and every module it imports statically, in the order first met. */
function imported(module) {
  const found = [];
  const todo = [module];
  while (todo.length) {
    const name = todo.shift();
    if (found.includes(name)) continue;
    found.push(name);
    const { importedFiles } = ts.preProcessFile(readFileSync(new URL(name, CALC), "utf8"), true, false);
    for (const { fileName } of importedFiles) {
      assert.ok(fileName.startsWith("./"), `${name} imports ${fileName}, which is not beside it`);
      todo.push(fileName.slice(2));
    }
  }
  return found;
}

test("the preloaded form modules are view.mjs and all it imports", () => {
  const listed = JSON.parse(readFileSync(new URL("form-modules.json", CALC), "utf8"));
  assert.deepEqual([...listed].sort(), imported("view.mjs").sort());
  assert.equal(listed[0], "view.mjs");
});
