// Short notes next to the exercise's charts, written from numbers measured in this page (never canned).
// Pure: no DOM.

import { count, short, stepsText } from '../ui/format.js';
import { STRINGS } from '../ui/strings.js';

const T = STRINGS.trainNotes;

// A logit std from which the softmax over ~20 keys is close to one-hot (the explorer's sweep: near d_k 16).
const SATURATING_STD = 3;

/**
 * How each variant's attention starts: the predicted logit std at init (from the core) and, once a step ran,
 * the attention entropy at step 1 (median over seeds, mean over layers).
 * @param {{variants: string[], labelOf: (v) => string, init: string, predicted: number[]|null,
 *          entropyAtStart: (number|null)[], lang?: string}} input  predicted and entropyAtStart in the order of variants
 * @returns {string} '' when there is nothing measured yet
 */
export function startNote({ variants, labelOf, init, predicted, entropyAtStart, lang = 'en' }) {
  if (!predicted || predicted.length !== variants.length) return '';
  const list = (values, unit = (x) => x) => variants.map((v, i) => T.listItem(labelOf(v), unit(short(values[i], lang)))).join(' · ');
  const stds = T.predicted(T.init[init] ?? init, list(predicted));
  const max = Math.max(...predicted);
  const min = Math.min(...predicted);
  const sharp = variants.filter((_, i) => predicted[i] >= SATURATING_STD).map(labelOf);
  let meaning;
  if (sharp.length > 0 && max >= 2 * min) meaning = T.startSaturated(short(max, lang), sharp, lang);
  else if (max < 1) meaning = T.startUniform;
  else meaning = T.startFine;
  const measured = entropyAtStart.every((e) => Number.isFinite(e)) ? T.measuredAtStep1(list(entropyAtStart, T.nats)) : T.pressStep;
  return T.start(stds, meaning, measured);
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

/**
 * One line under a mechanism chart: per variant, how far its median curve moved from its peak (a metric that
 * dies) or from its start (one that grows), with the steps.  @param {import('../training/series.js').Series} series
 * @param {{what: string, labelOf: (v) => string, variants: string[], trend: 'fall'|'grow', lang?: string}} o
 */
export function trendNote(series, { what, labelOf, variants, trend, lang = 'en' }) {
  const n = (x) => short(x, lang);
  const step = (x) => stepsText(x, lang);
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
      const o = { label: labelOf(v), what, peak: n(peak), peakStep: step(peakStep), last: n(last), lastStep: step(lastStep) };
      parts.push(ratio >= 2 ? T.fell({ ...o, ratio: times(ratio, lang) }) : T.stayed(o));
    } else {
      const [firstStep, first] = points[0];
      const ratio = last / first;
      const change = ratio >= 1 ? T.larger(times(ratio, lang)) : T.smaller(times(1 / ratio, lang));
      parts.push(T.went({ label: labelOf(v), what, first: n(first), firstStep: step(firstStep), last: n(last), lastStep: step(lastStep) })
        + (ratio >= 1.5 || ratio <= 1 / 1.5 ? T.inBrackets(change) : ''));
    }
  }
  return parts.length ? T.sentences(parts) : '';
}

/** 1,400× or 3.2×. */
export function times(ratio, lang = 'en') {
  return T.times(ratio >= 100 ? count(Math.round(ratio), lang) : short(ratio, lang));
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
export function adamNote(windows, { variants, labelOf, optimizer = 'adam', lang = 'en' }) {
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
  const x = (r) => times(r, lang);
  const gap = (r) => (r >= 1 ? T.larger(x(r)) : T.smaller(x(1 / r)));
  const sentences = rows.map((r) => T.adamWindow({ from: stepsText(r.fromStep, lang), to: stepsText(r.toStep, lang), label: labelOf(r.variant),
    reference: labelOf(ref), grad: gap(r.gradRatio), update: gap(r.updateRatio) }));
  const size = (r) => Math.max(r, 1 / r);
  const widest = rows.reduce((a, b) => (size(b.gradRatio) > size(a.gradRatio) ? b : a));
  const why = (optimizer === 'sgd' ? T.whySgd : T.whyAdam)(x(size(widest.gradRatio)), x(size(widest.updateRatio)));
  return { rows, text: T.adam(sentences, why) };
}
