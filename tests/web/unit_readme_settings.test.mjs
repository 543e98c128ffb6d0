// web/README.md against what it describes: the settings table against the property table (web/src/state/
// properties.js, itself from the core's settings tables), and the download's size against the built bundle.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { REPO } from './helpers/browser.mjs';
import { PROPERTIES } from '../../web/src/state/properties.js';

/** The rows of the table under "| key | type | default | range / choices |": keys -> {type, defaults, range}. */
function readmeRows() {
  const text = readFileSync(join(REPO, 'web/README.md'), 'utf8');
  const start = text.indexOf('| key | type | default | range / choices |');
  assert.ok(start >= 0, 'web/README.md has the settings table');
  const rows = new Map();
  for (const line of text.slice(start).split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    const [keys, type, defaults, range] = line.split('|').slice(1, 5).map((c) => c.trim());
    const names = [...keys.matchAll(/`(\w+)`/g)].map((m) => m[1]);
    const values = defaults === '' ? [] : defaults.split(/,\s(?=\S)/);
    names.forEach((name, i) => rows.set(name, { type, defaults: names.length > 1 ? values[i] : defaults, range }));
  }
  return rows;
}

const shown = (x) => (Array.isArray(x) ? x.join(',') : String(x));
const bound = (x) => (x === 9007199254740991 ? '2^53−1' : String(x).replace('0.00001', '1e-5'));

test('web/README.md lists every setting with the table\'s type, default and range', () => {
  const rows = readmeRows();
  assert.deepEqual([...rows.keys()].sort(), PROPERTIES.map((p) => p.key).sort());
  for (const p of PROPERTIES) {
    const row = rows.get(p.key);
    assert.equal(row.type, p.type, `${p.key}: type`);
    if (p.type !== 'list' || p.key === 'variants') assert.equal(row.defaults, shown(p.default), `${p.key}: default`);
    if (p.choices && p.type !== 'list' || p.key === 'variants') {
      assert.ok(row.range.startsWith(p.choices.join(', ')), `${p.key}: choices "${row.range}"`);
    } else if (p.min !== undefined && p.key !== 'trainSeed' && !p.key.startsWith('heat')) {
      assert.ok(row.range.startsWith(`${bound(p.min)}..${bound(p.max)}`), `${p.key}: range "${row.range}" vs ${p.min}..${p.max}`);
    }
  }
});

test('web/README.md states the built bundle\'s size and gzipped size, each within 5 %', () => {
  const text = readFileSync(join(REPO, 'web/README.md'), 'utf8');
  const [, kib, kb] = text.match(/`sqrtdk-lab\.js` is ~(\d+) KiB \(~(\d+) KB gzipped\)/) ?? [];
  assert.ok(kib && kb, 'web/README.md states the download size as "`sqrtdk-lab.js` is ~N KiB (~M KB gzipped)"');
  const bundle = readFileSync(join(REPO, 'web/dist/sqrtdk-lab.js'));
  const near = (stated, actual) => Math.abs(stated - actual) <= 0.05 * actual;
  assert.ok(near(Number(kib), bundle.length / 1024), `stated ${kib} KiB, built ${(bundle.length / 1024).toFixed(0)} KiB`);
  assert.ok(near(Number(kb), gzipSync(bundle, { level: 9 }).length / 1000), `stated ${kb} KB gzipped, built ${(gzipSync(bundle, { level: 9 }).length / 1000).toFixed(0)} KB`);
});
