// A training worker that crashes (an uncaught error inside it) is reported in the panel, replaced, and its run
// resumes where it was; the other runs are not disturbed.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, newPage, openLab, crashWorkerOfSecondRun } from './helpers/browser.mjs';

test('http: a crashed run worker is reported and replaced, and every run still finishes', async () => {
  const env = await openLab();
  try {
    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.url('http', 'index.html', '#panels=train&seeds=1&steps=120&variants=unscaled,scaled'));
    const l = lab(page);
    await l.locator('button', { hasText: 'Start' }).click();
    await crashWorkerOfSecondRun(page);
    const notice = l.locator('.notices li', { hasText: 'The worker of unscaled seed 0 failed' });
    await notice.waitFor({ timeout: 90000 });
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
