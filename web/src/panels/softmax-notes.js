// Short notes of the saturation explorer, written from the numbers it measured.  Pure: no DOM.

import { formatValue, whole } from '../ui/format.js';
import { STRINGS } from '../ui/strings.js';

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
 * The sweep's median |J|_F at the exercise's d_k, and from which d_k saturation kills the gradient (raw below
 * half of scaled).  @param {{dk, raw: {jacobianNorm: {median}}, scaled: {jacobianNorm: {median}}}[]} rows the sweep
 * @param {number} dk the exercise's d_k (a row of the sweep)  @param {{dModel, heads}} state  @param {number} draws per d_k
 * @param {string} lang
 */
export function exerciseDkNote(rows, dk, state, draws, lang = 'en') {
  const row = rows.find((r) => r.dk === dk);
  const w = (x) => whole(x, lang);
  const model = T.model(w(state.dModel), w(state.heads), state.heads, lang);
  if (!row) return T.noSweep(w(dk), model);
  const raw = row.raw.jacobianNorm.median;
  const scaled = row.scaled.jacobianNorm.median;
  const kills = rows.find((r) => r.raw.jacobianNorm.median < 0.5 * r.scaled.jacobianNorm.median);
  const last = rows[rows.length - 1];
  const g = (x) => formatValue(x, lang);
  const here = raw >= 0.5 * scaled ? T.notSaturated(raw > scaled) : T.saturated(formatValue(scaled / raw, lang));
  const where = kills
    ? T.kills(w(kills.dk), w(last.dk), g(last.raw.jacobianNorm.median), g(last.scaled.jacobianNorm.median))
    : T.neverKills;
  return T.exercise({ dk: w(dk), model, draws: w(draws), raw: g(raw), scaled: g(scaled), here, where });
}
