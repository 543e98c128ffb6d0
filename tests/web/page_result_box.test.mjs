// The element's `result` is the answer box at every moment: while an exercise trains (4 runs, answers arriving
// as the curves grow), both are sampled whenever either may have changed: after every task that handled a message
// from one of the page's workers (the answers arrive so), on every change of the box (a MutationObserver), and on
// every sqrtdk-answer event.  Whenever the box shows a ready answer, `result` is that answer (each variant's
// cells and the sentences), and `result` is null whenever the box shows none.
import test from 'node:test';
import assert from 'node:assert/strict';
import { MODES, lab, newPage, openLab } from './helpers/browser.mjs';

let env;
test.before(async () => { env = await openLab(); });
test.after(async () => { await env.close(); });

const EXERCISE = '#panels=train&seeds=2&steps=200&evalEvery=50&variants=scaled,unscaled';

// Put into the page before its scripts.
function sampleResultAndBox() {
  const samples = { compared: 0, whileTraining: 0, differences: [] };
  window.resultSamples = samples;
  const CELLS = ['seeds', 'median', 'relation', 'stall', 'final'];
  const sample = (why) => {
    const element = document.querySelector('sqrtdk-lab');
    const box = element?.shadowRoot?.querySelector('.answer');
    if (!box) return;
    const ready = box.dataset.ready === 'true';
    const { result } = element;
    if (!ready && result === null) return;
    if (ready !== (result !== null)) {
      samples.differences.push({ why, boxReady: ready, result: result !== null });
      return;
    }
    const shown = {
      cells: [...box.querySelectorAll('.answer-table tbody tr')].map((row) => CELLS.map((c) => row.querySelector(`td[data-cell="${c}"]`).textContent)),
      sentences: [...box.querySelectorAll('.answer-sentence')].map((p) => p.textContent),
    };
    const published = {
      cells: result.variants.map((v) => [v.cells.seeds, v.cells.median, v.cells.relation, v.cells.stall, v.cells.finalLoss]),
      sentences: result.sentences,
    };
    samples.compared += 1;
    if (!result.final) samples.whileTraining += 1;
    if (JSON.stringify(shown) !== JSON.stringify(published)) samples.differences.push({ why, shown, published });
  };
  // After the task that handled a worker's message: a message of our own, queued behind it (no timer).
  const next = new MessageChannel();
  next.port1.onmessage = () => sample('after a worker message');
  const PageWorker = window.Worker;
  window.Worker = class extends PageWorker {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', () => next.port2.postMessage(null));
    }
  };
  document.addEventListener('sqrtdk-answer', () => sample('sqrtdk-answer'));
  document.addEventListener('DOMContentLoaded', () => {
    const root = document.querySelector('sqrtdk-lab').shadowRoot;
    new MutationObserver(() => sample('box changed')).observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

for (const mode of MODES) {
  test(`${mode}: result equals the answer box whenever either changes, from the first answer to the final one`, async () => {
    const { page, context, errors } = await newPage(env.browser);
    await page.addInitScript(sampleResultAndBox);
    await page.goto(env.url(mode, 'index.html', EXERCISE));
    await page.waitForFunction(() => document.querySelector('sqrtdk-lab')?.shadowRoot?.querySelector('.answer'), null, { timeout: 90000 });
    await lab(page).locator('button', { hasText: 'Start' }).click();
    await page.waitForFunction(() => document.querySelector('sqrtdk-lab').result?.final, null, { timeout: 240000 });
    await lab(page).locator('.answer[data-final="true"]').waitFor();
    const samples = await page.evaluate(() => window.resultSamples);
    console.log(`# ${mode}: ${samples.compared} samples, ${samples.whileTraining} before the final answer`);
    assert.deepEqual(samples.differences, []);
    // Answers kept coming after the first ready one: the cells (final loss, stalls) changed while the runs trained.
    assert.ok(samples.whileTraining >= 3, `${samples.whileTraining} samples between the first answer and the final one`);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
