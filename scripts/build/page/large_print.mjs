// Run in a sheet's page by scripts/build/build_sheets_pdf.py (through Playwright)
// before its large print is printed: the class on the root element that raises the
// print stylesheet's one sheet type size (docs/assets/fire-mission.css).

/**
 * @param {string} name the large print's class (build_sheets_pdf.LARGE)
 */
export default function largePrint(name) {
  document.documentElement.classList.add(name);
}
