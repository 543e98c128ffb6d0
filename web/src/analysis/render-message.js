// The core's messages in a language: a message is a key into a phrasebook (a template per key) and named
// arguments; lab.compare({messages: true}) sends them (shape at the top of src/core/analysis_json.cpp), the
// English phrasebook comes from the core (PHRASEBOOK in core-tables.js) and a translation replaces it in
// web/src/ui/strings.js (STRINGS.answer).  This is the twin of the core's English renderer
// (src/core/phrasebook.cpp): with lang 'en' and the English phrasebook both give the same text, which
// tests/node/phrasebook.test.mjs checks on answers of every kind.
//
//   message  {key, plural?, args: {name: arg}}   "{name}" in the template is replaced by the argument
//   plural   the count argument choosing the form: key.one, key.few, ... (Intl.PluralRules), else key.other
//   arg      message | {count} | {value} | {text} | {list: [arg], join: key}
// Numbers (the one rule, the same as the core's):
//   count    a whole number or a half (steps, seeds): at most one decimal, no digit grouping: 61, 119.5 (de 119,5)
//   value    3 significant digits as C's %.3g: plain for exponents -4..2 (0.248, 1.93, 999), else mantissa and
//            exponent (2.03e-05, 1.23e+05); rounded exactly, a tie to even; NaN or null "–".  Digits and the
//            decimal mark are the language's.

import { PHRASEBOOK } from '../core-tables.js';

const cache = new Map();
function cached(kind, lang, make) {
  const key = `${kind}|${lang}`;
  if (!cache.has(key)) cache.set(key, make());
  return cache.get(key);
}
const COUNT = { maximumFractionDigits: 1, useGrouping: false };
const VALUE = { maximumSignificantDigits: 3, useGrouping: false };
const countFormat = (lang) => cached('count', lang, () => new Intl.NumberFormat(lang, COUNT));
const valueFormat = (lang) => cached('value', lang, () => new Intl.NumberFormat(lang, VALUE));
const pluralRules = (lang) => cached('plural', lang, () => new Intl.PluralRules(lang));

/** A count (whole number or half) as `lang` writes it, without digit grouping. */
export function formatCount(n, lang = 'en') {
  return countFormat(lang).format(n);
}

/** `x` rounded to 3 significant digits as printf("%.3g") rounds it, in exponential notation: '1.12e+0'. */
function roundedExponential(x) {
  const nearest = x.toExponential(2);  // exact, but an exact tie goes away from zero; printf's goes to even
  const four = x.toExponential(3);
  if (four[4 + (x < 0)] !== '5') return nearest;
  const long = x.toExponential(60);
  const mantissa = long.slice(0, long.indexOf('e'));
  if (!/^-?\d\.\d\d50*$/.test(mantissa)) return nearest;  // not a tie
  const third = Number(mantissa[3 + (x < 0)]);
  return third % 2 === 0 ? mantissa.slice(0, 4 + (x < 0)) + long.slice(long.indexOf('e')) : nearest;
}

/** A value with 3 significant digits, as the core writes it with %.3g, in `lang`'s digits. */
export function formatValue(x, lang = 'en') {
  if (x === null || Number.isNaN(x)) return '–';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return valueFormat(lang).format(x);
  const rounded = roundedExponential(x);
  const e = Number(rounded.slice(rounded.indexOf('e') + 1));
  if (e >= -4 && e < 3) return valueFormat(lang).format(Number(rounded));
  const mantissa = valueFormat(lang).format(Number(rounded.slice(0, rounded.indexOf('e'))));
  return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

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
