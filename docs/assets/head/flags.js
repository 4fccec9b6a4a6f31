// Inlined first in the <head> of every page with a calculator, before anything
// is painted (scripts/hooks/calculator_hooks.py; a classic script: a module would
// wait for the page to be parsed). It marks <html>: "fm-query" when the
// address has a query (the build's copy of the calculator shows the default
// inputs' answer, which may not be the one asked for, so the stylesheet hides
// it), "fm-file" for a page opened from a file (no module script runs there,
// so the note that the calculator cannot work there shows). calculator.mjs
// keeps "fm-query" right across instant navigation.
// On a calculator's own page (its script's data-link-inputs: the id of the script that
// puts a link's inputs in the copy, docs/assets/head/link-inputs.js), an address with a
// query also holds the first paint until that script has run (a render-blocking "expect"
// link, added while the head is parsed, when it still can block): painted before it, the
// page showed the calculator's box blank, the copy hidden, for 0.5 s on a slowed phone.
(function (c, s) {
  if (location.search) c.add("fm-query");
  if (location.protocol === "file:") c.add("fm-file");
  var id = location.search && s ? s.dataset.linkInputs : "";
  if (!id) return;
  var expect = document.createElement("link");
  expect.rel = "expect";
  expect.href = "#" + id;
  expect.setAttribute("blocking", "render");
  document.head.appendChild(expect);
})(document.documentElement.classList, /** @type {HTMLScriptElement | null} this inline script */ (document.currentScript));
