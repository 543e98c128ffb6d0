// Chart series from the runs' records: median and band over seeds per variant, for the loss, accuracy,
// entropy and per-layer metric charts.  Pure: no DOM.
//
// A variant's median over seeds is drawn only where every seed of it that is still going has data: while the
// runs train, each reaches a step at its own time, and a median over only the first arrivals jumps (a false
// spike at the leading edge).  A run that stopped early (diverged, failed) counts only up to where it stopped.
// Each variant goes as far as its own seeds do: the scheduler trains the runs whose outcome is open first, so
// one variant's curves may run ahead of another's.

import { displaySteps, seedBand, smoothForDisplay } from '../analysis/curves.js';

/**
 * @typedef {{record: import('./run-record.js').RunRecord, status: string}} RunView  (Exercise.slots)
 * @typedef {{median: (number|null)[], lo: (number|null)[], hi: (number|null)[]}} Band
 * @typedef {{xs: number[], columns: Object<string, Band>}} Series  columns by chart group id
 */

const STOPPED = new Set(['diverged', 'failed']);

/** The number of steps every run that is still going has reached (all runs stopped: the longest). */
export function commonSteps(views) {
  const going = views.filter((v) => !STOPPED.has(v.status));
  const lengths = (list) => list.map((v) => v.record.stepsDone);
  if (going.length === 0) return Math.max(0, ...lengths(views));
  return Math.min(...lengths(going));
}

/** Evaluation steps reached by every run still going (each run evaluates at the same steps). */
export function commonEvalSteps(views) {
  const limit = commonSteps(views);
  const steps = new Set(views.flatMap((v) => v.record.evals.map((e) => e.step)));
  return [...steps].filter((s) => s <= limit).sort((a, b) => a - b);
}

/** commonSteps of each variant's runs, in the order of `variants`. */
function variantSteps(views, variants) {
  return variants.map((v) => commonSteps(views.filter((view) => view.record.variant === v)));
}

/**
 * Smoothed loss per variant: the median and band where every seed still going has data, and each seed's own
 * curve (columns[variant].seeds, in the order of seedsOf) as far as that seed has gone, so that a seed that is
 * ahead, or stalled while the others finished, shows as itself.  @returns {Series}
 */
export function lossSeries(views, variants, smooth) {
  const limits = variantSteps(views, variants);
  const xs = displaySteps(Math.max(0, ...views.map((v) => v.record.stepsDone)));
  const columns = {};
  variants.forEach((v, i) => {
    const smoothed = recordsOf(views, v).map((r) => smoothForDisplay(r.loss.view, smooth));
    columns[v] = { ...seedBand(smoothed.map((c) => c.subarray(0, limits[i])), xs),
      seeds: smoothed.map((c) => xs.map((x) => (x <= c.length && Number.isFinite(c[x - 1]) ? c[x - 1] : null))) };
  });
  return { xs, columns };
}

/** The seeds of a variant's runs, in the order lossSeries gives their curves. */
export function seedsOf(views, variant) {
  return recordsOf(views, variant).map((r) => r.seed);
}

/**
 * One per-step curve of each run (`field` names a RunRecord curve: 'loss', 'qkGradNorm', 'logitSpread' ...),
 * smoothed, as median and band over seeds per variant, or the curve of one seed (`seed`, when the variant has a run
 * of it; -1: every seed).  @returns {Series}
 */
export function runSeries(views, variants, field, smooth, seed = -1) {
  const limits = variantSteps(views, variants);
  const xs = displaySteps(Math.max(0, ...limits));
  const columns = {};
  variants.forEach((v, i) => {
    columns[v] = seedBand(shownRecords(views, v, seed).map((r) => smoothForDisplay(r[field].view, smooth).subarray(0, limits[i])), xs);
  });
  return { xs, columns };
}

/** Sequence accuracy at the evaluation steps, per variant. @returns {Series} */
export function accuracySeries(views, variants) {
  const limits = variantSteps(views, variants);
  const xs = [...new Set(views.flatMap((v) => v.record.evals.map((e) => e.step)))]
    .filter((s) => s <= Math.max(0, ...limits)).sort((a, b) => a - b);
  const columns = {};
  variants.forEach((v, i) => {
    const curves = recordsOf(views, v).map((r) => {
      const byStep = new Map(r.evals.map((e) => [e.step, e.sequenceAccuracy]));
      return xs.map((step) => (step <= limits[i] && byStep.has(step) ? byStep.get(step) : NaN));
    });
    columns[v] = seedBand(curves, xs, (_, j) => j);
  });
  return { xs, columns };
}

/**
 * One curve per (variant, layer) of a per-layer metric (`field` names a RunRecord array of per-layer curves,
 * e.g. 'entropyByLayer'), smoothed; group ids `${variant}-l${layer}`.
 * @param {{band?: boolean, seed?: number}} options band: keep lo/hi (else the median only); seed: one seed's
 *   curves, as runSeries
 * @returns {Series}
 */
export function layerSeries(views, variants, layers, field, smooth, { band = false, seed = -1 } = {}) {
  const limits = variantSteps(views, variants);
  const xs = displaySteps(Math.max(0, ...limits));
  const columns = {};
  variants.forEach((v, i) => {
    const mine = shownRecords(views, v, seed).filter((r) => r.layers === layers && r[field]);
    for (let l = 0; l < layers; l += 1) {
      const b = seedBand(mine.map((r) => smoothForDisplay(r[field][l].view, smooth).subarray(0, limits[i])), xs);
      columns[layerId(v, l)] = band ? b : { median: b.median };
    }
  });
  return { xs, columns };
}

export const layerId = (variant, layer) => `${variant}-l${layer}`;

function recordsOf(views, variant) {
  return views.filter((v) => v.record.variant === variant).map((v) => v.record);
}

/** The variant's run of `seed` when it has one, else all its runs (the median is shown). */
function shownRecords(views, variant, seed) {
  const all = recordsOf(views, variant);
  const one = all.filter((r) => r.seed === seed);
  return one.length ? one : all;
}

/** The seeds of the runs, ascending (what the seed choice offers). */
export function runSeeds(views) {
  return [...new Set(views.map((v) => v.record.seed))].sort((a, b) => a - b);
}
