// Short notes next to the exercise's charts, written from numbers measured in this page (never canned).
// Pure: no DOM.

import { short } from '../ui/format.js';

const INIT_TEXT = { xavier: 'Xavier init', torch: 'PyTorch’s default init', gpt: 'GPT-style init' };

// A logit std from which the softmax over ~20 keys is close to one-hot (the explorer's sweep: near d_k 16).
const SATURATING_STD = 3;

/**
 * How each variant's attention starts: the predicted logit std at init (from the core) and, once a step ran,
 * the attention entropy at step 1 (median over seeds, mean over layers).
 * @param {{variants: string[], labelOf: (v) => string, init: string, predicted: number[]|null,
 *          entropyAtStart: (number|null)[]}} input  predicted and entropyAtStart in the order of variants
 * @returns {string} '' when there is nothing measured yet
 */
export function startNote({ variants, labelOf, init, predicted, entropyAtStart }) {
  if (!predicted || predicted.length !== variants.length) return '';
  const list = (values, unit = '') => variants.map((v, i) => `${labelOf(v)} ${short(values[i])}${unit}`).join(' · ');
  const stds = `predicted attention-logit std at init (${INIT_TEXT[init] ?? init}): ${list(predicted)}`;
  const max = Math.max(...predicted);
  const min = Math.min(...predicted);
  const sharp = variants.filter((_, i) => predicted[i] >= SATURATING_STD).map(labelOf);
  let meaning;
  if (sharp.length > 0 && max >= 2 * min) {
    meaning = `a std of ${short(max)} makes the softmax nearly one-hot before any learning, so ${sharp.join(' and ')} start${sharp.length > 1 ? '' : 's'} saturated`;
  } else if (max < 1) {
    meaning = 'logits this small leave every variant’s attention near uniform at the start, so the scaling has little to correct';
  } else {
    meaning = 'no variant starts saturated';
  }
  const measured = entropyAtStart.every((e) => Number.isFinite(e))
    ? `. Measured at step 1: attention entropy ${list(entropyAtStart, ' nats')} (the first point of the entropy chart; the heatmaps after one Step show it)`
    : '. Press Step once to see it in the entropy chart and the heatmaps';
  return `${capitalise(stds)}: ${meaning}${measured}.`;
}

/** Median over seeds of the layer-mean attention entropy at step 1, per variant (null before step 1). */
export function entropyAtStart(records, variants) {
  return variants.map((v) => {
    const values = records.filter((r) => r.variant === v && r.stepsDone > 0)
      .map((r) => r.entropyByLayer.reduce((sum, c) => sum + c.view[0], 0) / r.entropyByLayer.length)
      .sort((a, b) => a - b);
    if (values.length === 0) return null;
    const n = values.length;
    return n % 2 ? values[(n - 1) / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
  });
}

const capitalise = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * One line under a mechanism chart: per variant, how far its median curve moved from its peak (a metric that
 * dies) or from its start (one that grows), with the steps.  @param {import('../training/series.js').Series} series
 * @param {{what: string, labelOf: (v) => string, variants: string[], trend: 'fall'|'grow'}} o
 */
export function trendNote(series, { what, labelOf, variants, trend }) {
  const { xs, columns } = series;
  if (xs.length < 2) return '';
  const parts = [];
  for (const v of variants) {
    const m = columns[v]?.median ?? [];
    const points = xs.map((x, j) => [x, m[j]]).filter(([, y]) => Number.isFinite(y) && y > 0);
    if (points.length < 2) continue;
    const [lastStep, last] = points[points.length - 1];
    if (trend === 'fall') {
      const [peakStep, peak] = points.reduce((best, p) => (p[1] > best[1] ? p : best));
      const ratio = peak / last;
      parts.push(ratio >= 2
        ? `${labelOf(v)}: ${what} fell ${times(ratio)} from its peak (${short(peak)} at step ${peakStep}) to ${short(last)} by step ${lastStep}`
        : `${labelOf(v)}: ${what} stayed within 2× of its peak (${short(peak)} at step ${peakStep}; ${short(last)} at step ${lastStep})`);
    } else {
      const [firstStep, first] = points[0];
      const ratio = last / first;
      parts.push(`${labelOf(v)}: ${what} went from ${short(first)} at step ${firstStep} to ${short(last)} at step ${lastStep}`
        + (ratio >= 1.5 || ratio <= 1 / 1.5 ? ` (${ratio >= 1 ? `${times(ratio)} larger` : `${times(1 / ratio)} smaller`})` : ''));
    }
  }
  return parts.length ? `${parts.join('; ')}.` : '';
}

/** 1,400× or 3.2×. */
export function times(ratio) {
  return ratio >= 100 ? `${Math.round(ratio).toLocaleString('en')}×` : `${short(ratio)}×`;
}

/**
 * "Why does Adam still learn?": in each window of steps, the ratio of the median q/k gradient norms between
 * the reference variant and each other one, against the ratio of their update sizes.  Adam scales each step
 * by the running size of its own gradient, so a large gap in gradient becomes a small gap in step size; with
 * SGD the two gaps are the same.
 * @param {{fromStep: number, toStep: number, perVariant: Object<string, {grad: number[], update: number[]}>}[]} windows
 *   per variant: the median over seeds at each step of the window
 * @returns {{rows: {fromStep, toStep, variant, gradRatio, updateRatio}[], text: string}|null}
 */
export function adamNote(windows, { variants, labelOf, optimizer = 'adam' }) {
  const mean = (a) => a.reduce((s, x) => s + x, 0) / a.length;
  const ok = (a) => a && a.length > 0 && a.every((x) => Number.isFinite(x) && x > 0);
  const [ref, ...others] = variants;
  const rows = [];
  for (const { fromStep, toStep, perVariant } of windows) {
    if (!ok(perVariant[ref]?.grad) || !ok(perVariant[ref]?.update)) continue;
    for (const v of others) {
      if (!ok(perVariant[v]?.grad) || !ok(perVariant[v]?.update)) continue;
      rows.push({ fromStep, toStep, variant: v, gradRatio: mean(perVariant[v].grad) / mean(perVariant[ref].grad),
        updateRatio: mean(perVariant[v].update) / mean(perVariant[ref].update) });
    }
  }
  if (rows.length === 0) return null;
  const gap = (r) => (r >= 1 ? `${times(r)} larger` : `${times(1 / r)} smaller`);
  const sentences = rows.map((r) => `steps ${r.fromStep}–${r.toStep}: ${labelOf(r.variant)}'s q/k gradient is ${gap(r.gradRatio)} `
    + `than ${labelOf(ref)}'s, its update ${gap(r.updateRatio)}`);
  const size = (r) => Math.max(r, 1 / r);
  const widest = rows.reduce((a, b) => (size(b.gradRatio) > size(a.gradRatio) ? b : a));
  const why = optimizer === 'sgd'
    ? `SGD steps by the learning rate times the (momentum-averaged) gradient, so the step sizes differ as the gradients do (${times(size(widest.gradRatio))} vs ${times(size(widest.updateRatio))}).`
    : `Adam divides each step by the running size of its own gradient: a ${times(size(widest.gradRatio))} gap in gradient became a ${times(size(widest.updateRatio))} gap in step size, so a small gradient still moves the weights.`;
  return { rows, text: `Median over seeds; ${sentences.join('; ')}. ${why}` };
}
