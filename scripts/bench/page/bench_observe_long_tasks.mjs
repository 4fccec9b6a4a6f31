// Installed in every page of scripts/bench/bench_map_editor.py before the page's own
// scripts: the page's long tasks and each keystroke's cost, in window.__bench.

export default function observeLongTasks() {
  const page = /** @type {Window & {__bench?: {long: Array<{start: number, duration: number}>, keys: number[]}}} */ (window);
  page.__bench = { long: [], keys: [] };
  /** @typedef {NonNullable<typeof page.__bench>} Bench made here */
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) /** @type {Bench} */ (page.__bench).long.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: "longtask", buffered: true });
  // A keystroke's cost: from its beforeinput to the first task after the next frame.
  document.addEventListener("beforeinput", () => {
    const t0 = performance.now();
    console.timeStamp("bench-key-start");
    requestAnimationFrame(() => setTimeout(() => {
      /** @type {Bench} */ (page.__bench).keys.push(performance.now() - t0);
      console.timeStamp("bench-key-end");
    }, 0));
  }, true);
}
