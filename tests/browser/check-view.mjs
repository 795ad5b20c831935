// `ananke view` in headless Chromium (Debian's /usr/bin/chromium via
// playwright-core): the pages of a server on 127.0.0.1 over a history of
// three runs (tests/browser/view.sh makes it), checked as a person sees
// them:
//
//   - every page loads with no console or page error, no dialog, and no
//     request but to the server itself (the style sheet); no page holds a
//     script;
//   - the style sheet applies under the page's Content-Security-Policy;
//   - the runs list's filter and the run page's search work (GET forms);
//   - a run page shows its failure first; the side-by-side view marks the
//     regression; the flaky table names the flaky test;
//   - the hostile test's page shows the agent's <script>alert(1)</script>
//     and the tool's <img onerror> as text, and nothing of it runs;
//   - screenshots: view-runs.png, view-run.png, view-test.png, view-compare.png.
//
// usage: node check-view.mjs URL OUT_DIR
// Prints "ok   NAME" / "FAIL NAME" per check; exits 1 if any failed.
import { chromium } from 'playwright-core';
import { join } from 'node:path';

const [base, outDir] = process.argv.slice(2);
if (!base || !outDir) {
  console.error('usage: node check-view.mjs URL OUT_DIR');
  process.exit(2);
}
const origin = new URL(base).origin;

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

const seen = { foreign: [], errors: [], dialogs: [] };
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  timeout: 60000,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

async function visit(page, path, name) {
  const before = seen.errors.length;
  const resp = await page.goto(base.replace(/\/$/, '') + path, { waitUntil: 'load', timeout: 30000 });
  check(`${name}: loads (200)`, resp && resp.status() === 200, resp && resp.status());
  const scripts = await page.evaluate(() => document.scripts.length);
  check(`${name}: no script`, scripts === 0, scripts);
  check(`${name}: no console or page error`, seen.errors.length === before,
        seen.errors.slice(before));
}

try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.on('request', (req) => { if (!req.url().startsWith(origin + '/')) seen.foreign.push(req.url()); });
  page.on('console', (m) => { if (m.type() === 'error') seen.errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => seen.errors.push(`pageerror: ${e.message}`));
  page.on('dialog', async (d) => { seen.dialogs.push(`${d.type()}: ${d.message()}`); await d.dismiss().catch(() => {}); });

  // --- the runs, the filter ---------------------------------------------
  await visit(page, '/', 'runs');
  const runs = await page.$$eval('#runs tbody tr td:first-child a', (as) => as.map((a) => a.textContent));
  check('runs: #3, #2, #1 newest first', JSON.stringify(runs) === '["#3","#2","#1"]', runs);
  const bg = await page.$eval('nav', (n) => getComputedStyle(n).borderBottomStyle);
  check('the style sheet applies under the CSP', bg === 'solid', bg);
  await page.screenshot({ path: join(outDir, 'view-runs.png'), fullPage: true });
  await page.selectOption('select[name="status"]', 'failing');
  await Promise.all([page.waitForNavigation(), page.click('#filters button')]);
  const failing = await page.$$eval('#runs tbody tr td:first-child a', (as) => as.map((a) => a.textContent));
  check('filter status=failing: only #2', JSON.stringify(failing) === '["#2"]', failing);

  // --- a run: failures first, search -------------------------------------
  await visit(page, '/runs/2', 'run #2');
  const first = await page.$eval('#tests tbody tr', (tr) => tr.textContent);
  check('run #2: the failure first', /^fail\s*flip/.test(first.trim()), first);
  await page.screenshot({ path: join(outDir, 'view-run.png'), fullPage: true });
  await page.fill('#search input[name="q"]', 'stead');
  await Promise.all([page.waitForNavigation(), page.click('#search button')]);
  const found = await page.$$eval('#tests tbody tr td:nth-child(2) a', (as) => as.map((a) => a.textContent));
  check('search "stead": only steady', JSON.stringify(found) === '["steady"]', found);

  // --- the hostile test of the recorded run -------------------------------
  await visit(page, '/runs/3', 'run #3');
  const tags = await page.$$eval('.tag', (ts) => ts.map((t) => t.textContent));
  check('run #3: the tags shown as text', tags.includes('<u>tag</u>') && tags.includes('security'), tags);
  await Promise.all([page.waitForNavigation(), page.click('#tests a:has-text("hostile")')]);
  const url = page.url();
  check('the hostile test page opens', /\/runs\/3\/tests\/[0-9a-f]{16}$/.test(url), url);
  const shown = await page.evaluate(() => ({
    name: document.getElementById('name')?.textContent,
    agent: document.querySelector('pre.agent')?.textContent,
    result: document.querySelector('pre.result')?.textContent,
    imgs: document.images.length,
    italics: document.querySelectorAll('main i, main u, main b').length,
    bars: document.querySelectorAll('#spark rect').length,
  }));
  check('the name shows as text', shown.name === '<i>hostile</i> & "quoted"', shown.name);
  check('the agent\'s <script> shows as text', shown.agent === '<script>alert(1)</script>', shown.agent);
  check('the tool result\'s <img> shows as text', shown.result === '<img src=x onerror=alert(2)>', shown.result);
  check('no element made of agent text', shown.imgs === 0 && shown.italics === 0, shown);
  check('the sparkline has the 3 runs', shown.bars === 3, shown.bars);
  await page.screenshot({ path: join(outDir, 'view-test.png'), fullPage: true });

  // --- side by side, flaky --------------------------------------------------
  await visit(page, '/compare/1/2', 'compare');
  const reg = await page.$$eval('#compare tr.regressed td:first-child', (tds) => tds.map((t) => t.textContent));
  check('compare 1/2: flip regressed, listed first', JSON.stringify(reg) === '["flip"]', reg);
  await page.screenshot({ path: join(outDir, 'view-compare.png'), fullPage: true });
  await visit(page, '/flaky', 'flaky');
  const flaky = await page.$$eval('#flaky tbody td:nth-child(5)', (tds) => tds.map((t) => t.textContent));
  check('flaky: flip', flaky[0] === 'flip', flaky);

  check('no request left the server', seen.foreign.length === 0, seen.foreign.slice(0, 5));
  check('no dialog opened (nothing ran)', seen.dialogs.length === 0, seen.dialogs);
} catch (e) {
  check('the pages were browsed', false, String(e && e.stack || e));
} finally {
  await browser.close();
}
console.log(`view: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
