// The notes next to the exercise's charts are computed from the numbers they are given (train-notes.js).
import test from 'node:test';
import assert from 'node:assert/strict';
import { startNote } from '../../web/src/exercise/train-notes.js';
import { drawNotes } from '../../web/src/explorer/softmax-notes.js';

const labelOf = (v) => ({ scaled: 'scaled 1/√d_k', unscaled: 'unscaled' })[v] ?? v;

test('startNote: the predicted logit std and the measured step-1 entropy; saturation is left to the core\'s reading', () => {
  const o = { variants: ['scaled', 'unscaled'], labelOf };
  const xavier = startNote({ ...o, init: 'xavier', predicted: [1, 8], entropyAtStart: [1.87, 0.39] });
  assert.equal(xavier, 'Predicted attention-logit std at init (Xavier init): scaled 1/√d_k 1 · unscaled 8. Measured at step 1: attention '
    + 'entropy (the mean over layers, the median over seeds) scaled 1/√d_k 1.87 nats · unscaled 0.39 nats (the first point of the entropy chart; the heatmaps after one Step show it). '
    + 'Whether a variant starts saturated (one key taking almost all the weight) is read in the sentence under the softmax Jacobian chart: each layer’s mean top weight at step 1.');
  const gpt = startNote({ ...o, init: 'gpt', predicted: [0.025, 0.2], entropyAtStart: [null, null] });
  assert.match(gpt, /GPT-style init.*Press Step once/);
  assert.equal(startNote({ ...o, init: 'gpt', predicted: null, entropyAtStart: [] }), '');
});

test('explorer notes: tails against the normal, and the Jacobian norms at the exercise d_k', async () => {
  const { exerciseDkNote, tailNote } = await import('../../web/src/explorer/softmax-notes.js');
  assert.match(tailNote(0.003, 128), /^0\.3 % of samples lie more than 3 standard deviations \(3σ\) from 0 \(a normal: 0\.27 %\): less than twice a normal's share, which this page reads as tails like the dashed normal curve's \(no heavy tail of large scores\)$/);
  assert.match(tailNote(0.012, 1), /at d_k = 1, q·k is a sum of only 1 product of two normals, which is not normal/);
  // The sweep's rows: median top weight and |J|_F, raw and scaled.  Saturated means a top weight of at least
  // the core's bar (0.9), as the training notes judge it, not a |J|_F rule.
  const row = (dk, rawTop, raw, scaled) => ({ dk, raw: { maxWeight: { median: rawTop }, jacobianNorm: { median: raw } },
    scaled: { maxWeight: { median: 0.13 }, jacobianNorm: { median: scaled } } });
  const rows = [row(32, 0.7, 0.34, 0.2), row(64, 0.859, 0.189, 0.199), row(128, 0.95, 0.063, 0.2), row(1024, 0.9999, 0.00017, 0.2)];
  // The sweep's result carries the core's |J|_F of an even row of its keys (sqrt(keys - 1) / keys).
  const sweep = (r, keys = 50) => ({ rows: r, evenRowJacobianNorm: Math.sqrt(keys - 1) / keys });
  const text = exerciseDkNote(sweep(rows), 64, { dModel: 64, heads: 1, keys: 50, copyLength: 10 }, 500);
  // Raw beside scaled with the same digits (0.200, not 0.2), and the exercise's own rows said: 1 to 2L + 1 keys, not 50.
  assert.equal(text, 'At the exercise’s d_k = 64 (d_model 64 / 1 head), over 500 draws of 50 keys the median top weight is 0.859 raw '
    + 'vs 0.130 scaled and the median |J|_F 0.189 raw vs 0.199 scaled: the raw softmax is not saturated yet (saturated: a top weight '
    + 'of at least 0.9). From d_k ≈ 128 on, the median draw’s raw softmax is saturated, and its |J|_F falls towards 0 (at 1024: 0.000170 raw '
    + 'vs 0.200 scaled, medians). |J|_F also shrinks as a row gets '
    + 'longer: 50 keys sharing the weight evenly give 0.14, so compare raw with scaled at the same number of keys. These rows have 50 keys; '
    + 'in the exercise each query attends to itself and the tokens before it, so its rows have 1 to 2L + 1 keys (L, the copy length: 10), '
    + 'and its q and k are learned, not drawn from N(0, 1).');
  assert.match(exerciseDkNote(sweep(rows, 2), 32, { dModel: 64, heads: 2, keys: 2 }, 500), /d_model 64 \/ 2 heads.*2 keys sharing the weight evenly give 0\.5,/);
  assert.match(exerciseDkNote(sweep(rows), 128, { dModel: 128, heads: 1, keys: 50 }, 500), /already saturated \(a top weight of at least 0\.9\)/);
  assert.match(exerciseDkNote(sweep(rows.slice(0, 2)), 64, { dModel: 64, heads: 1, keys: 50 }, 500), /never reaches a median top weight of 0\.9\./);
  assert.equal(exerciseDkNote(null, 16, { dModel: 16, heads: 1, keys: 50 }, 500), 'The exercise trains with d_k = 16 (d_model 16 / 1 head).');
});

test('a saturated draw whose top weight rounds to 1 says what the other keys keep, never "takes 1 of the weight"', () => {
  const standing = { size: 200, inSet: true, median: { seed: 0 }, flatter: 120, rank: 121, top: { median: 0.951, q1: 0.783, q3: 0.998 },
    saturated: 110, rawPassesMore: 60, rawPassesMoreSaturated: 2 };
  const demo = (max) => ({ seed: 3, dk: 128, keys: 50, raw: { max, jacobianNorm: 0.0004, effectiveKeys: 1.0 },
    scaled: { max: 0.3, jacobianNorm: 0.2, effectiveKeys: 12 } });
  const near = drawNotes(standing, demo(0.9997), 'opens').reading;
  assert.match(near, /its top key takes all but 0\.0003 of the weight/);
  assert.doesNotMatch(near, /takes 1 of the weight/);
  assert.match(drawNotes(standing, demo(0.95), 'opens').reading, /its top key takes 0\.95 of the weight/);
});
