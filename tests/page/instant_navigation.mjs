// Instant navigation, shared by every engine's tab (tests/conftest.py's Tab.navigate in
// Chromium, tests/browser_engines.py's EnginePage.navigate in Firefox and WebKit): marks
// the page on show (its calculators and its content) stale, then clicks a link to `url`,
// which mkdocs-material catches. The caller then waits for the address and a content
// that is not stale (ARRIVED in tests/browser_engines.py).

/** @param {string} url */
export default function navigateInstantly(url) {
  for (const e of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.calculator'))) e.dataset.stale = 'true';
  const content = /** @type {HTMLElement} */ (document.querySelector('.md-content'));
  content.dataset.stale = 'true';
  const a = document.createElement('a');
  a.href = url;
  a.textContent = 'go';
  content.append(a);
  a.click();
  return true;
}
