// Run by scripts/bench/bench_browser.py: `repeats` round trips of one odds request
// through the page's engine, each as [ms from the page's call to its answer, ms
// the worker took].

/**
 * @param {[string, Record<string, string>, number]} request the calculator, its inputs, how many times
 * @returns {Promise<Array<[number, number]>>}
 */
export default async function roundTrips([id, inputs, repeats]) {
  /** @type {Array<[number, number]>} */
  const out = [];
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    const { answer, ms } = await /** @type {import("../../../docs/assets/calc/engine.mjs").Engine} the page's */ (window.fireMissionEngine).call("odds", { id, inputs });
    if ("error" in answer) throw new Error(answer.error);
    out.push([performance.now() - t0, ms]);
  }
  return out;
}
