// Numbers per lang (web/src/ui/format.js on locale.js's formatNumber) and plural forms (locale.js's plural).
import test from 'node:test';
import assert from 'node:assert/strict';
import { count, fixed, formatCount, formatValue, whole } from '../../web/src/ui/format.js';
import { STRINGS } from '../../web/src/ui/strings.js';
import { knownLocale, langOf, plural } from '../../web/src/ui/locale.js';
import { renderMessage } from '../../web/src/analysis/render-message.js';
import { BAD_TAGS, LONG_GERMAN } from './helpers/language-tags.mjs';
import { variantLabel } from '../../web/src/analysis/localize-answer.js';

// English numbers without Intl: C's %.3g (away from exact ties, which random doubles never are) with its exponent
// as a power of ten, %.4f, and
// counts as whole numbers or halves.
const PLAIN = {
  value: (x) => {
    const [mantissa, exp] = x.toExponential(2).split('e');
    const e = Number(exp);
    return e >= -4 && e < 3 ? String(Number(x.toPrecision(3)))
      : `${Math.abs(Number(mantissa)) === 1 ? (Number(mantissa) < 0 ? '-' : '') : `${Number(mantissa)}×`}10${e < 0 ? '⁻' : ''}${
        String(Math.abs(e)).replace(/\d/g, (d) => '⁰¹²³⁴⁵⁶⁷⁸⁹'[d])}`;
  },
  fixed: (x, d) => x.toFixed(d),
  count: (x) => (Number.isInteger(x) ? String(x) : x.toFixed(1)),
};

test('English numbers are written as C\'s printf writes them, for values across many decades', () => {
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  for (let i = 0; i < 20000; i += 1) {
    const x = (random() - 0.2) * 10 ** Math.floor(random() * 14 - 7);
    assert.equal(formatValue(x), PLAIN.value(x), String(x));
    assert.equal(fixed(x, 4), PLAIN.fixed(x, 4), String(x));
  }
  for (const x of [0, 1, 61, 119.5, 1024, 20000]) assert.equal(formatCount(x), PLAIN.count(x));
  assert.equal(formatValue(-0), '0');
  assert.deepEqual([null, undefined, NaN, Infinity, -Infinity].map((x) => formatValue(x)), ['–', '–', '–', '∞', '-∞']);
});

test('German numbers: decimal comma, grouping only where the page groups', () => {
  assert.equal(formatValue(0.5, 'de'), '0,5');
  assert.equal(formatValue(1.5e-5, 'de'), '1,5×10⁻⁵');
  assert.equal(formatValue(123456, 'de'), '1,23×10⁵');
  assert.equal(fixed(0.99416, 4, 'de'), '0,9942');
  assert.equal(formatValue(1234.5, 'de'), '1,23×10³');
  assert.equal(formatValue(0.00937940673760617, 'de'), '0,00938');
  assert.equal(formatCount(119.5, 'de'), '119,5');
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


test('an invalid language tag falls back to English everywhere Intl is used; a valid one keeps its language', () => {
  for (const tag of BAD_TAGS) {
    assert.throws(() => new Intl.NumberFormat(tag), RangeError, `Intl itself rejects ${JSON.stringify(tag)}`);
    assert.equal(knownLocale(tag), 'en', tag);
    assert.equal(formatValue(1234.5, tag), '1.23×10³', tag);
    assert.equal(count(20000, tag), '20,000', tag);
    assert.equal(plural(tag, 1, { one: 'one', other: 'other' }), 'one', tag);
    assert.equal(renderMessage({ key: 'k', plural: 'n', args: { n: { count: 1 } } }, { 'k.one': 'one', 'k.other': 'other' }, tag), 'one', tag);
    assert.equal(langOf({ closest: () => ({ getAttribute: () => tag }) }), 'en', tag);
  }
  assert.equal(LONG_GERMAN.length, 100);
  assert.equal(knownLocale(LONG_GERMAN), LONG_GERMAN);
  assert.equal(count(20000, LONG_GERMAN), '20.000');
  assert.equal(knownLocale('EN-us'), 'en-US');
  assert.equal(knownLocale('tlh'), 'en', 'a valid tag Intl lacks is English, not the browser\'s language');
});
