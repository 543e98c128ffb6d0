// Where the explorer's one draw stands among many: the fixed set of draws is the demo's draw for each seed of the
// core's set (lab.drawSet: seeds 0 .. 199 unless told, at the same d_k, number of keys and α), ranked by the raw
// softmax's top weight, from the flattest to the sharpest.  The set's median draw is the one the explorer suggests,
// so that the first draw a learner sees is a typical one, not an accident of one seed.  Pure: no DOM.

import { curveDefinitions } from '../core-tables.js';

// What "saturated" means everywhere the lab says it (src/core/lesson/saturation.hpp): a top weight of at least this.
const SATURATED = curveDefinitions.saturatedTopWeight;

/**
 * The set's draws ordered from the flattest raw softmax to the sharpest (by top weight; equal weights by seed).
 * @param {{rawTop: ArrayLike<number>}} set lab.drawSet's result, indexed by seed  @returns {number[]} seeds
 */
export function rankedSeeds(set) {
  return Array.from(set.rawTop, (_, seed) => seed).sort((a, b) => set.rawTop[a] - set.rawTop[b] || a - b);
}

/**
 * The set's median draw: the lower of the two middle draws of the ranking (rank 100 of 200).
 * @param {{rawTop: ArrayLike<number>}} set  @returns {{seed: number, rank: number}}
 */
export function medianDraw(set) {
  const ranked = rankedSeeds(set);
  const index = Math.floor((ranked.length - 1) / 2);
  return { seed: ranked[index], rank: index + 1 };
}

/**
 * Where a draw stands in the set.  A draw of the set has its place in the ranking; a draw outside it (a seed
 * past the set) is placed after every set draw whose raw top weight is smaller.
 * @param {{rawTop: ArrayLike<number>, rawJacobian: ArrayLike<number>, scaledJacobian: ArrayLike<number>,
 *   rawTopQuartiles: {q1, median, q3}}} set lab.drawSet's result
 * @param {{seed: number, rawTop: number}} draw the shown draw
 * @returns {{size, rank, inSet, flatter, median: {seed, rank}, top: {q1, median, q3}, saturated,
 *   rawPassesMore, rawPassesMoreSaturated}} flatter: set draws with a smaller raw top weight; saturated: set
 *   draws whose raw top weight is at least the core's bar; rawPassesMore: set draws whose raw |J|_F is larger
 *   than the scaled one, rawPassesMoreSaturated: how many of those are saturated
 */
export function drawStanding(set, draw) {
  const size = set.rawTop.length;
  const inSet = Number.isInteger(draw.seed) && draw.seed >= 0 && draw.seed < size;
  const rank = inSet ? rankedSeeds(set).indexOf(draw.seed) + 1 : null;
  let flatter = 0;
  let saturated = 0;
  let rawPassesMore = 0;
  let rawPassesMoreSaturated = 0;
  for (let seed = 0; seed < size; seed += 1) {
    const isSaturated = set.rawTop[seed] >= SATURATED;
    if (set.rawTop[seed] < draw.rawTop) flatter += 1;
    if (isSaturated) saturated += 1;
    if (set.rawJacobian[seed] > set.scaledJacobian[seed]) {
      rawPassesMore += 1;
      if (isSaturated) rawPassesMoreSaturated += 1;
    }
  }
  return { size, rank, inSet, flatter, median: medianDraw(set), top: set.rawTopQuartiles, saturated,
    rawPassesMore, rawPassesMoreSaturated };
}
