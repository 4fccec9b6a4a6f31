// ESLint's flat config: the page's code (docs/assets/, browser modules), the
// engine's worker, the service worker's engine cache, the build's Node
// scripts and the functions run in a page, each with the globals of where it runs. Run by `make check-js`.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["docs/assets/generated/**", "site/**", "build/**", "node_modules/**", ".venv/**"] },
  js.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-var": "error",
      "prefer-const": "error",
    },
  },
  {
    files: ["docs/assets/**/*.mjs"],
    languageOptions: { sourceType: "module", globals: { ...globals.browser } },
  },
  {
    // The engine's worker and its loader run in a module Web Worker.
    files: ["docs/assets/calc/worker.mjs", "docs/assets/calc/loader.mjs", "docs/assets/calc/loader/*.mjs"],
    languageOptions: { globals: { ...globals.worker } },
  },
  {
    // Scripts the build inlines into a page's <head>: classic scripts, run before
    // the page is parsed (a module would wait for it), in an old browser too.
    files: ["docs/assets/head/*.js"],
    languageOptions: { sourceType: "script", ecmaVersion: 5, globals: { ...globals.browser } },
    rules: { "no-var": "off" },
  },
  {
    files: ["scripts/build/sw_engine.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.serviceworker } },
  },
  {
    files: ["scripts/**/*.mjs", "tests/**/*.mjs", "eslint.config.mjs"],
    languageOptions: { sourceType: "module", globals: { ...globals.node } },
  },
  {
    // Functions the build, the benchmarks and the tests run in a page (scripts/support/page_functions.py).
    files: ["scripts/*/page/*.mjs", "tests/page/*.mjs"],
    languageOptions: { globals: { ...globals.browser } },
  },
];
