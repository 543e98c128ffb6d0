// The element API's pure parts: the strict `settings` check, the frame's parentOrigin check, the hash split
// that keeps parentOrigin out of the settings, and number formatting per language.
import test from 'node:test';
import assert from 'node:assert/strict';
import { strictSettings, settingsCopy } from '../../web/src/api/settings.js';
import { exactOrigin } from '../../web/src/api/frame-bridge.js';
import { splitHash } from '../../web/src/element/url-sync.js';
import { formatNumber } from '../../web/src/ui/locale.js';
import { defaultState } from '../../web/src/state/properties.js';
import { DEFAULT_PAGE_BUDGET_BYTES, largestRun } from '../../web/src/worker/memory-budget.js';
import { parseHash } from '../../web/src/state/url-state.js';

test('settings: good values apply over the base, as objects or as a hash', () => {
  const base = defaultState();
  const next = strictSettings({ dk: 256, lr: 0.01, variants: ['unscaled', 'scaled'], logY: false, init: 'gpt', hide: [] }, base);
  assert.equal(next.dk, 256);
  assert.equal(next.lr, 0.01);
  assert.deepEqual(next.variants, ['scaled', 'unscaled'], 'lists keep the table order, like the URL');
  assert.equal(next.logY, false);
  assert.equal(next.init, 'gpt');
  assert.equal(next.seeds, base.seeds, 'keys not given keep their value');
  assert.deepEqual(strictSettings('#dk=256&lr=0.01&variants=unscaled,scaled&logY=false&init=gpt', base), { ...next, hide: base.hide });
  assert.deepEqual(strictSettings({ dk: '256' }, base).dk, 256, 'numbers as text, as in attributes');
});

test('settings: exactly the URL\'s checks, but a bad value throws one line and changes nothing', () => {
  const base = defaultState();
  const before = JSON.stringify(base);
  const cases = [
    [{ dk: 5000 }, /^sqrtdk-lab: settings\.dk: 5000 is outside 1\.\.1024; nothing was changed\.$/],
    [{ dk: 2.5 }, /settings\.dk: 2\.5 is not a whole number; nothing was changed\.$/],
    [{ dk: 'many' }, /settings\.dk: "many" is not a finite number; nothing was changed\.$/],
    [{ dk: Number.NaN }, /settings\.dk: "NaN" is not a finite number/],
    [{ dModel: 100 }, /settings\.dModel: 100 is not one of 16, 32, 64, 128, 256; nothing was changed\.$/],
    [{ init: 'he' }, /settings\.init: "he" is not one of xavier, torch, gpt; nothing was changed\.$/],
    [{ variants: ['scaled', 'fast'] }, /settings\.variants: ignored "fast" \(not one of scaled, unscaled, alpha, qknorm\); nothing was changed\.$/],
    [{ variants: [] }, /settings\.variants: empty; nothing was changed\.$/],
    [{ logY: 'maybe' }, /settings\.logY: "maybe" is not true or false; nothing was changed\.$/],
    [{ speed: 2 }, /settings\."speed" is not a setting of this lab; nothing was changed\.$/],
    [{ __proto__: null, constructor: 1 }, /settings\."constructor" is not a setting/],
    [{ lr: true }, /^sqrtdk-lab: settings\.lr must be a number, not boolean; nothing was changed\.$/],
    [{ variants: [1] }, /settings\.variants must be an array of strings, not an array/],
    [{ dk: 5000, seeds: 99 }, /settings\.dk: 5000 is outside 1\.\.1024 \(and 1 more\); nothing was changed\.$/],
    ['dk=abc', /settings\.dk: "abc" is not a finite number/],
    [null, /^sqrtdk-lab: settings must be an object such as \{dk: 256\} or a hash such as "dk=256", not null\.$/],
    [[1, 2], /not an array\.$/],
    [42, /not number\.$/],
  ];
  for (const [input, message] of cases) {
    assert.throws(() => strictSettings(input, base), (error) => {
      assert.match(error.message, message, JSON.stringify(input));
      assert.doesNotMatch(error.message, /\n/);
      return true;
    });
  }
  assert.equal(JSON.stringify(base), before);
});

test('settings: a change after which a run can never fit is refused with the exercise\'s line, naming only the lab\'s settings', () => {
  const limit = largestRun(DEFAULT_PAGE_BUDGET_BYTES);
  const base = strictSettings({ layers: 6, dModel: 256, heads: 16, copyLength: 9, symbols: 64 }, defaultState(), limit);
  const before = JSON.stringify(base);
  let message = '';
  try {
    strictSettings({ copyLength: 32, batch: 128 }, base, limit);
  } catch (error) {
    message = error.message;
  }
  assert.match(message, /^sqrtdk-lab: one run needs about \d+ MiB, more than the 512 MiB one run may use \(layers 6, dModel 256, heads 16, copyLength 32, symbols 64, batch 128\); the largest \w+ that fits is \d+\.$/);
  assert.doesNotMatch(message, /eval_batch|evalBatch|d_ff|dFf|\n/);
  assert.equal(JSON.stringify(base), before, 'nothing was changed');
  // The line names a value that fits: the same change with it is accepted.
  const [, key, value] = /the largest (\w+) that fits is (\d+)/.exec(message);
  assert.equal(strictSettings({ copyLength: 32, batch: 128, [key]: Number(value) }, base, limit)[key], Number(value));
  // Settings that do not size a run are never refused for memory; a smaller page budget refuses sooner and says so.
  assert.equal(strictSettings({ dk: 32 }, strictSettings({ batch: 128 }, base), limit).dk, 32);
  assert.throws(() => strictSettings({ batch: 128 }, defaultState(), largestRun(40 * 1024 * 1024)), /memoryBudget/);
});

test('settings: the property hands out a copy', () => {
  const state = defaultState();
  const copy = settingsCopy(state);
  copy.variants.push('alpha');
  copy.dk = 1;
  assert.deepEqual(state.variants, ['scaled', 'unscaled']);
  assert.equal(state.dk, 128);
});

test('parentOrigin must be exactly an http(s) origin', () => {
  for (const good of ['https://lessons.example.org', 'http://127.0.0.1:8123', 'https://example.org:8443']) assert.equal(exactOrigin(good), good);
  for (const bad of ['*', 'null', '', 'https://example.org/', 'https://example.org/path', 'HTTPS://example.org', 'https://user@example.org',
    'file:///tmp', 'javascript:alert(1)', 'example.org', 'https://example.org:443', ' https://example.org', undefined, 12]) {
    assert.equal(exactOrigin(bad), null, String(bad));
  }
});

test('the hash keeps parentOrigin apart from the settings, so the URL parser never sees it', () => {
  const { settings, embedding } = splitHash('#panels=train&parentOrigin=http%3A%2F%2F127.0.0.1%3A9000&dk=64');
  assert.equal(new URLSearchParams(embedding).get('parentOrigin'), 'http://127.0.0.1:9000');
  const parsed = parseHash(settings);
  assert.deepEqual(parsed.notices, []);
  assert.equal(parsed.state.dk, 64);
  assert.deepEqual(splitHash(''), { settings: '', embedding: '' });
});

test('numbers are written as the element\'s language writes them', () => {
  assert.equal(formatNumber(1234.5, 'en', { maximumFractionDigits: 1 }), '1,234.5');
  assert.equal(formatNumber(1234.5, 'de', { maximumFractionDigits: 1 }), '1.234,5');
  assert.equal(formatNumber(0.001234, 'fr'), '0,00123');
  assert.equal(formatNumber(Number.NaN, 'en'), '–');
  assert.equal(formatNumber(Infinity, 'en'), '∞');
});
