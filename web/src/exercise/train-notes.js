// The note on how each variant's attention starts: the core's predicted logit std at init and the entropy
// measured at step 1.  Whether attention is saturated, and what the mechanism charts show, the core says (the
// answer's `mechanism` readings, src/core/answer/mechanism_reading.hpp).  Pure: no DOM.

import { formatValue } from '../ui/format.js';
import { STRINGS } from '../ui/strings.js';
import { medianOfSorted } from '../analysis/curves.js';

const T = STRINGS.trainNotes;

/**
 * How each variant's attention starts: the predicted logit std at init (from the core) and, once a step ran,
 * the attention entropy at step 1 (median over seeds, mean over layers).
 * @param {{variants: string[], labelOf: (v) => string, init: string, predicted: number[]|null,
 *          entropyAtStart: (number|null)[], lang?: string}} input  predicted and entropyAtStart in the order of variants
 * @returns {string} '' when there is nothing measured yet
 */
export function startNote({ variants, labelOf, init, predicted, entropyAtStart, lang = 'en' }) {
  if (!predicted || predicted.length !== variants.length) return '';
  const list = (values, unit = (x) => x) => variants.map((v, i) => T.listItem(labelOf(v), unit(formatValue(values[i], lang)))).join(' · ');
  const stds = T.predicted(T.init[init] ?? init, list(predicted));
  const measured = entropyAtStart.every((e) => Number.isFinite(e)) ? T.measuredAtStep1(list(entropyAtStart, T.nats)) : T.pressStep;
  return T.start(stds, measured);
}

/** Median over seeds of the layer-mean attention entropy at step 1, per variant (null before step 1). */
export function entropyAtStart(records, variants) {
  return variants.map((v) => {
    const values = records.filter((r) => r.variant === v && r.stepsDone > 0)
      .map((r) => r.entropyByLayer.reduce((sum, c) => sum + c.view[0], 0) / r.entropyByLayer.length)
      .sort((a, b) => a - b);
    return values.length === 0 ? null : medianOfSorted(values);
  });
}
