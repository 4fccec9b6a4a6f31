// Run by scripts/bench/bench_map_editor.py: a paste of `text` into the map's text box
// (`box`, a selector), timed from the paste to the first task after the next frame,
// kept in window.__bench.paste.

/**
 * @param {[string, string]} boxAndText
 * @returns {Promise<void>}
 */
export default function pasteMap([box, text]) {
  const page = /** @type {Window & {__bench?: {paste?: number}}} */ (window);
  return new Promise((/** @type {(ms: number) => void} */ done) => {
    const area = /** @type {HTMLTextAreaElement} */ (document.querySelector(box));
    const t0 = performance.now();
    area.value = text;
    area.dispatchEvent(new Event("input", { bubbles: true }));
    requestAnimationFrame(() => setTimeout(() => done(performance.now() - t0), 0));
  }).then((ms) => {
    /** @type {{paste?: number}} observeLongTasks made it */ (page.__bench).paste = ms;
  });
}
