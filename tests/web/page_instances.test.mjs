// Several <sqrtdk-lab> elements on one page keep their own settings, workers and runs.
import test from 'node:test';
import assert from 'node:assert/strict';
import { MODES, lab, newPage, openLab, stepsDone, waitForDemo } from './helpers/browser.mjs';

let env;
test.before(async () => { env = await openLab(); });
test.after(async () => { await env.close(); });

const waitSteps = (page, index, atLeast) => page.waitForFunction(([i, n]) => {
  const root = document.querySelectorAll('sqrtdk-lab')[i].shadowRoot;
  return Number(root.querySelector('.runs').dataset.stepsDone) >= n;
}, [index, atLeast], { timeout: 60000 });

for (const mode of MODES) {
  test(`${mode}: two instances on one page train independently`, async () => {
    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.url(mode, 'fixtures/two-labs.html'));
    await waitForDemo(page, 2);
    const [a, b] = [lab(page, 0), lab(page, 1)];
    assert.equal(await a.locator('.run-table tbody tr').count(), 1);
    assert.equal(await a.locator('.run-table tbody tr').getAttribute('data-run'), 'scaled-0');
    assert.equal(await b.locator('.run-table tbody tr').getAttribute('data-run'), 'unscaled-0');

    await a.locator('button', { hasText: 'Start' }).click();
    await waitSteps(page, 0, 10);
    assert.equal(await stepsDone(page, 1), 0, 'starting A does not start B');

    await b.locator('button', { hasText: 'Start' }).click();
    await waitSteps(page, 1, 10);
    await a.locator('button', { hasText: 'Pause' }).click();
    // The click's action is done once the panel says it stopped: from then on A's count must not move.
    await page.waitForFunction(() => document.querySelector('sqrtdk-lab').shadowRoot.querySelector('[data-panel="train"]').dataset.running === 'false');
    const aFrozen = await stepsDone(page, 0);
    const bBefore = await stepsDone(page, 1);
    await waitSteps(page, 1, bBefore + 10);
    assert.equal(await stepsDone(page, 0), aFrozen, 'pausing A leaves B training, and A frozen');

    await b.locator('button', { hasText: 'Reset' }).click();
    await page.waitForFunction(() => Number(document.querySelectorAll('sqrtdk-lab')[1].shadowRoot.querySelector('.runs').dataset.stepsDone) === 0);
    assert.equal(await stepsDone(page, 0), aFrozen, 'resetting B leaves A alone');
    assert.equal(await a.locator('.printout-title').count(), 0, 'A shows only the exercise');
    assert.match(await lab(page, 2).locator('.printout-title').textContent(), /d_k = 16/);
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('removing an element frees its runs; the others go on; the page\'s workers end with the last element', async () => {
  const { page, context, errors } = await newPage(env.browser);
  await page.goto(env.url('http', 'fixtures/two-labs.html'));
  await waitForDemo(page, 2);
  await lab(page, 0).locator('button', { hasText: 'Start' }).click();
  await lab(page, 1).locator('button', { hasText: 'Start' }).click();
  await waitSteps(page, 0, 5);
  await waitSteps(page, 1, 5);
  await page.evaluate(() => document.querySelector('#a').remove());
  const b = await stepsDone(page, 0);
  await waitSteps(page, 0, b + 5);
  // The elements share the page's workers: they end when the last element leaves.
  const closed = Promise.all(page.workers().map((worker) => new Promise((resolve) => worker.once('close', resolve))));
  await page.evaluate(() => document.querySelectorAll('sqrtdk-lab').forEach((el) => el.remove()));
  await closed;
  assert.equal(page.workers().length, 0, 'no worker outlives the last element');
  assert.deepEqual(errors, []);
  await context.close();
});

// A host's framework may create and remove elements many times in one task.  The work is counted, not timed: the
// elements (the DOM nodes they create) and the stylesheets parsed, against one element that stays.
test('elements created and removed in one task build no panels and parse no CSS; an element that stays, or is driven at once, builds them', async () => {
  const { page, context, errors } = await newPage(env.browser);
  await page.goto(env.url('http', 'fixtures/two-labs.html'));
  await waitForDemo(page, 2);
  const counts = await page.evaluate(async () => {
    const made = { nodes: 0, sheets: 0 };
    const createElement = document.createElement;
    document.createElement = function count(...args) { made.nodes += 1; return createElement.apply(this, args); };
    const replaceSync = CSSStyleSheet.prototype.replaceSync;
    CSSStyleSheet.prototype.replaceSync = function count(...args) { made.sheets += 1; return replaceSync.apply(this, args); };
    const measure = async (action) => {
      made.nodes = 0;
      made.sheets = 0;
      action();
      await new Promise((resolve) => setTimeout(resolve, 0));  // every microtask the action queued has run
      return { ...made };
    };
    const cycles = await measure(() => {
      for (let i = 0; i < 100; i += 1) {
        const el = document.createElement('sqrtdk-lab');
        el.setAttribute('panels', 'softmax,train');
        document.body.append(el);
        el.remove();
      }
    });
    const kept = await measure(() => {
      const el = document.createElement('sqrtdk-lab');
      el.id = 'kept';
      el.setAttribute('panels', 'softmax,train');
      document.body.append(el);
    });
    // A control API call in the task that appended the element finds its exercise built.
    const el = document.createElement('sqrtdk-lab');
    el.setAttribute('panels', 'train');
    el.setAttribute('seeds', '1');
    document.body.append(el);
    el.pause();
    const driven = Boolean(el.shadowRoot.querySelector('[data-panel="train"]'));
    el.remove();
    document.getElementById('kept').remove();
    return { cycles, kept, driven };
  });
  assert.ok(counts.kept.nodes > 200, `an element that stays builds its panels (${counts.kept.nodes} nodes)`);
  assert.ok(counts.cycles.nodes / 100 < counts.kept.nodes / 10,
    `a created-and-removed element makes a tenth of a kept one's nodes at most (${counts.cycles.nodes / 100} per cycle vs ${counts.kept.nodes})`);
  assert.equal(counts.cycles.sheets, 0, 'the page\'s stylesheets are parsed once and shared');
  assert.equal(counts.kept.sheets, 0);
  assert.equal(counts.driven, true, 'pause() right after append builds the exercise');
  assert.deepEqual(errors, []);
  await context.close();
});
