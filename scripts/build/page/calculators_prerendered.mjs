// Waited for in a built page by scripts/build/render_calculators.py (through
// Playwright): every calculator of the page shows the answer the build embedded
// (prerendered and ready), so that its copy can be taken.

/** @returns {boolean} */
export default function calculatorsPrerendered() {
  const roots = [...document.querySelectorAll(".calculator[data-calculator]")];
  return roots.length > 0 && roots.every((r) => r instanceof HTMLElement && r.dataset.source === "prerendered" && r.dataset.status === "ready");
}
