// Training in the page, from http and file://: start grows the curves and fills the answer box, pause stops
// the steps, single step advances every run by one, reset clears.
import test from 'node:test';
import assert from 'node:assert/strict';
import { MODES, lab, newPage, openLab } from './helpers/browser.mjs';

const SHORT = '#panels=train&seeds=1&steps=70&variants=scaled,unscaled&evalEvery=20';

let env;
test.before(async () => { env = await openLab(); });
test.after(async () => { await env.close(); });

const points = async (page, chart) => Number(await lab(page).locator(`[data-chart="${chart}"]`).getAttribute('data-points') ?? 0);
const runSteps = (page) => lab(page).locator('.run-table tbody tr').evaluateAll((rows) => rows.map((r) => Number(r.dataset.steps)));

for (const mode of MODES) {
  test(`${mode}: start grows the curves and fills the answer box`, async () => {
    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.url(mode, 'index.html', SHORT));
    const train = lab(page);
    assert.equal(await train.locator('.answer').getAttribute('data-ready'), 'false');
    await train.locator('button', { hasText: 'Start' }).click();
    await page.waitForFunction(() => {
      const root = document.querySelector('sqrtdk-lab').shadowRoot;
      return Number(root.querySelector('[data-chart="loss"]').dataset.points) >= 5;
    }, null, { timeout: 60000 });
    const early = await points(page, 'loss');
    await page.waitForFunction((n) => Number(document.querySelector('sqrtdk-lab').shadowRoot.querySelector('[data-chart="loss"]').dataset.points) > n, early, { timeout: 60000 });
    await train.locator('.answer[data-final="true"]').waitFor({ timeout: 120000 });
    // The charts render one per task after the status: wait for each to show the last step.
    await train.locator('[data-chart="loss"][data-points="70"]').waitFor();
    await train.locator('[data-chart="entropy"][data-points="70"]').waitFor();
    await train.locator('[data-chart="attention-scaled"] .chart-readout', { hasText: 'step 70 ·' }).waitFor();
    assert.ok(await points(page, 'accuracy') >= 3);
    const answer = await train.locator('.answer').innerText();
    assert.match(answer, /scaled 1\/√d_k/);
    assert.match(answer, /(reached smoothed loss 0\.1|did not reach smoothed loss 0\.1 and stay below it in 70 steps|Neither)/);
    assert.match(await train.locator('.answer-table tr[data-variant="unscaled"] td[data-cell="median"]').textContent(), /^(\d+(\.\d)?|never \(in 70 steps\))$/);
    assert.deepEqual(await runSteps(page), [70, 70]);
    assert.match(await train.locator('.progress-text').textContent(), /140 of 140 steps \(2 runs × 70 steps\)/);
    assert.equal(await train.locator('[data-chart="attention-scaled"] canvas').count(), 1);
    assert.match(await train.locator('[data-chart="attention-scaled"] .chart-readout').textContent(), /step 70 · layer 2 · head 1/);
    assert.equal(await train.locator('button', { hasText: 'Start' }).isDisabled(), true);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test(`${mode}: pause stops the steps, step advances each run by one, reset clears`, async () => {
    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.url(mode, 'index.html', '#panels=train&seeds=2&steps=5000&variants=scaled,unscaled'));
    const train = lab(page);
    await train.locator('button', { hasText: 'Start' }).click();
    await page.waitForFunction(() => Number(document.querySelector('sqrtdk-lab').shadowRoot.querySelector('.runs').dataset.stepsDone) >= 20, null, { timeout: 60000 });
    await train.locator('button', { hasText: 'Pause' }).click();
    // Paused once the panel says so: nothing more is counted, not even a chunk that was computing.
    await page.waitForFunction(() => document.querySelector('sqrtdk-lab').shadowRoot.querySelector('[data-panel="train"]').dataset.running === 'false');
    const frozen = await runSteps(page);
    assert.ok(await train.locator('.run-table tr[data-status="paused"]').count() === 4);

    // The positive control for "no step after pause": one Step goes through each run's worker behind anything
    // still queued there, so once every run has moved, each must have moved by exactly one.
    await train.locator('button', { hasText: 'Step' }).click();
    await page.waitForFunction((before) => {
      const rows = [...document.querySelector('sqrtdk-lab').shadowRoot.querySelectorAll('.run-table tbody tr')];
      return rows.every((r, i) => Number(r.dataset.steps) > before[i]);
    }, frozen, { timeout: 90000 });
    assert.deepEqual(await runSteps(page), frozen.map((s) => s + 1), 'one step per run after pause, none more');

    await train.locator('button', { hasText: 'Reset' }).click();
    await page.waitForFunction(() => Number(document.querySelector('sqrtdk-lab').shadowRoot.querySelector('.runs').dataset.stepsDone) === 0);
    await train.locator('[data-chart="loss"][data-points="0"]').waitFor();
    assert.equal(await train.locator('.answer').getAttribute('data-ready'), 'false');
    assert.equal(await train.locator('.answer-table').count(), 0);
    assert.equal(await train.locator('button', { hasText: 'Start' }).isDisabled(), false);
    assert.deepEqual(await runSteps(page), [0, 0, 0, 0]);
    // The positive control for "nothing trains after reset": one Step from there gives every run exactly step 1.
    await train.locator('button', { hasText: 'Step' }).click();
    await page.waitForFunction(() => [...document.querySelector('sqrtdk-lab').shadowRoot.querySelectorAll('.run-table tbody tr')]
      .every((r) => Number(r.dataset.steps) > 0), null, { timeout: 90000 });
    assert.deepEqual(await runSteps(page), [1, 1, 1, 1], 'nothing trained after reset');
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('http: the same seed gives the same curve after reset', async () => {
  const { page, context, errors } = await newPage(env.browser);
  await page.goto(env.url('http', 'index.html', '#panels=train&seeds=1&steps=30&variants=unscaled&trainSeed=5'));
  const train = lab(page);
  const exportLoss = async () => {
    const [file] = await Promise.all([page.waitForEvent('download'), train.locator('button', { hasText: 'Export JSON' }).click()]);
    const { readFile } = await import('node:fs/promises');
    return JSON.parse(await readFile(await file.path(), 'utf8')).runs[0].loss;
  };
  await train.locator('button', { hasText: 'Start' }).click();
  await train.locator('.answer[data-final="true"]').waitFor({ timeout: 60000 });
  const first = await exportLoss();
  await train.locator('button', { hasText: 'Reset' }).click();
  await train.locator('button', { hasText: 'Start' }).click();
  await train.locator('.answer[data-final="true"]').waitFor({ timeout: 60000 });
  const second = await exportLoss();
  assert.equal(first.length, 30);
  assert.deepEqual(second, first);
  assert.deepEqual(errors, []);
  await context.close();
});
