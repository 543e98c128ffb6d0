// Numbers per lang (web/src/ui/format.js on locale.js's formatNumber) and plural forms (locale.js's plural).
import test from 'node:test';
import assert from 'node:assert/strict';
import { count, fixed, formatG, short, stepsText, whole } from '../../web/src/ui/format.js';
import { STRINGS } from '../../web/src/ui/strings.js';
import { plural } from '../../web/src/ui/locale.js';
import { variantLabel } from '../../web/src/analysis/localize-answer.js';

// The page's English before numbers went through Intl (String / toFixed / toPrecision / toExponential).
const OLD = {
  short: (x) => (x === null || x === undefined || !Number.isFinite(x) ? '–'
    : x !== 0 && (Math.abs(x) < 1e-3 || Math.abs(x) >= 1e5) ? x.toExponential(2) : String(Number(x.toPrecision(3)))),
  fixed: (x, d) => x.toFixed(d),
  steps: (x) => (Number.isInteger(x) ? String(x) : x.toFixed(1)),
};

test('English numbers are written as before, for values across many decades', () => {
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  for (let i = 0; i < 20000; i += 1) {
    const x = (random() - 0.2) * 10 ** Math.floor(random() * 14 - 7);
    assert.equal(short(x), OLD.short(x), String(x));
    assert.equal(fixed(x, 4), OLD.fixed(x, 4), String(x));
  }
  for (const x of [0, 1, 61, 119.5, 1024, 20000]) assert.equal(stepsText(x), OLD.steps(x));
  assert.equal(short(-0), '0');
});

test('German numbers: decimal comma, grouping only where the page groups', () => {
  assert.equal(short(0.5, 'de'), '0,5');
  assert.equal(short(1.5e-5, 'de'), '1,50e-5');
  assert.equal(short(123456, 'de'), '1,23e+5');
  assert.equal(fixed(0.99416, 4, 'de'), '0,9942');
  assert.equal(formatG(1234.5, 3, 'de'), '1,23e+03');
  assert.equal(formatG(0.00937940673760617, 3, 'de'), '0,00938');
  assert.equal(stepsText(119.5, 'de'), '119,5');
  assert.equal(count(20000, 'de'), '20.000');
  assert.equal(count(20000, 'en'), '20,000');
  assert.equal(whole(1024, 'de'), '1024');
  assert.equal(variantLabel('alpha', 0.5, 'de'), '1/d_k^α, α=0,5');
  assert.equal(variantLabel('alpha', 0.5), '1/d_k^α, α=0.5');
});

test('plural: the language picks the form; a missing form falls back to other', () => {
  const forms = { one: 'one', few: 'few', many: 'many', other: 'other' };
  assert.deepEqual([1, 2, 5].map((n) => plural('en', n, forms)), ['one', 'other', 'other']);
  assert.deepEqual([1, 3, 5].map((n) => plural('pl', n, forms)), ['one', 'few', 'many']);
  assert.equal(plural('pl', 3, { one: 'one', other: 'other' }), 'other');
  assert.equal(STRINGS.train.loading('en', 1, '1'), 'Loading the model of 1 run…');
  assert.equal(STRINGS.train.loading('en', 3, '3'), 'Loading the model of 3 runs…');
});
