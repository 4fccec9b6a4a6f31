// The engine's loader as modules (docs/assets/calc/loader.mjs and loader/):
// the worker imports each of loader/'s modules itself, so that they are all
// fetched at once with the loader (a module's own imports are found only once
// it has arrived); none is over 400 lines; and only pyodide-internals.mjs
// reaches into Pyodide past its documented API (each such reach named there).
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";

import ts from "typescript";

const CALC = new URL("../docs/assets/calc/", import.meta.url);
const MODULES = readdirSync(new URL("loader/", CALC))
  .filter((name) => name.endsWith(".mjs"))
  .map((name) => `loader/${name}`);
const source = (/** @type {string} */ name) => readFileSync(new URL(name, CALC), "utf8");

test("the worker imports every module of the loader's itself", () => {
  const imported = ts.preProcessFile(source("worker.mjs"), true, false).importedFiles.map(({ fileName }) => fileName);
  assert.deepEqual(imported.filter((name) => name.startsWith("./loader/")).sort(), MODULES.map((name) => `./${name}`).sort());
});

test("no module of the loader's is over 400 lines", () => {
  for (const name of ["loader.mjs", ...MODULES]) assert.ok(source(name).split("\n").length <= 400, name);
});

// What a reach into Pyodide looks like: its underscored options and members, the
// globals it is steered through (fetch, WebAssembly.instantiateStreaming).
const INTERNAL = /\._[a-zA-Z]|\b_(?:loadSnapshot|makeSnapshot|api|module)\b|\bself\.fetch\s*=|\bWebAssembly\.instantiateStreaming\b|makeMemorySnapshot/;

test("only pyodide-internals.mjs reaches into Pyodide", () => {
  for (const name of ["worker.mjs", "loader.mjs", ...MODULES]) {
    if (name === "loader/pyodide-internals.mjs") continue;
    const code = source(name)
      .split("\n")
      .filter((line) => !/^\s*(\/\/|\*|\/\*\*)/.test(line))
      .join("\n");
    assert.doesNotMatch(code, INTERNAL, name);
  }
  assert.match(source("loader/pyodide-internals.mjs"), INTERNAL);
});
