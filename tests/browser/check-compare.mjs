// Loads the pages of an `ananke compare` evidence pack in headless Chromium
// (Debian's /usr/bin/chromium via playwright-core) and checks what a person
// would see:
//
//   - report.html and the case pages load with no request but for files of
//     the pack (no network at all), no console or page error, no dialog;
//   - the agent's `<script>alert(1)</script>` shows as text on the case page
//     and nothing of it runs; no page has a script that runs (report.html
//     holds one JSON data block: the embedded manifest index);
//   - the embedded manifest index parses, and every file it names exists;
//   - every link of report.html is a file of the pack, and following the
//     regression's link opens its case page (zero clicks to resolve);
//   - the case filter (CSS only) shows only regressions when asked;
//   - screenshots of the overview and of a case page are saved.
//
// usage: node check-compare.mjs PACK_DIR CASE_PAGE EXPECT_REGRESSION OUT_DIR
// Prints "ok   NAME" / "FAIL NAME" per check; exits 1 if any failed.
import { chromium } from 'playwright-core';
import { existsSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';

const [packArg, casePage, regression, outDir] = process.argv.slice(2);
if (!packArg || !casePage || !regression || !outDir) {
  console.error('usage: node check-compare.mjs PACK_DIR CASE_PAGE EXPECT_REGRESSION OUT_DIR');
  process.exit(2);
}
const pack = resolve(packArg);
const packUrl = pathToFileURL(pack + sep).href;

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

function watch(page) {
  const seen = { foreign: [], errors: [], dialogs: [] };
  page.on('request', (req) => {
    const u = req.url();
    if (!u.startsWith(packUrl) && !u.startsWith('data:')) seen.foreign.push(u);
  });
  page.on('console', (m) => { if (m.type() === 'error') seen.errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => seen.errors.push(`pageerror: ${e.message}`));
  page.on('dialog', async (d) => {
    seen.dialogs.push(`${d.type()}: ${d.message()}`);
    await d.dismiss().catch(() => {});
  });
  return seen;
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  timeout: 60000,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.route(/^(https?|wss?|ftp):/, (route) => route.abort());
  const page = await context.newPage();
  const seen = watch(page);

  // --- report.html ---------------------------------------------------------
  const resp = await page.goto(pathToFileURL(join(pack, 'report.html')).href,
                               { waitUntil: 'load', timeout: 30000 });
  check('report.html loads', resp === null || resp.ok());
  await page.waitForTimeout(300);
  const title = await page.title();
  check('title holds the regressions and improvements',
        /^ananke compare: \d+ regressions?, \d+ improvements?$/.test(title), title);
  const rows = await page.$$eval('tr.case', (trs) => trs.map((tr) => ({
    name: tr.querySelector('td.name a')?.textContent ?? '',
    href: tr.querySelector('td.name a')?.getAttribute('href') ?? '',
    cls: tr.className,
  })));
  check('one row per case', rows.length > 0, rows.length);
  const reg = rows.find((r) => r.name === regression);
  check(`"${regression}" is a regression row`, reg && reg.cls.includes('regression'), reg);
  const dom = await page.evaluate(() => ({
    scripts: [...document.scripts].map((s) => s.type),
    pwned: typeof window.__pwned,
  }));
  check('report.html: its only script is the JSON manifest index',
        dom.scripts.length === 1 && dom.scripts[0] === 'application/json', dom.scripts);
  const index = await page.$eval('#embedded-manifest-index', (s) => s.textContent).catch(() => '');
  let parsed = null;
  try { parsed = JSON.parse(index); } catch { /* checked below */ }
  check('embedded manifest index parses', parsed && parsed.manifest_version === 'v1' &&
        Array.isArray(parsed.items) && parsed.items.length > 0);
  const absent = (parsed?.items ?? []).filter((i) => !existsSync(join(pack, i.rel_path)));
  check('every file the index names exists', absent.length === 0, absent.slice(0, 5));
  const links = await page.$$eval('a[href]', (as) => as.map((a) => a.href));
  const outside = links.filter((u) => {
    if (!u.startsWith(packUrl)) return true;
    const f = fileURLToPath(u.split('#')[0]);
    return !existsSync(f) || !statSync(f).isFile();
  });
  check(`every link of report.html is a file of the pack (${links.length} links)`,
        links.length > 0 && outside.length === 0, outside.slice(0, 5));
  // CSS-only filter
  await page.click('label[for="show-reg"]');
  const visible = await page.$$eval('tr.case', (trs) =>
    trs.filter((t) => t.offsetParent !== null).map((t) => t.className));
  check('filter "regressions" shows only regressions',
        visible.length > 0 && visible.every((c) => c.includes('regression')), visible);
  await page.click('label[for="show-all"]');
  await page.screenshot({ path: join(outDir, 'compare-report.png'), fullPage: true });

  // zero clicks to resolve: the link opens the case page directly
  await page.click(`tr.case.regression >> text="${regression}"`);
  await page.waitForLoadState('load');
  check(`the link of "${regression}" opens its case page`, page.url().endsWith(reg.href), page.url());

  // --- a case page: the agent's markup stays text ------------------------------
  await page.goto(pathToFileURL(join(pack, casePage)).href, { waitUntil: 'load', timeout: 30000 });
  await page.waitForTimeout(300);
  const body = await page.evaluate(() => document.body.innerText);
  check('case page shows the agent\'s <script>alert(1)</script> as text',
        body.includes('<script>alert(1)</script>'));
  const cdom = await page.evaluate(() => ({
    scripts: document.scripts.length,
    pwned: typeof window.__pwned,
    injected: document.querySelectorAll('img,iframe,object,embed,form,base').length,
  }));
  check('case page has no script and no injected element',
        cdom.scripts === 0 && cdom.injected === 0 && cdom.pwned === 'undefined', cdom);
  const diff = await page.$$eval('.cell.chg, .cell.only', (c) => c.length);
  check('the replay diff highlights what changed', diff > 0, diff);
  const csp = await page.$eval('meta[http-equiv="Content-Security-Policy"]', (m) => m.content)
    .catch(() => '');
  check('case page CSP allows no source and no script',
        csp.startsWith("default-src 'none';") && csp.includes("script-src 'none'"), csp);
  await page.screenshot({ path: join(outDir, 'compare-case.png'), fullPage: true });

  await page.waitForTimeout(200);
  check('no request outside the pack', seen.foreign.length === 0, seen.foreign);
  check('no console error or page error', seen.errors.length === 0, seen.errors);
  check('no dialog opened', seen.dialogs.length === 0, seen.dialogs);
  await context.close();
} catch (e) {
  check('browser session', false, String(e && e.stack || e));
} finally {
  await browser.close();
}

console.log(`checks: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
