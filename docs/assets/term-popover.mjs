// Glossary terms on a touch screen: a tap shows the term's definition in
// place, with a link to its full entry, instead of leaving the rule. With a
// mouse, the link keeps mkdocs-material's hover tooltip and goes to the entry.
//
// The terms are the links scripts/term_links.py makes (a.glossary-term, the
// definition in their title). One listener on the document serves every page
// that instant navigation shows; document$ closes an open definition when the
// page changes. No rule, no inline script (the site's CSP allows none).

const TERM = "a.glossary-term";
const touchOnly = matchMedia("(hover: none)");
let open = null; // {term, popover}

function close() {
  if (!open) return;
  open.term.setAttribute("aria-expanded", "false");
  open.popover.remove();
  open = null;
}

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
  // Focus moves to the definition, which a screen reader then reads. The
  // theme's own tooltip for the term (empty now) is kept hidden by the CSS.
  document.getElementById(term.getAttribute("aria-describedby") || "")?.setAttribute("data-fm-term-tooltip", "");
  popover.tabIndex = -1;
  popover.focus({ preventScroll: true });
}

document.addEventListener(
  "click",
  (event) => {
    const term = event.target instanceof Element ? event.target.closest(TERM) : null;
    if (term && touchOnly.matches && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
      event.preventDefault();
      event.stopPropagation(); // not a navigation: mkdocs-material's instant loading must not follow it
      show(term);
    } else if (open && !open.popover.contains(event.target)) {
      close();
    }
  },
  true,
);
// mkdocs-material takes a link's title for its own tooltip when the link is
// hovered or focused (a tap focuses it): keep the definition before that.
function keepDefinitions() {
  for (const term of document.querySelectorAll(TERM)) definitionOf(term);
}
document.addEventListener(
  "pointerdown",
  (event) => {
    const term = event.target instanceof Element ? event.target.closest(TERM) : null;
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

// Instant navigation swaps the page's content: an open definition goes with it.
function onPage() {
  open = null;
  if (touchOnly.matches) keepDefinitions();
}
if (window.document$) window.document$.subscribe(onPage);
else addEventListener("DOMContentLoaded", () => window.document$?.subscribe(onPage));
