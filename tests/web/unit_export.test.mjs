// Exports and formatting (web/src/export, web/src/ui/format.js, web/src/worker/protocol.js): pure parts.
import test from 'node:test';
import assert from 'node:assert/strict';
import { RunRecord } from '../../web/src/training/run-record.js';
import { curvesCsvHeader, curvesToCsv, curvesToJson } from '../../web/src/export/curves-export.js';
import { fixed, formatValue } from '../../web/src/ui/format.js';
import { isReply, isRequest, transferablesOf } from '../../web/src/worker/protocol.js';
import { runPlan } from '../../web/src/training/run-plan.js';
import { defaultState } from '../../web/src/state/properties.js';

function record(variant, seed, losses, { diverged = 0 } = {}) {
  const r = new RunRecord({ id: `${variant}-${seed}`, variant, seed, config: { layers: 2, heads: 2, scale: variant, seed } });
  const k = losses.length;
  r.append({ loss: Float32Array.from(losses), gradNorm: new Float32Array(k).fill(1), entropy: Float32Array.from({ length: k * 4 }, (_, i) => i % 4),
    maxLogit: new Float32Array(k * 2).fill(3), topWeight: new Float32Array(k * 2).fill(0.5),
    qkGradNorm: Float32Array.from({ length: k * 2 }, (_, i) => (i % 2 ? 4 : 3)), qkUpdateNorm: new Float32Array(k * 2).fill(0.25),
    logitSpread: new Float32Array(k * 2).fill(2), jacobianNorm: new Float32Array(k * 2).fill(0.125),
    // the core's whole-model combination (a chunk carries it): the q/k norms' norm (3, 4 -> 5), the means
    wholeModel: { qkGradNorm: new Float32Array(k).fill(5), qkUpdateNorm: new Float32Array(k).fill(Math.SQRT1_2 * 0.5),
      logitSpread: new Float32Array(k).fill(2), jacobianNorm: new Float32Array(k).fill(0.125) },
    evals: [{ step: 2, loss: 0.5, tokenAccuracy: 0.75, sequenceAccuracy: 0.25 }], stepsDone: k, diverged: diverged > 0,
    divergedStep: diverged, elapsedMs: 10 });
  return r;
}

test('a run record keeps per-layer entropy as the mean over heads', () => {
  const r = record('scaled', 0, [2, 1]);
  assert.deepEqual(Array.from(r.entropyByLayer[0].view), [0.5, 0.5]);
  assert.deepEqual(Array.from(r.entropyByLayer[1].view), [2.5, 2.5]);
  // Over layers: the whole-model curves are the chunk's (the core combines them).
  assert.deepEqual(Array.from(r.qkGradNorm.view), [5, 5]);
  assert.deepEqual(Array.from(r.logitSpread.view), [2, 2]);
  assert.deepEqual(Array.from(r.qkGradNormByLayer[1].view), [4, 4]);
  assert.equal(r.stepsPerSecond, 200);
  assert.equal(r.sequenceAccuracy, 0.25);
});

test('CSV has one row per run and step, the core\'s columns per layer and head, and the evaluation where it ran', () => {
  const csv = curvesToCsv([record('scaled', 0, [2, 1, 0.5]), record('unscaled', 1, [2, NaN], { diverged: 2 })]);
  const lines = csv.trim().split('\n');
  assert.equal(lines[0], 'variant,seed,step,loss,grad_norm,layer_grad_norm_l1,layer_grad_norm_l2,'
    + 'entropy_l1_h1,entropy_l1_h2,entropy_l2_h1,entropy_l2_h2,max_logit_l1,max_logit_l2,top_weight_l1,top_weight_l2,'
    + 'qk_grad_norm_l1,qk_grad_norm_l2,qk_update_norm_l1,qk_update_norm_l2,logit_spread_l1,logit_spread_l2,'
    + 'jacobian_norm_l1,jacobian_norm_l2,eval_loss,eval_token_accuracy,eval_sequence_accuracy');
  assert.deepEqual(lines[0].split(','), curvesCsvHeader(2, 2));
  assert.equal(lines.length, 1 + 3 + 2);
  // layerGradNorm was not sent: empty cells, as the CLI writes a value that is not there.
  assert.equal(lines[2], 'scaled,0,2,1,1,,,0,1,2,3,3,3,0.5,0.5,3,4,0.25,0.25,2,2,0.125,0.125,0.5,0.75,0.25');
  assert.equal(lines[5].split(',')[3], '');
});

test('JSON carries the settings, every curve and the answer; non-finite numbers become null', () => {
  const runs = [record('scaled', 0, [2, 1]), record('unscaled', 0, [2, NaN], { diverged: 2 })];
  const answer = { outcome: 'never', variants: [{ name: 'scaled', label: 'scaled 1/√d_k' }], sentences: ['…'] };  // lab.compare's result, as shown
  const json = JSON.parse(JSON.stringify(curvesToJson({ settings: { ...defaultState() }, runs, answer, generator: 'test' })));
  assert.equal(json.settings.dk, 128);
  assert.equal(json.threshold, 0.1);
  assert.deepEqual(json.runs[1].loss, [2, null]);
  assert.equal(json.runs[1].diverged, true);
  assert.equal(json.runs[1].divergedStep, 2);
  assert.equal(json.runs[0].entropyByLayer.length, 2);
  assert.deepEqual(json.answer, answer);
  assert.equal(curvesToJson({ settings: { ...defaultState() }, runs, answer: null, generator: 'test' }).answer, null);
  assert.equal(json.runs[0].config.scale, 'scaled');
});

test('formatValue rounds like printf %.3g, powers of ten as ×10ⁿ, fixed like %.4f', () => {
  const cases = [[0.00937940673760617, '0.00938'], [0.1763482109728233, '0.176'], [1.5e-5, '1.5×10⁻⁵'], [1234.5, '1.23×10³'],
    [100, '100'], [0, '0'], [9.9996, '10'], [0.0001, '0.0001'], [0.00009996, '0.0001'], [-0.5, '-0.5']];
  for (const [x, expected] of cases) assert.equal(formatValue(x), expected, String(x));
  assert.equal(fixed(5.705085102098208e-05, 4), '0.0001');
  assert.equal(fixed(1.3308913148749427e-05, 4), '0.0000');
});

test('protocol: well-formed requests and replies, typed arrays to transfer', () => {
  assert.ok(isRequest({ type: 'step', id: 3, steps: 2 }));
  assert.ok(!isRequest({ type: '__proto__', id: 1 }));
  assert.ok(!isRequest({ type: 'step', id: 1.5 }));
  assert.ok(!isRequest(null));
  assert.ok(isReply({ type: 'error', id: 1, message: 'x' }));
  assert.ok(!isReply({ type: 'init', id: 1 }));
  const a = new Float32Array(2);
  const b = new Float64Array(3);
  assert.deepEqual(transferablesOf({ loss: a, result: { raw: { weights: b } }, evals: [{ x: new Float32Array(1) }] }), [a.buffer, b.buffer]);
});

test('the run plan has one run per variant and seed, with the variant as the scale', () => {
  const plan = runPlan({ ...defaultState(), variants: ['scaled', 'alpha'], seeds: 2, trainSeed: 5, trainAlpha: 0.25 });
  assert.deepEqual(plan.map((r) => r.id), ['scaled-5', 'scaled-6', 'alpha-5', 'alpha-6']);
  assert.equal(plan[2].config.scale, 'alpha');
  assert.equal(plan[2].config.alpha, 0.25);
  assert.ok(!('dFf' in plan[0].config) && !('alpha' in plan[0].config), 'd_ff and alpha of other variants are the core\'s defaults');
  assert.equal(plan[1].config.seed, 6);
  assert.equal(plan[0].config.optimizer, 'adam', 'the page\'s optimizer setting, the core\'s default');
  const sgd = runPlan({ ...defaultState(), optimizer: 'sgd', momentum: 0.5 });
  assert.equal(sgd[0].config.optimizer, 'sgd');
  assert.equal(sgd[0].config.momentum, 0.5);
});
