// Short notes of the saturation explorer, written from the numbers it measured.  Pure: no DOM.

import { formatG, short } from '../ui/format.js';

// Share of a normal beyond 3 standard deviations.
const NORMAL_BEYOND_3SD = 0.0027;

/**
 * What the dashed normal claims and what was measured: q.k is a sum of d_k products of two normals, which is
 * itself far from normal when d_k is small (at d_k = 1, a single product: peaked at 0 with heavy tails).
 * @param {number} share measured share of samples beyond 3 standard deviations  @param {number} dk
 */
export function tailNote(share, dk) {
  const measured = `${short(100 * share)} % of samples lie beyond 3σ (a normal: ${short(100 * NORMAL_BEYOND_3SD)} %)`;
  if (share < 2 * NORMAL_BEYOND_3SD) return `${measured}: close to normal`;
  return `${measured}: at d_k = ${dk}, q·k is a sum of only ${dk} product${dk > 1 ? 's' : ''} of two normals, `
    + 'which is not normal (peaked, heavy-tailed); the dashed curve only matches its variance, and the sum approaches it as d_k grows';
}

/**
 * The sweep's median |J|_F at the exercise's d_k, and from which d_k saturation kills the gradient (raw below
 * half of scaled).  @param {{dk, raw: {jacobianNorm: {median}}, scaled: {jacobianNorm: {median}}}[]} rows the sweep
 * @param {number} dk the exercise's d_k (a row of the sweep)  @param {{dModel, heads}} state  @param {number} draws per d_k
 */
export function exerciseDkNote(rows, dk, state, draws) {
  const row = rows.find((r) => r.dk === dk);
  const model = `d_model ${state.dModel} / ${state.heads} head${state.heads > 1 ? 's' : ''}`;
  if (!row) return `The exercise trains with d_k = ${dk} (${model}).`;
  const raw = row.raw.jacobianNorm.median;
  const scaled = row.scaled.jacobianNorm.median;
  const kills = rows.find((r) => r.raw.jacobianNorm.median < 0.5 * r.scaled.jacobianNorm.median);
  const last = rows[rows.length - 1];
  const here = raw >= 0.5 * scaled
    ? `random q and keys do not saturate the raw softmax yet${raw > scaled ? ', and it even passes more gradient' : ''}`
    : `the raw softmax is already saturated (${short(scaled / raw)}× less gradient than scaled)`;
  const where = kills
    ? `Saturation kills the gradient from d_k ≈ ${kills.dk} on (raw below half of scaled; at ${last.dk}: ${formatG(last.raw.jacobianNorm.median, 2)} vs ${formatG(last.scaled.jacobianNorm.median, 2)}), `
      + 'and inside the model once the attention logits grow during training.'
    : 'In this sweep the raw softmax never falls below half the scaled gradient.';
  return `At the exercise’s d_k = ${dk} (${model}), the median |J|_F over ${draws} draws is ${formatG(raw, 3)} raw vs ${formatG(scaled, 3)} scaled: ${here}. ${where}`;
}
