// The page as a learner meets it, in headless chromium: how big the one script is, how soon the first numbers
// are on screen, how long a host blocks the page creating and removing elements, how fast the default exercise
// and 20 seeds of it run in a tab, and how busy twelve elements keep the main thread.  A phase of
// scripts/bench.mjs; also runs alone (without the bare-worker reference):
//
//   node scripts/bench/page-timing.mjs [--quick]      (needs web/dist: npm run build:web)
//
// First numbers: from navigation start to the demo's top-5 table holding a number (performance.now() in the
// page, polled every animation frame), each load in a fresh browser context (nothing cached), for http and file://.
// Create/remove cycles: page-cycles.mjs; exercises: page-exercise.mjs; twelve elements: page-many.mjs; targets
// and text: page-report.mjs.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

import { chromium } from 'playwright-core';

import { startServer } from '../../tests/web/helpers/server.mjs';
import { createRemove } from './page-cycles.mjs';
import { exercise } from './page-exercise.mjs';
import { manyElements } from './page-many.mjs';
import { renderPage } from './page-report.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const DIST = path.join(REPO, 'web/dist');
const PAGES = path.join(REPO, 'tests/web/pages');
const BUNDLE = path.join(DIST, 'sqrtdk-lab.js');
const LAUNCH_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const FIRST_NUMBER = 'table.top5 tr[data-row="raw"] td[data-cell="top"]';

// Full and --quick (a smoke test: fewer steps, a shorter window, nothing judged that they shorten).
const PLANS = {
  full: { loads: 5, cycleTasks: 9, defaultRepeats: 3, seeds20Repeats: 1, defaultHash: '', seeds20Hash: '#seeds=20', manySeconds: 20 },
  quick: { loads: 2, cycleTasks: 3, defaultRepeats: 1, seeds20Repeats: 1, defaultHash: '#steps=20', seeds20Hash: '#seeds=20&steps=10', manySeconds: 5 },
};
// Create/remove cycles in one task: as many as the target speaks of.
const CYCLES = 100;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

/** ms from navigation start until the first number of the demo is on screen. */
async function firstNumbersMs(browser, url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  const ms = await page.evaluate((selector) => new Promise((resolve) => {
    const poll = () => {
      const lab = document.querySelector('sqrtdk-lab');
      const cell = lab?.shadowRoot?.querySelector(selector);
      if (cell && /\d/.test(cell.textContent)) resolve(performance.now());
      else requestAnimationFrame(poll);
    };
    poll();
  }), FIRST_NUMBER);
  await context.close();
  return ms;
}

/** `repeats` exercises one after the other: every sample, each figure's median and the load over them. */
async function exercises(browser, url, repeats) {
  const samples = [];
  for (let i = 0; i < repeats; i += 1) samples.push(await exercise(browser, url));
  const med = (key) => median(samples.map((s) => s[key]));
  return {
    samples,
    median: { runs: samples[0].runs, steps: samples[0].steps, answerS: med('answerS'), finalS: med('finalS'),
      doneS: med('doneS'), totalStepsPerS: med('totalStepsPerS') },
    load: samples.flatMap((s) => s.load),
  };
}

/**
 * @param {{quick?: boolean, log?: (line: string) => void}} options
 * @returns {Promise<object>} {status: 'ok', quick, bundle, firstNumbers: {http, file, load}, createRemove,
 *   exercises: {default, seeds20}, many} or {status: 'skipped', reason}
 */
export async function measurePage({ quick = false, log = () => {} } = {}) {
  if (!existsSync(BUNDLE)) return { status: 'skipped', reason: 'web/dist is not built (npm run build:web)' };
  if (!existsSync('/usr/bin/chromium')) return { status: 'skipped', reason: 'no /usr/bin/chromium' };
  const plan = PLANS[quick ? 'quick' : 'full'];
  const bytes = readFileSync(BUNDLE);
  const bundle = { bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
  const server = await startServer({ '/': DIST, '/fixtures/': PAGES });
  const fileRoot = mkdtempSync(path.join(tmpdir(), 'sqrtdk-bench-page-'));
  cpSync(DIST, fileRoot, { recursive: true });
  const urls = { http: `${server.origin}/index.html`, file: pathToFileURL(path.join(fileRoot, 'index.html')).href };
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: LAUNCH_ARGS });
  try {
    const firstNumbers = { load: [loadavg()[0]] };
    for (const mode of ['http', 'file']) {
      log(`bench: page first numbers (${mode}), ${plan.loads} loads`);
      const samples = [];
      for (let i = 0; i < plan.loads; i += 1) samples.push(await firstNumbersMs(browser, urls[mode]));
      firstNumbers[mode] = { medianMs: median(samples), samples };
    }
    firstNumbers.load.push(loadavg()[0]);
    // Before the exercises: no training in this browser while it is timed.
    log(`bench: page create/remove, ${plan.cycleTasks} tasks of ${CYCLES} cycles`);
    const createRemoveRow = await createRemove(browser, urls.http, { tasks: plan.cycleTasks, cycles: CYCLES })
      .catch((error) => ({ status: 'failed', reason: String(error.message ?? error) }));
    log(`bench: the default exercise in a tab, ${plan.defaultRepeats}x`);
    const defaultRow = await exercises(browser, urls.http + plan.defaultHash, plan.defaultRepeats);
    log(`bench: 20 seeds of the default exercise in a tab, ${plan.seeds20Repeats}x`);
    const seeds20 = await exercises(browser, urls.http + plan.seeds20Hash, plan.seeds20Repeats);
    log(`bench: 12 elements on one page, ${plan.manySeconds} s`);
    const many = await manyElements(browser, `${server.origin}/fixtures/many-labs.html`, plan.manySeconds)
      .catch((error) => ({ status: 'failed', reason: String(error.message ?? error) }));
    return { status: 'ok', quick, plan, bundle, firstNumbers, createRemove: createRemoveRow, exercises: { default: defaultRow, seeds20 }, many };
  } finally {
    await browser.close();
    await server.close();
    rmSync(fileRoot, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const page = await measurePage({ quick: process.argv.includes('--quick'), log: (l) => process.stderr.write(`${l}\n`) });
  console.log(renderPage(page, { workerStepsPerS: NaN, cores: cpus().length }).join('\n'));
}
