// The exercise's answer as the element publishes it (the `sqrtdk-answer` event's detail and the `result`
// property).  It is the core's structured answer (lab.compare, computed in the helper worker from the runs
// as they are: the same request and result as the answer box, web/src/analysis/answer-client.js), plus the
// reference, one comparison per other variant, the sentences joined, and the settings.  Its texts are in the
// element's language (analysis/localize-answer.js).  Plain data (numbers, strings, arrays, null): it survives
// postMessage and JSON.

import { compareRequest } from '../analysis/answer-client.js';
import { localizeAnswer } from '../analysis/localize-answer.js';
import { settingsCopy } from './settings.js';

/** One comparison against the reference (the first variant). */
function comparisonOf(v, reference) {
  return { variant: v.name, reference, outcome: v.outcome, ratio: v.ratio, stepsEarlier: v.stepsEarlier };
}

/**
 * The published comparison, or null when a newer request replaced this one.
 * @param {{exercise: object, state: object, helper: import('../worker/helper-worker.js').HelperWorker, lang?: string}} input
 * @returns {Promise<object|null>} see SqrtdkAnswerDetail in web/types/sqrtdk-lab.d.ts
 */
export async function comparisonDetail({ exercise, state, helper, lang = 'en' }) {
  const request = compareRequest(exercise.slots, state);
  if (request.variants.length === 0) return null;
  const reply = await helper.latest('answer-event', { type: 'compare', request });
  if (!reply) return null;
  const answer = localizeAnswer(reply.result, lang);
  const reference = answer.variants[0]?.name ?? null;
  return {
    ...answer,
    reference,
    comparisons: answer.variants.slice(1).map((v) => comparisonOf(v, reference)),
    sentence: answer.sentences.join(' '),
    settings: settingsCopy(state),
  };
}
