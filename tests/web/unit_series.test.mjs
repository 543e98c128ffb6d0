// Chart series shaping (web/src/training/series.js): median and band over seeds drawn only where every
// run still going has data, per-layer curves, accuracy at evaluation steps.
import test from 'node:test';
import assert from 'node:assert/strict';
import { RunRecord } from '../../web/src/training/run-record.js';
import { accuracySeries, commonEvalSteps, commonSteps, layerSeries, lossSeries, runSeeds, runSeries } from '../../web/src/training/series.js';

/** A run view (as Exercise.slots gives) with `n` steps of loss `f(step)`, 2 layers x 1 head. */
function view(variant, seed, n, f, status = 'training', evalEvery = 0) {
  const r = new RunRecord({ id: `${variant}-${seed}`, variant, seed, config: { layers: 2, heads: 1 } });
  const loss = Float32Array.from({ length: n }, (_, i) => f(i + 1));
  const evals = [];
  for (let s = evalEvery; evalEvery && s <= n; s += evalEvery) evals.push({ step: s, loss: 0, tokenAccuracy: 0, sequenceAccuracy: s / 100 });
  r.append({ loss, gradNorm: loss, entropy: Float32Array.from({ length: 2 * n }, (_, i) => (i % 2 ? 2 : 1) * seed),
    maxLogit: new Float32Array(2 * n), topWeight: new Float32Array(2 * n), evals, stepsDone: n,
    divergedStep: status === 'diverged' ? n : 0, elapsedMs: 1 });
  return { record: r, status };
}

test('the median is drawn only up to the step every running seed has reached (no leading-edge spike)', () => {
  // seed 1 is ahead with a much higher loss: a median over it alone would jump at steps 6..10
  const views = [view('scaled', 0, 5, () => 1), view('scaled', 1, 10, () => 9), view('scaled', 2, 7, () => 2)];
  assert.equal(commonSteps(views), 5);
  const { xs, columns } = lossSeries(views, ['scaled'], 1);
  // The axis goes as far as the furthest seed; median and band stop at step 5, each seed's line at its own end.
  assert.deepEqual(xs, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  const none = [null, null, null, null, null];
  assert.deepEqual(columns.scaled.median, [2, 2, 2, 2, 2, ...none]);
  assert.deepEqual(columns.scaled.lo, [1, 1, 1, 1, 1, ...none]);
  assert.deepEqual(columns.scaled.hi, [9, 9, 9, 9, 9, ...none]);
  assert.deepEqual(columns.scaled.seeds, [[1, 1, 1, 1, 1, ...none], Array(10).fill(9), [2, 2, 2, 2, 2, 2, 2, null, null, null]]);
});

test('a run that stopped early counts up to where it stopped; all stopped: the longest', () => {
  const views = [view('scaled', 0, 3, () => 1, 'diverged'), view('scaled', 1, 8, () => 3), view('unscaled', 0, 6, () => 5)];
  assert.equal(commonSteps(views), 6);
  const { xs, columns } = lossSeries(views, ['scaled', 'unscaled'], 1);
  assert.deepEqual(xs, [1, 2, 3, 4, 5, 6, 7, 8]);
  assert.deepEqual(columns.scaled.median, [2, 2, 2, 3, 3, 3, 3, 3]);
  assert.equal(commonSteps([view('a', 0, 3, () => 1, 'diverged'), view('a', 1, 9, () => 1, 'done')]), 9);
  assert.equal(commonSteps([]), 0);
});

test('each variant is drawn as far as its own seeds have gone (open runs train first and run ahead)', () => {
  const views = [view('scaled', 0, 4, () => 1), view('scaled', 1, 4, () => 3), view('unscaled', 0, 9, () => 5), view('unscaled', 1, 7, () => 7)];
  const { xs, columns } = lossSeries(views, ['scaled', 'unscaled'], 1);
  assert.deepEqual(xs, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.deepEqual(columns.scaled.median, [2, 2, 2, 2, null, null, null, null, null]);
  assert.deepEqual(columns.unscaled.median, [6, 6, 6, 6, 6, 6, 6, null, null]);
  assert.deepEqual(columns.unscaled.seeds[0], Array(9).fill(5));
  const evals = [view('scaled', 0, 20, () => 1, 'training', 10), view('unscaled', 0, 40, () => 1, 'training', 10)];
  const accuracy = accuracySeries(evals, ['scaled', 'unscaled']);
  assert.deepEqual(accuracy.xs, [10, 20, 30, 40]);
  assert.deepEqual(accuracy.columns.scaled.median, [0.1, 0.2, null, null]);
  assert.deepEqual(accuracy.columns.unscaled.median, [0.1, 0.2, 0.3, 0.4]);
});

test('smoothing is a trailing mean over the window', () => {
  const { columns } = lossSeries([view('scaled', 0, 4, (s) => s)], ['scaled'], 2);
  assert.deepEqual(columns.scaled.median, [1, 1.5, 2.5, 3.5]);
});

test('accuracy is shown at the evaluation steps every running seed has reached', () => {
  const views = [view('scaled', 0, 50, () => 1, 'training', 10), view('scaled', 1, 35, () => 1, 'training', 10)];
  assert.deepEqual(commonEvalSteps(views), [10, 20, 30]);
  const { xs, columns } = accuracySeries(views, ['scaled']);
  assert.deepEqual(xs, [10, 20, 30]);
  assert.deepEqual(columns.scaled.median, [0.1, 0.2, 0.3]);
});

test('per-layer series: one curve per variant and layer, median only unless a band is asked for', () => {
  const views = [view('scaled', 1, 4, () => 1), view('scaled', 3, 4, () => 1)];
  const { xs, columns } = layerSeries(views, ['scaled'], 2, 'entropyByLayer', 1);
  assert.deepEqual(xs, [1, 2, 3, 4]);
  assert.deepEqual(Object.keys(columns), ['scaled-l0', 'scaled-l1']);
  assert.deepEqual(columns['scaled-l0'].median, [2, 2, 2, 2]);
  assert.deepEqual(columns['scaled-l1'].median, [4, 4, 4, 4]);
  assert.equal(columns['scaled-l0'].lo, undefined);
  const banded = layerSeries(views, ['scaled'], 2, 'entropyByLayer', 1, { band: true });
  assert.deepEqual(banded.columns['scaled-l1'].lo, [2, 2, 2, 2]);
  assert.deepEqual(banded.columns['scaled-l1'].hi, [6, 6, 6, 6]);
});

test('one seed shown: its own curves instead of the median; a seed without a run shows the median', () => {
  const views = [view('scaled', 1, 4, (s) => s), view('scaled', 3, 4, (s) => 10 * s), view('unscaled', 3, 4, () => 7)];
  assert.deepEqual(runSeeds(views), [1, 3]);
  const one = runSeries(views, ['scaled', 'unscaled'], 'loss', 1, 3);
  assert.deepEqual(one.columns.scaled.median, [10, 20, 30, 40]);
  assert.deepEqual(one.columns.scaled.lo, [10, 20, 30, 40]);  // one run: no band around it
  assert.deepEqual(one.columns.unscaled.median, [7, 7, 7, 7]);
  assert.deepEqual(runSeries(views, ['scaled'], 'loss', 1, 1).columns.scaled.median, [1, 2, 3, 4]);
  assert.deepEqual(runSeries(views, ['scaled'], 'loss', 1, 5).columns.scaled.median, [5.5, 11, 16.5, 22]);
  assert.deepEqual(runSeries(views, ['scaled'], 'loss', 1, -1).columns.scaled.median, [5.5, 11, 16.5, 22]);
  const layers = layerSeries(views, ['scaled'], 2, 'entropyByLayer', 1, { seed: 1 });
  assert.deepEqual(layers.columns['scaled-l1'].median, [2, 2, 2, 2]);
});
