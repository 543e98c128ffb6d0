// Number formatting shared by the tables and readouts.  Pure: no DOM.

/** Like C's printf("%.{digits}f"). */
export function fixed(x, digits) {
  return Number.isFinite(x) ? x.toFixed(digits) : String(x);
}

/** Like C's printf("%.{precision}g"): the lesson's printout uses %.3g for the Jacobian norm. */
export function formatG(x, precision = 3) {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  const exponent = Number(x.toExponential(precision - 1).split('e')[1]);
  if (exponent < -4 || exponent >= precision) {
    const [mantissa, exp] = x.toExponential(precision - 1).split('e');
    const trimmed = mantissa.includes('.') ? mantissa.replace(/0+$/, '').replace(/\.$/, '') : mantissa;
    const e = Number(exp);
    return `${trimmed}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  const text = x.toFixed(Math.max(0, precision - 1 - exponent));
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** A value for a chart readout: 3 significant digits, compact. */
export function short(x) {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  if (x !== 0 && (Math.abs(x) < 1e-3 || Math.abs(x) >= 1e5)) return x.toExponential(2);
  return String(Number(x.toPrecision(3)));
}

/** Whole steps, e.g. 61 or 119.5 (a median of two). */
export function stepsText(x) {
  return Number.isInteger(x) ? String(x) : x.toFixed(1);
}
