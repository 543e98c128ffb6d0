// Exports: the curves as CSV and JSON (with the configuration) and each chart as PNG, caught as downloads.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lab, newPage, openLab, waitForDemo } from './helpers/browser.mjs';

const PNG_SIGNATURE = '89504e470d0a1a0a';

async function download(page, click) {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  return { name: file.suggestedFilename(), body: readFileSync(await file.path()) };
}

test('http: CSV, JSON and PNG exports contain the expected fields', async () => {
  const env = await openLab();
  try {
    const { page, context, errors } = await newPage(env.browser);
    await page.goto(env.url('http', 'index.html', '#seeds=2&steps=40&evalEvery=20&variants=scaled,unscaled&lr=0.002'));
    await waitForDemo(page);
    const l = lab(page);
    await l.locator('button', { hasText: 'Start' }).click();
    await l.locator('.answer[data-final="true"]').waitFor({ timeout: 120000 });

    const csv = await download(page, () => l.locator('button', { hasText: 'Export CSV' }).click());
    assert.equal(csv.name, 'sqrtdk-curves.csv');
    const lines = csv.body.toString('utf8').trim().split('\n');
    const header = lines[0].split(',');
    assert.deepEqual(header.slice(0, 5), ['variant', 'seed', 'step', 'loss', 'grad_norm']);
    for (const column of ['entropy_l1_h1', 'entropy_l2_h1', 'max_logit_l2', 'top_weight_l1', 'eval_sequence_accuracy']) assert.ok(header.includes(column), column);
    assert.equal(lines.length, 1 + 4 * 40);
    const rows = lines.slice(1).map((l) => l.split(','));
    assert.deepEqual([...new Set(rows.map((r) => `${r[0]}-${r[1]}`))], ['scaled-0', 'scaled-1', 'unscaled-0', 'unscaled-1']);
    assert.ok(rows.every((r) => Number.isFinite(Number(r[3])) && Number(r[3]) > 0));
    const evalRow = rows.find((r) => r[0] === 'scaled' && r[2] === '20');
    assert.ok(Number(evalRow.at(-1)) >= 0 && Number(evalRow.at(-1)) <= 1);

    const json = await download(page, () => l.locator('button', { hasText: 'Export JSON' }).click());
    const data = JSON.parse(json.body.toString('utf8'));
    assert.equal(data.format, 'sqrtdk-lab curves v1');
    assert.equal(data.settings.lr, 0.002);
    assert.equal(data.settings.steps, 40);
    assert.deepEqual(data.settings.variants, ['scaled', 'unscaled']);
    assert.equal(data.runs.length, 4);
    for (const run of data.runs) {
      assert.equal(run.loss.length, 40);
      assert.equal(run.config.lr, 0.002);
      assert.equal(run.config.scale, run.variant);
      assert.equal(run.config.seed, run.seed);
      assert.equal(run.entropyByLayer.length, 2);
      assert.deepEqual(run.evals.map((e) => e.step), [20, 40]);
    }
    assert.equal(data.answer.final, true);
    assert.deepEqual(data.answer.variants.map((v) => v.name), ['scaled', 'unscaled']);
    assert.match(data.answer.sentences[0], /^(scaled 1\/√d_k reached|unscaled did not reach|Neither unscaled nor scaled 1\/√d_k reached) smoothed loss/);  // the core's answer, as shown

    for (const chart of ['loss', 'accuracy', 'entropy', 'attention-unscaled', 'weights', 'dots-raw', 'sweep-jacobianNorm']) {
      const png = await download(page, () => l.locator(`[data-chart="${chart}"] button`, { hasText: 'PNG' }).click());
      assert.equal(png.name, `sqrtdk-${chart}.png`);
      assert.equal(png.body.subarray(0, 8).toString('hex'), PNG_SIGNATURE, chart);
      assert.ok(png.body.length > 2000, `${chart}: ${png.body.length} bytes`);
    }
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await env.close();
  }
});
