// web/README.md's table of the largest model per number of seeds under the default memory budget is what
// scripts/web-readme-memory.mjs computes from the core's estimate (run-memory.js) and the page's budget.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { WEB_README, largestAtOnce, withTable } from '../../scripts/web-readme-memory.mjs';
import { runPlan } from '../../web/src/training/run-plan.js';
import { runBytes } from '../../web/src/training/run-memory.js';
import { defaultState } from '../../web/src/state/properties.js';
import { DEFAULT_PAGE_BUDGET_BYTES } from '../../web/src/worker/memory-budget.js';

test('web/README.md\'s memory table is current (node scripts/web-readme-memory.mjs writes it)', () => {
  const text = readFileSync(WEB_README, 'utf8');
  assert.equal(withTable(text), text);
  assert.match(text, /\| 20 \| 40 \| layers \d, dModel \d+ \| [\d.]+ MiB \|/);
});

test('each row\'s model fits at once and the next larger one does not', () => {
  const MIB = 1024 * 1024;
  for (const seeds of [1, 3, 20]) {
    const { runs, layers, dModel, bytes } = largestAtOnce(seeds);
    assert.equal(bytes, Math.max(...runPlan({ ...defaultState(), seeds, layers, dModel }).map((r) => runBytes(r.config))));
    assert.ok(2 * 32 * MIB + runs * bytes <= DEFAULT_PAGE_BUDGET_BYTES);
    if (layers < 6) {
      const more = Math.max(...runPlan({ ...defaultState(), seeds, layers: layers + 1, dModel }).map((r) => runBytes(r.config)));
      assert.ok(2 * 32 * MIB + runs * more > DEFAULT_PAGE_BUDGET_BYTES, `seeds ${seeds}: layers ${layers + 1} would fit too`);
    }
  }
});
