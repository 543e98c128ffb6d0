// The page as a learner meets it, in headless chromium: how big the one script is, how soon the first numbers
// are on screen, and how fast the default exercise runs in a tab.  A phase of scripts/bench.mjs; also runs alone:
//
//   node scripts/bench/page-timing.mjs [--quick]      (needs web/dist: npm run build:web)
//
// First numbers: from navigation start to the demo's top-5 table holding a number (performance.now() in the
// page, polled every animation frame), each load in a fresh browser context (nothing cached), for http and file://.
// Exercise: index.html, Start with the defaults (2 variants x 3 seeds, 400 steps): seconds to the answer, seconds
// until every run is done, total training steps per second over the whole exercise.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

import { chromium } from 'playwright-core';

import { startServer } from '../../tests/web/helpers/server.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const DIST = path.join(REPO, 'web/dist');
const BUNDLE = path.join(DIST, 'sqrtdk-lab.js');
const LAUNCH_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const FIRST_NUMBER = 'table.top5 tr[data-row="raw"] td[data-cell="top"]';

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

/** The default exercise from Start: answer, all done, steps/s in total. */
async function exercise(browser, url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  const lab = page.locator('sqrtdk-lab').first();
  await lab.locator(FIRST_NUMBER).waitFor({ timeout: 60000 });
  const runs = await page.evaluate(() => {
    const s = document.querySelector('sqrtdk-lab');
    return s.settings ? s.settings.variants.length * s.settings.seeds : 6;
  }).catch(() => 6);
  const started = Date.now();
  await lab.locator('button', { hasText: 'Start' }).first().click();
  await lab.locator('.answer[data-ready="true"]').waitFor({ timeout: 600000 });
  const answerS = (Date.now() - started) / 1000;
  await lab.locator('.answer[data-final="true"]').waitFor({ timeout: 900000 });
  const doneS = (Date.now() - started) / 1000;
  await context.close();
  const steps = 400 * runs;
  return { runs, answerS, doneS, totalStepsPerS: steps / doneS };
}

/**
 * @param {{repeats?: number, log?: (line: string) => void}} options
 * @returns {Promise<object>} {bundle, firstNumbers: {http, file}, exercise} or {status: 'skipped', reason}
 */
export async function measurePage({ repeats = 5, log = () => {} } = {}) {
  if (!existsSync(BUNDLE)) return { status: 'skipped', reason: 'web/dist is not built (npm run build:web)' };
  if (!existsSync('/usr/bin/chromium')) return { status: 'skipped', reason: 'no /usr/bin/chromium' };
  const bytes = readFileSync(BUNDLE);
  const bundle = { bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length };
  const server = await startServer({ '/': DIST });
  const fileRoot = mkdtempSync(path.join(tmpdir(), 'sqrtdk-bench-page-'));
  cpSync(DIST, fileRoot, { recursive: true });
  const urls = { http: `${server.origin}/index.html`, file: pathToFileURL(path.join(fileRoot, 'index.html')).href };
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: LAUNCH_ARGS });
  try {
    const firstNumbers = {};
    for (const mode of ['http', 'file']) {
      log(`bench: page first numbers (${mode}), ${repeats} loads`);
      const samples = [];
      for (let i = 0; i < repeats; i += 1) samples.push(await firstNumbersMs(browser, urls[mode]));
      firstNumbers[mode] = { medianMs: median(samples), samples };
    }
    log('bench: the default exercise in a tab');
    return { status: 'ok', bundle, firstNumbers, exercise: await exercise(browser, urls.http) };
  } finally {
    await browser.close();
    await server.close();
    rmSync(fileRoot, { recursive: true, force: true });
  }
}

/** Text lines; `workerStepsPerS`: one worker's canonical steps/s in chromium (the step-server figure). */
export function renderPage(page, workerStepsPerS, cores) {
  if (!page || page.status !== 'ok') return [`page: skipped (${page?.reason ?? 'not measured'})`];
  const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
  const kb = (n) => `${(n / 1000).toFixed(0)} KB`;
  const e = page.exercise;
  const lines = [
    `sqrtdk-lab.js: ${kib(page.bundle.bytes)}, ${kb(page.bundle.gzipBytes)} gzipped   (targets <= 400 KiB, <= 160 KB)`,
    `first numbers on screen after navigation (median of ${page.firstNumbers.http.samples.length}): `
      + `http ${page.firstNumbers.http.medianMs.toFixed(0)} ms, file:// ${page.firstNumbers.file.medianMs.toFixed(0)} ms   (target <= 800 ms)`,
    `default exercise (${e.runs} runs x 400 steps): answer after ${e.answerS.toFixed(1)} s (target <= 8 s), `
      + `all done after ${e.doneS.toFixed(1)} s, ${e.totalStepsPerS.toFixed(0)} steps/s in total`,
  ];
  if (Number.isFinite(workerStepsPerS)) {
    const ideal = workerStepsPerS * Math.min(cores, e.runs);
    lines.push(`  vs one worker's ${workerStepsPerS.toFixed(1)} steps/s x min(${cores} cores, ${e.runs} runs) = ${ideal.toFixed(0)}: `
      + `${((100 * e.totalStepsPerS) / ideal).toFixed(0)} %   (target >= 90 %)`);
  }
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const quick = process.argv.includes('--quick');
  const page = await measurePage({ repeats: quick ? 2 : 5, log: (l) => process.stderr.write(`${l}\n`) });
  console.log(renderPage(page, NaN, cpus().length).join('\n'));
}
