// One memory budget per page: runs that do not fit at once wait their turn (the renderer's memory, measured,
// stays within the budget), and a run that can never fit is refused before Start with one line.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { lab, newPage, openLab, stepsDone } from './helpers/browser.mjs';
import { eventsOf, recordEvents, waitForEvents } from './helpers/api-events.mjs';

const MIB = 1024 * 1024;

let env;
test.before(async () => { env = await openLab(); });
test.after(async () => { await env.close(); });

/** Peak resident memory (VmHWM, bytes) of this test's chromium renderers: the page and its workers. */
function rendererPeakBytes() {
  const children = new Map();
  for (const line of execFileSync('ps', ['-e', '-o', 'pid=,ppid=']).toString().trim().split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const ours = [];
  const visit = (pid) => { for (const child of children.get(pid) ?? []) { ours.push(child); visit(child); } };
  visit(process.pid);
  let peak = 0;
  for (const pid of ours) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      const kb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
      peak = Math.max(peak, kb * 1024);
    } catch { /* the process ended meanwhile */ }
  }
  return peak;
}

const setBudget = (page, bytes) => page.evaluate((b) => { customElements.get('sqrtdk-lab').memoryBudget = b; }, bytes);

/** The refusal of a run that no longer fits: the panel's one line, Start disabled. */
async function expectRunRefused(l) {
  await l.locator('.problem', { hasText: 'one run needs' }).waitFor();
  assert.match(await l.locator('.problem').textContent(), /^sqrtdk-lab: one run needs about 83 MiB, more than the 32 MiB one run may use on this page \(.*\); .*, or the page may raise SqrtdkLabElement\.memoryBudget\.$/);
  assert.equal(await l.locator('.train-bar button.primary').isDisabled(), true);
}

/** Raised again to 1 GiB: the line goes, the curves stay (at least `paused` steps), Start continues the same `runs`
 * runs to the end, each `steps` steps. */
async function raiseAndFinish(page, paused, runs, steps) {
  const l = lab(page);
  await setBudget(page, 1024 * MIB);
  await page.waitForFunction(() => !document.querySelector('sqrtdk-lab').shadowRoot.querySelector('.train-bar button.primary').disabled);
  assert.equal(await l.locator('.problem').isHidden(), true);
  assert.ok(await stepsDone(page) >= paused, 'the curves were kept');
  await l.locator('.train-bar button.primary').click();
  await l.locator('.answer[data-final="true"]').waitFor({ timeout: 240000 });
  const rows = await l.locator('.run-table tbody tr').evaluateAll((rs) => rs.map((r) => [r.dataset.status, r.dataset.steps]));
  assert.deepEqual(rows, Array.from({ length: runs }, () => ['done', String(steps)]));
}

test('http: runs that do not fit at once wait their turn, and the page stays within its budget', async () => {
  const { page, context, errors } = await newPage(env.browser);
  await recordEvents(page);
  // 10 runs of ~84 MiB each (the core's estimate): 840 MiB if all were alive at once.
  await page.goto(env.url('http', 'index.html', '#panels=train&seeds=5&steps=10&evalEvery=1000&dModel=32&batch=128&copyLength=32&symbols=64'));
  await waitForEvents(page, 'sqrtdk-ready');
  const budget = 256 * MIB;
  await setBudget(page, budget);
  assert.equal(await page.evaluate(() => customElements.get('sqrtdk-lab').memoryBudget), budget);
  const before = rendererPeakBytes();
  await lab(page).locator('button', { hasText: 'Start' }).click();
  // Runs that wait for memory say so, and how many runs of the page are ahead of each (not "loading wasm…").
  await page.waitForFunction(() => document.querySelector('sqrtdk-lab').shadowRoot.querySelector('.run-table tr[data-status="memory"]'));
  const waiting = await lab(page).locator('.run-table tbody tr').evaluateAll((rs) => rs.filter((r) => r.dataset.status === 'memory')
    .map((r) => r.querySelector('.status').textContent));
  assert.ok(waiting.length >= 1);
  const ahead = waiting.map((text) => Number(/^waiting for memory: (\d+) runs? ahead$/.exec(text)?.[1]));
  assert.deepEqual([...ahead].sort((a, b) => a - b), ahead.map((_, i) => i), waiting.join(' | '));
  assert.doesNotMatch(waiting.join(' '), /loading wasm/);
  await lab(page).locator('.answer[data-final="true"]').waitFor({ timeout: 240000 });
  const grown = rendererPeakBytes() - before;
  console.log(`# renderer peak grew by ${Math.round(grown / MIB)} MiB with a budget of ${budget / MIB} MiB`);
  const rows = await lab(page).locator('.run-table tbody tr').evaluateAll((rs) => rs.map((r) => [r.dataset.status, r.dataset.steps]));
  assert.deepEqual(rows, Array.from({ length: 10 }, () => ['done', '10']), 'every run trained, in turns');
  // The budget bounds the workers' wasm memory; the rest (the page's JS, the helper worker) is a fixed ~100 MiB.
  assert.ok(grown < budget + 160 * MIB, `the renderer grew by ${Math.round(grown / MIB)} MiB`);
  assert.deepEqual((await eventsOf(page, 'sqrtdk-error')), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('http: a run that can never fit is refused before Start with one line; a larger budget lets it start', async () => {
  const { page, context, errors } = await newPage(env.browser);
  await recordEvents(page);
  await page.goto(env.url('http', 'index.html', '#panels=train&seeds=5&steps=20&dModel=64&batch=128&copyLength=32'));
  await waitForEvents(page, 'sqrtdk-ready');
  await setBudget(page, 128 * MIB);
  const l = lab(page);
  const line = /^sqrtdk-lab: one run needs about 144 MiB, more than the 96 MiB one run may use on this page \(layers 2, dModel 64, heads 1, copyLength 32, symbols 10, batch 128\); the largest copyLength that fits is 21, or the page may raise SqrtdkLabElement\.memoryBudget\.$/;
  await l.locator('.problem', { hasText: 'one run needs' }).waitFor();
  assert.match(await l.locator('.problem').textContent(), line);
  assert.equal(await l.locator('button', { hasText: 'Start' }).isDisabled(), true);
  const thrown = await page.evaluate(() => { try { document.querySelector('sqrtdk-lab').start(); return null; } catch (e) { return e.message; } });
  assert.match(thrown, line);
  assert.equal(await stepsDone(page), 0);
  assert.doesNotMatch(await l.locator('.train-status').textContent(), /Finished/);
  assert.deepEqual(await eventsOf(page, 'sqrtdk-error'), [], 'no error per run');
  assert.match(await page.evaluate(() => { try { customElements.get('sqrtdk-lab').memoryBudget = 'lots'; return ''; } catch (e) { return e.message; } }),
    /^sqrtdk-lab: memoryBudget must be a whole number of bytes of at least 33 MiB \(the default is 1024 MiB = 1073741824\), not lots\.$/);
  assert.equal(await page.evaluate(() => customElements.get('sqrtdk-lab').memoryBudget), 128 * MIB, 'a bad budget changes nothing');
  await setBudget(page, 1024 * MIB);
  await page.waitForFunction(() => !document.querySelector('sqrtdk-lab').shadowRoot.querySelector('.train-bar button.primary').disabled);
  assert.equal(await l.locator('.problem').isHidden(), true);
  assert.deepEqual(errors, []);
  await context.close();
});

test('http: settings past the core\'s per-run cap disable Start with a line in the lab\'s settings; start() and the settings property throw it, changing nothing', async () => {
  const { page, context, errors } = await newPage(env.browser);
  await recordEvents(page);
  await page.goto(env.url('http', 'index.html', '#panels=train&seeds=5&variants=scaled,unscaled,qknorm&layers=6&dModel=256&batch=128&symbols=64&copyLength=32'));
  await waitForEvents(page, 'sqrtdk-ready');
  const l = lab(page);
  // The largest run is qknorm's; the cap is the core's, so the page's budget is not named.
  const line = /^sqrtdk-lab: one run needs about 1590 MiB, more than the 512 MiB one run may use \(layers 6, dModel 256, heads 1, copyLength 32, symbols 64, batch 128\); the largest dModel that fits is 64\.$/;
  await l.locator('.problem', { hasText: 'one run needs' }).waitFor();
  assert.match(await l.locator('.problem').textContent(), line);
  assert.equal(await l.locator('button', { hasText: 'Start' }).isDisabled(), true);
  const thrown = await page.evaluate(() => { try { document.querySelector('sqrtdk-lab').start(); return null; } catch (e) { return e.message; } });
  assert.match(thrown, line);
  // The property refuses the same settings with the same line and changes nothing; the value it names is accepted.
  const viaProperty = await page.evaluate(() => {
    const el = document.querySelector('sqrtdk-lab');
    el.settings = { dModel: 64 };
    const before = JSON.stringify(el.settings);
    try { el.settings = { dModel: 256 }; return { message: null }; } catch (e) { return { message: e.message, unchanged: JSON.stringify(el.settings) === before }; }
  });
  assert.match(viaProperty.message, line);
  assert.equal(viaProperty.unchanged, true);
  await page.waitForFunction(() => !document.querySelector('sqrtdk-lab').shadowRoot.querySelector('.train-bar button.primary').disabled);
  assert.doesNotMatch(`${thrown} ${viaProperty.message}`, /eval_batch|d_ff/);
  assert.deepEqual(await eventsOf(page, 'sqrtdk-error'), []);
  assert.doesNotMatch(await l.locator('.train-status').textContent(), /Finished/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('http: lowering memoryBudget mid-run: placed runs train on; below what a run needs, training pauses with the line until the budget is raised', async () => {
  const { page, context, errors } = await newPage(env.browser);
  await recordEvents(page);
  // 10 runs of ~84 MiB: all placed at once under the default 1 GiB.
  await page.goto(env.url('http', 'index.html', '#panels=train&seeds=5&steps=60&evalEvery=1000&dModel=32&batch=128&copyLength=32&symbols=64'));
  await waitForEvents(page, 'sqrtdk-ready');
  const l = lab(page);
  const panelRunning = () => page.evaluate(() => document.querySelector('sqrtdk-lab').shadowRoot.querySelector('[data-panel="train"]').dataset.running);
  await l.locator('button', { hasText: 'Start' }).click();
  await page.waitForFunction(() => document.querySelector('sqrtdk-lab').shadowRoot.querySelectorAll('.run-table tr[data-status="training"]').length === 10);
  // 128 MiB: one run (84 MiB) still fits in what a run may use; the placed runs keep their memory and go on.
  await setBudget(page, 128 * MIB);
  assert.equal(await l.locator('.problem').isHidden(), true);
  assert.equal(await panelRunning(), 'true');
  const before = await stepsDone(page);
  await page.waitForFunction((n) => Number(document.querySelector('sqrtdk-lab').shadowRoot.querySelector('.runs').dataset.stepsDone) > n, before);
  // 64 MiB: a run can no longer fit (32 MiB a run): training pauses, the curves stay, the panel says why.
  await setBudget(page, 64 * MIB);
  await page.waitForFunction(() => document.querySelector('sqrtdk-lab').shadowRoot.querySelector('[data-panel="train"]').dataset.running === 'false');
  await expectRunRefused(l);
  await page.waitForFunction(() => !document.querySelector('sqrtdk-lab').shadowRoot.querySelector('.run-table tr[data-status="training"]'));
  const paused = await stepsDone(page);
  assert.ok(paused > 0 && paused < 600, `${paused} steps`);
  await raiseAndFinish(page, paused, 10, 60);
  assert.deepEqual(await eventsOf(page, 'sqrtdk-error'), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('http: lowering memoryBudget while runs wait: the waiting runs keep their notice and are placed once the workers hold less than the new budget; below what a run needs, they are refused and training pauses', async () => {
  const { page, context, errors } = await newPage(env.browser);
  await recordEvents(page);
  // 6 runs of ~83 MiB: under 256 MiB two train at once (two workers of 32 + 83 MiB) and four wait.
  await page.goto(env.url('http', 'index.html', '#panels=train&seeds=3&steps=30&evalEvery=1000&dModel=32&batch=128&copyLength=32&symbols=64'));
  await waitForEvents(page, 'sqrtdk-ready');
  const l = lab(page);
  await setBudget(page, 256 * MIB);
  // Every render of the run table, as [run, status, steps] rows (a render sets the rows' data-status together).
  await page.evaluate(() => {
    const root = document.querySelector('sqrtdk-lab').shadowRoot;
    window.runRows = () => [...root.querySelectorAll('.run-table tbody tr')].map((r) => [r.dataset.run, r.dataset.status, Number(r.dataset.steps)]);
    window.renders = [];
    new MutationObserver(() => window.renders.push(window.runRows()))
      .observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
  });
  await l.locator('button', { hasText: 'Start' }).click();
  await page.waitForFunction(() => document.querySelector('sqrtdk-lab').shadowRoot.querySelector('.run-table tr[data-status="memory"]'));
  // 160 MiB: one run still fits, but not next to the two placed ones (nor a second worker).  The budget's
  // listener redraws the table at once, so the rows read right after it are the runs as the change found them.
  const atDrop = await page.evaluate((b) => {
    customElements.get('sqrtdk-lab').memoryBudget = b;
    const root = document.querySelector('sqrtdk-lab').shadowRoot;
    return { rows: window.runRows(), renders: window.renders.length,
      notices: [...root.querySelectorAll('.run-table tr[data-status="memory"] .status')].map((s) => s.textContent) };
  }, 160 * MIB);
  const waitingIds = atDrop.rows.filter(([, status]) => status === 'memory').map(([id]) => id);
  const placedIds = atDrop.rows.filter(([, status]) => status === 'loading' || status === 'training').map(([id]) => id);
  assert.ok(waitingIds.length >= 2 && placedIds.length === 2, JSON.stringify(atDrop.rows));
  const ahead = atDrop.notices.map((text) => Number(/^waiting for memory: (\d+) runs? ahead$/.exec(text)?.[1]));
  assert.deepEqual([...ahead].sort((a, b) => a - b), ahead.map((_, i) => i), atDrop.notices.join(' | '));
  assert.equal(await l.locator('.problem').isHidden(), true);
  assert.equal(await page.evaluate(() => document.querySelector('sqrtdk-lab').shadowRoot.querySelector('[data-panel="train"]').dataset.running), 'true');
  // A run that waited trains, and others still wait: lower again, below what a run needs (32 MiB a run).
  const secondDrop = await page.waitForFunction((ids) => {
    const rows = window.runRows();
    const started = rows.some(([id, status, steps]) => ids.includes(id) && status === 'training' && steps > 0);
    if (!started || !rows.some(([, status]) => status === 'memory')) return null;
    const renders = window.renders.length;
    customElements.get('sqrtdk-lab').memoryBudget = 64 * 1024 * 1024;
    return { renders };
  }, waitingIds, { timeout: 240000 }).then((handle) => handle.jsonValue());
  const underNewBudget = await page.evaluate(([from, to]) => window.renders.slice(from, to), [atDrop.renders, secondDrop.renders]);
  // Until then the runs that waited were placed one at a time, each only after both placed runs had ended
  // (their workers' memory, which never shrinks, was given back with their last run).
  const busyIds = (rows) => rows.filter(([, status]) => status === 'loading' || status === 'training').map(([id]) => id);
  assert.ok(underNewBudget.some((rows) => busyIds(rows).some((id) => waitingIds.includes(id))), 'a run that waited was placed');
  for (const rows of underNewBudget) {
    const busy = busyIds(rows);
    if (!busy.some((id) => waitingIds.includes(id))) continue;
    assert.equal(busy.length, 1, JSON.stringify(rows));
    assert.ok(rows.filter(([id]) => placedIds.includes(id)).every(([, status]) => status === 'done'), JSON.stringify(rows));
  }
  assert.ok(underNewBudget.every((rows) => rows.every(([, status]) => status !== 'failed')));
  // The runs still waiting can never fit now: they leave the queue (no notice, not failed), training pauses with the line.
  await page.waitForFunction(() => {
    const root = document.querySelector('sqrtdk-lab').shadowRoot;
    return root.querySelector('[data-panel="train"]').dataset.running === 'false'
      && !root.querySelector('.run-table tr[data-status="memory"], .run-table tr[data-status="training"], .run-table tr[data-status="loading"]');
  });
  await expectRunRefused(l);
  const refused = await page.evaluate(() => window.runRows());
  assert.ok(refused.some(([, status, steps]) => status === 'waiting' && steps === 0), JSON.stringify(refused));
  assert.ok(refused.every(([, status]) => ['done', 'paused', 'waiting'].includes(status)), JSON.stringify(refused));
  const paused = await stepsDone(page);
  assert.ok(paused > 0 && paused < 180, `${paused} steps`);
  assert.deepEqual(await eventsOf(page, 'sqrtdk-error'), [], 'no error per run');
  await raiseAndFinish(page, paused, 6, 30);
  assert.deepEqual(await eventsOf(page, 'sqrtdk-error'), []);
  assert.deepEqual(errors, []);
  await context.close();
});
