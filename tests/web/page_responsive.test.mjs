// The main thread stays responsive while six runs train (default exercise: 2 variants x 3 seeds): a
// setInterval(10 ms) probe in the page never waits 100 ms or more after start-up.
// Other processes can take both cores for a while, which delays any page's timers, busy or idle.  So a second,
// idle page runs the same probe at the same time as a control: a window counts only when the control's longest
// gap stayed under CONTROL_CLEAN_MS (the machine let timers run); the lab must be under 100 ms in such a window.
// A page whose own work blocks its main thread fails a clean window; windows spoilt by outside load are reported
// (with the load average) and measured again, up to MAX_WINDOWS.
import test from 'node:test';
import assert from 'node:assert/strict';
import { loadavg } from 'node:os';
import { lab, newPage, openLab, waitForDemo } from './helpers/browser.mjs';

const WINDOW_TICKS = 500;  // of the control's 10 ms probe: a window of about 5 s
const MAX_WINDOWS = 8;
const CONTROL_CLEAN_MS = 50;

// Installs (or restarts) the 10 ms timer probe of a page.
const startProbe = (page) => page.evaluate(() => {
  if (window.probeTimer) clearInterval(window.probeTimer);
  window.timerGaps = { max: 0, count: 0, over50: 0 };
  let last = performance.now();
  window.probeTimer = setInterval(() => {
    const now = performance.now();
    const gap = now - last;
    last = now;
    const g = window.timerGaps;
    g.max = Math.max(g.max, gap);
    g.count += 1;
    if (gap >= 50) g.over50 += 1;
  }, 10);
});

test('http: the longest main-thread timer gap while training is under 100 ms', async (t) => {
  const env = await openLab();
  try {
    const { page, context, errors } = await newPage(env.browser);
    const control = await newPage(env.browser);
    await control.page.setContent('<title>control</title><p>an idle page: the timer probe\'s control</p>');
    await page.goto(env.url('http', 'index.html', '#steps=5000'));
    await waitForDemo(page);
    await lab(page).locator('button', { hasText: 'Start' }).click();
    // Start-up: six workers compile the module and take their first chunks.
    await page.waitForFunction(() => document.querySelector('sqrtdk-lab').shadowRoot.querySelectorAll('.run-table tr[data-status="training"]').length === 6
      && Number(document.querySelector('sqrtdk-lab').shadowRoot.querySelector('.runs').dataset.stepsDone) >= 30, null, { timeout: 60000 });
    const clean = [];
    for (let i = 0; i < MAX_WINDOWS && clean.length === 0; i += 1) {
      await Promise.all([startProbe(page), startProbe(control.page)]);
      const before = Number(await lab(page).locator('.runs').getAttribute('data-steps-done'));
      const started = Date.now();
      // The window ends when the idle control's 10 ms probe has ticked WINDOW_TICKS times (about 5 s; longer when
      // outside load delays its timers, and then the window is not counted anyway).
      await control.page.waitForFunction((ticks) => window.timerGaps.count >= ticks, WINDOW_TICKS, { timeout: 120000 });
      const [gaps, idle] = await Promise.all([page, control.page].map((p) => p.evaluate(() => window.timerGaps)));
      const after = Number(await lab(page).locator('.runs').getAttribute('data-steps-done'));
      const seconds = (Date.now() - started) / 1000;
      const isClean = idle.max < CONTROL_CLEAN_MS;
      t.diagnostic(`window ${i + 1}: lab's longest timer gap ${gaps.max.toFixed(1)} ms (${gaps.count} ticks, ${gaps.over50} >= 50 ms), `
        + `the idle control's ${idle.max.toFixed(1)} ms (${isClean ? 'clean' : 'outside load: not counted'}), `
        + `${((after - before) / seconds).toFixed(0)} steps/s in total over ${seconds.toFixed(1)} s, load average ${loadavg()[0].toFixed(1)}`);
      assert.ok(after > before, 'training went on while measuring');
      if (isClean) clean.push(gaps.max);
    }
    if (clean.length) assert.ok(clean[0] < 100, `longest gap ${clean[0].toFixed(0)} ms in a window where an idle page's stayed under ${CONTROL_CLEAN_MS} ms`);
    else t.diagnostic(`no window in ${MAX_WINDOWS} was free of outside load: responsiveness not judged this run`);
    assert.deepEqual(errors, []);
    await control.context.close();
    await context.close();
  } finally {
    await env.close();
  }
});
