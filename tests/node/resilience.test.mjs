// After 100 varied invalid calls the module is unchanged: the canonical run learns and matches a fresh module.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { freshLab } from './helpers.mjs';

const STEPS = 200;

// validateConfig reports instead of throwing: a non-empty report counts as a throw.
function rejected(report) {
  if (report) throw new Error(report);
}

// 100 invalid calls over every entry point, each expected to throw an Error; `victim` is a live trainer.
function invalidCalls(lab, victim, deleted) {
  const poisoned = { get dModel() { throw new RangeError('getter failed'); } };
  const configs = [{ dModel: '64' }, { lr: NaN }, { batch: -3 }, { heads: 1.5 }, { bogus: 1 }, { dModel: 65, heads: 2 },
    { scale: 'none' }, { seed: 2 ** 60 }, { beta2: Infinity }, { batch: 1024, copyLength: 64 }, 42, [], poisoned];
  const calls = [];
  for (const config of configs) {
    calls.push(() => lab.createTrainer(config), () => lab.predictedLogitStd(config));
    if (config !== poisoned) calls.push(() => rejected(lab.validateConfig(config)));
  }
  for (const k of [0, -5, 1.5, NaN, Infinity, '1', null, 1e6]) calls.push(() => victim.step(k));
  for (const args of [[64, 0, 0], [0, 2, 0], [0, 0, 1], [-1, 0, 0], [0.5, 0, 0], [0, 'a', 0], []]) {
    calls.push(() => victim.attentionMap(...args));
  }
  for (const seed of [-1, 0.5, 2 ** 53, NaN, 'x', {}]) calls.push(() => victim.reset(seed));
  for (const options of [{ dk: 0 }, { keys: 1 }, { top: 99 }, { alpha: -1 }, { dk: 'x' }, { extra: 1 }, 3]) {
    calls.push(() => lab.softmaxDemo(options));
  }
  for (const options of [{ dks: [] }, { dks: [0] }, { dks: 'x' }, { draws: 0 }, { dks: [1.5] }, { keys: NaN }]) {
    calls.push(() => lab.sweep(options));
  }
  for (const options of [{ bins: 0 }, { bins: 1001 }, { halfWidth: -1 }, { dk: 1e9 }, { draws: 'many' }]) {
    calls.push(() => lab.histogram(options));
  }
  for (const call of [() => deleted.step(1), () => deleted.status(), () => deleted.evaluate(), () => deleted.reset(0)]) {
    calls.push(call);
  }
  for (let layers = 13; calls.length < 100; layers++) calls.push(() => lab.createTrainer({ layers }));
  return calls;
}

test(`after 100 invalid calls the canonical run learns (loss < 0.5 by step ${STEPS}) as in a fresh module`, async (t) => {
  const reference = await freshLab();
  const fresh = reference.createTrainer({ seed: 0 });
  const expected = fresh.step(STEPS).loss;
  fresh.delete();

  const lab = await freshLab();
  const survivor = lab.createTrainer({ seed: 0 });
  const deleted = lab.createTrainer({});
  deleted.delete();
  const calls = invalidCalls(lab, survivor, deleted);
  assert.equal(calls.length, 100);
  for (const [i, call] of calls.entries()) assert.throws(call, Error, `call ${i} should throw an Error`);

  const survivorLoss = survivor.step(STEPS).loss;
  const newcomer = lab.createTrainer({ seed: 0 });
  const newcomerLoss = newcomer.step(STEPS).loss;
  const tail = (loss) => loss.slice(-20).reduce((a, b) => a + b, 0) / 20;
  t.diagnostic(`mean loss of steps ${STEPS - 19}-${STEPS}: ${tail(expected).toFixed(4)} (fresh module), ` +
    `${tail(survivorLoss).toFixed(4)} (trainer hit by the invalid calls), ${tail(newcomerLoss).toFixed(4)} (new trainer)`);
  assert.ok(tail(expected) < 0.5);
  assert.deepEqual(survivorLoss, expected);
  assert.deepEqual(newcomerLoss, expected);
  survivor.delete();
  newcomer.delete();
});
