// The element's events when things go wrong: sqrtdk-diverged for each diverged run (as the run table shows
// it), sqrtdk-error for a crashed worker (recoverable) and for a core that cannot start under the page's
// Content-Security-Policy.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, newPage, openLab, crashWorkerOfSecondRun } from './helpers/browser.mjs';
import { eventsOf, matchesDeclaration, recordEvents, waitForEvents } from './helpers/api-events.mjs';

let env;
test.before(async () => { env = await openLab(); });
test.after(async () => { await env.close(); });

test('http: one sqrtdk-diverged per diverged run, with its step', async () => {
  const { page, context, errors } = await newPage(env.browser);
  await recordEvents(page);
  // lr 0.4 mixes diverging and surviving runs (see page_divergence.test.mjs).
  await page.goto(env.url('http', 'index.html', '#panels=train&seeds=2&steps=40&lr=0.4&variants=scaled,unscaled&evalEvery=20'));
  await waitForEvents(page, 'sqrtdk-ready');
  await page.evaluate(() => document.querySelector('sqrtdk-lab').start());
  await lab(page).locator('.answer[data-final="true"]').waitFor({ timeout: 120000 });
  const rows = await lab(page).locator('.run-table tbody tr').evaluateAll((trs) => trs.map((r) => ({ run: r.dataset.run, status: r.dataset.status, steps: Number(r.dataset.steps) })));
  const diverged = rows.filter((r) => r.status === 'diverged');
  assert.ok(diverged.length >= 1, JSON.stringify(rows));
  // Events and the table are both rendered from the runs' messages; wait for the events rather than assume
  // they were dispatched before the table's last render.
  const events = await waitForEvents(page, 'sqrtdk-diverged', diverged.length);
  assert.deepEqual(events.map((e) => `${e.detail.variant}-${e.detail.seed}@${e.detail.step}`).sort(),
    diverged.map((r) => `${r.run}@${r.steps}`).sort());
  assert.ok(events.every((e) => matchesDeclaration(e.detail, 'SqrtdkDivergedDetail')));
  const [answer] = (await eventsOf(page, 'sqrtdk-answer')).filter((e) => e.detail.final);
  assert.equal(answer.detail.variants.reduce((n, v) => n + v.runsDiverged, 0), diverged.length);
  assert.ok(answer.detail.variants.flatMap((v) => v.runs).filter((r) => r.diverged).every((r) => r.divergedStep > 0));
  assert.deepEqual(await eventsOf(page, 'sqrtdk-error'), []);
  assert.deepEqual(errors, []);
  await context.close();
});

test('http: a crashed run worker gives a recoverable sqrtdk-error naming the run', async () => {
  const { page, context, errors } = await newPage(env.browser);
  await recordEvents(page);
  await page.goto(env.url('http', 'index.html', '#panels=train&seeds=1&steps=150&variants=unscaled,scaled'));
  await waitForEvents(page, 'sqrtdk-ready');
  await page.evaluate(() => document.querySelector('sqrtdk-lab').start());
  await crashWorkerOfSecondRun(page);
  const [error] = await waitForEvents(page, 'sqrtdk-error', 1, 30000);
  assert.equal(error.detail.kind, 'worker');
  assert.equal(error.detail.recoverable, true);
  assert.equal(error.detail.variant, 'unscaled');
  assert.equal(error.detail.seed, 0);
  assert.match(error.detail.message, /^The worker of unscaled seed 0 failed; it was replaced and the run resumes at step \d+\.$/);
  assert.ok(matchesDeclaration(error.detail, 'SqrtdkErrorDetail'));
  // The run resumes and the exercise still ends with an answer.
  await waitForEvents(page, 'sqrtdk-answer', 1, 120000);
  assert.equal((await eventsOf(page, 'sqrtdk-error')).length, 1);
  assert.deepEqual(errors.filter((e) => !e.includes('simulated crash')), []);
  await context.close();
});

test('http: a page whose CSP blocks WebAssembly gets sqrtdk-error (kind wasm) and no sqrtdk-ready', async () => {
  const { page, context } = await newPage(env.browser);
  await recordEvents(page);
  await page.goto(env.url('http', 'fixtures/csp-no-wasm.html'));
  await page.waitForFunction(() => window.sqrtdkEvents.some((e) => e.name === 'sqrtdk-error' && e.detail.kind === 'wasm'), null, { timeout: 60000 });
  const wasm = (await eventsOf(page, 'sqrtdk-error')).find((e) => e.detail.kind === 'wasm');
  assert.match(wasm.detail.message, /^The WebAssembly core could not start: .*'wasm-unsafe-eval'/);
  assert.equal(wasm.detail.recoverable, false);
  assert.deepEqual(await eventsOf(page, 'sqrtdk-ready'), []);
  await context.close();
});
