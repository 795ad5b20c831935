// Loads an `ananke comply` HTML page (the --merge page of several protocols)
// in headless Chromium and checks what a person would see:
//   - no request but for the page itself, no console error (a CSP violation,
//     e.g. a stale script hash, is one), no page error, no dialog;
//   - the hostile agent name did not run (one <script>, window.__pwned unset)
//     and shows as text;
//   - the matrix cells are coloured (a FAIL cell's background is not a PASS
//     cell's), a FAIL cell's link opens its test's section;
//   - the page's script runs: "expand all" opens every test section;
//   - a full-page screenshot is saved.
// usage: node check-comply.mjs PAGE.html HOSTILE-TEXT SCREENSHOT.png
// Prints "ok   NAME" / "FAIL NAME" per check and exits 1 if any failed.
import { chromium } from 'playwright-core';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [pageArg, hostile, shot] = process.argv.slice(2);
const url = pathToFileURL(resolve(pageArg)).href;
let failed = 0;
function check(name, ok, detail) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}`);
  if (!ok) {
    failed++;
    if (detail !== undefined) console.log(`    ${JSON.stringify(detail)}`);
  }
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium', headless: true, timeout: 60000,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.route(/^(https?|wss?|ftp):/, (route) => route.abort());
  const page = await context.newPage();
  const foreign = [], errors = [], dialogs = [];
  page.on('request', (r) => { if (r.url() !== url && !r.url().startsWith('data:')) foreign.push(r.url()); });
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('dialog', async (d) => { dialogs.push(d.message()); await d.dismiss().catch(() => {}); });
  await page.goto(url, { waitUntil: 'load', timeout: 30000 });
  await page.waitForTimeout(300);
  check('comply page: no request made', foreign.length === 0, foreign);
  check('comply page: no console or page error', errors.length === 0, errors);
  check('comply page: no dialog', dialogs.length === 0, dialogs);
  const scripts = await page.$$eval('script', (s) => s.length);
  check('comply page: one script, the page\'s own', scripts === 1, scripts);
  check('comply page: injected markup did not run', !(await page.evaluate(() => window.__pwned)));
  const text = await page.evaluate(() => document.body.innerText);
  check('comply page: the hostile name shows as text', text.includes(hostile));
  const bg = async (sel) => page.$eval(sel, (e) => getComputedStyle(e).backgroundColor);
  const pass = await bg('td.cell.pass'), fail = await bg('td.cell.fail');
  check('comply page: PASS and FAIL cells are coloured apart', pass !== fail, { pass, fail });
  const href = await page.$eval('td.cell.fail a', (a) => a.getAttribute('href'));
  await page.click('td.cell.fail a');
  const opened = await page.$eval(href, (d) => d.open && d.getBoundingClientRect().top < innerHeight);
  check('comply page: a FAIL cell leads to its open test section', opened, href);
  await page.click('button[data-open="1"]');
  const closed = await page.$$eval('details.test', (ds) => ds.filter((d) => !d.open).length);
  check('comply page: expand all opens every test', closed === 0, closed);
  await page.screenshot({ path: shot, fullPage: false });
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
