// A training worker that crashes (an uncaught error inside it) is reported in the panel, replaced, and its run
// resumes where it was; the other runs are not disturbed.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, newPage, openLab } from './helpers/browser.mjs';

test('http: a crashed run worker is reported and replaced, and every run still finishes', async () => {
  const env = await openLab();
  try {
    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.url('http', 'index.html', '#panels=train&seeds=1&steps=120&variants=unscaled,scaled'));
    const l = lab(page);
    await l.locator('button', { hasText: 'Start' }).click();
    await page.waitForFunction(() => [...document.querySelector('sqrtdk-lab').shadowRoot.querySelectorAll('.run-table tbody tr')]
      .every((r) => Number(r.dataset.steps) >= 10), null, { timeout: 60000 });
    let victim = null;
    for (const worker of page.workers()) {
      // The pool (worker-pool.js) puts the plan's second run, unscaled seed 0, on its second worker (on its only
      // worker with one core).
      const name = await worker.evaluate(() => self.name).catch(() => '');
      if (name === 'sqrtdk-run 2' || (name === 'sqrtdk-run 1' && !victim)) victim = worker;
    }
    assert.ok(victim, 'found the worker of unscaled seed 0');
    await victim.evaluate(() => { setTimeout(() => { throw new Error('simulated crash'); }, 0); });
    const notice = l.locator('.notices li', { hasText: 'The worker of unscaled seed 0 failed' });
    await notice.waitFor({ timeout: 30000 });
    assert.match(await notice.textContent(), /simulated crash.*replaced and the run resumes at step \d+/);
    await l.locator('.answer[data-final="true"]').waitFor({ timeout: 120000 });
    assert.deepEqual(await l.locator('.run-table tbody tr').evaluateAll((rows) => rows.map((r) => [r.dataset.status, r.dataset.steps])),
      [['done', '120'], ['done', '120']]);
    assert.match(await l.locator('.run-table tr[data-run="unscaled-0"]').textContent(), /worker replaced 1×/);
    await l.locator('[data-chart="loss"][data-points="120"]').waitFor();
    assert.deepEqual(errors.filter((e) => !e.includes('simulated crash')), []);
    await context.close();
  } finally {
    await env.close();
  }
});
