// What a calculator says besides its answer: the engine's state while it
// starts, restarts or has failed, and the engine's messages about the inputs,
// sorted to where each is shown (beside its field, beside the seed, in the
// answer box) and put in words for the headline's place when the inputs have
// no answer. The words of each message are the engine's; the labels the schema's.

import { el } from "./results.mjs";

// What the engine is doing while it starts (engine.progress, from engine.mjs).
/** @param {{phase: import("./protocol.mjs").BootPhase, loaded: number, total: number, network: boolean | null} | null} progress */
function engineProgress(progress) {
  if (!progress) return "Starting the calculator engine\u2026";
  if (progress.phase === "download") {
    // Read from the browser's cache (a visit after the first), nothing is downloading.
    if (!progress.network) return "Starting the calculator engine\u2026";
    // A percentage, not megabytes: the worker counts bytes as the files are on
    // the site, and a host's gzip makes fewer of them cross the network.
    const percent = progress.total ? Math.floor((100 * progress.loaded) / progress.total) : 0;
    return `Downloading the calculator engine: ${percent}%\u2026`;
  }
  if (progress.phase === "python") return "Starting Python in the calculator engine\u2026";
  return "Loading the rules into the calculator engine\u2026";
}

// An answer on its way for longer than this, beside one for other inputs: the engine's note
// says so in words (before, the dimming alone: a quick answer would flash them).
export const SAY_STALE_MS = 400;

// Whether the engine's note says that the answer shown is for other inputs: it is (view.mjs's
// schedule marked it), and these inputs' answer is awaited, or will not come (a failure), and is late.
/** @param {import("./view.mjs").CalculatorView} view */
export function saysStale(view) {
  const state = view.engine.state;
  const since = view.answerView.staleFor();
  const awaited = view.root.dataset.status === "loading" || Boolean(view.problem) || state === "failed";
  const late = state !== "ready" || Boolean(view.problem) || (since !== null && performance.now() - since >= SAY_STALE_MS);
  return since !== null && awaited && late;
}

/**
 * The note under a view's answer about the engine (engine.mjs's Engine)
 * and the view's last request: while it starts, restarts or has failed, when
 * the view's request stopped it (problem), or when it restarted since the
 * view's last answer (answered: the generation that gave it). Bad: a failure.
 * @param {import("./engine.mjs").Engine} engine
 * @param {string} problem
 * @param {number | null | undefined} answered the generation of the view's last answer (undefined: none yet)
 * @param {boolean} [stale] the answer on show is for other inputs than those shown: said too
 * @returns {{text: string, bad: boolean}}
 */
export function engineNote(engine, problem, answered, stale = false) {
  const { text, bad } = engineState(engine, problem, answered);
  if (!stale) return { text, bad };
  return { text: [text || "Working out the answer to these inputs\u2026", STALE].join(" "), bad };
}

// What the note adds while the answer on show is for other inputs than those
// shown (answer-view.mjs marks it so: data-stale on its parts, dimmed).
export const STALE = "The answer shown is for the inputs before your change.";

/** engineNote without the stale answer's words. @param {import("./engine.mjs").Engine} engine @param {string} problem @param {number | null | undefined} answered */
function engineState(engine, problem, answered) {
  const { state, message, generation } = engine;
  if (state === "failed" || state === "restarting") return { text: message, bad: true };
  if (state === "starting") return { text: engineProgress(engine.progress), bad: false };
  if (problem) return { text: problem, bad: true };
  if (message && answered !== generation) return { text: message, bad: true };
  return { text: "", bad: false };
}

/**
 * The engine's messages of an answer (none if it has no error), by where they go:
 * each input's beside it (byField), the seed's (seed), the others' (general),
 * and, when the inputs have no answer, what the headline's place says (problem, or "").
 * @param {import("../../../types/calculator.js").FieldSchema[]} fields the schema's fields
 * @param {import("../../../types/calculator.js").EngineError | Record<string, never>} answer ({} for none)
 */
export function sortMessages(fields, answer) {
  const labels = new Map(fields.map((f) => [f.name, f.label]));
  /** @type {Record<string, string[]>} */
  const byField = {};
  const seed = [];
  const general = [];
  const labelled = [];
  for (const { field, message } of answer.error ? answer.fields : []) {
    if (field === "seed") seed.push(message);
    else if (field && labels.has(field)) {
      (byField[field] ??= []).push(message);
      labelled.push(`${labels.get(field)}: ${message}`);
    } else general.push(message);
  }
  if (answer.error && !answer.fields.length) general.push(answer.error);
  // A roll's bad seed alone leaves the answer as it is.
  const problem = labelled.length || (answer.error && !seed.length) ? `No answer for these inputs: ${[...labelled, ...general].join(" ")}` : "";
  return { byField, seed, general, problem };
}

// Option A's messages (view.mjs): while a field is empty or being typed in,
// its message waits until the player leaves it (or presses Enter), and the
// last answer stays, dimmed; then each shows beside its field and, the inputs
// having no answer, in the headline's place.
export class InputMessages {
  /** @param {import("./view.mjs").CalculatorView} view the calculator's view: root, schema, form, rolls, answerView, showHeadline() */
  constructor(view) {
    this.view = view;
    this.pending = null; // an answer's messages waiting for the player to leave the field
    this.reveal = false; // the player left the field: an answer still on its way shows its messages at once
    this.problem = ""; // the inputs have no answer: what the headline's place says
  }

  // The player is typing again.
  typing() {
    this.reveal = false;
  }

  // An answer with an error, for the inputs shown.
  /** @param {import("../../../types/calculator.js").EngineError} answer */
  received(answer) {
    const active = /** @type {HTMLElement | null} */ (document.activeElement);
    const typing = answer.fields.some(({ field }) => field && field === active?.dataset?.input && this.view.root.contains(active));
    if (typing && !this.reveal) this.pending = answer;
    else this.show(answer);
  }

  // The player left a field or pressed Enter: show the messages that waited.
  flush() {
    this.reveal = true;
    if (!this.pending) return;
    const pending = this.pending;
    this.pending = null;
    if (this.view.root.dataset.valid === "false") this.show(pending);
  }

  // The engine's messages (none: {}): each beside its field (the seed's beside
  // the seed), the rest in the answer box, and the problem in the headline's place.
  /** @param {import("../../../types/calculator.js").EngineError | Record<string, never>} answer */
  show(answer) {
    const view = this.view;
    if (!answer.error) this.pending = null;
    const { byField, seed, general, problem } = sortMessages(view.schema.fields, answer);
    view.form.showErrors(byField);
    view.rolls?.showErrors(seed);
    const boxed = problem ? [] : general; // said once, in the headline's place
    view.answerView.generalErrors.replaceChildren(...boxed.map((m) => el("p", { text: m })));
    view.answerView.generalErrors.hidden = !boxed.length;
    if (!problem && !this.problem) return;
    this.problem = problem;
    if (!problem) view.markStale(false); // through the view: its printed card and its stale note's timer too
    view.showHeadline();
  }
}
