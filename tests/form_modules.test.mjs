// The modules that pages preload (docs/assets/calc/form-modules.json, read by
// scripts/hooks/calculator_hooks.py) against what view.mjs and calculator.mjs really import,
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

/** The modules a module imports by its import declarations (not its dynamic import() calls). */
function staticImports(module) {
  const source = ts.createSourceFile(module, readFileSync(new URL(module, CALC), "utf8"), ts.ScriptTarget.Latest);
  return source.statements.filter(ts.isImportDeclaration).map((s) => /** @type {import("typescript").StringLiteral} */ (s.moduleSpecifier).text.slice(2));
}

test("the preloaded modules are view.mjs and all it imports, with what calculator.mjs imports", () => {
  const listed = JSON.parse(readFileSync(new URL("form-modules.json", CALC), "utf8"));
  const wanted = new Set([...imported("view.mjs"), ...staticImports("calculator.mjs").flatMap(imported)]);
  assert.deepEqual([...listed].sort(), [...wanted].sort());
  assert.equal(listed[0], "view.mjs");
});
