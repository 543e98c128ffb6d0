// Reading loss curves: the definitions behind the exercise's answer.
// This module mirrors src/core/analysis.hpp / analysis.cpp (the native CLI's `compare`) so that the page and
// the CLI answer the same question the same way; change both together.
//
// Smoothed loss        s_t = mean of the losses at steps max(1, t-w+1) .. t   (trailing window, w = 20)
// Steps to threshold   the first step t with s_t < threshold; "never" (-1) if there is none.
// Plateau step         the first step t after which the smoothed loss never again falls more than
//                      max(relTol * s_t, absTol) below s_t (defaults 5 % and 0.01); its level is s_t.
// A variant's steps to threshold over seeds is summarised by the median, counting "never" as +infinity.
// Two variants differ clearly when their medians differ by a factor of at least 1.25 and their seed ranges
// do not overlap; otherwise the answer says there was no clear difference.
// Pure: no DOM.

export const CURVE_DEFINITIONS = Object.freeze({ window: 20, plateauRelTol: 0.05, plateauAbsTol: 0.01, clearRatio: 1.25 });

/** Trailing mean over `window` steps (fewer at the start). @returns {Float64Array} */
export function smoothedLoss(loss, window = CURVE_DEFINITIONS.window) {
  const out = new Float64Array(loss.length);
  let sum = 0;
  for (let t = 0; t < loss.length; t += 1) {
    sum += loss[t];
    if (t >= window) sum -= loss[t - window];
    out[t] = sum / Math.min(t + 1, window);
  }
  return out;
}

/** 1-based step where the smoothed loss first goes below `threshold`, or -1. */
export function stepsToThreshold(loss, threshold, defs = CURVE_DEFINITIONS) {
  const s = smoothedLoss(loss, defs.window);
  for (let t = 0; t < s.length; t += 1) if (s[t] < threshold) return t + 1;
  return -1;
}

/** 1-based plateau step, or -1 for an empty curve. */
export function plateauStep(loss, defs = CURVE_DEFINITIONS) {
  return plateauOfSmoothed(smoothedLoss(loss, defs.window), defs);
}

function plateauOfSmoothed(s, defs) {
  if (s.length === 0) return -1;
  let laterMin = Infinity;
  let plateau = s.length;
  for (let t = s.length - 1; t >= 0; t -= 1) {
    const margin = Math.max(defs.plateauRelTol * s[t], defs.plateauAbsTol);
    if (laterMin >= s[t] - margin) plateau = t + 1;
    else break;
    laterMin = Math.min(laterMin, s[t]);
  }
  return plateau;
}

/** The finite prefix of a curve (a diverged run ends with a non-finite loss). */
function finitePrefix(loss) {
  let end = loss.length;
  while (end > 0 && !Number.isFinite(loss[end - 1])) end -= 1;
  return loss.subarray ? loss.subarray(0, end) : loss.slice(0, end);
}

/**
 * One run as the comparison sees it (mirrors summarize_run).
 * @returns {{steps, stepsToThreshold, plateauStep, plateauLoss, finalLoss, sequenceAccuracy, diverged, divergedStep}}
 */
export function summarizeRun(loss, threshold, sequenceAccuracy, divergedStep, defs = CURVE_DEFINITIONS) {
  const finite = finitePrefix(loss);
  const s = smoothedLoss(finite, defs.window);
  let reached = -1;
  for (let t = 0; t < s.length; t += 1) {
    if (s[t] < threshold) {
      reached = t + 1;
      break;
    }
  }
  const plateau = plateauOfSmoothed(s, defs);
  return {
    steps: loss.length,
    stepsToThreshold: reached,
    plateauStep: plateau,
    plateauLoss: plateau > 0 ? s[plateau - 1] : 0,
    finalLoss: s.length ? s[s.length - 1] : NaN,
    sequenceAccuracy,
    diverged: divergedStep > 0,
    divergedStep,
  };
}

/** Median of numbers (mean of the middle two for an even count); NaN for none. */
export function median(values) {
  if (values.length === 0) return NaN;
  const v = [...values].sort((a, b) => a - b);
  const n = v.length;
  return n % 2 ? v[(n - 1) / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

const thresholdSteps = (runs) => runs.map((r) => (r.stepsToThreshold > 0 ? r.stepsToThreshold : Infinity));

/**
 * A variant over its seeds (mirrors VariantSummary).
 * @param {string} name  @param {ReturnType<summarizeRun>[]} runs
 */
export function summarizeVariant(name, runs) {
  const steps = thresholdSteps(runs);
  const m = median(steps);
  const levels = runs.map((r) => r.plateauLoss);
  return {
    name,
    runs,
    medianStepsToThreshold: Number.isFinite(m) ? m : -1,
    medianPlateauStep: median(runs.map((r) => r.plateauStep)),
    medianPlateauLoss: median(levels),
    runsReaching: runs.filter((r) => r.stepsToThreshold > 0).length,
    runsDiverged: runs.filter((r) => r.diverged).length,
  };
}

/**
 * Every variant against the first (mirrors compare_answer), as data.
 * kind: 'neither'    neither median reached the threshold
 *       'never'      this variant's median did not reach it (runsNotReaching of n seeds did not)
 *       'ref-never'  the reference's median did not reach it, this variant's did
 *       'later' | 'earlier'  a clear difference (ratio >= clearRatio and seed ranges apart)
 *       'unclear'    no clear difference
 * @returns {{reference: string, comparisons: object[]}}
 */
export function compareVariants(variants, defs = CURVE_DEFINITIONS) {
  if (variants.length === 0) return { reference: '', comparisons: [] };
  const ref = variants[0];
  const refSteps = thresholdSteps(ref.runs);
  const refMedian = median(refSteps);
  const comparisons = variants.slice(1).map((v) => {
    const vSteps = thresholdSteps(v.runs);
    const vMedian = median(vSteps);
    const n = v.runs.length;
    const base = { name: v.name, reference: ref.name, median: vMedian, referenceMedian: refMedian, n,
      runsNotReaching: n - v.runsReaching, referenceN: ref.runs.length,
      referenceNotReaching: ref.runs.length - ref.runsReaching };
    if (!Number.isFinite(vMedian) && !Number.isFinite(refMedian)) return { ...base, kind: 'neither' };
    if (!Number.isFinite(vMedian)) return { ...base, kind: 'never' };
    if (!Number.isFinite(refMedian)) return { ...base, kind: 'ref-never' };
    const ratio = vMedian / refMedian;
    const separated = Math.min(...vSteps) > Math.max(...refSteps) || Math.max(...vSteps) < Math.min(...refSteps);
    const clear = separated && (ratio >= defs.clearRatio || ratio <= 1 / defs.clearRatio);
    let kind = 'unclear';
    if (clear) kind = ratio > 1 ? 'later' : 'earlier';
    return { ...base, kind, ratio, separated };
  });
  return { reference: ref.name, comparisons };
}

const g3 = (x) => String(Number(x.toPrecision(3)));

/** The comparison as sentences, worded like compare_answer (numbers to 3 significant digits). */
export function answerSentences(comparison, threshold, steps) {
  const t = g3(threshold);
  return comparison.comparisons.map((c) => {
    switch (c.kind) {
      case 'neither':
        return `Neither ${c.name} nor ${c.reference} reached smoothed loss ${t} within ${steps} steps in most seeds, so this run cannot say which is faster.`;
      case 'never':
        return `${c.name} did not reach smoothed loss ${t} within ${steps} steps in ${c.runsNotReaching} of ${c.n} seeds, while ${c.reference} reached it at a median of ${g3(c.referenceMedian)} steps.`;
      case 'ref-never':
        return `${c.reference} did not reach smoothed loss ${t} within ${steps} steps in most seeds, while ${c.name} reached it at a median of ${g3(c.median)} steps.`;
      default: {
        const head = `${c.name} reached smoothed loss ${t} at a median of ${g3(c.median)} steps vs ${g3(c.referenceMedian)} for ${c.reference} (${c.n} seeds): `;
        if (c.kind === 'unclear') return `${head}no clear difference (ratio ${g3(c.ratio)}, seed ranges ${c.separated ? 'apart' : 'overlap'}).`;
        return c.kind === 'later' ? `${head}${g3(c.ratio)}x later.` : `${head}${g3(1 / c.ratio)}x earlier.`;
      }
    }
  });
}
