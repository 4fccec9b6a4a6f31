// What the page's scripts share through `window` (checked by tsc, jsconfig.json;
// never shipped: the site has only the .mjs files).
import type { Observable } from "./material";

declare global {
  interface Window {
    // mkdocs-material's instant navigation: a new page, a new address.
    document$?: Observable<Document>;
    location$?: Observable<URL>;
    // calculator.mjs: the engine, for the benchmark, the tests and offline.mjs.
    fireMissionEngine?: import("../docs/assets/calc/engine.mjs").Engine;
    // Set by the head's script (docs/assets/head/early-worker.js) on a calculator's
    // own page with a query, taken over by calculator.mjs.
    fireMissionEarlyWorker?: import("../docs/assets/calc/protocol.mjs").EarlyWorker;
    // Tests and the benchmark may lower the engine's time limits.
    fireMissionBootTimeoutMs?: number;
    fireMissionAnswerTimeoutMs?: number;
  }
}
