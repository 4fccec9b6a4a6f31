// Run in a page by scripts/bench/bench_browser.py (phone_link, as an init script before
// the page's own): each animation frame until the live view has answered all the link
// asks for, whether the link's input is shown with the link's value, and whether the
// calculator says anything (an answer or words). Kept in window.__frames. Shown: a
// field the link names, on show with its value, or, where a phone folds the form, the
// inputs' words on show naming it with that value ("Flak shots: 4", its label and the
// value as the field shows it).

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
      const named = [...root.querySelectorAll(`[name="${name}"], [data-input="${name}"]`)];
      const fields = named.filter(shown);
      const words = [...root.querySelectorAll(".fm-inputs-list")].filter(shown).map((e) => e.textContent ?? "");
      /** @param {Element} f */
      const said = (f) => {
        if (!(f instanceof HTMLInputElement || f instanceof HTMLSelectElement) || f.value !== value) return false;
        const label = f.labels?.[0]?.textContent?.trim();
        const text = f instanceof HTMLSelectElement ? f.selectedOptions[0]?.text : f.value;
        return Boolean(label) && words.some((w) => w.includes(`${label}: ${text}`));
      };
      const speaks = [...root.querySelectorAll(".fm-engine, .fm-summary-list")].filter(shown).some((e) => (e.textContent ?? "").trim());
      // Option B's comparison and How it changes, where the link asks for them: in too.
      const asked = new URLSearchParams(location.search);
      const details = root.querySelector(".fm-sweep-details");
      const sweep = details instanceof HTMLElement ? details.dataset.sweepStatus : undefined;
      const all =
        Boolean(root.dataset.firstAnswerAt) &&
        (!asked.has("sweep") || sweep === "ready") &&
        (![...asked.keys()].some((k) => k.startsWith("vs.")) || root.dataset.compareStatus === "ready");
      frames.push({
        t: performance.now(),
        link: fields.some((f) => (f instanceof HTMLInputElement || f instanceof HTMLSelectElement ? f.value === value : false)) || named.some(said),
        field: fields.length > 0 || words.length > 0,
        said: speaks,
        all,
      });
      if (all) return;
    }
    requestAnimationFrame(tick);
  };
  tick();
}
