// The exercise's answer as the element publishes it (the `sqrtdk-answer` event's detail and the `result`
// property).  This is the one place that knows how the answer is computed: today from the page's port of
// the analysis (exercise-answer.js, the same numbers as the answer box); when the core's structured
// comparison is available through the helper worker, only `comparisonDetail` changes.  The detail is plain
// data (numbers, strings, arrays, null): it survives postMessage and JSON.

import { exerciseAnswer } from '../analysis/exercise-answer.js';
import { CURVE_DEFINITIONS, compareVariants } from '../analysis/analysis.js';
import { variantLabel } from '../ui/palette.js';
import { settingsCopy } from './settings.js';

const STOPPED = new Set(['done', 'diverged', 'failed']);

const orNull = (x) => (Number.isFinite(x) ? x : null);
const stepsOrNull = (x) => (x > 0 && Number.isFinite(x) ? x : null);

/** How a comparison kind of analysis.js reads as an outcome. */
const OUTCOME = { later: 'clear', earlier: 'clear', unclear: 'within-spread', never: 'never', 'ref-never': 'reference-never', neither: 'neither' };

/**
 * The answer as the answer box computes it from the runs so far.
 * @param {{slots: object[]}} exercise  @param {object} state the settings
 */
export function currentAnswer(exercise, state) {
  const runs = exercise.slots.map((s) => ({
    variant: s.record.variant, seed: s.record.seed, loss: s.record.loss.view, stopped: STOPPED.has(s.status),
    divergedStep: s.record.divergedStep, sequenceAccuracy: s.record.sequenceAccuracy,
  }));
  return exerciseAnswer(runs, state.variants, state.threshold, state.steps);
}

/** One comparison against the reference (the first variant). */
function comparisonOf(c) {
  const finite = Number.isFinite(c.median) && Number.isFinite(c.referenceMedian);
  return {
    variant: c.name,
    reference: c.reference,
    outcome: OUTCOME[c.kind],
    ratio: finite ? c.ratio : null,
    stepsEarlier: finite ? c.median - c.referenceMedian : null,
  };
}

/**
 * The published comparison.
 * @param {{exercise: object, state: object}} input
 * @returns {Promise<object>} see SqrtdkAnswerDetail in web/types/sqrtdk-lab.d.ts
 */
export async function comparisonDetail({ exercise, state }) {
  const answer = currentAnswer(exercise, state);
  const comparisons = answer.ready ? compareVariants(answer.variants).comparisons.map(comparisonOf) : [];
  const first = comparisons[0] ?? null;
  return {
    ready: answer.ready,
    final: answer.final,
    threshold: answer.threshold,
    steps: answer.steps,
    definitions: { ...CURVE_DEFINITIONS },
    reference: answer.variants[0]?.name ?? null,
    variants: answer.variants.map((v) => ({
      name: v.name,
      label: variantLabel(v.name, state.trainAlpha),
      medianStepsToThreshold: stepsOrNull(v.medianStepsToThreshold),
      runsReaching: v.runsReaching,
      runsDiverged: v.runsDiverged,
      medianPlateauStep: answer.final ? orNull(v.medianPlateauStep) : null,
      medianPlateauLoss: answer.final ? orNull(v.medianPlateauLoss) : null,
      runs: v.runs.map((r, i) => ({
        seed: v.seeds[i],
        stepsToThreshold: stepsOrNull(r.stepsToThreshold),
        finalLoss: orNull(r.finalLoss),
        sequenceAccuracy: orNull(r.sequenceAccuracy),
        diverged: r.diverged,
        divergedStep: r.diverged ? r.divergedStep : null,
      })),
    })),
    comparisons,
    outcome: first?.outcome ?? null,
    ratio: first?.ratio ?? null,
    stepsEarlier: first?.stepsEarlier ?? null,
    sentences: [...answer.sentences],
    sentence: answer.sentences.join(' '),
    settings: settingsCopy(state),
  };
}
