// The explorer opens on a typical draw: its default seed is the median draw of the page's fixed set of draws at the
// default d_k, keys and alpha, by the page's own ranking (web/src/explorer/draw-rank.js) over the core's draws.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';

import { DRAW_SET_SEEDS, drawStanding, medianDraw } from '../../web/src/explorer/draw-rank.js';
import { freshLab } from './helpers.mjs';

let lab;
let defaults;
before(async () => {
  lab = await freshLab();
  defaults = Object.fromEntries(lab.explorerSchema().map((row) => [row.name, row.default]));
});

test('the default seed is the median draw of the fixed set at the default settings', () => {
  const set = lab.drawSet({ dk: defaults.dk, keys: defaults.keys, alpha: defaults.alpha, seeds: DRAW_SET_SEEDS });
  const median = medianDraw(set);
  assert.equal(defaults.seed, median.seed, `the median draw is seed ${median.seed} (rank ${median.rank})`);
  // Its raw top weight is the set's median top weight up to the two middle draws' gap, and it is saturated, as the
  // lesson's typical draw is.
  const standing = drawStanding(set, { seed: defaults.seed, rawTop: set.rawTop[defaults.seed] });
  assert.equal(standing.rank, DRAW_SET_SEEDS / 2);
  assert.ok(set.rawTop[defaults.seed] <= standing.top.median);
  assert.ok(set.rawTop[defaults.seed] >= 0.9, `top weight ${set.rawTop[defaults.seed]}`);
});

test('a demo without a seed is the default seed\'s draw', () => {
  const implicit = lab.softmaxDemo({});
  const explicit = lab.softmaxDemo({ seed: defaults.seed });
  assert.equal(implicit.seed, defaults.seed);
  assert.deepEqual(implicit.raw.top, explicit.raw.top);
});
