// Shared by the browser tests: build web/dist if needed, launch Debian's chromium through playwright-core,
// open a page from http (the tiny server) or file://, and collect console errors.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from './server.mjs';

export const REPO = fileURLToPath(new URL('../../..', import.meta.url));
export const DIST = join(REPO, 'web/dist');
export const PAGES = join(REPO, 'tests/web/pages');
export const SCREENSHOTS = join(REPO, 'artifacts/screenshots');
export const MODES = ['http', 'file'];

const LAUNCH_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

/** Build web/dist when it is missing or older than any web source. */
export function ensureDist() {
  const newest = (dir) => readdirSync(dir, { withFileTypes: true }).reduce((latest, entry) => {
    const path = join(dir, entry.name);
    return Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }, 0);
  const bundle = join(DIST, 'sqrtdk-lab.js');
  const glue = join(REPO, 'wasm_build/build/sqrtdk_web.wasm');  // and its glue, linked together
  const sources = Math.max(newest(join(REPO, 'web/src')), newest(join(REPO, 'web/pages')), existsSync(glue) ? statSync(glue).mtimeMs : 0);
  if (!existsSync(bundle) || statSync(bundle).mtimeMs < sources) {
    execFileSync(process.execPath, [join(REPO, 'web/build.mjs')], { stdio: 'inherit' });
  }
}

/**
 * Everything a browser test needs, torn down by close(): the server, the browser, a temp folder holding the
 * fixture pages next to a copy of the bundle (for file://).
 */
export async function openLab() {
  ensureDist();
  const server = await startServer({ '/': DIST, '/fixtures/': PAGES });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: LAUNCH_ARGS });
  const fileRoot = mkdtempSync(join(tmpdir(), 'sqrtdk-web-'));
  cpSync(DIST, fileRoot, { recursive: true });
  cpSync(PAGES, join(fileRoot, 'fixtures'), { recursive: true });
  return {
    server,
    browser,
    /** URL of a dist page ('index.html') or fixture ('fixtures/two-labs.html') in a mode, plus a hash. */
    url(mode, path, hash = '') {
      const base = mode === 'http' ? `${server.origin}/${path}` : pathToFileURL(join(path.startsWith('fixtures/') ? fileRoot : DIST, path)).href;
      return base + hash;
    },
    async close() {
      await browser.close();
      await server.close();
      rmSync(fileRoot, { recursive: true, force: true });
    },
  };
}

/**
 * A new page (own context) that records console errors, page errors and dialogs.
 * @returns {Promise<{page, context, errors: string[], dialogs: string[]}>}
 */
export async function newPage(browser, { width = 1280, height = 900, colorScheme = 'light', permissions = [] } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, colorScheme, acceptDownloads: true });
  if (permissions.length) await context.grantPermissions(permissions);
  const page = await context.newPage();
  const errors = [];
  const dialogs = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss().catch(() => {}); });
  page.on('worker', (w) => w.on('console', (m) => { if (m.type() === 'error') errors.push(`worker console: ${m.text()}`); }));
  return { page, context, errors, dialogs };
}

/** Locator inside the n-th <sqrtdk-lab> (Playwright's CSS pierces shadow roots). */
export function lab(page, index = 0) {
  return page.locator('sqrtdk-lab').nth(index);
}

/** Total steps done by a lab's runs (the run table's data attribute). */
export async function stepsDone(page, index = 0) {
  return Number(await lab(page, index).locator('.runs').getAttribute('data-steps-done') ?? 0);
}

/**
 * Wait until a lab's exercise is at rest: not running, no run training or loading (a chunk already computing
 * when Pause was pressed still lands), the charts drawn up to the last step (data-drawn-steps) and the latest answer
 * drawn with none on its way (data-drawn-answer, data-answer-version, data-answer-pending).
 */
export async function waitForRest(page, index = 0, timeout = 60000) {
  await page.waitForFunction((i) => {
    const root = document.querySelectorAll('sqrtdk-lab')[i].shadowRoot;
    const panel = root.querySelector('[data-panel="train"]');
    const busy = root.querySelector('.run-table tr[data-status="training"], .run-table tr[data-status="loading"], .run-table tr[data-status="memory"]');
    return panel.dataset.running === 'false' && !busy && panel.dataset.drawnSteps === root.querySelector('.runs').dataset.stepsDone
      && panel.dataset.answerPending !== 'true' && panel.dataset.drawnAnswer === panel.dataset.answerVersion;
  }, index, { timeout });
}

/** Wait until the softmax printout shows numbers. */
export async function waitForDemo(page, index = 0) {
  await lab(page, index).locator('table.top5 tr[data-row="raw"] td[data-cell="top"]').waitFor({ timeout: 90000 });
}

export function ensureScreenshotDir() {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return SCREENSHOTS;
}

/**
 * With the default two-run plan (scaled and unscaled, one seed) training, wait until every run has 10 steps, then
 * throw an uncaught error inside the worker of unscaled seed 0.  The pool (web/src/worker/worker-pool.js) puts the
 * plan's second run on its second worker, or on its only worker with one core.
 */
export async function crashWorkerOfSecondRun(page) {
  await page.waitForFunction(() => [...document.querySelector('sqrtdk-lab').shadowRoot.querySelectorAll('.run-table tbody tr')]
    .every((r) => Number(r.dataset.steps) >= 10), null, { timeout: 60000 });
  let victim = null;
  for (const worker of page.workers()) {
    const name = await worker.evaluate(() => self.name).catch(() => '');
    if (name === 'sqrtdk-run 2' || (name === 'sqrtdk-run 1' && !victim)) victim = worker;
  }
  if (!victim) throw new Error('no run worker found to crash');
  await victim.evaluate(() => { setTimeout(() => { throw new Error('simulated crash'); }, 0); });
}

/** A number as the page writes it, powers of ten included ('0.01', '10⁻⁵', '2.5×10⁴'). */
export function pageNumber(text) {
  const power = /^(?:(.+)×)?10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)$/.exec(text);
  if (!power) return Number(text);
  const exponent = Number([...power[2]].map((c) => (c === '⁻' ? '-' : '⁰¹²³⁴⁵⁶⁷⁸⁹'.indexOf(c))).join(''));
  return Number(power[1] ?? 1) * 10 ** exponent;
}
