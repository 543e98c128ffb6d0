// Every text the element itself (not its panels yet) shows or throws, in one place, so that a translation
// is one file; and numbers formatted for the element's language.  Pure: no DOM beyond reading `lang`.
//
// The panels' texts still live in the panels; they move here one panel at a time.

import { PHRASEBOOK } from '../core-tables.js';

/** The language the element speaks: its own or nearest ancestor's lang attribute, else the document's, else 'en'. */
export function langOf(element) {
  const tagged = element?.closest?.('[lang]');
  const lang = tagged?.getAttribute('lang') || globalThis.document?.documentElement?.lang || 'en';
  try {
    return Intl.getCanonicalLocales(lang)[0] ?? 'en';
  } catch {
    return 'en';
  }
}

/**
 * A number as a reader of `lang` writes it: 1234.5 -> "1,234.5" (en), "1.234,5" (de).
 * @param {number} x  @param {string} lang  @param {Intl.NumberFormatOptions} options (default: up to 3 significant digits)
 */
export function formatNumber(x, lang = 'en', options = { maximumSignificantDigits: 3 }) {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? '–' : (x > 0 ? '∞' : '−∞');
  return new Intl.NumberFormat(lang, options).format(x);
}

/** English, the lab's only language so far.  Functions take what the sentence needs. */
export const STRINGS = Object.freeze({
  // the bar at the top of every element
  brand: 'sqrtdk lab',
  copyLink: 'Copy link',
  copyLinkTitle: 'copy a link that restores every setting, seeds included',
  linkLabel: 'link to these settings',
  linkCopied: 'Link copied.',
  copyThisLink: 'Copy this link:',
  helperFailed: (message, replaced) => `The helper worker failed (${message})${replaced ? '; it was replaced.' : '.'}`,

  // the frame messaging of lab.html
  badParentOrigin: (value) => `parentOrigin ${value} is not an exact origin such as https://lessons.example.org; `
    + 'the lab does not talk to the page around it.',
  noParentFrame: 'parentOrigin is set but the lab is not inside a frame; nothing is posted.',

  // the element's methods and properties (thrown as one-line Error messages)
  notConnected: (member) => `sqrtdk-lab: ${member} needs the element to be in the document.`,
  noExercise: (member) => `sqrtdk-lab: ${member} needs the exercise panel (panels includes "train").`,
  badExportFormat: (format) => `sqrtdk-lab: exportData(format): format must be 'csv' or 'json', not ${format}.`,
  badSettingsType: (type) => `sqrtdk-lab: settings must be an object such as {dk: 256} or a hash such as "dk=256", not ${type}.`,
  badSettingType: (key, expected, type) => `sqrtdk-lab: settings.${key} must be ${expected}, not ${type}; nothing was changed.`,
  badSetting: (problem, more) => `sqrtdk-lab: ${problem}${more > 0 ? ` (and ${more} more)` : ''}; nothing was changed.`,

  // events' messages (sqrtdk-error detail.message)
  wasmFailed: (message) => `The WebAssembly core could not start: ${message}`,
  runFailed: (label, message) => `The run ${label} failed and stopped: ${message}`,
  workerReplaced: (label, step) => `The worker of ${label} failed; it was replaced and the run resumes at step ${step}.`,
  badMessage: (problem) => `sqrtdk-lab: message ignored: ${problem}`,
  unknownCommand: (type) => `unknown type ${type} (expected start, pause, reset or settings)`,

  // answer: the core's phrasebook: the templates of the answer's sentences, table cells and definitions, key ->
  // template, "{name}" filled in (web/src/analysis/render-message.js).  English comes from the core
  // (src/core/phrasebook.cpp, via core-tables.js); a translation replaces PHRASEBOOK here with an object of the
  // same keys (plural keys may add .zero/.two/.few/.many forms; a missing key falls back to English).
  answer: PHRASEBOOK,
});
