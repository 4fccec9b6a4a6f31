// Run by scripts/bench/bench_browser.py: when the page first painted an answer, the
// earliest Element Timing entry of the answer's lines (elementtiming="fm-answer", on
// the build's copy of the calculator and on the live view's), from a buffered
// observer; null if none comes in limitMs (a site built before the marks).

/**
 * @param {number} limitMs
 * @returns {Promise<number | null>}
 */
export default function answerPainted(limitMs) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), limitMs);
    new PerformanceObserver((list, observer) => {
      const times = list
        .getEntries()
        .map((e) => /** @type {PerformanceEntry & {identifier: string, renderTime: number, loadTime: number}} */ (e))
        .filter((e) => e.identifier === "fm-answer")
        .map((e) => e.renderTime || e.loadTime);
      if (!times.length) return;
      clearTimeout(timer);
      observer.disconnect();
      resolve(Math.min(...times));
    }).observe({ type: "element", buffered: true });
  });
}
