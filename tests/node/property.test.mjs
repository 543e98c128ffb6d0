// Property: for any JSON-ish config, createTrainer either builds exactly that configuration or throws an Error
// with a one-line message (the one validateConfig returns); the module keeps working either way.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import fc from 'fast-check';

import { CANONICAL, CAP_MESSAGE, freshLab } from './helpers.mjs';

// The fields by type, from the core's settings table (CANONICAL in helpers.mjs pins the table's defaults).
const SCHEMA = (await freshLab()).schema();
const keysOf = (...types) => SCHEMA.filter((s) => types.includes(s.type)).map((s) => s.jsKey);
const INTEGER_FIELDS = keysOf('integer', 'seed');
const NUMBER_FIELDS = keysOf('real');
const CHOICES = Object.fromEntries(SCHEMA.filter((s) => s.type === 'choice').map((s) => [s.jsKey, s.choices]));
const KNOWN = SCHEMA.map((s) => s.jsKey);
const SGD_LR = SCHEMA.find((s) => s.name === 'lr').sgdDefault;

const value = fc.oneof(
  { arbitrary: fc.integer({ min: -2, max: 70 }), weight: 4 },
  { arbitrary: fc.integer({ min: -2, max: 1100 }), weight: 2 },
  fc.double(),
  fc.constantFrom(NaN, Infinity, -Infinity, -0, 0.5, 1e-9, 0.999, 1e300, -1e300, 2 ** 31, 2 ** 53, Number.MIN_VALUE),
  fc.constantFrom(...Object.values(CHOICES).flat()),
  fc.string({ maxLength: 70 }),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
);
const key = fc.oneof(
  { arbitrary: fc.constantFrom(...KNOWN), weight: 6 },
  fc.string({ maxLength: 50 }),
  fc.constantFrom('__proto__', 'constructor', 'toString', 'DModel', 'd_model'),
);
const configObject = fc.array(fc.tuple(key, value), { maxLength: 6 }).map(Object.fromEntries);
const config = fc.oneof({ arbitrary: configObject, weight: 12 }, value);

// True when the JS layer must refuse `c` before the core sees it: not an object, an unknown key, a wrong type
// (ranges and choice names are the core's to check).
function typeProblem(c) {
  if (c === undefined || c === null) return false;
  if (typeof c !== 'object' || Array.isArray(c)) return true;
  return Object.keys(c).some((name) => {
    const v = c[name];
    if (!KNOWN.includes(name)) return true;
    if (v === undefined) return false;
    if (INTEGER_FIELDS.includes(name)) return !Number.isInteger(v);
    if (NUMBER_FIELDS.includes(name)) return typeof v !== 'number' || !Number.isFinite(v);
    return typeof v !== 'string' || Buffer.byteLength(v) > 64;
  });
}

// The normalised configuration a trainer built from `c` must report.
function expectedConfig(c) {
  const merged = { ...CANONICAL };
  for (const [name, v] of Object.entries(c ?? {})) {
    if (v !== undefined) merged[name] = INTEGER_FIELDS.includes(name) ? v + 0 : v;
  }
  if (merged.optimizer === 'sgd' && c.lr === undefined) merged.lr = SGD_LR;
  return merged;
}

let lab;
before(async () => {
  lab = await freshLab();
});

test('createTrainer(any config) builds that configuration or throws a one-line Error; the module still trains', async (t) => {
  let built = 0;
  let refused = 0;
  fc.assert(fc.property(config, (c) => {
    let trainer;
    let thrown;
    try {
      trainer = lab.createTrainer(c);
    } catch (e) {
      thrown = e;
    }
    const report = lab.validateConfig(c);
    if (trainer) {
      built++;
      const got = trainer.status().config;
      trainer.delete();
      assert.equal(report, '');
      assert.equal(typeProblem(c), false, 'the JS layer accepted a config it should refuse');
      assert.deepEqual(got, expectedConfig(c));
    } else {
      refused++;
      assert.ok(thrown instanceof Error, `threw a non-Error: ${String(thrown)}`);
      assert.match(thrown.message, /^config[ .:][^\n]+$/);
      assert.ok(thrown.message.length < 300, thrown.message);
      assert.equal(report, thrown.message);
      assert.equal(thrown.message.startsWith('config: '), !typeProblem(c), `layer of '${thrown.message}'`);
    }
    assert.deepEqual(lab.defaults(), CANONICAL);
  }), { numRuns: 400, seed: 20240601, endOnFailure: true });
  t.diagnostic(`${built} configurations built, ${refused} refused`);
  assert.ok(built > 20 && refused > 20, 'the generator should produce both valid and invalid configurations');

  const reference = await freshLab();
  const expected = reference.createTrainer({ seed: 6 }).step(50).loss;
  const trainer = lab.createTrainer({ seed: 6 });
  assert.deepEqual(trainer.step(50).loss, expected);
  trainer.delete();
});

test('createTrainer(sizes anywhere in their ranges) builds or refuses with the cap message, never aborts', async (t) => {
  const own = await freshLab();
  const sizes = fc.record({
    layers: fc.integer({ min: 1, max: 12 }),
    dModel: fc.integer({ min: 1, max: 1024 }),
    dFf: fc.integer({ min: 0, max: 8192 }),
    copyLength: fc.integer({ min: 1, max: 64 }),
    symbols: fc.integer({ min: 2, max: 1000 }),
    batch: fc.integer({ min: 1, max: 1024 }),
    evalBatch: fc.integer({ min: 1, max: 1024 }),
  }, { requiredKeys: [] });
  let built = 0;
  fc.assert(fc.property(sizes, (c) => {
    let trainer;
    try {
      trainer = own.createTrainer(c);
    } catch (e) {
      assert.ok(e instanceof Error, `threw a non-Error: ${String(e)}`);
      assert.match(e.message, CAP_MESSAGE);
      return;
    }
    built++;
    const got = trainer.status().config;
    trainer.delete();
    assert.deepEqual(got, expectedConfig(c));
  }), { numRuns: 150, seed: 20240602, endOnFailure: true });
  t.diagnostic(`${built} of 150 size combinations built, the rest refused; heap now ${own.heapBytes() / 2 ** 20} MiB`);
});
