// The calculators' engine as the page sees it: one Web Worker (worker.mjs)
// running rules_py, started once per tab (calculator.mjs holds the one
// instance), restarted when it stops, and given one request at a time.
// Messages with the worker are typed in protocol.mjs, and so are the engine's
// operations (Operations): call(op, options) is typed per operation, its
// options exact and its answer the operation's typed answer or a refusal.

/** @typedef {import("./protocol.mjs").Op} Op @typedef {import("./protocol.mjs").Operations} Operations */
/** @typedef {import("./protocol.mjs").EngineRequest} EngineRequest */

/**
 * What call() resolves with: the answer to operation K, how long the worker took
 * (ms), and which worker answered (compare with engine.generation).
 * @template {Op} K
 * @typedef {{answer: import("./protocol.mjs").AnswerOf<K>, ms: number, generation: number}} Answered
 */

// The operation rules_py.call_json runs for each of the page's (protocol.mjs, Operations).
/** @type {{[K in Op]: Operations[K]["op"]}} */
const CALL_JSON_OP = { odds: "answer", roll: "answer", resolve: "answer", sweep: "answer", compare: "compare" };

// How long the engine may take: to start (download and boot Python), and to
// answer one request once it has started. Pages and tests may lower them
// (window.fireMissionBootTimeoutMs, window.fireMissionAnswerTimeoutMs).
const BOOT_TIMEOUT_MS = 60000;
const ANSWER_TIMEOUT_MS = 30000;
// A worker that stops this many times in a row without answering anything in
// between is not started again: something is wrong that a restart cannot mend.
const MAX_RESTARTS = 3;

/** @param {string} kind @param {string} message @returns {Error & {kind: string}} */
function engineError(kind, message) {
  return Object.assign(new Error(message), { kind });
}

// Whether `answer` (the worker's JSON, parsed) answers operation `op`: a typed
// answer of its kind, or a refusal. Anything else is a fault of the engine's.
/** @param {Op} op @param {unknown} answer @returns {answer is import("./protocol.mjs").AnswerOf<Op>} */
function answers(op, answer) {
  if (typeof answer !== "object" || answer === null) return false;
  if ("error" in answer) return typeof answer.error === "string" && "fields" in answer && Array.isArray(answer.fields);
  return "kind" in answer && answer.kind === op;
}

/** @param {number} ms */
function seconds(ms) {
  const s = Math.round(ms / 1000);
  return `${s} second${s === 1 ? "" : "s"}`;
}

// A file of the site's, by its path under the site (assets/calc/worker.mjs), for messages; "" if none.
/** @param {string | undefined | null} url */
export function siteFile(url) {
  if (!url) return "";
  try {
    const path = new URL(url, location.href).pathname;
    const at = path.indexOf("/assets/");
    return at < 0 ? path : path.slice(at + 1);
  } catch {
    return "";
  }
}

// Why a worker's script did not load, and what to do: offline, this device does
// not hold the engine yet (assets/offline.mjs keeps it once a calculator has
// answered online).
function notLoaded() {
  return navigator.onLine === false
    ? "its script, assets/calc/worker.mjs, could not be fetched: this device is offline, and it keeps the calculators' engine for offline use only once a calculator has answered online. Connect to the internet and reload the page"
    : "its script, assets/calc/worker.mjs, or a module it imports, did not load. Check the connection and reload the page";
}

// The worker, told which build this page comes from (its <meta name="fire-mission-build">):
// it refuses an engine of another build (loader/build-check.mjs).
function workerURL() {
  const url = new URL("./worker.mjs", import.meta.url);
  const build = document.querySelector('meta[name="fire-mission-build"]')?.getAttribute("content");
  if (build) url.searchParams.set("build", build);
  return url;
}

// One Web Worker (worker.mjs) at a time runs rules_py. The engine sends it one
// request at a time and keeps the rest here, so that a request superseded by a
// newer one with the same key is dropped before it costs anything, and each
// request's time limit runs from the moment the worker takes it.
//
// States, told to every listener (onChange) with a message for the player:
//   idle        not started (no calculator on the page yet)
//   starting    the first worker is booting; message ""
//   ready       answering; message "" or, after a restart, what happened
//               (a view shows it until it has an answer of the new worker:
//               compare the `generation` call() gives with engine.generation)
//   restarting  a worker stopped (crash, close(), uncaught error) or ran past
//               a time limit and a new one is booting; message says why
//   failed      the engine cannot run here; message says why (final)
// call() rejects with an Error whose `kind` is "superseded" (a newer request
// with the same key came; nothing to show), "timeout" or "crashed" (this
// request stopped the worker twice: once, then again when it was sent, once,
// to the worker started in its place; its message is for the player) or
// "failed" (the engine's message says why). A request that stopped the
// worker once is asked again on its own: a worker can die of something else
// than its request (the browser reclaiming memory, a tab put to sleep), and the
// player should not have to change an input for the answer to come.
/**
 * A request to the worker, from call() until it is answered or dropped.
 * @typedef {object} Pending
 * @property {number} seq
 * @property {Op} op the page's operation, whose answer the worker's must be
 * @property {EngineRequest} request
 * @property {unknown} key
 * @property {number} timeoutMs
 * @property {(answered: Answered<Op>) => void} resolve given an answer to `op` (receive checks it is)
 * @property {(error: Error) => void} reject
 * @property {ReturnType<typeof setTimeout>} [timer] set when its time limit starts
 * @property {boolean} [superseded] a newer request with the same key came while the worker had it
 * @property {boolean} [retried] it stopped a worker once already, and was sent to the next
 */

export class Engine {
  constructor() {
    this.state = "idle";
    this.message = "";
    // While starting: what the worker is doing, from its "progress" messages.
    // phase: "download" (loaded of total bytes of the engine's files have
    // arrived), "python" (all in; Python is starting) or "rules" (Python is
    // up; the rules are being imported); network: whether those files come over
    // the network (null until the worker knows). null before the worker's first word.
    this.progress = null;
    this.seq = 0;
    /** @type {Pending[]} requests not yet sent to the worker */
    this.queue = [];
    this.current = null; // the request the worker has
    this.listeners = new Set();
    this.generation = 0; // workers started
    this.startsSoon = false; // idle, but this page will start it (its calculator's own page)
    this.restarts = 0; // restarts since the last answer
    this.stoppedBecause = ""; // why the last worker stopped, for the player once the next is ready
  }

  /** @param {(state: string, message: string) => void} fn told every change of state */
  onChange(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  notify() {
    for (const fn of [...this.listeners]) fn(this.state, this.message);
  }

  start() {
    if (this.state !== "idle") return;
    if (location.protocol === "file:") {
      this.fail("The calculators need the site to be served over HTTP: a page opened from a file cannot start their engine. Run `make serve`, or any static web server, and open the page from it.");
      return;
    }
    if (typeof Worker === "undefined" || typeof WebAssembly === "undefined") {
      this.fail("This browser cannot run the calculators' engine (it needs Web Workers and WebAssembly).");
      return;
    }
    this.startedAt = performance.now(); // since navigation start: how long the page kept the engine waiting
    this.spawn();
  }

  // A new worker. Its name is unique, and the worker holds a Web Lock of that
  // name for as long as it lives: the page asks for the same lock, and is
  // granted it the moment the worker is gone, however it went (close(), a
  // crash), which no event on the Worker object tells.
  spawn() {
    const generation = ++this.generation;
    this.state = generation === 1 ? "starting" : "restarting";
    this.booted = false;
    this.notify();
    const bootMs = window.fireMissionBootTimeoutMs || BOOT_TIMEOUT_MS;
    this.timer = setTimeout(() => {
      if (this.booted || this.generation !== generation) return;
      this.fail(
        `The calculators' engine did not start within ${seconds(bootMs)}: its files have not all arrived. Reload to try again; ` +
          "if this site is self-hosted, check that the whole of the built site/ folder was published.",
      );
    }, bootMs);
    /** @type {Worker & {lockName?: string}} */
    let worker;
    // The first worker of a page loaded with inputs in its address may have been
    // started already, by the page's head (docs/assets/head/early-worker.js):
    // taken over here, with what it said meanwhile.
    const early = generation === 1 ? window.fireMissionEarlyWorker : null;
    delete window.fireMissionEarlyWorker;
    if (generation === 1) this.startedInHead = Boolean(early); // for tests and the benchmark
    try {
      const name = early ? early.name : `fire-mission-engine ${generation} ${Math.random().toString(36).slice(2)}`;
      worker = early ? early.worker : new Worker(workerURL(), { type: "module", name });
      worker.lockName = name;
    } catch (caught) {
      this.fail(`The calculators' engine could not start: ${/** @type {Error} */ (caught).message}`);
      return;
    }
    this.worker = worker;
    // An error with no message: the worker's script (worker.mjs, or a module it imports) did
    // not load. Offline, that is a calculator whose engine this device has not kept yet.
    const failed = (/** @type {string | undefined} */ message, /** @type {string | undefined} */ file = undefined) =>
      this.died(message ? `an error${siteFile(file) ? ` in ${siteFile(file)}` : ""}: ${message}` : notLoaded());
    worker.onmessage = (event) => {
      if (this.worker === worker) this.receive(event.data);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      if (this.worker === worker) failed(event.message, event.filename);
    };
    for (const message of early ? early.messages.splice(0) : []) if (this.worker === worker) this.receive(message);
    if (early && early.failed && this.worker === worker) failed(early.error);
    this.dispatch();
  }

  /** @param {import("./protocol.mjs").WorkerMessage} message */
  receive(message) {
    if (message.type === "alive") {
      const worker = this.worker;
      if (!worker?.lockName) return; // spawn() names every worker it keeps
      navigator.locks?.request(worker.lockName, () => {
        if (this.worker === worker) this.died("it was closed or crashed");
      });
    } else if (message.type === "ready") {
      clearTimeout(this.timer);
      this.booted = true;
      this.state = "ready";
      if (this.generation === 1) {
        this.bootMs = message.bootMs;
        this.phases = message.phases;
        this.fromSnapshot = message.snapshot;
      } else {
        this.message = this.stoppedBecause;
      }
      this.notify();
      this.startTimer();
    } else if (message.type === "progress") {
      if (this.state !== "starting") return;
      this.progress = { phase: message.phase, loaded: message.loaded, total: message.total, network: message.network ?? null };
      this.notify();
    } else if (message.type === "prefetched") {
      // The worker has fetched all it will; true if the snapshot is among it (the next visit starts from it).
      this.snapshotPrefetched = message.ok;
      this.files = message.files; // the engine's files this worker fetched (assets/offline.mjs has them kept)
      this.notify();
    } else if (message.type === "loaded") {
      if (this.generation === 1) this.imported = message.imported; // for tests
    } else if (message.type === "warm") {
      this.warmUp = { answers: message.answers, ms: message.ms };
    } else if (message.type === "failed") {
      this.fail(`The calculators' engine could not start: ${message.message.replace(/\.?$/, ".")}`);
    } else if (message.type === "answer") {
      const request = this.current;
      if (!request || request.seq !== message.seq) return;
      clearTimeout(request.timer);
      this.current = null;
      this.restarts = 0;
      if (request.superseded) request.reject(engineError("superseded", "a newer request replaced this one"));
      else {
        /** @type {unknown} */
        const answer = JSON.parse(message.answer);
        // An answer of another kind than asked for is the engine's fault: shown as its refusal, never rendered as another kind.
        const checked = answers(request.op, answer) ? answer : { error: `the engine answered a request for ${request.op} with something else`, fields: [], internal: /** @type {const} */ (true) };
        request.resolve({ answer: checked, ms: message.ms, generation: this.generation });
      }
      this.dispatch();
    }
  }

  // The next request to the worker, once it has none. One sent before the
  // worker is ready waits in the worker (so it is answered first, before the
  // warm-up); its time limit starts when the worker is ready.
  dispatch() {
    if (this.current || !this.worker) return;
    const next = this.queue.shift();
    if (!next) return;
    this.current = next;
    /** @type {import("./protocol.mjs").RequestMessage} */
    const message = { seq: next.seq, request: next.request };
    this.worker.postMessage(message);
    if (this.booted) this.startTimer();
  }

  startTimer() {
    const request = this.current;
    if (!request || request.timer !== undefined) return;
    request.timer = setTimeout(() => {
      if (this.current !== request) return;
      this.current = null;
      const limit = seconds(request.timeoutMs);
      this.askAgain(
        request,
        engineError("timeout", `This answer took longer than ${limit}, so the calculators' engine was stopped and started again. Change an input to try again.`),
      );
      this.restart(`an answer took longer than ${limit}`);
    }, request.timeoutMs);
  }

  // The worker has gone (or sent an uncaught error, after which it cannot be trusted).
  /** @param {string} reason */
  died(reason) {
    if (this.state === "failed") return;
    if (!this.booted) {
      this.fail(`The calculators' engine could not start: ${reason}.`);
      return;
    }
    const request = this.current;
    this.current = null;
    if (request) {
      clearTimeout(request.timer);
      this.askAgain(request, engineError("crashed", `The calculators' engine stopped while working this out (${reason}) and was started again. Change an input to try again.`));
    }
    this.restart(reason);
  }

  // A request the worker stopped on: sent once more, first, to the worker
  // started in its place (restart); rejected with `error` if it had been
  // already (it may be what stops the worker) or a newer one replaced it.
  /** @param {Pending} request @param {Error} error */
  askAgain(request, error) {
    if (request.retried || request.superseded) {
      request.reject(request.superseded ? engineError("superseded", "a newer request replaced this one") : error);
      return;
    }
    request.retried = true;
    delete request.timer;
    this.queue.unshift(request);
  }

  /** @param {string} reason */
  restart(reason) {
    this.terminate();
    if (++this.restarts > MAX_RESTARTS) {
      this.fail(`The calculators' engine stopped ${this.restarts} times in a row (the last time, ${reason}). Reload the page to try again.`);
      return;
    }
    this.message = `The calculators' engine stopped (${reason}); starting it again\u2026`;
    this.stoppedBecause = `The calculators' engine stopped (${reason}) and was started again.`;
    this.spawn(); // requests still waiting go to the new worker
  }

  terminate() {
    clearTimeout(this.timer);
    const worker = this.worker;
    this.worker = null;
    worker?.terminate();
  }

  /** @param {string} message */
  fail(message) {
    if (this.state === "failed") return;
    this.terminate();
    this.state = "failed";
    this.message = message;
    const lost = [...(this.current ? [this.current] : []), ...this.queue.splice(0)];
    this.current = null;
    for (const request of lost) {
      clearTimeout(request.timer);
      request.reject(engineError("failed", message));
    }
    this.notify();
  }

  // One operation (protocol.mjs, Operations), sent to rules_py.call_json. `key`
  // (say, one per calculator view): a newer request with the same key supersedes
  // this one, which is then dropped unsent, or its answer is (promise rejected,
  // kind "superseded").
  /**
   * @template {Op} K
   * @param {K} op what to ask: the kind of typed answer wanted
   * @param {Operations[K]["request"]} options its options, exactly those the operation takes
   * @param {{key?: unknown, timeoutMs?: number}} [limits]
   * @returns {Promise<Answered<K>>} the typed answer of kind `op`, or the engine's refusal
   */
  call(op, options, { key, timeoutMs } = {}) {
    if (this.state === "failed") return Promise.reject(engineError("failed", this.message));
    this.start(); // the engine starts when a calculator first needs it
    const seq = ++this.seq;
    /** @type {EngineRequest} */
    const request = /** @type {EngineRequest} each operation's options, with its op */ ({ op: CALL_JSON_OP[op], ...options });
    return new Promise((resolve, reject) => {
      if (key !== undefined) {
        this.queue = this.queue.filter((old) => {
          if (old.key !== key) return true;
          old.reject(engineError("superseded", "a newer request replaced this one"));
          return false;
        });
        if (this.current && this.current.key === key) this.current.superseded = true;
      }
      timeoutMs ??= window.fireMissionAnswerTimeoutMs || ANSWER_TIMEOUT_MS;
      // receive() resolves it with an answer to `op` alone (answers()): of kind K, or a refusal.
      const answered = (/** @type {Answered<Op>} */ a) => resolve(/** @type {Answered<K>} */ (a));
      this.queue.push({ seq, op, request, key, timeoutMs, resolve: answered, reject });
      this.dispatch();
    });
  }
}
