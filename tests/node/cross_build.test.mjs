// The same seed and configuration give the same bits in the native CLI and in WebAssembly.
//
// Both builds run one float arithmetic (src/core/arith/gemm_f32x4.hpp, simd_math.hpp, det_math.hpp: fixed 4-lane vectors,
// the same order of every sum, no fused multiply-add, no C library in any result), so nothing here has a tolerance:
// a single differing bit fails.  Training is chaotic (a last-bit difference grows step after step until the
// curves part), so equal curves over hundreds of steps leave no room for a difference anywhere in a step.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { metrics } from '../../web/src/core-tables.js';
import { metricColumns } from '../../web/src/export/curves-export.js';
import { freshLab, nativeCli, parseCsv, runCli } from './helpers.mjs';

let lab;
let dir;
before(async () => {
  nativeCli();
  lab = await freshLab();
  dir = mkdtempSync(join(tmpdir(), 'sqrtdk-cross-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

// Native per-step metrics of `sqrtdk train --steps <steps> --seed <seed> <flags>`, from its CSV.
function nativeRun(steps, seed, flags = []) {
  const csv = join(dir, `train_${seed}_${flags.join('_')}.csv`);
  runCli(['train', '--steps', String(steps), '--seed', String(seed), '--quiet', '--csv', csv, ...flags]);
  return parseCsv(readFileSync(csv, 'utf8'));
}

function wasmRun(steps, config) {
  const trainer = lab.createTrainer(config);
  const chunk = trainer.step(steps);
  trainer.delete();
  return chunk;
}

// The first index where two arrays of numbers differ (as float32 values written round-trip), or -1.
function firstDifference(native, wasm) {
  assert.equal(native.length, wasm.length, 'lengths');
  for (let i = 0; i < native.length; i++) if (Number(native[i]) !== Number(wasm[i])) return i;
  return -1;
}

// Every metric of the core's table: [CSV column, the CLI's values, the wasm chunk's values] for each column, the
// columns named as both sides' CSV names them (src/core/train/metrics.hpp; the chunk is step-major, width values a step).
function metricColumnsOf(native, wasm, layers, heads) {
  return metrics.flatMap((m) => {
    const names = metricColumns(m, layers, heads);
    const values = Array.from(wasm[m.jsKey]);
    return names.map((name, j) => [name, native[name], values.filter((_, i) => i % names.length === j)]);
  });
}

describe('saturation statistics (double precision)', () => {
  test('softmax demo: top 5, max, entropy, Jacobian norm are bit-equal for d_k 1 to 4096', () => {
    for (const dk of [1, 16, 128, 1024, 4096]) {
      for (const seed of [0, 1]) {
        const native = JSON.parse(runCli(['softmax', '--json', '--dk', String(dk), '--seed', String(seed)]));
        const wasm = lab.softmaxDemo({ dk, seed });
        for (const side of ['raw', 'scaled']) {
          const n = native[side];
          const w = wasm[side];
          assert.deepEqual([...w.top, w.max, w.entropy, w.effectiveKeys, w.jacobianNorm],
            [...n.top5, n.max, n.entropy, n.effective_keys, n.jacobian_norm], `dk ${dk} seed ${seed} ${side}`);
        }
      }
    }
  });

  test('sweep: medians and quartiles are bit-equal (d_k 4, 64, 512)', () => {
    const dks = [4, 64, 512];
    const native = JSON.parse(runCli(['sweep', '--json', '--draws', '1000', '--dk', dks.join(',')]));
    const wasm = lab.sweep({ dks, draws: 1000 });
    const flatten = (row, names) => [row.dk, row[names[0]], ...['raw', 'scaled'].flatMap((side) =>
      names.slice(1).flatMap((stat) => ['median', 'q1', 'q3'].map((q) => row[side][stat][q])))];
    assert.deepEqual(wasm.rows.flatMap((r) => flatten(r, ['dotVariance', 'maxWeight', 'entropy', 'jacobianNorm'])),
      native.rows.flatMap((r) => flatten(r, ['dot_variance', 'max_weight', 'entropy', 'jacobian_norm'])));
  });
});

describe('training (float32)', () => {
  // The default exercise's model, scaled and unscaled, two seeds, 400 steps: every per-step metric and every
  // evaluation.  (Each scenario's settings are compared over their whole run by the Catch2 suite in wasm, against
  // the natively measured claims table: tests/cpp/test_scenarios.cpp.)
  for (const scale of ['scaled', 'unscaled']) {
    for (const seed of [0, 1]) {
      test(`${scale}, seed ${seed}: every per-step metric and evaluation of 400 steps is bit-equal`, () => {
        const native = nativeRun(400, seed, ['--scale', scale]);
        const w = wasmRun(400, { seed, scale });
        const L = 2;
        const columns = [['step', native.step, w.steps], ...metricColumnsOf(native, w, 2, 1)];
        for (const [name, n, v] of columns) {
          assert.equal(firstDifference(n, Array.from(v)), -1, `${name} differs from step ${firstDifference(n, Array.from(v)) + 1}`);
        }
        const evalRows = native.eval_loss.flatMap((loss, i) => (loss === '' ? [] : [i]));
        assert.deepEqual(w.evals.map((e) => [e.step, e.loss, e.tokenAccuracy, e.sequenceAccuracy]),
          evalRows.map((i) => [i + 1, Number(native.eval_loss[i]), Number(native.eval_token_accuracy[i]),
            Number(native.eval_sequence_accuracy[i])]));
      });
    }
  }

  test('the fingerprint of the float arithmetic is the committed one in wasm too', () => {
    const committed = readFileSync(new URL('../fixtures/fingerprint.txt', import.meta.url), 'utf8').trim();
    assert.equal(lab.fingerprint(), committed);
    assert.equal(runCli(['fingerprint']).trim(), committed);
  });
});
