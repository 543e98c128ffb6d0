// web/README.md against what it describes: the download's size against the built bundle.  (Its settings table
// is generated: tests/web/unit_settings_docs.test.mjs.)
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { REPO } from './helpers/browser.mjs';

test('web/README.md states the built bundle\'s size and gzipped size, each within 5 %', () => {
  const text = readFileSync(join(REPO, 'web/README.md'), 'utf8');
  const [, kib, kb] = text.match(/`sqrtdk-lab\.js` is ~(\d+) KiB \(~(\d+) KB gzipped\)/) ?? [];
  assert.ok(kib && kb, 'web/README.md states the download size as "`sqrtdk-lab.js` is ~N KiB (~M KB gzipped)"');
  const bundle = readFileSync(join(REPO, 'web/dist/sqrtdk-lab.js'));
  const near = (stated, actual) => Math.abs(stated - actual) <= 0.05 * actual;
  assert.ok(near(Number(kib), bundle.length / 1024), `stated ${kib} KiB, built ${(bundle.length / 1024).toFixed(0)} KiB`);
  assert.ok(near(Number(kb), gzipSync(bundle, { level: 9 }).length / 1000), `stated ${kb} KB gzipped, built ${(gzipSync(bundle, { level: 9 }).length / 1000).toFixed(0)} KB`);
});
