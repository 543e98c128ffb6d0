// The optimizer choice, the mechanism metrics and the scenarios through the wasm API (web/src/wasm-api.js), and
// the same numbers from the native CLI.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { camelKeys, errorOf, freshLab, nativeCli, parseCsv, relDiff, runCli } from './helpers.mjs';
import { renderMessage } from '../../web/src/analysis/render-message.js';
import { PROPERTY_BY_KEY } from '../../web/src/state/properties.js';

const METRICS = ['qkGradNorm', 'qkUpdateNorm', 'logitSpread', 'jacobianNorm'];
const CSV_COLUMNS = { qkGradNorm: 'qk_grad_norm', qkUpdateNorm: 'qk_update_norm', logitSpread: 'logit_spread',
  jacobianNorm: 'jacobian_norm' };

let lab;
let dir;
before(async () => {
  nativeCli();
  lab = await freshLab();
  dir = mkdtempSync(join(tmpdir(), 'sqrtdk-mechanism-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('optimizer choice', () => {
  test("optimizer 'sgd' without lr takes SGD's default lr 0.1 and momentum 0.9; adam keeps 0.001", () => {
    const sgd = lab.createTrainer({ optimizer: 'sgd' });
    assert.equal(sgd.status().config.optimizer, 'sgd');
    assert.equal(sgd.status().config.lr, 0.1);
    assert.equal(sgd.status().config.momentum, 0.9);
    sgd.delete();
    const set = lab.createTrainer({ optimizer: 'sgd', lr: 0.03, momentum: 0 });
    assert.equal(set.status().config.lr, 0.03);
    assert.equal(set.status().config.momentum, 0);
    set.delete();
    assert.equal(lab.defaults().optimizer, 'adam');
    assert.equal(lab.defaults().lr, 0.001);
  });

  const bad = [
    [{ optimizer: 'rmsprop' }, "config: optimizer must be one of adam, sgd, got 'rmsprop'"],
    [{ optimizer: 'SGD' }, "config: optimizer must be one of adam, sgd, got 'SGD'"],
    [{ optimizer: 3 }, 'config.optimizer must be a string, got number'],
    [{ optimizer: 'sgd', momentum: 1 }, 'config: momentum must be a finite number in [0, 1), got 1'],
    [{ optimizer: 'sgd', momentum: -0.5 }, 'config: momentum must be a finite number in [0, 1), got -0.5'],
    [{ optimizer: 'sgd', momentum: NaN }, 'config.momentum must be a finite number, got nan'],
    [{ optimizer: 'sgd', momentum: '0.9' }, 'config.momentum must be a number, got string'],
    [{ optimizer: 'sgd', lr: 0 }, 'config: lr must be a finite number in (0, 100], got 0'],
    [{ optimizer: 'sgd', lr: 1000 }, 'config: lr must be a finite number in (0, 100], got 1000'],
    [{ optimizer: 'sgd', lr: NaN }, 'config.lr must be a finite number, got nan'],
  ];
  for (const [config, expected] of bad) {
    test(`${JSON.stringify(config, (k, v) => (Number.isNaN(v) ? 'NaN' : v))} is refused: ${expected}`, () => {
      assert.equal(errorOf(() => lab.createTrainer(config)), expected);
      assert.equal(lab.validateConfig(config), expected);
    });
  }

  test('a refused configuration changes nothing: a live trainer continues exactly as an undisturbed one', () => {
    const a = lab.createTrainer({ optimizer: 'sgd', seed: 3 });
    const b = lab.createTrainer({ optimizer: 'sgd', seed: 3 });
    a.step(5);
    b.step(5);
    const heap = lab.heapBytes();
    for (const [config] of bad) assert.throws(() => lab.createTrainer(config));
    assert.equal(lab.heapBytes(), heap);
    assert.deepEqual(a.step(5).loss, b.step(5).loss);
    a.delete();
    b.delete();
  });
});

describe('mechanism metrics', () => {
  test('step(3) returns qkGradNorm, qkUpdateNorm, logitSpread, jacobianNorm: (steps * layers) Float32Arrays', () => {
    const trainer = lab.createTrainer({ scale: 'unscaled' });
    const chunk = trainer.step(3);
    for (const name of METRICS) {
      assert.ok(chunk[name] instanceof Float32Array, name);
      assert.equal(chunk[name].length, 6, name);
      assert.ok(chunk[name].every((x) => Number.isFinite(x) && x > 0), name);
    }
    // Unscaled Xavier logits have std ~8 at init: rows spread by several units, the Jacobian is small.
    assert.ok(chunk.logitSpread[0] > 5, `logit spread ${chunk.logitSpread[0]}`);
    assert.ok(chunk.jacobianNorm.every((x) => x < 0.5));
    trainer.delete();
  });

  test("SGD's first update is lr times the gradient (v = g), per layer", () => {
    const trainer = lab.createTrainer({ optimizer: 'sgd', lr: 0.05 });
    const chunk = trainer.step(1);
    for (let l = 0; l < 2; l += 1) {
      assert.ok(relDiff(chunk.qkUpdateNorm[l], 0.05 * chunk.qkGradNorm[l]) < 1e-5, `layer ${l}`);
    }
    trainer.delete();
  });

  // One float arithmetic natively and in wasm: the mechanism columns are bit-equal, also for unscaled SGD at lr 0.1,
  // the most chaotic of these runs (a last-bit difference would grow into a visible one within tens of steps).
  const cases = [[['--optimizer', 'sgd'], { optimizer: 'sgd' }, 40],
    [['--scale', 'unscaled'], { scale: 'unscaled' }, 40],
    [['--optimizer', 'sgd', '--scale', 'unscaled'], { optimizer: 'sgd', scale: 'unscaled' }, 40]];
  for (const [flags, config, steps] of cases) {
    test(`the CSV columns of sqrtdk train ${flags.join(' ')} equal the wasm metrics bit for bit (${steps} steps)`, () => {
      const csv = join(dir, `${flags.join('')}.csv`);
      runCli(['train', '--steps', String(steps), '--quiet', '--csv', csv, ...flags]);
      const native = parseCsv(readFileSync(csv, 'utf8'));
      const trainer = lab.createTrainer(config);
      const chunk = trainer.step(steps);
      trainer.delete();
      for (const name of METRICS) {
        for (let l = 0; l < 2; l += 1) {
          const column = native[`${CSV_COLUMNS[name]}_l${l + 1}`];
          assert.ok(column, `${CSV_COLUMNS[name]}_l${l + 1} missing`);
          assert.deepEqual(Array.from(chunk[name].filter((_, i) => i % 2 === l)), column.map(Number), `${name} layer ${l}`);
        }
      }
    });
  }
});

describe('scenarios', () => {
  test('lab.scenarios() lists adam, sgd, adam-high-lr, gpt-init, large-dk, qknorm with title, headline, details, settings', () => {
    const list = lab.scenarios();
    assert.deepEqual(list.map((s) => s.id), ['adam', 'sgd', 'adam-high-lr', 'gpt-init', 'large-dk', 'qknorm']);
    for (const s of list) {
      assert.deepEqual(Object.keys(s).sort(), ['counts', 'details', 'headline', 'id', 'messages', 'settings', 'title']);
      // The headline's counts as numbers: one per measured variant, the claims' 20 seeds, k learned and the median
      // among those that learned, each written in the headline.
      assert.ok(s.counts.length >= 2, s.id);
      for (const c of s.counts) {
        assert.equal(c.seeds, 20, s.id);
        // A learner can train as many seeds as a claim counts (the page's seeds setting reaches the claims' 20).
        assert.equal(c.seeds, PROPERTY_BY_KEY.get('seeds').max, s.id);
        assert.ok(Number.isInteger(c.learned) && c.learned >= 0 && c.learned <= 20, s.id);
        assert.ok(s.headline.includes(`on ${c.learned} of 20`), `${s.id}: ${c.learned} of 20 in ${s.headline}`);
        if (c.learned > 0) assert.ok(s.headline.includes(`median ${c.medianSteps} steps`) || s.headline.includes(`at step ${c.medianSteps}`), `${s.id}: ${c.medianSteps}`);
      }
      for (const key of ['details', 'headline', 'id', 'settings', 'title']) {
        assert.ok(typeof s[key] === 'string' && s[key].length > 0, `${s.id}.${key}`);
      }
      assert.match(s.settings, /^([A-Za-z]+=[^&=]+)(&[A-Za-z]+=[^&=]+)*$/, s.id);
    }
  });

  test("a preset's messages render, with the page's renderer, to the core's English: a headline of at most 25 words", () => {
    for (const s of lab.scenarios()) {
      assert.equal(renderMessage(s.messages.title), s.title);
      assert.equal(renderMessage(s.messages.headline), s.headline);
      assert.equal(s.messages.details.map((m) => renderMessage(m)).join(' '), s.details);
      assert.ok(s.headline.split(/\s+/).length <= 25, `${s.id}: ${s.headline}`);
      assert.doesNotMatch(`${s.title} ${s.headline} ${s.details}`, /layer 0|still learns|not never|\{/);
    }
  });

  test('lab.scenarios() equals sqrtdk scenarios --json (one table)', () => {
    assert.deepEqual(lab.scenarios(), camelKeys(JSON.parse(runCli(['scenarios', '--json']))));
  });
});
