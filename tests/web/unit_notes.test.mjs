// The notes next to the exercise's charts are computed from the numbers they are given (train-notes.js).
import test from 'node:test';
import assert from 'node:assert/strict';
import { adamNote, startNote, trendNote, times } from '../../web/src/panels/train-notes.js';

const labelOf = (v) => ({ scaled: 'scaled 1/√d_k', unscaled: 'unscaled' })[v] ?? v;

test('trendNote: the fall from the peak and the growth from the start, with their steps', () => {
  const series = { xs: [1, 2, 3, 4], columns: { scaled: { median: [0.4, 0.5, 0.45, 0.3] }, unscaled: { median: [1.8, 0.9, 0.01, 0.0013] } } };
  const fall = trendNote(series, { what: 'the q/k gradient', labelOf, variants: ['scaled', 'unscaled'], trend: 'fall' });
  assert.equal(fall, 'scaled 1/√d_k: the q/k gradient stayed within 2× of its peak (0.5 at step 2; 0.3 at step 4); '
    + 'unscaled: the q/k gradient fell 1,385× from its peak (1.8 at step 1) to 0.0013 by step 4.');
  const grow = trendNote({ xs: [1, 9], columns: { unscaled: { median: [10, 25] } } }, { what: 'the logit spread', labelOf, variants: ['unscaled'], trend: 'grow' });
  assert.equal(grow, 'unscaled: the logit spread went from 10 at step 1 to 25 at step 9 (2.5× larger).');
  assert.equal(trendNote({ xs: [1], columns: {} }, { what: 'x', labelOf, variants: ['scaled'], trend: 'fall' }), '');
  assert.equal(times(1400.4), '1,400×');
  assert.equal(times(3.21), '3.21×');
});

test('adamNote: gradient gap vs update gap per window; Adam and SGD say different things', () => {
  const windows = [{ fromStep: 1, toStep: 2, perVariant: { scaled: { grad: [1, 1], update: [0.01, 0.01] }, unscaled: { grad: [4, 4], update: [0.005, 0.005] } } },
    { fromStep: 9, toStep: 10, perVariant: { scaled: { grad: [1, 1], update: [0.01, 0.01] }, unscaled: { grad: [0.001, 0.001], update: [0.005, 0.005] } } }];
  const adam = adamNote(windows, { variants: ['scaled', 'unscaled'], labelOf, optimizer: 'adam' });
  assert.equal(adam.rows.length, 2);
  assert.equal(adam.rows[1].gradRatio, 0.001);
  assert.match(adam.text, /steps 1–2: unscaled's q\/k gradient is 4× larger than scaled 1\/√d_k's, its update 2× smaller/);
  assert.match(adam.text, /steps 9–10: unscaled's q\/k gradient is 1,000× smaller than scaled 1\/√d_k's, its update 2× smaller/);
  assert.match(adam.text, /a 1,000× gap in gradient became a 2× gap in step size/);
  const sgd = adamNote(windows, { variants: ['scaled', 'unscaled'], labelOf, optimizer: 'sgd' });
  assert.match(sgd.text, /^Median over seeds; .*SGD steps by the learning rate times/);
  assert.equal(adamNote([{ fromStep: 1, toStep: 2, perVariant: { scaled: { grad: [null], update: [1] } } }], { variants: ['scaled', 'unscaled'], labelOf }), null);
});

test('startNote: the predicted logit std, what it means, and the measured step-1 entropy', () => {
  const o = { variants: ['scaled', 'unscaled'], labelOf };
  const xavier = startNote({ ...o, init: 'xavier', predicted: [1, 8], entropyAtStart: [1.87, 0.39] });
  assert.equal(xavier, 'Predicted attention-logit std at init (Xavier init): scaled 1/√d_k 1 · unscaled 8: a std of 8 makes the softmax nearly '
    + 'one-hot before any learning, so unscaled starts saturated. Measured at step 1: attention entropy scaled 1/√d_k 1.87 nats · '
    + 'unscaled 0.39 nats (the first point of the entropy chart; the heatmaps after one Step show it).');
  const gpt = startNote({ ...o, init: 'gpt', predicted: [0.025, 0.2], entropyAtStart: [null, null] });
  assert.match(gpt, /GPT-style init.*near uniform at the start.*Press Step once/);
  assert.equal(startNote({ ...o, init: 'gpt', predicted: null, entropyAtStart: [] }), '');
});

test('explorer notes: tails against the normal, and the Jacobian norms at the exercise d_k', async () => {
  const { exerciseDkNote, tailNote } = await import('../../web/src/panels/softmax-notes.js');
  assert.match(tailNote(0.003, 128), /^0\.3 % of samples lie beyond 3σ \(a normal: 0\.27 %\): close to normal$/);
  assert.match(tailNote(0.012, 1), /at d_k = 1, q·k is a sum of only 1 product of two normals, which is not normal/);
  const row = (dk, raw, scaled) => ({ dk, raw: { jacobianNorm: { median: raw } }, scaled: { jacobianNorm: { median: scaled } } });
  const rows = [row(32, 0.34, 0.2), row(64, 0.189, 0.199), row(128, 0.063, 0.2), row(1024, 0.00017, 0.2)];
  const text = exerciseDkNote(rows, 64, { dModel: 64, heads: 1 }, 500);
  assert.equal(text, 'At the exercise’s d_k = 64 (d_model 64 / 1 head), the median |J|_F over 500 draws is 0.189 raw vs 0.199 scaled: '
    + 'random q and keys do not saturate the raw softmax yet. Saturation kills the gradient from d_k ≈ 128 on (raw below half of scaled; '
    + 'at 1024: 0.00017 vs 0.2), and inside the model once the attention logits grow during training.');
  assert.match(exerciseDkNote(rows, 32, { dModel: 64, heads: 2 }, 500), /d_model 64 \/ 2 heads.*and it even passes more gradient/);
  assert.match(exerciseDkNote(rows, 128, { dModel: 128, heads: 1 }, 500), /already saturated \(3\.17× less gradient than scaled\)/);
  assert.equal(exerciseDkNote([], 16, { dModel: 16, heads: 1 }, 500), 'The exercise trains with d_k = 16 (d_model 16 / 1 head).');
});
