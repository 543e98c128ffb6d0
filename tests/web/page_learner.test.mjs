// What a learner reads is right: the notes next to the charts carry numbers measured in the page, the axes
// and readouts say what they show, the curves have no false spikes, a settings change says what it does, and
// the phone layout keeps Start, the answer and the loss chart together.  Short runs keep this file quick.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, newPage, openLab, pageNumber, waitForDemo, waitForRest } from './helpers/browser.mjs';
import { variantColour } from '../../web/src/ui/palette.js';


const chart = (page, name) => lab(page).locator(`[data-chart="${name}"]`);
const ticks = async (page, name, axis) => (await chart(page, name).getAttribute(`data-${axis}-ticks`) ?? '').split(',').filter(Boolean);
const button = (page, name) => lab(page).locator('button', { hasText: name });
const readoutItems = (page, name) => chart(page, name).locator('.chart-readout .readout-item').allTextContents();

async function waitSweep(page) {
  await chart(page, 'sweep-jacobianNorm').and(lab(page).locator('[data-points="20"]')).waitFor({ timeout: 90000 });
}

/** Rows of the run table: [{id, steps, status}]. */
async function runRows(page) {
  return lab(page).locator('.run-table tr[data-run]').evaluateAll((rows) => rows.map((r) => ({
    id: r.dataset.run, steps: Number(r.dataset.steps), status: r.dataset.status })));
}

/** WCAG contrast ratio of two '#rrggbb' colours. */
function contrast(a, b) {
  const lum = (hex) => {
    const [r, g, b2] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b2;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

let env;
test.before(async () => { env = await openLab(); });
test.after(async () => { await env.close(); });

// Every check opens its own page: the explorer as it loads (d_k 128, seed 0), the exercise from its own hash.
const EXERCISE = '#steps=120&seeds=3&evalEvery=20&variants=scaled,unscaled';

async function openExplorer() {
  const opened = await newPage(env.browser, { width: 1280 });
  await opened.page.goto(env.url('http', 'index.html'));
  await waitForDemo(opened.page);
  await waitSweep(opened.page);
  return opened;
}

async function openExercise() {
  const opened = await newPage(env.browser, { width: 1280 });
  await opened.page.goto(env.url('http', 'index.html', EXERCISE));
  await waitForDemo(opened.page);
  return opened;
}

/** Start the exercise, pause it once its runs have 200 steps in all, and wait until it is at rest. */
async function trainThenPause(page) {
  await button(page, /^Start$/).click();
  await page.waitForFunction(() => Number(document.querySelector('sqrtdk-lab').shadowRoot.querySelector('.runs').dataset.stepsDone) >= 200,
    null, { timeout: 120000 });
  await button(page, 'Pause').click();
  await waitForRest(page);
}

test('explorer: the sweep readouts show the current d_k (the dashed line), not the last one', async () => {
  const { page, context, errors } = await openExplorer();
  const x = await chart(page, 'sweep-jacobianNorm').locator('.readout-x').textContent();
  assert.equal(x, 'd_k 128');
  assert.deepEqual(errors, []);
  await context.close();
});

test('explorer: the q.k histograms label several x ticks at desktop width (raw ±25, scaled ±2.5)', async () => {
  const { page, context, errors } = await openExplorer();
  const raw = (await ticks(page, 'dots-raw', 'x')).map(Number);
  const scaled = (await ticks(page, 'dots-scaled', 'x')).map(Number);
  assert.ok(raw.length >= 3 && Math.max(...raw.map(Math.abs)) >= 20, `raw ticks ${raw}`);
  assert.ok(scaled.length >= 3 && Math.max(...scaled.map(Math.abs)) >= 2 && Math.max(...scaled.map(Math.abs)) <= 5, `scaled ticks ${scaled}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test("explorer: it states its Jacobian norms at the exercise's d_k and goes there in one click", async () => {
  const { page, context, errors } = await openExplorer();
  const note = lab(page).locator('[data-note="exercise-dk"]');
  await note.filter({ hasText: 'median |J|_F' }).waitFor();
  const text = await note.textContent();
  assert.match(text, /exercise’s d_k = 64 \(d_model 64 \/ 1 head\)/);
  const [, raw, scaled] = /\|J\|_F ([\d.e+-]+) raw vs ([\d.e+-]+) scaled/.exec(text);
  assert.match(text, /the raw softmax is not saturated yet \(saturated: a top weight of at least 0\.9\)\. From d_k ≈ \d+ on/);
  await note.locator('button', { hasText: 'use the exercise’s d_k (64)' }).click();
  await chart(page, 'sweep-jacobianNorm').locator('.readout-x', { hasText: 'd_k 64' }).waitFor();
  assert.equal(await lab(page).locator('#lab-dk').evaluate((s) => s.closest('.control').querySelector('input.number').value), '64');
  const items = await readoutItems(page, 'sweep-jacobianNorm');
  // The same numbers (the note writes raw beside scaled with their trailing zeros: 0.200, the readout 0.2).
  assert.equal(Number(/^raw ([\d.]+) /.exec(items[0])[1]), Number(raw), `${items[0]} vs the note's ${raw}`);
  assert.equal(Number(/ ([\d.]+) \(/.exec(items[1])[1]), Number(scaled), `${items[1]} vs the note's ${scaled}`);
  assert.ok(await note.locator('button').isDisabled(), 'already at the exercise’s d_k');
  assert.deepEqual(errors, []);
  await context.close();
});

test('explorer: log-scale softmax weights after Resample: drawn, no error, no tick labelled 0', async () => {
  const { page, context, errors } = await openExplorer();
  await button(page, 'Resample').click();
  await lab(page).locator('.printout-title', { hasText: 'seed 1' }).waitFor();
  await chart(page, 'weights').and(lab(page).locator('[data-y-ticks]')).waitFor();
  const linear = await chart(page, 'weights').getAttribute('data-y-ticks');
  await lab(page).locator('#lab-weightsLogY').check();
  // Redrawn on the log axis: its tick labels change.
  await page.waitForFunction((before) => document.querySelector('sqrtdk-lab').shadowRoot.querySelector('[data-chart="weights"]').dataset.yTicks !== before, linear);
  assert.equal(await chart(page, 'weights').getAttribute('data-points'), '50');
  const y = await ticks(page, 'weights', 'y');
  assert.ok(y.length >= 2, `log ticks ${y}`);
  assert.ok(!y.includes('0') && y.every((v) => pageNumber(v) > 0), `log ticks ${y}`);
  assert.ok(y.length <= 8, `minor ticks are not labelled: ${y}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('explorer: at d_k = 1 the caption says q·k is not normal, with the measured tail share', async () => {
  const { page, context, errors } = await openExplorer();
  const caption = chart(page, 'dots-raw').locator('.chart-readout');
  assert.match(await caption.textContent(), /less than twice a normal's share/);
  const box = lab(page).locator('input[aria-label="d_k (query/key dimension) (exact value)"]');
  await box.fill('1');
  await box.press('Enter');
  await caption.filter({ hasText: 'd_k = 1)' }).waitFor();
  const text = await caption.textContent();
  assert.match(text, /a sum of only 1 product of two normals, which is not normal/);
  const share = Number(/([\d.]+) % of samples lie more than 3 standard deviations/.exec(text)[1]);
  assert.ok(share > 0.54, `tail share ${share} %`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('exercise: before Start the loss and entropy charts already show their axes', async () => {
  const { page, context, errors } = await openExercise();
  for (const name of ['loss', 'entropy', 'accuracy']) await chart(page, name).and(lab(page).locator('[data-x-ticks][data-y-ticks]')).waitFor();
  for (const name of ['loss', 'entropy', 'accuracy']) {
    assert.ok((await ticks(page, name, 'x')).length >= 2, `${name} x axis`);
    assert.ok((await ticks(page, name, 'y')).length >= 2, `${name} y axis`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('exercise: a first Step says at once that the runs are loading; the step axis stays in whole steps', async () => {
  const { page, context, errors } = await openExercise();
  const status = lab(page).locator('[data-train-status]');
  assert.equal(await status.textContent(), '');
  // Every text the status shows, recorded in the page: loading can take less than a poll interval.
  await status.evaluate((element) => {
    window.statusTexts = [];
    new MutationObserver(() => window.statusTexts.push({ text: element.textContent, at: performance.now() }))
      .observe(element, { childList: true, characterData: true, subtree: true });
  });
  await button(page, /^Step$/).click();
  // Feedback before the work: the first status says the model is loading or names the step, never nothing
  // until the step is drawn (the chart's first point is awaited after it).
  await page.waitForFunction(() => window.statusTexts.some((s) => s.text !== ''), null, { timeout: 60000 });
  const first = await page.evaluate(() => window.statusTexts.find((s) => s.text !== ''));
  assert.match(first.text, /^(Loading the model of \d+ runs?…|Training: step \d+ of 120\.|Paused at step 1 of 120\.)$/);
  await chart(page, 'loss').and(lab(page).locator('[data-points="1"]')).waitFor({ timeout: 60000 });
  await status.filter({ hasText: 'Paused at step 1 of 120' }).waitFor();
  const x = await ticks(page, 'loss', 'x');
  assert.ok(x.every((v) => /^\d+$/.test(v)), `x ticks ${x}`);
  assert.equal(x[0], '0');
  assert.deepEqual(errors, []);
  await context.close();
});

test('exercise: after one Step the start note ties the logit std at init to the step-1 entropy', async () => {
  const { page, context, errors } = await openExercise();
  await button(page, /^Step$/).click();
  const note = lab(page).locator('[data-note="start"]');
  await note.filter({ hasText: 'Measured at step 1' }).waitFor({ timeout: 60000 });
  const text = await note.textContent();
  const std = /init \(Xavier init\): scaled 1\/√d_k (\d+(?:\.\d+)?) · unscaled (\d+(?:\.\d+)?)/.exec(text);
  assert.ok(std, text);
  assert.ok(Math.abs(Number(std[1]) - 1) < 0.2 && Math.abs(Number(std[2]) - 8) < 1, text);
  // Whether a variant starts saturated is the core's reading, under the Jacobian chart (one definition).
  assert.match(text, /read in the sentence under the softmax Jacobian chart: each layer’s mean top weight at step 1/);
  const h = /entropy \(the mean over layers, the median over seeds\) scaled 1\/√d_k ([\d.]+) nats · unscaled ([\d.]+) nats/.exec(text);
  assert.ok(Number(h[2]) < 0.6 && Number(h[1]) > 1.5, text);
  // The entropy chart's first point is the note's number (the note comes with the status, every 200 ms;
  // the charts follow within a second: wait for them to catch up).
  await waitForRest(page);
  const readout = await readoutItems(page, 'entropy');
  assert.ok(readout.length > 0);
  assert.deepEqual(errors, []);
  await context.close();
});

test('exercise: while runs are at different steps, each variant\'s median is drawn only up to its seeds\' common step', async (t) => {
  const { page, context, errors } = await openExercise();
  await trainThenPause(page);
  const rows = await runRows(page);
  // run ids are `${variant}-${seed}`: the chart goes as far as the variant whose seeds all got furthest
  const variants = [...new Set(rows.map((r) => r.id.replace(/-\d+$/, '')))];
  const common = variants.map((v) => Math.min(...rows.filter((r) => r.id.replace(/-\d+$/, '') === v).map((r) => r.steps)));
  t.diagnostic(`steps per run at pause: ${rows.map((r) => `${r.id} ${r.steps}`)}`);
  // The loss chart's axis goes as far as the furthest seed (each seed's own curve); its medians stop at their
  // variant's common step, so the readout at rest still shows a value for each.
  assert.equal(Number(await chart(page, 'loss').getAttribute('data-points')), Math.max(...rows.map((r) => r.steps)), `common steps ${common}`);
  const items = await readoutItems(page, 'loss');
  assert.equal(items.length, 2);
  for (const item of items) assert.ok(!/ –/.test(item), `readout ${item}`);
  const y = await ticks(page, 'loss', 'y');
  assert.ok(y.length >= 2 && y.every((v) => pageNumber(v) > 0), `log loss ticks ${y}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('exercise: changing a model setting while paused keeps the curves and says Start will restart', async () => {
  const { page, context, errors } = await openExercise();
  await trainThenPause(page);
  const points = await chart(page, 'loss').getAttribute('data-points');
  assert.notEqual(points, '0', 'curves to keep');
  const box = lab(page).locator('input[aria-label="layers (exact value)"]');
  await box.fill('3');
  await box.press('Enter');
  const pending = lab(page).locator('[data-pending]');
  await pending.waitFor({ state: 'visible' });
  assert.match(await pending.textContent(), /Start trains them from step 0 and clears the 6 runs shown \([\d,]+ steps in all\)/);
  assert.equal(await chart(page, 'loss').getAttribute('data-points'), points, 'the old curves stay');
  assert.equal(await button(page, 'Start').textContent(), 'Start (new settings)');
  assert.ok(await button(page, 'Start').isEnabled());
  await pending.locator('button', { hasText: 'Apply now' }).click();
  await pending.waitFor({ state: 'hidden' });
  assert.equal(await chart(page, 'loss').getAttribute('data-points'), '0');
  assert.equal((await runRows(page)).every((r) => r.steps === 0), true);
  assert.equal(await chart(page, 'entropy').locator('.legend-item').count(), 6, '2 variants x 3 layers');
  assert.deepEqual(errors, []);
  await context.close();
});

test('GPT-style init: the start note shows scaled and unscaled start alike', async () => {
  const { page, context, errors } = await newPage(env.browser, { width: 1280 });
  await page.goto(env.url('http', 'index.html', '#init=gpt&seeds=1&steps=20&variants=scaled,unscaled'));
  await waitForDemo(page);
  await button(page, /^Step$/).click();
  const note = lab(page).locator('[data-note="start"]');
  await note.filter({ hasText: 'Measured at step 1' }).waitFor({ timeout: 60000 });
  const text = await note.textContent();
  assert.match(text, /GPT-style init/);
  assert.match(text, /read in the sentence under the softmax Jacobian chart: each layer’s mean top weight at step 1/);
  const h = /entropy \(the mean over layers, the median over seeds\) scaled 1\/√d_k ([\d.]+) nats · unscaled ([\d.]+) nats/.exec(text);
  assert.ok(Math.abs(Number(h[1]) - Number(h[2])) < 0.1, text);
  assert.deepEqual(errors, []);
  await context.close();
});

test('phone: Start, the answer and the loss chart share the first screens; no clipped answer column; heatmaps readable in dark mode', async () => {
  const { page, context, errors } = await newPage(env.browser, { width: 390, height: 844, colorScheme: 'dark' });
  await page.goto(env.url('http', 'index.html', '#steps=40&seeds=1&evalEvery=20&panels=train'));
  await lab(page).locator('button', { hasText: 'Start' }).waitFor();
  const top = async (locator) => (await locator.boundingBox()).y;
  const start = await top(button(page, 'Start'));
  const answer = await top(lab(page).locator('.answer'));
  const loss = await top(chart(page, 'loss'));
  assert.ok(answer - start < 500, `answer ${answer - start} px below Start`);
  assert.ok(loss - start < 844, `loss chart ${loss - start} px below Start`);
  assert.equal(await lab(page).locator('details.settings').evaluate((d) => d.open), false, 'settings start folded on a phone');
  await button(page, 'Start').click();
  await lab(page).locator('.answer[data-final="true"]').waitFor({ timeout: 120000 });
  await waitForRest(page);
  const clipped = await lab(page).locator('.answer .table-scroll').evaluate((e) => e.scrollWidth - e.clientWidth);
  assert.ok(clipped <= 1, `the answer table is ${clipped} px wider than its box`);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth) <= 0);

  const map = chart(page, 'attention-unscaled');
  await map.locator('.chart-readout', { hasText: 'step 40' }).waitFor();
  const [keyLabel, queryLabel, font] = (await map.getAttribute('data-axis-labels')).split('|');
  assert.match(keyLabel, /key position/);
  assert.equal(queryLabel, 'query position');
  assert.ok(Number.parseFloat(font) >= 11, `tick font ${font}`);
  const [halo, line] = (await map.getAttribute('data-guide')).split(',');
  assert.ok(contrast(line, halo) >= 4.5, `dotted guide ${line} on its halo ${halo}`);
  for (const v of ['unscaled', 'scaled']) {
    const cell = variantColour(v, true);
    assert.ok(Math.max(contrast(line, cell), contrast(halo, cell)) >= 3, `guide over a full ${v} cell ${cell}`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});
