// The main thread stays responsive while six runs train (default exercise: 2 variants x 3 seeds): a
// setInterval(10 ms) probe in the page never waits 100 ms or more after start-up.
// This machine is shared (other processes can take both cores for seconds), so the probe measures up to three
// windows of 5 s and passes when one of them is clean: a page whose own work blocks the main thread fails
// every window; the load average is printed with each window so a reader can judge.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadavg } from 'node:os';
import { lab, newPage, openLab, waitForDemo } from './helpers/browser.mjs';

const WINDOW_MS = 5000;
const WINDOWS = 3;

test('http: the longest main-thread timer gap while training is under 100 ms', async (t) => {
  const env = await openLab();
  try {
    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.url('http', 'index.html', '#steps=5000'));
    await waitForDemo(page);
    await page.evaluate(() => {
      window.timerGaps = { max: 0, count: 0, over50: 0 };
      let last = performance.now();
      setInterval(() => {
        const now = performance.now();
        const gap = now - last;
        last = now;
        const g = window.timerGaps;
        g.max = Math.max(g.max, gap);
        g.count += 1;
        if (gap >= 50) g.over50 += 1;
      }, 10);
    });
    await lab(page).locator('button', { hasText: 'Start' }).click();
    // Start-up: six workers compile the module and take their first chunks.
    await page.waitForFunction(() => document.querySelector('sqrtdk-lab').shadowRoot.querySelectorAll('.run-table tr[data-status="training"]').length === 6
      && Number(document.querySelector('sqrtdk-lab').shadowRoot.querySelector('.runs').dataset.stepsDone) >= 30, null, { timeout: 60000 });
    const windows = [];
    for (let i = 0; i < WINDOWS; i += 1) {
      await page.evaluate(() => { window.timerGaps = { max: 0, count: 0, over50: 0 }; });
      const before = Number(await lab(page).locator('.runs').getAttribute('data-steps-done'));
      // A fixed wait on purpose: a measurement window, in which no long gap may happen.  (A window of so many steps
      // would grow under load, and with it the chance of another process's long pause.)
      await page.waitForTimeout(WINDOW_MS);
      const gaps = await page.evaluate(() => window.timerGaps);
      const after = Number(await lab(page).locator('.runs').getAttribute('data-steps-done'));
      windows.push({ ...gaps, stepsPerSecond: (after - before) / (WINDOW_MS / 1000) });
      t.diagnostic(`window ${i + 1}: longest timer gap ${gaps.max.toFixed(1)} ms, ${gaps.count} ticks, ${gaps.over50} gaps >= 50 ms, `
        + `${((after - before) / (WINDOW_MS / 1000)).toFixed(0)} steps/s in total, load average ${loadavg()[0].toFixed(1)}`);
      assert.ok(after > before, 'training went on while measuring');
      if (gaps.max < 100) break;
    }
    const best = Math.min(...windows.map((w) => w.max));
    assert.ok(best < 100, `longest gap in every window >= 100 ms: ${windows.map((w) => w.max.toFixed(0)).join(', ')}`);
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await env.close();
  }
});
