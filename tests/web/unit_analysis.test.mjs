// web/src/analysis: the request the page sends to lab.compare (the answer itself is the core's: tests/node/
// analysis.test.mjs), "latest wins" for the answer, and the display curves of the charts.
import test from 'node:test';
import assert from 'node:assert/strict';
import { AnswerClient, compareRequest } from '../../web/src/analysis/answer-client.js';
import { displaySteps, seedBand, smoothForDisplay } from '../../web/src/analysis/curves.js';
import { RunRecord } from '../../web/src/training/run-record.js';

function slot(variant, seed, losses, status = 'training', divergedStep = 0) {
  const record = new RunRecord({ id: `${variant}-${seed}`, variant, seed, config: { layers: 1, heads: 1 } });
  const k = losses.length;
  if (k) {
    record.append({ loss: Float32Array.from(losses), gradNorm: new Float32Array(k), entropy: new Float32Array(k), maxLogit: new Float32Array(k),
      topWeight: new Float32Array(k), evals: [], stepsDone: k, diverged: divergedStep > 0, divergedStep, elapsedMs: 1 });
  }
  return { record, status };
}
const settings = { variants: ['scaled', 'alpha'], trainAlpha: 1, threshold: 0.1, steps: 400 };

test('the request: variants in the page\'s order, alpha only for the alpha variant, exact curves, stopped runs', () => {
  const slots = [slot('alpha', 3, [2, 1], 'diverged', 2), slot('scaled', 3, [2, 1.5, 1], 'done'), slot('scaled', 4, [])];
  const request = compareRequest(slots, settings);
  assert.deepEqual(request.variants.map((v) => [v.name, v.scale, v.alpha]), [['scaled', 'scaled', undefined], ['alpha', 'alpha', 1]]);
  assert.equal(Object.hasOwn(request.variants[0], 'alpha'), false);
  const [done, waiting] = request.variants[0].runs;
  assert.deepEqual(Array.from(done.loss), [2, 1.5, 1]);
  assert.equal(done.loss.buffer.byteLength, 3 * 4);  // a copy of the filled part, not the record's whole buffer
  assert.deepEqual([done.stopped, waiting.stopped, request.variants[1].runs[0].stopped], [true, false, true]);
  assert.equal(done.sequenceAccuracy, null);  // no evaluation yet: null, not NaN
  assert.equal(request.variants[1].runs[0].divergedStep, 2);
  assert.deepEqual(compareRequest([], settings).variants, []);
});

test('the answer client: one request per change, latest wins, answers for other settings or reset runs are dropped', async () => {
  const sent = [];
  const helper = { latest: (kind, request) => new Promise((resolve) => sent.push({ kind, request, resolve })) };
  const shown = [];
  const client = new AnswerClient(helper, { onAnswer: (a) => shown.push(a), onError: (e) => { throw e; } });
  const slots = [slot('scaled', 0, [2, 1])];
  client.update(slots, settings);
  client.update(slots, settings);
  assert.equal(sent.length, 1);
  assert.equal(sent[0].kind, 'answer');
  assert.equal(sent[0].request.type, 'compare');

  slots[0].record.append({ loss: Float32Array.of(0.5), gradNorm: new Float32Array(1), entropy: new Float32Array(1), maxLogit: new Float32Array(1),
    topWeight: new Float32Array(1), evals: [], stepsDone: 3, diverged: false, divergedStep: 0, elapsedMs: 1 });
  client.update(slots, settings);  // the same runs, longer: its answer replaces the first
  assert.equal(sent.length, 2);
  sent[0].resolve({ result: { id: 'shorter' } });
  await null;
  assert.deepEqual(shown.map((a) => a.id), ['shorter']);  // still the same runs: shown until the newer one comes
  client.update(slots, { ...settings, threshold: 0.2 });
  sent[1].resolve({ result: { id: 'old threshold' } });
  sent[2].resolve(null);  // superseded
  await null;
  assert.deepEqual(shown.map((a) => a.id), ['shorter']);
  assert.equal(client.answer, null);

  const reset = [slot('scaled', 0, [2])];  // the same plan, started again: shorter curves
  client.update(reset, { ...settings, threshold: 0.2 });
  sent[3].resolve({ result: { id: 'after reset' } });
  await null;
  assert.deepEqual(shown.map((a) => a.id), ['shorter', 'after reset']);

  // A reply that arrives after its runs were reset, before the next update: dropped, for the answer box and for
  // the listeners (the element's sqrtdk-answer) alike.
  const heard = [];
  client.onEachAnswer((a) => heard.push(a.id));
  reset[0].record.append({ loss: Float32Array.of(1), gradNorm: new Float32Array(1), entropy: new Float32Array(1), maxLogit: new Float32Array(1),
    topWeight: new Float32Array(1), evals: [], stepsDone: 2, diverged: false, divergedStep: 0, elapsedMs: 1 });
  client.update(reset, { ...settings, threshold: 0.2 });
  reset[0].record.clear();
  sent[4].resolve({ result: { id: 'before the reset' } });
  await null;
  assert.deepEqual(shown.map((a) => a.id), ['shorter', 'after reset']);
  assert.deepEqual(heard, []);
});

test('the answer client: after a slow answer the next waits four times its time, and still comes', async () => {
  const sent = [];
  const helper = { latest: (kind, request) => new Promise((resolve) => sent.push({ request, resolve })) };
  const client = new AnswerClient(helper, { onAnswer: () => {}, onError: (e) => { throw e; } });
  const slots = [slot('scaled', 0, [2, 1])];
  const grow = () => slots[0].record.append({ loss: Float32Array.of(0.5), gradNorm: new Float32Array(1), entropy: new Float32Array(1),
    maxLogit: new Float32Array(1), topWeight: new Float32Array(1), evals: [], stepsDone: slots[0].record.stepsDone + 1,
    diverged: false, divergedStep: 0, elapsedMs: 1 });
  const pause = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });
  client.update(slots, settings);
  await pause(60);
  sent[0].resolve({ result: { id: 'slow' } });  // took 60 ms or more: over the 50 ms of a slow answer
  await null;
  grow();
  client.update(slots, settings);
  assert.equal(sent.length, 1);  // held back
  assert.equal(client.pending, true);
  grow();
  client.update(slots, settings);  // the latest runs replace the held request
  while (sent.length < 2) await pause(20);  // a state, not a time: comes after the gap however loaded the machine
  assert.equal(sent.length, 2);
  assert.equal(sent[1].request.request.variants[0].runs[0].loss.length, 4);
  client.update(slots, { ...settings, threshold: 0.2 });  // other settings: at once
  assert.equal(sent.length, 3);
});

test('display curves: median and range over seeds, thinned steps, trailing-mean smoothing', () => {
  const band = seedBand([[1, 5, NaN], [3, 1], [2, 2, 2]], [1, 2, 3]);
  assert.deepEqual(band.median, [2, 2, 2]);
  assert.deepEqual(band.lo, [1, 1, 2]);
  assert.deepEqual(band.hi, [3, 5, 2]);
  assert.deepEqual(displaySteps(5), [1, 2, 3, 4, 5]);
  const thin = displaySteps(10000, 1500);
  assert.ok(thin.length <= 1501 && thin.at(-1) === 10000);
  assert.deepEqual(Array.from(smoothForDisplay(Float32Array.from([2, 4, Infinity]), 2)), [2, 3, Infinity]);
  assert.deepEqual(Array.from(smoothForDisplay(Float32Array.from([4, 2, 0, 2]), 2)), [4, 3, 1, 1]);
});
