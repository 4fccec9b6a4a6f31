// The page's map-grid parser (docs/assets/calc/grid.mjs) against the cases it
// shares with rules_py/grid.py (tests/map_grid_cases.json; tests/test_grid.py
// runs them in Python). Run with `node --test tests/` (make check-js).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { GridError, gridSpec, parseMap, serialiseMap } from "../docs/assets/calc/grid.mjs";

const CASES = JSON.parse(readFileSync(new URL("./map_grid_cases.json", import.meta.url), "utf8"));

for (const [i, c] of CASES.cases.entries()) {
  test(`case ${i} (${c.grid}): ${JSON.stringify(c.text).slice(0, 40)} - ${c.why}`, () => {
    const spec = gridSpec(CASES.grids[c.grid], CASES.text_limits[c.grid]);
    if (c.error) {
      assert.throws(
        () => parseMap(spec, c.text),
        (error) => {
          assert.ok(error instanceof GridError, `not a GridError: ${error}`);
          assert.deepEqual(JSON.parse(JSON.stringify(error)), c.error);
          return true;
        },
      );
    } else {
      assert.deepEqual(parseMap(spec, c.text), c.parsed);
    }
  });
}

test("a parsed map written back reads the same, in the grid's canonical order", () => {
  for (const c of CASES.cases.filter((x) => x.parsed)) {
    const spec = gridSpec(CASES.grids[c.grid], CASES.text_limits[c.grid]);
    const text = serialiseMap(spec, c.parsed);
    const again = parseMap(spec, text);
    assert.equal(serialiseMap(spec, again), text);
    assert.deepEqual(
      again.rows.map((row) => row.map((cell) => [cell.state, [...cell.marks].sort(), [...cell.labels].sort()])),
      c.parsed.rows.map((row) => row.map((cell) => [cell.state, [...cell.marks].sort(), [...cell.labels].sort()])),
    );
  }
});
