// Wide tables scroll sideways inside mkdocs-material's .md-typeset__scrollwrap.
// A keyboard user must be able to reach such a region to scroll it (WCAG
// 2.1.1; axe's scrollable-region-focusable): a wrapper whose table overflows
// becomes a focusable, named region; one that fits stays out of the tab order.
// Knows no rule; runs on every page and after every instant navigation.

/** @param {Element} wrap */
function label(wrap) {
  const caption = wrap.closest(".fm-table")?.querySelector(".table-caption") ?? wrap.previousElementSibling;
  return (caption?.textContent || "Table").trim().replace(/\s+/g, " ").slice(0, 120);
}

function mark() {
  for (const wrap of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".md-typeset__scrollwrap"))) {
    if (wrap.scrollWidth > wrap.clientWidth + 1) {
      wrap.tabIndex = 0;
      wrap.setAttribute("role", "region");
      wrap.setAttribute("aria-label", `${label(wrap)} (scrolls sideways)`);
    } else if (wrap.hasAttribute("tabindex")) {
      wrap.removeAttribute("tabindex");
      wrap.removeAttribute("role");
      wrap.removeAttribute("aria-label");
    }
  }
}

// Material wraps the tables while it mounts the page: look once it has.
const later = () => requestAnimationFrame(() => requestAnimationFrame(mark));
if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(later);
else later();
let resized = 0;
window.addEventListener("resize", () => {
  cancelAnimationFrame(resized);
  resized = requestAnimationFrame(mark);
});
