// The mechanism charts under the loss chart: the softmax Jacobian's norm in the model's attention rows, the
// gradient reaching the queries and keys and the attention logit spread (median and band over seeds, log y,
// readouts), each with the core's measured sentence, and the "why" box.  The sentences are the core's (the
// answer's `mechanism`, the same readings as `sqrtdk compare`); here their numbers are recomputed from the
// exported curves, and the box's title is checked against the answer's outcome.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lab, newPage, openLab, pageNumber, waitForRest } from './helpers/browser.mjs';

const STEPS = 150;

const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
};
const mean = (a) => a.reduce((s, x) => s + x, 0) / a.length;
const g3 = (x) => Number(x.toPrecision(3));

test('Jacobian, q/k gradient and logit spread charts, the core\'s sentences under them and the why box match the runs', async () => {
  const env = await openLab();
  try {
    const { page, context, errors } = await newPage(env.browser, { width: 1280 });
    await page.goto(env.url('http', 'index.html', `#seeds=2&steps=${STEPS}&evalEvery=50&variants=scaled,unscaled&panels=train`));
    const l = lab(page);
    const charts = ['jacobian', 'qk-grad', 'logit-spread'];
    // Axes before Start: the charts draw in the page's animation-frame loop, so each is awaited, not read at once.
    for (const name of charts) await l.locator(`[data-chart="${name}"][data-y-ticks]:not([data-y-ticks=""])`).waitFor();
    await l.locator('button', { hasText: 'Start' }).click();
    await l.locator('.answer[data-final="true"]').waitFor({ timeout: 180000 });
    await waitForRest(page);
    // Not a preset's settings: the runs in the claims' form, and no claim beside them.
    assert.match(await l.locator('[data-note="beside-claim"] [data-line="runs"]').textContent(), /^Your seeds 0–1: scaled 1\/√d_k reached loss 0\.1 and ended below on \d of 2/);
    assert.equal(await l.locator('[data-note="beside-claim"] [data-line="claim"]').count(), 0);

    for (const name of charts) {
      const chart = l.locator(`[data-chart="${name}"]`);
      assert.equal(await chart.getAttribute('data-points'), String(STEPS));
      const legend = name === 'jacobian'
        ? ['scaled 1/√d_k · layer 1', 'scaled 1/√d_k · layer 2', 'unscaled · layer 1', 'unscaled · layer 2'] : ['scaled 1/√d_k', 'unscaled'];
      assert.deepEqual(await chart.locator('.legend-item').allTextContents(), legend);
      const y = (await chart.getAttribute('data-y-ticks')).split(',');
      if (name !== 'jacobian') assert.ok(y.every((v) => pageNumber(v) > 0), `${name}: log ticks ${y}`);
    }

    const [file] = await Promise.all([page.waitForEvent('download'), l.locator('button', { hasText: 'Export JSON' }).click()]);
    const data = JSON.parse(readFileSync(await file.path(), 'utf8'));
    const mechanism = data.answer.mechanism;
    assert.ok(mechanism, 'the answer carries the core\'s mechanism readings');
    // Each note is the core's sentences, as the answer has them.
    for (const [note, key] of [['jacobian', 'jacobian'], ['qk-grad', 'qk'], ['logit-spread', 'spread']]) {
      assert.deepEqual(await l.locator(`[data-note="${note}"] p`).allTextContents(), mechanism[key]);
    }
    // The early-window Jacobian norm of the one layer the sentence names for every variant (steps 1-20: mean over
    // the window, median over seeds) is the number it quotes.
    const window = data.answer.definitions.window;
    const early = (variant, layer) => median(data.runs.filter((r) => r.variant === variant)
      .map((r) => mean(r.jacobianNormByLayer[layer].slice(0, window))));
    const jacobian = mechanism.jacobian.join(' ');
    const named = /In layer (\d+), where (unscaled|scaled 1\/√d_k)'s \|J\|_F ends smallest/.exec(jacobian);
    assert.ok(named, jacobian);
    const layer = Number(named[1]) - 1;
    for (const [variant, label] of [['scaled', 'scaled 1/√d_k'], ['unscaled', 'unscaled']]) {
      const m = new RegExp(`steps 1–${window}: .*?${label.replace(/[/√]/g, (c) => `\\${c}`)} ([\\d.e+-]+)[ ;·]`).exec(jacobian);
      assert.ok(m, jacobian);
      assert.equal(Number(m[1]), g3(early(variant, layer)), `${variant}: ${m[1]} vs the export`);
    }
    // Unscaled starts with larger logits (std 8 vs 1 at init) and a smaller |J|: its attention is sharper.
    assert.ok(early('unscaled', 0) < early('scaled', 0));
    assert.match(mechanism.qk.join(' '), /Steps 1–20: unscaled's q\/k gradient is [\d.e+-]+, ([\d.e+-]+× (larger|smaller)|[\d.]+ % smaller) than scaled 1\/√d_k's [\d.e+-]+\./);

    // Saturated: one definition, its window in the sentence: each layer's top weight at step 1 (before any update)
    // and over the last steps, each judged by the core's bar; no mean over layers that would hide a one-hot layer.
    const bar = data.answer.definitions.saturatedTopWeight;
    assert.doesNotMatch(jacobian, /mean top weight/);
    for (const label of ['scaled 1/√d_k', 'unscaled']) {
      const m = new RegExp(`${label.replace(/[/√]/g, (c) => `\\${c}`)}'s top weight per layer .*?: at step 1, before any update \\(layer 1 ([\\d.e+-]+), (not )?saturated.*? · layer 2 ([\\d.e+-]+), (not )?saturated`).exec(jacobian);
      assert.ok(m, jacobian);
      assert.equal(m[2] === undefined, Number(m[1]) >= bar, `${label}: ${m[0]}`);
      assert.equal(m[4] === undefined, Number(m[3]) >= bar, `${label}: ${m[0]}`);
    }
    assert.doesNotMatch(jacobian, /in those first steps/);

    // Each q/k sentence names its seeds: every seed of every variant is in exactly one of its variant's sentences.
    const qk = mechanism.qk.join(' ');
    for (const variant of ['scaled 1/√d_k', 'unscaled']) {
      const named = [...qk.matchAll(new RegExp(`${variant.replace(/[/√]/g, (c) => `\\${c}`)}, seeds? ([\\d, ]+)(?: \\(the medians of these seeds\\))?:`, 'g'))]
        .flatMap((m) => m[1].split(', ').map(Number)).sort();
      assert.deepEqual(named, [0, 1], `${variant}: ${qk}`);
    }
    assert.doesNotMatch(qk, /a small gradient/);

    // The why box: shown once the answer is final, titled by the optimizer's step, ending with the seeds that
    // learned counted and named (no "still learns").
    const box = l.locator('[data-note="why"]');
    assert.equal(await box.isVisible(), true);
    const unscaled = data.answer.variants.find((v) => v.name === 'unscaled');
    const title = await box.locator('h4').textContent();
    assert.equal(title, mechanism.whyTitle);
    assert.equal(title, "What does Adam's step do with unscaled's gradient?");
    const paragraphs = await box.locator('p').allTextContents();
    assert.match(paragraphs[0], /^Adam divides each step by the running size of its own gradient\./);
    const learned = unscaled.runsReaching;
    assert.match(paragraphs.join(' '), learned === 2 ? /unscaled learned on all 2 seeds/
      : learned === 0 ? /unscaled learned on none of its 2 seeds/ : /unscaled learned on 1 of 2 seeds \(seed \d;/);
    assert.doesNotMatch(paragraphs.join(' '), /still learn|passes a direction/);
    // Why unscaled's step does more: the same weight step moves its logits √d_k = 8 times as far, beside the logit
    // spread measured in the runs (steps 1-20, the layers' mean, median over seeds), read here from the export.
    const spreadEarly = (variant) => median(data.runs.filter((r) => r.variant === variant).map((r) => mean(
      Array.from({ length: window }, (_, t) => mean(r.logitSpreadByLayer.map((layer) => layer[t]))))));
    const logits = paragraphs.join(' ');
    assert.match(logits, /Unscaled multiplies q·k by 1 instead of 1\/√d_k = 1\/8, so at the same weights/);
    assert.match(logits, /moves its logits 8× as far as the same change moves scaled 1\/√d_k's/);
    const measured = /unscaled's logit spread is ([\d.]+), ([\d.]+)× scaled 1\/√d_k's ([\d.]+) \(at step 1 both start from the same weights, so there the ratio is exactly 8\)\./.exec(logits);
    assert.ok(measured, logits);
    assert.equal(Number(measured[1]), g3(spreadEarly('unscaled')), logits);
    assert.equal(Number(measured[3]), g3(spreadEarly('scaled')), logits);
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await env.close();
  }
});
