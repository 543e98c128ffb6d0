// web/README's answer table restates the core's curve definitions (the window, the stall's band and length, the
// clear difference's ratio and share, the saturation bar) in words: each number there is the core's, read from
// core-tables.js (written from the wasm module), so a change of a definition cannot leave the README behind.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { curveDefinitions } from '../../web/src/core-tables.js';

const readme = readFileSync(new URL('../../web/README.md', import.meta.url), 'utf8');
const row = (name) => readme.split('\n').find((line) => line.startsWith(`| \`${name}\``));

test('the definitions row names every definition and gives each the core\'s value, in order', () => {
  const line = row('definitions');
  assert.ok(line, 'the definitions row');
  const keys = /`\{([^}]+)\}`/.exec(line)[1].split(', ');
  assert.deepEqual(keys, [...Object.keys(curveDefinitions), 'text']);
  const values = [...line.matchAll(/\((\d+(?:\.\d+)?)(?: steps)?\)/g)].map((m) => Number(m[1]));
  assert.deepEqual(values, Object.values(curveDefinitions));
});

test('the comparisons row states the clear difference with the core\'s share and ratio', () => {
  const line = row('comparisons[]');
  const { clearShare, clearRatio } = curveDefinitions;
  assert.ok(line.includes(`at least ${Math.round(clearShare * 100)} % of the (seed, seed) pairs`), line);
  assert.ok(line.includes(`medians ≥ ${clearRatio}× apart`) && line.includes(`< ${clearRatio}×`), line);
});
