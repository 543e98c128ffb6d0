// The mechanism charts under the loss chart: the gradient reaching the queries and keys and the attention
// logit spread (median and band over seeds, log y, readouts), each with a line computed from the runs, and
// the "Why does Adam still learn?" box, whose ratios are recomputed here from the exported curves.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lab, newPage, openLab, waitForRest } from './helpers/browser.mjs';

const STEPS = 60;
const WINDOW = 20;

const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
};
const mean = (a) => a.reduce((s, x) => s + x, 0) / a.length;
const norm = (values) => Math.sqrt(values.reduce((s, x) => s + x * x, 0));

test('q/k gradient and logit spread charts, their computed lines, and the Adam box match the runs', async () => {
  const env = await openLab();
  try {
    const { page, context, errors } = await newPage(env.browser, { width: 1280 });
    await page.goto(env.url('http', 'index.html', `#seeds=2&steps=${STEPS}&evalEvery=30&variants=scaled,unscaled&panels=train`));
    const l = lab(page);
    for (const name of ['qk-grad', 'logit-spread']) {
      assert.ok((await l.locator(`[data-chart="${name}"]`).getAttribute('data-y-ticks') ?? '').length > 0, `${name}: axes before Start`);
    }
    await l.locator('button', { hasText: 'Start' }).click();
    await l.locator('.answer[data-final="true"]').waitFor({ timeout: 120000 });
    await waitForRest(page);

    for (const name of ['qk-grad', 'logit-spread']) {
      const chart = l.locator(`[data-chart="${name}"]`);
      assert.equal(await chart.getAttribute('data-points'), String(STEPS));
      assert.deepEqual(await chart.locator('.legend-item').allTextContents(), ['scaled 1/√d_k', 'unscaled']);
      const y = (await chart.getAttribute('data-y-ticks')).split(',');
      assert.ok(y.every((v) => Number(v) > 0), `${name}: log ticks ${y}`);
      const items = await chart.locator('.chart-readout .readout-item').allTextContents();
      assert.equal(items.length, 2);
      assert.ok(items.every((t) => /\d/.test(t) && t.includes('(')), `${name}: readout with seed range ${items}`);
      await chart.locator('.legend-item', { hasText: 'unscaled' }).click();
      assert.equal(await chart.locator('.chart-readout .readout-item').count(), 1, 'a legend toggle hides a variant');
      await chart.locator('.legend-item', { hasText: 'unscaled' }).click();
    }

    const [file] = await Promise.all([page.waitForEvent('download'), l.locator('button', { hasText: 'Export JSON' }).click()]);
    const data = JSON.parse(readFileSync(await file.path(), 'utf8'));
    // Per run and step: the q/k gradient over all layers (one norm), its update, the spread (mean over layers).
    const combined = (run, name, step, how) => {
      const values = run[`${name}ByLayer`].map((c) => c[step - 1]);
      return how === 'norm' ? norm(values) : mean(values);
    };
    const medianAt = (variant, name, step, how) => median(data.runs.filter((r) => r.variant === variant).map((r) => combined(r, name, step, how)));
    for (const run of data.runs) {
      assert.equal(run.qkGradNormByLayer.length, 2);
      assert.ok(run.qkGradNormByLayer.every((c) => c.length === STEPS && c.every((x) => x > 0)));
      assert.ok(run.logitSpreadByLayer.every((c) => c.every((x) => x > 0)));
    }

    // The line under the spread chart ends at the chart's last point (smoothing 20: trailing mean of the last 20).
    const spreadNote = await l.locator('[data-note="logit-spread"]').textContent();
    const smoothedLast = (variant) => median(data.runs.filter((r) => r.variant === variant).map((r) => {
      const values = [];
      for (let s = STEPS - 19; s <= STEPS; s += 1) values.push(combined(r, 'logitSpread', s, 'mean'));
      return mean(values);
    }));
    for (const [variant, label] of [['scaled', 'scaled 1/√d_k'], ['unscaled', 'unscaled']]) {
      const m = new RegExp(`${label.replace(/[/√]/g, (c) => `\\${c}`)}: the logit spread went from [\\d.e+-]+ at step 1 to ([\\d.e+-]+) at step ${STEPS}`).exec(spreadNote);
      assert.ok(m, spreadNote);
      assert.ok(Math.abs(Number(m[1]) / smoothedLast(variant) - 1) < 0.01, `${variant}: note ${m[1]} vs ${smoothedLast(variant)}`);
    }
    assert.match(await l.locator('[data-note="qk-grad"]').textContent(), /unscaled: the q\/k gradient (fell [\d,.]+× from its peak|stayed within 2× of its peak)/);
    // Unscaled starts more spread than scaled (logit std 8 vs 1 at init).
    assert.ok(medianAt('unscaled', 'logitSpread', 1, 'mean') > 4 * medianAt('scaled', 'logitSpread', 1, 'mean'));

    const box = await l.locator('[data-note="why-adam"]').textContent();
    assert.match(box, /^Why does Adam still learn\?/);
    for (const [from, to] of [[1, WINDOW], [STEPS - WINDOW + 1, STEPS]]) {
      const ratio = (name) => {
        const over = (variant) => {
          const values = [];
          for (let s = from; s <= to; s += 1) values.push(medianAt(variant, name, s, 'norm'));
          return mean(values);
        };
        return over('unscaled') / over('scaled');
      };
      const m = new RegExp(`steps ${from}–${to}: unscaled's q/k gradient is ([\\d.,]+)× (larger|smaller) than scaled 1/√d_k's, its update ([\\d.,]+)× (larger|smaller)`).exec(box);
      assert.ok(m, box);
      const shown = (value, word) => (word === 'larger' ? Number(value.replace(/,/g, '')) : 1 / Number(value.replace(/,/g, '')));
      assert.ok(Math.abs(shown(m[1], m[2]) / ratio('qkGradNorm') - 1) < 0.01, `gradient ratio ${m[1]} ${m[2]} vs ${ratio('qkGradNorm')}`);
      assert.ok(Math.abs(shown(m[3], m[4]) / ratio('qkUpdateNorm') - 1) < 0.01, `update ratio ${m[3]} ${m[4]} vs ${ratio('qkUpdateNorm')}`);
    }
    assert.match(box, /Adam divides each step by the running size of its own gradient: a [\d.,]+× gap in gradient became a [\d.,]+× gap in step size/);
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await env.close();
  }
});
