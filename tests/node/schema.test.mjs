// The core's settings table through wasm: lab.schema(), the Embind conversion both ways, the same messages as
// the CLI, and the committed copy the page imports (web/src/core-tables.js).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';

import { coreTablesSource } from '../../web/core-tables.mjs';
import { CANONICAL, MODULE_PATH, REPO, errorOf, freshLab, nativeCli } from './helpers.mjs';

let lab;
let schema;
before(async () => {
  lab = await freshLab();
  schema = lab.schema();
});

const camel = (name) => name.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
const kebab = (name) => `--${name.replaceAll('_', '-')}`;

describe('lab.schema()', () => {
  test('lists every field of defaults(), in order, with the defaults', () => {
    assert.deepEqual(schema.map((s) => s.jsKey), Object.keys(CANONICAL));
    for (const s of schema) assert.equal(s.default, CANONICAL[s.jsKey], s.name);
  });

  test('derives the JS key and the CLI flag from the one name', () => {
    for (const s of schema) {
      assert.match(s.name, /^[a-z][a-z0-9_]*$/);
      assert.equal(s.jsKey, camel(s.name));
      assert.equal(s.cliFlag, kebab(s.name));
      assert.ok(s.doc.length > 0, s.name);
    }
  });

  test('has the optimizer settings, with SGD\'s default learning rate on lr', () => {
    const byName = new Map(schema.map((s) => [s.name, s]));
    assert.deepEqual(byName.get('optimizer').choices, ['adam', 'sgd']);
    assert.deepEqual([byName.get('momentum').min, byName.get('momentum').max, byName.get('momentum').maxOpen], [0, 1, true]);
    assert.equal(byName.get('lr').sgdDefault, 0.1);
  });
});

describe('the Embind conversion', () => {
  // A valid value other than the default for each setting.
  const other = (s) => {
    if (s.type === 'choice') return s.choices.find((c) => c !== s.default);
    if (s.type === 'real') return s.min === s.default || s.minOpen ? (s.min + Math.min(s.max, 1)) / 2 : s.min;
    return s.min === s.default ? s.min + 1 : s.min;
  };

  test('every setting round-trips JS -> C++ -> JS', () => {
    for (const s of schema) {
      const config = { [s.jsKey]: other(s), ...(s.jsKey === 'dModel' ? { heads: 1 } : {}) };
      const trainer = lab.createTrainer(config);
      const expected = { ...CANONICAL, ...config };
      if (config.optimizer === 'sgd') expected.lr = schema.find((r) => r.name === 'lr').sgdDefault;
      assert.deepEqual(trainer.status().config, expected, s.name);
      trainer.delete();
    }
  });

  test('sgd keeps a learning rate that was given', () => {
    const trainer = lab.createTrainer({ optimizer: 'sgd', lr: 0.02, momentum: 0 });
    assert.deepEqual(trainer.status().config, { ...CANONICAL, optimizer: 'sgd', lr: 0.02, momentum: 0 });
    trainer.delete();
  });

  test('alpha has one encoding: the CLI\'s alpha=<a> shorthand is not a scale name here', () => {
    assert.equal(errorOf(() => lab.createTrainer({ scale: 'alpha=0.25' })),
      "config: scale must be one of scaled, unscaled, alpha, qknorm, got 'alpha=0.25'");
  });
});

describe('the CLI and wasm refuse a bad setting with the same one-line message', () => {
  const cases = [
    [['--optimizer', 'rmsprop'], { optimizer: 'rmsprop' }],
    [['--momentum', '1'], { momentum: 1 }],
    [['--momentum', '-0.25'], { momentum: -0.25 }],
    [['--d-model', '0'], { dModel: 0 }],
    [['--d-model', '64', '--heads', '3'], { dModel: 64, heads: 3 }],
    [['--beta2', '1'], { beta2: 1 }],
    [['--init', 'he'], { init: 'he' }],
  ];
  for (const [flags, config] of cases) {
    test(flags.join(' '), () => {
      const cli = spawnSync(nativeCli(), ['train', ...flags, '--steps', '1', '--quiet'], { encoding: 'utf8' });
      assert.equal(cli.status, 2);
      assert.equal(cli.stdout, '');
      const line = cli.stderr.replace(/^sqrtdk train: /, '').replace(/\n$/, '');
      assert.ok(!line.includes('\n'), cli.stderr);
      assert.equal(errorOf(() => lab.createTrainer(config)), `config: ${line}`);
    });
  }

  test('NaN: the CLI and wasm each refuse it as not a number, in one line', () => {
    const cli = spawnSync(nativeCli(), ['train', '--momentum', 'nan'], { encoding: 'utf8' });
    assert.equal(cli.status, 2);
    assert.match(cli.stderr, /^sqrtdk train: --momentum must be a number, got 'nan'[^\n]*\n$/);
    assert.match(errorOf(() => lab.createTrainer({ momentum: NaN })), /^config\.momentum must be a finite number, got nan$/i);
  });
});

describe('lab.explorerSchema(): the explorer\'s one table', () => {
  const cli = (args) => spawnSync(nativeCli(), args, { encoding: 'utf8' });
  const row = (name) => lab.explorerSchema().find((s) => s.name === name);
  const escaped = (text) => text.replace(/[()^.\\/[\]]/g, '\\$&');

  test('its defaults are what the CLI and wasm draw without options', () => {
    const native = JSON.parse(cli(['softmax', '--json']).stdout);
    const demo = lab.softmaxDemo({});
    for (const name of ['dk', 'keys', 'seed', 'alpha']) {
      assert.equal(native[name], row(name).default, name);
      assert.equal(demo[name], row(name).default, name);
    }
    assert.equal(native.raw[`top${row('top').default}`].length, row('top').default);
    assert.deepEqual(['dk', 'keys', 'alpha'].map((name) => row(name).default), [128, 50, 0.5]);
  });

  test('its ranges are what the CLI and wasm accept, with the same bounds in both messages', () => {
    for (const name of ['dk', 'keys', 'alpha']) {
      const { min, max } = row(name);
      for (const [value, ok] of [[min, true], [max, true], [max + 1, false]]) {
        const native = cli(['softmax', `--${name}`, String(value), '--top', '1', '--json']);
        assert.equal(native.status, ok ? 0 : 2, `${name} ${value}: ${native.stderr}`);
        if (ok) continue;
        const bounds = escaped(`[${min}, ${max}]`);
        assert.match(native.stderr, new RegExp(`--${name} must be .*${bounds}`));
        assert.match(errorOf(() => lab.softmaxDemo({ [name]: value, top: 1 })), new RegExp(`${name} must be .*${bounds}`));
      }
    }
  });

  test('its usage lines are the table\'s', () => {
    const usage = cli(['histogram', '--help']).stdout;
    for (const name of ['dk', 'keys', 'draws', 'seed', 'alpha', 'bins']) {
      const { doc, default: value } = row(name);
      assert.match(usage, new RegExp(`--${name} [NA] +${escaped(doc)}, .* \\(default ${value}\\)`), name);
    }
  });
});

describe('lab.runSchema(): an exercise run\'s one table', () => {
  const cli = (args) => spawnSync(nativeCli(), args, { encoding: 'utf8' });
  const row = (name) => lab.runSchema().find((s) => s.name === name);
  const escaped = (text) => text.replace(/[()^.\\/[\]+*?]/g, '\\$&');

  test('its usage lines are the table\'s, in compare and train', () => {
    for (const [command, names] of [['compare', ['seeds', 'steps', 'threshold']], ['train', ['steps', 'threshold']]]) {
      const usage = cli([command, '--help']).stdout;
      for (const name of names) {
        const { doc, default: value } = row(name);
        assert.match(usage, new RegExp(`--${name} [NA] +${escaped(doc)}, .* \\(default ${value}\\)`), `${command} ${name}`);
        assert.match(usage, new RegExp(`\\[--${name} ${value}\\]`), `${command} ${name} synopsis`);
      }
    }
  });

  test('its ranges are what the CLI and lab.compare accept', () => {
    const variants = [{ scale: 'scaled', runs: [{ seed: 0, loss: [1, 0.5] }] }];
    for (const name of ['steps', 'threshold']) {
      const { min, max, type } = row(name);
      const beyond = type === 'integer' ? max + 1 : max * 2;
      const native = cli(['train', `--${name}`, String(beyond)]);
      assert.equal(native.status, 2, native.stderr);
      assert.match(native.stderr, new RegExp(`--${name} must be `));
      const request = { steps: 2, threshold: 0.5, variants, [name]: beyond };
      assert.match(errorOf(() => lab.compare(request)), new RegExp(`^request\\.${name} must be .*, got `));
      assert.doesNotThrow(() => lab.compare({ ...request, [name]: name === 'steps' ? 2 : min }));
    }
    const seeds = row('seeds');
    const runs = Array.from({ length: seeds.max + 1 }, (_, seed) => ({ seed, loss: [1] }));
    assert.match(errorOf(() => lab.compare({ steps: 1, variants: [{ scale: 'scaled', runs }] })),
      new RegExp(`runs must be an array of 1 to ${seeds.max} runs`));
  });
});

test('web/src/core-tables.js is the module\'s current tables (run npm run tables and commit it if not)', async () => {
  const committed = readFileSync(`${REPO}web/src/core-tables.js`, 'utf8');
  assert.equal(committed, await coreTablesSource(MODULE_PATH));
});
