// The screenshots of docs/view.md, made by the test suite: each page of
// `ananke view` over the history tests/browser/view.sh builds (three runs
// of tests/e2e/view/proj against ananke-mock, the third recorded) is
// loaded in headless Chromium at 1000x700, its key elements read from the
// DOM and compared with view-shots.expect.json (the DOM, not the pixels:
// times and durations differ from one run to the next), and the page is
// captured over the DevTools protocol (Page.captureScreenshot) into
// OUT_DIR/view-NAME.png; with UPDATE_SCREENSHOTS=1, into docs/img/ too.
//
// usage: node view-shots.mjs URL OUT_DIR
// Prints "ok   NAME" / "FAIL NAME" per check; exits 1 if any failed.
import { chromium } from 'playwright-core';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const [base, outDir] = process.argv.slice(2);
if (!base || !outDir) {
  console.error('usage: node view-shots.mjs URL OUT_DIR');
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const docsImg = join(here, '..', '..', 'docs', 'img');
const update = process.env.UPDATE_SCREENSHOTS === '1';
const expected = JSON.parse(readFileSync(join(here, 'view-shots.expect.json'), 'utf8'));

let passed = 0, failed = 0;
function check(name, ok, detail) {
  if (ok) { passed++; console.log(`ok   ${name}`); return; }
  failed++;
  console.log(`FAIL ${name}`);
  if (detail !== undefined) console.log(`    ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`);
}

// What a page is, read from its DOM: the heading, the tables and their
// rows' first two cells, the notes; nothing that changes between runs.
function keyElements() {
  const text = (e) => (e ? e.textContent.replace(/\s+/g, ' ').trim() : null);
  // times and durations are those of this run of the suite
  const stable = (s) => s.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'TIME').replace(/\d+ ms/g, 'N ms')
    .replace(/\b[0-9a-f]{7}\b/g, 'COMMIT');
  // columns and counters that hold the time, a duration or the checkout
  const skipCols = new Set(['started', 'when', 'branch@commit', 'commit', 'duration']);
  const skipRows = /^(duration_ms|ttft_ms) \|/;
  const tables = {};
  for (const t of document.querySelectorAll('main table[id]')) {
    const heads = [...t.querySelectorAll('thead th')].map(text);
    tables[t.id] = [...t.querySelectorAll('tbody tr')]
      .map((tr) => stable([...tr.querySelectorAll('th, td')]
        .filter((c, i) => !skipCols.has(heads[i])).map(text).join(' | ')))
      .filter((r) => !skipRows.test(r));
  }
  return {
    title: document.title,
    h1: text(document.querySelector('h1')),
    forms: [...document.querySelectorAll('main form[id]')].map((f) => f.id),
    tables,
    sparkline: document.querySelectorAll('#spark rect').length,
    conversation: [...document.querySelectorAll('pre.agent, pre.result')].map(text),
    scripts: document.scripts.length,
  };
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  timeout: 60000,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync',
         '--font-render-hinting=none'],
});
try {
  const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const root = base.replace(/\/$/, '');
  // the hostile test's page: its id from the recorded run's page
  await page.goto(root + '/runs/3', { waitUntil: 'load' });
  const testHref = await page.$$eval('#tests tbody a', (as) =>
    as.filter((a) => a.textContent.includes('hostile')).map((a) => a.getAttribute('href'))[0]);
  const pages = [
    ['runs', '/'],
    ['run', '/runs/2'],
    ['test', testHref],
    ['compare', '/compare/1/2'],
    ['flaky', '/flaky'],
  ];
  const seen = {};
  for (const [name, path] of pages) {
    const resp = await page.goto(root + path, { waitUntil: 'load', timeout: 30000 });
    check(`${name}: loads (200)`, resp && resp.status() === 200, resp && resp.status());
    const got = await page.evaluate(keyElements);
    seen[name] = got;
    const want = expected[name];
    check(`${name}: key elements as expected`, JSON.stringify(got) === JSON.stringify(want),
          { got, want });
    const shot = await cdp.send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: false });
    const png = Buffer.from(shot.data, 'base64');
    check(`${name}: screenshot taken (PNG)`, png.subarray(1, 4).toString() === 'PNG', png.length);
    writeFileSync(join(outDir, `view-${name}.png`), png);
    if (update) writeFileSync(join(docsImg, `view-${name}.png`), png);
  }
  writeFileSync(join(outDir, 'view-shots.seen.json'), JSON.stringify(seen, null, 2) + '\n');
  if (update) console.log(`wrote ${pages.length} screenshots to docs/img/`);
} catch (e) {
  check('the pages were captured', false, String((e && e.stack) || e));
} finally {
  await browser.close();
}
console.log(`view-shots: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
