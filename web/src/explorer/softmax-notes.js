// Short notes of the saturation explorer, written from the numbers it measured.  Pure: no DOM.

import { curveDefinitions } from '../core-tables.js';
import { formatValue, whole } from '../ui/format.js';
import { STRINGS } from '../ui/strings.js';

// What "saturated" means everywhere the lab says it (src/core/saturation.hpp): a top weight of at least this.
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
 * @param {{dk, raw: {maxWeight: {median}, jacobianNorm: {median}}, scaled: {...}}[]} rows the sweep
 * @param {number} dk the exercise's d_k (a row of the sweep)  @param {{dModel, heads, keys}} state
 * @param {number} draws per d_k  @param {string} lang
 */
export function exerciseDkNote(rows, dk, state, draws, lang = 'en') {
  const row = rows.find((r) => r.dk === dk);
  const w = (x) => whole(x, lang);
  const g = (x) => formatValue(x, lang);
  const model = T.model(w(state.dModel), w(state.heads), state.heads, lang);
  if (!row) return T.noSweep(w(dk), model);
  const bar = g(SATURATED);
  const from = rows.find((r) => r.raw.maxWeight.median >= SATURATED);
  const last = rows[rows.length - 1];
  const keys = state.keys;
  return T.exercise({ dk: w(dk), model, draws: w(draws), keys: w(keys),
    rawTop: g(row.raw.maxWeight.median), scaledTop: g(row.scaled.maxWeight.median),
    raw: g(row.raw.jacobianNorm.median), scaled: g(row.scaled.jacobianNorm.median),
    here: row.raw.maxWeight.median >= SATURATED ? T.saturated(bar) : T.notSaturated(bar),
    where: from ? T.saturatedFrom(w(from.dk), w(last.dk), g(last.raw.jacobianNorm.median), g(last.scaled.jacobianNorm.median))
      : T.neverSaturated(bar),
    even: T.evenRow(w(keys), g(Math.sqrt(keys - 1) / keys)) });
}
