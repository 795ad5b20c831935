// Loads an ananke HTML report in headless Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core, which downloads no browser) and checks what a
// person would see:
//
//   - the page makes no request but for the report file itself (or data:),
//     logs no console error and throws no page error (a CSP violation, e.g. a
//     stale script hash, is a console error);
//   - an agent's injected markup did not run: no dialog, window.__pwned unset,
//     no <img>, one <script> (the report's own), and the payload shows as text;
//   - every expected test is there with its status, failed assertions appear
//     inside their test, and the expected texts are visible;
//   - the page's script works (expand all / collapse all, the search box by
//     name, file or tag), failures come first, the status filter works, and
//     with JavaScript off the page still shows and filters;
//   - a full-page screenshot is saved.
//
// usage: node check-report.mjs REPORT.html EXPECT.json SCREENSHOT.png
// EXPECT.json: {"tests": [{"name", "status", "open"?}], "failures": [{"test", "assertion"}],
//               "texts": ["visible text", ...]}
// A test is expected open unless it passed (override with "open").
// Prints "ok   NAME" / "FAIL NAME" per check and exits 1 if any failed.
import { chromium } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [reportArg, expectArg, shotArg] = process.argv.slice(2);
if (!reportArg || !expectArg || !shotArg) {
  console.error('usage: node check-report.mjs REPORT.html EXPECT.json SCREENSHOT.png');
  process.exit(2);
}
const reportUrl = pathToFileURL(resolve(reportArg)).href;
const expect = JSON.parse(readFileSync(expectArg, 'utf8'));

let passed = 0, failed = 0;
function check(name, ok, detail) {
  if (ok) {
    passed++;
    console.log(`ok   ${name}`);
  } else {
    failed++;
    console.log(`FAIL ${name}`);
    if (detail !== undefined)
      console.log(`    ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`);
  }
}

// Every page gets listeners before it loads anything.
function watch(page) {
  const seen = { requests: [], foreign: [], errors: [], dialogs: [] };
  page.on('request', (req) => {
    const u = req.url();
    seen.requests.push(u);
    if (u !== reportUrl && !u.startsWith('data:')) seen.foreign.push(u);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') seen.errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => seen.errors.push(`pageerror: ${e.message}`));
  page.on('dialog', async (d) => {
    seen.dialogs.push(`${d.type()}: ${d.message()}`);
    await d.dismiss().catch(() => {});
  });
  return seen;
}

// Nothing may leave the machine whatever the page tries: the check above
// records a request, this aborts it.
async function fence(context) {
  await context.route(/^(https?|wss?|ftp):/, (route) => route.abort());
}

// `chromium.launch` starts Chromium with a fresh temporary profile
// (user-data dir) that playwright removes on close.
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  timeout: 60000,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

try {
  // --- scripts on ---------------------------------------------------------
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await fence(context);
  const page = await context.newPage();
  const seen = watch(page);
  const resp = await page.goto(reportUrl, { waitUntil: 'load', timeout: 30000 });
  check('report loads', resp === null || resp.ok(), resp && resp.status());
  await page.waitForTimeout(300); // let late errors or requests surface

  const title = await page.title();
  check('title holds the totals', /^ananke: \d+ passed, \d+ failed, \d+ errors?$/.test(title), title);

  const tests = await page.$$eval('details.test', (els) => els.map((d) => ({
    name: d.querySelector('.tname')?.textContent ?? '',
    status: d.dataset.status,
    badge: d.querySelector('.badge')?.textContent ?? '',
    open: d.open,
    findings: [...d.querySelectorAll('.finding .title')].map((f) => f.textContent),
  })));
  check('one section per expected test', tests.length === expect.tests.length,
        tests.map((t) => t.name));
  for (const want of expect.tests) {
    const got = tests.find((t) => t.name === want.name);
    check(`test "${want.name}" shown as ${want.status}`,
          got && got.status === want.status && got.badge === want.status.toUpperCase() &&
          got.open === (want.open ?? want.status !== 'pass'), got);
  }
  for (const f of expect.failures ?? []) {
    const got = tests.find((t) => t.name === f.test);
    check(`failure "${f.assertion}" shown in "${f.test}"`,
          got && got.findings.some((x) => x.includes(f.assertion)), got && got.findings);
  }
  for (const f of expect.failures ?? []) {
    // a failed assertion is red and visible where it failed (failing tests are open)
    const color = await page.evaluate((a) => {
      const el = [...document.querySelectorAll('.finding .title')]
        .find((e) => e.textContent.includes(a));
      if (!el || !el.offsetParent) return null;
      return getComputedStyle(el).color;
    }, f.assertion);
    const m = color && color.match(/\d+/g).map(Number);
    check(`failure "${f.assertion}" visible in red`, m && m[0] > 150 && m[1] < 120, color);
  }
  const body = await page.evaluate(() => document.body.innerText);
  for (const t of expect.texts ?? [])
    check(`shows text ${JSON.stringify(t).slice(0, 70)}`, body.includes(t));

  // injected markup stayed text
  const dom = await page.evaluate(() => ({
    pwned: typeof window.__pwned,
    images: document.images.length,
    scripts: document.scripts.length,
    iframes: document.querySelectorAll('iframe,object,embed,link,base,form').length,
  }));
  check('injected script did not run (window.__pwned unset)', dom.pwned === 'undefined', dom);
  check('no dialog opened', seen.dialogs.length === 0, seen.dialogs);
  check('no injected element (img, iframe, link, ...)', dom.images === 0 && dom.iframes === 0, dom);
  check('exactly one script element (the report\'s own)', dom.scripts === 1, dom);
  const csp = await page.$eval('meta[http-equiv="Content-Security-Policy"]',
                               (m) => m.content).catch(() => '');
  check('CSP allows no source by default', csp.startsWith("default-src 'none';"), csp);

  // the report's own script runs (its CSP hash matches) and works
  const buttons = await page.$$eval('button[data-open]', (bs) => bs.map((b) => !b.hidden));
  check('script ran: expand/collapse buttons shown', buttons.length === 2 && buttons.every(Boolean),
        buttons);
  await page.click('button[data-open="0"]');
  const closed = await page.$$eval('details.test', (ds) => ds.every((d) => !d.open));
  await page.click('button[data-open="1"]');
  const opened = await page.$$eval('details.test', (ds) => ds.every((d) => d.open));
  check('collapse all / expand all', closed && opened, { closed, opened });

  // status filter (CSS only)
  const visible = () => page.$$eval('details.test', (ds) =>
    ds.filter((d) => d.offsetParent !== null).map((d) => d.dataset.status));
  await page.click('label[for="show-fail"]');
  const onlyFail = await visible();
  await page.click('label[for="show-all"]');
  const all = await visible();
  const nfail = expect.tests.filter((t) => t.status === 'fail').length;
  check('filter "failed" shows only failed tests',
        onlyFail.length === nfail && onlyFail.every((s) => s === 'fail'), onlyFail);
  check('filter "all" shows every test', all.length === expect.tests.length, all);

  // failures first: nothing that failed the run after a test that did not
  const failing = (t) => (t.status === 'fail' || t.status === 'error') && t.badge !== 'XFAIL';
  const firstOk = tests.findIndex((t) => !failing(t));
  check('failures first: no failed or errored test after one that passed',
        firstOk < 0 || !tests.slice(firstOk).some(failing), tests.map((t) => t.name));
  if (expect.order)
    check('tests in the expected order', JSON.stringify(tests.map((t) => t.name)) ===
          JSON.stringify(expect.order), tests.map((t) => t.name));

  // the search box (shown by the script) filters by name, file or tag as one types
  const shownNames = () => page.$$eval('details.test', (ds) =>
    ds.filter((d) => d.offsetParent !== null).map((d) => d.querySelector('.tname')?.textContent ?? ''));
  const search = await page.$('#search');
  check('script ran: search box shown', !!search && await search.isVisible());
  for (const s of expect.searches ?? []) {
    await page.fill('#search', s.query);
    const got = await shownNames();
    check(`search ${JSON.stringify(s.query)} shows ${JSON.stringify(s.shows)}`,
          JSON.stringify(got) === JSON.stringify(s.shows), got);
  }
  if (search)
    await page.fill('#search', '');

  await page.screenshot({ path: shotArg, fullPage: true });
  check('screenshot saved', true);

  await page.waitForTimeout(200);
  check('no request but the report itself', seen.foreign.length === 0, seen.foreign);
  check('no console error or page error', seen.errors.length === 0, seen.errors);
  await context.close();

  // --- scripts off: the page is complete without its script ---------------
  const ctx2 = await browser.newContext({ javaScriptEnabled: false,
                                          viewport: { width: 1280, height: 900 } });
  await fence(ctx2);
  const page2 = await ctx2.newPage();
  const seen2 = watch(page2);
  await page2.goto(reportUrl, { waitUntil: 'load', timeout: 30000 });
  const failOpen = await page2.$$eval('details.test:not(.pass)', (ds) =>
    ds.length > 0 && ds.every((d) => d.open && d.offsetParent !== null));
  check('scripts off: failed tests open and visible', failOpen);
  check('scripts off: no search box (it needs the script)',
        await page2.$eval('#search', (e) => e.offsetParent === null).catch(() => true));
  await page2.click('label[for="show-pass"]');
  const onlyPass = await page2.$$eval('details.test', (ds) =>
    ds.filter((d) => d.offsetParent !== null).map((d) => d.dataset.status));
  check('scripts off: filter "passed" works',
        onlyPass.length === expect.tests.filter((t) => t.status === 'pass').length &&
        onlyPass.every((s) => s === 'pass'), onlyPass);
  check('scripts off: no request, no error',
        seen2.foreign.length === 0 && seen2.errors.length === 0 && seen2.dialogs.length === 0,
        seen2);
  await ctx2.close();
} catch (e) {
  check('browser session', false, String(e && e.stack || e));
} finally {
  await browser.close();
}

console.log(`checks: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
