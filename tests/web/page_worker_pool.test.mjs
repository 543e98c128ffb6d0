// The exercise's runs share a pool of workers, one per core: 4 variants x 5 seeds train in a handful of
// workers, not 20, and every run still finishes with its own curve.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, newPage, openLab } from './helpers/browser.mjs';

test('http: 4 variants x 5 seeds train in at most one worker per core, and every run finishes', async () => {
  const env = await openLab();
  try {
    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.url('http', 'index.html', '#panels=train&seeds=5&steps=12&variants=scaled,unscaled,alpha,qknorm&dModel=16&batch=8&evalEvery=10'));
    const l = lab(page);
    await l.locator('button', { hasText: 'Start' }).click();
    let most = 0;
    const runWorkers = async () => {
      const names = await Promise.all(page.workers().map((w) => w.evaluate(() => self.name).catch(() => '')));
      return names.filter((n) => n.startsWith('sqrtdk-run')).length;
    };
    const done = l.locator('.answer[data-final="true"]').waitFor({ timeout: 180000 });
    let finished = false;
    done.then(() => { finished = true; }, () => { finished = true; });
    while (!finished) {
      most = Math.max(most, await runWorkers());
      await page.waitForTimeout(100);
    }
    await done;
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
