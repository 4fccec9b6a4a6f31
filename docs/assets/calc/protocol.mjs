// The messages between the page (engine.mjs, Engine) and the engine's
// worker (worker.mjs), as JSDoc types that both sides name, so that TypeScript
// (`make check-js`) checks every message either side posts or reads. Types
// only: nothing imports this module at run time.

/** @typedef {import("../../../types/answer.js").OddsAnswer} OddsAnswer @typedef {import("../../../types/answer.js").RollAnswer} RollAnswer */
/** @typedef {import("../../../types/answer.js").ResolveAnswer} ResolveAnswer @typedef {import("../../../types/answer.js").SweepAnswer} SweepAnswer */
/** @typedef {import("../../../types/answer.js").CompareAnswer} CompareAnswer @typedef {import("../../../types/calculator.js").EngineError} EngineError */

/**
 * A calculator's inputs by name, as text; an input a link gave more than once
 * comes as every text it gave, which the engine refuses (Calculator.validate).
 * @typedef {Record<string, string | string[]>} Inputs
 */

/**
 * The engine's operations as the page asks for them (Engine.call), each named
 * after the kind of typed answer it gives (types/answer.d.ts: `kind`), with the
 * request rules_py.call_json takes for it (rules_py/__init__.py): `op`, the
 * operation call_json runs, and the options sent with it. A seed, dice, sweep
 * or sweep_of a link gave more than once is sent as every text it gave: the
 * engine refuses it, as the CLI refuses an option given twice; a sweep's null
 * (no input) with a sweep_of has the engine's message on that outcome. Options are
 * exact: one not listed (a misspelt one) fails tsc (tests/types/engine_calls.mjs
 * shows it does). The CLI's own objects (call_json's ops "odds", "roll",
 * "resolve", "sweep" and "schema") are not the page's, and not here.
 * @typedef {{
 *   odds: {op: "answer", request: {id: string, inputs: Inputs}, answer: OddsAnswer},
 *   roll: {op: "answer", request: {id: string, inputs: Inputs, seed: string | string[]}, answer: RollAnswer},
 *   resolve: {op: "answer", request: {id: string, inputs: Inputs, dice: string | string[]}, answer: ResolveAnswer},
 *   sweep: {op: "answer", request: {id: string, inputs: Inputs, sweep: string | string[] | null, sweep_of?: string | string[]}, answer: SweepAnswer},
 *   compare: {op: "compare", request: {id: string, inputs: Inputs, vs: Inputs}, answer: CompareAnswer},
 * }} Operations
 */

/** One of the engine's operations on the page. @typedef {keyof Operations} Op */

/**
 * What operation K answers: its typed answer, or the engine's refusal of bad input.
 * @template {Op} K
 * @typedef {Operations[K]["answer"] | EngineError} AnswerOf
 */

/**
 * What rules_py.call_json is sent (the worker passes it on as JSON): one operation's options and the op it runs.
 * @typedef {{[K in Op]: {op: Operations[K]["op"]} & Operations[K]["request"]}[Op]} EngineRequest
 */

/**
 * Page to worker: one request; answered by an AnswerMessage with the same seq.
 * @typedef {{seq: number, request: EngineRequest}} RequestMessage
 */

/**
 * How long each part of the start took, in ms: Python, the rules wheel, importing rules_py.
 * @typedef {{pyodide: number, wheel: number, rules: number}} BootPhases
 */

/**
 * What the worker is doing while it starts: "download" (loaded of total bytes
 * of the engine's files are in, counted as the files are on the site),
 * "python" (all in, Python is starting), "rules" (the rules are being imported).
 * @typedef {"download" | "python" | "rules"} BootPhase
 */

/**
 * Worker to page.
 * @typedef {{type: "alive"}} AliveMessage the worker holds the Web Lock named after it
 * @typedef {{type: "progress", phase: BootPhase, loaded: number, total: number, network: boolean | null}} ProgressMessage
 * @typedef {{type: "ready", bootMs: number, phases: BootPhases, snapshot: boolean}} ReadyMessage
 *   snapshot: Python came from the build's memory snapshot
 * @typedef {{type: "failed", message: string}} FailedMessage the engine cannot start; message names the file and what is wrong
 * @typedef {{type: "answer", seq: number, answer: string, ms: number}} AnswerMessage answer: the typed answer as JSON text
 * @typedef {{type: "loaded", imported: string[], ms: number}} LoadedMessage
 *   every calculator is loaded; imported: the standard library modules rules_py had to import
 * @typedef {{type: "warm", answers: number, ms: number}} WarmMessage the warm-up is over
 * @typedef {{type: "prefetched", ok: boolean, files: string[]}} PrefetchedMessage
 *   the worker has fetched all it will; ok: the snapshot is among it;
 *   files: the engine's files it used, under assets/generated/
 * @typedef {AliveMessage | ProgressMessage | ReadyMessage | FailedMessage | AnswerMessage | LoadedMessage | WarmMessage | PrefetchedMessage} WorkerMessage
 */

/**
 * A worker the page's head started (docs/assets/head/early-worker.js) and
 * engine.mjs takes over (Engine.spawn), with what it said meanwhile.
 * @typedef {{worker: Worker, name: string, messages: WorkerMessage[], failed: boolean, error: string}} EarlyWorker
 */

export {};
