// The answer box's content, from the runs as they are now.  Pure: no DOM.
//
// Uses only the definitions of analysis.js (which mirrors src/core/analysis.hpp).  While runs are still
// training, a run's steps to threshold is known once its smoothed loss has crossed the threshold; the
// answer is "ready" when every run has either crossed it or stopped (finished its steps, diverged or
// failed), because only then can a median, including "did not reach it in N steps", be stated.  The plateau
// depends on the whole curve, so it is "final" only when every run has stopped.

import { answerSentences, compareVariants, summarizeRun, summarizeVariant } from './analysis.js';

/**
 * @typedef {Object} RunView
 * @property {string} variant  @property {number} seed
 * @property {ArrayLike<number>} loss  per-step losses so far
 * @property {boolean} stopped  finished its steps, diverged or failed
 * @property {number} divergedStep  0 if not diverged
 * @property {number} sequenceAccuracy  last evaluation (NaN if none)
 */

/**
 * @param {RunView[]} runs  @param {string[]} variantOrder  @param {number} threshold  @param {number} steps budget
 * @returns {{ready: boolean, final: boolean, variants: object[], sentences: string[], steps: number, threshold: number}}
 */
export function exerciseAnswer(runs, variantOrder, threshold, steps) {
  const variants = variantOrder
    .map((name) => {
      const mine = runs.filter((r) => r.variant === name);
      const summaries = mine.map((r) => summarizeRun(r.loss, threshold, r.sequenceAccuracy, r.divergedStep));
      const summary = summarizeVariant(name, summaries);
      const pending = mine.filter((r, i) => !r.stopped && summaries[i].stepsToThreshold < 0).length;
      return { ...summary, seeds: mine.map((r) => r.seed), pending, stopped: mine.filter((r) => r.stopped).length };
    })
    .filter((v) => v.runs.length > 0);
  const ready = variants.length > 0 && variants.every((v) => v.pending === 0);
  const final = ready && variants.every((v) => v.stopped === v.runs.length);
  const sentences = ready && variants.length > 1 ? answerSentences(compareVariants(variants), threshold, steps) : [];
  return { ready, final, variants, sentences, steps, threshold };
}
