// Inlined in the <head> of a calculator's own page (scripts/hooks/calculator_hooks.py),
// after flags.js. Opened with inputs in its address, the page most likely needs
// its engine for the first answer (the build answered its defaults and
// examples only): this starts the engine's worker, about 0.4 s before
// calculator.mjs could (which runs once the page is parsed, after Material's
// bundle), and keeps what it says until calculator.mjs takes it over
// (Engine.spawn). The same text on every page, so one hash in the policy; the
// worker's address, relative to the page, is the script's data-worker.
(function (s) {
  if (location.search.length < 2 || location.protocol === "file:" || typeof Worker === "undefined" || typeof WebAssembly === "undefined") return;
  var name = "fire-mission-engine 1 " + Math.random().toString(36).slice(2);
  var worker;
  try {
    worker = new Worker(new URL(/** @type {string} */ (s.dataset.worker), location.href), { type: "module", name: name });
  } catch (e) {
    return;
  }
  /** @type {import("../calc/protocol.mjs").EarlyWorker} */
  var early = { worker: worker, name: name, messages: [], failed: false, error: "" };
  worker.onmessage = function (e) {
    early.messages.push(e.data);
  };
  worker.onerror = function (e) {
    e.preventDefault();
    early.failed = true;
    early.error = e.message || "";
  };
  window.fireMissionEarlyWorker = early;
})(/** @type {HTMLScriptElement} this inline script, with its data-worker */ (document.currentScript));
