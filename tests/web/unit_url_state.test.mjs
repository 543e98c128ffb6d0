// The URL-state parser and writer (web/src/state): round trips, clamping, hostile input, properties.
import test from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { PROPERTIES, PROPERTY_BY_KEY, defaultState } from '../../web/src/state/properties.js';
import { normalizeState, parseAttributes, parseHash, serializeHash } from '../../web/src/state/url-state.js';
import { Store } from '../../web/src/state/store.js';

const isValid = (state) => PROPERTIES.every((p) => {
  const v = state[p.key];
  switch (p.type) {
    case 'int': return Number.isInteger(v) && (p.choices ? p.choices.includes(v) : v >= p.min && v <= p.max);
    case 'number': return Number.isFinite(v) && v >= p.min && v <= p.max;
    case 'bool': return typeof v === 'boolean';
    case 'choice': return p.choices.includes(v);
    case 'list': return Array.isArray(v) && v.every((x) => p.choices.includes(x)) && (p.allowEmpty || v.length > 0);
    default: return false;
  }
});

test('the default state round-trips through the hash without notices', () => {
  const { state, notices } = parseHash(serializeHash(defaultState()));
  assert.deepEqual(state, defaultState());
  assert.deepEqual(notices, []);
});

test('every property has a valid default, and the table names no key twice', () => {
  assert.ok(isValid(defaultState()));
  assert.equal(new Set(PROPERTIES.map((p) => p.key)).size, PROPERTIES.length);
  assert.equal(new Set(PROPERTIES.map((p) => p.attribute)).size, PROPERTIES.length);
});

test('a hostile hash is neutralised: script text, overflow and prototype keys are dropped with notices', () => {
  const { state, notices } = parseHash('#lr=<img src=x onerror=alert(1)>&seed=1e999&scale=__proto__&__proto__=1&constructor=x');
  assert.equal(state.lr, PROPERTY_BY_KEY.get('lr').default);
  assert.equal(state.seed, defaultState().seed);  // refused: the default draw
  assert.equal(notices.length, 5);
  assert.match(notices[0], /lr.*not a finite number/);
  assert.match(notices[1], /seed.*not a finite number/);
  assert.match(notices[2], /"scale" is not a setting/);
  assert.equal(Object.getPrototypeOf(state), Object.prototype);
  assert.equal({}.polluted, undefined);
  assert.ok(isValid(state));
});

test('out-of-range numbers are clamped and non-integers rounded, each with a notice', () => {
  const { state, notices } = parseHash('dk=5000&keys=1&alpha=-3&layers=2.6&dModel=100&lr=1e-9');
  assert.equal(state.dk, 1024);
  assert.equal(state.keys, 2);
  assert.equal(state.alpha, 0);
  assert.equal(state.layers, 3);
  assert.equal(state.dModel, 128);
  assert.equal(state.lr, 1e-5);
  assert.equal(notices.length, 6);
});

test('lists keep known items in table order and report the rest', () => {
  const { state, notices } = parseHash('variants=qknorm,bogus,scaled,scaled&panels=train');
  assert.deepEqual(state.variants, ['scaled', 'qknorm']);
  assert.deepEqual(state.panels, ['train']);
  assert.equal(notices.length, 1);
  assert.equal(parseHash('variants=').state.variants.length, 2);
  assert.deepEqual(parseHash('hide=').state.hide, []);
});

test('booleans accept the usual words only', () => {
  assert.equal(parseHash('logY=off').state.logY, false);
  assert.equal(parseHash('logY=true').state.logY, true);
  const bad = parseHash('logY=maybe');
  assert.equal(bad.state.logY, true);
  assert.equal(bad.notices.length, 1);
});

test('very long values are dropped, and notices quote at most 40 characters', () => {
  const { state, notices } = parseHash(`lr=${'9'.repeat(500)}`);
  assert.equal(state.lr, 0.001);
  assert.match(notices[0], /too long/);
  const quoted = parseHash(`init=${'x'.repeat(100)}`).notices[0];
  assert.ok(quoted.length < 160, quoted);
});

test('attributes use kebab-case names and the same rules', () => {
  const { state, notices } = parseAttributes([['d-model', '32'], ['copy-length', '99'], ['onclick', 'x']]);
  assert.equal(state.dModel, 32);
  assert.equal(state.copyLength, 32);
  assert.equal(notices.length, 2);
});

test('normalisation keeps heads dividing d_model and the heatmap inside the model', () => {
  const { state, notices } = normalizeState({ ...defaultState(), dModel: 24, heads: 16, layers: 2, heatLayer: 5 });
  assert.equal(state.heads, 8);
  assert.equal(state.heatLayer, 2);
  assert.equal(notices.length, 1);
});

test('the store reports changed keys and ignores unknown ones', () => {
  const store = new Store(defaultState());
  const seen = [];
  store.subscribe((state, changed) => seen.push(changed));
  store.update({ dk: 256, nonsense: 1 });
  store.update({ dk: 256 });
  assert.deepEqual(seen, [['dk']]);
  assert.equal(store.state.nonsense, undefined);
});

const validState = fc.record(Object.fromEntries(PROPERTIES.map((p) => {
  switch (p.type) {
    case 'int': return [p.key, p.choices ? fc.constantFrom(...p.choices) : fc.integer({ min: p.min, max: p.max })];
    case 'number': return [p.key, fc.double({ min: p.min, max: p.max, noNaN: true, noDefaultInfinity: true }).map((x) => (Object.is(x, -0) ? 0 : x))];
    case 'bool': return [p.key, fc.boolean()];
    case 'choice': return [p.key, fc.constantFrom(...p.choices)];
    default: return [p.key, fc.subarray([...p.choices], { minLength: p.allowEmpty ? 0 : 1 })];
  }
})));

test('property: any valid, normalised state round-trips exactly through the hash', () => {
  fc.assert(fc.property(validState, (raw) => {
    const { state } = normalizeState(raw);
    const parsed = parseHash(serializeHash(state));
    assert.deepEqual(parsed.notices, []);
    assert.deepEqual(parsed.state, state);
  }), { numRuns: 300 });
});

test('property: any text as a hash parses to a valid state without throwing', () => {
  const keys = PROPERTIES.map((p) => p.key).concat(['__proto__', 'constructor', 'prototype', '']);
  const pair = fc.tuple(fc.constantFrom(...keys), fc.oneof(fc.string(), fc.constantFrom('NaN', 'Infinity', '-0', '1e308', '0x10', ' 5 ', '<script>', '1,2')));
  fc.assert(fc.property(fc.oneof(fc.string(), fc.array(pair).map((pairs) => new URLSearchParams(pairs).toString())), (hash) => {
    const { state, notices } = parseHash(hash);
    assert.ok(isValid(state));
    assert.ok(notices.every((n) => typeof n === 'string'));
  }), { numRuns: 500 });
});

test('choosing SGD without a learning rate trains at SGD\'s default rate; a given or changed rate is kept', () => {
  const lrRow = PROPERTY_BY_KEY.get('lr');
  assert.equal(defaultState().lr, 0.001);
  // A link or attribute naming only the optimizer: the core's rule (sgd without lr uses 0.1), from its table.
  assert.equal(parseHash('#optimizer=sgd').state.lr, 0.1);
  assert.equal(parseHash('#optimizer=sgd&lr=0.03').state.lr, 0.03);
  assert.equal(parseHash('#lr=0.03&optimizer=sgd').state.lr, 0.03);
  // A control: switching follows the optimizer's default while the rate is at the old optimizer's default.
  const store = new Store(defaultState());
  store.update({ optimizer: 'sgd' });
  assert.equal(store.state.lr, 0.1);
  store.update({ optimizer: 'adam' });
  assert.equal(store.state.lr, 0.001);
  store.update({ lr: 0.005 });
  store.update({ optimizer: 'sgd' });
  assert.equal(store.state.lr, 0.005, 'a rate the learner chose stays');
  // Every state still round-trips through the hash (the hash always writes lr).
  for (const state of [store.state, parseHash('#optimizer=sgd&lr=0.001').state]) {
    assert.deepEqual(parseHash(serializeHash(state)).state, state);
  }
  assert.ok(lrRow.max >= 0.1, 'SGD\'s default lies inside the page\'s range');
});
