// Installed in WebKit by tests/browser_engines.py (WebKitPage.goto) once a page has
// loaded, since WebKitWebDriver reports no console: the page's errors from then on, kept
// in window.__fmErrors for the test to read.

export default function keepErrors() {
  const page = /** @type {Window & {__fmErrors?: string[]}} */ (window);
  if (page.__fmErrors) return;
  const errors = (page.__fmErrors = /** @type {string[]} */ ([]));
  // The one window error that is no error: resize notifications left for the next
  // frame, which the ResizeObserver spec has browsers report as an ErrorEvent with
  // no exception behind it. WebKit reported it once on po-counter-battery, where
  // the only observer at work is Material's own, in its bundle (the page's map and
  // comparison observe nothing there). Chromium's and Firefox's hooks here
  // (pageerror, console errors) never see it. Any other page error is kept.
  const NOTICE = 'ResizeObserver loop completed with undelivered notifications.';
  const original = console.error.bind(console);
  console.error = (...args) => { errors.push(args.map(String).join(' ')); original(...args); };
  addEventListener('error', e => {
    if (e.message === NOTICE) return;
    errors.push('page error: ' + (e.message || e.type) + (e.filename ? ` (${e.filename}:${e.lineno}:${e.colno})` : ''));
  });
  addEventListener('unhandledrejection', e => errors.push('unhandled rejection: ' + (e.reason && e.reason.stack || e.reason && e.reason.message || e.reason)));
}
