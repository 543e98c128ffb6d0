// The exercise's runs share a pool of workers, one per core: 4 variants x 5 seeds train in a handful of
// workers, not 20, and every run still finishes with its own curve.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, newPage, openLab } from './helpers/browser.mjs';

test('http: 4 variants x 5 seeds train in at most one worker per core, and every run finishes', async () => {
  const env = await openLab();
  try {
    const { page, context, errors } = await newPage(env.browser);
    // Run workers alive at once, followed through the page's worker events (a worker's name is read after it
    // starts; one that closes before its name arrives is not counted).
    let alive = 0;
    let most = 0;
    page.on('worker', (worker) => {
      let counted = false;
      let closed = false;
      worker.once('close', () => { closed = true; if (counted) alive -= 1; });
      worker.evaluate(() => self.name).then((name) => {
        if (closed || !name.startsWith('sqrtdk-run')) return;
        counted = true;
        alive += 1;
        most = Math.max(most, alive);
      }, () => {});
    });
    await page.goto(env.url('http', 'index.html', '#panels=train&seeds=5&steps=12&variants=scaled,unscaled,alpha,qknorm&dModel=16&batch=8&evalEvery=10'));
    const l = lab(page);
    await l.locator('button', { hasText: 'Start' }).click();
    await l.locator('.answer[data-final="true"]').waitFor({ timeout: 180000 });
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    assert.ok(most >= 1 && most <= Math.min(cores, 8), `at most one run worker per core: saw ${most} with ${cores} cores`);
    const rows = await l.locator('.run-table tbody tr').evaluateAll((rs) => rs.map((r) => [r.dataset.status, r.dataset.steps]));
    assert.equal(rows.length, 20);
    assert.deepEqual(rows, Array.from({ length: 20 }, () => ['done', '12']));
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await env.close();
  }
});
