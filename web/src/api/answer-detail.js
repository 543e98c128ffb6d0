// The exercise's answer as the element publishes it (the `sqrtdk-answer` event's detail and the `result`
// property).  It is the answer box's answer (the core's lab.compare for the runs as they are, in the element's
// language: web/src/analysis/answer-client.js), plus the reference, one comparison per other variant, the
// sentences joined, and the settings.  Plain data (numbers, strings, arrays, null): it survives postMessage and
// JSON.  Pure.

import { settingsCopy } from './settings.js';

/** One comparison against the reference (the first variant). */
function comparisonOf(v, reference) {
  return { variant: v.name, reference, outcome: v.outcome, ratio: v.ratio, stepsEarlier: v.stepsEarlier };
}

/**
 * The published comparison.
 * @param {object} answer  lab.compare's result in the element's language (AnswerClient's answer)
 * @param {object} state  the settings
 * @returns {object} see SqrtdkAnswerDetail in web/types/sqrtdk-lab.d.ts
 */
export function comparisonDetail(answer, state) {
  const reference = answer.variants[0]?.name ?? null;
  return {
    ...answer,
    reference,
    comparisons: answer.variants.slice(1).map((v) => comparisonOf(v, reference)),
    sentence: answer.sentences.join(' '),
    settings: settingsCopy(state),
  };
}
