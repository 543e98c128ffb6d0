// A diverged run is shown as diverged, with its curve so far, while the others train on.
// At lr 0.37 some runs of the canonical model diverge within a few steps and some do not (measured with the
// wasm core over seeds 0-3: scaled seeds 0 and 1 diverge at steps 19 and 11, unscaled seed 3 at step 12, the
// other five survive 40 steps).  Which runs diverge at such a rate hangs on float rounding: if the kernels
// change that mix, pick another learning rate that still mixes (a few seeds make a mix more likely).
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, newPage, openLab } from './helpers/browser.mjs';

test('http: a diverged run is marked with its step, keeps its curve, and the others go on', async () => {
  const env = await openLab();
  try {
    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.url('http', 'index.html', '#panels=train&seeds=4&steps=40&lr=0.37&variants=scaled,unscaled&evalEvery=20'));
    const l = lab(page);
    await l.locator('button', { hasText: 'Start' }).click();
    await l.locator('.answer[data-final="true"]').waitFor({ timeout: 120000 });
    const rows = await l.locator('.run-table tbody tr').evaluateAll((trs) => trs.map((r) => ({
      status: r.dataset.status, steps: Number(r.dataset.steps), text: r.querySelector('.status').textContent })));
    const diverged = rows.filter((r) => r.status === 'diverged');
    const done = rows.filter((r) => r.status === 'done');
    assert.ok(diverged.length >= 1 && done.length >= 1, JSON.stringify(rows));
    for (const r of diverged) {
      assert.equal(r.text, `diverged at step ${r.steps}`);
      assert.ok(r.steps < 40);
    }
    for (const r of done) assert.equal(r.steps, 40);
    const notices = await l.locator('.notices li').allTextContents();
    assert.equal(notices.filter((n) => /diverged at step \d+; the other runs go on/.test(n)).length, diverged.length);
    assert.match(await l.locator('.answer-table').innerText(), /diverged/);
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await env.close();
  }
});
