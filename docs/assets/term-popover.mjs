// Glossary terms on a touch screen: a tap shows the term's definition over
// the text, just under the term, with a link to its full entry, instead of
// leaving the rule. With a mouse, the link keeps mkdocs-material's hover
// tooltip and goes to the entry.
//
// The definition follows the term in the document (a screen reader reads it
// next, and gets focus there) but is laid over the page (position: fixed, in
// fire-mission.css), so the sentence around the term does not move; it is
// placed here from the term's box, kept inside the window and moved with the
// term as the page or a table scrolls. On paper it prints in place, as a block
// after the term (the stylesheet's print rules).
//
// The terms are the links scripts/hooks/term_links.py makes (a.glossary-term, the
// definition in their title). One listener on the document serves every page
// that instant navigation shows; document$ closes an open definition when the
// page changes. No rule, no inline script (the site's CSP allows none).

const TERM = "a.glossary-term";
const touchOnly = matchMedia("(hover: none)");
/** @type {{term: HTMLAnchorElement, popover: HTMLElement} | null} the definition shown, and its term */
let open = null;
const EDGE = 8; // px kept clear at the window's edges
const GAP = 4; // px between the term's line and its definition

function close() {
  if (!open) return;
  open.term.setAttribute("aria-expanded", "false");
  open.popover.remove();
  open = null;
}

// Under the line of the term that was tapped (a term may wrap: its last line),
// from the term's left edge, moved left as far as the window needs; above the
// line where the window's foot has no room for it and its top has.
function place() {
  if (!open) return;
  const { term, popover } = open;
  const lines = term.getClientRects();
  const line = lines.length ? lines[lines.length - 1] : term.getBoundingClientRect();
  const width = document.documentElement.clientWidth;
  const height = window.innerHeight;
  const box = popover.getBoundingClientRect();
  const left = Math.max(EDGE, Math.min(line.left, width - EDGE - box.width));
  const below = line.bottom + GAP;
  const above = line.top - GAP - box.height;
  const top = below + box.height > height - EDGE && above >= EDGE ? above : below;
  popover.style.left = `${left}px`;
  popover.style.top = `${top}px`;
}

let frame = 0;
function follow() {
  cancelAnimationFrame(frame);
  frame = requestAnimationFrame(place);
}

/** @param {HTMLAnchorElement} term a glossary term's link */
function definitionOf(term) {
  // Kept aside the first time, on a touch screen only: there the title would
  // also show as a tooltip on the tap.
  if (term.title) {
    term.dataset.definition = term.title;
    term.removeAttribute("title");
  }
  return term.dataset.definition || "";
}

let count = 0;
/** @param {HTMLAnchorElement} term a glossary term's link */
function show(term) {
  const same = open && open.term === term;
  close();
  if (same) return; // a second tap on the term folds its definition away
  const popover = document.createElement("span");
  popover.className = "fm-term-popover";
  popover.id = `fm-term-popover-${++count}`;
  popover.setAttribute("role", "note");
  const text = document.createElement("span");
  text.className = "fm-term-definition";
  text.textContent = definitionOf(term);
  const link = document.createElement("a");
  link.className = "fm-term-entry";
  link.href = term.href;
  link.textContent = `${term.textContent}: full entry in the glossary`;
  popover.append(text, " ", link);
  term.after(popover);
  term.setAttribute("aria-expanded", "true");
  term.setAttribute("aria-controls", popover.id);
  open = { term, popover };
  place();
  // Focus moves to the definition, which a screen reader then reads. The
  // theme's own tooltip for the term (empty now) is kept hidden by the CSS.
  document.getElementById(term.getAttribute("aria-describedby") || "")?.setAttribute("data-fm-term-tooltip", "");
  popover.tabIndex = -1;
  popover.focus({ preventScroll: true });
}

document.addEventListener(
  "click",
  (event) => {
    const term = event.target instanceof Element ? /** @type {HTMLAnchorElement | null} */ (event.target.closest(TERM)) : null;
    if (term && touchOnly.matches && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
      event.preventDefault();
      event.stopPropagation(); // not a navigation: mkdocs-material's instant loading must not follow it
      show(term);
    } else if (open && !open.popover.contains(/** @type {Node | null} */ (event.target))) {
      close();
    }
  },
  true,
);
// mkdocs-material takes a link's title for its own tooltip when the link is
// hovered or focused (a tap focuses it): keep the definition before that.
function keepDefinitions() {
  for (const term of /** @type {NodeListOf<HTMLAnchorElement>} */ (document.querySelectorAll(TERM))) definitionOf(term);
}
document.addEventListener(
  "pointerdown",
  (event) => {
    const term = event.target instanceof Element ? /** @type {HTMLAnchorElement | null} */ (event.target.closest(TERM)) : null;
    if (term && touchOnly.matches) definitionOf(term);
  },
  true,
);
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && open) {
    const term = open.term;
    close();
    term.focus();
  }
});

// The page, or a wide table the term sits in, scrolls: the definition stays with its term.
document.addEventListener("scroll", () => open && follow(), { capture: true, passive: true });
window.addEventListener("resize", () => open && follow());

// Instant navigation swaps the page's content: an open definition goes with it.
function onPage() {
  open = null;
  if (touchOnly.matches) keepDefinitions();
}
if (window.document$) window.document$.subscribe(onPage);
else addEventListener("DOMContentLoaded", () => window.document$?.subscribe(onPage));
