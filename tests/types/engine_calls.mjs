// A type test, never run: tsc (make check-js, jsconfig.json) compiles it, and
// each line marked @ts-expect-error must fail to type-check, or tsc fails
// ("Unused '@ts-expect-error' directive"). It holds the engine's operations to
// their contract (docs/assets/calc/protocol.mjs, Operations): an op or an option
// the engine does not take is refused, and each op's answer is its own typed
// answer or a refusal, which no caller has to assert.

/** @typedef {import("../../docs/assets/calc/engine.mjs").Engine} Engine */
/** @typedef {import("../../types/calculator.js").EngineError} EngineError */

/** @param {Engine} engine */
export async function wellTyped(engine) {
  const inputs = { boosts: "2" };
  /** @type {import("../../types/answer.js").OddsAnswer | EngineError} */
  const odds = (await engine.call("odds", { id: "chq-comms-check", inputs })).answer;
  /** @type {import("../../types/answer.js").RollAnswer | EngineError} */
  const roll = (await engine.call("roll", { id: "chq-comms-check", inputs, seed: "12" })).answer;
  /** @type {import("../../types/answer.js").ResolveAnswer | EngineError} */
  const resolve = (await engine.call("resolve", { id: "chq-comms-check", inputs, dice: "4,5" }, { key: "own dice" })).answer;
  /** @type {import("../../types/answer.js").SweepAnswer | EngineError} */
  const sweep = (await engine.call("sweep", { id: "chq-comms-check", inputs, sweep: "boosts", sweep_of: "contact" })).answer;
  /** @type {import("../../types/answer.js").CompareAnswer | EngineError} */
  const compare = (await engine.call("compare", { id: "chq-comms-check", inputs, vs: { boosts: "3" } })).answer;
  // An answer that is not a refusal is of the kind asked for: no assertion needed.
  if (!("error" in odds)) odds.notes.join();
  if (!("error" in roll)) roll.seed.trim();
  return [odds, roll, resolve, sweep, compare];
}

/** @param {Engine} engine */
export async function illTyped(engine) {
  const inputs = { boosts: "2" };
  // @ts-expect-error an op the engine does not have
  await engine.call("rol", { id: "chq-comms-check", inputs, seed: "12" });
  // @ts-expect-error call_json's op written as the page's: the page names each op after its answer's kind
  await engine.call("answer", { id: "chq-comms-check", inputs });
  // @ts-expect-error a misspelt option (seed)
  await engine.call("roll", { id: "chq-comms-check", inputs, sed: "12" });
  // @ts-expect-error an option another op takes: odds take no seed (a roll does)
  await engine.call("odds", { id: "chq-comms-check", inputs, seed: "12" });
  // @ts-expect-error an option no op takes (what the benchmark once sent)
  await engine.call("odds", { id: "chq-comms-check", inputs, describe: true });
  // @ts-expect-error an option left out: a roll needs its seed
  await engine.call("roll", { id: "chq-comms-check", inputs });
  // @ts-expect-error an option of the wrong type
  await engine.call("resolve", { id: "chq-comms-check", inputs, dice: 4 });
  // @ts-expect-error the wire's request, as call() once took it
  await engine.call({ op: "answer", id: "chq-comms-check", inputs });
  const { answer } = await engine.call("roll", { id: "chq-comms-check", inputs, seed: "12" });
  // @ts-expect-error a refusal may come instead: it has no seed
  answer.seed.trim();
  // @ts-expect-error a roll's answer is not another kind's
  if (!("error" in answer)) answer.notes.join();
}
