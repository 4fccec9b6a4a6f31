// Inlined in the <head> of every page with a calculator, after flags.js
// (scripts/hooks/calculator_hooks.py). The calculators' own script
// (assets/calc/calculator.mjs, with what it imports: static-copy.mjs,
// engine.mjs) runs once the page is parsed; if it does not load (a host that
// lost it, the network cut mid-load) or fails as it runs (a damaged file), no
// code of the calculators' is there to say so, and the build's copy of the
// calculator would say "loading" for ever. This watches for that: an error
// loading one of the page's scripts under assets/calc/, or one thrown from
// such a file, before any calculator has started (calculator.mjs marks each
// root with data-status as it starts), puts in each calculator's answer box
// what failed (the file), and what to do. Offline, the page reloads by itself
// once the network is back (window "online"); a Reload button does it at once.
(function () {
  var said = false;
  /** @param {string} file @param {string} what */
  function fail(file, what) {
    var roots = document.querySelectorAll(".calculator[data-calculator]");
    var started = false;
    for (var i = 0; i < roots.length; i++) if (roots[i].getAttribute("data-status")) started = true;
    // The calculators' script is running: it says what fails.
    if (said || started || !roots.length) return;
    said = true;
    var offline = navigator.onLine === false;
    var text =
      "The calculator cannot start: its script " + file + " " + what + ". " +
      (offline
        ? "This device is offline and does not hold this page's scripts yet: it reloads by itself once you are back online."
        : "Reload the page to try again; if this site is self-hosted, publish the whole of the built site/ folder.") +
      " The answer shown is for the default inputs.";
    for (var j = 0; j < roots.length; j++) {
      var root = roots[j];
      root.setAttribute("data-status", "error");
      var copy = root.querySelector(":scope > .fm-static");
      if (copy) {
        // Back at the inputs its answer is for (a link's may have been put in: link-inputs.js).
        var controls = copy.querySelectorAll("input, select, textarea");
        for (var k = 0; k < controls.length; k++) {
          var control = controls[k];
          if (control instanceof HTMLInputElement && (control.type === "checkbox" || control.type === "radio")) control.checked = control.defaultChecked;
          else if (control instanceof HTMLSelectElement) for (var o = 0; o < control.options.length; o++) control.options[o].selected = control.options[o].defaultSelected;
          else if (control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement) control.value = control.defaultValue;
        }
        copy.classList.remove("fm-static-link", "fm-static-changed");
        copy.classList.add("fm-static-failed");
      }
      var box = root.querySelector(".fm-answer-box .fm-errors");
      var note = document.createElement("p");
      note.className = "fm-copy-failed";
      note.setAttribute("data-glue-failed", file);
      note.textContent = text;
      var reload = document.createElement("button");
      reload.type = "button";
      reload.className = "md-button";
      reload.textContent = "Reload";
      reload.addEventListener("click", function () {
        location.reload();
      });
      if (box) {
        box.replaceChildren(note, reload);
        box.removeAttribute("hidden");
      } else {
        root.prepend(note, reload);
      }
    }
    window.addEventListener("online", function () {
      location.reload();
    });
  }
  // The file's path under the site, if `url` is one of the calculators' scripts.
  /** @param {string | undefined | null} url */
  function glueFile(url) {
    if (!url) return null;
    var path = new URL(url, location.href).pathname;
    var at = path.indexOf("/assets/calc/");
    return at < 0 ? null : path.slice(at + 1);
  }
  /** @param {Event} event */
  function onError(event) {
    var target = event.target;
    if (target instanceof HTMLScriptElement) {
      var file = glueFile(target.src);
      if (!file) return;
      // The module of its graph that failed, if the browser says (a host's error status).
      var failedOne = performance.getEntriesByType("resource").filter(function (e) {
        var status = /** @type {PerformanceResourceTiming & {responseStatus?: number}} */ (e).responseStatus;
        return glueFile(e.name) && status !== undefined && status >= 400;
      })[0];
      var which = failedOne ? glueFile(failedOne.name) : null;
      if (navigator.onLine === false) fail(file, "could not be fetched (offline)");
      else if (which && which !== file) fail(which, "did not load (the server answered " + /** @type {any} */ (failedOne).responseStatus + ")");
      else if (which) fail(file, "did not load (the server answered " + /** @type {any} */ (failedOne).responseStatus + ")");
      else fail(file, "did not load (it, or a module it imports, could not be fetched)");
      return;
    }
    if (!(event instanceof ErrorEvent)) return;
    var thrown = glueFile(event.filename);
    if (thrown) fail(thrown, "failed as it ran (" + event.message + ")");
  }
  window.addEventListener("error", onError, true);
})();
