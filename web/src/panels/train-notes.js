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
