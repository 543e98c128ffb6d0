// The element's language and how its numbers and plurals are written (Intl).  Locale code, apart from the
// catalogue (strings.js) so that a translator replaces texts only.  Pure: no DOM beyond reading `lang`.

const FALLBACK = 'en';
const known = new Map();  // tag as given -> the tag Intl is given

/**
 * A tag every Intl constructor accepts and formats in: `tag` canonical ("EN-us" -> "en-US") when Intl supports
 * it, else 'en'.  An invalid tag ("C", what a POSIX locale makes of navigator.language; "en_US"; "") makes Intl
 * throw, and a valid one it lacks would silently take the browser's language instead of the element's.
 * @param {unknown} tag
 */
export function knownLocale(tag) {
  const text = String(tag ?? '');
  let locale = known.get(text);
  if (locale === undefined) {
    try {
      locale = Intl.NumberFormat.supportedLocalesOf(text)[0] ?? FALLBACK;  // throws on an invalid tag
    } catch {
      locale = FALLBACK;
    }
    known.set(text, locale);
  }
  return locale;
}

/** The language the element speaks: its own or nearest ancestor's lang attribute, else the document's, else 'en'. */
export function langOf(element) {
  const tagged = element?.closest?.('[lang]');
  return knownLocale(tagged?.getAttribute('lang') || globalThis.document?.documentElement?.lang || FALLBACK);
}

const THREE_DIGITS = Object.freeze({ maximumSignificantDigits: 3 });
// Formatters by options (the same object again: no key to build) and lang; by lang and options' text.
const byOptions = new WeakMap();
const byText = new Map();

function formatter(lang, options) {
  let perLang = byOptions.get(options);
  if (!perLang) byOptions.set(options, (perLang = new Map()));
  let format = perLang.get(lang);
  if (!format) {
    const key = `${lang}|${JSON.stringify(options)}`;
    format = byText.get(key) ?? new Intl.NumberFormat(knownLocale(lang), options);
    byText.set(key, format);
    perLang.set(lang, format);
  }
  return format;
}

/**
 * A number as a reader of `lang` writes it: 1234.5 -> "1,234.5" (en), "1.234,5" (de).
 * @param {number} x  @param {string} lang  @param {Intl.NumberFormatOptions} options (default: up to 3 significant digits)
 */
export function formatNumber(x, lang = 'en', options = THREE_DIGITS) {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? '–' : (x > 0 ? '∞' : '-∞');  // as the core writes them
  return formatter(lang, options).format(x);
}

/**
 * The form of a phrase for `count` in `lang`: forms by plural category (English: one, other; a translation
 * lists its language's categories, e.g. one, few, many, other).
 * @param {string} lang  @param {number} count  @param {{one?: string, few?: string, many?: string, other: string}} forms
 */
export function plural(lang, count, forms) {
  return forms[new Intl.PluralRules(knownLocale(lang)).select(count)] ?? forms.other;
}

