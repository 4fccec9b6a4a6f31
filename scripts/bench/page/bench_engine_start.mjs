// Run by scripts/bench/page_visits.py: how the page's engine started, as the engine
// tells the page (engine.mjs, window.fireMissionEngine): the worker's start-up (bootMs,
// in the worker's own clock, from its first line), its phases (Python up, the wheel
// unpacked, rules_py imported: each ms since the previous one), and whether the
// page's head started it; null where the page has no engine, or a field it does not say.

export default function engineStart() {
  const engine = window.fireMissionEngine;
  return engine ? { bootMs: engine.bootMs ?? null, phases: engine.phases ?? null, startedInHead: engine.startedInHead ?? null } : null;
}
