// Debian's Firefox ESR for the tests, over WebDriver BiDi (npm puppeteer-core):
// a line of JSON in on stdin, a line of JSON out on stdout, so that the checks
// stay in Python (tests/browser_engines.py, FirefoxEngine). It holds no test.
//
//   in:  {"id": 1, "op": "goto", "page": "p1", "url": "http://..."}
//   out: {"id": 1, "ok": <result>}  or  {"id": 1, "error": "message"}
//
// First line out: {"ready": "<browser version>"}. A function travels as its
// source ("(a, b) => ...") and runs in the page with the JSON arguments given;
// WebDriver BiDi runs it outside the page's CSP, which refuses eval.
// Console errors and uncaught page errors are kept per page until "errors" reads them.
// argv[2]: the Firefox preferences as JSON (the tests emulate a touch screen).

import readline from "node:readline";
import puppeteer from "puppeteer-core";

const FIREFOX = process.env.FIREFOX || "/usr/bin/firefox-esr";
const prefs = JSON.parse(process.argv[2] || "{}");

const browser = await puppeteer.launch({
  browser: "firefox",
  protocol: "webDriverBiDi",
  executablePath: FIREFOX,
  headless: true,
  extraPrefsFirefox: prefs,
});

const pages = new Map();
let next = 0;

const asFunction = (source) => new Function(`return (${source});`)();

const ops = {
  async newPage({ width = 1280, height = 900 }) {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width, height });
    const errors = [];
    page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
    page.on("pageerror", (e) => errors.push(`page error: ${e}`));
    const id = `p${++next}`;
    pages.set(id, { context, page, errors });
    return id;
  },
  async close({ page }) {
    await pages.get(page).context.close();
    pages.delete(page);
  },
  async goto({ page, url }) {
    const response = await pages.get(page).page.goto(url, { waitUntil: "domcontentloaded" });
    return response ? response.status() : null;
  },
  async eval({ page, fn, args = [] }) {
    return pages.get(page).page.evaluate(asFunction(fn), ...args);
  },
  async wait({ page, fn, args = [], timeout }) {
    const handle = await pages.get(page).page.waitForFunction(asFunction(fn), { timeout, polling: 100 }, ...args);
    return handle.jsonValue();
  },
  async click({ page, selector }) {
    await pages.get(page).page.locator(selector).click();
  },
  async fill({ page, selector, value }) {
    await pages.get(page).page.locator(selector).fill(value);
  },
  async select({ page, selector, value }) {
    await pages.get(page).page.select(selector, value);
  },
  // The page as Firefox prints it to PDF (WebDriver BiDi's browsingContext.print: print media, A4).
  async pdf({ page, path }) {
    await pages.get(page).page.pdf({ path, format: "A4", printBackground: true, preferCSSPageSize: true });
  },
  async errors({ page }) {
    const { errors } = pages.get(page);
    return errors.splice(0);
  },
};

const reply = (message) => process.stdout.write(JSON.stringify(message) + "\n");
reply({ ready: await browser.version() });

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  const { id, op, ...args } = JSON.parse(line);
  try {
    const ok = await ops[op](args);
    reply({ id, ok: ok === undefined ? null : ok });
  } catch (error) {
    reply({ id, error: String(error && error.message ? error.message : error) });
  }
}
await browser.close();
