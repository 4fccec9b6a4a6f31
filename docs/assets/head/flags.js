// Inlined first in the <head> of every page with a calculator, before anything
// is painted (scripts/hooks/calculator_hooks.py; a classic script: a module would
// wait for the page to be parsed). It marks <html>: "fm-query" when the
// address has a query (the build's copy of the calculator shows the default
// inputs' answer, which may not be the one asked for, so the stylesheet hides
// it), "fm-file" for a page opened from a file (no module script runs there,
// so the note that the calculator cannot work there shows). calculator.mjs
// keeps "fm-query" right across instant navigation.
(function (c) {
  if (location.search) c.add("fm-query");
  if (location.protocol === "file:") c.add("fm-file");
})(document.documentElement.classList);
