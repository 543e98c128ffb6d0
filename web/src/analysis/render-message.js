// The core's messages in a language: a message is a key into a phrasebook (a template per key) and named
// arguments; lab.compare({messages: true}) sends them (shape at the top of src/core/answer/analysis_json.cpp), the
// English phrasebook comes from the core (PHRASEBOOK in core-tables.js) and a translation replaces it in
// web/src/ui/strings.js (STRINGS.answer).  This is the twin of the core's English renderer
// (src/core/text/phrasebook.cpp): with lang 'en' and the English phrasebook both give the same text, which
// tests/node/phrasebook.test.mjs checks on answers of every kind.
//
//   message  {key, plural?, args: {name: arg}}   "{name}" in the template is replaced by the argument
//   plural   the count argument choosing the form: key.one, key.few, ... (Intl.PluralRules), else key.other
//   arg      message | {count} | {value} | {text} | {list: [arg], join: key}
// Numbers: count and value as ui/format.js writes them (formatCount, formatValue), the core's one rule.

import { PHRASEBOOK } from '../core-tables.js';
import { formatCount, formatValue } from '../ui/format.js';
import { knownLocale } from '../ui/locale.js';

export { formatCount, formatValue };

const cache = new Map();
function cached(kind, lang, make) {
  const key = `${kind}|${lang}`;
  if (!cache.has(key)) cache.set(key, make());
  return cache.get(key);
}
const pluralRules = (lang) => cached('plural', lang, () => new Intl.PluralRules(knownLocale(lang)));

const has = (object, key) => object != null && Object.hasOwn(object, key);

/** The template of `message` in `phrases`, falling back to English for a key a translation lacks. */
function templateOf(message, phrases, lang) {
  const { key, plural } = message;
  if (!plural) return has(phrases, key) ? phrases[key] : has(PHRASEBOOK, key) ? PHRASEBOOK[key] : `{${key}}`;
  const n = message.args?.[plural]?.count;
  const form = `${key}.${pluralRules(lang).select(n)}`;
  const english = `${key}.${n === 1 ? 'one' : 'other'}`;
  for (const [book, k] of [[phrases, form], [phrases, `${key}.other`], [PHRASEBOOK, english]]) if (has(book, k)) return book[k];
  return `{${english}}`;
}

/**
 * One argument (a message, a number, a text or a list) as text.
 * @param {object} arg  @param {Record<string, string>} phrases key -> template  @param {string} lang e.g. 'en', 'de'
 */
export function renderArg(arg, phrases = PHRASEBOOK, lang = 'en') {
  if (has(arg, 'key')) return renderMessage(arg, phrases, lang);
  if (has(arg, 'count')) return formatCount(arg.count, lang);
  if (has(arg, 'value')) return formatValue(arg.value, lang);
  if (has(arg, 'text')) return String(arg.text);
  if (has(arg, 'list')) {
    const join = renderMessage({ key: arg.join }, phrases, lang);
    return arg.list.map((item) => renderArg(item, phrases, lang)).join(join);
  }
  return '';
}

/** A message as text: its template with every {name} replaced by its argument. */
export function renderMessage(message, phrases = PHRASEBOOK, lang = 'en') {
  const args = message.args ?? {};
  const fill = (whole, name) => (has(args, name) ? renderArg(args[name], phrases, lang) : whole);
  return templateOf(message, phrases, lang).replace(/\{(\w+)\}/g, fill);
}
