// Run in a sheet's page by scripts/build/build_sheets_pdf.py (through Playwright) as
// it is printed: the text of each notice or control of the web page that the print
// media still lays out, which must never reach paper (the build fails on any).

/** @returns {string[]} each such element's text, once */
export default function webOnlyTexts() {
  const chrome = ".fm-update, .md-banner, .md-announce, .md-dialog, .md-consent, .md-skip, .md-top, button, [role=status], [role=alert]";
  // Only what the print media lays out: a control hidden on paper has no box, and its
  // words (a Roll button's) may well be the page's own prose.
  const shown = [...document.querySelectorAll(chrome)].filter((e) => e.getClientRects().length > 0);
  const texts = shown.map((e) => (e.textContent ?? "").replace(/\s+/g, " ").trim());
  return [...new Set(texts.filter((t) => t.length > 1))];
}
