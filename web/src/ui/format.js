// Number formatting shared by the tables, notes and readouts, for a reader of `lang` (the element's, from
// langOf in strings.js; 'en' by default).  Built on formatNumber, so "0.994" in English is "0,994" in German.
// Pure: no DOM.

import { formatNumber } from './locale.js';

// Options objects made once (formatNumber finds their formatter without building a key).
const DECIMALS = Array.from({ length: 21 }, (_, d) => Object.freeze({ useGrouping: false, minimumFractionDigits: d, maximumFractionDigits: d }));
const SIGNIFICANT = Array.from({ length: 22 }, (_, p) => Object.freeze({ useGrouping: false, maximumSignificantDigits: Math.max(1, p) }));
const WHOLE = Object.freeze({ useGrouping: false, maximumFractionDigits: 0 });
const COUNT = Object.freeze({ maximumFractionDigits: 0 });

/** "1.23e-4" with the language's decimal mark in the mantissa (the exponent as C prints it: e-04 or e-4). */
function exponential(mantissa, exponent, lang, fractionDigits, padExponent) {
  const digits = DECIMALS[fractionDigits];
  const e = String(Math.abs(exponent)).padStart(padExponent ? 2 : 1, '0');
  return `${formatNumber(mantissa, lang, digits)}e${exponent < 0 ? '-' : '+'}${e}`;
}

/** Like C's printf("%.{digits}f"). */
export function fixed(x, digits, lang = 'en') {
  if (!Number.isFinite(x)) return String(x);
  return formatNumber(x, lang, DECIMALS[digits]);
}

/** Like C's printf("%.{precision}g"): the lesson's printout uses %.3g for the Jacobian norm. */
export function formatG(x, precision = 3, lang = 'en') {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  const [mantissa, exp] = x.toExponential(precision - 1).split('e');
  const exponent = Number(exp);
  if (exponent < -4 || exponent >= precision) {
    const m = Number(mantissa);
    const decimals = mantissa.includes('.') ? mantissa.replace(/0+$/, '').split('.')[1]?.length ?? 0 : 0;
    return exponential(m, exponent, lang, decimals, true);
  }
  return formatNumber(x, lang, SIGNIFICANT[precision]);
}

/** A value for a chart readout: 3 significant digits, compact ('–' for none). */
export function short(x, lang = 'en') {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  if (x !== 0 && (Math.abs(x) < 1e-3 || Math.abs(x) >= 1e5)) {
    const [mantissa, exp] = x.toExponential(2).split('e');
    return exponential(Number(mantissa), Number(exp), lang, 2, false);
  }
  return formatNumber(x + 0, lang, SIGNIFICANT[3]);
}

/** Whole steps, e.g. 61 or 119.5 (a median of two); no grouping, as the step counts everywhere on the page. */
export function stepsText(x, lang = 'en') {
  return formatNumber(x, lang, Number.isInteger(x) ? WHOLE : DECIMALS[1]);
}

/** A count with the language's grouping: 20,000 (en), 20.000 (de). */
export function count(x, lang = 'en') {
  return formatNumber(x, lang, COUNT);
}

/** A whole number as the page's sentences and tables write counts, d_k and seeds: no grouping ("1024"). */
export function whole(x, lang = 'en') {
  return formatNumber(x, lang, WHOLE);
}
