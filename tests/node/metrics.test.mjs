// One CSV format for a run's curves: the page's export (a RunRecord fed by the wasm trainer's chunks, as the
// page's workers feed it) and the native CLI's `train --csv` write the same header, and the same seed gives the
// same float in every cell (one arithmetic natively and in wasm).  The columns come from the core's metrics
// table, which the page reads through core-tables.js.
import test from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freshLab, runCli } from './helpers.mjs';
import { RunRecord } from '../../web/src/training/run-record.js';
import { curvesToCsv } from '../../web/src/export/curves-export.js';
import { metrics } from '../../web/src/core-tables.js';

test('the page reads the metrics table the module has (core-tables.js is current)', async () => {
  const lab = await freshLab();
  assert.deepEqual(lab.metrics().perStep, metrics.map((m) => ({ ...m })));
});

test('the page\'s CSV export and the CLI\'s train --csv: one header, the same value in every cell', async () => {
  const lab = await freshLab();
  const config = { layers: 2, heads: 2, dModel: 16, copyLength: 4, batch: 8, evalBatch: 8, evalEvery: 5, seed: 3 };
  const trainer = lab.createTrainer(config);
  const record = new RunRecord({ id: 'r', variant: 'scaled', seed: 3, config });
  for (const k of [4, 8]) record.append({ ...trainer.step(k), elapsedMs: 1 });
  trainer.delete();
  const dir = mkdtempSync(join(tmpdir(), 'sqrtdk-csv-'));
  try {
    const file = join(dir, 'run.csv');
    runCli(['train', '--steps', '12', '--layers', '2', '--heads', '2', '--d-model', '16', '--copy-length', '4',
      '--batch', '8', '--eval-batch', '8', '--eval-every', '5', '--seed', '3', '--quiet', '--csv', file]);
    const cli = readFileSync(file, 'utf8').trim().split('\n').map((line) => line.split(','));
    const page = curvesToCsv([record]).trim().split('\n').map((line) => line.split(','));
    assert.deepEqual(page[0], cli[0]);
    assert.equal(page.length, 13);
    assert.equal(cli.length, 13);
    for (let i = 1; i < cli.length; i += 1) {
      for (let j = 0; j < cli[0].length; j += 1) {
        const [a, b] = [page[i][j], cli[i][j]];
        if (j < 1 || a === '' || b === '') assert.equal(a, b, `${cli[0][j]} at row ${i}`);
        else assert.equal(Math.fround(Number(a)), Math.fround(Number(b)), `${cli[0][j]} at row ${i}`);
      }
    }
    assert.ok(cli.some((row) => row.at(-1) !== ''), 'an evaluation ran');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a chunk carries the core\'s whole-model curves: the norm of all layers\' values, or their mean', async () => {
  const lab = await freshLab();
  const config = { layers: 2, heads: 2, dModel: 16, copyLength: 4, batch: 8, evalBatch: 8, seed: 5 };
  const trainer = lab.createTrainer(config);
  const chunk = trainer.step(6);
  trainer.delete();
  const combined = metrics.filter((m) => m.combine !== 'none');
  assert.deepEqual(Object.keys(chunk.wholeModel).sort(), combined.map((m) => m.jsKey).sort());
  for (const m of combined) {
    const width = m.shape === 'layer' ? 2 : 4;
    const values = chunk[m.jsKey];
    for (let t = 0; t < 6; t += 1) {
      const row = Array.from(values.subarray(t * width, (t + 1) * width));
      const expected = m.combine === 'rootSumSquare' ? Math.sqrt(row.reduce((s, v) => s + v * v, 0))
        : row.reduce((s, v) => s + v, 0) / width;
      assert.equal(chunk.wholeModel[m.jsKey][t], Math.fround(expected), `${m.jsKey} at step ${t + 1}`);
    }
  }
  // The run record keeps them as the whole-model curves the charts and the answer read.
  const record = new RunRecord({ id: 'r', variant: 'scaled', seed: 5, config });
  record.append({ ...chunk, elapsedMs: 1 });
  for (const m of combined) assert.deepEqual(record[m.jsKey].view, chunk.wholeModel[m.jsKey], m.jsKey);
});
