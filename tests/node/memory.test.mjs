// Long runs and many trainers: the wasm heap stops growing and no Embind handle is left behind.
//
// heapBytes() only moves when malloc runs out of room, so a leak smaller than the heap's free space does not show
// in it; each test therefore ends by measuring that free space (heapSlackBytes) and prints the smallest leak the
// test would have caught.  The count of live Embind value handles (count_emval_handles) is exact.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { freshLab, heapSlackBytes, mib } from './helpers.mjs';

// Runs `steps` steps in chunks of `chunk` with checkpoints every `every` steps; returns the heap at each.
function longRun(lab, trainer, { steps, chunk, every }) {
  const heap = [];
  for (let done = 0; done < steps; done += chunk) {
    trainer.step(chunk);
    if ((done + chunk) % every === 0) heap.push(lab.heapBytes());
  }
  return heap;
}

function report(t, label, lab, { warm, checkpoints, handles, count, unit }) {
  const slack = heapSlackBytes(lab);
  t.diagnostic(`${label}: heap after warm-up ${mib(warm)}; at checkpoints ${checkpoints.map(mib).join(', ')}; ` +
    `Embind handles ${handles.join(' -> ')}; free heap at the end ${mib(slack)}, so a leak of more than ` +
    `${Math.floor(slack / count)} bytes per ${unit} would have grown it`);
}

test('20,000 steps in one small trainer (dModel 32, dFf 64, batch 4; chunks of 250): the heap stays the same', async (t) => {
  const lab = await freshLab();
  const trainer = lab.createTrainer({ dModel: 32, dFf: 64, batch: 4, seed: 1 });
  trainer.step(500);
  const warm = lab.heapBytes();
  const handles = [lab.module.count_emval_handles()];
  const checkpoints = longRun(lab, trainer, { steps: 20000, chunk: 250, every: 2000 });
  handles.push(lab.module.count_emval_handles());
  assert.equal(trainer.status().stepsDone, 20500);
  assert.equal(trainer.status().diverged, false);
  trainer.delete();
  report(t, '20,000 small steps', lab, { warm, checkpoints, handles, count: 20000, unit: 'step' });
  assert.deepEqual(checkpoints, checkpoints.map(() => warm));
  assert.equal(handles[1], handles[0]);
});

test('1,000 steps of the canonical configuration (chunks of 50, with evaluations): the heap stays the same', async (t) => {
  const lab = await freshLab();
  const trainer = lab.createTrainer({ seed: 2 });
  trainer.step(50);
  const warm = lab.heapBytes();
  const handles = [lab.module.count_emval_handles()];
  const checkpoints = longRun(lab, trainer, { steps: 1000, chunk: 50, every: 250 });
  trainer.evaluate();
  trainer.attentionMap(0, 1, 0);
  handles.push(lab.module.count_emval_handles());
  trainer.delete();
  report(t, '1,000 canonical steps', lab, { warm, checkpoints, handles, count: 1000, unit: 'step' });
  assert.deepEqual(checkpoints, checkpoints.map(() => warm));
  assert.equal(handles[1], handles[0]);
});

test('200 canonical trainers created, stepped and deleted (every 20th evaluated): the heap stays the same', async (t) => {
  const lab = await freshLab();
  const cycle = (seed) => {
    const trainer = lab.createTrainer({ seed });
    trainer.step(1);
    if (seed % 20 === 0) trainer.evaluate();
    trainer.attentionMap(0, 0, 0);
    trainer.reset(seed + 1);
    trainer.delete();
  };
  for (let i = 0; i < 10; i++) cycle(i);
  const warm = lab.heapBytes();
  const handles = [lab.module.count_emval_handles()];
  const checkpoints = [];
  for (let i = 1; i <= 200; i++) {
    cycle(i);
    if (i % 50 === 0) checkpoints.push(lab.heapBytes());
  }
  handles.push(lab.module.count_emval_handles());
  report(t, '200 trainers', lab, { warm, checkpoints, handles, count: 200, unit: 'trainer' });
  assert.deepEqual(checkpoints, checkpoints.map(() => warm));
  assert.equal(handles[1], handles[0]);
});
