// Short notes of the saturation explorer, written from the numbers it measured.  Pure: no DOM.

import { curveDefinitions } from '../core-tables.js';
import { formatSignificant, formatValue, whole } from '../ui/format.js';
import { STRINGS } from '../ui/strings.js';

// What "saturated" means everywhere the lab says it (src/core/lesson/saturation.hpp): a top weight of at least this.
const SATURATED = curveDefinitions.saturatedTopWeight;

const T = STRINGS.softmaxNotes;

// Share of a normal beyond 3 standard deviations.
const NORMAL_BEYOND_3SD = 0.0027;

/**
 * What the dashed normal claims and what was measured: q.k is a sum of d_k products of two normals, which is
 * itself far from normal when d_k is small (at d_k = 1, a single product: peaked at 0 with heavy tails).
 * @param {number} share measured share of samples beyond 3 standard deviations  @param {number} dk  @param {string} lang
 */
export function tailNote(share, dk, lang = 'en') {
  const measured = T.tail(formatValue(100 * share, lang), formatValue(100 * NORMAL_BEYOND_3SD, lang));
  if (share < 2 * NORMAL_BEYOND_3SD) return T.tailNormal(measured);
  return T.tailNotNormal(measured, whole(dk, lang), dk, lang);
}

/**
 * The sweep at the exercise's d_k: the median top weight (saturated: at least the core's bar, as the training
 * notes judge it) and |J|_F, raw and scaled, and from which d_k the raw softmax is saturated.
 * @param {{rows: {dk, raw: {maxWeight: {median}, jacobianNorm: {median}}, scaled: {...}}[], evenRowJacobianNorm: number}|null} sweep
 *   lab.sweep's result (null until it arrives)
 * @param {number} dk the exercise's d_k (a row of the sweep)  @param {{dModel, heads, keys}} state
 * @param {number} draws per d_k  @param {string} lang
 */
export function exerciseDkNote(sweep, dk, state, draws, lang = 'en') {
  const rows = sweep?.rows ?? [];
  const row = rows.find((r) => r.dk === dk);
  const w = (x) => whole(x, lang);
  const g = (x) => formatValue(x, lang);
  const beside = (x) => formatSignificant(x, lang);  // raw beside scaled: the same digits
  const model = T.model(w(state.dModel), w(state.heads), state.heads, lang);
  if (!row) return T.noSweep(w(dk), model);
  const bar = g(SATURATED);
  const from = rows.find((r) => r.raw.maxWeight.median >= SATURATED);
  const last = rows[rows.length - 1];
  const keys = state.keys;
  return T.exercise({ dk: w(dk), model, draws: w(draws), keys: w(keys),
    rawTop: beside(row.raw.maxWeight.median), scaledTop: beside(row.scaled.maxWeight.median),
    raw: beside(row.raw.jacobianNorm.median), scaled: beside(row.scaled.jacobianNorm.median),
    here: row.raw.maxWeight.median >= SATURATED ? T.saturated(bar) : T.notSaturated(bar),
    where: from ? T.saturatedFrom(w(from.dk), w(last.dk), beside(last.raw.jacobianNorm.median), beside(last.scaled.jacobianNorm.median))
      : T.neverSaturated(bar),
    even: T.evenRow(w(keys), g(sweep.evenRowJacobianNorm)), copyLength: w(state.copyLength) });
}

/**
 * Where the shown draw stands among the fixed set of draws, and what its raw softmax shows: saturated or not,
 * and when it is not, why it can pass more gradient than the scaled one.
 * @param {ReturnType<import('./draw-rank.js').drawStanding>} standing  @param {object} demo lab.softmaxDemo's result
 * @param {boolean} opens the draw is the one the explorer opens on (its default settings)  @param {string} lang
 * @returns {{standing: string, spread: string, reading: string, passesMore: string}}
 */
export function drawNotes(standing, demo, opens, lang = 'en') {
  const w = (x) => whole(x, lang);
  const g = (x) => formatValue(x, lang);
  const beside = (x) => formatSignificant(x, lang);  // raw beside scaled: the same digits
  const size = w(standing.size);
  const where = { seed: w(demo.seed), size, set: T.drawSet(size, w(standing.size - 1)), dk: w(demo.dk), keys: w(demo.keys),
    flatter: w(standing.flatter), rank: w(standing.rank) };
  let text;
  if (!standing.inSet) text = T.standingOutside(where);
  else if (standing.median.seed === demo.seed) text = T.standingMedian({ ...where, opens });
  else text = T.standingRank(where);
  const bar = g(SATURATED);
  const spread = T.setSpread({ size, median: g(standing.top.median), q1: g(standing.top.q1), q3: g(standing.top.q3),
    saturated: w(standing.saturated), percent: g((100 * standing.saturated) / standing.size), bar });
  const { raw, scaled } = demo;
  // A top weight that rounds to 1 is written by what the other keys keep ("all but 0.0003"): "takes 1 of the
  // weight" would say the row is one-hot, which a softmax never is.
  const rest = raw.max < 1 && g(raw.max) === g(1) ? g(1 - raw.max) : null;
  const sides = { top: g(raw.max), rest, bar, rawJ: beside(raw.jacobianNorm), scaledJ: beside(scaled.jacobianNorm) };
  let reading;
  if (raw.max >= SATURATED) {
    const less = scaled.jacobianNorm / Math.max(raw.jacobianNorm, Number.MIN_VALUE);
    reading = T.drawSaturated({ ...sides, less: less > 1 ? g(less) : null });
  } else if (raw.jacobianNorm > scaled.jacobianNorm) {
    reading = T.drawPassesMore({ ...sides, effective: g(raw.effectiveKeys), scaledEffective: g(scaled.effectiveKeys) });
  } else {
    reading = T.drawNotSaturated(sides);
  }
  const passesMore = T.passesMoreCount({ more: w(standing.rawPassesMore), size, saturated: w(standing.rawPassesMoreSaturated) });
  return { standing: text, spread, reading, passesMore };
}
