// Every measured answer README.md quotes is what the native CLI prints now (scripts/readme-numbers.mjs generates
// the blocks; run it after a change that moves a number).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { README, blocks, render } from '../../scripts/readme-numbers.mjs';
import { nativeCli } from './helpers.mjs';

const found = blocks(readFileSync(README, 'utf8'));

test('README.md has generated blocks: the default exercise, SGD and the scenarios\' claims', () => {
  assert.deepEqual(found.map((b) => b.args), ['compare --steps 400 --seeds 3', 'compare --scenario sgd', 'claims']);
});

for (const { args, current, line } of found) {
  test(`README.md:${line} quotes what 'sqrtdk ${args}' prints`, () => {
    assert.equal(current, render(args, nativeCli()).trim(), 'stale: run node scripts/readme-numbers.mjs');
  });
}
