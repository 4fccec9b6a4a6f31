// The page's map-grid parser (docs/assets/calc/grid.mjs) as a command, for
// tests/test_grid.py: reads [{grammar, grid, max_text, texts}] as JSON on stdin and
// prints, for each job, what the parser makes of each text under that grammar and
// grid: {parsed, again} or {error}, where again is the parse of the text the page
// writes for the map (serialiseMap). The test gives it grammars changed from
// rules_py/grid.py's and compares with what Python's parser makes of the same texts.

import { readFileSync } from "node:fs";

import { GridError, gridSpec, parseMap, serialiseMap } from "../docs/assets/calc/grid.mjs";

/** @param {string} text @param {import("../docs/assets/calc/grid.mjs").GridSpec} spec @param {import("../docs/assets/calc/grid.mjs").Grammar} grammar */
function outcome(text, spec, grammar) {
  try {
    const parsed = parseMap(spec, text, grammar);
    return { parsed, again: parseMap(spec, serialiseMap(spec, parsed, grammar), grammar) };
  } catch (error) {
    if (error instanceof GridError) return { error: error.toJSON() };
    throw error;
  }
}

const jobs = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(
  JSON.stringify(
    jobs.map((/** @type {{grammar: any, grid: any, max_text: number, texts: string[]}} */ job) => {
      const spec = gridSpec(job.grid, job.max_text);
      return job.texts.map((text) => outcome(text, spec, job.grammar));
    }),
  ),
);
