// lab.compare's answer in the learner's language: every text of it (sentences, display names, table cells,
// definitions) rendered from its message (render-message.js) with the phrasebook of web/src/ui/strings.js.
// The result has the shape of lab.compare's result without `messages`, so whatever shows or publishes the
// answer (the answer box, the Runs list, the sqrtdk-answer event, the JSON export) needs no other change.

import { STRINGS } from '../ui/strings.js';
import { PHRASEBOOK } from '../core-tables.js';
import { renderArg, renderMessage } from './render-message.js';

const mapValues = (object, f) => Object.fromEntries(Object.entries(object).map(([k, v]) => [k, f(v)]));

/**
 * @param {object} answer lab.compare's result; without `messages` (not asked for) it is returned as it is
 * @param {string} lang e.g. 'en', 'de'  @param {Record<string, string>} phrases key -> template
 * @returns {object} the same answer, its texts in `lang`
 */
export function localizeAnswer(answer, lang = 'en', phrases = STRINGS.answer) {
  if (!answer?.messages) return answer;
  const { messages, ...rest } = answer;
  const text = (arg) => renderArg(arg, phrases, lang);
  return {
    ...rest,
    definitions: { ...rest.definitions, text: mapValues(messages.definitions, text) },
    variants: rest.variants.map((v, i) => {
      const m = messages.variants[i];
      return { ...v, label: text(m.label), cells: mapValues(m.cells, text),
        runs: v.runs.map((run, j) => ({ ...run, cells: mapValues(m.runs[j], text) })) };
    }),
    sentences: messages.sentences.map(text),
    runsHeadline: messages.runsHeadline ? text(messages.runsHeadline) : '',
    ...(rest.mechanism ? { mechanism: localizeMechanism(rest.mechanism, text) } : {}),
  };
}

/** The mechanism readings (src/core/answer/mechanism_reading.hpp) with their texts rendered from their messages. */
function localizeMechanism({ messages, ...mechanism }, text) {
  if (!messages) return mechanism;
  const list = (name) => messages[name].map(text);
  return { ...mechanism, qk: list('qk'), jacobian: list('jacobian'), spread: list('spread'), why: list('why'),
    whyTitle: messages.whyTitle ? text(messages.whyTitle) : null };
}

/**
 * A variant's display name as the core's answer writes it (its template variant.<name>), for where no answer
 * is there yet (legends, run names): 'scaled 1/√d_k', '1/d_k^α, α=0.25' (de: α=0,25).  Unknown: the name itself.
 * @param {string} variant scaled | unscaled | alpha | qknorm  @param {number} alpha  @param {string} lang
 */
export function variantLabel(variant, alpha, lang = 'en', phrases = STRINGS.answer) {
  const key = `variant.${variant}`;
  if (!Object.hasOwn(phrases, key) && !Object.hasOwn(PHRASEBOOK, key)) return String(variant);
  return renderMessage({ key, args: { alpha: { value: alpha } } }, phrases, lang);
}
