// The explorer opens on a typical draw: its default seed is the median draw of the page's fixed set of draws at the
// default d_k, keys and alpha, by the page's own ranking (web/src/explorer/draw-rank.js) over the core's draws.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import { drawStanding, medianDraw } from '../../web/src/explorer/draw-rank.js';
import { freshLab } from './helpers.mjs';

let lab;
let defaults;
before(async () => {
  lab = await freshLab();
  defaults = Object.fromEntries(lab.explorerSchema().map((row) => [row.name, row.default]));
});

test('the default seed is the median draw of the fixed set at the default settings', () => {
  const set = lab.drawSet({ dk: defaults.dk, keys: defaults.keys, alpha: defaults.alpha });
  assert.equal(set.rawTop.length, 200);  // the core's set: seeds 0-199
  const median = medianDraw(set);
  assert.equal(defaults.seed, median.seed, `the median draw is seed ${median.seed} (rank ${median.rank})`);
  // Its raw top weight is the set's median top weight up to the two middle draws' gap, and it is saturated, as the
  // lesson's typical draw is.
  const standing = drawStanding(set, { seed: defaults.seed, rawTop: set.rawTop[defaults.seed] });
  assert.equal(standing.rank, 100);
  assert.ok(set.rawTop[defaults.seed] <= standing.top.median);
  assert.ok(set.rawTop[defaults.seed] >= 0.9, `top weight ${set.rawTop[defaults.seed]}`);
});

test('a demo without a seed is the default seed\'s draw', () => {
  const implicit = lab.softmaxDemo({});
  const explicit = lab.softmaxDemo({ seed: defaults.seed });
  assert.equal(implicit.seed, defaults.seed);
  assert.deepEqual(implicit.raw.top, explicit.raw.top);
});

test('the set\'s quartiles are the core\'s, by the sweep\'s rule (linear between order statistics, type 7)', () => {
  const set = lab.drawSet({ dk: 64, keys: 20, alpha: 0.5, seeds: 9 });
  const sorted = Array.from(set.rawTop).sort((a, b) => a - b);
  // Nine values: q1, median and q3 fall on the 3rd, 5th and 7th order statistics exactly.
  assert.deepEqual(set.rawTopQuartiles, { q1: sorted[2], median: sorted[4], q3: sorted[6] });
  const eight = lab.drawSet({ dk: 64, keys: 20, alpha: 0.5, seeds: 8 });
  const s8 = Array.from(eight.rawTop).sort((a, b) => a - b);
  // Eight: h = 7p, so q1 = v[1] + 0.75 (v[2] - v[1]) and the median the midpoint of v[3] and v[4].
  assert.equal(eight.rawTopQuartiles.q1, s8[1] + 0.75 * (s8[2] - s8[1]));
  assert.equal(eight.rawTopQuartiles.median, s8[3] + 0.5 * (s8[4] - s8[3]));
  // Each draw is the demo's draw of its seed.
  for (const seed of [0, 5, 8]) {
    const demo = lab.softmaxDemo({ dk: 64, keys: 20, alpha: 0.5, seed });
    assert.equal(set.rawTop[seed] ?? eight.rawTop[seed], demo.raw.max);
  }
});

test('a bad set is refused with one line, and the module still answers', () => {
  assert.throws(() => lab.drawSet({ seeds: 0 }), /^Error: options: seeds must be in \[1, 10000\], got 0$/);
  assert.throws(() => lab.drawSet({ seeds: 10001 }), /seeds must be in \[1, 10000\]/);
  assert.throws(() => lab.drawSet({ keys: 1 }), /^Error: options: keys must be in/);
  assert.throws(() => lab.drawSet({ seeds: 2, colour: 1 }), /colour/);
  assert.equal(lab.drawSet({ seeds: 3 }).rawTop.length, 3);
});
