// The page's settings table against the core's (web/src/core-tables.js, generated from src/core/settings/settings.cpp):
// a property backed by a core setting takes its type, default, limits and doc from it, and may only narrow them.
import test from 'node:test';
import assert from 'node:assert/strict';
import { settings } from '../../web/src/core-tables.js';
import { CORE_SETTINGS, EXPLORER_SETTINGS, PROPERTIES, RUN_SETTINGS, PROPERTY_BY_KEY, VARIANTS, defaultState } from '../../web/src/state/properties.js';
import { runPlan } from '../../web/src/training/run-plan.js';

const backed = PROPERTIES.filter((p) => p.setting !== undefined);

// Is x allowed by the core row s (its bounds may be open)?
const insideCore = (s, x) => (s.minOpen ? x > s.min : x >= s.min) && (s.maxOpen ? x < s.max : x <= s.max);

test('every page range and choice lies inside the core setting\'s', () => {
  for (const p of backed) {
    const s = CORE_SETTINGS.get(p.setting);
    if (s.type === 'choice') {
      for (const c of p.choices) assert.ok(s.choices.includes(c), `${p.key}: ${c}`);
    } else if (p.choices) {
      for (const c of p.choices) assert.ok(insideCore(s, c), `${p.key}: ${c}`);
    } else {
      assert.ok(insideCore(s, p.min) && insideCore(s, p.max), `${p.key}: [${p.min}, ${p.max}] vs the core's`);
    }
  }
});

test('every page default equals the core\'s', () => {
  const differing = backed.filter((p) => p.default !== CORE_SETTINGS.get(p.setting).default).map((p) => p.key);
  assert.deepEqual(differing, []);
  // The alpha variant's exponent is the run table's (muP's 1/d_k), not the model's 0.5 (which would repeat scaled).
  assert.equal(PROPERTY_BY_KEY.get('trainAlpha').default, 1);
  assert.equal(PROPERTY_BY_KEY.get('trainAlpha').max, 1);
  assert.ok(CORE_SETTINGS.get('alpha').max >= RUN_SETTINGS.get('trainAlpha').max);
});

test('types and docs come from the core', () => {
  const type = { integer: 'int', seed: 'int', real: 'number', choice: 'choice' };
  for (const p of backed) {
    const s = CORE_SETTINGS.get(p.setting);
    assert.equal(p.type, type[s.type], p.key);
    assert.equal(p.doc, s.doc, p.key);
  }
});

// A property backed by a row of a core range table takes its default, doc and type, and a range inside its.
function assertRangeRows(properties, table, field) {
  for (const p of properties) {
    const s = table.get(p[field]);
    assert.equal(p.default, s.default, p.key);
    assert.equal(p.doc, s.doc, p.key);
    assert.equal(p.type, s.type === 'integer' ? 'int' : 'number', p.key);
    assert.ok(p.min >= s.min && p.max <= s.max && p.min < p.max, `${p.key}: [${p.min}, ${p.max}] vs [${s.min}, ${s.max}]`);
  }
}

test('the explorer\'s properties are the core explorer table\'s rows: its defaults, its docs, ranges inside its', () => {
  const explorer = PROPERTIES.filter((p) => p.group === 'softmax');
  assert.deepEqual(explorer.map((p) => p.explorerSetting), ['dk', 'keys', 'alpha', 'seed']);
  assertRangeRows(explorer, EXPLORER_SETTINGS, 'explorerSetting');
  // The lesson's demo: d_k 128, 50 keys, the standard scaling.
  assert.deepEqual(['dk', 'keys', 'alpha'].map((k) => defaultState()[k]), [128, 50, 0.5]);
});

test('seeds, steps, threshold and the alpha variant\'s exponent are the core run table\'s rows', () => {
  const run = PROPERTIES.filter((p) => p.runSetting !== undefined);
  assert.deepEqual(run.map((p) => p.key), ['trainAlpha', 'seeds', 'steps', 'threshold']);
  assertRangeRows(run, RUN_SETTINGS, 'runSetting');
});

test('the optimizer and its momentum are train settings of the page', () => {
  const optimizer = PROPERTY_BY_KEY.get('optimizer');
  assert.equal(optimizer.group, 'train');
  assert.deepEqual(optimizer.choices, ['adam', 'sgd']);
  assert.equal(optimizer.default, 'adam');
  const momentum = PROPERTY_BY_KEY.get('momentum');
  assert.equal(momentum.group, 'train');
  assert.equal(momentum.default, 0.9);
  assert.ok(momentum.max < 1);
});

test('the variants are the core\'s scale modes', () => {
  assert.deepEqual(VARIANTS, CORE_SETTINGS.get('scale').choices);
  assert.ok(settings.length > 0);
});

test('a run\'s config carries every train property backed by a core setting, under the core\'s key', () => {
  const state = { ...defaultState(), variants: ['alpha'], seeds: 1, optimizer: 'sgd', momentum: 0.5 };
  const [run] = runPlan(state);
  for (const p of backed.filter((q) => q.group === 'train')) {
    const key = CORE_SETTINGS.get(p.setting).jsKey;
    assert.equal(run.config[key], state[p.key], `${p.key} -> ${key}`);
  }
});
