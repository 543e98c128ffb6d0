// Long runs and many trainers: the wasm heap stops growing, nothing stays allocated, no Embind handle is left.
//
// heapBytes() only moves when malloc runs out of room, so on its own it misses any leak smaller than the free
// space.  Each test therefore also probes the free space after warm-up and at the end (probeFreeHeap, 64 KiB
// resolution) and allows at most one block of difference, i.e. 64 KiB over the whole run.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { freshLab, mib, probeFreeHeap } from './helpers.mjs';

const BLOCK = 65536;

// Runs `measured` (which returns the heap at its checkpoints) between two probes of the free heap; reports and checks.
function assertNoGrowth(t, lab, label, measured) {
  const initial = lab.heapBytes();
  const before = probeFreeHeap(lab);
  const warm = lab.heapBytes();
  const handles = lab.module.count_emval_handles();
  const checkpoints = measured();
  const handlesAfter = lab.module.count_emval_handles();
  const kept = before.after - probeFreeHeap(lab).now;
  t.diagnostic(`${label}: heap ${mib(initial)} after warm-up, ${mib(warm)} after the probe, ` +
    `at checkpoints ${checkpoints.map(mib).join(', ')}; ` +
    `allocated and kept ${kept} bytes (resolution ${BLOCK}); Embind handles ${handles} -> ${handlesAfter}`);
  assert.deepEqual(checkpoints, checkpoints.map(() => warm));
  assert.ok(kept <= BLOCK, `${kept} bytes stayed allocated`);
  assert.equal(handlesAfter, handles);
}

test('50,000 steps in one small trainer (dModel 32, dFf 64, batch 4; chunks of 250): the heap stays the same', async (t) => {
  const lab = await freshLab();
  const trainer = lab.createTrainer({ dModel: 32, dFf: 64, batch: 4, seed: 1 });
  trainer.step(500);
  assertNoGrowth(t, lab, '50,000 small steps', () => {
    const heap = [];
    for (let done = 250; done <= 50000; done += 250) {
      trainer.step(250);
      if (done % 5000 === 0) heap.push(lab.heapBytes());
    }
    return heap;
  });
  assert.equal(trainer.status().stepsDone, 50500);
  assert.equal(trainer.status().diverged, false);
  trainer.delete();
});

test('1,000 steps of the canonical configuration (chunks of 50, evaluations every 50): the heap stays the same', async (t) => {
  const lab = await freshLab();
  const trainer = lab.createTrainer({ seed: 2 });
  trainer.step(50);
  assertNoGrowth(t, lab, '1,000 canonical steps', () => {
    const heap = [];
    for (let done = 50; done <= 1000; done += 50) {
      trainer.step(50);
      trainer.attentionMap(done % 64, 1, 0);
      if (done % 250 === 0) heap.push(lab.heapBytes());
    }
    return heap;
  });
  trainer.delete();
});

test('200 canonical trainers created, stepped and deleted (every 20th evaluated): the heap stays the same', async (t) => {
  const lab = await freshLab();
  const cycle = (seed) => {
    const trainer = lab.createTrainer({ seed });
    trainer.step(1);
    if (seed % 20 === 0) trainer.evaluate();
    trainer.attentionMap(0, 0, 0);
    trainer.measuredLogitStd();
    trainer.reset(seed + 1);
    trainer.delete();
  };
  for (let seed = 0; seed < 10; seed++) cycle(seed);
  assertNoGrowth(t, lab, '200 trainers', () => {
    const heap = [];
    for (let seed = 1; seed <= 200; seed++) {
      cycle(seed);
      if (seed % 50 === 0) heap.push(lab.heapBytes());
    }
    return heap;
  });
});

test('300 start/reset cycles in one canonical trainer (20 steps, then reset): the heap stays the same', async (t) => {
  const lab = await freshLab();
  const trainer = lab.createTrainer({ seed: 3 });
  trainer.step(20);
  assertNoGrowth(t, lab, '300 start/reset cycles', () => {
    const heap = [];
    for (let cycle = 1; cycle <= 300; cycle++) {
      trainer.reset(cycle);
      trainer.step(20);
      if (cycle % 100 === 0) heap.push(lab.heapBytes());
    }
    return heap;
  });
  trainer.delete();
});
