// Run in a sheet's page by scripts/build/build_sheets_pdf.py (through Playwright)
// before it is printed: every link to the temporary server that serves the build is
// put onto the site's address, or made plain text when the build names none
// (a printed link to 127.0.0.1 would lead nowhere).

/**
 * @param {[string, string]} addresses the temporary server's address, and the site's ("" for none)
 */
export default function unlinkLocal([local, site]) {
  for (const a of document.querySelectorAll("a[href]")) {
    if (!(a instanceof HTMLAnchorElement) || !a.href.startsWith(local)) continue;
    if (site) a.href = site + a.href.slice(local.length);
    else a.removeAttribute("href");
  }
}
