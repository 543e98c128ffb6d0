// Nothing the lab does reaches the host page's window as an error: a host's error tracker (window.onerror,
// unhandledrejection) sees nothing while a learner uses every panel, at a desktop and a phone width, including
// a ResizeObserver loop ("ResizeObserver loop completed with undelivered notifications").
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, newPage, openLab } from './helpers/browser.mjs';
import { recordEvents, waitForEvents } from './helpers/api-events.mjs';

let env;
test.before(async () => { env = await openLab(); });
test.after(async () => { await env.close(); });

/** Record what a host's error tracker would see, from before the page's scripts run. */
async function recordWindowErrors(page) {
  await page.addInitScript(() => {
    window.hostErrors = [];
    window.addEventListener('error', (event) => window.hostErrors.push(`error: ${event.message}`));
    window.addEventListener('unhandledrejection', (event) => window.hostErrors.push(`unhandledrejection: ${event.reason?.message ?? event.reason}`));
  });
}

for (const width of [1280, 390]) {
  test(`${width} px: every panel, trained and resized, sends no error to the host's window`, async () => {
    const { page, context, errors } = await newPage(env.browser, { width });
    await recordWindowErrors(page);
    await recordEvents(page);
    await page.goto(env.url('http', 'index.html', '#panels=softmax,train&seeds=1&steps=40&evalEvery=20'));
    await waitForEvents(page, 'sqrtdk-ready');
    const l = lab(page);
    await l.locator('table.top5 tr[data-row="raw"] td[data-cell="top"]').waitFor({ timeout: 90000 });
    await l.locator('button', { hasText: 'Start' }).click();
    await waitForEvents(page, 'sqrtdk-answer', 1, 90000);
    await page.waitForFunction(() => window.sqrtdkEvents.some((e) => e.name === 'sqrtdk-progress' && !e.detail.running && e.detail.runsFinished === e.detail.runs));
    // Widths across the layout's break points, each left to settle for two animation frames.
    for (const w of [width, 900, 390, 640, 1280, width]) {
      await page.setViewportSize({ width: w, height: 900 });
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    }
    // Each panel alone, then both again (panels are shown and hidden by the setting).
    for (const panels of [['softmax'], ['train'], ['softmax', 'train']]) {
      await page.evaluate((p) => { document.querySelector('sqrtdk-lab').settings = { panels: p }; }, panels);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    }
    await page.evaluate(() => document.scrollingElement.scrollTo(0, document.scrollingElement.scrollHeight));
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    assert.deepEqual(await page.evaluate(() => window.hostErrors), []);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
