// No module of the page's (docs/assets/, the engine's worker and loader
// included) is over 400 lines: one concern each (issue 32).
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";

const ASSETS = new URL("../docs/assets/", import.meta.url);
const LIMIT = 400;

test(`every page module is at most ${LIMIT} lines`, () => {
  const modules = readdirSync(ASSETS, { recursive: true })
    .map((path) => String(path).split("\\").join("/"))
    .filter((path) => path.endsWith(".mjs") && !path.startsWith("generated/"));
  assert.ok(modules.includes("calc/map-grid.mjs"), modules.join(", "));
  const long = modules
    .map((path) => [path, readFileSync(new URL(path, ASSETS), "utf8").split("\n").length])
    .filter(([, lines]) => lines > LIMIT);
  assert.deepEqual(long, []);
});
