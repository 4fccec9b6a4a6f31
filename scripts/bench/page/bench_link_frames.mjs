// Run in a page by scripts/bench/bench_browser.py (phone_link, as an init script before
// the page's own): each animation frame until the live view has answered all the link
// asks for, whether a field the link names shows the link's value, and whether the
// calculator says anything (an answer or words). Kept in window.__frames.

/**
 * @param {[string, string]} field the input the link names, and its value there
 */
export default function benchLinkFrames([name, value]) {
  /** @type {{t: number, link: boolean, field: boolean, said: boolean, all: boolean}[]} */
  const frames = [];
  Reflect.set(window, "__frames", frames);
  const tick = () => {
    const root = document.querySelector(".calculator[data-calculator]");
    if (root instanceof HTMLElement) {
      /** @param {Element} e */
      const shown = (e) => e.checkVisibility({ visibilityProperty: true });
      const fields = [...root.querySelectorAll(`[name="${name}"], [data-input="${name}"]`)].filter(shown);
      const said = [...root.querySelectorAll(".fm-engine, .fm-summary-list")].filter(shown).some((e) => (e.textContent ?? "").trim());
      // Option B's comparison and How it changes, where the link asks for them: in too.
      const asked = new URLSearchParams(location.search);
      const details = root.querySelector(".fm-sweep-details");
      const sweep = details instanceof HTMLElement ? details.dataset.sweepStatus : undefined;
      const all =
        Boolean(root.dataset.firstAnswerAt) &&
        (!asked.has("sweep") || sweep === "ready") &&
        (![...asked.keys()].some((k) => k.startsWith("vs.")) || root.dataset.compareStatus === "ready");
      frames.push({ t: performance.now(), link: fields.some((f) => f instanceof HTMLInputElement || f instanceof HTMLSelectElement ? f.value === value : false), field: fields.length > 0, said, all });
      if (all) return;
    }
    requestAnimationFrame(tick);
  };
  tick();
}
