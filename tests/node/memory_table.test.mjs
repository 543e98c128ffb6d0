// The page's memory estimate (web/src/training/run-memory.js, from web/src/memory-table.js) is the core's
// lab.estimatedBytes exactly, over the lab's settings; the committed table is the module's; and a plan past the
// core's cap is refused in the lab's words (its settings, never eval_batch or d_ff) with a value that fits.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { MODULE_PATH, REPO, freshLab } from './helpers.mjs';
import { memoryTableSource } from '../../web/memory-table.mjs';
import { RUN_CAP_BYTES } from '../../web/src/memory-table.js';
import { memoryRefusalLine, memoryShortfall, runBytes } from '../../web/src/training/run-memory.js';
import { largestRun, DEFAULT_PAGE_BUDGET_BYTES } from '../../web/src/worker/memory-budget.js';
import { PROPERTY_BY_KEY, VARIANTS } from '../../web/src/state/properties.js';
import { runPlan } from '../../web/src/training/run-plan.js';
import { STRINGS } from '../../web/src/ui/strings.js';

const values = (key) => {
  const p = PROPERTY_BY_KEY.get(key);
  return p.choices ?? Array.from({ length: p.max - p.min + 1 }, (_, i) => p.min + i);
};

test('web/src/memory-table.js is the wasm module\'s (npm run tables writes it)', async () => {
  assert.equal(readFileSync(`${REPO}web/src/memory-table.js`, 'utf8'), await memoryTableSource(MODULE_PATH));
});

test('the page\'s estimate equals lab.estimatedBytes on every lab model and optimizer, at the ends and middle of copyLength and symbols', async (t) => {
  const lab = await freshLab();
  let compared = 0;
  let refused = 0;
  for (const scale of VARIANTS) for (const optimizer of values('optimizer')) for (const layers of values('layers'))
    for (const dModel of values('dModel')) for (const heads of values('heads')) for (const batch of values('batch'))
      for (const copyLength of [2, 17, 32]) for (const symbols of [2, 33, 64]) {
        const config = { scale, optimizer, layers, dModel, heads, batch, copyLength, symbols };
        let core;
        try {
          core = lab.estimatedBytes(config);
        } catch (error) {
          // Past the core's cap: the page's estimate says so too.
          assert.match(error.message, /over the cap of/);
          assert.ok(runBytes(config) > RUN_CAP_BYTES, JSON.stringify(config));
          refused += 1;
          continue;
        }
        assert.equal(runBytes(config), core, JSON.stringify(config));
        assert.ok(core <= RUN_CAP_BYTES);
        compared += 1;
      }
  t.diagnostic(`${compared} configurations equal, ${refused} past the cap on both sides`);
  assert.ok(compared > 50000 && refused > 100);
});

test('every copyLength and symbols value at the default model', async () => {
  const lab = await freshLab();
  for (const copyLength of values('copyLength')) for (const symbols of values('symbols')) {
    const config = { copyLength, symbols, batch: 128 };
    assert.equal(runBytes(config), lab.estimatedBytes(config));
  }
});

test('the largest settings of the lab: refused in the lab\'s words, with the largest value of one setting that fits', async () => {
  const state = { variants: ['scaled', 'unscaled'], seeds: 1, trainSeed: 0, layers: 6, dModel: 256, heads: 16, copyLength: 32, symbols: 64,
    batch: 128, optimizer: 'adam', init: 'xavier', lr: 0.001, momentum: 0.9, trainAlpha: 1, evalEvery: 50 };
  const plan = runPlan(state);
  const limit = largestRun(DEFAULT_PAGE_BUDGET_BYTES);
  assert.equal(limit, RUN_CAP_BYTES, 'under the default budget the core\'s cap is what limits a run');
  const shortfall = memoryShortfall(plan, limit);
  assert.ok(shortfall);
  const line = memoryRefusalLine(shortfall);
  assert.doesNotMatch(line, /eval_batch|evalBatch|d_ff|dFf/);
  assert.match(line, /^sqrtdk-lab: one run needs about 1697 MiB, more than the 512 MiB one run may use \(layers 6, dModel 256, heads 16, copyLength 32, symbols 64, batch 128\)/);
  assert.ok(!line.includes('\n'));
  // The named value fits, and the next allowed value above it does not (with every other setting as it is).
  const { key, value } = shortfall.lower;
  assert.match(line, new RegExp(`the largest ${key} that fits is ${value}`));
  assert.equal(memoryShortfall(runPlan({ ...state, [key]: value }), limit), null);
  const above = values(key).filter((v) => v > value && v <= state[key])[0];
  assert.notEqual(memoryShortfall(runPlan({ ...state, [key]: above }), limit), null);
  // The second example: batch 8, copyLength 32 at the largest model.
  const small = memoryShortfall(runPlan({ ...state, batch: 8 }), limit);
  assert.ok(small && small.lower, JSON.stringify(small));
  // A page budget below the cap: the budget limits, and the line says the page may raise it.
  const tight = memoryShortfall(runPlan({ ...state, batch: 8 }), largestRun(256 * 1024 * 1024));
  assert.match(memoryRefusalLine(tight), /SqrtdkLabElement\.memoryBudget/);
  assert.equal(typeof STRINGS.runTooLarge, 'function');
});

test('web/README\'s example of the refusal is the line the lab writes', () => {
  const readme = readFileSync(`${REPO}web/README.md`, 'utf8').replace(/\s+/g, ' ');
  const state = { variants: ['scaled'], seeds: 1, trainSeed: 0, layers: 6, dModel: 256, heads: 16, copyLength: 32, symbols: 64, batch: 128,
    optimizer: 'adam', init: 'xavier', lr: 0.001, momentum: 0.9, trainAlpha: 1, evalEvery: 50 };
  const line = memoryRefusalLine(memoryShortfall(runPlan(state), largestRun(DEFAULT_PAGE_BUDGET_BYTES)));
  assert.ok(readme.includes(`\`${line}\``), line);
});
