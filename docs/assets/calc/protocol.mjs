// The messages between the page (engine.mjs, Engine) and the engine's
// worker (worker.mjs), as JSDoc types that both sides name, so that TypeScript
// (`make check-js`) checks every message either side posts or reads. Types
// only: nothing imports this module at run time.

/**
 * What rules_py.call_json takes (rules_py/__init__.py): an operation on a calculator
 * (an input given twice, by a link, is sent as its values: the engine refuses it).
 * @typedef {{op: string, id?: string, inputs?: Record<string, string | string[]>, [option: string]: unknown}} EngineRequest
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
