// The memory estimate through wasm: a trainer grows the wasm heap by at most its estimate, and malloc hands out
// the estimate (plus its per-block overhead); a configuration past the cap is refused naming what dominates.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { errorOf, freshLab } from './helpers.mjs';

const CONFIGS = [
  {},
  { scale: 'qknorm', heads: 4 },
  { dModel: 128, dFf: 1024, batch: 16 },
  { layers: 6, copyLength: 32, batch: 8, heads: 2 },
  // The configuration that once passed the cap and then grew the heap by 523 MiB.
  { dModel: 8, symbols: 1000, batch: 128, copyLength: 64, evalBatch: 128 },
];

for (const config of CONFIGS) {
  test(`createTrainer(${JSON.stringify(config)}) stays within its estimate`, async (t) => {
    const lab = await freshLab();  // a fresh heap: its growth is this trainer's alone
    const estimate = lab.estimatedBytes(config);
    const heap = lab.heapBytes();
    const inUse = lab.heapInUse();
    const trainer = lab.createTrainer(config);
    const grown = lab.heapBytes() - heap;
    const handedOut = lab.heapInUse() - inUse;
    t.diagnostic(`estimate ${estimate}, malloc ${handedOut} (+${handedOut - estimate}), heap growth ${grown}`);
    assert.ok(grown <= estimate, `heap grew by ${grown} > estimate ${estimate}`);
    // Above the estimate only by malloc's own overhead (a few bytes per block, a few hundred blocks), and
    // below it only by the rounding of parameter names (at most 32 bytes per parameter tensor).
    assert.ok(handedOut <= estimate + 16 * 1024, `malloc ${handedOut} vs estimate ${estimate}`);
    assert.ok(handedOut >= estimate - 4 * 1024, `malloc ${handedOut} vs estimate ${estimate}`);
    trainer.step(1);
    trainer.delete();
  });
}

test('past the cap, the message names the part that dominates and its settings', async () => {
  const lab = await freshLab();
  assert.match(errorOf(() => lab.createTrainer({ dModel: 8, symbols: 1000, batch: 1024, copyLength: 64 })),
    /^config: configuration needs about \d+ MiB, over the cap of 512 MiB; most of it is the output logits .*reduce symbols/);
});
