// Number formatting shared by the core's messages, the tables, notes and readouts, for a reader of `lang` (the
// element's, from langOf in strings.js; 'en' by default).  A measured value has one rule, the core's
// (formatValue); counts are whole (whole, count, formatCount).  Built on formatNumber, so "0.994" in English
// is "0,994" in German.
// Pure: no DOM.

import { formatNumber } from './locale.js';

// Options objects made once (formatNumber finds their formatter without building a key).
const DECIMALS = Array.from({ length: 21 }, (_, d) => Object.freeze({ useGrouping: false, minimumFractionDigits: d, maximumFractionDigits: d }));
const SIGNIFICANT = Object.freeze({ useGrouping: false, maximumSignificantDigits: 3 });
const WHOLE = Object.freeze({ useGrouping: false, maximumFractionDigits: 0 });
const COUNT = Object.freeze({ maximumFractionDigits: 0 });

/** Like C's printf("%.{digits}f"): the printout's fixed columns, as `sqrtdk softmax` prints them. */
export function fixed(x, digits, lang = 'en') {
  return formatNumber(x, lang, DECIMALS[digits]);
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

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';

/** 10 to a whole power, the exponent in superscript digits: '10⁻⁵', '10⁰' (number_text.cpp power_of_ten). */
export function powerOfTen(exponent) {
  return `10${exponent < 0 ? '⁻' : ''}${String(Math.abs(exponent)).replace(/\d/g, (d) => SUPERSCRIPT[d])}`;
}

/**
 * A measured value, the one rule of the core and the page (src/core/text/number_text.cpp format_number): 3
 * significant digits rounded as C's %.3g, plain for exponents -4..2 (0.248, 1.93, 999), else in powers of ten
 * (2.03×10⁻⁵, 1.23×10⁵, 10⁻⁶), rounded exactly with a tie to even; none (null, undefined, NaN) '–', infinities
 * '∞' and '-∞'.  Digits and the decimal mark are the language's.
 */
export function formatValue(x, lang = 'en') {
  if (x === null || x === undefined || Number.isNaN(x)) return '–';
  if (!Number.isFinite(x)) return formatNumber(x, lang, SIGNIFICANT);
  if (x === 0) return formatNumber(0, lang, SIGNIFICANT);  // -0 too, as %.3g would not: "0"
  const rounded = roundedExponential(x);
  const e = Number(rounded.slice(rounded.indexOf('e') + 1));
  if (e >= -4 && e < 3) return formatNumber(Number(rounded), lang, SIGNIFICANT);
  const mantissa = Number(rounded.slice(0, rounded.indexOf('e')));
  if (Math.abs(mantissa) === 1) return `${mantissa < 0 ? '-' : ''}${powerOfTen(e)}`;
  return `${formatNumber(mantissa, lang, SIGNIFICANT)}×${powerOfTen(e)}`;
}

const SIGNIFICANT_KEPT = Object.freeze({ useGrouping: false, minimumSignificantDigits: 3, maximumSignificantDigits: 3 });

/**
 * A measured value shown beside another of its kind (a column, "raw vs scaled"): formatValue's 3 significant
 * digits with their trailing zeros kept, '0.200' beside '0.0739', '1.00×10⁻⁵' (number_text.cpp format_significant),
 * so that a value that rounds to one digit does not read as a given, round number.
 */
export function formatSignificant(x, lang = 'en') {
  if (x === null || x === undefined || Number.isNaN(x) || !Number.isFinite(x) || x === 0) return formatValue(x, lang);
  const rounded = roundedExponential(x);
  const e = Number(rounded.slice(rounded.indexOf('e') + 1));
  if (e >= -4 && e < 3) return formatNumber(Number(rounded), lang, SIGNIFICANT_KEPT);
  const mantissa = Number(rounded.slice(0, rounded.indexOf('e')));
  return `${formatNumber(mantissa, lang, SIGNIFICANT_KEPT)}×${powerOfTen(e)}`;
}

/** A count of steps or seeds, whole or a half (a median of two): 61, 119.5; no grouping, as the core writes it. */
export function formatCount(n, lang = 'en') {
  return formatNumber(n, lang, Number.isInteger(n) ? WHOLE : DECIMALS[1]);
}

/** A count with the language's grouping: 20,000 (en), 20.000 (de). */
export function count(x, lang = 'en') {
  return formatNumber(x, lang, COUNT);
}

/** A whole number as the page's sentences and tables write counts, d_k and seeds: no grouping ("1024"). */
export function whole(x, lang = 'en') {
  return formatNumber(x, lang, WHOLE);
}
