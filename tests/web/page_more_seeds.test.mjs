// More seeds without losing the finished runs: under a final answer the page offers "Run 7 more seeds (10 in all)";
// clicking it keeps every finished run's curve (its steps are not trained again), trains only the new seeds, and
// the verdict then rests on 10 x 10 pairs of seeds.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, newPage, openLab } from './helpers/browser.mjs';

test('more seeds: the offer under a final answer adds seeds and keeps the finished runs', async () => {
  const env = await openLab();
  try {
    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.url('http', 'lab.html', '#panels=train&seeds=3&steps=80&threshold=2&evalEvery=1000'));
    const train = lab(page);
    const offer = train.locator('[data-more-seeds]');
    assert.equal(await offer.isHidden(), true, 'no offer before an answer');
    await train.locator('button', { hasText: 'Start' }).click();
    await train.locator('.answer[data-final="true"]').waitFor({ timeout: 180000 });
    const button = offer.locator('button');
    await button.waitFor();
    assert.equal(await button.textContent(), 'Run 7 more seeds (10 in all)');
    const before = await page.evaluate(() => document.querySelector('sqrtdk-lab').result);
    assert.equal(before.variants[0].runs.length, 3);
    // Click, and read the runs in the same task: the finished ones keep their 80 steps (a retrained run would be
    // cleared to 0 here), the new ones start at 0.
    const stepsRightAfter = await page.evaluate(() => {
      const el = document.querySelector('sqrtdk-lab');
      el.shadowRoot.querySelector('[data-more-seeds] button').click();
      return JSON.parse(el.exportData('json')).runs.map((r) => [`${r.variant}-${r.seed}`, r.stepsDone]);
    });
    assert.equal(stepsRightAfter.length, 20);
    for (const [run, steps] of stepsRightAfter) {
      const seed = Number(run.split('-').at(-1));
      assert.equal(steps, seed < 3 ? 80 : 0, `${run} right after the click`);
    }
    await page.waitForFunction(() => {
      const r = document.querySelector('sqrtdk-lab').result;
      return r && r.final && r.variants[0].runs.length === 10;
    }, null, { timeout: 900000 });
    const after = await page.evaluate(() => document.querySelector('sqrtdk-lab').result);
    assert.deepEqual(after.variants.map((v) => v.runs.map((r) => r.seed)), [[...Array(10).keys()], [...Array(10).keys()]]);
    // The first three seeds' results are unchanged.
    for (let v = 0; v < 2; v++) {
      assert.deepEqual(after.variants[v].runs.slice(0, 3).map((r) => r.finalLoss), before.variants[v].runs.map((r) => r.finalLoss));
    }
    assert.equal(after.variants[1].pairs, 100, JSON.stringify([after.outcome, after.sentences]));
    assert.match(after.sentences[0], /over 10 seeds each/);
    await offer.locator('button', { hasText: 'Run 10 more seeds (20 in all)' }).waitFor();
    await context.close();
    assert.deepEqual(errors, []);
  } finally {
    await env.close();
  }
});
